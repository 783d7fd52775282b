/*
 * test_server_postgres.c: several `gateau serve` processes on one
 * PostgreSQL database (docs/server.md, "Several servers on one database").
 *
 * Two servers, A and B, on one database of a PostgreSQL server the test
 * starts (tests/postgres_server.h; skipped with one line where none can
 * be).  One table, both seats people's: each move is posted to the other
 * server than the one before, with the version its client last saw (so a
 * server is often told of a move it has not heard of yet); a spectator's
 * WebSocket on each server sees every move, one log entry per move.
 * Mid-game one of the two is killed with SIGKILL: every move it had
 * acknowledged is on the other, the game finishes there, and its record
 * replays to the scores the server reported.  And two clients posting
 * the same move at the same version, one to each server at once: one is
 * accepted, the other refused (409), never a failure (503),
 * whether its server learned of the winner's move first or the database
 * refused its own.  A real restart of PostgreSQL (a server of the test's
 * own) with tables of bots in play: every one finishes.  A bot's move
 * left by a killed server is taken over by the other.
 */
#define _DEFAULT_SOURCE /* usleep */
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "http_client.h"
#include "served.h"
#include "postgres_server.h"
#include "support.h"

TestSuite(server_postgres, .init = support_temp_setup, .fini = support_temp_teardown,
          .timeout = 300);

POSTGRES_SERVER_START_HOOK()
POSTGRES_SERVER_STOP_HOOK()

typedef struct table_tokens {
    char id[32];
    char tokens[2][64];
} table_tokens;

/* A table of game for two people, created on running: its id and tokens. */
static table_tokens create_table(const served *running, const char *game)
{
    char body[256];
    snprintf(body, sizeof body, "{\"game\":\"%s\",\"players\":2,\"seats\":[\"human\",\"human\"]}",
             game);
    json_t *made = served_request(running, "POST", "/api/tables", body, NULL, 201);
    table_tokens table = {0};
    snprintf(table.id, sizeof table.id, "%s", json_string_value(json_object_get(made, "id")));
    for (int s = 0; s < 2; s++)
        snprintf(table.tokens[s], sizeof table.tokens[0], "%s",
                 json_string_value(json_object_get(json_array_get(json_object_get(made, "seats"),
                                                                  (size_t)s),
                                                   "token")));
    json_decref(made);
    return table;
}

/* Seat's snapshot (seats from 0 here). */
static json_t *get_table(const served *running, const table_tokens *table, int seat)
{
    char path[512];
    snprintf(path, sizeof path, "/api/tables/%s", table->id);
    return served_request(running, "GET", path, NULL, table->tokens[seat], 200);
}

/* The body of the move seat's client would post (with the seat's token
 * in the header): its first legal whole move. */
static char *first_legal_body(const served *from, const table_tokens *table, int seat,
                              int version, json_t *legal)
{
    char after[4096] = "", path[4400];
    json_t *actions = json_array(), *choices = json_incref(legal);
    for (;;) {
        json_int_t action = json_integer_value(json_object_get(json_array_get(choices, 0),
                                                               "action"));
        json_array_append_new(actions, json_integer(action));
        size_t used = strlen(after);
        snprintf(after + used, sizeof after - used, "%s%lld", used ? "," : "", (long long)action);
        snprintf(path, sizeof path, "/api/tables/%s/legal?after=%s", table->id, after);
        json_t *next = served_request(from, "GET", path, NULL, table->tokens[seat], 200);
        bool complete = json_is_true(json_object_get(next, "complete"));
        json_decref(choices);
        choices = json_incref(json_object_get(next, "legal"));
        json_decref(next);
        if (complete) break;
    }
    json_decref(choices);
    json_t *body = json_pack("{s:i,s:o}", "version", version, "move", actions);
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    return text;
}

/* Posts the first legal whole move of seat (built from /legal?after= of
 * `from`, as a client with no rules would) at version to `to`: the HTTP
 * status, and the new version in *now when 200.  (A server hears of
 * another's moves a moment later: the client asks the one whose
 * snapshot it has, and posts to the other, which may not have heard yet.) */
static int post_first_legal(const served *from, const served *to, const table_tokens *table,
                            int seat, int version, json_t *legal, int *now)
{
    char *text = first_legal_body(from, table, seat, version, legal), path[256];
    snprintf(path, sizeof path, "/api/tables/%s/moves", table->id);
    char *reply;
    int status = http_request_as(to->port, "POST", path, text, table->tokens[seat], "", &reply);
    free(text);
    /* One client, every move from a fresh snapshot: never stale, though
     * `to` may not have heard of the last move yet. */
    cr_assert_eq(status, 200, "POST to the other server: %d %s", status, reply);
    if (status == 200) {
        json_t *answer = served_parse(reply);
        *now = (int)json_integer_value(json_object_get(answer, "version"));
        json_decref(answer);
    }
    free(reply);
    return status;
}

/* Reads a spectator's pushes until one reaches version: false if the
 * socket falls silent first (for timeout_ms).  *entries counts the log
 * entries seen, each push holding only the new ones. */
static bool read_until(ws_client *spectator, int version, int *seen, int *entries, int timeout_ms)
{
    char *message;
    while (*seen < version && (message = ws_read(spectator, timeout_ms)) != NULL) {
        json_t *pushed = served_parse(message);
        free(message);
        cr_assert_eq(json_integer_value(json_object_get(pushed, "log_start")), *entries);
        *entries += (int)json_array_size(json_object_get(pushed, "log"));
        *seen = (int)json_integer_value(json_object_get(pushed, "version"));
        json_decref(pushed);
    }
    cr_assert_leq(spectator->close_code, 0, "the spectator's socket was closed with %d",
                  spectator->close_code);
    return *seen >= version;
}

static bool watch_until(ws_client *spectator, int version, int *seen, int *entries)
{
    return read_until(spectator, version, seen, entries, 10000);
}

/* The seat with legal moves in snapshot from `from`, or -1 (chance, over). */
static int seat_to_move(const served *from, const table_tokens *table, int *version,
                        json_t **legal, json_t **snapshot)
{
    for (int seat = 0; seat < 2; seat++) {
        *snapshot = get_table(from, table, seat);
        *version = (int)json_integer_value(json_object_get(*snapshot, "version"));
        *legal = json_object_get(*snapshot, "legal");
        if (*legal || json_is_true(json_object_get(*snapshot, "over"))) return *legal ? seat : -1;
        json_decref(*snapshot);
    }
    *snapshot = NULL;
    return -1;
}

/* Plays a game of game whose moves alternate between the two servers;
 * after kill_after moves the server `victim` (0: A, 1: B) is killed. */
static void two_servers_one_game(const char *game, int victim, int kill_after)
{
    const char *db = postgres_server_database(victim ? "kill_b" : "kill_a");
    served servers[2] = {served_start_with(db, served_polling),
                         served_start_with(db, served_polling)};
    table_tokens table = create_table(&servers[0], game);

    /* A spectator on each server (B loads the table from the database). */
    ws_client spectators[2];
    int seen[2] = {-1, -1}, entries[2] = {0, 0};
    char path[256];
    snprintf(path, sizeof path, "/api/tables/%s/ws", table.id);
    for (int s = 0; s < 2; s++)
        cr_assert(ws_open_as(&spectators[s], servers[s].port, path, NULL, NULL), "%d %s",
                  spectators[s].status, spectators[s].refusal);

    int acknowledged = 0, posted = 0, to = 1, alive = 2, kills = 0;
    json_t *final = NULL;
    for (int rounds = 0; rounds < 20000 && !final; rounds++) {
        int version, from = alive == 2 ? 1 - to : to;
        json_t *legal, *snapshot;
        /* The spectators read what came meanwhile, as browsers do (a
         * client that falls behind is closed). */
        for (int s = 0; s < 2; s++)
            if (alive == 2 || s != victim)
                read_until(&spectators[s], INT_MAX, &seen[s], &entries[s], 0);
        int seat = seat_to_move(&servers[from], &table, &version, &legal, &snapshot);
        if (snapshot && json_is_true(json_object_get(snapshot, "over"))) {
            final = snapshot;
            break;
        }
        if (seat < 0) {
            if (snapshot) json_decref(snapshot);
            usleep(2000);
            continue;
        }
        int now;
        post_first_legal(&servers[from], &servers[to], &table, seat, version, legal, &now);
        cr_assert_gt(now, version);
        acknowledged = now;
        posted++;
        if (alive == 2) to = 1 - to; /* the next move to the other server */
        json_decref(snapshot);
        if (alive == 2 && posted == kill_after) {
            /* Both spectators saw every move so far. */
            for (int s = 0; s < 2; s++)
                cr_assert(watch_until(&spectators[s], acknowledged, &seen[s], &entries[s]),
                          "server %c's spectator saw version %d (saw %d)", 'A' + s, acknowledged,
                          seen[s]);
            kill(servers[victim].pid, SIGKILL);
            int status;
            cr_assert_eq(waitpid(servers[victim].pid, &status, 0), servers[victim].pid);
            ws_close(&spectators[victim]);
            alive = 1;
            kills++;
            to = 1 - victim;
            /* Everything acknowledged, by either, is on the survivor. */
            json_t *after = get_table(&servers[to], &table, 0);
            cr_assert_geq(json_integer_value(json_object_get(after, "version")), acknowledged);
            json_decref(after);
        }
    }
    cr_assert_not_null(final, "the game ended");
    cr_assert_eq(kills, 1, "a server was killed mid-game (%d moves posted)", posted);
    int last = (int)json_integer_value(json_object_get(final, "version"));
    cr_assert_geq(last, acknowledged);
    int survivor = 1 - victim;
    cr_assert(watch_until(&spectators[survivor], last, &seen[survivor], &entries[survivor]),
              "the survivor's spectator saw the end");
    cr_assert_eq(entries[survivor], last, "one log entry per move, each once");
    served_check_record(&servers[survivor], table.id, final);
    json_decref(final);
    ws_close(&spectators[survivor]);
    kill(servers[survivor].pid, SIGTERM);
    int status;
    cr_assert_eq(waitpid(servers[survivor].pid, &status, 0), servers[survivor].pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the survivor stops cleanly (%d)",
              status);
}

Test(server_postgres, moves_alternate_between_two_servers_and_a_kill_of_a_loses_nothing)
{
    postgres_server_require();
    two_servers_one_game("mice-cake", 0, 7);
}

Test(server_postgres, moves_alternate_between_two_servers_and_a_kill_of_b_loses_nothing)
{
    postgres_server_require();
    two_servers_one_game("piece-o-cake", 1, 6);
}

/* ---- Two servers racing for the same move -------------------------------------------- */

typedef struct racer {
    const served *to;
    const char *path;
    const char *body;
    const char *token;
    int status;
    char *reply;
} racer;

static void *race(void *argument)
{
    racer *runner = argument;
    runner->status = http_request_as(runner->to->port, "POST", runner->path, runner->body,
                                     runner->token, "", &runner->reply);
    return NULL;
}

Test(server_postgres, the_same_move_posted_to_both_servers_at_once_is_accepted_once)
{
    const char *db = postgres_server_database("race");
    served servers[2] = {served_start_with(db, served_polling),
                         served_start_with(db, served_polling)};
    table_tokens table = create_table(&servers[0], "mice-cake");
    char path[256];
    snprintf(path, sizeof path, "/api/tables/%s/moves", table.id);
    int races = 0, over = 0;
    for (int rounds = 0; rounds < 5000 && !over; rounds++) {
        int version;
        json_t *legal, *snapshot;
        int seat = seat_to_move(&servers[rounds % 2], &table, &version, &legal, &snapshot);
        over = snapshot && json_is_true(json_object_get(snapshot, "over"));
        if (seat < 0) {
            if (snapshot) json_decref(snapshot);
            usleep(2000);
            continue;
        }
        char *body = first_legal_body(&servers[rounds % 2], &table, seat, version, legal);
        json_decref(snapshot);
        const char *token = table.tokens[seat];
        racer racers[2] = {{&servers[0], path, body, token, 0, NULL},
                           {&servers[1], path, body, token, 0, NULL}};
        pthread_t threads[2];
        for (int r = 0; r < 2; r++) pthread_create(&threads[r], NULL, race, &racers[r]);
        for (int r = 0; r < 2; r++) pthread_join(threads[r], NULL);
        int accepted = (racers[0].status == 200) + (racers[1].status == 200);
        cr_assert_eq(accepted, 1, "version %d: one of the two is accepted (%d %s / %d %s)",
                     version, racers[0].status, racers[0].reply, racers[1].status,
                     racers[1].reply);
        for (int r = 0; r < 2; r++) {
            if (racers[r].status != 200)
                /* (stale; or, in a simultaneous phase whose versions all
                 * stay current, "not seat N's turn" as it has moved) */
                cr_assert_eq(racers[r].status, 409, "version %d, server %c: %d %s", version,
                             'A' + r, racers[r].status, racers[r].reply);
            free(racers[r].reply);
        }
        free(body);
        races++;
    }
    cr_assert(over, "the game ended after %d races", races);
    for (int s = 0; s < 2; s++) {
        kill(servers[s].pid, SIGTERM);
        waitpid(servers[s].pid, NULL, 0);
    }
}

/* ---- PostgreSQL restarted, a peer killed ------------------------------------------------ */

/* Waits (bounded) until table id is over on running: its last snapshot. */
static json_t *wait_over_on(const served *running, const char *id, int seconds)
{
    char path[256];
    snprintf(path, sizeof path, "/api/tables/%s", id);
    for (int tries = 0; tries < seconds * 20; tries++) {
        json_t *seen = served_request(running, "GET", path, NULL, NULL, 200);
        if (json_is_true(json_object_get(seen, "over"))) return seen;
        json_decref(seen);
        usleep(50000);
    }
    cr_assert_fail("table %s did not finish within %d s", id, seconds);
    return NULL;
}

/* A real restart of PostgreSQL (`pg_ctl restart`, every connection cut,
 * on a server of the test's own) while tables of bots are in play: the
 * server opens its connections again, the moves refused meanwhile (bots',
 * chance) are tried again, and every table finishes, replaying to its
 * scores, none broken.  (Before the retries, half such tables stayed
 * with nobody to move, for good.) */
/* The test's own PostgreSQL server, stopped even when the test fails. */
static char private_folder[256];

static void stop_private_server(void)
{
    if (private_folder[0]) postgres_private_stop(private_folder);
    private_folder[0] = '\0';
    support_temp_teardown(); /* (idempotent, should the suite's run too) */
}

Test(server_postgres, every_table_finishes_through_a_restart_of_postgresql,
     .fini = stop_private_server)
{
    char *folder = private_folder, url[512];
    postgres_private_start(private_folder, url, sizeof url);
    const char *const extra[] = {"--address-requests", "0", "--address-tables", "0",
                                 "--store-retry", "120", NULL};
    served running = served_start_with(url, extra);
    static const char *const bodies[] = {
        "{\"game\":\"piece-o-cake\",\"players\":3,\"seats\":[\"ismcts:ms=40\",\"ismcts:ms=40\","
        "\"ismcts:ms=40\"]}",
        "{\"game\":\"piece-o-cake\",\"players\":2,\"seats\":[\"ismcts:ms=40\",\"heuristic\"]}",
        "{\"game\":\"maries-table\",\"players\":3,\"seats\":[\"ismcts:ms=40\",\"random\","
        "\"random\"]}",
        "{\"game\":\"cake-master\",\"players\":3,\"seats\":[\"ismcts:ms=40\",\"heuristic\","
        "\"random\"]}",
        "{\"game\":\"mice-cake\",\"seats\":[\"ismcts:ms=40\",\"ismcts:ms=40\"]}"};
    enum { TABLES = sizeof bodies / sizeof *bodies };
    char ids[TABLES][32];
    for (int t = 0; t < TABLES; t++) {
        json_t *made = served_request(&running, "POST", "/api/tables", bodies[t], NULL, 201);
        snprintf(ids[t], sizeof ids[t], "%s", json_string_value(json_object_get(made, "id")));
        json_decref(made);
    }
    usleep(500000); /* (a few moves in) */
    int in_play = 0;
    for (int t = 0; t < TABLES; t++) {
        char path[256];
        snprintf(path, sizeof path, "/api/tables/%s", ids[t]);
        json_t *seen = served_request(&running, "GET", path, NULL, NULL, 200);
        in_play += !json_is_true(json_object_get(seen, "over"));
        json_decref(seen);
    }
    cr_assert_geq(in_play, 2, "tables are in play when PostgreSQL restarts (%d)", in_play);
    cr_assert(postgres_private_restart(folder), "pg_ctl restart (%s/server.log)", folder);
    for (int t = 0; t < TABLES; t++) {
        json_t *final = wait_over_on(&running, ids[t], 120);
        cr_assert_null(json_object_get(final, "broken"), "table %s", ids[t]);
        cr_assert_null(json_object_get(final, "ended"), "table %s", ids[t]);
        served_check_record(&running, ids[t], final);
        json_decref(final);
    }
    served_stop(&running);
}

/* Posts seat 0's first legal whole move at version to `to`: whether it
 * was taken (200); a 409 (a bot moved first) asks again from a fresh
 * snapshot. */
static bool post_or_stale(const served *to, const table_tokens *table, int version,
                          json_t *legal)
{
    char *text = first_legal_body(to, table, 0, version, legal), path[256], *reply;
    snprintf(path, sizeof path, "/api/tables/%s/moves", table->id);
    int status = http_request_as(to->port, "POST", path, text, table->tokens[0], "", &reply);
    free(text);
    cr_assert(status == 200 || status == 409, "POST: %d %s", status, reply);
    free(reply);
    return status == 200;
}

/* Two servers on one database; A stores a person's move, and the bot's
 * reply is A's to make (the process that stored the move before it) but
 * waits in A's queue (A's one bot thread is busy with a long search) when
 * A is killed with SIGKILL.  B, which holds the table, takes the move
 * over once nothing has moved for 2 x its --max-bot-ms + 2 s, and the
 * game goes on to its end on B. */
Test(server_postgres, a_table_left_by_a_killed_peer_is_taken_over)
{
    const char *db = postgres_server_database("take_over");
    const char *const b_flags[] = {"--address-requests", "0", "--max-bot-ms", "200", NULL};
    served b = served_start_with(db, b_flags);
    const char *const a_flags[] = {"--address-requests", "0", "--bot-threads", "1",
                                   "--max-bot-ms", "20000", NULL};
    served a = served_start_with(db, a_flags);
    /* A's one bot thread: searching for 20 s a move from now. */
    json_t *made = served_request(&a, "POST", "/api/tables",
                                  "{\"game\":\"piece-o-cake\",\"players\":2,\"seats\":"
                                  "[\"ismcts:ms=20000\",\"ismcts:ms=20000\"]}",
                                  NULL, 201);
    json_decref(made);
    usleep(300000);
    made = served_request(&a, "POST", "/api/tables",
                          "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"heuristic\"]}", NULL, 201);
    table_tokens table = {0};
    snprintf(table.id, sizeof table.id, "%s", json_string_value(json_object_get(made, "id")));
    snprintf(table.tokens[0], sizeof table.tokens[0], "%s",
             json_string_value(json_object_get(json_array_get(json_object_get(made, "seats"), 0),
                                               "token")));
    json_decref(made);
    /* B holds the table from now on (it loads it from the database, and
     * plays what is to be played then); later it hears of A's moves. */
    json_decref(get_table(&b, &table, 0));
    /* The person's moves, on A, until the bot is to move after one. */
    int version = 0, posted = 0;
    for (int steps = 0; steps < 200; steps++) {
        json_t *seen = get_table(&a, &table, 0);
        version = (int)json_integer_value(json_object_get(seen, "version"));
        json_t *legal = json_object_get(seen, "legal");
        json_t *to_move = json_object_get(seen, "to_move");
        bool bot_to_move = false;
        size_t i;
        json_t *seat;
        json_array_foreach(to_move, i, seat) bot_to_move |= json_integer_value(seat) == 2;
        if (bot_to_move && posted) {
            json_decref(seen);
            break;
        }
        if (legal) {
            posted += post_or_stale(&a, &table, version, legal);
        } else {
            usleep(20000);
        }
        json_decref(seen);
    }
    cr_assert_gt(posted, 0);
    /* B has heard of A's moves (bounded: 10 s, a busy host's notices can
     * be slow), and leaves the bot's to A (or, heard late, may already
     * have taken it over: A's one bot thread is busy for 20 s). */
    bool heard = false;
    for (int tries = 0; tries < 500 && !heard; tries++) {
        json_t *on_b = get_table(&b, &table, 0);
        heard = json_integer_value(json_object_get(on_b, "version")) >= version;
        json_decref(on_b);
        if (!heard) usleep(20000);
    }
    cr_assert(heard, "B has the table as A stored it");
    kill(a.pid, SIGKILL);
    int status;
    cr_assert_eq(waitpid(a.pid, &status, 0), a.pid);
    /* B makes the bot's move (bounded: its take-over waits 2.4 s). */
    bool moved = false;
    for (int tries = 0; tries < 300 && !moved; tries++) {
        json_t *seen = get_table(&b, &table, 0);
        moved = json_integer_value(json_object_get(seen, "version")) > version;
        json_decref(seen);
        if (!moved) usleep(50000);
    }
    cr_assert(moved, "B took over the bot's move of the killed server");
    /* And the game goes on, on B, to its end. */
    json_t *final = NULL;
    for (int steps = 0; steps < 2000 && !final; steps++) {
        json_t *seen = get_table(&b, &table, 0);
        if (json_is_true(json_object_get(seen, "over"))) {
            final = seen;
            break;
        }
        json_t *legal = json_object_get(seen, "legal");
        if (legal) {
            post_or_stale(&b, &table, (int)json_integer_value(json_object_get(seen, "version")),
                          legal);
        } else {
            usleep(20000);
        }
        json_decref(seen);
    }
    cr_assert_not_null(final, "the game ended on B");
    served_check_record(&b, table.id, final);
    json_decref(final);
    served_stop(&b);
}
