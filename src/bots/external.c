/*
 * external.c: ext:COMMAND, a bot that is another program, played through
 * the bot protocol of docs/protocol.md over its standard input and output.
 *
 * The controller's side of the conversation.  The program is started
 * (external_process.c) when it is first asked for a move, so that checking
 * a spec starts nothing.  Everything it is told between two decisions (the
 * moves as its seat may read them, the views, the legal moves) is queued
 * and sent with the request for its next move, and every wait has a
 * deadline: a program that fails (crashes, hangs, floods, answers garbage
 * or an illegal move) is logged and the game goes on with the fallback
 * bot, or is forfeited with onerror=forfeit.  Whatever happens, free kills
 * what is left of the process group and reaps the program.
 *
 * The handshake offers protocol 2 and speaks what the program answers (1
 * when it names no version).  In protocol 2 every request is numbered and
 * only a reply with its number answers it: a stray line (a second move,
 * an early one, one meant for an older request) is dropped with a
 * warning instead of being taken for the next answer; at the end of the
 * time per move the program is told `stop N`, and has the grace to answer.
 */
#define _GNU_SOURCE /* MSG_NOSIGNAL */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "bots/external.h"


/* What the program said in answer, between two requests. */
typedef struct exchange_reply {
    char move[GATEAU_MAX_MOVE_TEXT];
    char error[256];
    bool has_rng;
    gateau_rng rng;
    int version; /* the handshake's `protocol W` (0: the program said none) */
    long bytes;  /* read so far in this exchange */
} exchange_reply;

/* One exchange: what is awaited, until when; in protocol 2 the request's
 * number, and when `stop N` tells the program to answer at once. */
typedef struct exchange_request {
    exchange_wait wait;
    long number;    /* protocol 2: the request awaited (0: none) */
    double deadline;
    double stop_at; /* protocol 2: when to send `stop N` (0: never) */
} exchange_request;

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
    /* Four zero words are xoshiro's fixed point: it would draw zeros for
     * ever, and a draw below a bound would never end. */
    return *text == '\0' && (rng->s[0] | rng->s[1] | rng->s[2] | rng->s[3]) != 0;
}

/* A warning about the program: counted, and logged up to WARNINGS_LOGGED
 * times (a program that warns at every move must not flood the log). */
static void warn(external_bot *e, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void warn(external_bot *e, const char *format, ...)
{
    e->warnings++;
    if (e->warnings > WARNINGS_LOGGED) return;
    char message[400];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    for (char *c = message; *c; c++)
        if ((unsigned char)*c < ' ') *c = ' ';
    external_log(e, e->viewer, "warning: %s%s", message,
                 e->warnings == WARNINGS_LOGGED ? " (further warnings are only counted)" : "");
}

/* Whether keyword starts a line a program may send (docs/protocol.md's
 * "Program to controller"); the others are ignored with a warning. */
static bool known_line(const char *keyword)
{
    static const char *const known[] = {"protocol", "name",    "option", "ready", "rng",
                                        "move",     "error",   "readyok", "warning", "info"};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strcmp(keyword, known[i])) return true;
    return false;
}

/* The handshake, in either version: `protocol W`, `name`, `ready`. */
static bool take_handshake_line(external_bot *e, const char *keyword, const char *rest,
                                exchange_reply *reply, exchange_result *result)
{
    if (!strcmp(keyword, "name")) {
        snprintf(e->name, sizeof e->name, "%s", rest);
    } else if (!strcmp(keyword, "protocol")) {
        char *end;
        long version = strtol(rest, &end, 10);
        bool whole = end != rest && (*end == '\0' || *end == ' '); /* (fields may follow) */
        if (!whole || version < 1 || version > PROTOCOL_VERSION) {
            /* A version gateau does not speak: refused at once, not at the deadline. */
            snprintf(reply->error, sizeof reply->error,
                     "answered 'protocol %.40s' to 'protocol %d' (gateau speaks 1 to %d)", rest,
                     PROTOCOL_VERSION, PROTOCOL_VERSION);
            *result = EXCHANGE_ERROR;
            return true;
        }
        reply->version = (int)version;
    } else if (!strcmp(keyword, "error") && !strncmp(rest, "protocol ", 9)) {
        /* The program speaks no version gateau offers: refused in one line. */
        snprintf(reply->error, sizeof reply->error, "refused 'protocol %d': 'error %.200s'",
                 PROTOCOL_VERSION, rest);
        *result = EXCHANGE_ERROR;
        return true;
    } else if (!strcmp(keyword, "error")) {
        /* (a protocol 1 program's complaint, its ready to come; told if none does) */
        snprintf(reply->error, sizeof reply->error, "%s", rest);
    } else if (!strcmp(keyword, "ready")) {
        return true;
    } else if (!known_line(keyword)) {
        /* (a misspelt keyword: `protocl 2` would leave the program on
         * protocol 1, `redy` at its deadline, with no clue in the log) */
        warn(e, "ignored '%s %.120s' in the handshake: not a line of the protocol", keyword, rest);
    }
    return false;
}

/* Protocol 1: the first move or error line answers, whatever it was meant for. */
static bool take_line_1(const char *keyword, const char *rest, exchange_wait wait,
                        exchange_reply *reply, exchange_result *result)
{
    if (wait != WAIT_MOVE) return false;
    if (!strcmp(keyword, "rng")) {
        reply->has_rng = parse_rng(rest, &reply->rng);
    } else if (!strcmp(keyword, "move")) {
        snprintf(reply->move, sizeof reply->move, "%s", rest);
        return true;
    } else if (!strcmp(keyword, "error")) {
        snprintf(reply->error, sizeof reply->error, "%s", rest);
        *result = EXCHANGE_ERROR;
        return true;
    }
    return false;
}

/* Protocol 2: only the lines numbered with the request awaited answer it;
 * the others are dropped with a warning, so that a stray line never
 * leaves the controller one answer behind. */
static bool take_line_2(external_bot *e, const char *keyword, const char *rest,
                        const exchange_request *request, exchange_reply *reply,
                        exchange_result *result)
{
    if (!strcmp(keyword, "warning")) {
        warn(e, "the program says: %.300s", rest);
        return false;
    }
    bool answer = !strcmp(keyword, "move") || !strcmp(keyword, "error") || !strcmp(keyword, "rng");
    if (!answer) { /* info and the like are ignored; a misspelt move is said */
        if (!known_line(keyword))
            warn(e, "ignored '%s %.120s': not a line of the protocol", keyword, rest);
        return false;
    }
    char *text;
    errno = 0;
    long number = strtol(rest, &text, 10);
    bool numbered = text != rest && (*text == ' ' || *text == '\0') && !errno && number > 0;
    if (!numbered || request->wait != WAIT_MOVE || number != request->number) {
        warn(e, "dropped '%s %.120s': %s", keyword, rest,
             !numbered ? "no request number"
             : request->wait == WAIT_MOVE ? "not the number of the request awaited"
                                          : "no request awaited");
        return false;
    }
    text += *text == ' ';
    if (!strcmp(keyword, "rng")) {
        reply->has_rng = parse_rng(text, &reply->rng);
        if (!reply->has_rng)
            warn(e, "'rng %.120s' is not four 64-bit words in hex, not all zero", rest);
        return false;
    }
    if (!strcmp(keyword, "error")) {
        snprintf(reply->error, sizeof reply->error, "%s", text);
        *result = EXCHANGE_ERROR;
        return true;
    }
    snprintf(reply->move, sizeof reply->move, "%s", text);
    return true;
}

/* One line of the program's: true when it ends the exchange. */
static bool take_line(external_bot *e, char *line, const exchange_request *request,
                      exchange_reply *reply, exchange_result *result)
{
    size_t length = strlen(line);
    if (length && line[length - 1] == '\r') line[--length] = '\0';
    char *rest = line + strcspn(line, " ");
    if (*rest) *rest++ = '\0';
    if (request->wait == WAIT_READY) return take_handshake_line(e, line, rest, reply, result);
    if (e->protocol >= 2) return take_line_2(e, line, rest, request, reply, result);
    return take_line_1(line, rest, request->wait, reply, result);
}

/* Takes the whole lines in e->input: true when the awaited one came. */
static bool take_lines(external_bot *e, const exchange_request *request, exchange_reply *reply,
                       exchange_result *result)
{
    size_t start = 0;
    bool done = false;
    while (!done) {
        char *newline = memchr(e->input.data + start, '\n', e->input.length - start);
        if (!newline) break;
        if ((size_t)(newline - (e->input.data + start)) > MAX_LINE) {
            /* (a whole line over the limit: a flood, as one still coming) */
            *result = EXCHANGE_FLOOD;
            done = true;
            break;
        }
        *newline = '\0';
        done = take_line(e, e->input.data + start, request, reply, result);
        start = (size_t)(newline - e->input.data) + 1;
    }
    memmove(e->input.data, e->input.data + start, e->input.length - start);
    e->input.length -= start;
    return done;
}

/* How often a wait looks whether the host is stopping (gateau_bot_interrupt):
 * a program may think for seconds, a stopping server waits no longer
 * than this for it. */
enum { INTERRUPT_CHECK_MS = 50 };

/* The milliseconds poll may wait: to the deadline, or to the stop, and
 * no longer than the next look at the host's interrupt. */
static int poll_wait(const exchange_request *request, bool stop_sent)
{
    double until = request->deadline;
    if (request->stop_at > 0 && !stop_sent && request->stop_at < until) until = request->stop_at;
    double left = until - external_now_ms();
    int wait = left <= 0 ? 0 : (int)left + 1;
    return wait < INTERRUPT_CHECK_MS ? wait : INTERRUPT_CHECK_MS;
}

/* Sends what is queued (and, when asked for, first `first`), then reads
 * until the awaited line, the deadline, the end of the program's output or
 * a flood; sends `stop N` at request->stop_at. */
static exchange_result exchange(external_bot *e, const char *first, const exchange_request *request,
                                exchange_reply *reply)
{
    gateau_text sending = {0};
    if (first) text_append(&sending, "%s", first);
    if (e->out.length) text_append_bytes(&sending, e->out.data, e->out.length);
    e->out.length = 0;
    size_t sent = 0;
    bool stop_sent = false;
    exchange_result result = EXCHANGE_OK;
    for (;;) {
        double now = external_now_ms();
        if (request->stop_at > 0 && !stop_sent && now >= request->stop_at) {
            text_append(&sending, "stop %ld\n", request->number);
            stop_sent = true;
        }
        bool writing = sent < sending.length;
        if (!writing && request->wait == WAIT_NOTHING) break;
        /* The host is stopping: no answer is awaited any more (what is
         * only sent, a quit, keeps its short deadline). */
        if (request->wait != WAIT_NOTHING && bot_interrupted()) {
            result = EXCHANGE_INTERRUPTED;
            break;
        }
        if (request->deadline - now <= 0) {
            result = EXCHANGE_TIMEOUT;
            break;
        }
        int ready = external_wait(e, writing ? POLLOUT : 0, poll_wait(request, stop_sent));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) continue; /* the deadline and the stop are checked above */
        if (ready & POLLOUT) {
            ssize_t n = send(e->write_fd, sending.data + sent, sending.length - sent,
                             MSG_NOSIGNAL | MSG_DONTWAIT);
            if (n > 0) sent += (size_t)n;
            else if (n < 0 && errno != EAGAIN && errno != EINTR) {
                result = EXCHANGE_CRASH;
                break;
            }
        }
        if (ready & (POLLIN | POLLHUP | POLLERR)) {
            text_reserve(&e->input, 4096);
            ssize_t n = recv(e->fd, e->input.data + e->input.length, 4096, MSG_DONTWAIT);
            if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
                result = EXCHANGE_CRASH;
                break;
            }
            if (n < 0) continue;
            e->input.length += (size_t)n;
            reply->bytes += n;
            if (take_lines(e, request, reply, &result)) break;
            if (e->input.length > MAX_LINE || reply->bytes > OUTPUT_BUDGET) {
                result = EXCHANGE_FLOOD;
                break;
            }
        }
    }
    text_free(&sending);
    return result;
}

/* Sends what is queued (and first `first`) within GRACE_MS, awaiting nothing. */
static exchange_result send_only(external_bot *e, const char *first)
{
    exchange_request request = {.wait = WAIT_NOTHING, .deadline = external_now_ms() + GRACE_MS};
    exchange_reply reply = {0};
    return exchange(e, first, &request, &reply);
}

static const char *describe(exchange_result result)
{
    switch (result) {
    case EXCHANGE_TIMEOUT: return "no answer in time";
    case EXCHANGE_CRASH: return "the program ended or closed its output";
    case EXCHANGE_FLOOD: return "a flood of output (a line over 16 KiB, or over 1 MiB per request)";
    case EXCHANGE_INTERRUPTED: return "the host is stopping";
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
        /* told now: a program may learn from its results */
        if (e->pid > 0 && send_only(e, NULL) != EXCHANGE_OK) external_stop_program(e);
    }
}

/* The legal moves of seat as "legal MOVE" lines into legal, at most
 * e->legal_max, in the order of their actions: a depth-first walk over
 * copies.  Protocol 2 walks them all, to count them in *total (at most
 * some thousands: Cake Master's 1320 are counted in well under a
 * millisecond); protocol 1 stops at the last one listed. */
static void list_legal_from(external_bot *e, const gateau_state *state, int seat, int depth,
                            gateau_action *line, gateau_text *legal, int *total)
{
    if (depth >= e->scratch_depth) {
        int more = depth + 8;
        e->scratch = realloc(e->scratch, sizeof *e->scratch * (size_t)more);
        if (!e->scratch) abort(); /* out of memory */
        for (int d = e->scratch_depth; d < more; d++) e->scratch[d] = gateau_state_clone(state);
        e->scratch_depth = more;
    }
    gateau_action actions[GATEAU_MAX_ACTIONS];
    int count = gateau_state_legal_actions(state, seat, actions);
    for (int i = 0; i < count && (e->protocol >= 2 || *total < e->legal_max); i++) {
        gateau_state *next = e->scratch[depth];
        gateau_state_copy(next, state);
        gateau_state_apply_legal(next, seat, actions[i]);
        line[depth] = actions[i];
        if (gateau_state_in_move(next) && (gateau_state_actors(next) & (1u << seat)) &&
            depth + 1 < GATEAU_MAX_MOVE_ACTIONS) {
            list_legal_from(e, next, seat, depth + 1, line, legal, total);
        } else {
            if (*total < e->legal_max) {
                char *text = gateau_move_format(e->current, seat, line, depth + 1);
                text_append(legal, "legal %s\n", text);
                free(text);
            }
            (*total)++;
        }
    }
}

/* The legal lines of seat, after `legalcount TOTAL shown SHOWN` in
 * protocol 2 (a program knows whether its list is whole), none with the
 * setting legal=0. */
static void queue_legal(external_bot *e, const gateau_state *state, int seat)
{
    if (e->legal_max <= 0) return;
    gateau_text legal = {0};
    gateau_action line[GATEAU_MAX_MOVE_ACTIONS];
    int total = 0;
    list_legal_from(e, state, seat, 0, line, &legal, &total);
    if (e->protocol >= 2)
        text_append(&e->out, "legalcount %d shown %d\n", total,
                    total < e->legal_max ? total : e->legal_max);
    if (legal.length) text_append_bytes(&e->out, legal.data, legal.length);
    text_free(&legal);
}

/* ---- Decisions --------------------------------------------------------------------------- */

/* The program failed: logged; the program is stopped unless it is still
 * in step (an illegal move, an error answered). */
static void failed(external_bot *e, int seat, const char *what, bool keep)
{
    external_failed(e, seat, what, keep);
}

/* The host stopped the exchange (gateau_bot_interrupt): the program,
 * cut off in the middle of a request, is out of step for good, so it is
 * killed now (a stopping host waits for no program's thinking) and the
 * bot asks it nothing more.  No failure: nobody failed. */
static void interrupted(external_bot *e)
{
    external_stop_program(e);
    e->dead = true;
    e->interrupted = true;
}

/* Starts the program and shakes hands: gateau offers its highest version
 * and speaks the one the program answers (`protocol W` before `ready`; a
 * program that names none speaks protocol 1). */
bool external_ensure_started(external_bot *e, int seat)
{
    if (e->pid > 0) return true;
    char reason[512];
    if (!external_start_program(e, reason, sizeof reason)) {
        e->fatal = true; /* not a program to play with: the run stops */
        failed(e, seat, reason, false);
        return false;
    }
    char hello[32];
    snprintf(hello, sizeof hello, "protocol %d\n", PROTOCOL_VERSION);
    gateau_text queued = e->out; /* the game's lines wait for the handshake */
    e->out = (gateau_text){0};
    exchange_request request = {.wait = WAIT_READY,
                                .deadline = external_now_ms() + (double)e->start_ms};
    exchange_reply reply = {0};
    exchange_result result = exchange(e, hello, &request, &reply);
    text_free(&e->out);
    e->out = queued;
    if (result == EXCHANGE_OK) {
        e->protocol = reply.version ? reply.version : 1;
        return true;
    }
    if (result == EXCHANGE_INTERRUPTED) {
        interrupted(e);
        return false;
    }
    char what[600];
    if (result == EXCHANGE_ERROR)
        snprintf(what, sizeof what, "%s", reply.error);
    else
        snprintf(what, sizeof what, "no 'ready' after 'protocol %d': %s%s%.200s%s", PROTOCOL_VERSION,
                 describe(result), reply.error[0] ? " (it answered 'error " : "", reply.error,
                 reply.error[0] ? "')" : "");
    e->fatal = true; /* not a program to play with: the run stops */
    failed(e, seat, what, false);
    return false;
}

/* The request for seat's move: `go` with the move's number K, the time
 * and the generator; in protocol 2 numbered (`go N move K ...`). */
static void queue_go(external_bot *e, long budget, const gateau_rng *rng)
{
    if (e->protocol >= 2) text_append(&e->out, "go %ld move %d", ++e->request, e->moves + 1);
    else text_append(&e->out, "go %d", e->moves + 1);
    text_append(&e->out, " ms %ld left %ld rng %016llx %016llx %016llx %016llx\n", budget,
                e->clock_ms >= 0 ? e->clock_left_ms : -1L, (unsigned long long)rng->s[0],
                (unsigned long long)rng->s[1], (unsigned long long)rng->s[2],
                (unsigned long long)rng->s[3]);
}

/* Asks the program for seat's move: its actions, or 0 when it failed. */
static int ask_program(external_bot *e, const gateau_state *state, int seat, gateau_rng *rng,
                       gateau_action actions[GATEAU_MAX_MOVE_ACTIONS])
{
    if (!in_step(e, state, seat)) announce(e, state, seat);
    if (!external_ensure_started(e, seat)) return 0;
    queue_legal(e, state, seat);
    /* The time per move, within what the game clock has left: once it is
     * spent, every go says ms 0 and the program has the grace alone. */
    long budget = e->move_ms;
    if (e->clock_ms >= 0 && e->clock_left_ms < budget) budget = e->clock_left_ms > 0 ? e->clock_left_ms : 0;
    queue_go(e, budget, rng);
    double begin = external_now_ms();
    exchange_request request = {.wait = WAIT_MOVE, .number = e->protocol >= 2 ? e->request : 0,
                                .deadline = begin + (double)budget + GRACE_MS,
                                .stop_at = e->protocol >= 2 ? begin + (double)budget : 0};
    exchange_reply reply = {0};
    exchange_result result = exchange(e, NULL, &request, &reply);
    if (e->clock_ms >= 0) { /* (never below 0: -1 says "no clock") */
        e->clock_left_ms -= (long)(external_now_ms() - begin);
        if (e->clock_left_ms < 0) e->clock_left_ms = 0;
    }
    char what[1024];
    if (result == EXCHANGE_INTERRUPTED) {
        interrupted(e);
        return 0;
    }
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
        if (e->protocol >= 2) text_append(&e->out, "error %ld illegal move: %s\n", e->request, reason);
        else text_append(&e->out, "error illegal move: %s\n", reason);
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
    /* Stopped by the host: no move at all (a stopping host plays none),
     * rather than the fallback's or a forfeit. */
    if (e->interrupted) return 0;
    if (e->forfeit || e->fatal) {
        snprintf(failure, failure_size, "%s", e->failure);
        return -1;
    }
    e->fallbacks++;
    if (!e->fallback) e->fallback = gateau_bot_new("heuristic", NULL, 0);
    return gateau_bot_choose_actions(e->fallback, state, seat, rng, actions);
}

void external_free(external_bot *e)
{
    if (!e) return;
    if (e->pid > 0) {
        /* quit, then a moment for the program to end by itself */
        if (send_only(e, "quit\n") == EXCHANGE_OK) {
            external_close_input(e); /* and the end of its input */
            double deadline = external_now_ms() + QUIT_WAIT_MS;
            char sink[4096];
            for (;;) {
                double left = deadline - external_now_ms();
                if (left <= 0 || external_wait(e, 0, (int)left + 1) < 0) break;
                ssize_t n = recv(e->fd, sink, sizeof sink, MSG_DONTWAIT);
                if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) break;
            }
        }
    }
    if (e->warnings > WARNINGS_LOGGED)
        external_log(e, e->viewer, "%ld warnings in all (the first %d logged)", e->warnings,
                     WARNINGS_LOGGED);
    external_stop_program(e);
    free_scratch(e);
    gateau_state_free(e->current);
    gateau_bot_free(e->fallback);
    text_free(&e->out);
    text_free(&e->input);
    free(e->words);
    free(e->log_path);
    free(e->stderr_path);
    free(e->spec);
    free(e);
}

