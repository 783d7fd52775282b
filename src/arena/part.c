/*
 * part.c: part files, the per-game results of one shard of an arena run
 * (gateau/arena.h; the format is in docs/cluster.md).
 *
 * A header names the run (game, players, options, bots, seed, games) and
 * the shard; then one line per finished game, appended as each finishes.
 * The lines hold each game's whole result (scores, winners, moves,
 * actions), not sums: statistics computed from them in game order are the
 * single run's to the last bit, which sums merged from shards would not
 * be.  Everything is written in one canonical way and read strictly, so
 * what is read writes back to the same bytes.
 */
#include "gateau/arena.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena/arena_text.h"

#define PART_MAGIC "gateau arena part 1"
#define PART_COLUMNS "columns game scores winners moves actions"
/* As `gateau arena --games` takes them; also bounds what a header makes
 * the reader allocate (a bit per game of the shard). */
#define PART_MAX_GAMES 1000000000L

/* Text for a header line: printable, without a newline. */
static bool printable(const char *text)
{
    for (const unsigned char *c = (const unsigned char *)text; *c; c++)
        if (*c < 0x20 || *c == 0x7f) return false;
    return true;
}

static bool valid_word(const char *text)
{
    return text[0] && printable(text) && !strchr(text, ' ');
}

/* A SHA-256 in hex, as a part's deck line gives it. */
static bool valid_deck_hash(const char *text)
{
    return strlen(text) == 64 && strspn(text, "0123456789abcdef") == 64;
}

/* ---- Writing ---------------------------------------------------------------------- */

static bool check_header(const gateau_arena_part_header *header, char *error, size_t error_size)
{
    if (!valid_word(header->game)) {
        arena_error(error, error_size, "the game's name must be one printable word");
        return false;
    }
    if (header->players < 1 || header->players > GATEAU_MAX_PLAYERS) {
        arena_error(error, error_size, "players must be 1 to %d, not %d", GATEAU_MAX_PLAYERS,
                    header->players);
        return false;
    }
    if (!printable(header->options)) {
        arena_error(error, error_size, "the options must be printable text on one line");
        return false;
    }
    if (header->deck[0] && !valid_deck_hash(header->deck)) {
        arena_error(error, error_size, "the deck's hash must be 64 lower-case hex digits");
        return false;
    }
    for (int k = 0; k < header->players; k++)
        if (!header->bots[k][0] || !printable(header->bots[k])) {
            arena_error(error, error_size, "bot %d must be printable text on one line", k + 1);
            return false;
        }
    if (header->games < 1 || header->games > PART_MAX_GAMES) {
        arena_error(error, error_size, "games must be 1 to %ld, not %ld", PART_MAX_GAMES,
                    header->games);
        return false;
    }
    if (header->shards < 1 || header->shards > header->games) {
        arena_error(error, error_size, "shards must be 1 to the %ld games, not %d",
                    header->games, header->shards);
        return false;
    }
    if (header->shard < 1 || header->shard > header->shards) {
        arena_error(error, error_size, "the shard must be 1 to %d, not %d", header->shards,
                    header->shard);
        return false;
    }
    return true;
}

char *gateau_arena_part_header_text(const gateau_arena_part_header *header, char *error,
                                    size_t error_size)
{
    if (!check_header(header, error, error_size)) return NULL;
    text_buffer out = {0};
    arena_append(&out, PART_MAGIC "\n");
    arena_append(&out, "game %s\n", header->game);
    arena_append(&out, "players %d\n", header->players);
    arena_append(&out, header->options[0] ? "options %s\n" : "options\n", header->options);
    if (header->deck[0]) arena_append(&out, "deck %s\n", header->deck);
    for (int k = 0; k < header->players; k++)
        arena_append(&out, "bot %d %s\n", k + 1, header->bots[k]);
    arena_append(&out, "seed %llu\n", (unsigned long long)header->seed);
    arena_append(&out, "games %ld\n", header->games);
    arena_append(&out, "shard %d/%d\n", header->shard, header->shards);
    arena_append(&out, PART_COLUMNS "\n");
    return out.data;
}

int gateau_arena_part_line(long game, const gateau_arena_game *result, int players, char *out)
{
    if (players < 1) players = 1;
    if (players > GATEAU_MAX_PLAYERS) players = GATEAU_MAX_PLAYERS;
    int length = snprintf(out, GATEAU_ARENA_PART_LINE_SIZE, "%ld", game + 1);
    for (int s = 0; s < players; s++)
        length += snprintf(out + length, (size_t)(GATEAU_ARENA_PART_LINE_SIZE - length), "%c%d",
                           s ? ',' : ' ', result->scores[s]);
    int winners = 0;
    for (int s = 0; s < players; s++)
        if (result->winners >> s & 1)
            length += snprintf(out + length, (size_t)(GATEAU_ARENA_PART_LINE_SIZE - length),
                               "%c%d", winners++ ? ',' : ' ', s + 1);
    if (!winners) length += snprintf(out + length, (size_t)(GATEAU_ARENA_PART_LINE_SIZE - length), " -");
    length += snprintf(out + length, (size_t)(GATEAU_ARENA_PART_LINE_SIZE - length), " %d %d",
                       result->moves, result->actions);
    /* An ext: program's failures and fallbacks, by seat, only when there
     * are some: the lines of other games stay as they always were. */
    bool any = false;
    for (int s = 0; s < players; s++) any |= result->failures[s] || result->fallbacks[s];
    for (int list = 0; any && list < 2; list++) {
        const uint16_t *counts = list ? result->fallbacks : result->failures;
        length += snprintf(out + length, (size_t)(GATEAU_ARENA_PART_LINE_SIZE - length), " %s",
                           list ? "fallbacks" : "failures");
        for (int s = 0; s < players; s++)
            length += snprintf(out + length, (size_t)(GATEAU_ARENA_PART_LINE_SIZE - length),
                               "%c%u", s ? ',' : ' ', (unsigned)counts[s]);
    }
    length += snprintf(out + length, (size_t)(GATEAU_ARENA_PART_LINE_SIZE - length), "\n");
    return length;
}

bool gateau_arena_part_header_of(const gateau_arena_config *config,
                                 gateau_arena_part_header *header, char *error,
                                 size_t error_size)
{
    memset(header, 0, sizeof *header);
    if (!config->setup || !config->bots) {
        arena_error(error, error_size, "the configuration needs a setup and bots");
        return false;
    }
    const char *name = gateau_game_name(gateau_setup_game(config->setup));
    const char *options = gateau_setup_options_text(config->setup);
    header->players = gateau_setup_players(config->setup);
    if (strlen(name) >= sizeof header->game || strlen(options) >= sizeof header->options) {
        arena_error(error, error_size, "the game's name or options are too long for a part file");
        return false;
    }
    strcpy(header->game, name);
    strcpy(header->options, options);
    for (int k = 0; k < header->players && k < GATEAU_MAX_PLAYERS; k++) {
        if (!config->bots[k] || strlen(config->bots[k]) >= sizeof header->bots[k]) {
            arena_error(error, error_size, "bot %d: a spec of 1 to %zu characters", k + 1,
                        sizeof header->bots[k] - 1);
            return false;
        }
        strcpy(header->bots[k], config->bots[k]);
    }
    header->seed = config->seed;
    header->games = config->games;
    header->shard = config->shards ? config->shard : 1;
    header->shards = config->shards ? config->shards : 1;
    return check_header(header, error, error_size);
}

/* ---- Reading ---------------------------------------------------------------------- */

typedef struct reader {
    const char *text, *end;
    const char *line_start, *line_end; /* the current line, without its newline */
    int line;                          /* its 1-based number */
    char *error;
    size_t error_size;
    int *error_line;
} reader;

/* Moves to the next complete line; false at the end or before a last line
 * without its newline. */
static bool next_line(reader *r)
{
    const char *start = r->line_end ? r->line_end + 1 : r->text;
    if (start >= r->end) return false;
    const char *newline = memchr(start, '\n', (size_t)(r->end - start));
    if (!newline) return false;
    r->line_start = start;
    r->line_end = newline;
    r->line++;
    return true;
}

static bool refuse(reader *r, int line, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static bool refuse(reader *r, int line, const char *format, ...)
{
    if (r->error && r->error_size) {
        va_list args;
        va_start(args, format);
        vsnprintf(r->error, r->error_size, format, args);
        va_end(args);
    }
    if (r->error_line) *r->error_line = line;
    return false;
}

/* A whole number as printf writes it: digits without a leading zero (but
 * "0"), from *p, up to max.  Advances *p past it. */
static bool read_unsigned(const char **p, const char *end, unsigned long long max,
                          unsigned long long *value)
{
    const char *c = *p;
    if (c >= end || *c < '0' || *c > '9') return false;
    if (*c == '0' && c + 1 < end && c[1] >= '0' && c[1] <= '9') return false;
    unsigned long long magnitude = 0;
    for (; c < end && *c >= '0' && *c <= '9'; c++) {
        unsigned digit = (unsigned)(*c - '0');
        if (digit > max || magnitude > (max - digit) / 10) return false;
        magnitude = magnitude * 10 + digit;
    }
    *value = magnitude;
    *p = c;
    return true;
}

/* An int as %d writes it: read_unsigned's digits, '-' before them when
 * negative (never "-0"). */
static bool read_int(const char **p, const char *end, int *value)
{
    const char *c = *p;
    bool negative = c < end && *c == '-';
    if (negative) c++;
    unsigned long long magnitude;
    if (!read_unsigned(&c, end, negative ? (unsigned long long)INT_MAX + 1 : INT_MAX,
                       &magnitude) ||
        (negative && magnitude == 0))
        return false;
    *value = negative ? (int)(-(long long)magnitude) : (int)magnitude;
    *p = c;
    return true;
}

/* The current line is `key` then a space and a number and nothing else. */
static bool header_number(reader *r, const char *key, unsigned long long max,
                          unsigned long long *value)
{
    size_t key_length = strlen(key);
    const char *p = r->line_start + key_length + 1;
    if ((size_t)(r->line_end - r->line_start) <= key_length ||
        strncmp(r->line_start, key, key_length) || r->line_start[key_length] != ' ' ||
        !read_unsigned(&p, r->line_end, max, value) || p != r->line_end)
        return refuse(r, r->line, "expected '%s N' (N a whole number up to %llu)", key, max);
    return true;
}

/* The rest of the line after "key " into out (size bytes), printable. */
static bool header_text(reader *r, const char *key, char *out, size_t size, bool empty_allowed)
{
    size_t key_length = strlen(key), length = (size_t)(r->line_end - r->line_start);
    bool bare = length == key_length && !strncmp(r->line_start, key, key_length);
    if (bare && empty_allowed) {
        out[0] = '\0';
        return true;
    }
    if (length <= key_length + 1 || strncmp(r->line_start, key, key_length) ||
        r->line_start[key_length] != ' ')
        return refuse(r, r->line, "expected '%s %s'", key, empty_allowed ? "[TEXT]" : "TEXT");
    size_t value_length = length - key_length - 1;
    if (value_length >= size)
        return refuse(r, r->line, "%s: longer than %zu characters", key, size - 1);
    memcpy(out, r->line_start + key_length + 1, value_length);
    out[value_length] = '\0';
    if (!printable(out)) return refuse(r, r->line, "%s: not printable text", key);
    return true;
}

static bool expect_line(reader *r, const char *text)
{
    if (!next_line(r))
        return refuse(r, r->line + 1, "the header ends before '%s'", text);
    size_t length = strlen(text);
    if ((size_t)(r->line_end - r->line_start) != length || strncmp(r->line_start, text, length))
        return refuse(r, r->line, "expected '%s'", text);
    return true;
}

static bool need_line(reader *r, const char *what)
{
    if (next_line(r)) return true;
    return refuse(r, r->line + 1, "the header ends before its %s line", what);
}

static bool read_header(reader *r, gateau_arena_part_header *header)
{
    unsigned long long value;
    if (!next_line(r) || (size_t)(r->line_end - r->line_start) != strlen(PART_MAGIC) ||
        strncmp(r->line_start, PART_MAGIC, strlen(PART_MAGIC)))
        return refuse(r, 1, "not a part file of gateau arena (its first line is '%s')",
                      PART_MAGIC);
    if (!need_line(r, "game") ||
        !header_text(r, "game", header->game, sizeof header->game, false))
        return false;
    if (!valid_word(header->game)) return refuse(r, r->line, "game: one word");
    if (!need_line(r, "players") || !header_number(r, "players", GATEAU_MAX_PLAYERS, &value))
        return false;
    if (value < 1) return refuse(r, r->line, "players: 1 to %d", GATEAU_MAX_PLAYERS);
    header->players = (int)value;
    if (!need_line(r, "options") ||
        !header_text(r, "options", header->options, sizeof header->options, true))
        return false;
    /* (a deck line only when the options name a deck file) */
    if (!need_line(r, "bot 1")) return false;
    if (r->line_end - r->line_start > 5 && !strncmp(r->line_start, "deck ", 5)) {
        if (!header_text(r, "deck", header->deck, sizeof header->deck, false) ||
            !valid_deck_hash(header->deck))
            return refuse(r, r->line, "deck: the deck's SHA-256, 64 lower-case hex digits");
        if (!need_line(r, "bot 1")) return false;
    }
    for (int k = 0; k < header->players; k++) {
        char key[16];
        snprintf(key, sizeof key, "bot %d", k + 1);
        if ((k && !need_line(r, key)) ||
            !header_text(r, key, header->bots[k], sizeof header->bots[k], false))
            return false;
    }
    if (!need_line(r, "seed") || !header_number(r, "seed", UINT64_MAX, &value)) return false;
    header->seed = (uint64_t)value;
    if (!need_line(r, "games") || !header_number(r, "games", PART_MAX_GAMES, &value))
        return false;
    if (value < 1) return refuse(r, r->line, "games: 1 to %ld", PART_MAX_GAMES);
    header->games = (long)value;
    if (!need_line(r, "shard")) return false;
    const char *p = r->line_start + strlen("shard ");
    unsigned long long shard, shards;
    if ((size_t)(r->line_end - r->line_start) <= strlen("shard ") ||
        strncmp(r->line_start, "shard ", strlen("shard ")) ||
        !read_unsigned(&p, r->line_end, INT_MAX, &shard) || p >= r->line_end ||
        *p++ != '/' || !read_unsigned(&p, r->line_end, INT_MAX, &shards) ||
        p != r->line_end)
        return refuse(r, r->line, "expected 'shard I/N'");
    if (shards < 1 || shards > (unsigned long long)header->games || shard < 1 || shard > shards)
        return refuse(r, r->line, "shard %llu/%llu: I from 1 to N, N from 1 to the %ld games",
                      shard, shards, header->games);
    header->shard = (int)shard;
    header->shards = (int)shards;
    return expect_line(r, PART_COLUMNS);
}

/* " KEY C1,...,CN" of a game line, by seat, into counts. */
static bool read_counts(const char **p, const char *end, const char *key, int players,
                        uint16_t *counts)
{
    size_t key_length = strlen(key);
    if (end - *p < (long)key_length + 2 || (*p)[0] != ' ' || strncmp(*p + 1, key, key_length) ||
        (*p)[key_length + 1] != ' ')
        return false;
    *p += key_length + 2;
    for (int s = 0; s < players; s++) {
        unsigned long long value;
        if ((s && (*p >= end || *(*p)++ != ',')) || !read_unsigned(p, end, UINT16_MAX, &value))
            return false;
        counts[s] = (uint16_t)value;
    }
    return true;
}

/* One game line: "G S1,...,SN W M A", then " failures F1,...,FN fallbacks
 * B1,...,BN" when not all 0 (docs/cluster.md). */
static bool read_game(reader *r, const gateau_arena_part_header *header, long first, long count,
                      gateau_arena_part_game *out)
{
    const char *p = r->line_start, *end = r->line_end;
    unsigned long long value;
    memset(out, 0, sizeof *out);
    out->line = r->line;
    if (!read_unsigned(&p, end, (unsigned long long)PART_MAX_GAMES, &value) || value < 1 ||
        p >= end || *p++ != ' ')
        return refuse(r, r->line, "expected 'GAME SCORES WINNERS MOVES ACTIONS', GAME from 1");
    long game = (long)value - 1;
    if (game < first || game >= first + count)
        return refuse(r, r->line, "game %ld is not in shard %d/%d (games %ld to %ld)", game + 1,
                      header->shard, header->shards, first + 1, first + count);
    out->game = game;
    gateau_arena_game *result = &out->result;
    for (int s = 0; s < header->players; s++) {
        if ((s && (p >= end || *p++ != ',')) || !read_int(&p, end, &result->scores[s]))
            return refuse(r, r->line, "game %ld: expected %d scores separated by commas",
                          game + 1, header->players);
    }
    if (p >= end || *p++ != ' ')
        return refuse(r, r->line, "game %ld: expected %d scores separated by commas", game + 1,
                      header->players);
    if (p < end && *p == '-') {
        p++;
    } else {
        for (unsigned long long last = 0;;) {
            if (!read_unsigned(&p, end, (unsigned long long)header->players, &value) ||
                value <= last)
                return refuse(r, r->line,
                              "game %ld: winners are seats 1 to %d, ascending, separated by "
                              "commas, or '-'",
                              game + 1, header->players);
            last = value;
            result->winners |= 1u << (last - 1);
            if (p >= end || *p != ',') break;
            p++;
        }
    }
    unsigned long long moves, actions;
    if (p >= end || *p++ != ' ' || !read_unsigned(&p, end, INT_MAX, &moves) || p >= end ||
        *p++ != ' ' || !read_unsigned(&p, end, INT_MAX, &actions))
        return refuse(r, r->line, "game %ld: expected the moves and the actions after the winners",
                      game + 1);
    if (p != end) {
        bool any = false;
        bool read = read_counts(&p, end, "failures", header->players, result->failures) &&
                    read_counts(&p, end, "fallbacks", header->players, result->fallbacks) &&
                    p == end;
        for (int s = 0; read && s < header->players; s++)
            any |= result->failures[s] || result->fallbacks[s];
        if (!read || !any) /* (all 0: written without them) */
            return refuse(r, r->line, "game %ld: expected the moves and the actions, then "
                          "nothing or 'failures F1,... fallbacks B1,...' by seat, not all 0",
                          game + 1);
    }
    result->moves = (int)moves;
    result->actions = (int)actions;
    for (int k = 0; k < header->players; k++)
        result->bot_at_seat[gateau_arena_seat_of(k, game, header->players)] = (int8_t)k;
    result->done = true;
    return true;
}

void gateau_arena_part_free(gateau_arena_part *part)
{
    if (!part) return;
    free(part->games);
    memset(part, 0, sizeof *part);
}

bool gateau_arena_part_read(const char *text, size_t length, gateau_arena_part *part,
                            char *error, size_t error_size, int *line)
{
    memset(part, 0, sizeof *part);
    if (line) *line = 0;
    reader r = {.text = text, .end = text + length, .error = error, .error_size = error_size,
                .error_line = line};
    const char *nul = memchr(text, '\0', length);
    if (nul) {
        int at = 1;
        for (const char *c = text; c < nul; c++) at += *c == '\n';
        return refuse(&r, at, "a NUL byte");
    }
    if (!read_header(&r, &part->header)) return false;
    long first, count;
    gateau_arena_shard_range(part->header.games, part->header.shard, part->header.shards, &first,
                             &count);
    /* One bit per game of the shard: a game twice is refused. */
    unsigned char *seen = calloc((size_t)count / 8 + 1, 1);
    long capacity = 0;
    if (!seen) abort();
    bool ok = true;
    while (next_line(&r)) {
        if (part->count == capacity) {
            capacity = capacity ? capacity * 2 : 256;
            gateau_arena_part_game *games = realloc(part->games, sizeof *games * (size_t)capacity);
            if (!games) abort();
            part->games = games;
        }
        gateau_arena_part_game *game = &part->games[part->count];
        if (!read_game(&r, &part->header, first, count, game)) {
            ok = false;
            break;
        }
        long index = game->game - first;
        if (seen[index / 8] >> (index % 8) & 1) {
            long earlier = 0;
            while (part->games[earlier].game != game->game) earlier++;
            ok = refuse(&r, r.line, "game %ld twice (lines %d and %d)", game->game + 1,
                        part->games[earlier].line, r.line);
            break;
        }
        seen[index / 8] |= (unsigned char)(1u << (index % 8));
        part->count++;
    }
    free(seen);
    if (!ok) {
        gateau_arena_part_free(part);
        return false;
    }
    part->complete_length = r.line_end ? (size_t)(r.line_end + 1 - text) : 0;
    part->torn = part->complete_length < length;
    return true;
}
