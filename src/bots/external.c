/*
 * external.c: ext:COMMAND, a bot that is another program, played through
 * the bot protocol of docs/protocol.md over its standard input and output.
 *
 * The controller's side of the conversation.  The program is started
 * (external_process.c) when it is first asked for a move, so that checking
 * a spec starts nothing.  Everything it is told between two decisions (the
 * moves as its seat may read them, the views, the state line) is queued
 * and sent with the request for its next move, and every wait has a
 * deadline: a program that fails (crashes, hangs, floods, answers garbage
 * or an illegal move) is logged and the game goes on with the fallback
 * bot, or is forfeited with onerror=forfeit.  Whatever happens, free kills
 * what is left of the process group and reaps the program.
 */
#define _GNU_SOURCE /* MSG_NOSIGNAL */
#include <errno.h>
#include <poll.h>
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
        double left = deadline - external_now_ms();
        if (left <= 0) {
            result = EXCHANGE_TIMEOUT;
            break;
        }
        int ready = external_wait(e, writing ? POLLOUT : 0, (int)left + 1);
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) continue; /* the deadline is checked above */
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
            if (exchange(e, NULL, WAIT_NOTHING, external_now_ms() + GRACE_MS, &reply) != EXCHANGE_OK)
                external_stop_program(e);
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
    external_failed(e, seat, what, keep);
}

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
    exchange_reply reply = {0};
    exchange_result result = exchange(e, hello, WAIT_READY, external_now_ms() + (double)e->start_ms, &reply);
    text_free(&e->out);
    e->out = queued;
    if (result != EXCHANGE_OK) {
        char what[256];
        snprintf(what, sizeof what, "no 'ready' after 'protocol %d': %s", PROTOCOL_VERSION,
                 describe(result));
        e->fatal = true;
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
    if (!external_ensure_started(e, seat)) return 0;
    int listed = 0;
    gateau_action line[GATEAU_MAX_MOVE_ACTIONS];
    if (e->legal_max > 0) queue_legal_from(e, state, seat, 0, line, &listed);
    long budget = e->move_ms;
    if (e->clock_ms >= 0 && e->clock_left_ms < budget) budget = e->clock_left_ms > 0 ? e->clock_left_ms : 0;
    text_append(&e->out, "go %d ms %ld left %ld rng %016llx %016llx %016llx %016llx\n",
                e->moves + 1, budget, e->clock_ms >= 0 ? e->clock_left_ms : -1L,
                (unsigned long long)rng->s[0], (unsigned long long)rng->s[1],
                (unsigned long long)rng->s[2], (unsigned long long)rng->s[3]);
    double begin = external_now_ms();
    exchange_reply reply = {0};
    exchange_result result = exchange(e, NULL, WAIT_MOVE, begin + (double)budget + GRACE_MS, &reply);
    if (e->clock_ms >= 0) e->clock_left_ms -= (long)(external_now_ms() - begin);
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
        exchange_reply reply = {0};
        if (exchange(e, "quit\n", WAIT_NOTHING, external_now_ms() + GRACE_MS, &reply) == EXCHANGE_OK) {
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

