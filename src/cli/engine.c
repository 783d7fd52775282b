/*
 * engine.c: `gateau engine --bot SPEC`: one of gateau's bots behind the bot
 * protocol (docs/protocol.md) on standard input and output, for any
 * harness that speaks it, gateau's own ext: seats among them.
 *
 * The engine plays from the last `view` line: the seat's view, read back
 * into a position (gateau_state_from_view) and determinized for the seat
 * with a fixed generator, is a position that depends on what the seat
 * knows only, the one gateau's own controller would reach from the true
 * state.  Its bot, handed the generator the harness sends with `go`, then
 * draws exactly what it would draw in-process, and sends the generator
 * back, so an arena through ext:gateau engine gives the games an
 * in-process arena gives.  Any harness that sends views can use it.  The line handling
 * (engine_session_line) is apart from the reading loop so that a fuzz
 * target (fuzz/fuzz_engine.c) can feed it lines.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/engine.h"

enum { ENGINE_PROTOCOL = 1, ENGINE_MAX_LINE = 4 * 1024 * 1024 };

void engine_session_init(engine_session *session, const char *bot_spec, uint64_t seed,
                         FILE *out)
{
    memset(session, 0, sizeof *session);
    snprintf(session->bot_spec, sizeof session->bot_spec, "%s", bot_spec);
    session->seat = -1;
    session->out = out;
    gateau_rng_seed(&session->rng, seed);
}

static void forget_game(engine_session *session)
{
    gateau_bot_free(session->bot);
    free(session->view);
    gateau_setup_free(session->setup);
    session->bot = NULL;
    session->view = NULL;
    session->setup = NULL;
    session->seat = -1;
    session->moves = 0;
}

void engine_session_free(engine_session *session) { forget_game(session); }

static void answer_error(engine_session *session, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
static void answer_error(engine_session *session, const char *format, ...)
{
    char message[512];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    for (char *c = message; *c; c++)
        if (*c == '\n' || *c == '\r') *c = ' ';
    fprintf(session->out, "error %s\n", message);
}

/* The next word of *cursor (blank-separated), or NULL at the end. */
static char *next_word(char **cursor)
{
    char *p = *cursor;
    while (*p == ' ' || *p == '\t') p++;
    if (!*p) {
        *cursor = p;
        return NULL;
    }
    char *word = p;
    while (*p && *p != ' ' && *p != '\t') p++;
    if (*p) *p++ = '\0';
    *cursor = p;
    return word;
}

/* A whole number of text in low..high, or false. */
static bool whole_number(const char *text, long low, long high, long *out)
{
    if (!text) return false;
    char *end;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (!text[0] || *end || errno || value < low || value > high) return false;
    *out = value;
    return true;
}

static void handshake(engine_session *session, char *rest)
{
    long version;
    if (!whole_number(next_word(&rest), 0, 1000000, &version) || version != ENGINE_PROTOCOL)
        answer_error(session, "this engine speaks protocol %d", ENGINE_PROTOCOL);
    fprintf(session->out, "name gateau %s (%s)\noption bot %s\nready\n", GATEAU_VERSION,
            session->bot_spec, session->bot_spec);
}

/* set bot SPEC: another of gateau's bots from the next game on. */
static void set_option(engine_session *session, char *rest)
{
    char *name = next_word(&rest);
    char *value = next_word(&rest);
    if (!name || strcmp(name, "bot")) {
        answer_error(session, "unknown option '%s' (bot)", name ? name : "");
        return;
    }
    char reason[256];
    gateau_bot *bot = value && strncmp(value, "ext:", 4) ? gateau_bot_new(value, reason, sizeof reason)
                                                         : NULL;
    if (value && !strncmp(value, "ext:", 4))
        snprintf(reason, sizeof reason, "gateau engine plays gateau's own bots, not ext:");
    if (!bot) {
        answer_error(session, "set bot: %s", value ? reason : "needs a bot spec");
        return;
    }
    gateau_bot_free(bot);
    snprintf(session->bot_spec, sizeof session->bot_spec, "%s", value);
}

/* newgame game GAME players N seat S options k=v ... */
static void new_game(engine_session *session, char *rest)
{
    forget_game(session);
    const char *game_name = NULL;
    long players = 0, seat = 0;
    char *options = "";
    for (char *key; (key = next_word(&rest)) != NULL;) {
        if (!strcmp(key, "options")) {
            options = rest; /* the rest of the line */
            break;
        }
        char *value = next_word(&rest);
        if (!strcmp(key, "game")) game_name = value;
        else if (!strcmp(key, "players") && !whole_number(value, 1, GATEAU_MAX_PLAYERS, &players))
            players = -1;
        else if (!strcmp(key, "seat") && !whole_number(value, 1, GATEAU_MAX_PLAYERS, &seat))
            seat = -1;
    }
    const gateau_game *game = game_name ? gateau_game_find(game_name) : NULL;
    if (!game) {
        answer_error(session, "newgame: unknown game '%s'", game_name ? game_name : "");
        return;
    }
    if (players <= 0 || seat <= 0 || seat > players) {
        answer_error(session, "newgame: needs players 1..%d and a seat among them",
                     GATEAU_MAX_PLAYERS);
        return;
    }
    char reason[512];
    session->setup = gateau_setup_new(game, (int)players, options, NULL, reason, sizeof reason);
    if (!session->setup) {
        answer_error(session, "newgame: %s", reason);
        return;
    }
    session->bot = gateau_bot_new(session->bot_spec, reason, sizeof reason);
    if (!session->bot) {
        answer_error(session, "newgame: %s", reason);
        forget_game(session);
        return;
    }
    session->seat = (int)seat - 1;
}

/* move N WHO TEXT / hidden N WHO: the moves are counted, to catch a
 * harness and an engine out of step. */
static void count_move(engine_session *session, char *rest)
{
    long number;
    if (!whole_number(next_word(&rest), 1, 1000000000L, &number)) {
        answer_error(session, "a move line needs its number");
        return;
    }
    if (number != session->moves + 1)
        answer_error(session, "out of step: move %ld after move %d", number, session->moves);
    session->moves = (int)number;
}

/* view JSON: kept as it is, read when the engine must move (views come
 * after every move; most are never needed). */
static void take_view(engine_session *session, const char *rest)
{
    if (!session->setup) {
        answer_error(session, "view before newgame");
        return;
    }
    free(session->view);
    session->view = strdup(rest);
    if (!session->view) abort(); /* out of memory */
}

/* The position to move from: the last view read back, then determinized
 * with a fixed generator so that it depends on what the seat knows only.
 * NULL after answering why not. */
static gateau_state *position(engine_session *session)
{
    if (!session->view) {
        answer_error(session, "no position to move from: no view since newgame");
        return NULL;
    }
    char reason[300];
    gateau_state *state = gateau_state_from_view(session->setup, session->seat, session->view,
                                                 reason, sizeof reason);
    if (!state) {
        answer_error(session, "view: %s", reason);
        return NULL;
    }
    gateau_rng fixed;
    gateau_rng_seed(&fixed, 0);
    gateau_state_determinize(state, session->seat, &fixed);
    return state;
}

/* rng W1 W2 W3 W4 in go: the generator the bot would draw from in-process. */
static bool read_rng(char **rest, gateau_rng *rng)
{
    for (int i = 0; i < 4; i++) {
        char *word = next_word(rest), *end;
        if (!word || strlen(word) > 16) return false;
        errno = 0;
        rng->s[i] = strtoull(word, &end, 16);
        if (*end || errno || end == word) return false;
    }
    return true;
}

/* go N ms MS left MS [rng W1 W2 W3 W4] */
static void go(engine_session *session, char *rest)
{
    long number = 0;
    gateau_rng rng = session->rng;
    bool given_rng = false;
    if (!whole_number(next_word(&rest), 1, 1000000000L, &number))
        answer_error(session, "go needs the move's number");
    else if (number != session->moves + 1)
        answer_error(session, "out of step: asked for move %ld after move %d", number,
                     session->moves);
    for (char *key; (key = next_word(&rest)) != NULL;) {
        if (!strcmp(key, "rng")) {
            given_rng = read_rng(&rest, &rng);
            if (!given_rng) answer_error(session, "go: rng needs four 64-bit words in hex");
        } else {
            next_word(&rest); /* ms and left: the bot's own budget rules here */
        }
    }
    if (!session->setup) {
        answer_error(session, "go before newgame");
        return;
    }
    gateau_state *state = position(session);
    if (!state) return;
    gateau_bot_move move;
    bool chosen = gateau_bot_choose_move(session->bot, state, session->seat, &rng, &move);
    gateau_state_free(state);
    if (!chosen) {
        answer_error(session, "seat %d has no move to make here", session->seat + 1);
        return;
    }
    if (given_rng)
        fprintf(session->out, "rng %016llx %016llx %016llx %016llx\n",
                (unsigned long long)rng.s[0], (unsigned long long)rng.s[1],
                (unsigned long long)rng.s[2], (unsigned long long)rng.s[3]);
    else
        session->rng = rng;
    fprintf(session->out, "move %s\n", move.text);
}

bool engine_session_line(engine_session *session, char *line)
{
    line[strcspn(line, "\r\n")] = '\0';
    char *rest = line;
    char *keyword = next_word(&rest);
    if (!keyword) return true;
    if (!strcmp(keyword, "protocol")) handshake(session, rest);
    else if (!strcmp(keyword, "set")) set_option(session, rest);
    else if (!strcmp(keyword, "newgame")) new_game(session, rest);
    else if (!strcmp(keyword, "move") || !strcmp(keyword, "hidden")) count_move(session, rest);
    else if (!strcmp(keyword, "view")) take_view(session, rest);
    else if (!strcmp(keyword, "go")) go(session, rest);
    else if (!strcmp(keyword, "quit")) return false;
    /* legal, end, error and unknown lines: nothing to answer */
    fflush(session->out);
    return true;
}

/* One line of standard input into *line (grown as needed, at most
 * ENGINE_MAX_LINE bytes: a longer one is skipped and answered); false at
 * the end of input. */
static bool read_line(char **line, size_t *capacity, bool *overlong)
{
    size_t length = 0;
    int c;
    *overlong = false;
    while ((c = getchar()) != EOF && c != '\n') {
        if (length + 2 > *capacity) {
            if (*capacity >= ENGINE_MAX_LINE) {
                *overlong = true;
                continue;
            }
            *capacity = *capacity ? *capacity * 2 : 4096;
            *line = realloc(*line, *capacity);
            if (!*line) abort(); /* out of memory */
        }
        (*line)[length++] = c ? (char)c : ' ';
    }
    if (c == EOF && length == 0) return false;
    if (!*line) {
        *line = malloc(1);
        if (!*line) abort();
    }
    (*line)[length] = '\0';
    return true;
}

int cli_engine(int argc, char **argv)
{
    cli_flags flags;
    if (!cli_parse_flags("engine", argc, argv, "bot seed", &flags)) return 2;
    if (flags.game) {
        cli_error("engine: unexpected argument '%s' (usage: gateau engine [--bot SPEC] [--seed S])",
                  flags.game);
        return 2;
    }
    const char *spec = flags.bot ? flags.bot : "heuristic";
    char reason[256] = "gateau engine plays gateau's own bots, not ext:";
    gateau_bot *check = strncmp(spec, "ext:", 4) ? gateau_bot_new(spec, reason, sizeof reason) : NULL;
    if (!check) {
        cli_error("engine: --bot: %s", reason);
        return 2;
    }
    gateau_bot_free(check);
    engine_session session;
    engine_session_init(&session, spec, flags.has_seed ? flags.seed : 0, stdout);
    char *line = NULL;
    size_t capacity = 0;
    bool overlong;
    while (read_line(&line, &capacity, &overlong)) {
        if (overlong) {
            answer_error(&session, "a line over %d bytes was skipped", ENGINE_MAX_LINE);
            fflush(stdout);
            continue;
        }
        if (!engine_session_line(&session, line)) break;
    }
    free(line);
    engine_session_free(&session);
    return 0;
}
