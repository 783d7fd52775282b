/*
 * external.c: ext:COMMAND, a bot that is another program, played through
 * the bot protocol of docs/protocol.md over its standard input and output.
 *
 * The controller's side.  The program is started when it is first asked
 * for a move (so that checking a spec starts nothing), with posix_spawn,
 * no shell, in a process group of its own, its standard input and output
 * one end of a socket pair (send() with MSG_NOSIGNAL: a program that dies
 * cannot kill the host with SIGPIPE).  Everything it is told between two
 * decisions (the moves as its seat may read them, the views, the state
 * line) is queued and sent with the request for its next move, and every
 * wait has a deadline: a program that fails (crashes, hangs, floods,
 * answers garbage or an illegal move) is logged and the game goes on with
 * the fallback bot, or is forfeited with onerror=forfeit.  Whatever
 * happens, free kills what is left of the process group and reaps the
 * program.
 */
#define _GNU_SOURCE /* pipe2-style SOCK_CLOEXEC, MSG_NOSIGNAL */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bots/bots.h"
#include "core/engine.h"
#include "core/text.h"

extern char **environ;

enum {
    PROTOCOL_VERSION = 1,
    MAX_ARGUMENTS = 64,
    MAX_LINE = 16 * 1024,           /* a longer line from the program: a flood */
    OUTPUT_BUDGET = 1024 * 1024,    /* bytes the program may write per request */
    GRACE_MS = 100,                 /* past the budget before a reply is late */
    QUIT_WAIT_MS = 200,             /* for the program to exit after quit */
    DEFAULT_MOVE_MS = 10000,
    DEFAULT_START_MS = 10000,
    DEFAULT_LEGAL = 256,
};

typedef enum { EXCHANGE_OK, EXCHANGE_ERROR, EXCHANGE_TIMEOUT, EXCHANGE_CRASH, EXCHANGE_FLOOD } exchange_result;
typedef enum { WAIT_NOTHING, WAIT_READY, WAIT_MOVE } exchange_wait;

struct external_bot {
    /* From the spec. */
    char *spec;
    char *words;                     /* the command's words, NUL-separated */
    char *argv[MAX_ARGUMENTS + 1];
    long move_ms, clock_ms, start_ms; /* clock_ms < 0: no game clock */
    int legal_max;
    bool forfeit;
    char *log_path;
    /* The program. */
    pid_t pid;      /* 0: not started */
    int fd;         /* our end of the socket pair */
    bool dead;      /* failed: the fallback plays from now on */
    char name[128]; /* as the program gave it */
    gateau_text input; /* read, not yet a whole line */
    /* The game as the program was told it. */
    const gateau_setup *setup;
    int viewer;
    gateau_state *current; /* the position after the moves told (NULL: none told) */
    gateau_state **scratch; /* per depth, for listing the legal moves */
    int scratch_depth;
    int moves;             /* moves told since newgame */
    long clock_left_ms;
    gateau_text out;       /* queued for the program */
    gateau_bot *fallback;
};

/* ---- Time and logs ----------------------------------------------------------------- */

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1000.0 + (double)t.tv_nsec / 1e6;
}

/* One line on stderr, and in the log file when there is one. */
static void log_line(const external_bot *e, int seat, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static void log_line(const external_bot *e, int seat, const char *format, ...)
{
    char message[512];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    char line[1024];
    snprintf(line, sizeof line, "gateau: seat %d (%s): %s\n", seat + 1, e->spec, message);
    fputs(line, stderr);
    if (e->log_path) {
        FILE *file = fopen(e->log_path, "a");
        if (file) {
            fputs(line, file);
            fclose(file);
        }
    }
}

/* ---- The spec ------------------------------------------------------------------------- */

static bool parse_number(const char *value, long low, long high, long *out)
{
    char *end;
    errno = 0;
    long number = strtol(value, &end, 10);
    if (!value[0] || *end || errno || number < low || number > high) return false;
    *out = number;
    return true;
}

/* One leading "key=value" of the spec: false with the reason. */
static bool parse_setting(external_bot *e, const char *key, const char *value, char *error,
                          size_t error_size)
{
    long number;
    if (!strcmp(key, "ms") || !strcmp(key, "clock") || !strcmp(key, "start")) {
        if (!parse_number(value, 1, 86400000L, &number)) {
            set_error(error, error_size, "ext: %s needs milliseconds 1..86400000, not '%s'", key,
                      value);
            return false;
        }
        if (!strcmp(key, "ms")) e->move_ms = number;
        else if (!strcmp(key, "clock")) e->clock_ms = number;
        else e->start_ms = number;
    } else if (!strcmp(key, "legal")) {
        if (!parse_number(value, 0, 100000, &number)) {
            set_error(error, error_size, "ext: legal needs a count 0..100000, not '%s'", value);
            return false;
        }
        e->legal_max = (int)number;
    } else if (!strcmp(key, "onerror")) {
        if (strcmp(value, "heuristic") && strcmp(value, "forfeit")) {
            set_error(error, error_size, "ext: onerror is heuristic or forfeit, not '%s'", value);
            return false;
        }
        e->forfeit = !strcmp(value, "forfeit");
    } else if (!strcmp(key, "log")) {
        free(e->log_path);
        e->log_path = strdup(value);
    }
    return true;
}

/* Whether text starts with "key=value:" for a key of ours (the command
 * itself may hold ':' and '=', as in ext:gateau engine --bot ismcts:ms=50). */
static size_t setting_length(const char *text)
{
    static const char *const keys[] = {"ms=", "clock=", "start=", "legal=", "onerror=", "log="};
    size_t colon = strcspn(text, ":"), space = strcspn(text, " \t");
    if (!text[colon] || space < colon) return 0;
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        if (!strncmp(text, keys[k], strlen(keys[k]))) return colon;
    return 0;
}

/* Splits the command into words as a shell would, simply: blanks separate
 * words; '...' keeps everything literally; "..." keeps everything but \"
 * and \\; a backslash outside quotes keeps the next character.  No
 * variables, globs or redirections: no shell is involved. */
static bool split_command(external_bot *e, const char *command, char *error, size_t error_size)
{
    e->words = malloc(strlen(command) + 1);
    if (!e->words) abort(); /* out of memory */
    char *out = e->words;
    int count = 0;
    const char *p = command;
    for (;;) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) break;
        if (count == MAX_ARGUMENTS) {
            set_error(error, error_size, "ext: the command has more than %d words", MAX_ARGUMENTS);
            return false;
        }
        e->argv[count++] = out;
        while (*p && *p != ' ' && *p != '\t') {
            if (*p == '\'') {
                const char *close = strchr(p + 1, '\'');
                if (!close) {
                    set_error(error, error_size, "ext: unclosed ' in the command");
                    return false;
                }
                memcpy(out, p + 1, (size_t)(close - p - 1));
                out += close - p - 1;
                p = close + 1;
            } else if (*p == '"') {
                for (p++; *p && *p != '"'; p++) {
                    if (*p == '\\' && (p[1] == '"' || p[1] == '\\')) p++;
                    *out++ = *p;
                }
                if (!*p) {
                    set_error(error, error_size, "ext: unclosed \" in the command");
                    return false;
                }
                p++;
            } else {
                if (*p == '\\' && p[1]) p++;
                *out++ = *p++;
            }
        }
        *out++ = '\0';
    }
    e->argv[count] = NULL;
    if (!count) {
        set_error(error, error_size, "ext: needs a command, as in ext:python3 my_bot.py");
        return false;
    }
    return true;
}

external_bot *external_new(const char *text, char *error, size_t error_size)
{
    external_bot *e = calloc(1, sizeof *e);
    if (!e) abort(); /* out of memory */
    e->move_ms = DEFAULT_MOVE_MS;
    e->start_ms = DEFAULT_START_MS;
    e->clock_ms = -1;
    e->legal_max = DEFAULT_LEGAL;
    e->fd = -1;
    e->spec = malloc(strlen(text) + 5);
    if (!e->spec) abort();
    sprintf(e->spec, "ext:%s", text);
    size_t length;
    while ((length = setting_length(text)) > 0) {
        char setting[256];
        snprintf(setting, sizeof setting, "%.*s", (int)length, text);
        char *equals = strchr(setting, '=');
        *equals = '\0';
        if (!parse_setting(e, setting, equals + 1, error, error_size)) {
            external_free(e);
            return NULL;
        }
        text += length + 1;
    }
    if (!split_command(e, text, error, error_size)) {
        external_free(e);
        return NULL;
    }
    return e;
}

/* ---- The process ------------------------------------------------------------------------ */

/* Kills the program's process group and reaps the program. */
static void stop_program(external_bot *e)
{
    if (e->fd >= 0) close(e->fd);
    e->fd = -1;
    if (e->pid > 0) {
        kill(-e->pid, SIGKILL); /* the group: what the program started dies too */
        kill(e->pid, SIGKILL);
        while (waitpid(e->pid, NULL, 0) < 0 && errno == EINTR) {
        }
    }
    e->pid = 0;
    e->input.length = 0;
}

static bool start_program(external_bot *e, char *reason, size_t reason_size)
{
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
        snprintf(reason, reason_size, "cannot make a socket pair: %s", strerror(errno));
        return false;
    }
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pair[1], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, pair[1], STDOUT_FILENO);
    posix_spawnattr_init(&attributes);
    sigset_t defaults, empty;
    sigemptyset(&empty);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setsigmask(&attributes, &empty);
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF |
                                              POSIX_SPAWN_SETSIGMASK);
    pid_t pid;
    int failure = posix_spawnp(&pid, e->argv[0], &actions, &attributes, e->argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    close(pair[1]);
    if (failure != 0) {
        close(pair[0]);
        snprintf(reason, reason_size, "cannot start %s: %s", e->argv[0], strerror(failure));
        return false;
    }
    e->pid = pid;
    e->fd = pair[0];
    fcntl(e->fd, F_SETFL, fcntl(e->fd, F_GETFL) | O_NONBLOCK);
    return true;
}

/* ---- Talking ------------------------------------------------------------------------------ */

/* What the program said in answer, between two requests. */
typedef struct exchange_reply {
    char move[GATEAU_MAX_MOVE_TEXT];
    char error[256];
    bool has_rng;
    gateau_rng rng;
    long bytes; /* read so far in this exchange */
} exchange_reply;

static bool parse_rng(const char *text, gateau_rng *rng)
{
    for (int i = 0; i < 4; i++) {
        while (*text == ' ') text++;
        char *end;
        errno = 0;
        unsigned long long word = strtoull(text, &end, 16);
        if (end == text || errno || end - text > 16) return false;
        rng->s[i] = word;
        text = end;
    }
    while (*text == ' ') text++;
    return *text == '\0';
}

/* One line of the program's: true when it is the awaited answer. */
static bool take_line(external_bot *e, char *line, exchange_wait wait, exchange_reply *reply,
                      exchange_result *result)
{
    size_t length = strlen(line);
    if (length && line[length - 1] == '\r') line[--length] = '\0';
    char *rest = line + strcspn(line, " ");
    if (*rest) *rest++ = '\0';
    if (!strcmp(line, "name")) {
        snprintf(e->name, sizeof e->name, "%s", rest);
    } else if (!strcmp(line, "ready")) {
        if (wait == WAIT_READY) return true;
    } else if (!strcmp(line, "rng")) {
        reply->has_rng = wait == WAIT_MOVE && parse_rng(rest, &reply->rng);
    } else if (!strcmp(line, "move")) {
        if (wait == WAIT_MOVE) {
            snprintf(reply->move, sizeof reply->move, "%s", rest);
            return true;
        }
    } else if (!strcmp(line, "error")) {
        snprintf(reply->error, sizeof reply->error, "%s", rest);
        if (wait == WAIT_MOVE) {
            *result = EXCHANGE_ERROR;
            return true;
        }
    }
    return false; /* unknown lines are ignored */
}

/* Takes the whole lines in e->input: true when the awaited one came. */
static bool take_lines(external_bot *e, exchange_wait wait, exchange_reply *reply,
                       exchange_result *result)
{
    size_t start = 0;
    bool done = false;
    while (!done) {
        char *newline = memchr(e->input.data + start, '\n', e->input.length - start);
        if (!newline) break;
        *newline = '\0';
        done = take_line(e, e->input.data + start, wait, reply, result);
        start = (size_t)(newline - e->input.data) + 1;
    }
    memmove(e->input.data, e->input.data + start, e->input.length - start);
    e->input.length -= start;
    return done;
}

/* Sends what is queued (and, when asked for, first `first`), then reads
 * until the awaited line, the deadline, the end of the program's output or
 * a flood. */
static exchange_result exchange(external_bot *e, const char *first, exchange_wait wait,
                                double deadline, exchange_reply *reply)
{
    gateau_text sending = {0};
    if (first) text_append(&sending, "%s", first);
    if (e->out.length) text_append_bytes(&sending, e->out.data, e->out.length);
    e->out.length = 0;
    size_t sent = 0;
    exchange_result result = EXCHANGE_OK;
    for (;;) {
        bool writing = sent < sending.length;
        if (!writing && wait == WAIT_NOTHING) break;
        double left = deadline - now_ms();
        if (left <= 0) {
            result = EXCHANGE_TIMEOUT;
            break;
        }
        struct pollfd poller = {.fd = e->fd, .events = POLLIN | (writing ? POLLOUT : 0)};
        int ready = poll(&poller, 1, (int)left + 1);
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) continue; /* the deadline is checked above */
        if (poller.revents & POLLOUT) {
            ssize_t n = send(e->fd, sending.data + sent, sending.length - sent,
                             MSG_NOSIGNAL | MSG_DONTWAIT);
            if (n > 0) sent += (size_t)n;
            else if (n < 0 && errno != EAGAIN && errno != EINTR) {
                result = EXCHANGE_CRASH;
                break;
            }
        }
        if (poller.revents & (POLLIN | POLLHUP | POLLERR)) {
            text_reserve(&e->input, 4096);
            ssize_t n = recv(e->fd, e->input.data + e->input.length, 4096, MSG_DONTWAIT);
            if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
                result = EXCHANGE_CRASH;
                break;
            }
            if (n < 0) continue;
            e->input.length += (size_t)n;
            reply->bytes += n;
            if (take_lines(e, wait, reply, &result)) break;
            if (e->input.length > MAX_LINE || reply->bytes > OUTPUT_BUDGET) {
                result = EXCHANGE_FLOOD;
                break;
            }
        }
    }
    text_free(&sending);
    return result;
}

static const char *describe(exchange_result result)
{
    switch (result) {
    case EXCHANGE_TIMEOUT: return "no answer in time";
    case EXCHANGE_CRASH: return "the program ended or closed its output";
    case EXCHANGE_FLOOD: return "a flood of output (a line over 16 KiB, or over 1 MiB per request)";
    default: return "an error";
    }
}

/* ---- What the program is told ------------------------------------------------------------ */

/* JSON views are one line already; a newline would split the message. */
static void queue_one_line(external_bot *e, const char *keyword, const char *text)
{
    size_t at = e->out.length;
    text_append(&e->out, "%s %s\n", keyword, text);
    for (size_t i = at; i + 1 < e->out.length; i++)
        if (e->out.data[i] == '\n' || e->out.data[i] == '\r') e->out.data[i] = ' ';
}

/* The seat's view of state: everything the seat knows. */
static void queue_view(external_bot *e, const gateau_state *state)
{
    char *view = gateau_state_view_json(state, e->viewer);
    queue_one_line(e, "view", view);
    free(view);
}

static void free_scratch(external_bot *e)
{
    for (int d = 0; d < e->scratch_depth; d++) gateau_state_free(e->scratch[d]);
    free(e->scratch);
    e->scratch = NULL;
    e->scratch_depth = 0;
}

/* A new game for the program, from state on (the start, or where the
 * game stands when the program lost track: an undo, a host that did not
 * tell it every move). */
static void announce(external_bot *e, const gateau_state *state, int viewer)
{
    const gateau_setup *setup = gateau_state_setup(state);
    if (e->setup != setup) free_scratch(e);
    e->setup = setup;
    e->viewer = viewer;
    e->moves = 0;
    e->clock_left_ms = e->clock_ms;
    gateau_state_free(e->current);
    e->current = gateau_state_clone(state);
    e->out.length = 0; /* what was queued for an older game is moot */
    text_append(&e->out, "newgame game %s players %d seat %d options %s\n",
                gateau_game_name(gateau_setup_game(setup)), gateau_setup_players(setup),
                viewer + 1, gateau_setup_options_text(setup));
    queue_view(e, state);
}

static bool in_step(const external_bot *e, const gateau_state *state, int viewer)
{
    return e->current && e->setup == gateau_state_setup(state) && e->viewer == viewer &&
           !memcmp(e->current, state, gateau_state_size(e->setup));
}

static void queue_end(external_bot *e, const gateau_state *state)
{
    int scores[GATEAU_MAX_PLAYERS];
    gateau_state_scores(state, scores);
    uint32_t winners = gateau_state_winners(state);
    text_append(&e->out, "end scores");
    for (int s = 0; s < gateau_state_players(state); s++) text_append(&e->out, " %d", scores[s]);
    text_append(&e->out, " winners");
    for (int s = 0; s < gateau_state_players(state); s++)
        if (winners & (1u << s)) text_append(&e->out, " %d", s + 1);
    text_append(&e->out, "\n");
}

void external_observe(external_bot *e, int viewer, const gateau_state *before, int seat,
                      const gateau_action *actions, int count)
{
    if (e->dead) return;
    if (!in_step(e, before, viewer)) announce(e, before, viewer);
    e->moves++;
    char who[16];
    if (seat == GATEAU_CHANCE) snprintf(who, sizeof who, "chance");
    else snprintf(who, sizeof who, "%d", seat + 1);
    if (gateau_move_visible(before, seat, actions, count, viewer)) {
        char *text = gateau_move_format(before, seat, actions, count);
        text_append(&e->out, "move %d %s %s\n", e->moves, who, text);
        free(text);
    } else {
        text_append(&e->out, "hidden %d %s\n", e->moves, who);
    }
    for (int a = 0; a < count; a++) gateau_state_apply_legal(e->current, seat, actions[a]);
    queue_view(e, e->current);
    if (gateau_state_is_over(e->current)) {
        queue_end(e, e->current);
        if (e->pid > 0) { /* told now: a program may learn from its results */
            exchange_reply reply = {0};
            if (exchange(e, NULL, WAIT_NOTHING, now_ms() + GRACE_MS, &reply) != EXCHANGE_OK)
                stop_program(e);
        }
    }
}

/* The legal moves of seat as "legal MOVE" lines, at most e->legal_max, in
 * the order of their actions: a depth-first walk over copies. */
static void queue_legal_from(external_bot *e, const gateau_state *state, int seat, int depth,
                             gateau_action *line, int *listed)
{
    if (depth >= e->scratch_depth) {
        int more = depth + 8;
        e->scratch = realloc(e->scratch, sizeof *e->scratch * (size_t)more);
        if (!e->scratch) abort(); /* out of memory */
        for (int d = e->scratch_depth; d < more; d++) e->scratch[d] = gateau_state_clone(state);
        e->scratch_depth = more;
    }
    gateau_action legal[GATEAU_MAX_ACTIONS];
    int count = gateau_state_legal_actions(state, seat, legal);
    for (int i = 0; i < count && *listed < e->legal_max; i++) {
        gateau_state *next = e->scratch[depth];
        gateau_state_copy(next, state);
        gateau_state_apply_legal(next, seat, legal[i]);
        line[depth] = legal[i];
        if (gateau_state_in_move(next) && (gateau_state_actors(next) & (1u << seat)) &&
            depth + 1 < GATEAU_MAX_MOVE_ACTIONS) {
            queue_legal_from(e, next, seat, depth + 1, line, listed);
        } else {
            char *text = gateau_move_format(e->current, seat, line, depth + 1);
            text_append(&e->out, "legal %s\n", text);
            free(text);
            (*listed)++;
        }
    }
}

/* ---- Decisions --------------------------------------------------------------------------- */

/* The program failed: logged; the program is stopped unless it is still
 * in step (an illegal move, an error answered). */
static void failed(external_bot *e, int seat, const char *what, bool keep)
{
    log_line(e, seat, "%s; %s", what,
             e->forfeit ? "the seat forfeits the game" : "the heuristic bot moves instead");
    if (!keep || e->forfeit) {
        stop_program(e);
        e->dead = true;
    }
}

static bool ensure_started(external_bot *e, int seat)
{
    if (e->pid > 0) return true;
    char reason[512];
    if (!start_program(e, reason, sizeof reason)) {
        failed(e, seat, reason, false);
        return false;
    }
    char hello[32];
    snprintf(hello, sizeof hello, "protocol %d\n", PROTOCOL_VERSION);
    gateau_text queued = e->out; /* the game's lines wait for the handshake */
    e->out = (gateau_text){0};
    exchange_reply reply = {0};
    exchange_result result = exchange(e, hello, WAIT_READY, now_ms() + (double)e->start_ms, &reply);
    text_free(&e->out);
    e->out = queued;
    if (result != EXCHANGE_OK) {
        char what[256];
        snprintf(what, sizeof what, "no 'ready' after 'protocol %d': %s", PROTOCOL_VERSION,
                 describe(result));
        failed(e, seat, what, false);
        return false;
    }
    return true;
}

/* Asks the program for seat's move: its actions, or 0 when it failed. */
static int ask_program(external_bot *e, const gateau_state *state, int seat, gateau_rng *rng,
                       gateau_action actions[GATEAU_MAX_MOVE_ACTIONS])
{
    if (!in_step(e, state, seat)) announce(e, state, seat);
    if (!ensure_started(e, seat)) return 0;
    int listed = 0;
    gateau_action line[GATEAU_MAX_MOVE_ACTIONS];
    if (e->legal_max > 0) queue_legal_from(e, state, seat, 0, line, &listed);
    long budget = e->move_ms;
    if (e->clock_ms >= 0 && e->clock_left_ms < budget) budget = e->clock_left_ms > 0 ? e->clock_left_ms : 0;
    text_append(&e->out, "go %d ms %ld left %ld rng %016llx %016llx %016llx %016llx\n",
                e->moves + 1, budget, e->clock_ms >= 0 ? e->clock_left_ms : -1L,
                (unsigned long long)rng->s[0], (unsigned long long)rng->s[1],
                (unsigned long long)rng->s[2], (unsigned long long)rng->s[3]);
    double begin = now_ms();
    exchange_reply reply = {0};
    exchange_result result = exchange(e, NULL, WAIT_MOVE, begin + (double)budget + GRACE_MS, &reply);
    if (e->clock_ms >= 0) e->clock_left_ms -= (long)(now_ms() - begin);
    char what[1024];
    if (result == EXCHANGE_ERROR) {
        snprintf(what, sizeof what, "answered 'error %s'", reply.error);
        failed(e, seat, what, true);
        return 0;
    }
    if (result != EXCHANGE_OK) {
        failed(e, seat, describe(result), false);
        return 0;
    }
    char reason[256];
    int count = gateau_move_parse(state, seat, reply.move, actions, reason, sizeof reason);
    if (count <= 0) {
        snprintf(what, sizeof what, "illegal move '%.200s': %s", reply.move, reason);
        text_append(&e->out, "error illegal move: %s\n", reason);
        failed(e, seat, what, true);
        return 0;
    }
    if (reply.has_rng) *rng = reply.rng;
    return count;
}

int external_choose(external_bot *e, const gateau_state *state, int seat, gateau_rng *rng,
                    gateau_action actions[GATEAU_MAX_MOVE_ACTIONS], char *failure,
                    size_t failure_size)
{
    if (!e->dead) {
        int count = ask_program(e, state, seat, rng, actions);
        if (count > 0) return count;
    }
    if (e->forfeit) {
        snprintf(failure, failure_size, "seat %d (%s) forfeits: its program failed", seat + 1,
                 e->spec);
        return -1;
    }
    if (!e->fallback) e->fallback = gateau_bot_new("heuristic", NULL, 0);
    return gateau_bot_choose_actions(e->fallback, state, seat, rng, actions);
}

void external_free(external_bot *e)
{
    if (!e) return;
    if (e->pid > 0) {
        /* quit, then a moment for the program to end by itself */
        exchange_reply reply = {0};
        if (exchange(e, "quit\n", WAIT_NOTHING, now_ms() + GRACE_MS, &reply) == EXCHANGE_OK) {
            shutdown(e->fd, SHUT_WR); /* and the end of its input */
            double deadline = now_ms() + QUIT_WAIT_MS;
            char sink[4096];
            for (;;) {
                double left = deadline - now_ms();
                struct pollfd poller = {.fd = e->fd, .events = POLLIN};
                if (left <= 0 || poll(&poller, 1, (int)left + 1) <= 0) break;
                ssize_t n = recv(e->fd, sink, sizeof sink, MSG_DONTWAIT);
                if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) break;
            }
        }
    }
    stop_program(e);
    free_scratch(e);
    gateau_state_free(e->current);
    gateau_bot_free(e->fallback);
    text_free(&e->out);
    text_free(&e->input);
    free(e->words);
    free(e->log_path);
    free(e->spec);
    free(e);
}
