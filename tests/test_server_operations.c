/*
 * test_server_operations.c: what an operator of `gateau serve` relies on
 * (docs/server.md, "Operating it"): /healthz and /metrics, the request
 * log and its reopening on SIGHUP, settings from a file and from the
 * environment, --help and --check, the database's password never shown,
 * IPv6 binds, the port bound before tables are restored, and SIGTERM's
 * drain (every WebSocket closed with 1001, exit status 0).
 *
 * Servers run as child processes of the test, as an operator runs them;
 * each test's waits are bounded, and none asserts a time.
 */
#define _GNU_SOURCE /* strcasestr */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "http_client.h"
#include "postgres_server.h"
#include "served.h"
#include "server/server.h"
#include "support.h"

TestSuite(operations, .init = support_temp_setup, .fini = support_temp_teardown, .timeout = 120);

POSTGRES_SERVER_START_HOOK()
POSTGRES_SERVER_STOP_HOOK()

/* ---- Running servers --------------------------------------------------------------------- */

/* A server started with exactly the arguments given (after `serve`), its
 * standard error in a file; its start line (the URL) read. */
typedef struct started {
    pid_t pid;
    int port;
    char line[512];  /* the start line */
    char errors[256]; /* its standard error's file */
} started;

static started start(const char *const *arguments)
{
    const char *binary = getenv("GATEAU_BINARY");
    cr_assert_not_null(binary, "GATEAU_BINARY is set by ctest");
    static int count;
    started running = {0};
    char name[32];
    snprintf(name, sizeof name, "stderr-%d.txt", count++);
    snprintf(running.errors, sizeof running.errors, "%s", support_temp_path(name));
    int out[2];
    cr_assert_eq(pipe(out), 0);
    running.pid = fork();
    cr_assert_geq(running.pid, 0);
    if (running.pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        dup2(out[1], STDOUT_FILENO);
        close(out[0]);
        if (!freopen(running.errors, "w", stderr)) _exit(126);
        const char *all[40] = {binary, "serve"};
        for (int i = 0; arguments[i] && i < 37; i++) all[i + 2] = arguments[i];
        execv(binary, (char *const *)all);
        _exit(127);
    }
    close(out[1]);
    FILE *lines = fdopen(out[0], "r");
    while (fgets(running.line, sizeof running.line, lines) && !strstr(running.line, "http://")) {
    }
    fclose(lines);
    const char *url = strstr(running.line, "http://");
    if (url) {
        const char *colon = strstr(url, "]:");
        colon = colon ? colon + 1 : strchr(url + strlen("http://"), ':');
        running.port = colon ? atoi(colon + 1) : 0;
    }
    return running;
}

/* The server's standard error so far (malloc'd). */
static char *errors_of(const started *running)
{
    return support_read_file(running->errors);
}

/* Waits (bounded) for the server to exit: its status, or -1 if it is
 * still running after seconds. */
static int exit_within(const started *running, int seconds)
{
    for (int waited = 0; waited < seconds * 20; waited++) {
        int status;
        pid_t done = waitpid(running->pid, &status, WNOHANG);
        if (done == running->pid) return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        usleep(50 * 1000);
    }
    return -1;
}

static void stop(const started *running)
{
    kill(running->pid, SIGTERM);
    int status = exit_within(running, 30);
    if (status < 0) kill(running->pid, SIGKILL);
    cr_assert_eq(status, 0, "the server stops cleanly on SIGTERM (%d)", status);
}

/* A request that must answer expected: its body (malloc'd). */
static char *fetch(int port, const char *method, const char *path, const char *body,
                   const char *token, int expected)
{
    char *answer;
    int status = http_request_as(port, method, path, body, token, "", &answer);
    cr_assert_eq(status, expected, "%s %s: %d %s", method, path, status, answer);
    return answer;
}

/* A table of two people's seats: its id and tokens. */
static served_table two_seats(int port)
{
    char *text = fetch(port, "POST", "/api/tables",
                       "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"human\"]}", NULL, 201);
    json_t *answer = served_parse(text);
    free(text);
    served_table table = served_table_from(answer);
    json_decref(answer);
    return table;
}

/* One whole move of the seat to move (the first legal actions, asked of
 * the server as a client without rules would): the version after it. */
static int move_once(int port, const served_table *table)
{
    char path[512];
    snprintf(path, sizeof path, "/api/tables/%s", table->id);
    for (int seat = 1; seat <= 2; seat++) {
        char *text = fetch(port, "GET", path, NULL, table->tokens[seat - 1], 200);
        json_t *seen = served_parse(text);
        free(text);
        json_t *legal = json_object_get(seen, "legal");
        int version = (int)json_integer_value(json_object_get(seen, "version"));
        if (!json_array_size(legal)) {
            json_decref(seen);
            continue;
        }
        char after[1024] = "";
        json_t *choices = json_incref(legal);
        for (;;) {
            json_t *first = json_array_get(choices, 0);
            size_t used = strlen(after);
            snprintf(after + used, sizeof after - used, "%s%lld", used ? "," : "",
                     (long long)json_integer_value(json_object_get(first, "action")));
            bool complete = json_is_true(json_object_get(first, "complete"));
            json_decref(choices);
            if (complete) break;
            char legal_path[1200];
            snprintf(legal_path, sizeof legal_path, "/api/tables/%s/legal?after=%s", table->id,
                     after);
            text = fetch(port, "GET", legal_path, NULL, table->tokens[seat - 1], 200);
            json_t *next = served_parse(text);
            free(text);
            choices = json_incref(json_object_get(next, "legal"));
            json_decref(next);
        }
        json_decref(seen);
        char body[1200], moves[512];
        snprintf(body, sizeof body, "{\"version\":%d,\"move\":[%s]}", version, after);
        snprintf(moves, sizeof moves, "/api/tables/%s/moves", table->id);
        text = fetch(port, "POST", moves, body, table->tokens[seat - 1], 200);
        json_t *answer = served_parse(text);
        free(text);
        int now = (int)json_integer_value(json_object_get(answer, "version"));
        json_decref(answer);
        return now;
    }
    cr_assert_fail("no seat of table %s is to move", table->id);
    return -1;
}

/* A metric's value in a scrape (the line "name value"); the test fails
 * when it is not there. */
static double metric(const char *scrape, const char *name)
{
    char wanted[256];
    snprintf(wanted, sizeof wanted, "\n%s ", name);
    const char *at = strstr(scrape, wanted);
    cr_assert_not_null(at, "%s is in the scrape:\n%s", name, scrape);
    return strtod(at + strlen(wanted), NULL);
}

/* ---- /healthz and /metrics ------------------------------------------------------------ */

Test(operations, health_and_metrics_on_sqlite)
{
    started running = start((const char *const[]){"--port", "0", "--db",
                                                 support_temp_path("metrics.db"), "--quiet",
                                                 "--bot-threads", "1", NULL});
    cr_assert_gt(running.port, 0, "%s", running.line);
    char *health = fetch(running.port, "GET", "/healthz", NULL, NULL, 200);
    cr_assert_str_eq(health, "{\"ok\":true}");
    free(health);
    /* Its head: Prometheus' text format, version 0.0.4. */
    static const char scrape_head[] = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                      "Connection: close\r\n\r\n";
    char *raw = http_raw(running.port, scrape_head, strlen(scrape_head));
    cr_assert_not_null(raw);
    cr_assert(strcasestr(raw, "Content-Type: text/plain; version=0.0.4"), "%s", raw);
    free(raw);
    char *before = fetch(running.port, "GET", "/metrics", NULL, NULL, 200);
    cr_assert_eq(metric(before, "gateau_moves_accepted_total"), 0);
    cr_assert_eq(metric(before, "gateau_tables_in_play"), 0);
    cr_assert_eq(metric(before, "gateau_websockets_open"), 0);
    free(before);

    served_table table = two_seats(running.port);
    char path[256];
    snprintf(path, sizeof path, "/api/tables/%s/ws", table.id);
    ws_client socket;
    cr_assert(ws_open_as(&socket, running.port, path, NULL, NULL));
    free(ws_read(&socket, 10000)); /* its first snapshot: subscribed */
    move_once(running.port, &table);
    move_once(running.port, &table);
    fetch(running.port, "GET", "/api/tables/nosuchtable", NULL, NULL, 404);

    char *scrape = fetch(running.port, "GET", "/metrics", NULL, NULL, 200);
    /* Every metric has its HELP and TYPE; counters end in _total. */
    static const char *const kinds[][2] = {
        {"gateau_connections_open", "gauge"},      {"gateau_websockets_open", "gauge"},
        {"gateau_tables_in_memory", "gauge"},      {"gateau_tables_in_play", "gauge"},
        {"gateau_moves_accepted_total", "counter"}, {"gateau_move_latency_seconds", "histogram"},
        {"gateau_store_errors_total", "counter"},  {"gateau_bot_queue_length", "gauge"},
        {"gateau_requests_total", "counter"},      {"gateau_moves_stored_total", "counter"}};
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        char lines[256];
        snprintf(lines, sizeof lines, "# TYPE %s %s\n", kinds[k][0], kinds[k][1]);
        cr_assert(strstr(scrape, lines), "%s", lines);
        snprintf(lines, sizeof lines, "# HELP %s ", kinds[k][0]);
        cr_assert(strstr(scrape, lines), "%s", lines);
    }
    cr_assert_eq(metric(scrape, "gateau_moves_accepted_total"), 2);
    cr_assert_eq(metric(scrape, "gateau_moves_stored_total{by=\"person\"}"), 2);
    cr_assert_geq(metric(scrape, "gateau_moves_stored_total{by=\"chance\"}"), 1, "the deal");
    cr_assert_eq(metric(scrape, "gateau_moves_stored_total{by=\"bot\"}"), 0);
    cr_assert_eq(metric(scrape, "gateau_moves_stored_total{by=\"clock\"}"), 0);
    cr_assert_eq(metric(scrape, "gateau_move_latency_seconds_count"), 2);
    cr_assert_eq(metric(scrape, "gateau_move_latency_seconds_bucket{le=\"+Inf\"}"), 2);
    cr_assert_gt(metric(scrape, "gateau_move_latency_seconds_sum"), 0);
    cr_assert_eq(metric(scrape, "gateau_tables_in_play"), 1);
    cr_assert_eq(metric(scrape, "gateau_tables_in_memory"), 1);
    cr_assert_eq(metric(scrape, "gateau_websockets_open"), 1);
    cr_assert_geq(metric(scrape, "gateau_connections_open"), 2); /* the socket, the scrape */
    cr_assert_eq(metric(scrape, "gateau_store_errors_total"), 0, "a table not found is no error");
    cr_assert_eq(metric(scrape, "gateau_bot_queue_length"), 0);
    cr_assert_eq(metric(scrape, "gateau_requests_total{class=\"1xx\"}"), 1, "the upgrade");
    cr_assert_eq(metric(scrape, "gateau_requests_total{class=\"4xx\"}"), 1, "the 404");
    cr_assert_geq(metric(scrape, "gateau_requests_total{class=\"2xx\"}"), 8);
    free(scrape);
    ws_close(&socket);
    /* POST is refused; HEAD answers without a body. */
    free(fetch(running.port, "POST", "/healthz", "{}", NULL, 405));
    stop(&running);
}

/* The version a table reached once over (bounded wait). */
static int final_version(int port, const char *table_id)
{
    char path[128];
    snprintf(path, sizeof path, "/api/tables/%s", table_id);
    for (int tries = 0; tries < 1200; tries++) { /* (bounded: 60 s) */
        char *text = fetch(port, "GET", path, NULL, NULL, 200);
        json_t *seen = served_parse(text);
        free(text);
        bool over = json_is_true(json_object_get(seen, "over"));
        int version = (int)json_integer_value(json_object_get(seen, "version"));
        json_decref(seen);
        if (over) return version;
        usleep(50000);
    }
    cr_assert_fail("table %s did not finish", table_id);
    return -1;
}

/* Moves nobody posted are counted too: a game of bots (and its chance
 * moves), and one of people whose clocks ran out (the stand-in's moves):
 * every move stored is counted once, by who made it. */
Test(operations, bot_clock_and_chance_moves_are_counted)
{
    started running = start((const char *const[]){"--port", "0", "--db",
                                                 support_temp_path("counted.db"), "--quiet",
                                                 "--bot-threads", "1", NULL});
    cr_assert_gt(running.port, 0, "%s", running.line);
    const char *bodies[] = {"{\"game\":\"mice-cake\",\"seats\":[\"heuristic\",\"random\"]}",
                            "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"human\"],"
                            "\"clock\":\"1s\"}"};
    int versions = 0;
    char ids[2][32];
    for (int t = 0; t < 2; t++) {
        char *text = fetch(running.port, "POST", "/api/tables", bodies[t], NULL, 201);
        json_t *made = served_parse(text);
        free(text);
        snprintf(ids[t], sizeof ids[t], "%s", json_string_value(json_object_get(made, "id")));
        json_decref(made);
    }
    for (int t = 0; t < 2; t++) versions += final_version(running.port, ids[t]);
    char *scrape = fetch(running.port, "GET", "/metrics", NULL, NULL, 200);
    double bot = metric(scrape, "gateau_moves_stored_total{by=\"bot\"}"),
           clock = metric(scrape, "gateau_moves_stored_total{by=\"clock\"}"),
           chance = metric(scrape, "gateau_moves_stored_total{by=\"chance\"}"),
           person = metric(scrape, "gateau_moves_stored_total{by=\"person\"}");
    cr_assert_gt(bot, 0, "%s", scrape);
    cr_assert_gt(clock, 0, "%s", scrape);
    cr_assert_geq(chance, 2, "two deals at least: %s", scrape);
    cr_assert_eq(person, 0, "%s", scrape);
    cr_assert_eq(bot + clock + chance, versions, "every move once: %s", scrape);
    cr_assert_eq(metric(scrape, "gateau_moves_accepted_total"), 0, "no client posted");
    free(scrape);
    stop(&running);
}

/* A SQLite file deleted under the running server: the open file still
 * reads, but the health probe says 503 (the path in the log only). */
Test(operations, health_on_sqlite_notices_a_deleted_file)
{
    const char *db = support_temp_path("deleted.db");
    started running = start((const char *const[]){"--port", "0", "--db", db, "--quiet",
                                                  "--bot-threads", "1", NULL});
    free(fetch(running.port, "GET", "/healthz", NULL, NULL, 200));
    cr_assert_eq(unlink(db), 0);
    char *answer = fetch(running.port, "GET", "/healthz", NULL, NULL, 503);
    cr_assert_str_eq(answer, "{\"ok\":false,\"error\":\"the database is unreachable\"}");
    free(answer);
    char *errors = errors_of(&running);
    cr_assert(strstr(errors, "was deleted or replaced while in use"), "%s", errors);
    free(errors);
    stop(&running);
}

/* The server's threads by name, each with its nice value (field 19 of
 * /proc/PID/task/TID/stat): how many of name, and whether all had nice.
 * (The server is idle: its threads are its fixed pools, none goes.) */
static int threads_named(pid_t pid, const char *name, int nice, bool *all_nice)
{
    char path[128];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *tasks = opendir(path);
    cr_assert_not_null(tasks, "%s", path);
    int count = 0;
    *all_nice = true;
    struct dirent *entry;
    while ((entry = readdir(tasks)) != NULL) {
        if (entry->d_name[0] == '.') continue;
        char file[512];
        snprintf(file, sizeof file, "%s/%s/comm", path, entry->d_name);
        char *comm = support_read_file(file);
        bool named = strlen(comm) == strlen(name) + 1 && !strncmp(comm, name, strlen(name));
        free(comm); /* (comm ends with a newline) */
        if (!named) continue;
        snprintf(file, sizeof file, "%s/%s/stat", path, entry->d_name);
        char *stat = support_read_file(file);
        /* After the name's closing parenthesis: field 3 on; nice is 19. */
        char *at = strrchr(stat, ')');
        cr_assert_not_null(at, "%s: %s", file, stat);
        int field = 2, value = 0;
        for (char *token = strtok(at + 1, " "); token; token = strtok(NULL, " "))
            if (++field == 19) value = atoi(token);
        free(stat);
        count++;
        if (value != nice) *all_nice = false;
    }
    closedir(tasks);
    return count;
}

/* The loop runs before the threads that work for it: they are named, and
 * nicer by SERVER_HELPER_NICENESS (server_thread_below_loop), relative to
 * the nice the server was started at. */
Test(operations, the_loop_comes_before_the_threads_that_work_for_it)
{
    const char *db = support_temp_path("threads.db");
    started running = start((const char *const[]){"--port", "0", "--db", db, "--quiet",
                                                  "--bot-threads", "2", NULL});
    free(fetch(running.port, "GET", "/healthz", NULL, NULL, 200));
    errno = 0;
    int base = getpriority(PRIO_PROCESS, (id_t)running.pid);
    cr_assert_eq(errno, 0);
    bool all;
    cr_assert_eq(threads_named(running.pid, "gateau-loop", base, &all), 1, "one loop thread");
    cr_assert(all, "the loop runs at the server's own nice (%d)", base);
    static const char *const helpers[] = {"gateau-request", "gateau-bot", "gateau-review"};
    static const int at_least[] = {16, 2, 1};
    for (int h = 0; h < 3; h++) {
        int nicer = base + SERVER_HELPER_NICENESS > 19 ? 19 : base + SERVER_HELPER_NICENESS;
        /* (a thread names itself as it starts, which may come after the
         * first answer: waited for, 5 s at most) */
        int count = threads_named(running.pid, helpers[h], nicer, &all);
        for (int tries = 0; count < at_least[h] && tries < 250; tries++) {
            usleep(20000);
            count = threads_named(running.pid, helpers[h], nicer, &all);
        }
        cr_assert_geq(count, at_least[h], "%d threads named %s", count, helpers[h]);
        cr_assert(all, "every %s thread runs %d nicer than the loop", helpers[h],
                  SERVER_HELPER_NICENESS);
    }
    stop(&running);
}

/* Runs one SQL command as the tests' PostgreSQL superuser on database. */
static void run_sql(const char *database, const char *sql)
{
    const char *folder = getenv("GATEAU_TEST_POSTGRES_FOLDER");
    cr_assert_not_null(folder);
    char command[4096];
    snprintf(command, sizeof command,
             "psql 'postgresql:///%s?host=%s&user=gateau' -qAt -c \"%s\" "
             ">/dev/null 2>&1 || { p=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1);"
             " \"$p/psql\" 'postgresql:///%s?host=%s&user=gateau' -qAt -c \"%s\""
             " >/dev/null; }",
             database, folder, sql, database, folder, sql);
    cr_assert_eq(system(command), 0, "%s", command);
}

/* The store's trivial query fails when PostgreSQL drops the server's
 * connection: 503 with no host, no socket, no password; the next probe
 * reconnects and answers 200. */
Test(operations, health_on_postgresql_says_unreachable_without_the_address)
{
    const char *url = postgres_server_database("operations_health");
    started running = start((const char *const[]){"--port", "0", "--db", url, "--quiet",
                                                 "--bot-threads", "1", NULL});
    cr_assert_gt(running.port, 0, "%s", running.line);
    free(fetch(running.port, "GET", "/healthz", NULL, NULL, 200));
    /* Every other connection to this database is cut, the server's too. */
    const char *folder = getenv("GATEAU_TEST_POSTGRES_FOLDER");
    cr_assert_not_null(folder);
    static const char cut[] = "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                              "datname = 'operations_health' AND pid <> pg_backend_pid()";
    run_sql("operations_health", cut);
    /* (pg_terminate_backend only signals: the backend may answer one more
     * probe before it goes.) */
    char *answer = NULL;
    int status = 0;
    for (int probe = 0; probe < 100 && status != 503; probe++) {
        if (probe) usleep(20 * 1000);
        free(answer);
        status = http_request(running.port, "GET", "/healthz", NULL, "", &answer);
        cr_assert(status == 200 || status == 503, "%d %s", status, answer);
    }
    cr_assert_eq(status, 503, "%d %s", status, answer);
    cr_assert_str_eq(answer, "{\"ok\":false,\"error\":\"the database is unreachable\"}");
    cr_assert_null(strstr(answer, folder));
    free(answer);
    /* The reason went to the log instead. */
    char *errors = errors_of(&running);
    cr_assert(strstr(errors, "/healthz: store: the database does not answer"), "%s", errors);
    free(errors);
    free(fetch(running.port, "GET", "/healthz", NULL, NULL, 200));
    char *scrape = fetch(running.port, "GET", "/metrics", NULL, NULL, 200);
    cr_assert_geq(metric(scrape, "gateau_store_errors_total"), 1);
    free(scrape);

    /* Connections refused: libpq's own message names the server's socket
     * (or host and port), which the log line hides; the line has the
     * request log's shape. */
    run_sql("postgres", "ALTER DATABASE operations_health ALLOW_CONNECTIONS false");
    run_sql("postgres", cut);
    /* (the first probe finds the connection cut, the next ones fail to
     * open it again) */
    const char *unreachable = NULL;
    errors = NULL;
    for (int probe = 0; probe < 100 && !unreachable; probe++) {
        if (probe) usleep(20 * 1000);
        status = http_request(running.port, "GET", "/healthz", NULL, "", &answer);
        cr_assert(status == 503 || (status == 200 && probe == 0), "%d %s", status, answer);
        free(answer);
        free(errors);
        errors = errors_of(&running);
        unreachable = strstr(errors, "the database is unreachable: connection to server");
    }
    cr_assert_not_null(unreachable, "%s", errors);
    cr_assert(strstr(unreachable, "on socket *** failed"), "%s", errors);
    cr_assert_null(strstr(errors, folder), "the socket's folder is not in the log: %s", errors);
    cr_assert_null(strstr(errors, ".s.PGSQL"), "%s", errors);
    regex_t shape;
    cr_assert_eq(regcomp(&shape, "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z - "
                                 "gateau serve: /healthz: store: ", REG_EXTENDED | REG_NEWLINE), 0);
    cr_assert_eq(regexec(&shape, errors, 0, NULL, 0), 0, "a line of the log's shape: %s", errors);
    regfree(&shape);
    free(errors);
    run_sql("postgres", "ALTER DATABASE operations_health ALLOW_CONNECTIONS true");
    for (int probe = 0; probe < 100 && status != 200; probe++) {
        if (probe) usleep(20 * 1000);
        status = http_request(running.port, "GET", "/healthz", NULL, "", &answer);
        free(answer);
    }
    cr_assert_eq(status, 200, "back once PostgreSQL takes connections again");
    stop(&running);
}

/* Before its tables are restored, the server answers 503 but for the
 * operators' routes (in this process: no server was started, so it is
 * not ready). */
Test(operations, requests_wait_for_the_restore_but_health_and_metrics_answer)
{
    static const struct {
        const char *method, *path;
        int status;
        const char *says;
    } cases[] = {{"GET", "/api/games", 503, "the server is starting"},
                 {"POST", "/api/tables", 503, "the server is starting"},
                 {"GET", "/", 503, "the server is starting"},
                 {"GET", "/healthz", 503, "starting: restoring tables"},
                 {"HEAD", "/healthz", 503, "starting: restoring tables"},
                 {"POST", "/healthz", 405, "POST is for /api/ routes"},
                 {"GET", "/metrics", 200, "# TYPE gateau_requests_total counter"}};
    cr_assert_not(server_ready());
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        http_exchange *exchange = calloc(1, sizeof *exchange);
        snprintf(exchange->method, sizeof exchange->method, "%s", cases[c].method);
        snprintf(exchange->path, sizeof exchange->path, "%s", cases[c].path);
        http_answer(exchange);
        cr_assert_eq(exchange->status, cases[c].status, "%s %s: %d %s", cases[c].method,
                     cases[c].path, exchange->status, exchange->answer);
        cr_assert(strstr(exchange->answer, cases[c].says), "%s %s: %s", cases[c].method,
                  cases[c].path, exchange->answer);
        if (cases[c].status == 503 && strcmp(cases[c].path, "/healthz"))
            cr_assert(strstr(exchange->headers, "Retry-After: 1"), "%s", exchange->headers);
        exchange_free(exchange);
    }
}

/* ---- The request log ------------------------------------------------------------------- */

/* The lines of a log that match the request log's form; the test fails
 * at a line that does not. */
static int log_lines(const char *log, const char *client, const char *path, int status)
{
    regex_t form;
    cr_assert_eq(regcomp(&form,
                         "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z "
                         "[^ ]+ (GET|HEAD|POST|OPTIONS|[A-Z?]+) [^ ]+ [0-9]{3} [0-9]+\\.[0-9]ms$",
                         REG_EXTENDED | REG_NOSUB),
                 0);
    char *copy = strdup(log), *saved, wanted[512];
    snprintf(wanted, sizeof wanted, "Z %s GET %s %d ", client, path, status);
    int found = 0;
    for (char *line = strtok_r(copy, "\n", &saved); line; line = strtok_r(NULL, "\n", &saved)) {
        cr_assert_eq(regexec(&form, line, 0, NULL, 0), 0, "a line of the request log: '%s'", line);
        found += strstr(line, wanted) != NULL;
    }
    free(copy);
    regfree(&form);
    return found;
}

/* The log's text once it holds times lines for client, path and status: the
 * server writes a request's line when the answer is sent, so a client that
 * has read its answer may be ahead of the line (a busy host).  Whole lines
 * only; up to 5 s (malloc'd). */
static char *logged_times(const char *log, const char *client, const char *path, int status,
                          int times)
{
    for (int tries = 0;; tries++) {
        char *text = support_file_exists(log) ? support_read_file(log) : strdup("");
        char *end = strrchr(text, '\n');
        if (end) end[1] = '\0';
        else text[0] = '\0';
        if (log_lines(text, client, path, status) >= times || tries == 100) return text;
        free(text);
        usleep(50 * 1000);
    }
}

static char *logged(const char *log, const char *client, const char *path, int status)
{
    return logged_times(log, client, path, status, 1);
}

Test(operations, request_log_lines_and_sighup)
{
    const char *log = support_temp_path("requests.log");
    started running = start((const char *const[]){"--port", "0", "--db",
                                                 support_temp_path("log.db"), "--log", log,
                                                 "--trusted-proxy", "127.0.0.1", "--bot-threads",
                                                 "1", NULL});
    cr_assert_gt(running.port, 0, "%s", running.line);
    /* From a trusted proxy: the client its X-Forwarded-For names; never
     * the query, never the token. */
    char *answer;
    cr_assert_eq(http_request_as(running.port, "GET", "/api/tables/nosuch?log_from=3",
                                 NULL, "SECRETTOKEN0123456789", "X-Forwarded-For: 198.51.100.7, 203.0.113.9\r\n",
                                 &answer),
                 404);
    free(answer);
    free(fetch(running.port, "GET", "/api/games", NULL, NULL, 200));
    /* A decoded space stays inside its field. */
    cr_assert_eq(http_request(running.port, "GET", "/no%20such", NULL, "", &answer), 404);
    free(answer);
    /* What is not an address names no client: the proxy is the client. */
    static const char *const not_addresses[] = {"garbage<script>", "1.2.3.4 5.6.7.8",
                                                "\"x\" - GET /admin 200"};
    for (size_t i = 0; i < 3; i++) {
        char header_line[128];
        snprintf(header_line, sizeof header_line, "X-Forwarded-For: 10.0.0.1, %s\r\n",
                 not_addresses[i]);
        cr_assert_eq(http_request(running.port, "GET", "/api/tables/notanaddress", NULL,
                                  header_line, &answer),
                     404);
        free(answer);
    }
    free(logged(log, "127.0.0.1", "/no%20such", 404));
    char *text = logged_times(log, "127.0.0.1", "/api/tables/notanaddress", 404, 3);
    cr_assert_eq(log_lines(text, "127.0.0.1", "/api/tables/notanaddress", 404), 3, "%s", text);
    cr_assert_null(strstr(text, "garbage"), "%s", text);
    cr_assert_null(strstr(text, "5.6.7.8"), "%s", text);
    cr_assert_null(strstr(text, "10.0.0.1"), "%s", text);
    cr_assert_eq(log_lines(text, "203.0.113.9", "/api/tables/nosuch", 404), 1, "%s", text);
    cr_assert_eq(log_lines(text, "127.0.0.1", "/no%20such", 404), 1, "%s", text);
    cr_assert_eq(log_lines(text, "127.0.0.1", "/api/games", 200), 1, "%s", text);
    cr_assert_null(strstr(text, "SECRETTOKEN"));
    cr_assert_null(strstr(text, "log_from"));
    free(text);
    /* logrotate moves the file, then SIGHUP: the next lines go to a new
     * file of the same name. */
    char moved[512];
    snprintf(moved, sizeof moved, "%s.1", log);
    cr_assert_eq(rename(log, moved), 0);
    kill(running.pid, SIGHUP);
    bool reopened = false;
    for (int tries = 0; tries < 100 && !reopened; tries++) {
        free(fetch(running.port, "GET", "/healthz", NULL, NULL, 200));
        reopened = support_file_exists(log);
        if (!reopened) usleep(50 * 1000);
    }
    cr_assert(reopened, "SIGHUP opens the log again by its name");
    free(fetch(running.port, "GET", "/api/games", NULL, NULL, 200));
    text = logged(log, "127.0.0.1", "/api/games", 200);
    cr_assert_geq(log_lines(text, "127.0.0.1", "/api/games", 200), 1, "%s", text);
    free(text);
    stop(&running);
}

Test(operations, forwarded_for_only_from_trusted_proxies_and_quiet_is_quiet)
{
    const char *log = support_temp_path("untrusted.log");
    started running = start((const char *const[]){"--port", "0", "--db",
                                                 support_temp_path("untrusted.db"), "--log", log,
                                                 "--bot-threads", "1", NULL});
    char *answer;
    cr_assert_eq(http_request(running.port, "GET", "/api/games", NULL,
                              "X-Forwarded-For: 203.0.113.9\r\n", &answer),
                 200);
    free(answer);
    char *text = logged(log, "127.0.0.1", "/api/games", 200);
    cr_assert_eq(log_lines(text, "127.0.0.1", "/api/games", 200), 1, "%s", text);
    cr_assert_null(strstr(text, "203.0.113.9"));
    free(text);
    stop(&running);
    /* --quiet: no line at all, even with --log. */
    const char *quiet_log = support_temp_path("quiet.log");
    started quiet = start((const char *const[]){"--port", "0", "--db",
                                                support_temp_path("untrusted.db"), "--log",
                                                quiet_log, "--quiet", "--bot-threads", "1", NULL});
    free(fetch(quiet.port, "GET", "/api/games", NULL, NULL, 200));
    stop(&quiet);
    text = support_read_file(quiet_log);
    cr_assert_str_eq(text, "");
    free(text);
    char *errors = errors_of(&quiet);
    cr_assert_str_eq(errors, "");
    free(errors);
}

/* ---- Settings ------------------------------------------------------------------------- */

/* `gateau serve ARGUMENTS` run to its end: its status, its output and
 * errors together in *out. */
static int serve(const char *arguments, char **out)
{
    char command[2048];
    snprintf(command, sizeof command, "serve %s", arguments);
    return support_run(command, NULL, out);
}

/* The value --check printed for name. */
static void expect_setting(const char *out, const char *name, const char *value)
{
    char line[512];
    snprintf(line, sizeof line, "\n%s = %s\n", name, value);
    char *text;
    cr_assert(asprintf(&text, "\n%s", out) > 0);
    cr_assert(strstr(text, line), "'%s = %s' in:\n%s", name, value, out);
    free(text);
}

Test(operations, settings_from_flags_over_environment_over_file)
{
    const char *file = support_temp_path("gateau.conf");
    support_write_file(file, "# a comment\n\n  port = 1111\naddress-requests=7\n"
                             "db = postgresql://cake:hunter2@db.example.org/gateau\n"
                             "quiet = yes\nbind = ::1\n");
    char arguments[1024], *out;
    snprintf(arguments, sizeof arguments, "--config %s --check", file);
    cr_assert_eq(serve(arguments, &out), 0, "%s", out);
    expect_setting(out, "port", "1111");
    expect_setting(out, "address-requests", "7");
    expect_setting(out, "quiet", "true");
    expect_setting(out, "bind", "::1");
    expect_setting(out, "db", "postgresql://cake:***@db.example.org/gateau");
    cr_assert_null(strstr(out, "hunter2"), "the password is never printed: %s", out);
    free(out);
    /* The environment over the file. */
    setenv("GATEAU_PORT", "2222", 1);
    setenv("GATEAU_ADDRESS_REQUESTS", "8", 1);
    cr_assert_eq(serve(arguments, &out), 0, "%s", out);
    expect_setting(out, "port", "2222");
    expect_setting(out, "address-requests", "8");
    free(out);
    /* Flags over the environment. */
    snprintf(arguments, sizeof arguments, "--config %s --port 3333 --check", file);
    cr_assert_eq(serve(arguments, &out), 0, "%s", out);
    expect_setting(out, "port", "3333");
    expect_setting(out, "address-requests", "8");
    free(out);
    /* GATEAU_CONFIG names the file when --config does not. */
    unsetenv("GATEAU_PORT");
    setenv("GATEAU_CONFIG", file, 1);
    cr_assert_eq(serve("--check", &out), 0, "%s", out);
    expect_setting(out, "port", "1111");
    free(out);
    unsetenv("GATEAU_CONFIG");
    /* A bad value in the environment: one line naming the variable. */
    setenv("GATEAU_PORT", "eighty", 1);
    support_expect_error("serve --check", 2, "GATEAU_PORT needs a whole number");
    unsetenv("GATEAU_PORT");
}

Test(operations, a_bad_config_line_is_named_by_file_and_line)
{
    const char *file = support_temp_path("bad.conf");
    char arguments[1024], where[600];
    snprintf(arguments, sizeof arguments, "serve --config %s --check", file);
    support_write_file(file, "port = 8080\n# fine\nportt = 9\n");
    snprintf(where, sizeof where, "%s:3: unknown setting 'portt'", file);
    support_expect_error(arguments, 2, where);
    support_write_file(file, "port = 8080\njust words\n");
    snprintf(where, sizeof where, "%s:2: not 'name = value'", file);
    support_expect_error(arguments, 2, where);
    support_write_file(file, "port = 99999\n");
    snprintf(where, sizeof where, "%s:1: port needs a whole number from 0 to 65535", file);
    support_expect_error(arguments, 2, where);
    support_write_file(file, "quiet = perhaps\n");
    snprintf(where, sizeof where, "%s:1: quiet is true or false", file);
    support_expect_error(arguments, 2, where);
    support_write_file(file, "bind = example.org\n");
    support_expect_error(arguments, 2, "--bind 'example.org' is not an IP address");
    snprintf(arguments, sizeof arguments, "serve --config %s --check",
             support_temp_path("missing.conf"));
    support_expect_error(arguments, 2, "cannot read it");
}

Test(operations, help_lists_every_flag_with_its_default)
{
    char *out;
    cr_assert_eq(serve("--help", &out), 0, "%s", out);
    static const char *const flags[] = {
        "--bind ADDRESS", "--port P", "--db FILE|URL", "--web DIR", "--bot-threads N",
        "--origin", "--host", "--trusted-proxy", "--connections N", "--address-connections N",
        "--address-websockets N", "--address-requests N", "--address-tables N",
        "--spectators N", "--websocket-ping S", "--keep-alive S", "--ext-bots SPEC",
        "--max-bot-ms MS", "--max-bot-iters N",
        "--log FILE", "--quiet", "--config FILE", "--check", "--help"};
    for (size_t f = 0; f < sizeof flags / sizeof *flags; f++)
        cr_assert(strstr(out, flags[f]), "%s in:\n%s", flags[f], out);
    cr_assert(strstr(out, "(default: 8080)"), "%s", out);
    cr_assert(strstr(out, "(default: 127.0.0.1)"), "%s", out);
    cr_assert(strstr(out, "PGPASSWORD"), "%s", out);
    free(out);
    support_expect_error("serve --bogus", 2, "unknown option '--bogus'");
}

/* ---- The password, the bind, the start ------------------------------------------------- */

Test(operations, the_database_password_is_never_printed)
{
    /* Nothing listens on port 1: the store cannot open, and says so. */
    static const char *const urls[] = {
        "postgresql://cake:hunter2@127.0.0.1:1/gateau?connect_timeout=2",
        "postgresql://cake@127.0.0.1:1/gateau?password=hunter2&connect_timeout=2"};
    for (size_t u = 0; u < 2; u++) {
        char arguments[512], *out;
        snprintf(arguments, sizeof arguments, "--port 0 --db '%s'", urls[u]);
        cr_assert_eq(serve(arguments, &out), 1, "%s", out);
        cr_assert(strstr(out, "cannot open postgresql://cake"), "%s", out);
        cr_assert(strstr(out, "***"), "%s", out);
        cr_assert_null(strstr(out, "hunter2"), "%s", out);
        free(out);
    }
    /* libpq's key=value form is refused, from any source, and never shown
     * nor made a file named after it (password and all). */
    static const char conninfo[] = "host=127.0.0.1 port=1 user=cake password=hunter2";
    const char *config = support_temp_path("conninfo.conf");
    char text[256];
    snprintf(text, sizeof text, "db = %s\n", conninfo);
    support_write_file(config, text);
    const char *commands[][2] = {
        /* (positional: every format names its arguments by number) */
        {"serve --port 0 --db '%1$s'%2$.0s", "--db: a libpq 'key=value' connection string is not taken"},
        {"serve --check --db '%1$s'%2$.0s", "--db: a libpq 'key=value' connection string is not taken"},
        {"serve --check --config %2$s%1$.0s", "conninfo.conf:1: db: a libpq 'key=value'"},
        {"tables list --db '%1$s'%2$.0s", "tables list: --db: a libpq 'key=value'"},
        {"tables backup %2$s.copy --db '%1$s'", "tables backup: --db: a libpq 'key=value'"},
    };
    for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
        char command[1024], *out;
        snprintf(command, sizeof command, commands[c][0], conninfo, config);
        int status = support_run(command, NULL, &out);
        cr_assert(status == 1 || status == 2, "%s: %d\n%s", command, status, out);
        cr_assert(strstr(out, commands[c][1]), "%s:\n%s", command, out);
        cr_assert_null(strstr(out, "hunter2"), "%s:\n%s", command, out);
        free(out);
    }
    cr_assert_neq(access(conninfo, F_OK), 0, "no file is named after the string");
}

/* Whether this machine can listen on ::1 (some containers have no IPv6). */
static bool loopback_six(void)
{
    int fd = socket(AF_INET6, SOCK_STREAM, 0);
    struct sockaddr_in6 address = {.sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT};
    bool bound = fd >= 0 && bind(fd, (struct sockaddr *)&address, sizeof address) == 0;
    if (fd >= 0) close(fd);
    return bound;
}

/* GET /healthz over IPv6's loopback: the answer's text. */
static char *health_on_six(int port)
{
    int fd = socket(AF_INET6, SOCK_STREAM, 0);
    struct sockaddr_in6 address = {.sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT,
                                   .sin6_port = htons((uint16_t)port)};
    cr_assert_eq(connect(fd, (struct sockaddr *)&address, sizeof address), 0, "%s",
                 strerror(errno));
    const char request[] = "GET /healthz HTTP/1.1\r\nHost: [::1]\r\nConnection: close\r\n\r\n";
    cr_assert_eq(write(fd, request, strlen(request)), (ssize_t)strlen(request));
    char *answer = calloc(1, 2048);
    size_t used = 0;
    struct pollfd wait_for = {fd, POLLIN, 0};
    while (used < 2047 && poll(&wait_for, 1, 10000) == 1) {
        ssize_t got = read(fd, answer + used, 2047 - used);
        if (got <= 0) break;
        used += (size_t)got;
    }
    close(fd);
    return answer;
}

Test(operations, an_ipv6_bind_answers_on_it)
{
    if (!loopback_six()) cr_skip_test("::1 cannot be bound on this machine");
    static const char *const binds[] = {"::1", "::"};
    for (int b = 0; b < 2; b++) {
        started running = start((const char *const[]){"--bind", binds[b], "--port", "0", "--db",
                                                      support_temp_path("six.db"), "--quiet",
                                                      "--bot-threads", "1", NULL});
        char url[64];
        snprintf(url, sizeof url, "http://[%s]:", binds[b]);
        cr_assert(strstr(running.line, url), "the URL's address in brackets: %s", running.line);
        cr_assert_gt(running.port, 0);
        char *answer = health_on_six(running.port);
        cr_assert(!strncmp(answer, "HTTP/1.1 200", 12), "%s", answer);
        cr_assert(strstr(answer, "{\"ok\":true}"), "%s", answer);
        free(answer);
        if (b == 0) { /* ::1 only: not on IPv4's loopback */
            char *refused;
            cr_assert_eq(http_request(running.port, "GET", "/healthz", NULL, "", &refused), -1);
            free(refused);
        }
        stop(&running);
    }
}

/* A second server on a port in use fails before it restores any table:
 * a restart script learns at once. */
Test(operations, the_port_is_bound_before_tables_are_restored)
{
    const char *tables_db = support_temp_path("tables.db");
    started first = start((const char *const[]){"--port", "0", "--db", tables_db, "--quiet",
                                                "--bot-threads", "1", NULL});
    two_seats(first.port);
    stop(&first);
    started holder = start((const char *const[]){"--port", "0", "--db",
                                                 support_temp_path("holder.db"), "--quiet",
                                                 "--bot-threads", "1", NULL});
    char arguments[1024], *out;
    snprintf(arguments, sizeof arguments, "--port %d --db %s --quiet", holder.port, tables_db);
    cr_assert_eq(serve(arguments, &out), 1, "%s", out);
    cr_assert(strstr(out, "Address already in use"), "%s", out);
    cr_assert_null(strstr(out, "Restored"), "nothing restored before the bind: %s", out);
    free(out);
    stop(&holder);
    /* On a free port, the same database restores its table. */
    started again = start((const char *const[]){"--port", "0", "--db", tables_db, "--quiet",
                                                "--bot-threads", "1", NULL});
    char *scrape = fetch(again.port, "GET", "/metrics", NULL, NULL, 200);
    cr_assert_eq(metric(scrape, "gateau_tables_in_play"), 1);
    free(scrape);
    stop(&again);
}

/* ---- SIGTERM drains ------------------------------------------------------------------- */

Test(operations, sigterm_closes_every_websocket_with_1001_and_exits_0)
{
    started running = start((const char *const[]){"--port", "0", "--db",
                                                 support_temp_path("drain.db"), "--quiet",
                                                 "--bot-threads", "1", NULL});
    served_table table = two_seats(running.port);
    char path[256];
    snprintf(path, sizeof path, "/api/tables/%s/ws", table.id);
    enum { SOCKETS = 3 };
    ws_client sockets[SOCKETS];
    const char *tokens[SOCKETS] = {table.tokens[0], table.tokens[1], NULL};
    for (int s = 0; s < SOCKETS; s++) {
        cr_assert(ws_open_as(&sockets[s], running.port, path, NULL, tokens[s]));
        char *first = ws_read(&sockets[s], 10000);
        cr_assert_not_null(first, "socket %d subscribed", s);
        free(first);
    }
    move_once(running.port, &table);
    kill(running.pid, SIGTERM);
    for (int s = 0; s < SOCKETS; s++) {
        char *message;
        while ((message = ws_read(&sockets[s], 10000)) != NULL) free(message); /* the move's push */
        cr_assert_eq(sockets[s].close_code, 1001, "socket %d: going away (%d)", s,
                     sockets[s].close_code);
        ws_close(&sockets[s]);
    }
    int status = exit_within(&running, 10);
    if (status < 0) kill(running.pid, SIGKILL);
    cr_assert_eq(status, 0, "exit status 0 within seconds (%d)", status);
    /* The move acknowledged before is there after the restart. */
    started again = start((const char *const[]){"--port", "0", "--db",
                                                support_temp_path("drain.db"), "--quiet",
                                                "--bot-threads", "1", NULL});
    snprintf(path, sizeof path, "/api/tables/%s", table.id);
    char *text = fetch(again.port, "GET", path, NULL, NULL, 200);
    json_t *seen = served_parse(text);
    free(text);
    cr_assert_geq(json_integer_value(json_object_get(seen, "version")), 1);
    json_decref(seen);
    stop(&again);
}
