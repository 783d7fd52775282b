/* record.c: reading, writing and replaying game records (gateau/record.h). */
#include "gateau/record.h"

#include <ctype.h>
#include <errno.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine.h"
#include "core/notation.h"

typedef struct record_move {
    int seat;          /* 0-based, or GATEAU_CHANCE */
    bool prefixed;     /* made in a simultaneous phase: written "2: ..." */
    char *text;        /* canonical notation */
    int first_action;  /* index into record->actions */
    int action_count;
} record_move;

struct gateau_record {
    gateau_setup *owned_setup; /* set when the record made its own */
    const gateau_setup *setup;
    char *names[GATEAU_MAX_PLAYERS];
    char *comment; /* the header comment, or NULL */
    gateau_state *state;      /* the position now */
    gateau_state *move_start; /* the position where the current move began */

    record_move *moves;
    int move_count, move_capacity;
    gateau_action *actions; /* the actions of all complete moves, in order */
    int action_count, action_capacity;

    /* The move being made, action by action. */
    gateau_action pending[GATEAU_MAX_MOVE_ACTIONS];
    int pending_count;
    int pending_seat;
};

static void *grow(void *items, int *capacity, int need, size_t item_size)
{
    if (need <= *capacity) return items;
    int next = *capacity ? *capacity * 2 : 64;
    while (next < need) next *= 2;
    void *grown = realloc(items, (size_t)next * item_size);
    if (!grown) abort();
    *capacity = next;
    return grown;
}

gateau_record *gateau_record_new(const gateau_setup *setup)
{
    gateau_record *record = calloc(1, sizeof *record);
    if (!record) abort();
    record->setup = setup;
    record->state = gateau_state_new(setup);
    record->move_start = gateau_state_clone(record->state);
    return record;
}

void gateau_record_free(gateau_record *record)
{
    if (!record) return;
    for (int i = 0; i < record->move_count; i++) free(record->moves[i].text);
    for (int i = 0; i < GATEAU_MAX_PLAYERS; i++) free(record->names[i]);
    free(record->comment);
    free(record->moves);
    free(record->actions);
    gateau_state_free(record->state);
    gateau_state_free(record->move_start);
    gateau_setup_free(record->owned_setup);
    free(record);
}

const gateau_setup *gateau_record_setup(const gateau_record *record) { return record->setup; }
const gateau_state *gateau_record_state(const gateau_record *record) { return record->state; }
int gateau_record_move_count(const gateau_record *record) { return record->move_count; }

const char *gateau_record_move_text(const gateau_record *record, int index)
{
    return index >= 0 && index < record->move_count ? record->moves[index].text : NULL;
}

int gateau_record_move_seat(const gateau_record *record, int index)
{
    return index >= 0 && index < record->move_count ? record->moves[index].seat : -1;
}

const gateau_action *gateau_record_move_actions(const gateau_record *record, int index,
                                                int *count)
{
    if (index < 0 || index >= record->move_count) {
        *count = 0;
        return NULL;
    }
    *count = record->moves[index].action_count;
    return record->actions + record->moves[index].first_action;
}

void gateau_record_set_name(gateau_record *record, int seat, const char *name)
{
    if (seat < 0 || seat >= record->setup->players) return;
    free(record->names[seat]);
    record->names[seat] = NULL;
    if (!name) return;
    /* The names line separates names by commas, starts a comment at '#'
     * and trims each name: such characters become spaces, and the ends
     * are trimmed, so that what is kept is what a reader reads back.
     * (Trimmed after the change: a name that starts with a control
     * character would otherwise start with a space, which a reader
     * trims.) */
    size_t length = strlen(name);
    char *kept = malloc(length + 1);
    if (!kept) abort();
    for (size_t i = 0; i < length;) {
        unsigned char c = (unsigned char)name[i];
        int utf8 = text_utf8_length(name + i);
        if (utf8 > 1) { /* a whole character beyond ASCII */
            memcpy(kept + i, name + i, (size_t)utf8);
            i += (size_t)utf8;
            continue;
        }
        /* Bytes that are not UTF-8 become '?', so every JSON writer takes
         * the name. */
        kept[i++] = !utf8 ? '?' : c == ',' || c == '#' || c < 0x20 || c == 0x7f ? ' ' : (char)c;
    }
    while (length > 0 && kept[length - 1] == ' ') length--;
    kept[length] = '\0';
    size_t start = strspn(kept, " ");
    memmove(kept, kept + start, length - start + 1);
    if (!kept[0]) {
        free(kept); /* nothing left: the default name */
        return;
    }
    record->names[seat] = kept;
}

const char *gateau_record_name(const gateau_record *record, int seat)
{
    static const char *const defaults[] = {"Seat 1", "Seat 2", "Seat 3",
                                           "Seat 4", "Seat 5", "Seat 6"};
    if (seat < 0 || seat >= record->setup->players) return "?";
    return record->names[seat] ? record->names[seat] : defaults[seat];
}

void gateau_record_set_comment(gateau_record *record, const char *comment)
{
    free(record->comment);
    record->comment = NULL;
    if (!comment || !comment[0]) return;
    size_t length = strlen(comment);
    while (length && comment[length - 1] == '\n') length--; /* no empty last line */
    char *kept = malloc(length + 1);
    if (!kept) abort();
    /* Control characters become spaces, and no line ends in a space: the
     * reader trims line ends, so the comment reads back as it was set. */
    size_t kept_length = 0;
    for (size_t i = 0; i <= length; i++) {
        unsigned char c = i < length ? (unsigned char)comment[i] : '\n';
        if (c == '\n') {
            while (kept_length && kept[kept_length - 1] == ' ') kept_length--;
            if (i < length) kept[kept_length++] = '\n';
        } else {
            kept[kept_length++] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
        }
    }
    while (kept_length && kept[kept_length - 1] == '\n') kept_length--;
    kept[kept_length] = '\0';
    if (!kept_length) {
        free(kept);
        return;
    }
    record->comment = kept;
}

const char *gateau_record_comment(const gateau_record *record)
{
    return record->comment ? record->comment : "";
}

/* ---- Playing ------------------------------------------------------------------ */

/* Files the pending actions as one complete move. */
static void finish_move(gateau_record *record)
{
    record->moves = grow(record->moves, &record->move_capacity, record->move_count + 1,
                         sizeof *record->moves);
    record->actions = grow(record->actions, &record->action_capacity,
                           record->action_count + record->pending_count,
                           sizeof *record->actions);
    record_move *move = &record->moves[record->move_count++];
    move->seat = record->pending_seat;
    move->prefixed = record->move_start->simultaneous;
    move->text = gateau_move_format(record->move_start, record->pending_seat, record->pending,
                                    record->pending_count);
    move->first_action = record->action_count;
    move->action_count = record->pending_count;
    memcpy(record->actions + record->action_count, record->pending,
           sizeof(gateau_action) * (size_t)record->pending_count);
    record->action_count += record->pending_count;
    record->pending_count = 0;
    gateau_state_copy(record->move_start, record->state);
}

bool gateau_record_play(gateau_record *record, int seat, gateau_action action, char *error,
                        size_t error_size)
{
    if (record->pending_count == GATEAU_MAX_MOVE_ACTIONS) {
        set_error(error, error_size, "move has too many actions");
        return false;
    }
    if (!gateau_state_apply(record->state, seat, action, error, error_size)) return false;
    if (record->pending_count == 0) record->pending_seat = seat;
    record->pending[record->pending_count++] = action;
    if (!record->state->in_move) finish_move(record);
    return true;
}

bool gateau_record_play_move(gateau_record *record, int seat, const char *text, char *error,
                             size_t error_size)
{
    gateau_action actions[GATEAU_MAX_MOVE_ACTIONS];
    int count = gateau_move_parse(record->state, seat, text, actions, error, error_size);
    if (count < 0) return false;
    /* gateau_move_parse() proved the actions legal and complete. */
    for (int i = 0; i < count; i++) gateau_record_play(record, seat, actions[i], NULL, 0);
    return true;
}

void gateau_record_play_chance(gateau_record *record, gateau_rng *rng)
{
    while (record->state->chance) {
        gateau_action outcome = gateau_state_sample_chance(record->state, rng);
        gateau_record_play(record, GATEAU_CHANCE, outcome, NULL, 0);
        if (!record->state->in_move) break;
    }
}

void gateau_record_truncate(gateau_record *record, int count)
{
    if (count < 0) count = 0;
    if (count > record->move_count) count = record->move_count;
    gateau_state *fresh = gateau_state_new(record->setup);
    gateau_state_copy(record->state, fresh);
    gateau_state_free(fresh);
    for (int m = 0; m < count; m++) {
        const record_move *move = &record->moves[m];
        for (int a = 0; a < move->action_count; a++)
            gateau_state_apply_legal(record->state, move->seat,
                                     record->actions[move->first_action + a]);
    }
    for (int m = count; m < record->move_count; m++) free(record->moves[m].text);
    record->action_count = count ? record->moves[count - 1].first_action +
                                       record->moves[count - 1].action_count
                                 : 0;
    record->move_count = count;
    record->pending_count = 0;
    gateau_state_copy(record->move_start, record->state);
}

/* ---- Writing ---------------------------------------------------------------- */

/* The header from game to "---", the header comment not included. */
static void write_header(const gateau_record *record, gateau_text *text)
{
    const gateau_setup *setup = record->setup;
    text_append(text, "game: %s\nplayers: %d\n", setup->game->name, setup->players);
    if (setup->options_text[0]) text_append(text, "options: %s\n", setup->options_text);
    bool named = false;
    for (int s = 0; s < setup->players; s++) named |= record->names[s] != NULL;
    if (named) {
        text_append(text, "names:");
        for (int s = 0; s < setup->players; s++)
            text_append(text, "%s %s", s ? "," : "", gateau_record_name(record, s));
        text_append(text, "\n");
    }
    text_append(text, "---\n");
}

static void write_move(const record_move *move, gateau_text *text)
{
    if (move->prefixed) text_append(text, "%d: ", move->seat + 1);
    text_append(text, "%s\n", move->text);
}

/* The closing comment of a game that ended unusually. */
static void write_end_note(const gateau_record *record, gateau_text *text)
{
    const gateau_game *game = record->setup->game;
    const gateau_state *state = record->state;
    if (state->over && game->end_note && game->end_note(state))
        text_append(text, "# %s\n", game->end_note(state));
}

char *gateau_record_text(const gateau_record *record)
{
    gateau_text text = {0};
    for (const char *line = record->comment; line && *line;) {
        size_t length = strcspn(line, "\n");
        text_append(&text, length ? "# %.*s\n" : "#\n", (int)length, line);
        line += length + (line[length] == '\n');
    }
    write_header(record, &text);
    for (int m = 0; m < record->move_count; m++) write_move(&record->moves[m], &text);
    write_end_note(record, &text);
    return text_take(&text);
}

/*
 * The moves are replayed from the start, since whether a move may be shown
 * depends on the position it was made from.  The header comment is left
 * out: tools note there how a game was made, a seed among it, and a seed
 * would tell every shuffle.
 */
char *gateau_record_text_for(const gateau_record *record, int viewer)
{
    gateau_text text = {0};
    write_header(record, &text);
    gateau_state *before = gateau_state_new(record->setup);
    for (int m = 0; m < record->move_count; m++) {
        const record_move *move = &record->moves[m];
        const gateau_action *actions = record->actions + move->first_action;
        if (gateau_move_visible(before, move->seat, actions, move->action_count, viewer))
            write_move(move, &text);
        else if (move->seat == GATEAU_CHANCE)
            text_append(&text, "# chance (hidden)\n");
        else
            text_append(&text, "# seat %d moved (hidden)\n", move->seat + 1);
        for (int a = 0; a < move->action_count; a++)
            gateau_state_apply_legal(before, move->seat, actions[a]);
    }
    gateau_state_free(before);
    write_end_note(record, &text);
    return text_take(&text);
}

int gateau_record_save(const gateau_record *record, const char *path, char *error,
                       size_t error_size)
{
    char *text = gateau_record_text(record);
    FILE *file = fopen(path, "w");
    int failed = !file || fputs(text, file) < 0;
    if (file && fclose(file) != 0) failed = 1;
    if (failed) set_error(error, error_size, "cannot write %s: %s", path, strerror(errno));
    free(text);
    return failed ? -1 : 0;
}

/* ---- Reading -------------------------------------------------------------------- */

/* One header key: its value and the line it was on (0: not given). */
typedef struct header_field {
    char *value;
    int line;
} header_field;

typedef struct record_reader {
    const char *base_dir;
    char *error;
    size_t error_size;
    int line_number;
    header_field game, players, options, names;
    gateau_text comment; /* the header's whole-line comments */
} record_reader;

/* Keeps a whole-line comment of the header ("# text": "text"). */
static void keep_header_comment(record_reader *reader, const char *line)
{
    while (isspace((unsigned char)*line)) line++;
    if (*line != '#') return;
    line++;
    if (*line == ' ') line++;
    size_t length = strlen(line);
    while (length && isspace((unsigned char)line[length - 1])) length--;
    text_append(&reader->comment, "%.*s\n", (int)length, line);
}

/* Cuts the comment and surrounding blanks off line (in place). */
static char *clean_line(char *line)
{
    char *hash = strchr(line, '#');
    if (hash) *hash = '\0';
    while (isspace((unsigned char)*line)) line++;
    size_t length = strlen(line);
    while (length && isspace((unsigned char)line[length - 1])) line[--length] = '\0';
    return line;
}

static bool read_header_line(record_reader *reader, char *line)
{
    char *colon = strchr(line, ':');
    if (!colon) {
        set_error(reader->error, reader->error_size,
                  "expected a header line 'key: value' or '---', got '%s'", line);
        return false;
    }
    *colon = '\0';
    char *key = clean_line(line);
    header_field *field = !strcmp(key, "game")      ? &reader->game
                          : !strcmp(key, "players") ? &reader->players
                          : !strcmp(key, "options") ? &reader->options
                          : !strcmp(key, "names")   ? &reader->names
                                                    : NULL;
    if (!field) {
        set_error(reader->error, reader->error_size, "unknown header key '%s'", key);
        return false;
    }
    if (field->line) {
        set_error(reader->error, reader->error_size, "header key '%s' is repeated (line %d)",
                  key, field->line);
        return false;
    }
    field->value = clean_line(colon + 1);
    field->line = reader->line_number;
    return true;
}

static bool apply_names(record_reader *reader, gateau_record *record)
{
    int players = record->setup->players, count = 0;
    char *cursor = reader->names.value;
    for (;;) {
        char *comma = strchr(cursor, ',');
        if (comma) *comma = '\0';
        char *name = clean_line(cursor);
        if (!name[0]) {
            set_error(reader->error, reader->error_size, "names: name %d is empty", count + 1);
            return false;
        }
        if (count < players) gateau_record_set_name(record, count, name);
        count++;
        if (!comma) break;
        cursor = comma + 1;
    }
    if (count != players) {
        set_error(reader->error, reader->error_size,
                  "names: %d names given for %d players", count, players);
        return false;
    }
    return true;
}

/* Builds the empty record that the header describes.  An error is blamed
 * on the header line at fault. */
static gateau_record *start_record(record_reader *reader)
{
    if (!reader->game.line || !reader->players.line) {
        set_error(reader->error, reader->error_size, "the header needs 'game:' and 'players:'");
        return NULL;
    }
    const gateau_game *game = gateau_game_find(reader->game.value);
    if (!game) {
        set_error(reader->error, reader->error_size, "unknown game '%s'", reader->game.value);
        reader->line_number = reader->game.line;
        return NULL;
    }
    int players;
    if (!notation_int(reader->players.value, 1, 99, &players)) {
        set_error(reader->error, reader->error_size, "players: '%s' is not a player count",
                  reader->players.value);
        reader->line_number = reader->players.line;
        return NULL;
    }
    bool players_fit = players >= game->min_players && players <= game->max_players;
    gateau_setup *setup = gateau_setup_new(game, players, reader->options.value,
                                           reader->base_dir, reader->error, reader->error_size);
    if (!setup) {
        reader->line_number = players_fit ? reader->options.line : reader->players.line;
        return NULL;
    }
    gateau_record *record = gateau_record_new(setup);
    record->owned_setup = setup;
    if (reader->comment.data) gateau_record_set_comment(record, reader->comment.data);
    if (reader->names.line && !apply_names(reader, record)) {
        reader->line_number = reader->names.line;
        gateau_record_free(record);
        return NULL;
    }
    return record;
}

/* Splits "2: take 4-7 ecce" into the prefix ("2", or NULL when there is
 * none) and the move. */
static char *split_prefix(char *line, char **prefix)
{
    *prefix = NULL;
    char *p = line;
    while (isdigit((unsigned char)*p)) p++;
    if (p == line) return line;
    char *after = p;
    while (*after == ' ' || *after == '\t') after++;
    if (*after != ':') return line;
    *p = '\0';
    *prefix = line;
    return clean_line(after + 1);
}

static bool read_move_line(record_reader *reader, gateau_record *record, char *line)
{
    const gateau_state *state = record->state;
    char *prefix_text;
    char *move = split_prefix(line, &prefix_text);
    char *error = reader->error;
    size_t size = reader->error_size;
    int players = record->setup->players, prefix = -1;
    if (prefix_text && !notation_int(prefix_text, 1, players, &prefix)) {
        if (notation_int(prefix_text, 1, 999, &prefix))
            set_error(error, size, "there is no seat %d in a %d-player game", prefix, players);
        else
            set_error(error, size, "'%s:' is not a seat: seats are 1 to %d", prefix_text, players);
        return false;
    }
    if (prefix_text) prefix--;
    if (state->over) {
        set_error(error, size, "the game is already over");
        return false;
    }
    int seat;
    if (state->chance) {
        if (prefix != -1) {
            set_error(error, size, "a chance move has no seat prefix");
            return false;
        }
        seat = GATEAU_CHANCE;
    } else if (prefix == -1) {
        if (state->simultaneous) {
            set_error(error, size, "a move in a simultaneous phase needs its seat, as in "
                                   "'%d: %s'", gateau_state_next_seat(state) + 1, move);
            return false;
        }
        seat = gateau_state_next_seat(state);
    } else {
        seat = prefix;
    }
    char reason[256];
    if (!gateau_record_play_move(record, seat, move, reason, sizeof reason)) {
        set_error(error, size, "'%s': %s", move, reason);
        return false;
    }
    return true;
}

gateau_record *gateau_record_read(const char *text, const char *base_dir, char *error,
                                  size_t error_size, int *error_line)
{
    record_reader reader = {.base_dir = base_dir, .error = error, .error_size = error_size};
    /* Editors on some systems start a UTF-8 file with a byte-order mark. */
    if (!strncmp(text, "\xef\xbb\xbf", 3)) text += 3;
    size_t length = strlen(text);
    char *copy = malloc(length + 1);
    if (!copy) abort();
    memcpy(copy, text, length + 1);
    gateau_record *record = NULL;
    bool in_header = true, ok = true;
    char *cursor = copy;
    while (ok && cursor) {
        char *newline = strchr(cursor, '\n');
        if (newline) *newline = '\0';
        reader.line_number++;
        if (in_header) keep_header_comment(&reader, cursor);
        char *line = clean_line(cursor);
        cursor = newline ? newline + 1 : NULL;
        if (!line[0]) continue;
        if (in_header && strcmp(line, "---") == 0) {
            in_header = false;
            record = start_record(&reader);
            ok = record != NULL;
        } else if (in_header) {
            ok = read_header_line(&reader, line);
        } else {
            ok = read_move_line(&reader, record, line);
        }
    }
    if (ok && in_header) {
        set_error(error, error_size, "the header never ends: no '---' line");
        ok = false;
        reader.line_number = 0;
    }
    if (error_line) *error_line = ok ? 0 : reader.line_number;
    free(copy);
    free(text_take(&reader.comment));
    if (!ok) {
        gateau_record_free(record);
        return NULL;
    }
    return record;
}

gateau_record *gateau_record_read_file(const char *path, char *error, size_t error_size,
                                       int *error_line)
{
    if (error_line) *error_line = 0;
    bool from_stdin = !strcmp(path, "-");
    FILE *file = from_stdin ? stdin : fopen(path, "rb");
    if (!file) {
        set_error(error, error_size, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat info;
    if (fstat(fileno(file), &info) == 0 && S_ISDIR(info.st_mode)) {
        if (!from_stdin) fclose(file);
        set_error(error, error_size, "%s is a directory", path);
        return NULL;
    }
    gateau_text text = {0};
    char chunk[4096];
    size_t got;
    const char *refusal = NULL;
    while (!refusal && (got = fread(chunk, 1, sizeof chunk, file)) > 0) {
        if (memchr(chunk, '\0', got)) refusal = "is not a text file";
        else if (text.length + got > GATEAU_RECORD_MAX_BYTES) refusal = "is too long for a record";
        else text_append(&text, "%.*s", (int)got, chunk);
    }
    if (!refusal && ferror(file)) refusal = "cannot be read";
    if (!from_stdin) fclose(file);
    if (refusal) {
        text_free(&text);
        set_error(error, error_size, "%s %s", from_stdin ? "standard input" : path, refusal);
        return NULL;
    }
    /* Relative option paths (a deck file) are read from the record's folder. */
    char *base_dir = malloc(strlen(path) + 2);
    if (!base_dir) abort();
    strcpy(base_dir, path);
    char *slash = strrchr(base_dir, '/');
    if (slash) *slash = '\0';
    else strcpy(base_dir, ".");
    char *content = text_take(&text);
    gateau_record *record = gateau_record_read(content, base_dir, error, error_size, error_line);
    free(content);
    free(base_dir);
    return record;
}
