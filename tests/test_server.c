/*
 * test_server.c: `gateau serve` over real sockets, as browsers and
 * programs use it (docs/server.md): tables of every game played to the end
 * through HTTP and WebSocket clients, their records replayed by
 * `gateau replay` to the scores the server reported; refusals of stale,
 * illegal, forged and malformed requests; tokens only in the
 * Authorization header (and a WebSocket's first message), never in a
 * URL; a restart that restores an unfinished table.
 *
 * The client (tests/http_client.c) shares no code with the server.
 */
#define _DEFAULT_SOURCE /* usleep */
#include <limits.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "http_client.h"
#include "served.h"
#include "server/server.h"
#include "support.h"

TestSuite(server, .init = support_temp_setup, .fini = support_temp_teardown, .timeout = 300);

/* A request with token in `Authorization: Bearer` (NULL: none) that
 * must answer `expected`: the parsed body (JSON), or NULL for a non-JSON
 * body. */
static json_t *request_as(const served *running, const char *method, const char *path,
                          const char *body, const char *token, int expected)
{
    char *answer;
    int status = http_request_as(running->port, method, path, body, token, "", &answer);
    cr_assert_eq(status, expected, "%s %s %s: %d %s", method, path, body ? body : "", status,
                 answer);
    json_t *value = answer[0] == '{' || answer[0] == '[' ? served_parse(answer) : NULL;
    free(answer);
    return value;
}

static json_t *request(const served *running, const char *method, const char *path,
                       const char *body, int expected)
{
    return request_as(running, method, path, body, NULL, expected);
}

/* The reason of a JSON refusal mentions fragment, on one line. */
static void check_reason(const char *what, const char *text, const char *fragment)
{
    json_t *answer = text && (text[0] == '{') ? served_parse(text) : NULL;
    cr_assert_not_null(answer, "%s: a JSON error: '%s'", what, text ? text : "");
    const char *reason = json_string_value(json_object_get(answer, "error"));
    cr_assert_not_null(reason, "%s: {\"error\": ...}", what);
    cr_expect(strstr(reason, fragment), "%s: '%s' should mention '%s'", what, reason, fragment);
    cr_expect_null(strchr(reason, '\n'), "one line: %s", reason);
    json_decref(answer);
}

/* A refusal (of a request with token, or none): the status and a reason
 * that mentions fragment. */
static void refused_as(const served *running, const char *method, const char *path,
                       const char *body, const char *token, int expected, const char *fragment)
{
    char *answer, what[700];
    int status = http_request_as(running->port, method, path, body, token, "", &answer);
    snprintf(what, sizeof what, "%s %.300s %.300s", method, path, body ? body : "");
    cr_assert_eq(status, expected, "%s: %d %s", what, status, answer);
    check_reason(what, answer, fragment);
    free(answer);
}

static void refused(const served *running, const char *method, const char *path,
                    const char *body, int expected, const char *fragment)
{
    refused_as(running, method, path, body, NULL, expected, fragment);
}

typedef served_table created;

static created create_table(const served *running, const char *body)
{
    json_t *answer = request(running, "POST", "/api/tables", body, 201);
    created table = served_table_from(answer);
    json_decref(answer);
    return table;
}

/* Seat's snapshot (with its token), or the spectators' (seat 0). */
static json_t *get_table(const served *running, const created *table, int seat)
{
    char path[512];
    snprintf(path, sizeof path, "/api/tables/%s", table->id);
    return request_as(running, "GET", path, NULL, seat > 0 ? table->tokens[seat - 1] : NULL, 200);
}

/* Legal actions the server said end the move ("complete": true). */
static int said_complete;

/* Builds a whole move for seat from the server's legal actions alone
 * (the first legal action each time, as a client with no rules would),
 * and posts it.  Each legal action says "complete": true exactly when
 * the move is whole with it, which /legal?after= confirms here.  Returns
 * the new version, or -1 when another seat moved first (409). */
static int play_first_legal(const served *running, const created *table, int seat, int version,
                            json_t *legal)
{
    char after[4096] = "", path[4400];
    json_t *actions = json_array();
    json_t *choices = json_incref(legal);
    for (;;) {
        json_t *first = json_array_get(choices, 0);
        json_int_t action = json_integer_value(json_object_get(first, "action"));
        json_t *flag = json_object_get(first, "complete");
        cr_assert(!flag || json_is_true(flag), "\"complete\" is there only when true");
        json_array_append_new(actions, json_integer(action));
        size_t used = strlen(after);
        snprintf(after + used, sizeof after - used, "%s%lld", used ? "," : "", (long long)action);
        snprintf(path, sizeof path, "/api/tables/%s/legal?after=%s", table->id, after);
        json_t *next = request_as(running, "GET", path, NULL, table->tokens[seat - 1], 200);
        bool complete = json_is_true(json_object_get(next, "complete"));
        cr_assert_eq(complete, flag != NULL, "action %lld %s the move", (long long)action,
                     complete ? "completes" : "does not complete");
        said_complete += flag != NULL;
        json_decref(choices);
        choices = json_incref(json_object_get(next, "legal"));
        json_decref(next);
        if (complete) break;
        cr_assert_gt(json_array_size(choices), 0, "an incomplete move goes on");
    }
    json_decref(choices);
    json_t *body = json_pack("{s:i,s:o}", "version", version, "move", actions);
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    snprintf(path, sizeof path, "/api/tables/%s/moves", table->id);
    char *reply;
    int status = http_request_as(running->port, "POST", path, text, table->tokens[seat - 1], "",
                                 &reply);
    free(text);
    /* A bot may move first in a simultaneous phase: the version is
     * stale, the client looks again (and nothing was played). */
    cr_assert(status == 200 || (status == 409 && strstr(reply, "stale")), "%d %s", status, reply);
    int now = -1;
    if (status == 200) {
        json_t *answer = served_parse(reply);
        now = (int)json_integer_value(json_object_get(answer, "version"));
        json_decref(answer);
        cr_assert_gt(now, version);
    }
    free(reply);
    return now;
}

/* A WebSocket of a seat (or a spectator's: seat 0) and what its
 * messages said so far. */
typedef struct watcher {
    ws_client socket;
    int seat;
    int seen;        /* the last version pushed, -1 before the first */
    int log_entries; /* log entries received, each push holding only new ones */
} watcher;

/* Reads what w's socket has (waiting up to timeout_ms for each message)
 * until a push reaches version: each push is the seat's, and holds the
 * log entries from where the last one ended. */
static void watch(watcher *w, int timeout_ms, int version)
{
    char *message;
    while (w->seen < version && (message = ws_read(&w->socket, timeout_ms)) != NULL) {
        json_t *pushed = served_parse(message);
        free(message);
        if (w->seat > 0) {
            cr_assert_eq(json_integer_value(json_object_get(pushed, "seat")), w->seat);
        } else {
            cr_assert(json_is_null(json_object_get(pushed, "seat")), "a spectator sits nowhere");
            cr_assert_null(json_object_get(pushed, "legal"));
        }
        cr_assert_eq(json_integer_value(json_object_get(pushed, "log_start")), w->log_entries);
        w->log_entries += (int)json_array_size(json_object_get(pushed, "log"));
        w->seen = (int)json_integer_value(json_object_get(pushed, "version"));
        json_decref(pushed);
    }
    cr_assert_leq(w->socket.close_code, 0, "seat %d's socket was closed with %d", w->seat,
                  w->socket.close_code);
}

/* Plays seat (a person's) until the game is over, the bots moving
 * server-side, reading the pushes of the watchers' sockets meanwhile (as
 * a browser does: a client that falls behind is closed): the final
 * snapshot. */
static json_t *play_watched(const served *running, const created *table, int seat,
                            watcher *watchers, int watcher_count)
{
    for (int polls = 0; polls < 20000; polls++) {
        for (int w = 0; w < watcher_count; w++) watch(&watchers[w], 0, INT_MAX);
        json_t *snapshot = get_table(running, table, seat);
        if (json_is_true(json_object_get(snapshot, "over"))) return snapshot;
        json_t *legal = json_object_get(snapshot, "legal");
        if (legal) {
            int version = (int)json_integer_value(json_object_get(snapshot, "version"));
            play_first_legal(running, table, seat, version, legal);
        } else {
            usleep(2000); /* a bot is thinking */
        }
        json_decref(snapshot);
    }
    cr_assert_fail("the game never ended");
    return NULL;
}

static json_t *play_to_the_end(const served *running, const created *table, int seat)
{
    return play_watched(running, table, seat, NULL, 0);
}

static void play_a_game(const char *game, int players, const char *bots)
{
    const char *db = support_temp_path("tables.db");
    served running = served_start_with(db, served_polling);
    char body[512];
    int used = snprintf(body, sizeof body, "{\"game\":\"%s\",\"players\":%d,\"seats\":[\"human\"",
                        game, players);
    for (int s = 1; s < players; s++) used += snprintf(body + used, sizeof body - (size_t)used,
                                                       ",\"%s\"", bots);
    snprintf(body + used, sizeof body - (size_t)used, "]}");
    created table = create_table(&running, body);
    cr_assert(strlen(table.tokens[0]) >= 22, "a token of at least 128 bits: '%s'", table.tokens[0]);

    /* A spectator and the seat on WebSockets see every change: the seat
     * says who it is in its first message, the spectator says nothing. */
    char path[256];
    watcher sockets[2] = {{.seat = 1, .seen = -1}, {.seat = 0, .seen = -1}};
    snprintf(path, sizeof path, "/api/tables/%s/ws", table.id);
    for (int w = 0; w < 2; w++)
        cr_assert(ws_open_as(&sockets[w].socket, running.port, path, NULL,
                             sockets[w].seat ? table.tokens[0] : NULL),
                  "%d %s", sockets[w].socket.status, sockets[w].socket.refusal);

    snprintf(path, sizeof path, "/api/tables/%s/record", table.id);
    refused(&running, "GET", path, NULL, 403, "over");

    said_complete = 0;
    json_t *final = play_watched(&running, &table, 1, sockets, 2);
    served_check_record(&running, table.id, final);
    cr_assert_gt(said_complete, 0, "moves of one action say they are complete");
    int last_version = (int)json_integer_value(json_object_get(final, "version"));

    /* The pushes reach the last version; each has only new log entries. */
    for (int w = 0; w < 2; w++) {
        watch(&sockets[w], 5000, last_version);
        cr_assert_eq(sockets[w].seen, last_version, "seat %d's socket saw the end",
                     sockets[w].seat);
        cr_assert_eq(sockets[w].log_entries, last_version, "one log entry per move");
        ws_close(&sockets[w].socket);
    }
    json_decref(final);
    served_stop(&running);
}

Test(server, piece_o_cake_to_the_end) { play_a_game("piece-o-cake", 3, "heuristic"); }
Test(server, maries_table_to_the_end) { play_a_game("maries-table", 4, "random"); }
Test(server, mice_cake_to_the_end) { play_a_game("mice-cake", 2, "heuristic"); }
Test(server, cake_master_to_the_end) { play_a_game("cake-master", 3, "random"); }

/* A program through the bot protocol at a seat (docs/protocol.md, "In
 * gateau serve"): only the specs the server was started with, and those
 * play the game to its end beside a person. */
Test(server, programs_at_seats_only_as_allowed)
{
    const char *binary = getenv("GATEAU_BINARY");
    char spec[600], allowed[700];
    /* Failures (the fallback moving instead) are written to the log file. */
    const char *failures = support_temp_path("failures.log");
    snprintf(spec, sizeof spec, "ext:ms=2000:log=%s:%s engine --bot heuristic", failures,
             binary);
    snprintf(allowed, sizeof allowed, "%s", spec);
    const char *extra[] = {"--ext-bots", allowed, "--address-requests", "0", NULL};
    served running = served_start_with(support_temp_path("tables.db"), extra);
    refused(&running, "POST", "/api/tables",
            "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"ext:/bin/sh -c true\"]}", 422,
            "ext:");
    char body[900];
    snprintf(body, sizeof body, "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"%s\"]}", spec);
    created table = create_table(&running, body);
    json_t *final = play_to_the_end(&running, &table, 1);
    served_check_record(&running, table.id, final);
    json_decref(final);
    served_stop(&running);
    cr_assert_not(support_file_exists(failures), "the program failed: %s",
                  support_read_file(failures));
}

Test(server, bad_requests_are_refused_and_change_nothing)
{
    served running = served_start(support_temp_path("refusals.db"));
    created table = create_table(&running, "{\"game\":\"piece-o-cake\",\"seats\":[\"human\","
                                           "\"human\"]}");
    json_t *before = get_table(&running, &table, 1);
    int version = (int)json_integer_value(json_object_get(before, "version"));
    char path[256], body[512];
    const char *seat1 = table.tokens[0];
    snprintf(path, sizeof path, "/api/tables/%s/moves", table.id);

    snprintf(body, sizeof body, "{\"version\":%d,\"move\":\"cut 1-99\"}", version);
    refused_as(&running, "POST", path, body, seat1, 422, "1-99");
    snprintf(body, sizeof body, "{\"version\":%d,\"move\":\"cut 1-11\"}", version + 5);
    refused_as(&running, "POST", path, body, seat1, 409, "stale");
    snprintf(body, sizeof body, "{\"version\":%d,\"move\":\"pass\"}", version);
    refused_as(&running, "POST", path, body, table.tokens[1], 409, "not seat 2's turn");
    snprintf(body, sizeof body, "{\"version\":%d,\"move\":\"cut 1-11\"}", version);
    refused_as(&running, "POST", path, body, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", 403, "token");
    refused(&running, "POST", path, body, 403, "token"); /* no token at all */
    refused_as(&running, "POST", path, "{\"version\":", seat1, 400, "not JSON");
    refused_as(&running, "POST", path, "[1,2]", seat1, 400, "object");
    snprintf(body, sizeof body, "{\"version\":%d,\"move\":\"cut 1-11\",\"extra\":1}", version);
    refused_as(&running, "POST", path, body, seat1, 400, "unknown field 'extra'");
    snprintf(body, sizeof body, "{\"version\":\"%d\",\"move\":\"cut 1-11\"}", version);
    refused_as(&running, "POST", path, body, seat1, 400, "'version' must be a whole number");
    refused_as(&running, "POST", path, "{\"version\":1e400,\"move\":\"cut 1-11\"}", seat1, 400,
               "JSON");
    snprintf(body, sizeof body, "{\"version\":%d,\"move\":[99999999999]}", version);
    refused_as(&running, "POST", path, body, seat1, 400, "action");
    snprintf(body, sizeof body, "{\"version\":%d,\"move\":[]}", version);
    refused_as(&running, "POST", path, body, seat1, 400, "'move'");
    /* The token travels in the header only: a body that still names one
     * is refused, the right one too. */
    snprintf(body, sizeof body, "{\"token\":\"%s\",\"version\":%d,\"move\":\"cut 1-11\"}", seat1,
             version);
    refused_as(&running, "POST", path, body, seat1, 400, "token");
    refused(&running, "POST", path, body, 400, "token");

    /* A body is JSON, and says so (no other site's form can post one). */
    snprintf(body, sizeof body, "{\"version\":%d,\"move\":\"cut 1-11\"}", version);
    char *answer;
    int status = http_request_as(running.port, "POST", path, body, seat1,
                                 "Content-Type: text/plain\r\n", &answer);
    cr_assert_eq(status, 415, "a body of text/plain: %d %s", status, answer);
    check_reason("a body of text/plain", answer, "");
    free(answer);
    status = http_request_as(running.port, "POST", path, body, seat1,
                             "Content-Type: application/x-www-form-urlencoded\r\n", &answer);
    cr_assert_eq(status, 415, "a form's body: %d %s", status, answer);
    free(answer);
    char raw[1024];
    snprintf(raw, sizeof raw, "POST %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n"
             "Authorization: Bearer %s\r\nContent-Length: %zu\r\n\r\n%s", path, running.port,
             seat1, strlen(body), body);
    answer = http_raw(running.port, raw, strlen(raw));
    cr_assert_not_null(answer);
    cr_assert(!strncmp(answer, "HTTP/1.1 415 ", 13), "a body without Content-Type: %s", answer);
    free(answer);

    char *huge = malloc(300 * 1024);
    memset(huge, ' ', 300 * 1024 - 1);
    huge[300 * 1024 - 1] = '\0';
    refused_as(&running, "POST", path, huge, seat1, 413, "over");
    free(huge);

    refused(&running, "GET", "/api/tables/nosuchtable", NULL, 404, "no table");
    refused(&running, "DELETE", "/api/tables", NULL, 405, "DELETE");
    refused(&running, "POST", "/api/tables", "{\"game\":\"chess\",\"seats\":[\"human\"]}", 422,
            "unknown game");
    refused(&running, "POST", "/api/tables", "{\"game\":\"piece-o-cake\",\"seats\":[\"human\","
            "\"alphazero\"]}", 422, "alphazero");
    refused(&running, "POST", "/api/tables", "{\"game\":\"piece-o-cake\",\"seats\":[\"human\","
            "\"human\"],\"clock\":\"forever\"}", 422, "clock");
    refused(&running, "POST", "/api/tables", "{\"game\":\"cake-master\",\"seats\":[\"human\","
            "\"human\"],\"options\":{\"deck\":\"/etc/passwd\"}}", 422, "names no files");
    refused(&running, "POST", "/api/tables", "{\"game\":\"piece-o-cake\",\"players\":3,"
            "\"seats\":[\"human\",\"human\"]}", 422, "2 seats for 3 players");
    /* Without "players" the seat list sets the count; more seats than any table holds is
     * refused (the fuzzer found it indexed past the seat array). */
    refused(&running, "POST", "/api/tables", "{\"game\":\"maries-table\",\"seats\":[\"human\","
            "\"human\",\"human\",\"human\",\"human\",\"human\",\"human\",\"human\",\"human\","
            "\"human\",\"human\",\"human\",\"human\",\"human\",\"human\",\"human\",\"human\"]}",
            422, "a table seats 1 to");
    refused(&running, "POST", "/api/tables", "{\"game\":\"maries-table\",\"seats\":[]}", 422,
            "a table seats 1 to");
    /* What a request says is quoted on one line: a newline in a field's
     * name.  A decoded %0A in a path is refused (libwebsockets would cut
     * the path there and drop the query, a token in it too). */
    refused(&running, "GET", "/api/tables/no%0Asuch", NULL, 400, "encoded line break");
    refused(&running, "GET", "/api/games%0D?token=abc", NULL, 400, "encoded line break");
    refused(&running, "POST", "/api/tables", "{\"game\\n\":1}", 400, "unknown field 'game\\n'");
    snprintf(path, sizeof path, "/api/tables/%s", table.id);
    refused_as(&running, "GET", path, NULL, "forged", 403, "token");
    snprintf(path, sizeof path, "/api/tables/%s/legal?after=x", table.id);
    refused_as(&running, "GET", path, NULL, seat1, 400, "after");

    /* A token in a URL is refused, the right one too, wherever it is: it
     * would land in a proxy's or a browser's log.  The reason names the
     * header it belongs in. */
    const char *token_paths[] = {"", "/legal", "/hint", "/record"};
    for (size_t p = 0; p < sizeof token_paths / sizeof *token_paths; p++) {
        snprintf(path, sizeof path, "/api/tables/%s%s?token=%s", table.id, token_paths[p], seat1);
        refused(&running, "GET", path, NULL, 400, "Authorization");
        refused_as(&running, "GET", path, NULL, seat1, 400, "Authorization");
    }
    snprintf(path, sizeof path, "/api/tables/%s/legal?after=0&token=%s", table.id, seat1);
    refused_as(&running, "GET", path, NULL, seat1, 400, "Authorization");
    snprintf(path, sizeof path, "/api/tables/%s/moves?token=%s", table.id, seat1);
    snprintf(body, sizeof body, "{\"version\":%d,\"move\":\"cut 1-11\"}", version);
    refused(&running, "POST", path, body, 400, "Authorization");

    /* A header value too long to be a token (or a list of actions) is
     * refused, not taken for an absent one: a spectator's view. */
    char long_path[6000], long_value[5000];
    memset(long_value, 'A', 300);
    long_value[300] = '\0';
    snprintf(long_path, sizeof long_path, "/api/tables/%s", table.id);
    refused_as(&running, "GET", long_path, NULL, long_value, 400, "Authorization");
    snprintf(long_path, sizeof long_path, "/api/tables/%s/record", table.id);
    refused_as(&running, "GET", long_path, NULL, long_value, 400, "Authorization");
    char long_after[5000];
    for (int i = 0; i < 4998; i += 2) memcpy(long_after + i, "1,", 2);
    long_after[4999] = '\0';
    snprintf(long_path, sizeof long_path, "/api/tables/%s/legal?after=%s", table.id, long_after);
    refused_as(&running, "GET", long_path, NULL, seat1, 400, "too long");
    snprintf(path, sizeof path, "/api/tables/%s?log_from=x", table.id);
    refused_as(&running, "GET", path, NULL, seat1, 400, "log_from");

    /* WebSockets: a token in the URL, another site's page are refused at
     * the upgrade; a forged token, one too long, or a first message that
     * is neither a seat's nor a spectator's, with a close frame (1008). */
    ws_client socket;
    snprintf(path, sizeof path, "/api/tables/%s/ws?token=%s", table.id, seat1);
    cr_assert_not(ws_open(&socket, running.port, path, NULL));
    cr_assert_eq(socket.status, 400, "a token in the socket's URL: %d %s", socket.status,
                 socket.refusal);
    check_reason("a token in the socket's URL", socket.refusal, "Authorization");
    snprintf(path, sizeof path, "/api/tables/%s/ws", table.id);
    cr_assert_not(ws_open(&socket, running.port, path, "http://evil.example"));
    cr_assert_eq(socket.status, 403, "another site's page: %d %s", socket.status, socket.refusal);
    const char *hellos[] = {"{\"token\":\"forged\"}", NULL, "{\"seat\":1}", "[]", "hello",
                            "{\"token\":3}"};
    char long_hello[sizeof long_value + 16];
    snprintf(long_hello, sizeof long_hello, "{\"token\":\"%s\"}", long_value);
    hellos[1] = long_hello;
    /* A close frame's reason is UTF-8, whatever bytes the path held. */
    cr_assert(ws_open(&socket, running.port, "/api/tables/%A4%C3/ws", NULL));
    cr_assert(ws_send(&socket, "{}", 2));
    cr_assert_null(ws_read(&socket, 15000));
    cr_assert_eq(socket.close_code, 1008, "no such table: %d", socket.close_code);
    for (const char *c = socket.close_reason; *c; c++)
        cr_assert((unsigned char)*c < 0x80, "an ASCII reason: '%s'", socket.close_reason);
    cr_assert(strstr(socket.close_reason, "\\xa4\\xc3"), "%s", socket.close_reason);
    ws_close(&socket);
    for (size_t h = 0; h < sizeof hellos / sizeof *hellos; h++) {
        cr_assert(ws_open(&socket, running.port, path, NULL), "%d %s", socket.status,
                  socket.refusal);
        cr_assert(ws_send(&socket, hellos[h], strlen(hellos[h])));
        char *message = ws_read(&socket, 15000);
        cr_assert_null(message, "%s: nothing but a close frame, got %s", hellos[h], message);
        cr_assert_eq(socket.close_code, 1008, "%s: closed with 1008 (%d)", hellos[h],
                     socket.close_code);
        ws_close(&socket);
    }
    /* The seat's own token opens its socket: its snapshot comes. */
    cr_assert(ws_open_as(&socket, running.port, path, NULL, seat1), "%d %s", socket.status,
              socket.refusal);
    char *message = ws_read(&socket, 5000);
    cr_assert_not_null(message, "the seat's snapshot (closed with %d)", socket.close_code);
    json_t *seen = served_parse(message);
    free(message);
    cr_assert_eq(json_integer_value(json_object_get(seen, "seat")), 1);
    cr_assert(json_equal(json_object_get(seen, "view"), json_object_get(before, "view")));
    cr_assert_not_null(json_object_get(seen, "legal"), "seat 1 is to move");
    json_decref(seen);
    ws_close(&socket);
    /* A spectator says {}: the spectators' snapshot. */
    cr_assert(ws_open_as(&socket, running.port, path, NULL, NULL), "%d %s", socket.status,
              socket.refusal);
    message = ws_read(&socket, 5000);
    cr_assert_not_null(message, "the spectators' snapshot (closed with %d)", socket.close_code);
    seen = served_parse(message);
    free(message);
    json_t *watched = get_table(&running, &table, 0);
    cr_assert(json_is_null(json_object_get(seen, "seat")), "a spectator sits nowhere");
    cr_assert_null(json_object_get(seen, "legal"));
    cr_assert(json_equal(json_object_get(seen, "view"), json_object_get(watched, "view")),
              "the spectators' view");
    json_decref(watched);
    json_decref(seen);
    ws_close(&socket);

    json_t *after = get_table(&running, &table, 1);
    cr_assert(json_equal(json_object_get(before, "view"), json_object_get(after, "view")),
              "nothing changed");
    cr_assert(json_equal(json_object_get(before, "version"), json_object_get(after, "version")));
    json_decref(before), json_decref(after);
    served_stop(&running);
}

/* A person's seat is handed to a bot and back by the table's creator
 * only, whose token travels in the header as a seat's does. */
Test(server, only_the_creator_hands_seats_to_bots)
{
    served running = served_start_with(support_temp_path("zombies.db"), served_polling);
    created table = create_table(&running, "{\"game\":\"mice-cake\",\"seats\":[\"human\","
                                           "\"human\"]}");
    cr_assert(strlen(table.creator) >= 22, "the creator's token: '%s'", table.creator);
    char path[256], body[256];
    snprintf(path, sizeof path, "/api/tables/%s/zombie", table.id);
    const char *hand = "{\"seat\":2,\"zombie\":true,\"bot\":\"random\"}";
    refused(&running, "POST", path, hand, 403, "creator");
    refused_as(&running, "POST", path, hand, table.tokens[1], 403, "creator");
    refused_as(&running, "POST", path, hand, "forged", 403, "creator");
    snprintf(body, sizeof body, "{\"creator\":\"%s\",\"seat\":2,\"zombie\":true}", table.creator);
    refused_as(&running, "POST", path, body, table.creator, 400, "creator");
    snprintf(path, sizeof path, "/api/tables/%s/zombie?token=%s", table.id, table.creator);
    refused(&running, "POST", path, hand, 400, "Authorization");
    json_t *seen = get_table(&running, &table, 1);
    cr_assert(json_is_false(json_object_get(json_array_get(json_object_get(seen, "seats"), 1),
                                            "zombie")), "nothing changed");
    json_decref(seen);

    /* A seat whose player is here (a WebSocket open) stays his, even for
     * the creator; once he has left, it may go. */
    ws_client socket_;
    char ws_path[128];
    snprintf(ws_path, sizeof ws_path, "/api/tables/%s/ws", table.id);
    cr_assert(ws_open_as(&socket_, running.port, ws_path, NULL, table.tokens[1]));
    free(ws_read(&socket_, 5000)); /* (its first snapshot: the server has it) */
    snprintf(path, sizeof path, "/api/tables/%s/zombie", table.id);
    refused_as(&running, "POST", path, hand, table.creator, 409, "is here");
    ws_close(&socket_);
    bool gone = false;
    for (int tries = 0; tries < 200 && !gone; tries++) {
        seen = get_table(&running, &table, 1);
        gone = json_is_false(json_object_get(json_array_get(json_object_get(seen, "seats"), 1),
                                             "connected"));
        json_decref(seen);
        if (!gone) usleep(20 * 1000);
    }
    cr_assert(gone, "the server saw seat 2 leave");
    json_decref(request_as(&running, "POST", path, hand, table.creator, 200));
    seen = get_table(&running, &table, 1);
    cr_assert(json_is_true(json_object_get(json_array_get(json_object_get(seen, "seats"), 1),
                                           "zombie")), "seat 2 is a bot's");
    json_decref(seen);
    json_decref(request_as(&running, "POST", path, "{\"seat\":2,\"zombie\":false}",
                           table.creator, 200));
    seen = get_table(&running, &table, 1);
    cr_assert(json_is_false(json_object_get(json_array_get(json_object_get(seen, "seats"), 1),
                                            "zombie")), "seat 2 is its person's again");
    json_decref(seen);
    served_stop(&running);
}

/* A restart restores an unfinished table exactly, and play goes on. */
Test(server, a_restart_restores_unfinished_tables)
{
    const char *db = support_temp_path("restart.db");
    served running = served_start_with(db, served_polling);
    created table = create_table(&running, "{\"game\":\"maries-table\",\"players\":3,"
                                           "\"seats\":[\"human\",\"random\",\"random\"]}");
    json_t *snapshot = get_table(&running, &table, 1);
    int version = (int)json_integer_value(json_object_get(snapshot, "version"));
    play_first_legal(&running, &table, 1, version, json_object_get(snapshot, "legal"));
    json_decref(snapshot);
    usleep(200000);
    json_t *before = get_table(&running, &table, 1);
    served_stop(&running);

    running = served_start_with(db, served_polling);
    json_t *after = get_table(&running, &table, 1);
    cr_assert(json_equal(json_object_get(before, "view"), json_object_get(after, "view")),
              "the same view after the restart");
    cr_assert(json_equal(json_object_get(before, "log"), json_object_get(after, "log")));
    json_decref(before), json_decref(after);
    json_t *final = play_to_the_end(&running, &table, 1);
    served_check_record(&running, table.id, final);
    json_decref(final);
    served_stop(&running);
}

/* Runs sql on the database at db (the server stopped): how a kill -9 at
 * an unlucky moment leaves it. */
static void change_database(const char *db, const char *sql)
{
    sqlite3 *database;
    cr_assert_eq(sqlite3_open(db, &database), SQLITE_OK);
    char *error = NULL;
    cr_assert_eq(sqlite3_exec(database, sql, NULL, NULL, &error), SQLITE_OK, "%s: %s", sql,
                 error ? error : "");
    cr_assert_gt(sqlite3_changes(database), 0, "%s changed nothing", sql);
    sqlite3_close(database);
}

/* Killed after a table's row was committed but before the chance move
 * that follows (the deal): the restart plays and stores that chance move,
 * and the game goes on.  (Restoring used to store it from inside the
 * store's visit, which refused: the table was lost.) */
Test(server, a_table_killed_before_its_chance_move_is_restored)
{
    const char *db = support_temp_path("killed-deal.db");
    served running = served_start_with(db, served_polling);
    created table = create_table(&running, "{\"game\":\"maries-table\",\"players\":3,"
                                           "\"seats\":[\"human\",\"random\",\"random\"]}");
    json_t *before = get_table(&running, &table, 1);
    cr_assert_eq(json_integer_value(json_object_get(before, "version")), 1, "the deal is move 0");
    served_stop(&running);
    char sql[256];
    snprintf(sql, sizeof sql, "DELETE FROM moves WHERE table_id = '%s'", table.id);
    change_database(db, sql);

    running = served_start_with(db, served_polling);
    json_t *after = get_table(&running, &table, 1);
    cr_assert_eq(json_integer_value(json_object_get(after, "version")), 1, "the deal again");
    cr_assert(json_equal(json_object_get(before, "view"), json_object_get(after, "view")),
              "the same deal: chance comes from the table's seed");
    json_decref(before), json_decref(after);
    json_t *final = play_to_the_end(&running, &table, 1);
    served_check_record(&running, table.id, final);
    json_decref(final);
    served_stop(&running);
}

/* Killed after a game's last move was committed but before its end was:
 * the restart stores the end, and the record is there. */
Test(server, a_table_killed_before_its_end_is_stored_is_restored)
{
    const char *db = support_temp_path("killed-end.db");
    served running = served_start_with(db, served_polling);
    created table = create_table(&running, "{\"game\":\"mice-cake\",\"seats\":[\"human\","
                                           "\"heuristic\"]}");
    json_t *final = play_to_the_end(&running, &table, 1);
    served_stop(&running);
    char sql[256];
    snprintf(sql, sizeof sql, "UPDATE tables SET over = 0, result = NULL WHERE id = '%s'",
             table.id);
    change_database(db, sql);

    running = served_start_with(db, served_polling);
    json_t *after = get_table(&running, &table, 1);
    cr_assert(json_is_true(json_object_get(after, "over")));
    cr_assert(json_equal(json_object_get(final, "scores"), json_object_get(after, "scores")));
    served_check_record(&running, table.id, final);
    json_decref(after), json_decref(final);
    served_stop(&running);
}

/* Open seats: listed in the lobby until claimed. */
Test(server, lobby_and_join)
{
    served running = served_start(support_temp_path("lobby.db"));
    /* Names given at creation; a comma becomes a space, as in records. */
    created named = create_table(&running, "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"random\"],"
                                           "\"names\":[\"Ann, the first\",null]}");
    json_t *seen = get_table(&running, &named, 1);
    json_t *seats = json_object_get(seen, "seats");
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(seats, 0), "name")), "Ann  the first");
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(seats, 1), "name")), "Seat 2");
    json_decref(seen);
    refused(&running, "POST", "/api/tables", "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"random\"],"
            "\"names\":[\"Ann\"]}", 400, "names");
    refused(&running, "POST", "/api/tables", "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"random\"],"
            "\"names\":[\"Ann\",3]}", 400, "name 2");
    created table = create_table(&running, "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"open\"]}");
    json_t *lobby = request(&running, "GET", "/api/tables", NULL, 200);
    char *text = json_dumps(lobby, JSON_COMPACT);
    cr_assert(strstr(text, table.id), "%s", text);
    free(text);
    json_decref(lobby);
    char path[256];
    snprintf(path, sizeof path, "/api/tables/%s/join", table.id);
    refused(&running, "POST", path, "{\"seat\":1,\"name\":\"Eve\"}", 409, "not open");
    json_t *joined = request(&running, "POST", path, "{\"seat\":2,\"name\":\"Bob\"}", 200);
    snprintf(table.tokens[1], sizeof table.tokens[1], "%s",
             json_string_value(json_object_get(joined, "token")));
    json_decref(joined);
    refused(&running, "POST", path, "{\"seat\":2,\"name\":\"Eve\"}", 409, "not open");
    json_t *seat2 = get_table(&running, &table, 2);
    cr_assert_eq(json_integer_value(json_object_get(seat2, "seat")), 2);
    json_decref(seat2);
    /* With no open seat left, the table is in play: listed to watch, after
     * the tables with open seats. */
    lobby = request(&running, "GET", "/api/tables", NULL, 200);
    json_t *listed = json_object_get(lobby, "tables"), *item, *found = NULL;
    size_t index;
    cr_assert_eq(json_array_size(listed), 2);
    json_array_foreach(listed, index, item)
        if (!strcmp(json_string_value(json_object_get(item, "id")), table.id)) found = item;
    cr_assert_not_null(found, "a game in play to watch");
    cr_assert_eq(json_array_size(json_object_get(found, "open")), 0, "no open seat left");
    cr_assert(json_is_null(json_object_get(lobby, "next")));
    json_decref(lobby);
    served_stop(&running);
}

/* Whatever a request is, the answer is HTTP, and a refusal is a 4xx (or
 * a 505) in JSON: a request line with a space in its version (a server
 * once echoed the request's headers into its status line), a version
 * other than 1.0 and 1.1, an upgrade to a path with no WebSocket, a
 * method other than GET, HEAD and POST; and an answer to HEAD has no
 * body, which a client would read as the next answer. */
static char *raw_request(const served *running, const char *request)
{
    char *answer = http_raw(running->port, request, strlen(request));
    cr_assert_not_null(answer, "%s", request);
    return answer;
}

/* The request's answer begins with status_line ("HTTP/1.1 400") and is
 * a JSON refusal. */
static void refused_raw(const served *running, const char *request, const char *status_line)
{
    char *answer = raw_request(running, request);
    cr_assert(!strncmp(answer, status_line, strlen(status_line)) &&
                  answer[strlen(status_line)] == ' ',
              "'%s' answered '%s'", request, answer);
    const char *body = strstr(answer, "\r\n\r\n");
    cr_assert(body && !strncmp(body + 4, "{\"error\":", 9), "a JSON refusal: '%s'", answer);
    cr_assert_null(strstr(answer, "X-Injected"), "%s", answer);
    free(answer);
}

/* The value of header name in answer's head, or "" (a static buffer). */
static const char *head_value(const char *answer, const char *name)
{
    static char value[256];
    value[0] = '\0';
    const char *end = strstr(answer, "\r\n\r\n");
    size_t length = strlen(name);
    for (const char *line = strstr(answer, "\r\n"); line && (!end || line < end);
         line = strstr(line + 2, "\r\n")) {
        if (!strncasecmp(line + 2, name, length) && line[2 + length] == ':') {
            const char *start = line + 3 + length;
            while (*start == ' ') start++;
            snprintf(value, sizeof value, "%.*s", (int)strcspn(start, "\r\n"), start);
            break;
        }
    }
    return value;
}

Test(server, answers_are_http)
{
    served running = served_start(support_temp_path("http.db"));
    refused_raw(&running, "GET /api/games HTTP/1.1 x\r\nHost: 127.0.0.1\r\nX-Injected: 1\r\n\r\n",
                "HTTP/1.1 400");
    refused_raw(&running, "GET /api/games HTTP/1.7\r\nHost: 127.0.0.1\r\n\r\n",
                "HTTP/1.1 505");
    refused_raw(&running, "GET /api/tables/x HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n", "HTTP/1.1 404");

    /* HEAD: GET's answer without its body. */
    char *answer = raw_request(&running, "HEAD /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                         "Connection: close\r\n\r\n");
    cr_assert(!strncmp(answer, "HTTP/1.1 200 ", 13), "%s", answer);
    const char *end = strstr(answer, "\r\n\r\n");
    cr_assert(end && !end[4], "a body after the head: '%s'", answer);
    free(answer);
    /* Other methods: 405, saying which are allowed; those libwebsockets
     * does not know (TRACE) it refuses with 403 itself (docs/server.md). */
    const char *methods[] = {"PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"};
    for (size_t m = 0; m < sizeof methods / sizeof *methods; m++) {
        char request_text[256];
        snprintf(request_text, sizeof request_text, "%s /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                 "Connection: close\r\nContent-Length: 0\r\n\r\n", methods[m]);
        if (!strcmp(methods[m], "TRACE")) {
            answer = raw_request(&running, request_text);
            cr_assert(!strncmp(answer, "HTTP/1.0 403 ", 13), "TRACE: %s", answer);
            free(answer);
            continue;
        }
        refused_raw(&running, request_text, "HTTP/1.1 405");
        answer = raw_request(&running, request_text);
        const char *allow = head_value(answer, "Allow");
        cr_assert(strstr(allow, "GET") && strstr(allow, "HEAD") && strstr(allow, "POST"),
                  "%s: Allow: '%s' in '%s'", methods[m], allow, answer);
        free(answer);
    }

    /* A handshake with a malformed Sec-WebSocket-Key is no error of the
     * server's (no 5xx), and the server goes on answering. */
    created table = create_table(&running, "{\"game\":\"mice-cake\",\"seats\":[\"human\","
                                           "\"human\"]}");
    char upgrade[512], key[80];
    memset(key, 'A', 70);
    key[70] = '\0';
    snprintf(upgrade, sizeof upgrade, "GET /api/tables/%s/ws HTTP/1.1\r\nHost: 127.0.0.1\r\n"
             "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
             "Sec-WebSocket-Version: 13\r\n\r\n", table.id, key);
    answer = raw_request(&running, upgrade);
    cr_assert(strncmp(answer, "HTTP/1.1 5", 10) != 0, "%s", answer);
    free(answer);
    json_decref(request(&running, "GET", "/api/games", NULL, 200));
    served_stop(&running);
}

/* A process may run a server, stop it and run another (tests and the fuzz
 * target fuzz_request do): the bots play on the second as on the first. */
Test(server, a_process_runs_a_server_again)
{
    for (int run = 1; run <= 2; run++) {
        char name[32], error[512];
        snprintf(name, sizeof name, "again-%d.db", run);
        server_options options = {SERVER_DEFAULT_LIMITS, .bind = "127.0.0.1", .port = 0,
                                  .db = support_temp_path(name), .bot_threads = 1, .quiet = true};
        options.address_requests = 0; /* (it polls as fast as it can) */
        server *in_process = server_start(&options, error, sizeof error);
        cr_assert_not_null(in_process, "run %d: %s", run, error);
        served running = {.port = server_port(in_process)};
        created table = create_table(&running, "{\"game\":\"mice-cake\",\"seats\":[\"random\","
                                               "\"random\"]}");
        bool over = false;
        for (int polls = 0; polls < 20000 && !over; polls++) {
            json_t *snapshot = get_table(&running, &table, 0);
            over = json_is_true(json_object_get(snapshot, "over"));
            json_decref(snapshot);
            if (!over) usleep(1000);
        }
        cr_assert(over, "run %d: the bots play their game to the end", run);
        server_stop(in_process);
    }
}

/* A hint: for a seat's token only, when the seat is to move, from a
 * search of the time asked; its moves are legal (posting the best one
 * plays it). */
Test(server, hints_for_a_seat_to_move)
{
    served running = served_start(support_temp_path("hints.db"));
    created table = create_table(&running, "{\"game\":\"maries-table\",\"seats\":"
                                           "[\"human\",\"human\",\"random\"]}");
    char path[512];
    snprintf(path, sizeof path, "/api/tables/%s/hint", table.id);
    refused(&running, "GET", path, NULL, 403, "token");
    refused_as(&running, "GET", path, NULL, "forged", 403, "token");
    snprintf(path, sizeof path, "/api/tables/%s/hint?ms=9", table.id);
    refused_as(&running, "GET", path, NULL, table.tokens[0], 400, "ms");
    snprintf(path, sizeof path, "/api/tables/%s/hint?ms=5001", table.id);
    refused_as(&running, "GET", path, NULL, table.tokens[0], 400, "ms");
    /* Seat 2 drafts after seat 1. */
    snprintf(path, sizeof path, "/api/tables/%s/hint?ms=50", table.id);
    refused_as(&running, "GET", path, NULL, table.tokens[1], 409, "not");

    snprintf(path, sizeof path, "/api/tables/%s/hint?ms=100", table.id);
    json_t *hint = request_as(&running, "GET", path, NULL, table.tokens[0], 200);
    cr_assert_str_eq(json_string_value(json_object_get(hint, "unit")), "points");
    json_t *moves = json_object_get(hint, "moves");
    cr_assert_gt(json_array_size(moves), 0);
    json_t *best = json_array_get(moves, 0);
    double win = json_real_value(json_object_get(best, "win"));
    cr_assert(win >= 0 && win <= 1, "a win chance: %f", win);
    json_t *snapshot = get_table(&running, &table, 1);
    json_t *body = json_pack("{s:I,s:O}", "version",
                             json_integer_value(json_object_get(snapshot, "version")), "move",
                             json_object_get(best, "move"));
    char *text = json_dumps(body, JSON_COMPACT);
    snprintf(path, sizeof path, "/api/tables/%s/moves", table.id);
    json_decref(request_as(&running, "POST", path, text, table.tokens[0], 200));
    free(text);
    json_decref(body);
    json_decref(snapshot);
    json_decref(hint);
    served_stop(&running);
}

/* Replays: a finished table's (never before its end), and a record's
 * from a client; each position with the move that led there as the
 * viewer saw it. */
Test(server, replays_of_finished_games_and_of_records)
{
    served running = served_start_with(support_temp_path("replays.db"), served_polling);
    created table = create_table(&running, "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"random\"]}");
    char path[512];
    snprintf(path, sizeof path, "/api/tables/%s/replay", table.id);
    refused(&running, "GET", path, NULL, 403, "over");
    json_t *final = play_to_the_end(&running, &table, 1);
    int moves = (int)json_integer_value(json_object_get(final, "version"));

    json_t *replay = request(&running, "GET", path, NULL, 200);
    json_t *steps = json_object_get(replay, "steps");
    cr_assert_eq((int)json_array_size(steps), moves + 1, "the start, then one step per move");
    cr_assert(json_equal(json_object_get(replay, "scores"), json_object_get(final, "scores")));
    json_t *last = json_array_get(steps, (size_t)moves);
    json_t *watched = get_table(&running, &table, 0);
    cr_assert(json_equal(json_object_get(last, "view"), json_object_get(watched, "view")),
              "the last step is the spectator's view of the end");
    json_decref(watched);
    json_decref(replay);
    snprintf(path, sizeof path, "/api/tables/%s/replay?seat=all", table.id);
    replay = request(&running, "GET", path, NULL, 200);
    json_t *views = json_object_get(json_array_get(json_object_get(replay, "steps"), 1), "views");
    cr_assert_eq(json_array_size(views), 2, "every seat's view");
    json_decref(replay);
    snprintf(path, sizeof path, "/api/tables/%s/replay?seat=3", table.id);
    refused(&running, "GET", path, NULL, 400, "seat");

    /* The same game from its record, as seat 2 saw it. */
    snprintf(path, sizeof path, "/api/tables/%s/record", table.id);
    char *record;
    cr_assert_eq(http_request(running.port, "GET", path, NULL, "", &record), 200);
    json_t *body = json_pack("{s:s,s:i}", "record", record, "seat", 2);
    char *text = json_dumps(body, JSON_COMPACT);
    replay = request(&running, "POST", "/api/replay", text, 200);
    cr_assert_eq((int)json_array_size(json_object_get(replay, "steps")), moves + 1);
    cr_assert_eq(json_integer_value(json_object_get(json_object_get(
                     json_array_get(json_object_get(replay, "steps"), 1), "view"), "seat")), 2);
    json_decref(replay);
    free(text);
    json_decref(body);
    free(record);
    refused(&running, "POST", "/api/replay", "{\"record\":\"game: mice-cake\\nplayers: 2\\n---\\nroll 9\\n\"}",
            422, "line 4");
    refused(&running, "POST", "/api/replay",
            "{\"record\":\"game: cake-master\\nplayers: 2\\noptions: deck=/etc/passwd\\n---\\n\"}", 422,
            "deck");
    refused(&running, "POST", "/api/replay", "{\"record\":3}", 400, "record");
    refused(&running, "POST", "/api/replay", "{\"record\":\"game: mice-cake\\nplayers: 2\\n---\\n\",\"seat\":7}",
            400, "seat");
    json_decref(final);
    served_stop(&running);
}

/* A finished table leaves memory once nobody holds it (no request, no
 * WebSocket, no bot): the server's memory does not grow with every game
 * played.  Asked for again, it is loaded from the store, and leaves again. */
Test(server, a_finished_table_leaves_memory_and_comes_back_when_asked)
{
    char error[512];
    server_options options = {SERVER_DEFAULT_LIMITS, .bind = "127.0.0.1", .port = 0,
                              .db = support_temp_path("freed.db"), .bot_threads = 1, .quiet = true};
    options.address_requests = 0; /* (it polls as fast as it can) */
    server *in_process = server_start(&options, error, sizeof error);
    cr_assert_not_null(in_process, "%s", error);
    served running = {.port = server_port(in_process)};
    created table = create_table(&running, "{\"game\":\"mice-cake\",\"seats\":[\"random\","
                                           "\"random\"]}");
    char path[256];
    snprintf(path, sizeof path, "/api/tables/%s/ws", table.id);
    ws_client spectator;
    cr_assert(ws_open_as(&spectator, running.port, path, NULL, NULL));
    char *first = ws_read(&spectator, 5000); /* sent once the subscriber holds the table */
    cr_assert_not_null(first);
    free(first);
    bool over = false;
    for (int polls = 0; polls < 20000 && !over; polls++) {
        json_t *snapshot = get_table(&running, &table, 0);
        over = json_is_true(json_object_get(snapshot, "over"));
        json_decref(snapshot);
        if (!over) usleep(1000);
    }
    cr_assert(over, "the bots play their game to the end");
    cr_assert_eq(tables_in_memory(), 1, "a spectator's WebSocket holds the finished table");
    ws_close(&spectator);
    int count = 1;
    for (int polls = 0; polls < 5000 && (count = tables_in_memory()) != 0; polls++) usleep(1000);
    cr_assert_eq(count, 0, "the finished table left memory when its last holder let go");
    json_t *again = get_table(&running, &table, 0);
    cr_assert(json_is_true(json_object_get(again, "over")), "loaded again from the store");
    json_decref(again);
    snprintf(path, sizeof path, "/api/tables/%s/record", table.id);
    char *record;
    cr_assert_eq(http_request(running.port, "GET", path, NULL, "", &record), 200);
    free(record);
    /* (A request lets the table go just after its answer is sent.) */
    for (int polls = 0; polls < 5000 && (count = tables_in_memory()) != 0; polls++) usleep(1000);
    cr_assert_eq(count, 0, "and it left again after the requests");
    server_stop(in_process);
}

/* Posts seat's vote ("up") with version: the status. */
static int post_vote(const served *running, const created *table, int seat, int version)
{
    char path[512], body[512], *reply;
    snprintf(path, sizeof path, "/api/tables/%s/moves", table->id);
    snprintf(body, sizeof body, "{\"version\":%d,\"move\":\"up\"}", version);
    int status = http_request_as(running->port, "POST", path, body, table->tokens[seat - 1], "",
                                 &reply);
    free(reply);
    return status;
}

/* In a simultaneous phase (Marie's Table's vote) every seat may post with
 * the version it saw when the phase began, whoever voted first: their
 * choices do not depend on each other.  Once the phase is over, that
 * version is stale again. */
Test(server, seats_voting_at_once_do_not_refuse_each_other)
{
    served running = served_start_with(support_temp_path("votes.db"), served_polling);
    created table = create_table(&running, "{\"game\":\"maries-table\",\"seats\":"
                                           "[\"human\",\"human\",\"human\"]}");
    json_t *snapshot = NULL;
    for (int steps = 0; steps < 100; steps++) {
        bool voting = false;
        for (int seat = 1; seat <= 3; seat++) {
            json_decref(snapshot);
            snapshot = get_table(&running, &table, seat);
            const char *phase = json_string_value(json_object_get(json_object_get(snapshot, "view"), "phase"));
            voting = phase && !strcmp(phase, "vote");
            if (voting) break;
            json_t *legal = json_object_get(snapshot, "legal");
            if (legal) play_first_legal(&running, &table, seat, (int)json_integer_value(
                                            json_object_get(snapshot, "version")), legal);
        }
        if (voting) break;
    }
    int version = (int)json_integer_value(json_object_get(snapshot, "version"));
    const char *phase = json_string_value(json_object_get(json_object_get(snapshot, "view"), "phase"));
    cr_assert_str_eq(phase, "vote", "the draft ends in a vote");
    json_decref(snapshot);
    cr_assert_eq(post_vote(&running, &table, 1, version), 200);
    cr_assert_eq(post_vote(&running, &table, 1, version), 409, "a seat votes once");
    cr_assert_eq(post_vote(&running, &table, 2, version), 200, "seat 1's vote did not make 2's stale");
    cr_assert_eq(post_vote(&running, &table, 3, version), 200);
    /* The vote is over: what comes next is not a vote of that version. */
    for (int seat = 1; seat <= 3; seat++)
        cr_assert_eq(post_vote(&running, &table, seat, version), 409);
    served_stop(&running);
}

/* A server that cannot listen says where and why on one line, and exits
 * with 1: the port is taken, the address is not one. */
Test(server, a_port_in_use_is_one_clear_error)
{
    served running = served_start(support_temp_path("taken.db"));
    char arguments[512];
    snprintf(arguments, sizeof arguments, "serve --port %d --db %s", running.port,
             support_temp_path("second.db"));
    support_expect_error(arguments, 1, "Address already in use");
    snprintf(arguments, sizeof arguments, "serve --bind nowhere --port 0 --db %s",
             support_temp_path("second.db"));
    support_expect_error(arguments, 1, "not an IP address (--bind)");
    json_decref(request(&running, "GET", "/api/games", NULL, 200));
    served_stop(&running);
}

/* How many answers a raw exchange holds. */
static int answers_in(const char *text)
{
    int count = 0;
    for (const char *at = text; (at = strstr(at, "HTTP/1.1 ")) != NULL; at += 9) count++;
    return count;
}

/* Requests pipelined behind one not yet answered (browsers never send
 * them; fuzz_request found each of these freezing the loop or answering
 * twice): the first is answered at most once, the connection may then
 * close, and the server lives on.  An empty POST is answered once. */
Test(server, pipelined_requests_end_the_connection_not_the_server)
{
    served running = served_start(support_temp_path("pipelined.db"));
    char *answer = raw_request(&running, "POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                         "Content-Type: application/json\r\nContent-Length: 0\r\n"
                                         "Connection: close\r\n\r\n");
    cr_assert(!strncmp(answer, "HTTP/1.1 400 ", 13), "an empty body: %s", answer);
    cr_assert_eq(answers_in(answer), 1, "answered once: %s", answer);
    free(answer);
    const char *body = "{\"game\":\"mice-cake\",\"seats\":[\"random\",\"random\"]}";
    char raw[1024];
    snprintf(raw, sizeof raw, "POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
             "application/json\r\nContent-Length: %zu\r\n\r\n%sGET /api/games HTTP/1.1\r\n"
             "Host: 127.0.0.1\r\n\r\n", strlen(body), body);
    /* (libwebsockets reports the POST's body complete again for the bytes
     * behind it: the connection closes there, the answer with it.) */
    answer = raw_request(&running, raw);
    cr_assert(!answer[0] || !strncmp(answer, "HTTP/1.1 201 ", 13), "a POST, then a GET: %s",
              answer);
    free(answer);
    snprintf(raw, sizeof raw, "GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nPOST /api/tables "
             "HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: %zu\r\n"
             "\r\n%s", strlen(body), body);
    answer = raw_request(&running, raw);
    cr_assert(!strncmp(answer, "HTTP/1.1 200 ", 13), "a GET, then a POST: %s", answer);
    cr_assert_leq(answers_in(answer), 2, "%s", answer);
    free(answer);
    /* A body's length by Content-Length only (no request smuggling). */
    snprintf(raw, sizeof raw, "POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
             "application/json\r\nTransfer-Encoding: chunked\r\nContent-Length: %zu\r\n\r\n%s",
             strlen(body), body);
    answer = raw_request(&running, raw);
    cr_assert(!strncmp(answer, "HTTP/1.1 400 ", 13) && strstr(answer, "Transfer-Encoding"),
              "Transfer-Encoding: %s", answer);
    free(answer);
    json_decref(request(&running, "GET", "/api/games", NULL, 200));
    served_stop(&running);
}

/* Moves built in any order (issue 27): /legal takes a partial selection
 * in any order, puts it in the engine's order ("move"), says what may
 * still join it and whether it is whole; a selection that is part of no
 * legal move is a 422 that says so; a move posted as its parts in any
 * order is stored as the canonical move. */
Test(server, legal_takes_parts_in_any_order)
{
    served running = served_start(support_temp_path("any-order.db"));
    created table = create_table(&running, "{\"game\":\"piece-o-cake\","
                                           "\"seats\":[\"human\",\"human\",\"human\"]}");
    const char *seat1 = table.tokens[0];
    char path[512];
    /* The gap 11|1 alone (action 20), which the engine's own order cannot
     * begin with: part of a cut, not whole, every other gap may join. */
    snprintf(path, sizeof path, "/api/tables/%s/legal?after=20", table.id);
    json_t *answer = request_as(&running, "GET", path, NULL, seat1, 200);
    cr_assert(json_is_false(json_object_get(answer, "complete")));
    cr_assert_eq(json_array_size(json_object_get(answer, "legal")), 10);
    json_decref(answer);
    /* 11|1 then 8|9: a whole cut, in the engine's order; 3|4 may still join. */
    snprintf(path, sizeof path, "/api/tables/%s/legal?after=20,17", table.id);
    answer = request_as(&running, "GET", path, NULL, seat1, 200);
    cr_assert(json_is_true(json_object_get(answer, "complete")));
    char *move = json_dumps(json_object_get(answer, "move"), JSON_COMPACT);
    cr_assert_str_eq(move, "[17,20]");
    free(move);
    bool offered = false;
    size_t i;
    json_t *item;
    json_array_foreach(json_object_get(answer, "legal"), i, item)
        if (json_integer_value(json_object_get(item, "action")) == 12)
            offered = json_is_true(json_object_get(item, "complete"));
    cr_assert(offered, "3|4 joins, and makes a whole cut");
    json_decref(answer);
    /* Garbage: a gap twice; four gaps in a three-player game. */
    snprintf(path, sizeof path, "/api/tables/%s/legal?after=12,17,12", table.id);
    refused_as(&running, "GET", path, NULL, seat1, 422, "chosen twice");
    snprintf(path, sizeof path, "/api/tables/%s/legal?after=18,12,14,16", table.id);
    refused_as(&running, "GET", path, NULL, seat1, 422, "part of no legal move");
    /* Posted in the order clicked: stored as the canonical move. */
    snprintf(path, sizeof path, "/api/tables/%s/moves", table.id);
    json_decref(request_as(&running, "POST", path, "{\"version\":1,\"move\":[20,12,17]}", seat1, 200));
    snprintf(path, sizeof path, "/api/tables/%s/record", table.id);
    char *record;
    cr_assert_eq(http_request_as(running.port, "GET", path, NULL, seat1, "", &record), 200);
    cr_assert(strstr(record, "\ncut 1-3 4-8 9-11\n"), "%s", record);
    free(record);
    served_stop(&running);
}
