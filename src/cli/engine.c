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
 * in-process arena gives.  Any harness that sends views can use it.
 *
 * It speaks protocol 2 and protocol 1, as the harness's `protocol` line
 * asks.  In protocol 2 each request gets exactly one reply (`move N`,
 * `error N`, `readyok N`), and what it cannot use in other lines is said
 * in `warning` lines, which end nothing.  While its bot searches, a
 * watcher thread stops the search at the time `go` gave and when the
 * harness sends `stop` (gateau_bot_interrupt: the search answers with what
 * it found).  The line handling (engine_session_line) is apart from the
 * reading loop so that a fuzz target (fuzz/fuzz_engine.c) can feed it
 * lines.
 */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/engine.h"

enum {
    ENGINE_PROTOCOL = 2, /* the highest spoken; 1 too */
    ENGINE_MAX_LINE = 4 * 1024 * 1024,
    ENGINE_MAX_MS = 86400000,
    STOP_MARGIN_MS = 50, /* a search stops this much (at most a tenth) before go's time */
};

void engine_session_init(engine_session *session, const char *bot_spec, uint64_t seed,
                         FILE *out)
{
    memset(session, 0, sizeof *session);
    snprintf(session->bot_spec, sizeof session->bot_spec, "%s", bot_spec);
    session->seat = -1;
    session->protocol = 1; /* a harness that skips the handshake speaks 1 */
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
    session->moves_told = false;
    session->problem[0] = '\0';
}

void engine_session_free(engine_session *session) { forget_game(session); }

/* ---- Answers ---------------------------------------------------------------------------------- */

/* One answer line "KEYWORD [N ]TEXT", TEXT kept to one line. */
static void answer(engine_session *session, const char *keyword, long number, const char *format,
                   va_list args)
{
    char message[512];
    vsnprintf(message, sizeof message, format, args);
    for (char *c = message; *c; c++)
        if (*c == '\n' || *c == '\r') *c = ' ';
    if (number > 0) fprintf(session->out, "%s %ld %s\n", keyword, number, message);
    else fprintf(session->out, "%s %s\n", keyword, message);
}

/* A line the engine cannot use (not a request): `warning` in protocol 2,
 * which ends nothing; `error` in protocol 1, which had nothing else. */
static void complain(engine_session *session, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
static void complain(engine_session *session, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    answer(session, session->protocol >= 2 ? "warning" : "error", 0, format, args);
    va_end(args);
}

/* A remark on a request that is answered all the same: a warning in
 * protocol 2, nothing in protocol 1 (where any line before the move would
 * be taken for the answer). */
static void remark(engine_session *session, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
static void remark(engine_session *session, const char *format, ...)
{
    if (session->protocol < 2) return;
    va_list args;
    va_start(args, format);
    answer(session, "warning", 0, format, args);
    va_end(args);
}

/* The reply to request number (protocol 2) that it cannot be met. */
static void refuse(engine_session *session, long number, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static void refuse(engine_session *session, long number, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    answer(session, "error", session->protocol >= 2 ? number : 0, format, args);
    va_end(args);
}

/* ---- Words ------------------------------------------------------------------------------------ */

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

/* ---- The handshake and the options ------------------------------------------------------------ */

/* protocol V: the harness speaks every version up to V; the engine answers
 * in the highest both speak (`protocol 2` and typed options; protocol 1's
 * handshake has neither), or refuses in one line when there is none. */
static void handshake(engine_session *session, char *rest)
{
    const char *word = next_word(&rest);
    long version;
    if (!whole_number(word, 1, 1000000000L, &version)) {
        fprintf(session->out, "error protocol '%.40s': this engine speaks protocol 1 and %d\n",
                word ? word : "", ENGINE_PROTOCOL);
        return;
    }
    session->protocol = version >= ENGINE_PROTOCOL ? ENGINE_PROTOCOL : 1;
    if (session->protocol == 1) {
        fprintf(session->out, "name gateau %s (%s)\noption bot %s\nready\n", GATEAU_VERSION,
                session->bot_spec, session->bot_spec);
        return;
    }
    fprintf(session->out,
            "protocol %d\nname gateau %s (%s)\n"
            "option name bot type string default %s\n"
            "option name ms type spin default %ld min 0 max %d\n"
            "ready\n",
            session->protocol, GATEAU_VERSION, session->bot_spec, session->bot_spec,
            session->move_ms, ENGINE_MAX_MS);
}

/* A bot spec the engine can play, or false with the reason. */
static bool playable(const char *spec, char *reason, size_t reason_size)
{
    if (!spec) {
        snprintf(reason, reason_size, "needs a bot spec");
        return false;
    }
    if (!strncmp(spec, "ext:", 4)) {
        snprintf(reason, reason_size, "gateau engine plays gateau's own bots, not ext:");
        return false;
    }
    gateau_bot *bot = gateau_bot_new(spec, reason, reason_size);
    gateau_bot_free(bot);
    /* (the library's list of bots ends with ext:, which is not for here) */
    char *external = strstr(reason, ", ext:COMMAND");
    if (!bot && external) memmove(external, external + 13, strlen(external + 13) + 1);
    return bot != NULL;
}

/* Option bot: another of gateau's bots from the next game on. */
static void set_bot(engine_session *session, const char *value)
{
    char reason[256];
    if (!playable(value, reason, sizeof reason)) {
        complain(session, "option bot: %s", reason);
        return;
    }
    snprintf(session->bot_spec, sizeof session->bot_spec, "%s", value);
}

/* Option ms: an ismcts bot's time per move from the next game on (0: its spec's budget). */
static void set_move_ms(engine_session *session, const char *value)
{
    long ms;
    if (!whole_number(value, 0, ENGINE_MAX_MS, &ms)) {
        complain(session, "option ms: needs milliseconds 0..%d, not '%.40s'", ENGINE_MAX_MS,
                 value ? value : "");
        return;
    }
    session->move_ms = ms;
}

static void set_option_value(engine_session *session, const char *name, const char *value)
{
    if (name && !strcmp(name, "bot")) set_bot(session, value);
    else if (name && !strcmp(name, "ms")) set_move_ms(session, value);
    else complain(session, "unknown option '%.60s' (bot, ms)", name ? name : "");
}

/* set NAME VALUE (protocol 1's form). */
static void set_option(engine_session *session, char *rest)
{
    char *name = next_word(&rest);
    set_option_value(session, name, next_word(&rest));
}

/* setoption name NAME value VALUE (protocol 2's, as UCI writes it). */
static void set_option_uci(engine_session *session, char *rest)
{
    const char *name_word = next_word(&rest), *name = next_word(&rest);
    const char *value_word = next_word(&rest), *value = next_word(&rest);
    if (!name_word || strcmp(name_word, "name") || !value_word || strcmp(value_word, "value")) {
        complain(session, "setoption: write 'setoption name NAME value VALUE'");
        return;
    }
    set_option_value(session, name, value);
}

/* The spec the next game's bot is made from: with option ms, an ismcts
 * spec's own budget (iters= or ms=) gives way to ms=N. */
static void effective_spec(const engine_session *session, char *spec, size_t size)
{
    snprintf(spec, size, "%s", session->bot_spec);
    size_t name = strcspn(session->bot_spec, ":");
    if (session->move_ms <= 0 || name != 6 || strncmp(session->bot_spec, "ismcts", 6)) return;
    size_t length = (size_t)snprintf(spec, size, "ismcts");
    for (const char *item = session->bot_spec + name; *item == ':';) {
        size_t item_length = strcspn(item + 1, ":") + 1;
        bool budget = !strncmp(item + 1, "iters=", 6) || !strncmp(item + 1, "ms=", 3);
        if (!budget && length + item_length < size) {
            memcpy(spec + length, item, item_length);
            length += item_length;
            spec[length] = '\0';
        }
        item += item_length;
    }
    snprintf(spec + length, size - length, ":ms=%ld", session->move_ms);
}

/* ---- The game as the harness tells it --------------------------------------------------------- */

/* Why there is no game, kept for the next go (protocol 2), and said. */
static void no_game(engine_session *session, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
static void no_game(engine_session *session, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(session->problem, sizeof session->problem, format, args);
    va_end(args);
    complain(session, "%s", session->problem);
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
        no_game(session, "newgame: unknown game '%.60s'", game_name ? game_name : "");
        return;
    }
    if (players <= 0 || seat <= 0 || seat > players) {
        no_game(session, "newgame: needs players 1..%d and a seat among them", GATEAU_MAX_PLAYERS);
        return;
    }
    char reason[512], spec[320];
    session->setup = gateau_setup_new(game, (int)players, options, NULL, reason, sizeof reason);
    if (!session->setup) {
        no_game(session, "newgame: %s", reason);
        return;
    }
    effective_spec(session, spec, sizeof spec);
    session->bot = gateau_bot_new(spec, reason, sizeof reason);
    if (!session->bot) {
        forget_game(session);
        no_game(session, "newgame: %s", reason);
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
        complain(session, "a move line needs its number");
        return;
    }
    if (number != session->moves + 1)
        complain(session, "out of step: move %ld after move %d", number, session->moves);
    session->moves = (int)number;
    session->moves_told = true;
}

/* view JSON: kept as it is, read when the engine must move (views come
 * after every move; most are never needed). */
static void take_view(engine_session *session, const char *rest)
{
    if (!session->setup) {
        complain(session, "view before newgame");
        return;
    }
    free(session->view);
    session->view = strdup(rest);
    if (!session->view) abort(); /* out of memory */
}

/* ---- go ------------------------------------------------------------------------------------------ */

/* What a go line asks. */
typedef struct go_request {
    long number;   /* protocol 2: the request's number; 1: the move's */
    long move;     /* protocol 2: the move's number (0: not given) */
    long ms, left; /* -1: not given (left: no clock) */
    gateau_rng rng;
    bool has_rng, bad_rng;
} go_request;

/* rng W1 W2 W3 W4: the generator the bot would draw from in-process. */
static bool read_rng(char **rest, gateau_rng *rng)
{
    for (int i = 0; i < 4; i++) {
        char *word = next_word(rest), *end;
        if (!word || strlen(word) > 16) return false;
        errno = 0;
        rng->s[i] = strtoull(word, &end, 16);
        if (*end || errno || end == word) return false;
    }
    /* Four zero words are xoshiro's fixed point: it would draw zeros for
     * ever, and a draw below a bound would never end. */
    return (rng->s[0] | rng->s[1] | rng->s[2] | rng->s[3]) != 0;
}

/* go N move K ms MS left MS rng W1 W2 W3 W4 (protocol 2), go K ms MS left
 * MS rng ... (protocol 1); a field given wrong counts as not given. */
static void read_go(engine_session *session, char *rest, go_request *go)
{
    *go = (go_request){.ms = -1, .left = -1, .rng = session->rng};
    if (!whole_number(next_word(&rest), 1, 1000000000000L, &go->number)) go->number = 0;
    for (char *key; (key = next_word(&rest)) != NULL;) {
        long value;
        if (!strcmp(key, "rng")) {
            go->has_rng = read_rng(&rest, &go->rng);
            go->bad_rng = !go->has_rng;
            if (!go->has_rng) go->rng = session->rng;
        } else if (!strcmp(key, "move") && whole_number(next_word(&rest), 1, 1000000000L, &value)) {
            go->move = value;
        } else if (!strcmp(key, "ms") && whole_number(next_word(&rest), 0, ENGINE_MAX_MS, &value)) {
            go->ms = value;
        } else if (!strcmp(key, "left") && whole_number(next_word(&rest), -1, 1L << 40, &value)) {
            go->left = value;
        }
    }
}

/* The most the search may take, in ms, from go's ms and left (-1: no limit). */
static long go_limit(const go_request *go)
{
    long limit = go->ms;
    if (go->left >= 0 && (limit < 0 || go->left < limit)) limit = go->left;
    if (limit < 0) return -1;
    long margin = limit / 10 < STOP_MARGIN_MS ? limit / 10 : STOP_MARGIN_MS;
    return limit - margin;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1000.0 + (double)t.tv_nsec / 1e6;
}

/* ---- The watcher: the time limit and stop during a search ---------------------------------------- */

typedef struct engine_watch {
    engine_input *input; /* NULL: no input to watch */
    long number;         /* the go's number (stop N stops it; stop alone too) */
    double stop_at;      /* on now_ms()'s clock; < 0: no limit */
    int wake[2];         /* the search is over */
} engine_watch;

/* Reads what there is on the input (blocking): false at its end. */
static bool input_fill(engine_input *input)
{
    if (input->capacity - input->length < 65536) {
        input->capacity = input->capacity * 2 + 65536;
        input->data = realloc(input->data, input->capacity);
        if (!input->data) abort(); /* out of memory */
    }
    for (;;) {
        ssize_t n = read(input->fd, input->data + input->length, input->capacity - input->length);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        input->length += (size_t)n;
        return true;
    }
}

/* Whether a whole line from *scanned on asks the search to end: `stop`
 * (for this go, or with no number) or `quit`. */
static bool asks_to_stop(const engine_input *input, size_t *scanned, long number)
{
    if (!input->data) return false;
    for (;;) {
        const char *line = input->data + *scanned;
        const char *newline = memchr(line, '\n', input->length - *scanned);
        if (!newline) return false;
        *scanned = (size_t)(newline - input->data) + 1;
        if (!strncmp(line, "quit", 4) && (line[4] == '\n' || line[4] == ' ' || line[4] == '\r'))
            return true;
        if (strncmp(line, "stop", 4) || !(line[4] == '\n' || line[4] == ' ' || line[4] == '\r'))
            continue;
        /* The number, read within the line (strtol would read on past its end). */
        long stopped = 0;
        const char *digit = line + 4 + (line[4] == ' ');
        if (*digit < '0' || *digit > '9') return true; /* stop alone: whatever is searched */
        for (; *digit >= '0' && *digit <= '9' && stopped < 1000000000000L; digit++)
            stopped = stopped * 10 + (*digit - '0');
        if (stopped == number) return true;
    }
}

/* The watcher thread: until the search is over, stops it at the deadline,
 * at `stop`, at `quit` and at the end of the input (nobody waits for a
 * long search then).  It reads on into the input the main thread left. */
static void *watch_search(void *argument)
{
    engine_watch *watch = argument;
    size_t scanned = 0;
    for (;;) {
        if (watch->input && asks_to_stop(watch->input, &scanned, watch->number)) break;
        int timeout = -1;
        if (watch->stop_at >= 0) {
            double left = watch->stop_at - now_ms();
            if (left <= 0) break;
            timeout = (int)left + 1;
        }
        struct pollfd polled[2] = {{.fd = watch->wake[0], .events = POLLIN}};
        int count = 1;
        /* (a harness flooding the engine in a search waits for its end) */
        if (watch->input && !watch->input->end && watch->input->length < 2 * ENGINE_MAX_LINE)
            polled[count++] = (struct pollfd){.fd = watch->input->fd, .events = POLLIN};
        if (poll(polled, (nfds_t)count, timeout) < 0 && errno != EINTR) break;
        if (polled[0].revents) return NULL;
        if (count == 2 && polled[1].revents && !input_fill(watch->input)) {
            watch->input->end = true;
            break;
        }
    }
    gateau_bot_interrupt(true);
    return NULL;
}

/* The bot's move, its search stopped by the watcher when it must. */
static bool choose_watched(engine_session *session, const gateau_state *state, const go_request *go,
                           double started, gateau_rng *rng, gateau_bot_move *move)
{
    long limit = go_limit(go);
    engine_watch watch = {.input = session->input, .number = go->number,
                          .stop_at = limit < 0 ? -1 : started + (double)limit};
    pthread_t thread;
    bool watching = (watch.input || limit >= 0) && pipe2(watch.wake, O_CLOEXEC) == 0;
    if (watching && pthread_create(&thread, NULL, watch_search, &watch) != 0) {
        close(watch.wake[0]);
        close(watch.wake[1]);
        watching = false;
    }
    bool chosen = gateau_bot_choose_move(session->bot, state, session->seat, rng, move);
    if (watching) {
        ssize_t written;
        do written = write(watch.wake[1], "", 1);
        while (written < 0 && errno == EINTR);
        pthread_join(thread, NULL);
        close(watch.wake[0]);
        close(watch.wake[1]);
        gateau_bot_interrupt(false); /* (after the join: the watcher can no longer set it) */
    }
    return chosen;
}

/* The position to move from: the last view read back, then determinized
 * with a fixed generator so that it depends on what the seat knows only.
 * NULL after answering why not. */
static gateau_state *position(engine_session *session, long number)
{
    if (!session->view) {
        refuse(session, number, "no position to move from: no view since newgame");
        return NULL;
    }
    char reason[300];
    gateau_state *state = gateau_state_from_view(session->setup, session->seat, session->view,
                                                 reason, sizeof reason);
    if (!state) {
        refuse(session, number, "view: %s", reason);
        return NULL;
    }
    gateau_rng fixed;
    gateau_rng_seed(&fixed, 0);
    gateau_state_determinize(state, session->seat, &fixed);
    return state;
}

/* A go's remarks, before its one reply: said in protocol 2, where they end
 * nothing; unsaid in protocol 1 (a harness that sends views and no move
 * lines is in step). */
static void remark_on_go(engine_session *session, const go_request *go)
{
    long move = session->protocol >= 2 ? go->move : go->number;
    if (session->moves_told && move && move != session->moves + 1)
        remark(session, "out of step: asked for move %ld after move %d", move, session->moves);
    if (go->bad_rng) remark(session, "go: rng needs four 64-bit words in hex, not all zero");
}

static void go(engine_session *session, char *rest)
{
    double started = now_ms();
    go_request request;
    read_go(session, rest, &request);
    long number = request.number;
    if (session->protocol >= 2 && !number) {
        refuse(session, 0, "go needs its request number: go N move K ms MS left MS rng W1 W2 W3 W4");
        return;
    }
    if (!session->setup) {
        if (session->protocol >= 2)
            refuse(session, number, "no game: %s", session->problem[0] ? session->problem
                                                                       : "no newgame yet");
        else
            refuse(session, number, "go before newgame");
        return;
    }
    remark_on_go(session, &request);
    gateau_state *state = position(session, number);
    if (!state) return;
    gateau_bot_move move;
    gateau_rng rng = request.rng;
    bool chosen = choose_watched(session, state, &request, started, &rng, &move);
    gateau_state_free(state);
    if (!chosen) {
        refuse(session, number, "seat %d has no move to make here", session->seat + 1);
        return;
    }
    bool numbered = session->protocol >= 2;
    if (request.has_rng) {
        fprintf(session->out, "rng ");
        if (numbered) fprintf(session->out, "%ld ", number);
        fprintf(session->out, "%016llx %016llx %016llx %016llx\n", (unsigned long long)rng.s[0],
                (unsigned long long)rng.s[1], (unsigned long long)rng.s[2],
                (unsigned long long)rng.s[3]);
    } else {
        session->rng = rng;
    }
    if (numbered) fprintf(session->out, "move %ld %s\n", number, move.text);
    else fprintf(session->out, "move %s\n", move.text);
}

/* isready N: readyok N once every line before it is handled (they are:
 * lines are handled in order; during a search it waits for the search). */
static void is_ready(engine_session *session, char *rest)
{
    if (session->protocol < 2) return;
    long number;
    if (whole_number(next_word(&rest), 1, 1000000000000L, &number))
        fprintf(session->out, "readyok %ld\n", number);
    else
        fprintf(session->out, "readyok\n");
}

bool engine_session_line(engine_session *session, char *line)
{
    line[strcspn(line, "\r\n")] = '\0';
    char *rest = line;
    char *keyword = next_word(&rest);
    if (!keyword) return true;
    if (!strcmp(keyword, "protocol")) handshake(session, rest);
    else if (!strcmp(keyword, "set")) set_option(session, rest);
    else if (!strcmp(keyword, "setoption")) set_option_uci(session, rest);
    else if (!strcmp(keyword, "isready")) is_ready(session, rest);
    else if (!strcmp(keyword, "newgame")) new_game(session, rest);
    else if (!strcmp(keyword, "move") || !strcmp(keyword, "hidden")) count_move(session, rest);
    else if (!strcmp(keyword, "view")) take_view(session, rest);
    else if (!strcmp(keyword, "go")) go(session, rest);
    else if (!strcmp(keyword, "quit")) return false;
    /* legalcount, legal, stop (of a go answered), end, error and unknown
     * lines: nothing to answer */
    fflush(session->out);
    return true;
}

/* ---- Reading ------------------------------------------------------------------------------------- */

/* A line handed out by input_line (grown as needed). */
typedef struct engine_line {
    char *data;
    size_t capacity;
} engine_line;

/* The next line of the input into line (without its newline; NULs made
 * blanks), or false at its end; *overlong for a line over ENGINE_MAX_LINE
 * bytes, which is skipped. */
static bool input_line(engine_input *input, engine_line *line, bool *overlong)
{
    *overlong = false;
    for (;;) {
        char *newline = input->length ? memchr(input->data, '\n', input->length) : NULL;
        if (newline || (input->end && (input->length || input->skipping))) {
            size_t length = newline ? (size_t)(newline - input->data) : input->length;
            *overlong = input->skipping;
            input->skipping = false;
            size_t kept = *overlong ? 0 : length;
            if (kept + 1 > line->capacity) {
                line->capacity = kept + 1;
                line->data = realloc(line->data, line->capacity);
                if (!line->data) abort(); /* out of memory */
            }
            for (size_t i = 0; i < kept; i++) line->data[i] = input->data[i] ? input->data[i] : ' ';
            line->data[kept] = '\0';
            size_t taken = newline ? length + 1 : length;
            memmove(input->data, input->data + taken, input->length - taken);
            input->length -= taken;
            return true;
        }
        if (input->end) return false;
        if (input->length > ENGINE_MAX_LINE) {
            input->skipping = true; /* what was read of it is dropped */
            input->length = 0;
        }
        if (!input_fill(input)) input->end = true;
    }
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
    char reason[256];
    if (!playable(spec, reason, sizeof reason)) {
        cli_error("engine: --bot: %s", reason);
        return 2;
    }
    engine_session session;
    engine_session_init(&session, spec, flags.has_seed ? flags.seed : 0, stdout);
    engine_input input = {.fd = STDIN_FILENO};
    session.input = &input;
    engine_line line = {0};
    bool overlong;
    while (input_line(&input, &line, &overlong)) {
        if (overlong) {
            complain(&session, "a line over %d bytes was skipped", ENGINE_MAX_LINE);
            fflush(stdout);
            continue;
        }
        if (!engine_session_line(&session, line.data)) break;
    }
    free(line.data);
    free(input.data);
    engine_session_free(&session);
    return 0;
}
