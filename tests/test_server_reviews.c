/*
 * test_server_reviews.c: game reviews made by `gateau serve` in the
 * background (docs/server.md, "Reviews"): a finished table's, kept with
 * it across a restart; a client's record's, under an id of its own; the
 * same numbers `gateau review` gives for the same record and budget; and
 * the refusals: a game not over, a bad record, fields, methods, a full
 * queue (503 with Retry-After), and a review under way when the server
 * stops.
 */
#define _DEFAULT_SOURCE /* usleep */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "http_client.h"
#include "served.h"
#include "support.h"

TestSuite(server_reviews, .init = support_temp_setup, .fini = support_temp_teardown,
          .timeout = 300);

/* The server's fixed review seed (src/server/reviews.c). */
#define REVIEW_SEED "20261128"
#define ITERATIONS "150"

static const char *const small_reviews[] = {"--address-requests", "0", "--review-iters", ITERATIONS,
                                            NULL};

static void refused_with(const served *running, const char *method, const char *path,
                         const char *body, int expected, const char *reason)
{
    json_t *answer = served_request(running, method, path, body, NULL, expected);
    const char *error = json_string_value(json_object_get(answer, "error"));
    cr_assert(error && strstr(error, reason), "%s %s: '%s' should say '%s'", method, path,
              error ? error : "", reason);
    json_decref(answer);
}

/* A table of bots only, played to its end by the server. */
static served_table finished_table(const served *running)
{
    json_t *answer = served_request(running, "POST", "/api/tables",
                                    "{\"game\":\"piece-o-cake\",\"players\":3,"
                                    "\"seats\":[\"heuristic\",\"random\",\"heuristic\"]}",
                                    NULL, 201);
    served_table table = served_table_from(answer);
    json_decref(answer);
    char path[128];
    snprintf(path, sizeof path, "/api/tables/%s", table.id);
    for (int tries = 0; tries < 600; tries++) {
        json_t *snapshot = served_request(running, "GET", path, NULL, NULL, 200);
        bool over = json_is_true(json_object_get(snapshot, "over"));
        json_decref(snapshot);
        if (over) return table;
        usleep(50 * 1000);
    }
    cr_assert_fail("the bots' table did not end in 30 s");
    return table;
}

/* Polls path until its "state" is done (bounded): the answer. */
static json_t *wait_done(const served *running, const char *path)
{
    for (int tries = 0; tries < 1200; tries++) {
        json_t *answer = served_request(running, "GET", path, NULL, NULL, 200);
        const char *state = json_string_value(json_object_get(answer, "state"));
        cr_assert(state, "a review's answer has a state");
        cr_assert(strcmp(state, "failed"), "the review failed: %s",
                  json_string_value(json_object_get(answer, "error")));
        if (!strcmp(state, "done")) return answer;
        json_decref(answer);
        usleep(50 * 1000);
    }
    cr_assert_fail("no review in 60 s");
    return NULL;
}

static char *record_of(const served *running, const char *table_id)
{
    char path[128], *record;
    snprintf(path, sizeof path, "/api/tables/%s/record", table_id);
    cr_assert_eq(http_request(running->port, "GET", path, NULL, "", &record), 200);
    return record;
}

/* The server's review is the library's with "best_view" added to each
 * move whose best differs from the move played: checked, then taken off
 * (so that it can be compared with `gateau review --json`). */
static void check_and_strip_best_views(json_t *review)
{
    size_t index;
    json_t *move;
    int views = 0;
    json_array_foreach(json_object_get(review, "moves"), index, move) {
        bool differs = strcmp(json_string_value(json_object_get(move, "move")),
                              json_string_value(json_object_get(move, "best"))) != 0;
        json_t *view = json_object_get(move, "best_view");
        cr_assert_eq(view != NULL, differs, "a best view exactly where the best is another move");
        if (view) {
            cr_assert(json_is_object(view), "a best view is a view");
            views++;
        }
        json_object_del(move, "best_view");
    }
    cr_assert_gt(views, 0, "some moves had a better one");
}

/* `gateau review --json` of record with the server's seed and budget. */
static json_t *command_review(const char *record)
{
    const char *file = support_temp_path("reviewed.txt");
    support_write_file(file, record);
    char *out = support_run_expect(0, "review %s --iters " ITERATIONS " --seed " REVIEW_SEED " --json",
                                   file);
    json_t *review = served_parse(out);
    free(out);
    return review;
}

Test(server_reviews, a_finished_table_is_reviewed_in_the_background_and_kept)
{
    const char *db = support_temp_path("reviews.db");
    served running = served_start_with(db, small_reviews);
    json_t *answer = served_request(&running, "POST", "/api/tables",
                                    "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"random\"]}",
                                    NULL, 201);
    served_table unfinished = served_table_from(answer);
    json_decref(answer);
    char path[128];
    snprintf(path, sizeof path, "/api/tables/%s/review", unfinished.id);
    refused_with(&running, "POST", path, "{}", 403, "over");
    refused_with(&running, "GET", path, NULL, 403, "over");

    served_table table = finished_table(&running);
    snprintf(path, sizeof path, "/api/tables/%s/review", table.id);
    answer = served_request(&running, "GET", path, NULL, NULL, 200);
    cr_assert_str_eq(json_string_value(json_object_get(answer, "state")), "none");
    json_decref(answer);
    refused_with(&running, "POST", path, "{\"ms\":10}", 400, "no fields");
    answer = served_request(&running, "POST", path, "{}", NULL, 202);
    const char *state = json_string_value(json_object_get(answer, "state"));
    cr_assert(state && (!strcmp(state, "queued") || !strcmp(state, "running")), "%s", state);
    json_decref(answer);
    /* The table's snapshot says how it stands. */
    char table_path[128];
    snprintf(table_path, sizeof table_path, "/api/tables/%s", table.id);
    json_t *snapshot = served_request(&running, "GET", table_path, NULL, NULL, 200);
    cr_assert(json_is_object(json_object_get(snapshot, "review")), "the snapshot has its review's state");
    json_decref(snapshot);

    json_t *done = wait_done(&running, path);
    json_t *review = json_object_get(done, "review");
    char *record = record_of(&running, table.id);
    json_t *expected = command_review(record);
    json_t *stripped = json_deep_copy(review);
    check_and_strip_best_views(stripped);
    cr_assert(json_equal(stripped, expected), "the server's review is gateau review's, number for number");
    json_decref(stripped);
    json_decref(expected);
    snapshot = served_request(&running, "GET", table_path, NULL, NULL, 200);
    cr_assert_str_eq(json_string_value(json_object_get(json_object_get(snapshot, "review"), "state")),
                     "done");
    json_decref(snapshot);
    /* Asked again, the kept one, not a new search. */
    answer = served_request(&running, "POST", path, "{}", NULL, 200);
    cr_assert(json_equal(json_object_get(answer, "review"), review));
    json_decref(answer);
    served_stop(&running);

    /* Kept in the database: a new process answers it at once. */
    running = served_start_with(db, small_reviews);
    answer = served_request(&running, "GET", path, NULL, NULL, 200);
    cr_assert_str_eq(json_string_value(json_object_get(answer, "state")), "done");
    cr_assert(json_equal(json_object_get(answer, "review"), review), "the same review after a restart");
    json_decref(answer);
    json_decref(done);
    free(record);
    served_stop(&running);
}

Test(server_reviews, a_clients_record_is_reviewed_under_its_own_id)
{
    served running = served_start_with(support_temp_path("uploads.db"), small_reviews);
    served_table table = finished_table(&running);
    char *record = record_of(&running, table.id);
    json_t *body = json_pack("{s:s}", "record", record);
    char *text = json_dumps(body, JSON_COMPACT);
    json_t *answer = served_request(&running, "POST", "/api/review", text, NULL, 202);
    const char *id = json_string_value(json_object_get(answer, "id"));
    cr_assert(id && strlen(id) > 8, "an upload's review has an id");
    char path[128];
    snprintf(path, sizeof path, "/api/reviews/%s", id);
    json_decref(answer);
    json_t *done = wait_done(&running, path);
    json_t *expected = command_review(record);
    check_and_strip_best_views(json_object_get(done, "review"));
    cr_assert(json_equal(json_object_get(done, "review"), expected));
    json_decref(expected);
    json_decref(done);

    refused_with(&running, "GET", "/api/reviews/nosuchreview", NULL, 404, "no such review");
    refused_with(&running, "POST", "/api/review", "{\"record\":\"junk\"}", 422, "record line 1");
    refused_with(&running, "POST", "/api/review",
                 "{\"record\":\"game: cake-master\\nplayers: 2\\noptions: deck=/etc/passwd\\n---\\n\"}",
                 422, "deck");
    refused_with(&running, "POST", "/api/review", "{\"record\":3}", 400, "record");
    refused_with(&running, "POST", "/api/review", "{\"record\":\"x\",\"seat\":1}", 400, "seat");
    refused_with(&running, "GET", "/api/review", NULL, 405, "POST");
    refused_with(&running, "POST", path, "{}", 405, "GET");
    free(text);
    json_decref(body);
    free(record);
    served_stop(&running);
}

/* One review thread and room for one waiting: a client may have two
 * reviews waiting or under way (429 with Retry-After past that), another
 * client finds the queue full (503 with Retry-After), and the server still
 * answers; a review under way does not hold up the server's stop (it is
 * cancelled). */
Test(server_reviews, a_full_queue_and_a_greedy_client_are_refused_and_a_stop_cancels)
{
    const char *const slow[] = {"--address-requests", "0", "--review-iters", "1000000",
                                "--review-queue", "1", NULL};
    served running = served_start_with(support_temp_path("queue.db"), slow);
    served_table table = finished_table(&running);
    char *record = record_of(&running, table.id);
    json_t *body = json_pack("{s:s}", "record", record);
    char *text = json_dumps(body, JSON_COMPACT);
    json_t *first = served_request(&running, "POST", "/api/review", text, NULL, 202);
    char first_path[128];
    snprintf(first_path, sizeof first_path, "/api/reviews/%s",
             json_string_value(json_object_get(first, "id")));
    json_decref(first);
    /* The first leaves the queue for the review thread; then one may wait. */
    bool running_now = false;
    for (int tries = 0; tries < 600 && !running_now; tries++) {
        json_t *progress = served_request(&running, "GET", first_path, NULL, NULL, 200);
        running_now = !strcmp(json_string_value(json_object_get(progress, "state")), "running");
        json_decref(progress);
        if (!running_now) usleep(20 * 1000);
    }
    cr_assert(running_now, "the first review starts");
    json_decref(served_request(&running, "POST", "/api/review", text, NULL, 202));

    char request[64 * 1024];
    int length = snprintf(request, sizeof request,
                          "POST /api/review HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                          "Content-Length: %zu\r\nConnection: close\r\n\r\n%s", strlen(text), text);
    cr_assert(length > 0 && length < (int)sizeof request);
    char *answer = http_raw(running.port, request, (size_t)length);
    cr_assert(answer && strstr(answer, " 429 ") && strstr(answer, "Retry-After:") &&
              strstr(answer, "2 reviews waiting"), "a third from one client: %s", answer ? answer : "");
    free(answer);
    answer = http_raw_from("127.0.0.2", running.port, request, (size_t)length);
    cr_assert(answer && strstr(answer, " 503 ") && strstr(answer, "Retry-After:") &&
              strstr(answer, "queue is full"), "another client, the queue full: %s", answer ? answer : "");
    free(answer);
    json_decref(served_request(&running, "GET", "/api/games", NULL, NULL, 200));

    /* The first is under way: a million iterations a search, minutes of
     * work, which the stop must cut short (or the suite's timeout fails
     * the test). */
    json_t *progress = served_request(&running, "GET", first_path, NULL, NULL, 200);
    cr_assert_str_eq(json_string_value(json_object_get(progress, "state")), "running");
    json_decref(progress);
    free(text);
    json_decref(body);
    free(record);
    served_stop(&running); /* (fails the test unless it stops cleanly) */
}

/* A review the store cannot keep fails, says why ("storage unavailable"),
 * and is made again when asked again once the store takes it. */
Test(server_reviews, a_review_the_store_refuses_fails_and_is_asked_again)
{
    const char *db = support_temp_path("refused.db");
    served running = served_start_with(db, small_reviews);
    served_table table = finished_table(&running);
    served_stop(&running);
    setenv("GATEAU_TEST_STORE_FAIL", "after:0", 1); /* every write fails */
    running = served_start_with(db, small_reviews);
    unsetenv("GATEAU_TEST_STORE_FAIL");
    char path[128];
    snprintf(path, sizeof path, "/api/tables/%s/review", table.id);
    json_decref(served_request(&running, "POST", path, "{}", NULL, 202));
    json_t *answer = NULL;
    const char *state = "";
    for (int tries = 0; tries < 1200 && strcmp(state, "failed"); tries++) {
        json_decref(answer);
        usleep(50 * 1000);
        answer = served_request(&running, "GET", path, NULL, NULL, 200);
        state = json_string_value(json_object_get(answer, "state"));
        cr_assert(state && strcmp(state, "done"), "a review the store refused is not done");
    }
    cr_assert_str_eq(state, "failed");
    cr_assert(strstr(json_string_value(json_object_get(answer, "error")), "storage unavailable"));
    json_decref(answer);
    served_stop(&running);

    /* With the store back, asking again reviews it. */
    running = served_start_with(db, small_reviews);
    json_decref(served_request(&running, "POST", path, "{}", NULL, 202));
    json_decref(wait_done(&running, path));
    served_stop(&running);
}
