/*
 * test_server_tables.c: the tables of `gateau serve` over time
 * (docs/server.md): decks sent by clients, kept once by their hash beside
 * the database, never named by a path, and kept by a database that moves;
 * decks of databases from before, moved under their hash at start; the
 * lobby in pages; tables without a move for --expire-days, gone at start
 * and at the hourly sweep.
 *
 * Times in the past are set through the store (store_set_last_move_time),
 * never waited for.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "http_client.h"
#include "postgres_server.h"
#include "served.h"
#include "server/server.h"
#include "store/sha256.h"
#include "support.h"

TestSuite(tables, .init = support_temp_setup, .fini = support_temp_teardown, .timeout = 300);

POSTGRES_SERVER_START_HOOK()
POSTGRES_SERVER_STOP_HOOK()

/* ---- helpers ---------------------------------------------------------------------- */

/* A request that must answer expected: its body (malloc'd). */
static char *answer_of(int port, const char *method, const char *path, const char *body,
                       const char *token, int expected)
{
    char *answer;
    int status = http_request_as(port, method, path, body, token, "", &answer);
    cr_assert_eq(status, expected, "%s %s: %d %s", method, path, status, answer);
    return answer;
}

static json_t *json_answer(int port, const char *method, const char *path, const char *body,
                           const char *token, int expected)
{
    char *text = answer_of(port, method, path, body, token, expected);
    json_t *value = served_parse(text);
    free(text);
    return value;
}

/* A refusal whose one-line reason contains fragment: the reason. */
static char *refusal(int port, const char *method, const char *path, const char *body,
                     int expected, const char *fragment)
{
    json_t *answer = json_answer(port, method, path, body, NULL, expected);
    const char *reason = json_string_value(json_object_get(answer, "error"));
    cr_assert_not_null(reason);
    cr_assert(strstr(reason, fragment), "'%s' mentions '%s'", reason, fragment);
    cr_assert_null(strchr(reason, '\n'));
    char *copy = strdup(reason);
    json_decref(answer);
    return copy;
}

static served_table make_table(int port, const char *body)
{
    json_t *answer = json_answer(port, "POST", "/api/tables", body, NULL, 201);
    served_table table = served_table_from(answer);
    json_decref(answer);
    return table;
}

/* A Cake Master table of 2 with this deck's text. */
static char *deck_table_body(const char *deck, int players)
{
    json_t *body = json_pack("{s:s,s:i,s:[s,s,s,s,s,s],s:s}", "game", "cake-master", "players",
                             players, "seats", "human", "random", "random", "random", "random",
                             "random", "deck", deck);
    json_t *seats = json_object_get(body, "seats");
    while ((int)json_array_size(seats) > players)
        json_array_remove(seats, json_array_size(seats) - 1);
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    return text;
}

/* tests/data/cake-master-small.deck's text: malloc'd. */
static char *small_deck(void)
{
    const char *source = getenv("GATEAU_SOURCE_DIR");
    cr_assert_not_null(source, "GATEAU_SOURCE_DIR is set by ctest");
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/cake-master-small.deck", source);
    return support_read_file(path);
}

static void sha256_hex(const char *text, char hex[65])
{
    uint8_t hash[32];
    store_sha256(text, strlen(text), hash);
    for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", hash[i]);
}

/* The names in a folder, space-separated (sorted), "" when it is empty. */
static char *folder_names(const char *path)
{
    struct dirent **entries;
    int count = scandir(path, &entries, NULL, alphasort);
    cr_assert_geq(count, 0, "folder %s", path);
    char *names = calloc(1, 4096);
    for (int i = 0; i < count; i++) {
        if (strcmp(entries[i]->d_name, ".") && strcmp(entries[i]->d_name, ".."))
            snprintf(names + strlen(names), 4096 - strlen(names), "%s%s", names[0] ? " " : "",
                     entries[i]->d_name);
        free(entries[i]);
    }
    free(entries);
    return names;
}

static store *open_store(const char *path)
{
    char error[256];
    store *storage = store_open(path, error, sizeof error);
    cr_assert_not_null(storage, "%s", error);
    return storage;
}

static void set_last_move_days_ago(const char *db, const char *table_id, int days)
{
    store *storage = open_store(db);
    char error[256];
    cr_assert(store_set_last_move_time(storage, table_id,
                                       (int64_t)time(NULL) - (int64_t)days * 86400 - 60, error,
                                       sizeof error),
              "%s", error);
    store_close(storage);
}

static int status_of(int port, const char *table_id)
{
    char path[128], *answer;
    snprintf(path, sizeof path, "/api/tables/%s", table_id);
    int status = http_request(port, "GET", path, NULL, "", &answer);
    free(answer);
    return status;
}

/* ---- decks by content ----------------------------------------------------------------- */

Test(tables, decks_are_kept_once_by_their_hash_and_never_named_by_a_path)
{
    char *deck = small_deck();
    char hash[65], folder[512];
    sha256_hex(deck, hash);
    const char *db = support_temp_path("decks.db");
    snprintf(folder, sizeof folder, "%s.decks", db);
    served running = served_start(db);

    char *body = deck_table_body(deck, 2);
    served_table table = make_table(running.port, body);
    free(body);
    char expected[128];
    snprintf(expected, sizeof expected, "%s.deck", hash);
    char *names = folder_names(folder);
    cr_assert_str_eq(names, expected, "one file, named by the deck's hash");
    free(names);

    /* The record and the snapshot name it by its hash, never by a path. */
    char path[256];
    snprintf(path, sizeof path, "/api/tables/%s/record", table.id);
    char *record = answer_of(running.port, "GET", path, NULL, table.tokens[0], 200);
    char option[128];
    snprintf(option, sizeof option, "deck=%s.deck", hash);
    cr_assert(strstr(record, option), "%s", record);
    cr_assert_null(strstr(record, support_temp_path("")), "%s", record);
    /* That record replays at POST /api/replay: its deck is the server's,
     * named by its hash; any other deck is a file a client names. */
    json_t *replay = json_pack("{s:s}", "record", record);
    char *replay_body = json_dumps(replay, JSON_COMPACT);
    json_decref(replay);
    free(answer_of(running.port, "POST", "/api/replay", replay_body, NULL, 200));
    free(replay_body);
    const char *unknown = "{\"record\":\"game: cake-master\\nplayers: 2\\noptions: deck="
                          "0000000000000000000000000000000000000000000000000000000000000000.deck"
                          "\\n---\\n\"}";
    free(refusal(running.port, "POST", "/api/replay", unknown, 422,
                 "0000000000000000000000000000000000000000000000000000000000000000.deck"));
    free(refusal(running.port, "POST", "/api/replay",
                 "{\"record\":\"game: cake-master\\nplayers: 2\\noptions: deck=../decks.db.decks/"
                 "x.deck\\n---\\n\"}", 422, "names a deck file"));
    free(record);
    snprintf(path, sizeof path, "/api/tables/%s", table.id);
    char *snapshot = answer_of(running.port, "GET", path, NULL, table.tokens[0], 200);
    cr_assert_null(strstr(snapshot, support_temp_path("")), "%s", snapshot);
    free(snapshot);

    /* The same deck again: the same file. */
    body = deck_table_body(deck, 2);
    served_table again = make_table(running.port, body);
    free(body);
    names = folder_names(folder);
    cr_assert_str_eq(names, expected);
    free(names);

    /* A deck the engine refuses: 422 naming it by its hash, and no file. */
    const char *bad = "card Q9\n";
    char bad_hash[65];
    sha256_hex(bad, bad_hash);
    body = deck_table_body(bad, 2);
    char *reason = refusal(running.port, "POST", "/api/tables", body, 422, bad_hash);
    cr_assert_null(strstr(reason, folder), "%s", reason);
    cr_assert_null(strstr(reason, ".incoming"), "%s", reason);
    free(reason);
    free(body);
    /* A good deck too small for this table: refused alike, the kept file untouched. */
    body = deck_table_body(deck, 6);
    reason = refusal(running.port, "POST", "/api/tables", body, 422, hash);
    cr_assert_null(strstr(reason, folder), "%s", reason);
    free(reason);
    free(body);
    names = folder_names(folder);
    cr_assert_str_eq(names, expected, "a refused deck leaves no file");
    free(names);
    snprintf(path, sizeof path, "/api/tables/%s", again.id);
    json_t *before = served_seat_alone(&running, &again, 1);
    served_stop(&running);

    /* The database moves, its decks' folder with it: its tables stay. */
    char moved_folder[512], moved_db[600], moved_decks[700];
    snprintf(moved_folder, sizeof moved_folder, "%s", support_temp_path("elsewhere"));
    cr_assert_eq(mkdir(moved_folder, 0700), 0);
    snprintf(moved_db, sizeof moved_db, "%s/moved.db", moved_folder);
    snprintf(moved_decks, sizeof moved_decks, "%s.decks", moved_db);
    cr_assert_eq(rename(db, moved_db), 0);
    cr_assert_eq(rename(folder, moved_decks), 0);
    running = served_start(moved_db);
    json_t *after = json_answer(running.port, "GET", path, NULL, again.tokens[0], 200);
    cr_assert(json_equal(json_object_get(before, "view"), json_object_get(after, "view")),
              "the same table after the move");
    cr_assert(json_is_false(json_object_get(after, "over")));
    json_decref(before);
    json_decref(after);
    served_stop(&running);
    free(deck);
}

/* With PostgreSQL a client's deck is kept in the database, by its hash:
 * a second server on the same database (another machine, say) serves the
 * table, replays its record and takes the same deck for a new table; a
 * refused deck is not kept; a restart finds it again.  No deck file is
 * left behind when the servers stop. */
Test(tables, decks_are_kept_in_a_postgresql_database)
{
    postgres_server_require();
    const char *url = postgres_server_database("decks_shared");
    /* (each server's cache in a folder of the test's, to look into) */
    char caches[512];
    snprintf(caches, sizeof caches, "%s", support_temp_path("caches"));
    cr_assert_eq(mkdir(caches, 0700), 0);
    setenv("TMPDIR", caches, 1);
    served first = served_start_with(url, served_polling);
    char *deck = small_deck();
    char hash[65];
    sha256_hex(deck, hash);
    char *body = deck_table_body(deck, 2);
    served_table table = make_table(first.port, body);
    free(body);
    /* The second server starts after the table was made: it restores it,
     * its deck from the database. */
    served second = served_start_with(url, served_polling);
    char path[256];
    snprintf(path, sizeof path, "/api/tables/%s", table.id);
    json_t *seen_first = served_seat_alone(&first, &table, 1);
    json_t *seen_second = served_seat_alone(&second, &table, 1);
    cr_assert(json_equal(json_object_get(seen_first, "view"), json_object_get(seen_second, "view")),
              "both servers show the table the same");
    json_decref(seen_first);
    json_decref(seen_second);
    snprintf(path, sizeof path, "/api/tables/%s/record", table.id);
    char *record = answer_of(second.port, "GET", path, NULL, table.tokens[0], 200);
    char option[128];
    snprintf(option, sizeof option, "deck=%s.deck", hash);
    cr_assert(strstr(record, option), "%s", record);
    cr_assert_null(strstr(record, caches), "no path of a server: %s", record);
    free(record);

    /* A record naming it replays on a third server (its own cache). */
    served third = served_start_with(url, served_polling);
    char replay_text[512];
    snprintf(replay_text, sizeof replay_text, "game: cake-master\nplayers: 2\noptions: %s\n---\n",
             option);
    json_t *replay = json_pack("{s:s}", "record", replay_text);
    char *replay_body = json_dumps(replay, JSON_COMPACT);
    json_decref(replay);
    free(answer_of(third.port, "POST", "/api/replay", replay_body, NULL, 200));
    free(replay_body);
    served_stop(&third);

    /* A deck the engine refuses: 422 naming it by its hash, not kept. */
    const char *bad = "card Q9\n";
    char bad_hash[65];
    sha256_hex(bad, bad_hash);
    body = deck_table_body(bad, 2);
    free(refusal(second.port, "POST", "/api/tables", body, 422, bad_hash));
    free(body);
    /* The same good deck on the second server: a table too. */
    body = deck_table_body(deck, 2);
    served_table again = make_table(second.port, body);
    free(body);
    served_stop(&first);
    served_stop(&second);

    /* What the database holds: the good deck once, not the bad one. */
    store *storage = open_store(url);
    char error[256], *kept = NULL;
    char name[80];
    snprintf(name, sizeof name, "%s.deck", hash);
    cr_assert(store_get_deck(storage, name, &kept, error, sizeof error), "%s", error);
    cr_assert_str_eq(kept, deck);
    free(kept);
    snprintf(name, sizeof name, "%s.deck", bad_hash);
    cr_assert(!store_get_deck(storage, name, &kept, error, sizeof error));
    cr_assert(strstr(error, "no deck"), "%s", error);
    store_close(storage);
    char *left = folder_names(caches);
    cr_assert_str_empty(left, "the servers' caches are gone: %s", left);
    free(left);

    /* A restart: both tables are there, as they were. */
    first = served_start_with(url, served_polling);
    cr_assert_eq(status_of(first.port, table.id), 200);
    cr_assert_eq(status_of(first.port, again.id), 200);
    served_stop(&first);
    unsetenv("TMPDIR");
    free(deck);
}

typedef struct listed_options {
    char options[2][STORE_OPTIONS_SIZE];
    int count;
} listed_options;

static bool note_options(void *context, const store_summary *table)
{
    listed_options *into = context;
    cr_assert_lt(into->count, 2);
    snprintf(into->options[into->count++], STORE_OPTIONS_SIZE, "%s", table->options);
    return true;
}

/* A database from before: a table names its deck by an absolute path.
 * At start the deck is copied under its hash and the table names it so;
 * a table whose deck is gone is skipped, and the log says so. */
Test(tables, decks_named_by_a_path_are_moved_under_their_hash_at_start)
{
    char *deck = small_deck();
    char hash[65];
    sha256_hex(deck, hash);
    const char *old_deck = support_temp_path("old.deck");
    support_write_file(old_deck, deck);
    const char *db = support_temp_path("old.db");
    store *storage = open_store(db);
    const char *ids[] = {"withdeck", "gonedeck"};
    for (int t = 0; t < 2; t++) {
        store_table table = {.players = 2, .created = (int64_t)time(NULL)};
        snprintf(table.id, sizeof table.id, "%s", ids[t]);
        snprintf(table.game, sizeof table.game, "cake-master");
        snprintf(table.options, sizeof table.options, "deck=%s",
                 t ? "/nonexistent/gone.deck" : old_deck);
        snprintf(table.seats[0].spec, sizeof table.seats[0].spec, "human");
        snprintf(table.seats[1].spec, sizeof table.seats[1].spec, "random");
        char error[256];
        cr_assert(store_create_table(storage, &table, error, sizeof error), "%s", error);
    }
    store_close(storage);

    /* In this process, its log read back. */
    const char *log = support_temp_path("log.txt");
    fflush(stderr);
    int saved = dup(STDERR_FILENO), file = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(file, STDERR_FILENO);
    server_options options = {.bind = "127.0.0.1", .port = 0, .db = db, .bot_threads = 1,
                              .origins = "", .quiet = true, SERVER_DEFAULT_LIMITS};
    char error[512];
    server *running = server_start(&options, error, sizeof error);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(file);
    close(saved);
    cr_assert_not_null(running, "%s", error);
    char *said = support_read_file(log);
    cr_assert(strstr(said, "table gonedeck: its deck /nonexistent/gone.deck cannot be read"),
              "%s", said);
    cr_assert_null(strstr(said, "withdeck"), "%s", said);
    free(said);
    int port = server_port(running);
    cr_assert_eq(status_of(port, "withdeck"), 200);
    cr_assert_eq(status_of(port, "gonedeck"), 404);
    char *record = answer_of(port, "GET", "/api/tables/withdeck/record", NULL, NULL, 403);
    free(record);
    server_stop(running);

    char kept[512], option[128];
    snprintf(kept, sizeof kept, "%s.decks/%s.deck", db, hash);
    cr_assert(support_file_exists(kept), "%s", kept);
    snprintf(option, sizeof option, "deck=%s.deck", hash);
    storage = open_store(db);
    listed_options listed = {0};
    char reason[256];
    bool ok = store_list_tables(storage, false, note_options, &listed, reason, sizeof reason);
    cr_assert(ok, "%s", reason);
    cr_assert_eq(listed.count, 2);
    /* (made in the same second: listed in the order of their ids) */
    cr_assert_str_eq(listed.options[0], "deck=/nonexistent/gone.deck", "left as it was");
    cr_assert_str_eq(listed.options[1], option);
    store_close(storage);
    free(deck);
}

/* ---- the lobby in pages ------------------------------------------------------------------ */

Test(tables, the_lobby_comes_in_pages)
{
    served running = served_start(support_temp_path("lobby.db"));
    for (int t = 0; t < 7; t++)
        make_table(running.port, "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"open\"]}");
    for (int t = 0; t < 3; t++)
        make_table(running.port, "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"random\"]}");

    /* Pages of 3, followed by their cursors: every table once, open seats first. */
    char seen[10][32];
    int count = 0, pages = 0;
    char path[256] = "/api/tables?limit=3";
    for (;;) {
        json_t *page = json_answer(running.port, "GET", path, NULL, NULL, 200);
        json_t *list = json_object_get(page, "tables"), *item;
        size_t index;
        cr_assert_leq(json_array_size(list), 3);
        json_array_foreach(list, index, item) {
            cr_assert_lt(count, 10, "no table twice");
            snprintf(seen[count], sizeof seen[count], "%s",
                     json_string_value(json_object_get(item, "id")));
            for (int k = 0; k < count; k++) cr_assert_str_neq(seen[k], seen[count]);
            bool open = json_array_size(json_object_get(item, "open")) > 0;
            cr_assert_eq(open, count < 7, "table %d: the open ones first", count);
            count++;
        }
        pages++;
        json_t *next = json_object_get(page, "next");
        if (json_is_null(next)) {
            json_decref(page);
            break;
        }
        cr_assert(json_is_string(next));
        snprintf(path, sizeof path, "/api/tables?limit=3&after=%s", json_string_value(next));
        json_decref(page);
    }
    cr_assert_eq(count, 10);
    cr_assert_eq(pages, 4);

    /* The default page holds them all (50), with no next. */
    json_t *page = json_answer(running.port, "GET", "/api/tables", NULL, NULL, 200);
    cr_assert_eq(json_array_size(json_object_get(page, "tables")), 10);
    cr_assert(json_is_null(json_object_get(page, "next")));
    json_decref(page);
    page = json_answer(running.port, "GET", "/api/tables?limit=200", NULL, NULL, 200);
    json_decref(page);

    const char *bad_limits[] = {"0", "201", "-1", "abc", "1x", "99999999999999"};
    for (size_t i = 0; i < sizeof bad_limits / sizeof *bad_limits; i++) {
        snprintf(path, sizeof path, "/api/tables?limit=%s", bad_limits[i]);
        free(refusal(running.port, "GET", path, NULL, 400, "limit: a number of tables from 1 to 200"));
    }
    const char *bad_cursors[] = {"x", "2.5.abc", "0.abc.def", "0.5.", "0.5.ABC", "0.5.a/b"};
    for (size_t i = 0; i < sizeof bad_cursors / sizeof *bad_cursors; i++) {
        snprintf(path, sizeof path, "/api/tables?after=%s", bad_cursors[i]);
        free(refusal(running.port, "GET", path, NULL, 400, "after: the 'next' cursor"));
    }
    /* A cursor past the end: an empty page. */
    page = json_answer(running.port, "GET", "/api/tables?after=1.0.zzz", NULL, NULL, 200);
    cr_assert_eq(json_array_size(json_object_get(page, "tables")), 0);
    json_decref(page);
    served_stop(&running);
}

/* ---- tables that end --------------------------------------------------------------------- */

/* The next push on socket: the table's last snapshot, over, expired
 * after 30 days (why: what a missing push means in this test). */
static void expect_expiry_pushed(ws_client *socket, const char *why)
{
    char *pushed = ws_read(socket, 5000);
    cr_assert_not_null(pushed, "%s", why);
    json_t *last = served_parse(pushed);
    free(pushed);
    cr_assert(json_is_true(json_object_get(last, "over")));
    cr_assert_str_eq(json_string_value(json_object_get(last, "ended")),
                     "expired: no move for at least 30 days");
    json_decref(last);
}

/* The snapshot of a table that expired: over, and why; its record can
 * be read, and the lobby does not list it. */
static void expect_expired(int port, const char *table_id, const char *ended)
{
    char path[128];
    snprintf(path, sizeof path, "/api/tables/%s", table_id);
    json_t *seen = json_answer(port, "GET", path, NULL, NULL, 200);
    cr_assert(json_is_true(json_object_get(seen, "over")), "table %s is over", table_id);
    const char *why = json_string_value(json_object_get(seen, "ended"));
    cr_assert(why && !strcmp(why, ended), "table %s: ended '%s', not '%s'", table_id,
              why ? why : "(none)", ended);
    json_decref(seen);
    snprintf(path, sizeof path, "/api/tables/%s/record", table_id);
    free(answer_of(port, "GET", path, NULL, NULL, 200));
    char *lobby = answer_of(port, "GET", "/api/tables", NULL, NULL, 200);
    cr_assert_null(strstr(lobby, table_id), "the lobby forgets it: %s", lobby);
    free(lobby);
}

/* At start: a table without a move for longer than --expire-days ends
 * (in the store too, its rows kept: "ended" says why); a younger one, or
 * any with --expire-days 0, stays in play. */
static void idle_tables_expire_at_start(const char *db)
{
    served running = served_start(db);
    /* (People only: a bot seat's move, made at a restore, would make a
     * table young again, as its last move.) */
    const char *body = "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"human\"]}";
    served_table idle = make_table(running.port, body), young = make_table(running.port, body),
                 kept = make_table(running.port, body);
    served_stop(&running);
    set_last_move_days_ago(db, idle.id, 31);
    set_last_move_days_ago(db, young.id, 29);
    set_last_move_days_ago(db, kept.id, 45);

    const char *never[] = {"--expire-days", "0", NULL};
    running = served_start_with(db, never);
    cr_assert_eq(status_of(running.port, idle.id), 200, "--expire-days 0: never");
    served_stop(&running);
    const char *sixty[] = {"--expire-days", "60", NULL};
    running = served_start_with(db, sixty);
    cr_assert_eq(status_of(running.port, kept.id), 200, "45 days are not 60");
    served_stop(&running);

    running = served_start(db); /* (30 days) */
    expect_expired(running.port, idle.id, "expired: no move for at least 30 days");
    expect_expired(running.port, kept.id, "expired: no move for at least 30 days");
    cr_assert_eq(status_of(running.port, young.id), 200);
    char path[128];
    snprintf(path, sizeof path, "/api/tables/%s/join", idle.id);
    free(answer_of(running.port, "POST", path, "{\"seat\":2}", NULL, 409));
    served_stop(&running);
    /* Over in the store: the next start restores it no more, and it still
     * says why. */
    running = served_start(db);
    expect_expired(running.port, idle.id, "expired: no move for at least 30 days");
    served_stop(&running);
}

Test(tables, idle_tables_expire_at_start_sqlite)
{
    idle_tables_expire_at_start(support_temp_path("expire.db"));
}

Test(tables, idle_tables_expire_at_start_postgres)
{
    postgres_server_require();
    idle_tables_expire_at_start(postgres_server_database("expire_at_start"));
}

/* Several servers on one database: a table another process ends (here
 * the operator's `gateau tables expire`) ends in this one too, at once
 * (the database's notice), its WebSocket told why. */
Test(tables, a_table_ended_by_another_process_ends_here_too)
{
    postgres_server_require();
    const char *url = postgres_server_database("ended_elsewhere");
    const char *never[] = {"--expire-days", "0", NULL};
    served running = served_start_with(url, never);
    served_table table = make_table(running.port,
                                    "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"human\"]}");
    ws_client socket;
    char path[128];
    snprintf(path, sizeof path, "/api/tables/%s/ws", table.id);
    cr_assert(ws_open_as(&socket, running.port, path, NULL, table.tokens[0]));
    free(ws_read(&socket, 5000));
    set_last_move_days_ago(url, table.id, 31);
    char *said = support_run_expect(0, "tables expire --days 30 --db '%s'", url);
    cr_assert(strstr(said, "Expired 1 table"), "%s", said);
    free(said);
    expect_expiry_pushed(&socket, "a push after the other process's expiry");
    ws_close(&socket);
    expect_expired(running.port, table.id, "expired: no move for at least 30 days");
    served_stop(&running);
}

/* While it serves: the hourly sweep (called here, for 30 days; the server
 * itself sweeps nothing, or its start would expire the veteran below)
 * drops an idle table from memory and the store, and keeps the others. */
Test(tables, the_sweep_expires_tables_in_play)
{
    const char *db = support_temp_path("sweep.db");
    /* A table made 40 days ago whose deal is stored at start (so not idle). */
    store *storage = open_store(db);
    store_table veteran = {.players = 2, .created = (int64_t)time(NULL) - 40 * 86400};
    snprintf(veteran.id, sizeof veteran.id, "veteran");
    snprintf(veteran.game, sizeof veteran.game, "mice-cake");
    snprintf(veteran.seats[0].spec, sizeof veteran.seats[0].spec, "human");
    snprintf(veteran.seats[1].spec, sizeof veteran.seats[1].spec, "open");
    char reason[256];
    cr_assert(store_create_table(storage, &veteran, reason, sizeof reason), "%s", reason);
    store_close(storage);
    server_options options = {.bind = "127.0.0.1", .port = 0, .db = db, .bot_threads = 1,
                              .origins = "", .quiet = true, SERVER_DEFAULT_LIMITS};
    char error[512];
    server *running = server_start(&options, error, sizeof error);
    cr_assert_not_null(running, "%s", error);
    int port = server_port(running);
    const char *body = "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"open\"]}";
    served_table idle = make_table(port, body), busy = make_table(port, body);
    /* A WebSocket holds the idle table meanwhile. */
    ws_client socket;
    char path[128];
    snprintf(path, sizeof path, "/api/tables/%s/ws", idle.id);
    cr_assert(ws_open_as(&socket, port, path, NULL, idle.tokens[0]));
    free(ws_read(&socket, 5000));

    cr_assert(store_set_last_move_time(tables_store(), idle.id,
                                       (int64_t)time(NULL) - 31 * 86400, error, sizeof error),
              "%s", error);
    cr_assert(expiry_sweep(tables_store(), 30));
    /* Its WebSocket hears that it ended, and why. */
    expect_expiry_pushed(&socket, "a push after the expiry");
    expect_expired(port, idle.id, "expired: no move for at least 30 days");
    cr_assert_eq(status_of(port, busy.id), 200);
    char *lobby = answer_of(port, "GET", "/api/tables", NULL, NULL, 200);
    cr_assert(strstr(lobby, busy.id), "%s", lobby);
    free(lobby);
    snprintf(path, sizeof path, "/api/tables/%s/join", idle.id);
    free(answer_of(port, "POST", path, "{\"seat\":2}", NULL, 409));
    ws_close(&socket);

    /* A table another process (or the operator) took out of the store
     * leaves this one's memory at the sweep too, once it is older than
     * the expiry (a younger one may be too new for the sweep's list). */
    cr_assert_eq(status_of(port, "veteran"), 200);
    bool deleted;
    cr_assert(store_delete_table(tables_store(), "veteran", -1, &deleted, error, sizeof error),
              "%s", error);
    cr_assert(store_delete_table(tables_store(), busy.id, -1, &deleted, error, sizeof error),
              "%s", error);
    cr_assert(expiry_sweep(tables_store(), 30));
    cr_assert_eq(status_of(port, "veteran"), 404);
    cr_assert_eq(status_of(port, busy.id), 200, "too young to be missing from the list");
    server_stop(running);
}
