/*
 * test_server_failures.c: `gateau serve` when its store fails, and its
 * bots' fairness (docs/server.md, "When the store fails" and "Bots").
 *
 * Failures are injected in the store (GATEAU_TEST_STORE_FAIL, store.c:
 * every Nth write fails, or every write after the first N), on SQLite and
 * on PostgreSQL (a server the tests start, tests/postgres_server.h):
 * tables of people, of bots and of a clock that runs out all finish, a
 * client's move that was committed is never answered 503, a 503 says only
 * "storage unavailable" while the log gets the reason; a table the store
 * keeps failing is broken and says so; a table cannot be made meanwhile
 * (503).  Bots: a heuristic table moves at once beside two tables of
 * slow searches; budgets over --max-bot-ms are refused; SIGTERM stops a
 * long search.  ext: programs: a seat with onerror=forfeit ends its
 * table; --ext-bots that cannot play are refused at the start; the
 * programs leave no process behind (nor a setsid grandchild, nor one that
 * ignores SIGTERM) when the server stops.
 */
#define _DEFAULT_SOURCE /* usleep */
#include <regex.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "http_client.h"
#include "postgres_server.h"
#include "served.h"
#include "support.h"

TestSuite(server_failures, .init = support_temp_setup, .fini = support_temp_teardown,
          .timeout = 300);

POSTGRES_SERVER_START_HOOK()
POSTGRES_SERVER_STOP_HOOK()

#define BOTH_BACKENDS(name) BACKEND_TESTS(server_failures, name)

static const char *database(backend which, const char *name)
{
    if (which == POSTGRES) return postgres_server_database(name);
    char file[64];
    snprintf(file, sizeof file, "%s.db", name);
    return support_temp_path(file);
}

/* A refusal whose reason is exactly reason, or contains it (whole false). */
static void refused_with(const served *running, const char *method, const char *path,
                         const char *body, int expected, const char *reason)
{
    json_t *answer = served_request(running, method, path, body, NULL, expected);
    const char *error = json_string_value(json_object_get(answer, "error"));
    cr_assert(error && strstr(error, reason), "%s %s: '%s' should say '%s'", method, path,
              error ? error : "", reason);
    json_decref(answer);
}

static served_table create(const served *running, const char *body)
{
    json_t *answer = served_request(running, "POST", "/api/tables", body, NULL, 201);
    served_table table = served_table_from(answer);
    json_decref(answer);
    return table;
}

static json_t *snapshot(const served *running, const served_table *table, int seat)
{
    char path[128];
    snprintf(path, sizeof path, "/api/tables/%.*s", (int)sizeof table->id, table->id);
    return served_request(running, "GET", path, NULL, seat ? table->tokens[seat - 1] : NULL, 200);
}

/* Waits (bounded) until the table is over: its last snapshot. */
static json_t *wait_over(const served *running, const served_table *table, int seconds)
{
    for (int tries = 0; tries < seconds * 20; tries++) {
        json_t *seen = snapshot(running, table, 0);
        if (json_is_true(json_object_get(seen, "over"))) return seen;
        json_decref(seen);
        usleep(50000);
    }
    cr_assert_fail("table %s did not finish within %d s", table->id, seconds);
    return NULL;
}

/* The log entries of seat 1 in a seat's snapshot. */
static int moves_of_seat_1(json_t *seen)
{
    size_t i;
    json_t *entry;
    int count = 0;
    json_array_foreach(json_object_get(seen, "log"), i, entry)
        count += json_integer_value(json_object_get(entry, "seat")) == 1;
    return count;
}

/* Plays seat 1's moves (its first legal action list, as a rules-free
 * client builds it) until the game is over.  A 503 must say only
 * "storage unavailable", and the move it answered must not be there; a
 * 200 must be: a committed move is never answered 503. */
static json_t *play_through_failures(const served *running, const served_table *table,
                                     int *refusals)
{
    char path[160], moves[160];
    snprintf(moves, sizeof moves, "/api/tables/%s/moves", table->id);
    for (int steps = 0; steps < 5000; steps++) {
        json_t *seen = snapshot(running, table, 1);
        if (json_is_true(json_object_get(seen, "over"))) return seen;
        json_t *legal = json_object_get(seen, "legal");
        int version = (int)json_integer_value(json_object_get(seen, "version"));
        if (!legal) {
            json_decref(seen);
            usleep(20000);
            continue;
        }
        /* The whole move: first legal actions until complete. */
        json_t *actions = json_array();
        json_t *choices = json_incref(legal);
        for (;;) {
            json_t *first = json_array_get(choices, 0);
            json_array_append_new(actions, json_integer(json_integer_value(
                                               json_object_get(first, "action"))));
            if (json_is_true(json_object_get(first, "complete"))) break;
            char *after = json_dumps(actions, JSON_COMPACT);
            after[strlen(after) - 1] = '\0';
            snprintf(path, sizeof path, "/api/tables/%s/legal?after=%s", table->id, after + 1);
            free(after);
            json_t *next = served_request(running, "GET", path, NULL, table->tokens[0], 200);
            json_decref(choices);
            choices = json_incref(json_object_get(next, "legal"));
            json_decref(next);
        }
        json_decref(choices);
        json_t *body = json_pack("{s:i,s:o}", "version", version, "move", actions);
        char *text = json_dumps(body, JSON_COMPACT), *reply;
        json_decref(body);
        int status = http_request_as(running->port, "POST", moves, text, table->tokens[0], "",
                                     &reply);
        free(text);
        json_t *answer = served_parse(reply);
        free(reply);
        /* (the bot may move meanwhile: Mice Cake's mice move at once) */
        json_t *after = snapshot(running, table, 1);
        int mine = moves_of_seat_1(seen), now = moves_of_seat_1(after);
        if (status == 503) {
            cr_assert_str_eq(json_string_value(json_object_get(answer, "error")),
                             "storage unavailable");
            cr_assert_eq(now, mine, "a move answered 503 was not stored");
            ++*refusals;
        } else {
            cr_assert(status == 200 || status == 409, "move: %d", status);
            if (status == 200) cr_assert_eq(now, mine + 1, "a move answered 200 is stored");
        }
        json_decref(answer);
        json_decref(after);
        json_decref(seen);
    }
    cr_assert_fail("table %s: no end after 5000 steps", table->id);
    return NULL;
}

static bool log_contains(const char *log, const char *text)
{
    char *content = support_read_file(log);
    bool found = content && strstr(content, text);
    free(content);
    return found;
}

/* Whether every line of the log that says text has the request log's
 * shape, "TIME - gateau serve: table ID: ...", and there is one. */
static bool logged_in_shape(const char *log, const char *text)
{
    char *content = support_read_file(log);
    regex_t shape;
    cr_assert_eq(regcomp(&shape, "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z"
                                 " - gateau serve: table [a-z0-9]{12}: ", REG_EXTENDED), 0);
    int found = 0, shaped = 0;
    for (char *line = content, *end; line && *line; line = end ? end + 1 : NULL) {
        end = strchr(line, '\n');
        if (end) *end = '\0';
        if (!strstr(line, text)) continue;
        found++;
        shaped += regexec(&shape, line, 0, NULL, 0) == 0;
    }
    regfree(&shape);
    free(content);
    return found > 0 && shaped == found;
}

/* Every third write fails: tables of a person and a bot (its chance moves
 * after the person's, the bot's moves), of bots only, and of a clock that
 * runs out (the stand-in's moves) all finish, and replay. */
BOTH_BACKENDS(every_table_finishes_through_injected_failures)
{
    const char *db = database(which, "injected");
    const char *log = support_temp_path("injected.log");
    setenv("GATEAU_TEST_STORE_FAIL", "every:3", 1);
    const char *const extra[] = {"--address-requests", "0", "--address-tables", "0", NULL};
    served running = served_start_logged(db, extra, log);
    unsetenv("GATEAU_TEST_STORE_FAIL");
    /* (a 503 on creation is the store failing too: the client tries again) */
    served_table tables[4];
    const char *bodies[4] = {
        "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"heuristic\"]}",
        "{\"game\":\"maries-table\",\"players\":3,\"seats\":[\"random\",\"random\",\"random\"]}",
        "{\"game\":\"piece-o-cake\",\"players\":3,\"seats\":[\"heuristic\",\"random\","
        "\"random\"]}",
        "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"random\"],\"clock\":\"1s\"}"};
    for (int t = 0; t < 4; t++) {
        char *reply;
        int status;
        while ((status = http_request(running.port, "POST", "/api/tables", bodies[t], "",
                                      &reply)) == 503) {
            cr_assert(strstr(reply, "storage unavailable"), "%s", reply);
            free(reply);
        }
        cr_assert_eq(status, 201, "%s", reply);
        json_t *made = served_parse(reply);
        free(reply);
        tables[t] = served_table_from(made);
        json_decref(made);
    }
    int refusals = 0;
    json_t *final = play_through_failures(&running, &tables[0], &refusals);
    served_check_record(&running, tables[0].id, final);
    json_decref(final);
    for (int t = 1; t < 4; t++) {
        final = wait_over(&running, &tables[t], 120);
        served_check_record(&running, tables[t].id, final);
        json_decref(final);
    }
    served_stop(&running);
    cr_assert(log_contains(log, "injected failure"), "the log names the store's reason");
    cr_assert(logged_in_shape(log, "injected failure"), "in the request log's shape, timed");
}

/* The store fails every write after the table's row: its deal is never
 * stored, and after --store-retry the table is broken, its snapshot says
 * why; a new table is refused with 503 meanwhile.  A restart (the store
 * working again) deals and plays on. */
BOTH_BACKENDS(a_table_the_store_keeps_failing_is_broken_and_says_why)
{
    const char *db = database(which, "broken");
    const char *log = support_temp_path("broken.log");
    setenv("GATEAU_TEST_STORE_FAIL", "after:1", 1);
    const char *const extra[] = {"--address-requests", "0", "--store-retry", "1", NULL};
    served running = served_start_logged(db, extra, log);
    unsetenv("GATEAU_TEST_STORE_FAIL");
    served_table table = create(&running, "{\"game\":\"mice-cake\",\"seats\":[\"human\","
                                          "\"heuristic\"]}");
    json_t *seen = NULL;
    for (int tries = 0; tries < 200; tries++) { /* (bounded: 10 s) */
        json_decref(seen);
        seen = snapshot(&running, &table, 1);
        if (json_object_get(seen, "broken")) break;
        usleep(50000);
    }
    const char *broken = json_string_value(json_object_get(seen, "broken"));
    cr_assert(broken && strstr(broken, "storage unavailable"), "the snapshot says why: %s",
              broken ? broken : "(no broken)");
    cr_assert_eq(json_integer_value(json_object_get(seen, "version")), 0);
    json_decref(seen);
    refused_with(&running, "POST", "/api/tables",
                 "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"heuristic\"]}", 503,
                 "storage unavailable");
    served_stop(&running);
    cr_assert(log_contains(log, "broken"), "the log says the table broke");
    cr_assert(log_contains(log, "injected failure"), "and why");

    running = served_start_with(db, served_polling);
    seen = snapshot(&running, &table, 1);
    cr_assert_null(json_object_get(seen, "broken"));
    cr_assert_geq(json_integer_value(json_object_get(seen, "version")), 1, "dealt at the restart");
    json_decref(seen);
    served_stop(&running);
}

/* ---- Bots ------------------------------------------------------------------------------ */

/* Waits (bounded) until the table's version passes version: whether it did. */
static bool wait_version(const served *running, const served_table *table, int version,
                         int milliseconds)
{
    for (int waited = 0; waited <= milliseconds; waited += 20) {
        json_t *seen = snapshot(running, table, 0);
        int now = (int)json_integer_value(json_object_get(seen, "version"));
        json_decref(seen);
        if (now > version) return true;
        usleep(20000);
    }
    return false;
}

/* Two tables of slow searches hold both bot threads' attention, yet a
 * heuristic bot at a third table moves at once: each worker makes one
 * move and puts its table back at the end of the queue.  (A worker that
 * kept a table to its game's end left the heuristic waiting for minutes.) */
Test(server_failures, a_heuristic_bot_moves_beside_slow_searches)
{
    served running = served_start_with(support_temp_path("fair.db"), served_polling);
    const char *slow = "{\"game\":\"piece-o-cake\",\"players\":3,\"seats\":[\"ismcts:ms=400\","
                       "\"ismcts:ms=400\",\"ismcts:ms=400\"]}";
    served_table searches[2] = {create(&running, slow), create(&running, slow)};
    cr_assert(wait_version(&running, &searches[1], 1, 5000), "the slow tables play");
    usleep(500000);
    served_table quick = create(&running, "{\"game\":\"mice-cake\",\"seats\":[\"heuristic\","
                                          "\"heuristic\"]}");
    /* After the deal (version 1), the first bot's move: one slow move
     * ahead of it at most (0.4 s), never a whole game's. */
    cr_assert(wait_version(&running, &quick, 1, 3000), "the heuristic bot moved");
    json_t *seen = snapshot(&running, &searches[0], 0);
    cr_assert(!json_is_true(json_object_get(seen, "over")), "the slow games still go on");
    json_decref(seen);
    served_stop(&running);
}

/* A budget over --max-bot-ms is refused with 422 naming the cap, at a
 * new table and for a seat handed to a bot. */
Test(server_failures, bot_budgets_over_the_cap_are_refused)
{
    const char *const extra[] = {"--max-bot-ms", "300", NULL};
    served running = served_start_with(support_temp_path("cap.db"), extra);
    refused_with(&running, "POST", "/api/tables",
                 "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"ismcts:ms=301\"]}", 422,
                 "cap of 300 ms (--max-bot-ms)");
    refused_with(&running, "POST", "/api/tables",
                 "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"ismcts:threads=1:ms=86400000\"]}",
                 422, "ms=86400000");
    served_table table = create(&running, "{\"game\":\"mice-cake\",\"seats\":[\"human\","
                                          "\"ismcts:ms=300\"]}");
    char path[128];
    snprintf(path, sizeof path, "/api/tables/%s/zombie", table.id);
    json_t *answer = served_request(&running, "POST", path,
                                "{\"seat\":1,\"zombie\":true,\"bot\":\"ismcts:ms=5000\"}",
                                table.creator, 422);
    cr_assert(strstr(json_string_value(json_object_get(answer, "error")), "cap of 300 ms"));
    json_decref(answer);
    served_stop(&running);
    /* The default caps: 5000 ms, 20000 iterations. */
    running = served_start_with(support_temp_path("cap.db"), NULL);
    refused_with(&running, "POST", "/api/tables",
                 "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"ismcts:ms=5001\"]}", 422,
                 "cap of 5000 ms");
    refused_with(&running, "POST", "/api/tables",
                 "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"ismcts:iters=1000000000\"]}",
                 422, "seat 2: the bot's budget iters=1000000000 is over this server's cap of "
                 "20000 iterations (--max-bot-iters)");
    create(&running, "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"ismcts:iters=20000\"]}");
    served_stop(&running);
}

/* An iteration budget is capped as time is (--max-bot-iters): at a new
 * table, among other settings, and for a seat handed to a bot; a search
 * within the cap plays. */
Test(server_failures, iteration_budgets_over_the_cap_are_refused)
{
    const char *const extra[] = {"--max-bot-iters", "400", NULL};
    served running = served_start_with(support_temp_path("iters.db"), extra);
    refused_with(&running, "POST", "/api/tables",
                 "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"ismcts:iters=401\"]}", 422,
                 "seat 2: the bot's budget iters=401 is over this server's cap of 400 iterations "
                 "(--max-bot-iters)");
    refused_with(&running, "POST", "/api/tables",
                 "{\"game\":\"mice-cake\",\"seats\":[\"ismcts:threads=2:iters=99999999999\","
                 "\"human\"]}", 422, "seat 1: the bot's budget iters=99999999999");
    served_table table = create(&running, "{\"game\":\"mice-cake\",\"seats\":[\"human\","
                                          "\"ismcts:iters=400\"]}");
    char path[128];
    snprintf(path, sizeof path, "/api/tables/%s/zombie", table.id);
    json_t *answer = served_request(&running, "POST", path,
                                    "{\"seat\":1,\"zombie\":true,\"bot\":\"ismcts:iters=100000\"}",
                                    table.creator, 422);
    cr_assert(strstr(json_string_value(json_object_get(answer, "error")),
                     "cap of 400 iterations"));
    json_decref(answer);
    answer = served_request(&running, "POST", path,
                            "{\"seat\":1,\"zombie\":true,\"bot\":\"ismcts:iters=300\"}",
                            table.creator, 200);
    json_decref(answer);
    json_t *final = wait_over(&running, &table, 60);
    json_decref(final);
    served_stop(&running);
}

/* SIGTERM while bots search with a budget of minutes: the server stops
 * within seconds, cleanly. */
Test(server_failures, sigterm_stops_a_long_search)
{
    const char *const extra[] = {"--max-bot-ms", "600000", NULL};
    served running = served_start_with(support_temp_path("long.db"), extra);
    create(&running, "{\"game\":\"piece-o-cake\",\"players\":3,\"seats\":[\"ismcts:ms=600000\","
                     "\"ismcts:ms=600000\",\"ismcts:ms=600000\"]}");
    usleep(300000); /* (searching by now) */
    kill(running.pid, SIGTERM);
    int status = 0;
    pid_t done = 0;
    for (int waited = 0; waited < 200 && done == 0; waited++) { /* (bounded: 20 s) */
        done = waitpid(running.pid, &status, WNOHANG);
        if (!done) usleep(100000);
    }
    if (!done) kill(running.pid, SIGKILL);
    cr_assert_eq(done, running.pid, "the server stopped in seconds");
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "cleanly (%d)", status);
}

/* ---- ext: programs ---------------------------------------------------------------------------- */

/* An ext: spec of tests/data/protocol's program NAME with settings and
 * arguments, short enough for a table's seat (under 128 characters): the
 * programs are reached through a link p in the test's folder, where g
 * links the gateau command.  Static storage, 4 in rotation. */
static const char *program(const char *settings, const char *name, const char *arguments)
{
    static char specs[4][512];
    static int next;
    char links[256];
    snprintf(links, sizeof links, "%s", support_temp_path("p"));
    struct stat info;
    if (lstat(links, &info) != 0) {
        char programs[1024];
        snprintf(programs, sizeof programs, "%s/tests/data/protocol", getenv("GATEAU_SOURCE_DIR"));
        cr_assert_eq(symlink(programs, links), 0);
        cr_assert_eq(symlink(getenv("GATEAU_BINARY"), support_temp_path("g")), 0);
    }
    char *spec = specs[next++ % 4];
    snprintf(spec, sizeof specs[0], "ext:%s/bin/sh %s/%s.sh%s%s", settings, links, name,
             arguments ? " " : "", arguments ? arguments : "");
    cr_assert_lt(strlen(spec), 128, "%s", spec);
    return spec;
}

/* An ext: seat with onerror=forfeit whose program fails ends its table
 * (the seat forfeits), and the table is not restored at the next start. */
Test(server_failures, a_forfeiting_program_ends_its_table)
{
    support_process_tag();
    const char *db = support_temp_path("forfeit.db");
    char spec[256], body[512];
    snprintf(spec, sizeof spec, "%s", program("ms=2000:onerror=forfeit:", "crash", NULL));
    const char *const extra[] = {"--ext-bots", spec, NULL};
    char log[256];
    snprintf(log, sizeof log, "%s", support_temp_path("forfeit.log"));
    served running = served_start_logged(db, extra, log);
    snprintf(body, sizeof body, "{\"game\":\"mice-cake\",\"seats\":[\"%s\",\"heuristic\"]}",
             spec);
    served_table table = create(&running, body);
    json_t *final = wait_over(&running, &table, 30);
    const char *ended = json_string_value(json_object_get(final, "ended"));
    cr_assert(ended && strstr(ended, "forfeit"), "the snapshot says why: %s",
              ended ? ended : "(none)");
    json_decref(final);
    served_stop(&running);
    char line[256];
    snprintf(line, sizeof line, "table %s: seat 1 (ext:", table.id);
    cr_assert(log_contains(log, line), "the log names the table and the seat");
    cr_assert(log_contains(log, "forfeits: the program ended or closed its output (exited with "
                                "status 3)"), "and says why");
    running = served_start_with(db, extra);
    json_t *lobby = served_request(&running, "GET", "/api/tables", NULL, NULL, 200);
    cr_assert_not_null(json_object_get(lobby, "tables"));
    cr_assert_eq(json_array_size(json_object_get(lobby, "tables")), 0, "not restored");
    json_decref(lobby);
    final = snapshot(&running, &table, 0);
    cr_assert(json_is_true(json_object_get(final, "over")));
    json_decref(final);
    served_stop(&running);
    const char *left = support_processes_left();
    cr_assert_str_empty(left, "left behind: %s", left);
}

/* --ext-bots whose program cannot start or shake hands, or with a
 * setting that does not exist: the server does not start, with one line
 * (tables naming it would all end at their first move). */
Test(server_failures, ext_bots_that_cannot_play_are_refused_at_start)
{
    const char *db = support_temp_path("refused.db");
    struct {
        const char *spec, *said;
        int status;
    } cases[] = {
        {"ext:ms=500:/nonexistent/bot", "cannot start /nonexistent/bot: No such file", 1},
        {"ext:ms=500:start=300:/bin/sh -c 'exec sleep 60'", "no 'ready' after 'protocol 2'", 1},
        {"ext:foo=1:bot", "unknown setting 'foo'", 1},
        /* Its time per move over --max-bot-ms: without ms=, the protocol's
         * default (10 s) is over the default cap. */
        {"ext:/bin/true", "names no ms=, so its program may think 10000 ms a move (the "
                          "protocol's default), over this server's cap of 5000 ms "
                          "(--max-bot-ms): give it ms=5000 or less", 1},
        {"ext:ms=5001:/bin/true", "ms=5001 is over this server's cap of 5000 ms", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char arguments[1024];
        snprintf(arguments, sizeof arguments, "serve --port 0 --db %s --ext-bots \"%s\"", db,
                 cases[i].spec);
        support_expect_error(arguments, cases[i].status, cases[i].said);
    }
    support_expect_error("serve --check --ext-bots ext:foo=1:bot", 2, "unknown setting 'foo'");
    support_expect_error("serve --check --max-bot-ms 900 --ext-bots ext:ms=901:bot", 2,
                         "--ext-bots ext:ms=901:bot: the bot's budget ms=901 is over this "
                         "server's cap of 900 ms");
    cr_assert_str_empty(support_processes_left());
}

/* Waits (bounded) for a file to be written: the process id in it. */
static int wait_pid_file(const char *path)
{
    for (int tries = 0; tries < 1000; tries++) {
        FILE *file = fopen(path, "r");
        int pid = 0;
        if (file) {
            if (fscanf(file, "%d", &pid) != 1) pid = 0;
            fclose(file);
        }
        if (pid > 0) return pid;
        usleep(10000);
    }
    cr_assert_fail("%s was not written", path);
    return 0;
}

/* A server's programs leave nothing behind when it stops (SIGTERM): one
 * that ignores SIGTERM and is thinking, the grandchild of another in a
 * session of its own, one that crashed (its table finished on the
 * heuristic). */
Test(server_failures, ext_programs_leave_nothing_behind)
{
    support_process_tag(); /* (in the server's environment, and its programs') */
    char stubborn_pid[256], grandchild_pid[256], setsid_arguments[600], list[1024];
    snprintf(stubborn_pid, sizeof stubborn_pid, "%s", support_temp_path("stubborn"));
    snprintf(grandchild_pid, sizeof grandchild_pid, "%s", support_temp_path("grandchild"));
    snprintf(setsid_arguments, sizeof setsid_arguments, "%s %s", grandchild_pid,
             support_temp_path("g"));
    char stubborn[256], setsid[256], crash[256];
    snprintf(stubborn, sizeof stubborn, "%s", program("ms=2000:", "stubborn", stubborn_pid));
    snprintf(setsid, sizeof setsid, "%s", program("ms=2000:", "setsid", setsid_arguments));
    snprintf(crash, sizeof crash, "%s", program("ms=300:", "crash", NULL));
    snprintf(list, sizeof list, "%s,%s,%s", stubborn, setsid, crash);
    const char *const extra[] = {"--ext-bots", list, NULL};
    served running = served_start_with(support_temp_path("programs.db"), extra);
    /* (the start's check ran them once: their files are the tables' from now on) */
    unlink(stubborn_pid);
    unlink(grandchild_pid);
    const char *specs[] = {crash, setsid, stubborn};
    served_table tables[3];
    for (int t = 0; t < 3; t++) {
        char body[512];
        snprintf(body, sizeof body,
                 "{\"game\":\"mice-cake\",\"seats\":[\"%s\",\"heuristic\"]}", specs[t]);
        tables[t] = create(&running, body);
    }
    json_t *final = wait_over(&running, &tables[0], 30);
    cr_assert_null(json_object_get(final, "ended"), "the heuristic finished it");
    json_decref(final);
    int grandchild = wait_pid_file(grandchild_pid), thinking = wait_pid_file(stubborn_pid);
    served_stop(&running);
    cr_assert_not(support_pid_alive(grandchild), "the setsid grandchild is gone");
    cr_assert_not(support_pid_alive(thinking), "the program that ignores SIGTERM is gone");
    const char *left = support_processes_left();
    cr_assert_str_empty(left, "left behind: %s", left);
}

/* Each misbehaving program at a table of its own: the heuristic finishes
 * its game, the log says what happened, at which table and move, and
 * when the server stops nothing is left. */
Test(server_failures, misbehaving_programs_finish_their_tables)
{
    support_process_tag();
    const char *const names[][2] = {
        {"illegal", "illegal move 'dance a jig'"},
        {"late", "no answer in time"},
        {"garbage", "illegal move"},
        {"flood", "a flood of output"},
        {"closed", "its output closed while it still ran"},
        {"segv", "(killed by signal 11, SIGSEGV)"},
        {"stderr_flood", "its standard error passed 64 KiB"},
    };
    enum { COUNT = sizeof names / sizeof names[0] };
    char specs[COUNT][256], list[4096] = "", log[256];
    for (int i = 0; i < COUNT; i++) {
        bool flood = !strcmp(names[i][0], "stderr_flood");
        snprintf(specs[i], sizeof specs[i], "%s",
                 program("ms=200:", names[i][0], flood ? support_temp_path("g") : NULL));
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? "," : "", specs[i]);
    }
    snprintf(log, sizeof log, "%s", support_temp_path("misbehaving.log"));
    const char *const extra[] = {"--ext-bots", list, NULL};
    served running = served_start_logged(support_temp_path("misbehaving.db"), extra, log);
    served_table tables[COUNT];
    for (int i = 0; i < COUNT; i++) {
        char body[512];
        snprintf(body, sizeof body,
                 "{\"game\":\"mice-cake\",\"seats\":[\"%.255s\",\"heuristic\"]}", specs[i]);
        tables[i] = create(&running, body);
    }
    for (int i = 0; i < COUNT; i++) {
        json_t *final = wait_over(&running, &tables[i], 60);
        cr_assert_null(json_object_get(final, "ended"), "%s: the heuristic finished it",
                       names[i][0]);
        json_decref(final);
    }
    served_stop(&running);
    for (int i = 0; i < COUNT; i++) {
        char line[256];
        snprintf(line, sizeof line, "gateau: table %.*s, move ", (int)sizeof tables[i].id,
                 tables[i].id);
        cr_assert(log_contains(log, line), "%s: the log names the table and the move",
                  names[i][0]);
        cr_assert(log_contains(log, names[i][1]), "%s: the log says '%s'", names[i][0],
                  names[i][1]);
    }
    const char *left = support_processes_left();
    cr_assert_str_empty(left, "left behind: %s", left);
}

/* SIGTERM while an ext: program thinks with a budget of minutes (and
 * ignores SIGTERM): the server stops within seconds, cleanly, and the
 * program is gone. */
Test(server_failures, sigterm_cuts_short_a_thinking_program)
{
    support_process_tag();
    char pid_file[256], spec[256];
    snprintf(pid_file, sizeof pid_file, "%s", support_temp_path("thinking"));
    snprintf(spec, sizeof spec, "%s", program("ms=600000:", "stubborn", pid_file));
    const char *const extra[] = {"--max-bot-ms", "600000", "--ext-bots", spec, NULL};
    served running = served_start_with(support_temp_path("thinking.db"), extra);
    unlink(pid_file); /* (the start's check ran it once) */
    char body[1024];
    snprintf(body, sizeof body, "{\"game\":\"mice-cake\",\"seats\":[\"%s\",\"%s\"]}", spec,
             spec);
    create(&running, body);
    int thinking = wait_pid_file(pid_file);
    usleep(300000); /* (asked for its move by now) */
    kill(running.pid, SIGTERM);
    int status = 0;
    pid_t done = 0;
    for (int waited = 0; waited < 200 && done == 0; waited++) { /* (bounded: 20 s) */
        done = waitpid(running.pid, &status, WNOHANG);
        if (!done) usleep(100000);
    }
    if (!done) kill(running.pid, SIGKILL);
    cr_assert_eq(done, running.pid, "the server stopped in seconds");
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "cleanly (%d)", status);
    cr_assert_not(support_pid_alive(thinking), "the thinking program is gone");
    const char *left = support_processes_left();
    cr_assert_str_empty(left, "left behind: %s", left);
}

/* ---- The store tells the truth ---------------------------------------------------------- */

/* A second server on the same SQLite file is refused at its start, with
 * one line; the first goes on. */
Test(server_failures, a_second_server_on_one_file_is_refused)
{
    const char *db = support_temp_path("one.db");
    served running = served_start_with(db, NULL);
    char arguments[512], *out;
    snprintf(arguments, sizeof arguments, "serve --port 0 --db %s", db);
    cr_assert_eq(support_run(arguments, NULL, &out), 1, "%s", out);
    cr_assert(strstr(out, "is in use by another gateau process"), "%s", out);
    free(out);
    create(&running, "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"human\"]}");
    served_stop(&running);
}

/* The database deleted under a running server: its next write answers
 * 503 "storage unavailable" and the log says why, instead of a 200 for a
 * move that no restart would find. */
Test(server_failures, a_deleted_database_is_noticed)
{
    const char *db = support_temp_path("ghost.db");
    const char *log = support_temp_path("ghost.log");
    served running = served_start_logged(db, served_polling, log);
    cr_assert_eq(unlink(db), 0);
    refused_with(&running, "POST", "/api/tables",
                 "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"human\"]}", 503,
                 "storage unavailable");
    served_stop(&running);
    cr_assert(log_contains(log, "was deleted or replaced while in use"), "the log says why");
}

/* A table whose rows are damaged is skipped at start, with a line naming
 * it; the server starts and serves the others. */
Test(server_failures, a_damaged_table_is_skipped_at_start)
{
    const char *db = support_temp_path("damaged.db");
    const char *log = support_temp_path("damaged.log");
    served running = served_start_with(db, served_polling);
    const char *body = "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"human\"]}";
    served_table damaged = create(&running, body), kept = create(&running, body);
    served_stop(&running);
    char sql[256];
    snprintf(sql, sizeof sql, "DELETE FROM seats WHERE table_id = '%s' AND seat = 1", damaged.id);
    sqlite3 *database;
    cr_assert_eq(sqlite3_open(db, &database), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(database, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(database);
    running = served_start_logged(db, served_polling, log);
    json_t *seen = snapshot(&running, &kept, 1);
    json_decref(seen);
    served_stop(&running);
    char line[128];
    snprintf(line, sizeof line, "skipped table %s: store: table %s: damaged seats", damaged.id,
             damaged.id);
    cr_assert(log_contains(log, line), "the log names the skipped table");
}
