/* served.c: see served.h. */
#include "served.h"

#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "http_client.h"
#include "support.h"

const char *const served_polling[] = {"--address-requests", "0", NULL};

served served_start(const char *db) { return served_start_with(db, NULL); }

served served_start_with(const char *db, const char *const *extra)
{
    return served_start_logged(db, extra, NULL);
}

served served_start_logged(const char *db, const char *const *extra, const char *log)
{
    const char *binary = getenv("GATEAU_BINARY");
    cr_assert_not_null(binary, "GATEAU_BINARY is set by ctest");
    int out[2];
    cr_assert_eq(pipe(out), 0);
    served started = {0};
    started.pid = fork();
    cr_assert_geq(started.pid, 0);
    if (started.pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* a failed test leaves no server behind */
        dup2(out[1], STDOUT_FILENO);
        if (log) {
            FILE *errors = fopen(log, "a");
            if (errors) dup2(fileno(errors), STDERR_FILENO);
        }
        close(out[0]);
        const char *arguments[32] = {binary, "serve", "--port", "0", "--db", db, "--quiet",
                                     "--bot-threads", "2"};
        for (int i = 0, at = 9; extra && extra[i] && at < 31; i++) arguments[at++] = extra[i];
        execv(binary, (char *const *)arguments);
        _exit(127);
    }
    close(out[1]);
    FILE *lines = fdopen(out[0], "r");
    char line[512] = "";
    while (fgets(line, sizeof line, lines) && !strstr(line, "http://")) {
    }
    fclose(lines);
    const char *url = strstr(line, "http://127.0.0.1:");
    cr_assert_not_null(url, "the server prints its URL: '%s'", line);
    started.port = atoi(url + strlen("http://127.0.0.1:"));
    cr_assert_gt(started.port, 0);
    return started;
}

json_t *served_parse(const char *text)
{
    json_error_t error;
    json_t *value = json_loads(text, 0, &error);
    cr_assert_not_null(value, "not JSON (%s): %s", error.text, text);
    return value;
}

void served_stop(served *running)
{
    kill(running->pid, SIGTERM);
    int status;
    cr_assert_eq(waitpid(running->pid, &status, 0), running->pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the server stops cleanly (%d)",
              status);
}

json_t *served_request(const served *running, const char *method, const char *path,
                       const char *body, const char *token, int expected)
{
    char *answer;
    int status = http_request_as(running->port, method, path, body, token, "", &answer);
    cr_assert_eq(status, expected, "%s %s %s: %d %s", method, path, body ? body : "", status,
                 answer);
    json_t *value = served_parse(answer);
    free(answer);
    return value;
}

json_t *served_seat_alone(const served *running, const served_table *table, int seat)
{
    char path[64];
    snprintf(path, sizeof path, "/api/tables/%s", table->id);
    for (int tries = 0; tries < 2000; tries++) {
        json_t *snapshot = served_request(running, "GET", path, NULL, table->tokens[seat - 1], 200);
        json_t *to_move = json_object_get(snapshot, "to_move");
        bool alone = json_array_size(to_move) == 1 &&
                     json_integer_value(json_array_get(to_move, 0)) == seat;
        if (json_is_true(json_object_get(snapshot, "over")) || alone) return snapshot;
        json_decref(snapshot);
        nanosleep(&(struct timespec){.tv_nsec = 5000000}, NULL);
    }
    cr_assert_fail("table %s: seat %d's turn never came", table->id, seat);
    return NULL;
}

void served_check_record(const served *running, const char *table_id, json_t *final)
{
    char path[256], *record;
    snprintf(path, sizeof path, "/api/tables/%s/record", table_id);
    cr_assert_eq(http_request(running->port, "GET", path, NULL, "", &record), 200);
    const char *file = support_temp_path("served.txt");
    support_write_file(file, record);
    free(record);
    char arguments[512], *out;
    snprintf(arguments, sizeof arguments, "replay %s --json", file);
    cr_assert_eq(support_run(arguments, NULL, &out), 0, "%s", out);
    json_t *replayed = served_parse(out);
    free(out);
    cr_assert(json_is_true(json_object_get(replayed, "terminal")));
    cr_assert(json_equal(json_object_get(replayed, "scores"), json_object_get(final, "scores")),
              "the record replays to the scores the server reported");
    json_decref(replayed);
}

served_table served_table_from(json_t *answer)
{
    served_table made = {0};
    snprintf(made.id, sizeof made.id, "%s", json_string_value(json_object_get(answer, "id")));
    snprintf(made.creator, sizeof made.creator, "%s",
             json_string_value(json_object_get(answer, "creator")));
    size_t i;
    json_t *seat;
    json_array_foreach(json_object_get(answer, "seats"), i, seat) {
        json_int_t number = json_integer_value(json_object_get(seat, "seat"));
        if (number >= 1 && number <= 6)
            snprintf(made.tokens[number - 1], sizeof made.tokens[0], "%s",
                     json_string_value(json_object_get(seat, "token")));
    }
    return made;
}
