/*
 * test_server_people.c: the people at a table of `gateau serve`
 * (docs/server.md, "Names", "Chat", "Rematch", "The lobby and joining"):
 * names bounded and free of control characters, renamed only by their
 * seat; the chat's size, rate, senders (a spectator never posts as a
 * seat), pushes and history, kept by SQLite and PostgreSQL across a
 * restart; rematches made once, each person given his own seat there;
 * the lobby's names, host, clock and count of open seats, and the loser
 * of a race for a seat told so.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "http_client.h"
#include "postgres_server.h"
#include "served.h"
#include "support.h"

TestSuite(people, .init = support_temp_setup, .fini = support_temp_teardown, .timeout = 300);

POSTGRES_SERVER_START_HOOK()
POSTGRES_SERVER_STOP_HOOK()

/* ---- helpers ---------------------------------------------------------------------- */

static json_t *asked(const served *running, const char *method, const char *path,
                     const char *body, const char *token, int expected)
{
    return served_request(running, method, path, body, token, expected);
}

/* A refusal with status expected whose reason holds fragment. */
static void refused(const served *running, const char *method, const char *path,
                    const char *body, const char *token, int expected, const char *fragment)
{
    json_t *answer = asked(running, method, path, body, token, expected);
    const char *reason = json_string_value(json_object_get(answer, "error"));
    cr_assert_not_null(reason, "%s %s: a reason", method, path);
    cr_assert(strstr(reason, fragment), "'%s' mentions '%s'", reason, fragment);
    json_decref(answer);
}

static served_table make_table(const served *running, const char *body)
{
    json_t *answer = asked(running, "POST", "/api/tables", body, NULL, 201);
    served_table table = served_table_from(answer);
    json_decref(answer);
    return table;
}

static char *path_of(const served_table *table, const char *action)
{
    static char paths[4][128];
    static int next;
    char *path = paths[next++ % 4];
    snprintf(path, sizeof paths[0], "/api/tables/%s%s%s", table->id, action[0] ? "/" : "",
             action);
    return path;
}

/* Seat s's name in a snapshot. */
static const char *seat_name(json_t *snapshot, int seat)
{
    return json_string_value(
        json_object_get(json_array_get(json_object_get(snapshot, "seats"), (size_t)seat - 1), "name"));
}

/* The next message on a socket that holds key (others skipped). */
static json_t *next_with(ws_client *client, const char *key)
{
    for (int i = 0; i < 20; i++) {
        char *text = ws_read(client, 10000);
        cr_assert_not_null(text, "a message with '%s' (close %d)", key, client->close_code);
        json_t *message = served_parse(text);
        free(text);
        if (json_object_get(message, key)) return message;
        json_decref(message);
    }
    cr_assert_fail("no message with '%s'", key);
    return NULL;
}

/* ---- names ------------------------------------------------------------------------- */

Test(people, names_are_bounded_and_renamed_by_their_seat)
{
    served running = served_start(support_temp_path("names.db"));
    const char *forty = "Anna-Maria Josepha of the Long Name Hous"; /* 40 characters */
    cr_assert_eq(strlen(forty), 40);
    char body[512];
    snprintf(body, sizeof body, "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"human\"],"
             "\"names\":[\"%s\",\"Bob\"],\"host\":\"Bob\"}", forty);
    served_table table = make_table(&running, body);
    json_t *seen = asked(&running, "GET", path_of(&table, ""), NULL, NULL, 200);
    cr_assert_str_eq(seat_name(seen, 1), forty);
    cr_assert_str_eq(json_string_value(json_object_get(seen, "host")), "Bob");
    json_decref(seen);
    /* 41 characters, a control character, nothing: refused, by name. */
    refused(&running, "POST", "/api/tables", "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"human\"],"
            "\"names\":[\"Anna-Maria Josepha of the Long Name House\",null]}", NULL, 400,
            "name 1 is 41 characters long: at most 40");
    refused(&running, "POST", "/api/tables", "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"human\"],"
            "\"names\":[\"Ann\\u001b[31m\",null]}", NULL, 400, "control character");
    refused(&running, "POST", "/api/tables", "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"human\"],"
            "\"host\":\"  \"}", NULL, 400, "'host' is empty");
    /* 40 Japanese characters (120 bytes) are a name; 41 are not. */
    char japanese[256] = "", rename[320];
    for (int i = 0; i < 40; i++) strcat(japanese, "\xe5\x90\x8d");
    snprintf(rename, sizeof rename, "{\"name\":\"%s\"}", japanese);
    json_decref(asked(&running, "POST", path_of(&table, "name"), rename, table.tokens[1], 200));
    seen = asked(&running, "GET", path_of(&table, ""), NULL, table.tokens[0], 200);
    cr_assert_str_eq(seat_name(seen, 2), japanese);
    json_decref(seen);
    snprintf(rename, sizeof rename, "{\"name\":\"%s\xe5\x90\x8d\"}", japanese);
    refused(&running, "POST", path_of(&table, "name"), rename, table.tokens[1], 400, "41 characters");
    refused(&running, "POST", path_of(&table, "name"), "{\"name\":\"Bo\\nb\"}", table.tokens[1],
            400, "control character");
    /* Only a seat names itself: no token, or another table's, may. */
    refused(&running, "POST", path_of(&table, "name"), "{\"name\":\"Mallory\"}", NULL, 403,
            "opens no seat");
    refused(&running, "POST", path_of(&table, "name"), "{\"name\":\"Mallory\"}", table.creator,
            403, "opens no seat");
    refused(&running, "POST", path_of(&table, "name"), "{\"name\":\"Mallory\",\"seat\":1}",
            table.tokens[1], 400, "unknown field 'seat'");
    /* Joining under a bad name is refused too. */
    served_table open = make_table(&running, "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"open\"]}");
    refused(&running, "POST", path_of(&open, "join"), "{\"seat\":2,\"name\":\"Eve\\u0085\"}", NULL,
            400, "control character");
    served_stop(&running);
}

/* ---- the lobby --------------------------------------------------------------------- */

Test(people, the_lobby_shows_names_host_clock_and_open_seats)
{
    served running = served_start(support_temp_path("lobby.db"));
    served_table table = make_table(&running, "{\"game\":\"piece-o-cake\",\"seats\":[\"human\","
                                              "\"open\",\"open\"],\"names\":[\"Ann\",null,null],"
                                              "\"host\":\"Ann\",\"clock\":\"10m+5s\"}");
    json_t *lobby = asked(&running, "GET", "/api/tables", NULL, NULL, 200);
    json_t *entry = json_array_get(json_object_get(lobby, "tables"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(entry, "id")), table.id);
    cr_assert_eq(json_integer_value(json_object_get(entry, "open_seats")), 2);
    cr_assert_str_eq(json_string_value(json_object_get(entry, "host")), "Ann");
    cr_assert_str_eq(json_string_value(json_object_get(entry, "clock")), "10m+5s");
    json_t *seats = json_object_get(entry, "seats");
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(seats, 0), "name")), "Ann");
    cr_assert(json_is_true(json_object_get(json_array_get(seats, 1), "open")));
    json_decref(lobby);
    /* Two people race for seat 2: the loser is told someone took it. */
    json_decref(asked(&running, "POST", path_of(&table, "join"), "{\"seat\":2,\"name\":\"Bob\"}",
                      NULL, 200));
    refused(&running, "POST", path_of(&table, "join"), "{\"seat\":2,\"name\":\"Eve\"}", NULL, 409,
            "someone took that seat a moment ago");
    /* A seat that never was open is not "taken". */
    json_t *answer = asked(&running, "POST", path_of(&table, "join"), "{\"seat\":1,\"name\":\"Eve\"}",
                           NULL, 409);
    cr_assert_null(strstr(json_string_value(json_object_get(answer, "error")), "someone"));
    json_decref(answer);
    lobby = asked(&running, "GET", "/api/tables", NULL, NULL, 200);
    entry = json_array_get(json_object_get(lobby, "tables"), 0);
    cr_assert_eq(json_integer_value(json_object_get(entry, "open_seats")), 1);
    seats = json_object_get(entry, "seats");
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(seats, 1), "name")), "Bob");
    json_decref(lobby);
    served_stop(&running);
}

/* ---- chat -------------------------------------------------------------------------- */

static void chat_is_kept_and_refused_as_documented(const char *db)
{
    served running = served_start(db);
    served_table table = make_table(&running, "{\"game\":\"mice-cake\",\"seats\":[\"human\","
                                              "\"human\"],\"names\":[\"Ann\",\"Bob\"]}");
    ws_client bob, watcher;
    cr_assert(ws_open_as(&bob, running.port, path_of(&table, "ws"), NULL, table.tokens[1]));
    cr_assert(ws_open_as(&watcher, running.port, path_of(&table, "ws"), NULL, NULL));
    /* (no history while there is none: the first message is the snapshot) */
    for (ws_client *client = &bob; client; client = client == &bob ? &watcher : NULL) {
        char *first = ws_read(client, 10000);
        cr_assert(first && strstr(first, "\"version\""), "%s", first ? first : "nothing");
        free(first);
    }

    /* A seat posts under its seat's name; everyone hears it as it was typed. */
    const char *markup = "{\"text\":\"<img src=x onerror=alert(1)>\"}";
    json_decref(asked(&running, "POST", path_of(&table, "chat"), markup, table.tokens[0], 200));
    json_t *heard = next_with(&watcher, "chat");
    json_t *message = json_array_get(json_object_get(heard, "chat"), 0);
    cr_assert_eq(json_integer_value(json_object_get(message, "seat")), 1);
    cr_assert_str_eq(json_string_value(json_object_get(message, "name")), "Ann");
    cr_assert_str_eq(json_string_value(json_object_get(message, "text")), "<img src=x onerror=alert(1)>");
    json_decref(heard);
    json_decref(next_with(&bob, "chat"));

    /* A spectator posts under a name of his own, never a seat's or as a seat. */
    json_decref(asked(&running, "POST", path_of(&table, "chat"),
                      "{\"text\":\"nice move\",\"name\":\"Kibitzer\"}", NULL, 200));
    heard = next_with(&bob, "chat");
    message = json_array_get(json_object_get(heard, "chat"), 0);
    cr_assert(json_is_null(json_object_get(message, "seat")));
    cr_assert_str_eq(json_string_value(json_object_get(message, "name")), "Kibitzer");
    json_decref(heard);
    refused(&running, "POST", path_of(&table, "chat"), "{\"text\":\"I resign\",\"name\":\"bob\"}",
            NULL, 422, "a spectator cannot post as a seat");
    refused(&running, "POST", path_of(&table, "chat"), "{\"text\":\"I resign\",\"name\":\" Bob \"}",
            NULL, 422, "a spectator cannot post as a seat");
    refused(&running, "POST", path_of(&table, "chat"), "{\"text\":\"I resign\",\"seat\":2}", NULL,
            400, "unknown field 'seat'");
    refused(&running, "POST", path_of(&table, "chat"), "{\"text\":\"I resign\"}", NULL, 400,
            "'name' is missing");
    refused(&running, "POST", path_of(&table, "chat"), "{\"text\":\"I resign\"}", "not-a-token",
            403, "opens no seat");
    refused(&running, "POST", path_of(&table, "chat"), "{\"text\":\"hi\",\"name\":\"Ann\"}",
            table.tokens[1], 400, "'name' is for spectators");

    /* Size: 300 characters (in any script) are a message, 301 are not. */
    char body[2048] = "{\"text\":\"";
    for (int i = 0; i < 300; i++) strcat(body, "\xe3\x81\x82");
    strcat(body, "\"}");
    json_decref(asked(&running, "POST", path_of(&table, "chat"), body, table.tokens[1], 200));
    strcpy(body + strlen(body) - 2, "x\"}");
    refused(&running, "POST", path_of(&table, "chat"), body, table.tokens[1], 400,
            "301 characters long: a message has at most 300");
    refused(&running, "POST", path_of(&table, "chat"), "{\"text\":\" \\n \"}", table.tokens[1],
            400, "'text' is empty");
    refused(&running, "POST", path_of(&table, "chat"), "{\"text\":\"a\\u0007b\"}",
            table.tokens[1], 400, "control character");

    /* Rate: Ann has posted once; a burst of 5 goes, then 429 with
     * Retry-After (posted as fast as may be: a slow machine that lets a
     * token come back meanwhile only delays the 429), and Bob (another
     * sender) is not held back. */
    int accepted = 0, status = 200;
    char *answer = NULL;
    while (status == 200 && accepted < 20) {
        free(answer);
        status = http_request_as(running.port, "POST", path_of(&table, "chat"),
                                 "{\"text\":\"again\"}", table.tokens[0], "", &answer);
        if (status == 200) accepted++;
    }
    cr_assert_eq(status, 429, "%d %s", status, answer);
    cr_assert(accepted >= 4, "a burst of 5 (one posted before): %d", accepted);
    cr_assert(strstr(answer, "too many messages"), "%s", answer);
    free(answer);
    json_decref(asked(&running, "POST", path_of(&table, "chat"), "{\"text\":\"still here\"}",
                      table.tokens[1], 200));
    ws_close(&bob);
    ws_close(&watcher);

    /* Kept with the table: after a restart, whoever opens it hears the
     * last messages, oldest first. */
    served_stop(&running);
    running = served_start(db);
    json_t *kept = asked(&running, "GET", path_of(&table, "chat"), NULL, NULL, 200);
    json_t *list = json_object_get(kept, "chat");
    cr_assert_eq(json_array_size(list), (size_t)accepted + 4, "%zu messages", json_array_size(list));
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(list, 0), "text")),
                     "<img src=x onerror=alert(1)>");
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(list, json_array_size(list) - 1),
                                                       "text")),
                     "still here");
    json_decref(kept);
    ws_client again;
    cr_assert(ws_open_as(&again, running.port, path_of(&table, "ws"), NULL, NULL));
    json_t *history = next_with(&again, "chat");
    cr_assert(json_is_true(json_object_get(history, "chat_history")));
    cr_assert_eq(json_array_size(json_object_get(history, "chat")), (size_t)accepted + 4);
    json_decref(history);
    ws_close(&again);
    served_stop(&running);
}

Test(people, chat_on_sqlite)
{
    chat_is_kept_and_refused_as_documented(support_temp_path("chat.db"));
}

Test(people, chat_on_postgresql)
{
    postgres_server_require();
    chat_is_kept_and_refused_as_documented(postgres_server_database("people_chat"));
}

/* Several servers on one PostgreSQL database: a message posted to one
 * reaches the sockets of the other, once. */
Test(people, chat_reaches_every_server_on_one_database)
{
    postgres_server_require();
    const char *url = postgres_server_database("people_two");
    served first = served_start(url), second = served_start(url);
    served_table table = make_table(&first, "{\"game\":\"mice-cake\",\"seats\":[\"human\","
                                            "\"human\"],\"names\":[\"Ann\",\"Bob\"]}");
    json_decref(asked(&first, "POST", path_of(&table, "chat"), "{\"text\":\"first\"}",
                      table.tokens[0], 200));
    ws_client bob;
    cr_assert(ws_open_as(&bob, second.port, path_of(&table, "ws"), NULL, table.tokens[1]));
    json_t *history = next_with(&bob, "chat");
    cr_assert_eq(json_array_size(json_object_get(history, "chat")), 1);
    json_decref(history);
    json_decref(asked(&first, "POST", path_of(&table, "chat"), "{\"text\":\"across\"}",
                      table.tokens[0], 200));
    json_t *heard = next_with(&bob, "chat");
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(heard, "chat"), 0),
                                                       "text")), "across");
    json_decref(heard);
    /* And back: Bob's message on the second server is told once on it. */
    json_decref(asked(&second, "POST", path_of(&table, "chat"), "{\"text\":\"back\"}",
                      table.tokens[1], 200));
    heard = next_with(&bob, "chat");
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(heard, "chat"), 0),
                                                       "text")), "back");
    json_decref(heard);
    json_t *kept = asked(&second, "GET", path_of(&table, "chat"), NULL, NULL, 200);
    cr_assert_eq(json_array_size(json_object_get(kept, "chat")), 3, "each message once");
    json_decref(kept);
    /* (nothing more comes: the notice of Bob's own message adds nothing) */
    char *more = ws_read(&bob, 500);
    cr_assert(!more || !strstr(more, "\"chat\""), "%s", more);
    free(more);
    ws_close(&bob);
    served_stop(&second);
    served_stop(&first);
}

/* ---- rematch ----------------------------------------------------------------------- */

/* A finished table: both seats handed to bots, which play it out. */
static json_t *played_out(const served *running, const served_table *table)
{
    for (int s = 1; s <= 2; s++) {
        char body[96];
        snprintf(body, sizeof body, "{\"seat\":%d,\"zombie\":true,\"bot\":\"random\"}", s);
        json_decref(asked(running, "POST", path_of(table, "zombie"), body, table->creator, 200));
    }
    for (int i = 0; i < 600; i++) {
        json_t *seen = asked(running, "GET", path_of(table, ""), NULL, NULL, 200);
        if (json_is_true(json_object_get(seen, "over"))) return seen;
        json_decref(seen);
        struct timespec pause = {0, 50 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    cr_assert_fail("the bots did not finish the game");
    return NULL;
}

static void rematch_as_documented(const char *db)
{
    served running = served_start(db);
    served_table table = make_table(&running, "{\"game\":\"mice-cake\",\"seats\":[\"human\","
                                              "\"human\"],\"names\":[\"Ann\",\"Bob\"],"
                                              "\"clock\":\"10m+5s\"}");
    refused(&running, "POST", path_of(&table, "rematch"), "{}", table.tokens[0], 409,
            "a game that is over");
    json_decref(played_out(&running, &table));
    refused(&running, "POST", path_of(&table, "rematch"), "{}", NULL, 403, "opens no seat");
    refused(&running, "POST", path_of(&table, "rematch"), "{}", table.creator, 403,
            "opens no seat");
    refused(&running, "POST", path_of(&table, "rematch"), "{\"seat\":2}", table.tokens[0], 400,
            "unknown field");
    ws_client watcher;
    cr_assert(ws_open_as(&watcher, running.port, path_of(&table, "ws"), NULL, NULL));
    json_decref(next_with(&watcher, "version"));

    /* Ann asks first: the rematch is made, she gets her own seat there. */
    json_t *ann = asked(&running, "POST", path_of(&table, "rematch"), "{}", table.tokens[0], 200);
    served_table rematch = {0};
    snprintf(rematch.id, sizeof rematch.id, "%s", json_string_value(json_object_get(ann, "id")));
    snprintf(rematch.tokens[0], sizeof rematch.tokens[0], "%s",
             json_string_value(json_object_get(ann, "token")));
    cr_assert_eq(json_integer_value(json_object_get(ann, "seat")), 1);
    cr_assert_str_neq(rematch.id, table.id);
    cr_assert_str_neq(rematch.tokens[0], table.tokens[0], "a new token, not the old one");
    json_decref(ann);
    /* Everybody at the old table hears of it. */
    for (;;) {
        json_t *pushed = next_with(&watcher, "version");
        const char *told = json_string_value(json_object_get(pushed, "rematch"));
        bool done = told && !strcmp(told, rematch.id);
        json_decref(pushed);
        if (done) break;
    }
    ws_close(&watcher);
    /* The same game, clock and names; Bob's seat waits for him, and the
     * lobby does not offer it to anyone else. */
    json_t *seen = asked(&running, "GET", path_of(&rematch, ""), NULL, rematch.tokens[0], 200);
    cr_assert_str_eq(json_string_value(json_object_get(seen, "game")), "mice-cake");
    cr_assert_str_eq(seat_name(seen, 2), "Bob");
    json_t *bob_seat = json_array_get(json_object_get(seen, "seats"), 1);
    cr_assert(json_is_true(json_object_get(bob_seat, "open")));
    cr_assert(json_is_true(json_object_get(bob_seat, "invited")));
    cr_assert_eq(json_integer_value(json_object_get(bob_seat, "clock")), 600000);
    json_decref(seen);
    refused(&running, "POST", path_of(&rematch, "join"), "{\"seat\":2,\"name\":\"Eve\"}", NULL, 409,
            "not open");
    json_t *lobby = asked(&running, "GET", "/api/tables", NULL, NULL, 200);
    json_t *entry = json_array_get(json_object_get(lobby, "tables"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(entry, "id")), rematch.id);
    cr_assert_eq(json_integer_value(json_object_get(entry, "open_seats")), 0);
    json_decref(lobby);
    /* Ann's second click does not take Bob's seat or a second one. */
    refused(&running, "POST", path_of(&table, "rematch"), "{}", table.tokens[0], 409,
            "taken already");

    /* Bob accepts: the same rematch, his own seat, his own token, and
     * Ann's answer never held it. */
    json_t *bob = asked(&running, "POST", path_of(&table, "rematch"), "{}", table.tokens[1], 200);
    cr_assert_str_eq(json_string_value(json_object_get(bob, "id")), rematch.id);
    cr_assert_eq(json_integer_value(json_object_get(bob, "seat")), 2);
    cr_assert_null(json_object_get(bob, "creator"), "the creator's token went to Ann alone");
    snprintf(rematch.tokens[1], sizeof rematch.tokens[1], "%s",
             json_string_value(json_object_get(bob, "token")));
    json_decref(bob);
    seen = asked(&running, "GET", path_of(&rematch, ""), NULL, rematch.tokens[1], 200);
    cr_assert_eq(json_integer_value(json_object_get(seen, "seat")), 2);
    json_decref(seen);
    /* The old tokens open nothing at the rematch. */
    refused(&running, "GET", path_of(&rematch, ""), NULL, table.tokens[1], 403, "opens no seat");

    /* Kept: after a restart the finished table still names its rematch. */
    served_stop(&running);
    running = served_start(db);
    seen = asked(&running, "GET", path_of(&table, ""), NULL, NULL, 200);
    cr_assert_str_eq(json_string_value(json_object_get(seen, "rematch")), rematch.id);
    json_decref(seen);
    served_stop(&running);
}

Test(people, rematch_on_sqlite) { rematch_as_documented(support_temp_path("rematch.db")); }

Test(people, rematch_on_postgresql)
{
    postgres_server_require();
    rematch_as_documented(postgres_server_database("people_rematch"));
}

/* Bots stay bots at the rematch, and seats handed to bots come back to
 * their people. */
Test(people, a_rematch_keeps_its_bots)
{
    served running = served_start(support_temp_path("bots.db"));
    served_table table = make_table(&running, "{\"game\":\"piece-o-cake\",\"seats\":[\"human\","
                                              "\"human\",\"heuristic\"]}");
    for (int s = 1; s <= 2; s++) {
        char body[96];
        snprintf(body, sizeof body, "{\"seat\":%d,\"zombie\":true,\"bot\":\"random\"}", s);
        json_decref(asked(&running, "POST", path_of(&table, "zombie"), body, table.creator, 200));
    }
    for (int i = 0; i < 600; i++) {
        json_t *seen = asked(&running, "GET", path_of(&table, ""), NULL, NULL, 200);
        bool over = json_is_true(json_object_get(seen, "over"));
        json_decref(seen);
        if (over) break;
        struct timespec pause = {0, 50 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    json_t *ann = asked(&running, "POST", path_of(&table, "rematch"), "{}", table.tokens[0], 200);
    served_table rematch = {0};
    snprintf(rematch.id, sizeof rematch.id, "%s", json_string_value(json_object_get(ann, "id")));
    json_decref(ann);
    json_t *seen = asked(&running, "GET", path_of(&rematch, ""), NULL, NULL, 200);
    json_t *seats = json_object_get(seen, "seats");
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(seats, 2), "bot")), "heuristic");
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(seats, 1), "player")), "human");
    cr_assert(json_is_false(json_object_get(json_array_get(seats, 1), "zombie")));
    json_decref(seen);
    served_stop(&running);
}
