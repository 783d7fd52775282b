/*
 * test_server_flow.c: the play flow of `gateau serve` (docs/server.md):
 * taking a move back (and every refusal: another seat acted, chance
 * followed, a phase of hidden choices ended, the clock's stand-in made
 * it), the clock of so much a move whose stand-in makes one move and no
 * more, and handing an absent or timed-out seat to a bot.
 *
 * The server runs with GATEAU_TEST_TIME_SCALE=30 (docs/server.md): a
 * 30 s clock runs out in about 1 s, 60 s away pass in about 2 s.  No
 * test asserts a time: each waits for what must happen.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "http_client.h"
#include "served.h"
#include "support.h"

static void flow_setup(void)
{
    support_temp_setup();
    setenv("GATEAU_TEST_TIME_SCALE", "30", 1); /* (the servers started inherit it) */
}

TestSuite(flow, .init = flow_setup, .fini = support_temp_teardown, .timeout = 120);

/* ---- helpers ---------------------------------------------------------------------- */

static served_table make_table(const served *running, const char *body)
{
    json_t *answer = served_request(running, "POST", "/api/tables", body, NULL, 201);
    served_table table = served_table_from(answer);
    json_decref(answer);
    return table;
}

static char *path_of(const served_table *table, const char *action)
{
    static char path[128];
    snprintf(path, sizeof path, "/api/tables/%s%s%s", table->id, action[0] ? "/" : "", action);
    return path;
}

static json_t *snapshot(const served *running, const served_table *table, int seat)
{
    return served_request(running, "GET", path_of(table, ""), NULL,
                          seat ? table->tokens[seat - 1] : NULL, 200);
}

static int version_of(const served *running, const served_table *table)
{
    json_t *answer = snapshot(running, table, 0);
    int version = (int)json_integer_value(json_object_get(answer, "version"));
    json_decref(answer);
    return version;
}

/* A move that must be accepted. */
static void play(const served *running, const served_table *table, int seat, int version,
                 const char *move)
{
    char body[256];
    snprintf(body, sizeof body, "{\"version\":%d,\"move\":\"%s\"}", version, move);
    json_decref(served_request(running, "POST", path_of(table, "moves"), body,
                               table->tokens[seat - 1], 200));
}

/* A request refused with expected, its reason on one line containing fragment. */
static void refused(const served *running, const char *path, const char *body,
                    const char *token, int expected, const char *fragment)
{
    json_t *answer = served_request(running, "POST", path, body, token, expected);
    const char *reason = json_string_value(json_object_get(answer, "error"));
    cr_assert_not_null(reason, "a refusal says why");
    cr_assert(strstr(reason, fragment), "'%s' mentions '%s'", reason, fragment);
    cr_assert_null(strchr(reason, '\n'));
    json_decref(answer);
}

/* Member name of seat's entry in the snapshot's seats (borrowed). */
static json_t *seat_member(json_t *state, int seat, const char *name)
{
    return json_object_get(json_array_get(json_object_get(state, "seats"), (size_t)seat - 1),
                           name);
}

static void sleep_ms(int milliseconds)
{
    struct timespec pause = {milliseconds / 1000, (long)(milliseconds % 1000) * 1000000};
    nanosleep(&pause, NULL);
}

/* Waits (up to 20 s) until seat's member name in the public snapshot is
 * at least value. */
static void wait_for_seat(const served *running, const served_table *table, int seat,
                          const char *name, int value)
{
    for (int tries = 0; tries < 400; tries++) {
        json_t *state = snapshot(running, table, 0);
        int now = (int)json_integer_value(seat_member(state, seat, name));
        json_decref(state);
        if (now >= value) return;
        sleep_ms(50);
    }
    cr_assert_fail("seat %d's %s never reached %d", seat, name, value);
}

/* The next push of the socket whose version is version (earlier ones,
 * presence, skipped); fails after 50 pushes or 5 s without one. */
static json_t *push_at(ws_client *socket, int version)
{
    for (int pushes = 0; pushes < 50; pushes++) {
        char *text = ws_read(socket, 5000);
        cr_assert_not_null(text, "a push of version %d", version);
        json_t *state = served_parse(text);
        free(text);
        if (json_integer_value(json_object_get(state, "version")) == version) return state;
        json_decref(state);
    }
    cr_assert_fail("no push of version %d", version);
    return NULL;
}

/* Seat's first whole move, built part by part as a page does (the first
 * part on offer each time, asking /legal what may join), and posted. */
static void play_first_whole(const served *running, const served_table *table, int seat)
{
    json_t *state = snapshot(running, table, seat);
    int version = (int)json_integer_value(json_object_get(state, "version"));
    json_int_t chosen[16];
    int count = 0;
    chosen[count++] = json_integer_value(
        json_object_get(json_array_get(json_object_get(state, "legal"), 0), "action"));
    json_decref(state);
    for (bool whole = false; !whole && count < 16;) {
        char path[512];
        int used = snprintf(path, sizeof path, "/api/tables/%s/legal?after=", table->id);
        for (int i = 0; i < count; i++)
            used += snprintf(path + used, sizeof path - (size_t)used, "%s%lld", i ? "," : "",
                             (long long)chosen[i]);
        json_t *after = served_request(running, "GET", path, NULL, table->tokens[seat - 1], 200);
        whole = json_is_true(json_object_get(after, "complete"));
        if (!whole)
            chosen[count++] = json_integer_value(
                json_object_get(json_array_get(json_object_get(after, "legal"), 0), "action"));
        json_decref(after);
    }
    char body[256];
    int used = snprintf(body, sizeof body, "{\"version\":%d,\"move\":[", version);
    for (int i = 0; i < count; i++)
        used += snprintf(body + used, sizeof body - (size_t)used, "%s%lld", i ? "," : "",
                         (long long)chosen[i]);
    snprintf(body + used, sizeof body - (size_t)used, "]}");
    json_decref(served_request(running, "POST", path_of(table, "moves"), body,
                               table->tokens[seat - 1], 200));
}

static int count_lines(const char *text, const char *fragment)
{
    int count = 0;
    for (const char *at = text; (at = strstr(at, fragment)); at++) count++;
    return count;
}

/* ---- taking a move back ---------------------------------------------------------- */

Test(flow, a_take_back_leaves_the_table_and_its_record_as_if_the_move_never_was)
{
    const char *db = support_temp_path("takeback.db");
    served running = served_start(db);
    served_table table = make_table(&running, "{\"game\":\"piece-o-cake\",\"players\":2,"
                                              "\"seats\":[\"human\",\"human\"]}");
    ws_client socket;
    cr_assert(ws_open_as(&socket, running.port, path_of(&table, "ws"), NULL, table.tokens[2 - 1]));
    json_decref(push_at(&socket, 1));
    play(&running, &table, 1, 1, "cut 1-4 5-7 8-11");
    json_decref(push_at(&socket, 2));

    json_t *answer = served_request(&running, "POST", path_of(&table, "takeback"), "{}",
                                    table.tokens[1 - 1], 200);
    cr_assert_eq(json_integer_value(json_object_get(answer, "version")), 1);
    json_decref(answer);
    /* Every seat's socket hears of it: a whole snapshot, the cut gone. */
    json_t *state = push_at(&socket, 1);
    cr_assert_eq(json_integer_value(json_object_get(state, "log_start")), 0);
    cr_assert_eq(json_array_size(json_object_get(state, "log")), 1);
    json_decref(state);
    ws_close(&socket);
    state = snapshot(&running, &table, 1);
    cr_assert_gt(json_array_size(json_object_get(state, "legal")), 0, "seat 1 cuts again");
    json_decref(state);

    /* Another move in its place is stored as the same number, and the
     * record, after a restart, holds it and not the first. */
    play(&running, &table, 1, 1, "cut 1-2 3-11");
    served_stop(&running);
    running = served_start(db);
    cr_assert_eq(version_of(&running, &table), 2);
    char path[128], *record;
    snprintf(path, sizeof path, "/api/tables/%s/record", table.id);
    cr_assert_eq(http_request_as(running.port, "GET", path, NULL, table.tokens[1 - 1], "", &record),
                 200);
    cr_assert_eq(count_lines(record, "cut 1-2 3-11"), 1, "%s", record);
    cr_assert_eq(count_lines(record, "cut 1-4"), 0, "%s", record);
    free(record);
    served_stop(&running);
}

Test(flow, a_take_back_is_refused_once_anyone_could_have_learned_from_the_move)
{
    served running = served_start(support_temp_path("refusals.db"));
    served_table table = make_table(&running, "{\"game\":\"piece-o-cake\",\"players\":2,"
                                              "\"seats\":[\"human\",\"human\"]}");
    const char *takeback = path_of(&table, "takeback");
    char own[128];
    snprintf(own, sizeof own, "%s", takeback);
    refused(&running, own, "{}", table.tokens[1 - 1], 409, "seat 1 has no move to take back");
    refused(&running, own, "{}", NULL, 403, "opens no seat");
    refused(&running, own, "{\"seat\":1}", table.tokens[1 - 1], 400, "unknown field 'seat'");
    json_decref(served_request(&running, "GET", own, NULL, table.tokens[1 - 1], 405));

    play(&running, &table, 1, 1, "cut 1-4 5-7 8-11");
    play(&running, &table, 2, 2, "take 1-4 eeee");
    refused(&running, own, "{}", table.tokens[1 - 1], 409, "seat 2 has acted since seat 1's last move");
    cr_assert_eq(version_of(&running, &table), 3, "a refusal changes nothing");
    /* (seat 2's own take, the last thing that happened, may go) */
    json_decref(served_request(&running, "POST", own, "{}", table.tokens[2 - 1], 200));
    cr_assert_eq(version_of(&running, &table), 2);

    /* Chance after the move: Mice Cake's dice roll once both have placed. */
    served_table mice = make_table(&running, "{\"game\":\"mice-cake\",\"players\":2,"
                                             "\"seats\":[\"human\",\"human\"]}");
    play_first_whole(&running, &mice, 1);
    play_first_whole(&running, &mice, 2);
    refused(&running, path_of(&mice, "takeback"), "{}", mice.tokens[2 - 1], 409, "chance followed");

    /* A move its bot made (the seat handed to one, then back): not his. */
    served_table handed = make_table(&running, "{\"game\":\"piece-o-cake\",\"players\":2,"
                                               "\"seats\":[\"human\",\"human\"]}");
    char zombie[128];
    snprintf(zombie, sizeof zombie, "%s", path_of(&handed, "zombie"));
    json_decref(served_request(&running, "POST", zombie, "{\"seat\":1,\"zombie\":true}",
                               handed.creator, 200));
    for (int tries = 0; tries < 200 && version_of(&running, &handed) < 2; tries++) sleep_ms(20);
    json_decref(served_request(&running, "POST", zombie, "{\"seat\":1,\"zombie\":false}",
                               handed.creator, 200));
    refused(&running, path_of(&handed, "takeback"), "{}", handed.tokens[1 - 1], 409,
            "not made by its player");
    served_stop(&running);
}

Test(flow, a_take_back_the_store_refuses_changes_nothing)
{
    /* The table, its deal and the cut are stored; the take-back is not. */
    setenv("GATEAU_TEST_STORE_FAIL", "after:3", 1);
    served running = served_start(support_temp_path("store-fails.db"));
    unsetenv("GATEAU_TEST_STORE_FAIL");
    served_table table = make_table(&running, "{\"game\":\"piece-o-cake\",\"players\":2,"
                                              "\"seats\":[\"human\",\"human\"]}");
    play(&running, &table, 1, 1, "cut 1-4 5-7 8-11");
    refused(&running, path_of(&table, "takeback"), "{}", table.tokens[1 - 1], 503,
            "storage unavailable");
    json_t *state = snapshot(&running, &table, 2);
    cr_assert_eq(json_integer_value(json_object_get(state, "version")), 2);
    cr_assert_eq(json_array_size(json_object_get(state, "log")), 2, "the cut stays");
    json_decref(state);
    served_stop(&running);
}

/* Each seat's Cake Master share: its three drawn cards, kept, left, right. */
static void share(const served *running, const served_table *table, int seat)
{
    json_t *state = snapshot(running, table, seat);
    const char *cards[3];
    int found = 0;
    size_t i;
    json_t *entry;
    json_array_foreach(json_object_get(state, "legal"), i, entry) {
        const char *name = json_string_value(json_object_get(entry, "name"));
        if (found < 3 && !strncmp(name, "keep ", 5)) cards[found++] = name + 5;
    }
    cr_assert_eq(found, 3);
    char move[128];
    snprintf(move, sizeof move, "keep %s left %s right %s", cards[0], cards[1], cards[2]);
    play(running, table, seat, (int)json_integer_value(json_object_get(state, "version")), move);
    json_decref(state);
}

Test(flow, simultaneous_choices_are_taken_back_only_while_the_phase_goes_on)
{
    served running = served_start(support_temp_path("phase.db"));
    served_table table = make_table(&running, "{\"game\":\"cake-master\",\"players\":3,"
                                              "\"seats\":[\"human\",\"human\",\"human\"]}");
    const char *takeback = path_of(&table, "takeback");
    char own[128];
    snprintf(own, sizeof own, "%s", takeback);
    int start = version_of(&running, &table);
    share(&running, &table, 1);
    json_decref(served_request(&running, "POST", own, "{}", table.tokens[1 - 1], 200));
    cr_assert_eq(version_of(&running, &table), start);
    share(&running, &table, 1);
    share(&running, &table, 2);
    refused(&running, own, "{}", table.tokens[1 - 1], 409, "seat 2 has acted since");
    share(&running, &table, 3); /* (the last share shows everybody what they were given) */
    refused(&running, own, "{}", table.tokens[3 - 1], 409, "ended a phase of hidden choices");
    served_stop(&running);
}

/* Seat's move of two parts: the first it may begin with, and the first
 * that may join it (a Marie's Table keep). */
static void keep_two(const served *running, const served_table *table, int seat)
{
    json_t *state = snapshot(running, table, seat);
    int version = (int)json_integer_value(json_object_get(state, "version"));
    json_int_t first = json_integer_value(
        json_object_get(json_array_get(json_object_get(state, "legal"), 0), "action"));
    json_decref(state);
    char path[160];
    snprintf(path, sizeof path, "/api/tables/%s/legal?after=%lld", table->id, (long long)first);
    json_t *after = served_request(running, "GET", path, NULL, table->tokens[seat - 1], 200);
    json_int_t second = json_integer_value(
        json_object_get(json_array_get(json_object_get(after, "legal"), 0), "action"));
    json_decref(after);
    char body[96];
    snprintf(body, sizeof body, "{\"version\":%d,\"move\":[%lld,%lld]}", version,
             (long long)first, (long long)second);
    json_decref(served_request(running, "POST", path_of(table, "moves"), body,
                               table->tokens[seat - 1], 200));
}

Test(flow, a_move_that_turns_hidden_cards_up_is_not_taken_back)
{
    served running = served_start(support_temp_path("reveal.db"));
    served_table table = make_table(&running, "{\"game\":\"maries-table\",\"players\":3,"
                                              "\"seats\":[\"human\",\"human\",\"human\"]}");
    char takeback[128];
    snprintf(takeback, sizeof takeback, "%s", path_of(&table, "takeback"));
    /* Seat 1's keep shows it nothing: it may go, and be made again. */
    keep_two(&running, &table, 1);
    json_decref(served_request(&running, "POST", takeback, "{}", table.tokens[1 - 1], 200));
    keep_two(&running, &table, 1);
    /* Seat 2's keep ends the draft: the pairs are turned up, seat 1's
     * among them, which seat 2 had not seen. */
    keep_two(&running, &table, 2);
    refused(&running, takeback, "{}", table.tokens[2 - 1], 409,
            "the move showed seat 2 something that was hidden");
    served_stop(&running);
}

/* ---- the clock ------------------------------------------------------------------------ */

Test(flow, a_clock_per_move_runs_out_once_and_the_player_plays_on)
{
    /* (10 times as fast, not 30: 3 real seconds a move, time enough for
     * the test's own move on a busy machine) */
    setenv("GATEAU_TEST_TIME_SCALE", "10", 1);
    served running = served_start(support_temp_path("clock.db"));
    setenv("GATEAU_TEST_TIME_SCALE", "30", 1);
    refused(&running, "/api/tables", "{\"game\":\"piece-o-cake\",\"players\":2,\"seats\":"
            "[\"human\",\"heuristic\"],\"clock\":\"31d/move\"}", NULL, 422, "30s/move");
    refused(&running, "/api/tables", "{\"game\":\"piece-o-cake\",\"players\":2,\"seats\":"
            "[\"human\",\"heuristic\"],\"clock\":\"30s/turn\"}", NULL, 422, "not a clock");
    json_decref(served_request(&running, "POST", "/api/tables", "{\"game\":\"piece-o-cake\","
                               "\"players\":2,\"seats\":[\"human\",\"heuristic\"],\"clock\":"
                               "\"1d/move\"}", NULL, 201));
    served_table table = make_table(&running, "{\"game\":\"piece-o-cake\",\"players\":2,"
                                              "\"seats\":[\"human\",\"heuristic\"],"
                                              "\"clock\":\"30s/move\"}");
    json_t *state = snapshot(&running, &table, 1);
    json_t *clock = json_object_get(state, "clock");
    cr_assert(json_is_true(json_object_get(clock, "per_move")));
    cr_assert_eq(json_integer_value(json_object_get(clock, "total")), 30000);
    cr_assert(json_is_integer(json_object_get(state, "turn_ms")));
    json_decref(state);

    /* Seat 1 lets its time run out: the stand-in cuts, the bot takes. */
    wait_for_seat(&running, &table, 1, "timeouts", 1);
    state = snapshot(&running, &table, 1);
    cr_assert_eq(json_integer_value(seat_member(state, 1, "clock")), 30000,
                 "the next move has the whole time again");
    json_t *log = json_object_get(state, "log");
    json_t *cut = json_array_get(log, 1);
    cr_assert(strstr(json_string_value(json_object_get(cut, "note")), "time ran out"));
    json_decref(state);

    /* Its player is back for the next one: it is his (a move of one part
     * he may make, such as a pass), and the count of moves out of time
     * starts again. */
    bool played = false;
    for (int tries = 0; tries < 600 && !played; tries++) {
        state = snapshot(&running, &table, 1);
        int version = (int)json_integer_value(json_object_get(state, "version"));
        int timeouts = (int)json_integer_value(seat_member(state, 1, "timeouts"));
        json_int_t whole = -1;
        size_t i;
        json_t *entry;
        json_array_foreach(json_object_get(state, "legal"), i, entry)
            if (whole < 0 && json_is_true(json_object_get(entry, "complete")))
                whole = json_integer_value(json_object_get(entry, "action"));
        json_decref(state);
        if (whole >= 0 && timeouts == 1) {
            char body[64], *answer;
            snprintf(body, sizeof body, "{\"version\":%d,\"move\":[%lld]}", version,
                     (long long)whole);
            played = http_request_as(running.port, "POST", path_of(&table, "moves"), body,
                                     table.tokens[1 - 1], "", &answer) == 200;
            free(answer);
        }
        if (!played) sleep_ms(20);
    }
    cr_assert(played, "seat 1 played a move of its own after the one its clock made");
    state = snapshot(&running, &table, 1);
    cr_assert_eq(json_integer_value(seat_member(state, 1, "timeouts")), 0);
    int own = 0, made = 0;
    size_t i;
    json_t *entry;
    json_array_foreach(json_object_get(state, "log"), i, entry) {
        if (json_integer_value(json_object_get(entry, "seat")) != 1) continue;
        if (json_object_get(entry, "note")) made++;
        else own++;
    }
    cr_assert_eq(made, 1, "the stand-in made one move");
    cr_assert_geq(own, 1, "and the player the next");
    json_decref(state);
    served_stop(&running);
}

Test(flow, a_whole_game_clock_out_of_time_leaves_a_tenth_for_the_next_move)
{
    served running = served_start(support_temp_path("bank.db"));
    served_table table = make_table(&running, "{\"game\":\"piece-o-cake\",\"players\":2,"
                                              "\"seats\":[\"human\",\"heuristic\"],"
                                              "\"clock\":\"30s\"}");
    wait_for_seat(&running, &table, 1, "timeouts", 1);
    json_t *state = snapshot(&running, &table, 1);
    /* (rather than nothing: the stand-in would then play every move) */
    cr_assert_eq(json_integer_value(seat_member(state, 1, "clock")), 3000);
    cr_assert(json_is_false(json_object_get(json_object_get(state, "clock"), "per_move")));
    json_decref(state);
    served_stop(&running);
}

/* ---- handing a seat to a bot ---------------------------------------------------------- */

Test(flow, a_seat_goes_to_a_bot_only_when_its_player_is_away_and_he_is_told)
{
    served running = served_start(support_temp_path("handover.db"));
    served_table table = make_table(&running, "{\"game\":\"piece-o-cake\",\"players\":2,"
                                              "\"seats\":[\"human\",\"human\"]}");
    char handover[128];
    snprintf(handover, sizeof handover, "%s", path_of(&table, "handover"));
    ws_client socket;
    cr_assert(ws_open_as(&socket, running.port, path_of(&table, "ws"), NULL, table.tokens[2 - 1]));
    free(ws_read(&socket, 5000));
    refused(&running, handover, "{\"seat\":2}", table.tokens[1 - 1], 409, "seat 2's player is here");
    refused(&running, handover, "{\"seat\":2}", NULL, 403, "opens no seat");
    refused(&running, handover, "{\"seat\":1}", table.tokens[1 - 1], 422, "his own seat");
    refused(&running, handover, "{\"seat\":3}", table.tokens[1 - 1], 422, "not a person's seat");
    refused(&running, handover, "{\"seat\":2,\"back\":1}", table.tokens[1 - 1], 400, "'back'");
    refused(&running, handover, "{\"seat\":2,\"back\":true}", table.tokens[1 - 1], 403,
            "only seat 2's own player");
    ws_close(&socket);
    /* (the server hears of the close in its own time) */
    for (int tries = 0; tries < 200; tries++) {
        json_t *state = snapshot(&running, &table, 0);
        bool gone = json_is_false(seat_member(state, 2, "connected"));
        json_decref(state);
        if (gone) break;
        sleep_ms(10);
    }
    /* Just gone: not yet. */
    refused(&running, handover, "{\"seat\":2}", table.tokens[1 - 1], 409, "has been away");
    /* 60 s away (2 s at the tests' scale): handed over. */
    for (int tries = 0; tries < 200; tries++) {
        char *answer;
        int status = http_request_as(running.port, "POST", handover, "{\"seat\":2}",
                                     table.tokens[1 - 1], "", &answer);
        free(answer);
        if (status == 200) break;
        cr_assert_eq(status, 409);
        sleep_ms(50);
    }
    json_t *state = snapshot(&running, &table, 2);
    cr_assert(json_is_true(seat_member(state, 2, "zombie")));
    json_t *handed = seat_member(state, 2, "handed");
    cr_assert_eq(json_integer_value(json_object_get(handed, "by")), 1);
    cr_assert_str_eq(json_string_value(json_object_get(handed, "why")), "away");
    cr_assert_geq(json_integer_value(json_object_get(handed, "away_ms")), 60000);
    json_decref(state);
    refused(&running, handover, "{\"seat\":2}", table.tokens[1 - 1], 409, "played by a bot already");
    /* Its player comes back and takes it back. */
    json_decref(served_request(&running, "POST", handover, "{\"seat\":2,\"back\":true}",
                               table.tokens[2 - 1], 200));
    state = snapshot(&running, &table, 2);
    cr_assert(json_is_false(seat_member(state, 2, "zombie")));
    cr_assert_null(seat_member(state, 2, "handed"));
    json_decref(state);
    refused(&running, handover, "{\"seat\":2,\"back\":true}", table.tokens[2 - 1], 409,
            "not played by a bot");
    served_stop(&running);
}

Test(flow, a_seat_out_of_time_three_moves_in_a_row_may_go_to_a_bot_though_connected)
{
    served running = served_start(support_temp_path("timeouts.db"));
    served_table table = make_table(&running, "{\"game\":\"piece-o-cake\",\"players\":3,"
                                              "\"seats\":[\"human\",\"human\",\"heuristic\"],"
                                              "\"clock\":\"30s/move\"}");
    ws_client socket;
    cr_assert(ws_open_as(&socket, running.port, path_of(&table, "ws"), NULL, table.tokens[1 - 1]));
    free(ws_read(&socket, 5000));
    char handover[128];
    snprintf(handover, sizeof handover, "%s", path_of(&table, "handover"));
    /* Connected, and not yet out of time three times: not yet. */
    refused(&running, handover, "{\"seat\":1}", table.tokens[2 - 1], 409, "player is here");
    /* (seat 2 lets its time run out too: the stand-ins play for both) */
    wait_for_seat(&running, &table, 1, "timeouts", 3);
    json_decref(served_request(&running, "POST", handover, "{\"seat\":1}", table.tokens[2 - 1], 200));
    json_t *state = snapshot(&running, &table, 1);
    json_t *handed = seat_member(state, 1, "handed");
    cr_assert_str_eq(json_string_value(json_object_get(handed, "why")), "timeouts");
    cr_assert_eq(json_integer_value(json_object_get(handed, "by")), 2);
    json_decref(state);
    ws_close(&socket);
    served_stop(&running);
}
