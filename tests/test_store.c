/*
 * test_store.c: the server's store (src/store/store.h) on SQLite, and the
 * SHA-256 its token hashes use.
 *
 * Round trips of every call; what is refused (a duplicate or missing move,
 * a second result, a file that is not a gateau database); a writer killed
 * with SIGKILL at a random moment loses no move it had been told was
 * committed; threads sharing one store.  Each of these on SQLite and on
 * PostgreSQL (a server the tests start, tests/postgres_server.h); on
 * PostgreSQL also two connections racing and the change notifications.
 */
#include <libpq-fe.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gateau/rng.h"
#include "store/backend.h"
#include "store/sha256.h"
#include "store/store.h"
#include "postgres_server.h"
#include "support.h"

TestSuite(store, .init = support_temp_setup, .fini = support_temp_teardown, .timeout = 300);

/* One PostgreSQL server for the whole program, started before the tests
 * are forked (tests/postgres_server.h). */
POSTGRES_SERVER_START_HOOK()
POSTGRES_SERVER_STOP_HOOK()

/* The tests of what store.h promises run on both databases: name_sqlite
 * on a file, name_postgres on a new database of the tests' server
 * (skipped with a line saying why when none could be started). */
#define BOTH_BACKENDS(name) BACKEND_TESTS(store, name)

/* Where a test's store is: a file in the test's folder, or a database
 * named after the file ("round.db": round_db). */
static const char *location(backend which, const char *file)
{
    if (which == SQLITE) return support_temp_path(file);
    char name[64];
    snprintf(name, sizeof name, "%s", file);
    for (char *c = name; *c; c++)
        if (*c == '.' || *c == '/' || *c == '-') *c = '_';
    return postgres_server_database(name);
}

/* ---- helpers ------------------------------------------------------------------------ */

static store *open_store(const char *path)
{
    char error[256];
    store *storage = store_open(path, error, sizeof error);
    cr_assert_not_null(storage, "%s", error);
    return storage;
}

/* A table of `players` seats, every field set to something that a round
 * trip could get wrong (a seed above INT64_MAX, a chance seat). */
static store_table make_table(const char *id, int players, int64_t created)
{
    store_table table;
    memset(&table, 0, sizeof table);
    snprintf(table.id, sizeof table.id, "%s", id);
    snprintf(table.game, sizeof table.game, "piece-o-cake");
    table.players = players;
    snprintf(table.options, sizeof table.options, "rounds=2");
    table.seed = UINT64_MAX - 5;
    snprintf(table.clock, sizeof table.clock, "10m+20s");
    table.created = created;
    store_sha256("creator", 7, table.creator_hash);
    for (int s = 0; s < players; s++)
        snprintf(table.seats[s].spec, sizeof table.seats[s].spec, "%s", s ? "ismcts" : "human");
    return table;
}

static void create(store *storage, const store_table *table)
{
    char error[256];
    cr_assert(store_create_table(storage, table, error, sizeof error), "%s", error);
}

static void append(store *storage, const char *table_id, int number, int seat, const char *line)
{
    char error[256];
    store_move move = {.number = number, .seat = seat, .line = line, .clock_left = 1000 * number};
    cr_assert(store_append_move(storage, table_id, &move, error, sizeof error), "%s", error);
}

/* A refused call's error, which must contain fragment. */
static void expect_error(bool done, const char *error, const char *fragment)
{
    cr_assert(!done, "refused (expected an error with \"%s\")", fragment);
    cr_assert(strstr(error, fragment), "error \"%s\" contains \"%s\"", error, fragment);
    cr_assert_null(strchr(error, '\n'), "one line: \"%s\"", error);
}

/* What a load visited: tables with copies of their moves. */
typedef struct loaded_table {
    store_table table;
    int move_count;
    store_move *moves; /* lines malloc'd */
} loaded_table;

typedef struct table_collection {
    loaded_table tables[8];
    int count;
    int stop_after; /* visit says stop after this many tables; 0: never */
} table_collection;

static bool collect(void *context, const store_table *table, const store_move *moves,
                    int move_count)
{
    table_collection *collection = context;
    cr_assert_lt(collection->count, 8);
    loaded_table *loaded = &collection->tables[collection->count++];
    loaded->table = *table;
    loaded->move_count = move_count;
    loaded->moves = malloc(((size_t)move_count + 1) * sizeof *moves);
    for (int m = 0; m < move_count; m++) {
        loaded->moves[m] = moves[m];
        loaded->moves[m].line = strdup(moves[m].line);
    }
    return collection->count != collection->stop_after;
}

static void free_collection(table_collection *collection)
{
    for (int t = 0; t < collection->count; t++) {
        for (int m = 0; m < collection->tables[t].move_count; m++)
            free((char *)collection->tables[t].moves[m].line);
        free(collection->tables[t].moves);
    }
    collection->count = 0;
}

static void load_all(store *storage, bool unfinished_only, table_collection *collection)
{
    char error[256];
    cr_assert(store_load_tables(storage, unfinished_only, collect, collection, error, sizeof error),
              "%s", error);
}

/* The one table table_id, which must be there. */
static loaded_table load_one(store *storage, const char *table_id, table_collection *collection)
{
    char error[256];
    cr_assert(store_load_table(storage, table_id, collect, collection, error, sizeof error), "%s",
              error);
    cr_assert_eq(collection->count, 1);
    return collection->tables[0];
}

static void expect_same_table(const store_table *got, const store_table *expected)
{
    cr_assert_str_eq(got->id, expected->id);
    cr_assert_str_eq(got->game, expected->game);
    cr_assert_eq(got->players, expected->players);
    cr_assert_str_eq(got->options, expected->options);
    cr_assert_eq(got->seed, expected->seed);
    cr_assert_str_eq(got->clock, expected->clock);
    cr_assert_eq(got->created, expected->created);
    cr_assert_eq(got->over, expected->over);
    cr_assert(store_hash_equal(got->creator_hash, expected->creator_hash));
    for (int s = 0; s < expected->players; s++) {
        const store_seat *a = &got->seats[s], *b = &expected->seats[s];
        cr_assert_str_eq(a->spec, b->spec, "seat %d", s);
        cr_assert_str_eq(a->name, b->name, "seat %d", s);
        cr_assert_eq(a->has_token, b->has_token, "seat %d", s);
        cr_assert_eq(a->zombie, b->zombie, "seat %d", s);
        if (b->has_token) cr_assert(store_hash_equal(a->token_hash, b->token_hash), "seat %d", s);
    }
}

/* ---- round trips ------------------------------------------------------------------ */

static const char *const lines[] = {"deal 3 7 12", "cut 1-11", "pass", "take 4-7 ecce", "pass"};
static const int seats[] = {GATEAU_CHANCE, 0, 1, 2, 0};

/* A 3-player table with a claimed, named seat, a zombie, 5 moves. */
static store_table write_sample(store *storage, const char *id)
{
    store_table table = make_table(id, 3, 1700000000);
    create(storage, &table);
    store_seat *seat = &table.seats[0];
    snprintf(seat->name, sizeof seat->name, "Ada");
    seat->has_token = true;
    store_sha256("token of Ada", 12, seat->token_hash);
    char error[256];
    cr_assert(store_update_seat(storage, id, 0, seat, error, sizeof error), "%s", error);
    seat = &table.seats[2];
    snprintf(seat->spec, sizeof seat->spec, "heuristic");
    seat->zombie = true;
    cr_assert(store_update_seat(storage, id, 2, seat, error, sizeof error), "%s", error);
    for (int m = 0; m < 5; m++) append(storage, id, m, seats[m], lines[m]);
    return table;
}

static void expect_sample(loaded_table loaded, const store_table *table)
{
    expect_same_table(&loaded.table, table);
    cr_assert_eq(loaded.move_count, 5);
    for (int m = 0; m < 5; m++) {
        cr_assert_eq(loaded.moves[m].number, m);
        cr_assert_eq(loaded.moves[m].seat, seats[m]);
        cr_assert_str_eq(loaded.moves[m].line, lines[m]);
        cr_assert_eq(loaded.moves[m].clock_left, 1000 * m);
    }
}

BOTH_BACKENDS(round_trip_of_every_call)
{
    store *storage = open_store(location(which, "round.db"));
    store_table table = write_sample(storage, "t1");
    table_collection collection = {0};
    expect_sample(load_one(storage, "t1", &collection), &table);
    free_collection(&collection);

    char error[256];
    cr_assert(store_finish_table(storage, "t1", "{\"scores\":[3,1,2]}", error, sizeof error), "%s",
              error);
    table.over = true;
    expect_sample(load_one(storage, "t1", &collection), &table);
    free_collection(&collection);
    store_close(storage);
}

/* A finished table's review: none at first, kept, replaced, kept across
 * a reopening, refused for a table that is not there, and gone with its
 * table. */
BOTH_BACKENDS(reviews_are_kept_with_their_table)
{
    const char *path = location(which, "reviews.db");
    store *storage = open_store(path);
    write_sample(storage, "t1");
    char error[256], *review = (char *)"not read";
    cr_assert(store_load_review(storage, "t1", &review, error, sizeof error), "%s", error);
    cr_assert_null(review, "no review yet");
    cr_assert(store_save_review(storage, "t1", "{\"n\":1}", 100, error, sizeof error), "%s", error);
    cr_assert(store_save_review(storage, "t1", "{\"n\":2}", 200, error, sizeof error), "%s", error);
    expect_error(store_save_review(storage, "nope", "{}", 1, error, sizeof error), error, "no table nope");
    store_close(storage);

    storage = open_store(path);
    cr_assert(store_load_review(storage, "t1", &review, error, sizeof error), "%s", error);
    cr_assert_str_eq(review, "{\"n\":2}", "the last one kept");
    free(review);
    cr_assert(store_load_review(storage, "nope", &review, error, sizeof error), "%s", error);
    cr_assert_null(review);
    bool deleted;
    cr_assert(store_delete_table(storage, "t1", -1, &deleted, error, sizeof error), "%s", error);
    cr_assert(deleted);
    cr_assert(store_load_review(storage, "t1", &review, error, sizeof error), "%s", error);
    cr_assert_null(review, "gone with its table");
    store_close(storage);
}

BOTH_BACKENDS(unfinished_only_and_stopping)
{
    store *storage = open_store(location(which, "filter.db"));
    /* Created out of id order: loads come oldest first. */
    const char *ids[] = {"c", "a", "b"};
    for (int t = 0; t < 3; t++) {
        store_table table = make_table(ids[t], 2, 100 + t);
        create(storage, &table);
        append(storage, ids[t], 0, 0, ids[t]);
    }
    char error[256];
    cr_assert(store_finish_table(storage, "a", "{}", error, sizeof error), "%s", error);

    table_collection collection = {0};
    load_all(storage, true, &collection);
    cr_assert_eq(collection.count, 2);
    cr_assert_str_eq(collection.tables[0].table.id, "c");
    cr_assert_str_eq(collection.tables[1].table.id, "b");
    cr_assert_str_eq(collection.tables[1].moves[0].line, "b");
    free_collection(&collection);

    load_all(storage, false, &collection);
    cr_assert_eq(collection.count, 3);
    cr_assert_str_eq(collection.tables[1].table.id, "a");
    cr_assert(collection.tables[1].table.over);
    cr_assert(!collection.tables[0].table.over);
    free_collection(&collection);

    collection.stop_after = 1;
    load_all(storage, false, &collection);
    cr_assert_eq(collection.count, 1);
    free_collection(&collection);
    store_close(storage);
}

BOTH_BACKENDS(reopening_keeps_everything)
{
    const char *path = location(which, "reopen.db");
    store *storage = open_store(path);
    store_table table = write_sample(storage, "kept");
    store_close(storage);

    storage = open_store(path);
    table_collection collection = {0};
    expect_sample(load_one(storage, "kept", &collection), &table);
    free_collection(&collection);
    append(storage, "kept", 5, 1, "after reopening");
    store_close(storage);

    storage = open_store(path);
    loaded_table loaded = load_one(storage, "kept", &collection);
    cr_assert_eq(loaded.move_count, 6);
    cr_assert_str_eq(loaded.moves[5].line, "after reopening");
    free_collection(&collection);
    store_close(storage);
}

/* ---- refusals ---------------------------------------------------------------------- */

BOTH_BACKENDS(a_duplicate_or_missing_move_is_refused)
{
    store *storage = open_store(location(which, "duplicate.db"));
    store_table table = make_table("t", 2, 1);
    create(storage, &table);
    append(storage, "t", 0, 0, "first");
    append(storage, "t", 1, 1, "second");
    char error[256];
    store_move again = {.number = 1, .seat = 0, .line = "another second", .clock_left = -1};
    expect_error(store_append_move(storage, "t", &again, error, sizeof error), error,
                 "cannot append move 1 to table t: move 1 is already there");
    store_move gap = {.number = 3, .seat = 0, .line = "fourth", .clock_left = -1};
    expect_error(store_append_move(storage, "t", &gap, error, sizeof error), error,
                 "the next move is 2");
    expect_error(store_append_move(storage, "nowhere", &gap, error, sizeof error), error,
                 "table nowhere: no such table");
    append(storage, "t", 2, 0, "third");

    table_collection collection = {0};
    loaded_table loaded = load_one(storage, "t", &collection);
    cr_assert_eq(loaded.move_count, 3);
    cr_assert_str_eq(loaded.moves[1].line, "second");
    free_collection(&collection);
    store_close(storage);
}

/* A take-back's removal: the last move only, and a database that had it
 * is not taken for one that lost it at the next open. */
BOTH_BACKENDS(the_last_move_is_removed_and_no_other)
{
    const char *path = location(which, "remove.db");
    store *storage = open_store(path);
    store_table table = write_sample(storage, "t1");
    char error[256];
    expect_error(store_remove_last_move(storage, "t1", 3, error, sizeof error), error,
                 "move 3 is not the last of table t1");
    expect_error(store_remove_last_move(storage, "t9", 0, error, sizeof error), error,
                 "move 0 is not the last of table t9");
    cr_assert(store_remove_last_move(storage, "t1", 4, error, sizeof error), "%s", error);
    table_collection collection = {0};
    loaded_table loaded = load_one(storage, "t1", &collection);
    cr_assert_eq(loaded.move_count, 4);
    cr_assert_str_eq(loaded.moves[3].line, lines[3]);
    free_collection(&collection);
    /* Its number is the next one again. */
    append(storage, "t1", 4, seats[4], lines[4]);
    cr_assert(store_remove_last_move(storage, "t1", 4, error, sizeof error), "%s", error);
    store_close(storage);
    storage = open_store(path);
    cr_assert_null(store_warning(storage), "%s", store_warning(storage));
    collection = (table_collection){0};
    cr_assert_eq(load_one(storage, "t1", &collection).move_count, 4);
    free_collection(&collection);
    (void)table;
    store_close(storage);
}

BOTH_BACKENDS(other_refusals)
{
    store *storage = open_store(location(which, "refusals.db"));
    store_table table = make_table("t", 3, 1);
    create(storage, &table);
    char error[256];
    expect_error(store_create_table(storage, &table, error, sizeof error), error,
                 "cannot create table t: it already exists");
    store_table bad = make_table("zero", 0, 1);
    expect_error(store_create_table(storage, &bad, error, sizeof error), error, "0 players");
    expect_error(store_update_seat(storage, "t", 3, &table.seats[0], error, sizeof error), error,
                 "seat index 3 of table t: it has 3 seats");
    expect_error(store_update_seat(storage, "u", 0, &table.seats[0], error, sizeof error), error,
                 "table u: no such table");
    expect_error(store_finish_table(storage, "u", "{}", error, sizeof error), error,
                 "table u: no such table");
    cr_assert(store_finish_table(storage, "t", "{}", error, sizeof error), "%s", error);
    expect_error(store_finish_table(storage, "t", "{}", error, sizeof error), error,
                 "cannot finish table t: it is already over");
    table_collection collection = {0};
    expect_error(store_load_table(storage, "u", collect, &collection, error, sizeof error), error,
                 "no table u");
    store_move no_line = {.number = 0, .seat = 0, .line = NULL, .clock_left = -1};
    expect_error(store_append_move(storage, "t", &no_line, error, sizeof error), error, "no line");
    expect_error(store_append_move(storage, NULL, &no_line, error, sizeof error), error,
                 "no table id given");
    cr_assert_eq(collection.count, 0);
    store_close(storage);
}

/* A visitor that calls the store back (which would deadlock). */
typedef struct reentry_context {
    store *storage;
    char error[256];
} reentry_context;

static bool call_back(void *context, const store_table *table, const store_move *moves,
                      int move_count)
{
    (void)moves;
    reentry_context *reentry = context;
    store_move move = {.number = move_count, .seat = 0, .line = "x", .clock_left = -1};
    cr_assert(!store_append_move(reentry->storage, table->id, &move, reentry->error,
                                 sizeof reentry->error));
    return true;
}

BOTH_BACKENDS(a_visitor_calling_the_store_gets_an_error)
{
    store *storage = open_store(location(which, "reentry.db"));
    store_table table = make_table("t", 2, 1);
    create(storage, &table);
    reentry_context reentry = {.storage = storage};
    char error[256];
    cr_assert(store_load_tables(storage, false, call_back, &reentry, error, sizeof error), "%s",
              error);
    cr_assert(strstr(reentry.error, "inside a visit"), "%s", reentry.error);
    store_close(storage);
}

/* ---- files ---------------------------------------------------------------------------- */

static void expect_open_refused(const char *path, const char *fragment)
{
    char error[256] = "";
    store *storage = store_open(path, error, sizeof error);
    if (storage) store_close(storage);
    expect_error(storage != NULL, error, fragment);
    cr_assert(strstr(error, path), "\"%s\" names %s", error, path);
}

/* PRAGMA journal_mode of a SQLite file, read directly. */
static void expect_journal_mode(const char *path, const char *mode)
{
    sqlite3 *database;
    cr_assert_eq(sqlite3_open(path, &database), SQLITE_OK);
    sqlite3_stmt *statement;
    cr_assert_eq(sqlite3_prepare_v2(database, "PRAGMA journal_mode", -1, &statement, NULL),
                 SQLITE_OK);
    cr_assert_eq(sqlite3_step(statement), SQLITE_ROW);
    cr_assert_str_eq((const char *)sqlite3_column_text(statement, 0), mode);
    sqlite3_finalize(statement);
    sqlite3_close(database);
}

static void execute(const char *path, const char *sql)
{
    sqlite3 *database;
    cr_assert_eq(sqlite3_open(path, &database), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(database, sql, NULL, NULL, NULL), SQLITE_OK, "%s",
                 sqlite3_errmsg(database));
    sqlite3_close(database);
}

Test(store, files_that_are_not_gateau_databases_are_refused)
{
    const char *text = support_temp_path("notes.txt");
    support_write_file(text, "these are not the tables you are looking for\n");
    expect_open_refused(text, "file is not a database");
    char *kept = support_read_file(text);
    cr_assert_str_eq(kept, "these are not the tables you are looking for\n"); /* untouched */
    free(kept);

    const char *foreign = support_temp_path("foreign.db");
    execute(foreign, "CREATE TABLE people (name TEXT); INSERT INTO people VALUES ('Ada');");
    expect_open_refused(foreign, "not a gateau database");
    expect_journal_mode(foreign, "delete"); /* left as it was */

    const char *newer = support_temp_path("newer.db");
    store_close(open_store(newer));
    execute(newer, "PRAGMA user_version = 99");
    expect_open_refused(newer, "written by a newer gateau (schema version 99");

    expect_open_refused(support_temp_path("missing/store.db"), "no folder");
    expect_open_refused(support_temp_path(""), "it is a folder");
    const char *file = support_temp_path("plain");
    support_write_file(file, "x");
    expect_open_refused(support_temp_path("plain/store.db"), "is not a folder");

    /* An empty file (made by touch) is a new database. */
    const char *empty = support_temp_path("empty.db");
    support_write_file(empty, "");
    store_close(open_store(empty));
}

Test(store, a_new_database_is_marked_and_in_wal_mode)
{
    const char *path = support_temp_path("new.db");
    store_close(open_store(path));
    expect_journal_mode(path, "wal");
    sqlite3 *database;
    cr_assert_eq(sqlite3_open(path, &database), SQLITE_OK);
    sqlite3_stmt *statement;
    cr_assert_eq(sqlite3_prepare_v2(database, "PRAGMA user_version", -1, &statement, NULL),
                 SQLITE_OK);
    cr_assert_eq(sqlite3_step(statement), SQLITE_ROW);
    cr_assert_eq(sqlite3_column_int(statement, 0), 4, "the schema's version: its migrations");
    sqlite3_finalize(statement);
    sqlite3_close(database);
}

/* ---- a writer killed at a random moment ------------------------------------------------ */

static bool count_moves(void *context, const store_table *table, const store_move *moves,
                        int move_count)
{
    (void)table, (void)moves;
    *(int *)context = move_count;
    return true;
}

/* The child: appends moves to table "t" from where it stands, writing
 * each number to report after its append returned.  Never returns. */
static void append_until_killed(const char *path, int report)
{
    char error[256];
    store *storage = store_open(path, error, sizeof error);
    int next = 0;
    if (!storage || !store_load_table(storage, "t", count_moves, &next, error, sizeof error)) {
        fprintf(stderr, "%s\n", error);
        _exit(3);
    }
    for (int n = next; n < next + 1000000; n++) {
        char line[32];
        snprintf(line, sizeof line, "move %d", n);
        store_move move = {.number = n, .seat = n % 2, .line = line, .clock_left = n};
        if (!store_append_move(storage, "t", &move, error, sizeof error)) {
            fprintf(stderr, "%s\n", error);
            _exit(4);
        }
        if (write(report, &n, sizeof n) != sizeof n) _exit(5);
    }
    _exit(0);
}

/* Reads the child's reports for that many milliseconds (-1: until the
 * first one; 0: until the end of the pipe); the last number read goes in
 * last. */
static void read_reports(int fd, int milliseconds, int *last)
{
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    int first = *last;
    for (;;) {
        int left = -1;
        if (milliseconds > 0) {
            clock_gettime(CLOCK_MONOTONIC, &now);
            long elapsed =
                (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
            if (elapsed >= milliseconds) return;
            left = (int)(milliseconds - elapsed);
        }
        struct pollfd poller = {.fd = fd, .events = POLLIN};
        if (milliseconds != 0 && poll(&poller, 1, left) <= 0) continue;
        int numbers[256];
        ssize_t got = read(fd, numbers, sizeof numbers);
        if (got <= 0) return; /* the child is gone */
        /* Each report is written whole (4 bytes < PIPE_BUF), so reads
         * return whole numbers. */
        cr_assert_eq(got % (ssize_t)sizeof(int), 0);
        *last = numbers[got / (ssize_t)sizeof(int) - 1];
        if (milliseconds < 0 && *last != first) return;
    }
}

BOTH_BACKENDS(a_killed_writer_loses_no_committed_move)
{
    const char *path = location(which, "killed.db");
    store *storage = open_store(path);
    store_table table = make_table("t", 2, 1);
    create(storage, &table);
    store_close(storage);

    gateau_rng rng;
    gateau_rng_seed(&rng, 15);
    int last = -1;
    for (int round = 0; round < 8; round++) {
        int pipe_ends[2];
        cr_assert_eq(pipe(pipe_ends), 0);
        pid_t child = fork();
        cr_assert_geq(child, 0);
        if (child == 0) {
            close(pipe_ends[0]);
            append_until_killed(path, pipe_ends[1]);
        }
        close(pipe_ends[1]);
        /* From its first append on, the child is killed at a random
         * moment: inside an append, a checkpoint, between two. */
        int before = last;
        read_reports(pipe_ends[0], -1, &last);
        cr_assert_gt(last, before, "round %d: the child appended", round);
        read_reports(pipe_ends[0], 1 + (int)gateau_rng_below(&rng, 40), &last);
        kill(child, SIGKILL);
        read_reports(pipe_ends[0], 0, &last);
        close(pipe_ends[0]);
        int status;
        cr_assert_eq(waitpid(child, &status, 0), child);
        cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
                  "round %d: the child was killed (status %d)", round, status);

        storage = open_store(path);
        table_collection collection = {0};
        loaded_table loaded = load_one(storage, "t", &collection);
        /* Every reported move is there, maybe one more (killed between
         * its commit and its report), numbered without gaps. */
        cr_assert_geq(loaded.move_count, last + 1, "round %d: %d moves, %d reported", round,
                      loaded.move_count, last + 1);
        cr_assert_leq(loaded.move_count, last + 2, "round %d", round);
        for (int m = 0; m < loaded.move_count; m++) {
            char line[32];
            snprintf(line, sizeof line, "move %d", m);
            cr_assert_eq(loaded.moves[m].number, m);
            cr_assert_str_eq(loaded.moves[m].line, line);
        }
        last = loaded.move_count - 1; /* the next child goes on from there */
        free_collection(&collection);
        store_close(storage);
    }
}

/* ---- threads ------------------------------------------------------------------------ */

enum { THREADS = 4, THREAD_MOVES = 200 };

typedef struct thread_writer {
    store *storage;
    char table_id[16];
    int appended;
    char error[256];
} thread_writer;

static void *write_moves(void *argument)
{
    thread_writer *writer = argument;
    for (int n = 0; n < THREAD_MOVES; n++) {
        char line[32];
        snprintf(line, sizeof line, "%s %d", writer->table_id, n);
        store_move move = {.number = n, .seat = 0, .line = line, .clock_left = -1};
        char error[256];
        if (store_append_move(writer->storage, writer->table_id, &move, error, sizeof error))
            writer->appended++;
        else
            snprintf(writer->error, sizeof writer->error, "%s", error);
    }
    return NULL;
}

static void run_writers(thread_writer writers[THREADS])
{
    pthread_t threads[THREADS];
    for (int w = 0; w < THREADS; w++)
        cr_assert_eq(pthread_create(&threads[w], NULL, write_moves, &writers[w]), 0);
    for (int w = 0; w < THREADS; w++) pthread_join(threads[w], NULL);
}

BOTH_BACKENDS(threads_append_to_their_own_tables)
{
    store *storage = open_store(location(which, "threads.db"));
    thread_writer writers[THREADS];
    memset(writers, 0, sizeof writers);
    for (int w = 0; w < THREADS; w++) {
        writers[w].storage = storage;
        snprintf(writers[w].table_id, sizeof writers[w].table_id, "table%d", w % 100);
        store_table table = make_table(writers[w].table_id, 2, w);
        create(storage, &table);
    }
    run_writers(writers);
    for (int w = 0; w < THREADS; w++) {
        cr_assert_eq(writers[w].appended, THREAD_MOVES, "%s", writers[w].error);
        table_collection collection = {0};
        loaded_table loaded = load_one(storage, writers[w].table_id, &collection);
        cr_assert_eq(loaded.move_count, THREAD_MOVES);
        for (int m = 0; m < THREAD_MOVES; m++) {
            char line[32];
            snprintf(line, sizeof line, "table%d %d", w, m);
            cr_assert_str_eq(loaded.moves[m].line, line);
        }
        free_collection(&collection);
    }
    store_close(storage);
}

BOTH_BACKENDS(threads_racing_for_the_same_moves_never_both_win)
{
    store *storage = open_store(location(which, "race.db"));
    store_table table = make_table("shared", 2, 1);
    create(storage, &table);
    thread_writer writers[THREADS];
    memset(writers, 0, sizeof writers);
    for (int w = 0; w < THREADS; w++) {
        writers[w].storage = storage;
        snprintf(writers[w].table_id, sizeof writers[w].table_id, "shared");
    }
    run_writers(writers);
    int appended = 0;
    for (int w = 0; w < THREADS; w++) {
        appended += writers[w].appended;
        if (writers[w].error[0]) cr_assert(strstr(writers[w].error, "is already there"), "%s",
                                           writers[w].error);
    }
    cr_assert_eq(appended, THREAD_MOVES);
    table_collection collection = {0};
    cr_assert_eq(load_one(storage, "shared", &collection).move_count, THREAD_MOVES);
    free_collection(&collection);
    store_close(storage);
}

/* ---- SHA-256 ------------------------------------------------------------------------ */

static void expect_sha256(const void *data, size_t size, const char *hex)
{
    uint8_t hash[32];
    store_sha256(data, size, hash);
    char got[65];
    for (int i = 0; i < 32; i++) snprintf(got + 2 * i, 3, "%02x", hash[i]);
    cr_assert_str_eq(got, hex, "SHA-256 of %zu bytes", size);
}

/* FIPS 180-4's examples (and NIST's long message) and, for the padding's
 * edges (55, 56, 63, 64, ... bytes), runs of 'a' checked with sha256sum. */
Test(store, sha256_test_vectors)
{
    expect_sha256("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect_sha256("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two_blocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    expect_sha256(two_blocks, strlen(two_blocks),
                  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    const char *long_one = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                           "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
    expect_sha256(long_one, strlen(long_one),
                  "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");

    char *million = malloc(1000000);
    memset(million, 'a', 1000000);
    expect_sha256(million, 1000000,
                  "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    const struct {
        size_t size;
        const char *hex;
    } edges[] = {
        {55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
        {56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
        {63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
        {64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
        {65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"},
        {119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"},
        {120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"},
        {128, "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e"},
    };
    for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++)
        expect_sha256(million, edges[e].size, edges[e].hex);
    free(million);
}

Test(store, hash_equal)
{
    uint8_t a[32], b[32];
    store_sha256("token", 5, a);
    store_sha256("token", 5, b);
    cr_assert(store_hash_equal(a, b));
    for (int i = 0; i < 32; i += 31) { /* the first and the last byte */
        memcpy(b, a, 32);
        b[i] ^= 0x80;
        cr_assert(!store_hash_equal(a, b), "byte %d differs", i);
    }
    store_sha256("tokem", 5, b);
    cr_assert(!store_hash_equal(a, b));
}

/* Commits do not checkpoint (a checkpoint syncs the disk, milliseconds
 * inside somebody's move): a thread of the store's own does, once the
 * -wal file holds enough pages.  Seen from outside: the database file
 * itself grows while the store is open, though no commit checkpoints. */
Test(store, checkpoints_run_beside_the_commits)
{
    const char *path = support_temp_path("checkpoints.db");
    store *storage = open_store(path);
    store_table table = make_table("t", 2, 1);
    create(storage, &table);
    struct stat before;
    cr_assert_eq(stat(path, &before), 0);
    for (int m = 0; m < 3000; m++) append(storage, "t", m, m % 2, "a move of a few words");
    struct stat now = before;
    for (int polls = 0; polls < 10000 && now.st_size == before.st_size; polls++) {
        nanosleep(&(struct timespec){0, 1000000}, NULL);
        cr_assert_eq(stat(path, &now), 0);
    }
    cr_assert_gt(now.st_size, before.st_size, "the pages were copied into the database");
    store_close(storage);
}

/* ---- PostgreSQL only: several processes on one database ----------------------------- */

/* Two stores on one database are two connections, as two servers'
 * would be: racing for the same moves, the database lets one win each. */
Test(store, two_connections_racing_for_the_same_moves_never_both_win)
{
    const char *url = location(POSTGRES, "connections");
    store *first = open_store(url), *second = open_store(url);
    store_table table = make_table("shared", 2, 1);
    create(first, &table);
    thread_writer writers[THREADS];
    memset(writers, 0, sizeof writers);
    for (int w = 0; w < THREADS; w++) {
        writers[w].storage = w % 2 ? second : first;
        snprintf(writers[w].table_id, sizeof writers[w].table_id, "shared");
    }
    run_writers(writers);
    int appended = 0;
    for (int w = 0; w < THREADS; w++) {
        appended += writers[w].appended;
        if (writers[w].error[0]) cr_assert(strstr(writers[w].error, "is already there"), "%s",
                                           writers[w].error);
    }
    cr_assert_eq(appended, THREAD_MOVES);
    table_collection collection = {0};
    loaded_table loaded = load_one(second, "shared", &collection);
    cr_assert_eq(loaded.move_count, THREAD_MOVES);
    for (int m = 0; m < THREAD_MOVES; m++) cr_assert_eq(loaded.moves[m].number, m);
    free_collection(&collection);
    store_close(first);
    store_close(second);
}

/* What a watcher was told. */
typedef struct change_log {
    pthread_mutex_t lock;
    char lines[64][48];
    int count;
} change_log;

static void note_change(void *context, const char *table_id, int version)
{
    change_log *log = context;
    pthread_mutex_lock(&log->lock);
    if (log->count < 64)
        snprintf(log->lines[log->count++], sizeof log->lines[0], "%s %d", table_id, version);
    pthread_mutex_unlock(&log->lock);
}

/* Waits until the log holds line (or a generous while passes). */
static bool wait_for_change(change_log *log, const char *line)
{
    for (int polls = 0; polls < 3000; polls++) {
        pthread_mutex_lock(&log->lock);
        bool found = false;
        for (int l = 0; l < log->count && !found; l++) found = !strcmp(log->lines[l], line);
        pthread_mutex_unlock(&log->lock);
        if (found) return true;
        nanosleep(&(struct timespec){0, 10000000}, NULL);
    }
    return false;
}

Test(store, a_watcher_hears_of_every_change_from_any_connection)
{
    const char *url = location(POSTGRES, "watched");
    store *watched = open_store(url), *other = open_store(url);
    cr_assert(store_is_shared(watched));
    change_log log = {.lock = PTHREAD_MUTEX_INITIALIZER};
    char error[256];
    cr_assert(store_watch(watched, note_change, &log, error, sizeof error), "%s", error);
    store_table table = make_table("w", 2, 1);
    create(other, &table);
    append(other, "w", 0, GATEAU_CHANCE, "deal");
    append(other, "w", 1, 0, "cut");
    cr_assert(wait_for_change(&log, "w 1"));
    cr_assert(wait_for_change(&log, "w 2"));
    cr_assert(store_update_seat(other, "w", 1, &table.seats[1], error, sizeof error), "%s", error);
    cr_assert(wait_for_change(&log, "w -1"));
    append(watched, "w", 2, 1, "mine too");
    cr_assert(wait_for_change(&log, "w 3"));
    store_close(other);
    store_close(watched);

    /* A SQLite file has no other writer: nothing to watch. */
    store *file = open_store(location(SQLITE, "unwatched.db"));
    cr_assert(!store_is_shared(file));
    cr_assert(store_watch(file, note_change, &log, error, sizeof error), "%s", error);
    store_close(file);
}

/* SQL run straight on a test database. */
static void postgres_execute(const char *url, const char *sql)
{
    PGconn *connection = PQconnectdb(url);
    cr_assert_eq(PQstatus(connection), CONNECTION_OK, "%s", PQerrorMessage(connection));
    PGresult *result = PQexec(connection, sql);
    cr_assert_eq(PQresultStatus(result), PGRES_COMMAND_OK, "%s", PQerrorMessage(connection));
    PQclear(result);
    PQfinish(connection);
}

Test(store, databases_that_are_not_gateau_ones_are_refused)
{
    const char *foreign = location(POSTGRES, "foreign_tables");
    postgres_execute(foreign, "CREATE TABLE moves (knight TEXT)");
    char error[256] = "";
    cr_assert_null(store_open(foreign, error, sizeof error));
    cr_assert(strstr(error, "not a gateau database"), "%s", error);

    const char *newer = location(POSTGRES, "newer_schema");
    store_close(open_store(newer));
    postgres_execute(newer, "UPDATE gateau_schema SET version = 99");
    cr_assert_null(store_open(newer, error, sizeof error));
    cr_assert(strstr(error, "written by a newer gateau (schema version 99"), "%s", error);

    /* No such server: one line naming it, the password not shown. */
    const char *nowhere = "postgresql://someone:secret@127.0.0.1:1/gateau?connect_timeout=5";
    cr_assert_null(store_open(nowhere, error, sizeof error));
    cr_assert(strstr(error, "cannot open postgresql://someone:***@127.0.0.1:1"), "%s", error);
    cr_assert_null(strstr(error, "secret"), "%s", error);
    cr_assert_null(strchr(error, '\n'), "%s", error);
}

/* ---- what an operator asks, and expiry -------------------------------------------------- */

typedef struct summaries {
    store_summary tables[8];
    int count;
} summaries;

static bool collect_summary(void *context, const store_summary *table)
{
    summaries *list = context;
    cr_assert_lt(list->count, 8);
    list->tables[list->count++] = *table;
    return true;
}

static summaries list_tables(store *storage, bool unfinished_only)
{
    summaries list = {0};
    char error[256];
    cr_assert(store_list_tables(storage, unfinished_only, collect_summary, &list, error,
                                sizeof error),
              "%s", error);
    return list;
}

/* Whether the delete went: the call itself must succeed. */
static bool delete_if_idle(store *storage, const char *table_id, int64_t idle_before)
{
    char error[256];
    bool deleted;
    cr_assert(store_delete_table(storage, table_id, idle_before, &deleted, error, sizeof error),
              "%s", error);
    return deleted;
}

/* Expiry ends a table rather than deleting it: only an unfinished one
 * idle since before the time given; its rows stay, over, with the result
 * given (which a load reads back); once over it ends no more. */
BOTH_BACKENDS(idle_tables_end_with_a_result)
{
    store *storage = open_store(location(which, "ending.db"));
    store_table table = make_table("idle", 2, 100);
    create(storage, &table);
    append(storage, "idle", 0, -1, "deal");
    table = make_table("done", 2, 100);
    create(storage, &table);
    char error[256];
    cr_assert(store_finish_table(storage, "done", "{\"scores\":[1,2]}", error, sizeof error),
              "%s", error);
    static const char why[] = "{\"ended\":\"expired: no move for at least 30 days\"}";
    bool expired = true;
    cr_assert(store_expire_table(storage, "idle", 1000, why, &expired, error, sizeof error), "%s",
              error);
    cr_assert(!expired, "moved just now");
    cr_assert(store_set_last_move_time(storage, "idle", 500, error, sizeof error), "%s", error);
    cr_assert(store_set_last_move_time(storage, "done", 500, error, sizeof error), "%s", error);
    cr_assert(store_expire_table(storage, "idle", 500, why, &expired, error, sizeof error), "%s",
              error);
    cr_assert(!expired, "not before 500");
    cr_assert(store_expire_table(storage, "done", 1000, why, &expired, error, sizeof error), "%s",
              error);
    cr_assert(!expired, "a finished table never expires");
    cr_assert(store_expire_table(storage, "idle", 501, why, &expired, error, sizeof error), "%s",
              error);
    cr_assert(expired);
    cr_assert(store_expire_table(storage, "idle", 501, why, &expired, error, sizeof error), "%s",
              error);
    cr_assert(!expired, "once");
    table_collection collection = {0};
    cr_assert(store_load_table(storage, "idle", collect, &collection, error, sizeof error), "%s",
              error);
    cr_assert(collection.tables[0].table.over);
    cr_assert_str_eq(collection.tables[0].table.result, why);
    cr_assert_eq(collection.tables[0].move_count, 1, "its moves kept");
    cr_assert(store_load_table(storage, "done", collect, &collection, error, sizeof error), "%s",
              error);
    cr_assert_str_eq(collection.tables[1].table.result, "{\"scores\":[1,2]}");
    expect_error(store_expire_table(storage, "nosuch", 501, why, &expired, error, sizeof error),
                 error, "no table nosuch");
    cr_assert_eq(list_tables(storage, true).count, 0, "neither is unfinished");
    free_collection(&collection);
    store_close(storage);
}

/* Decks by name in a shared database (PostgreSQL); kept once (a second
 * put of the same name changes nothing); a SQLite database keeps its
 * decks as files beside it and refuses both. */
BOTH_BACKENDS(decks_are_kept_by_name_in_a_shared_database)
{
    store *storage = open_store(location(which, "decks.db"));
    char error[256], *content = (char *)"x";
    const char *name = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.deck";
    if (which == SQLITE) {
        expect_error(store_put_deck(storage, name, "text", error, sizeof error), error,
                     "decks are files beside a SQLite database");
        expect_error(store_get_deck(storage, name, &content, error, sizeof error), error,
                     "decks are files beside a SQLite database");
        cr_assert_null(content);
        store_close(storage);
        return;
    }
    expect_error(store_get_deck(storage, name, &content, error, sizeof error), error, "no deck");
    cr_assert(store_put_deck(storage, name, "card R1\n", error, sizeof error), "%s", error);
    cr_assert(store_put_deck(storage, name, "something else", error, sizeof error), "%s", error);
    cr_assert(store_get_deck(storage, name, &content, error, sizeof error), "%s", error);
    cr_assert_str_eq(content, "card R1\n", "the first kept stays");
    free(content);
    store_close(storage);
}

/* libpq's messages about a connection, as logged: where the server is
 * (host, address, port, socket) is hidden, the rest kept. */
Test(store, connection_messages_hide_where_the_server_is)
{
    static const char *const cases[][2] = {
        {"connection to server at \"db.example.org\" (10.0.0.5), port 5432 failed: Connection "
         "refused",
         "connection to server at *** (***), port *** failed: Connection refused"},
        {"connection to server on socket \"/run/postgresql/.s.PGSQL.5432\" failed: No such file "
         "or directory",
         "connection to server on socket *** failed: No such file or directory"},
        {"could not translate host name \"db.example.org\" to address: Name or service not known",
         "could not translate host name *** to address: Name or service not known"},
        {"server closed the connection unexpectedly",
         "server closed the connection unexpectedly"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        char line[256];
        snprintf(line, sizeof line, "%s", cases[c][0]);
        store_hide_addresses(line);
        cr_assert_str_eq(line, cases[c][1]);
    }
}

BOTH_BACKENDS(tables_are_listed_timed_and_deleted)
{
    store *storage = open_store(location(which, "operator.db"));
    int64_t before = (int64_t)time(NULL);
    store_table table = make_table("played", 2, 100);
    create(storage, &table);
    append(storage, "played", 0, -1, "deal");
    append(storage, "played", 1, 0, "take 1");
    table = make_table("empty", 2, 200);
    create(storage, &table);
    table = make_table("done", 2, 300);
    create(storage, &table);
    append(storage, "done", 0, -1, "deal");
    char error[256];
    cr_assert(store_finish_table(storage, "done", "{}", error, sizeof error), "%s", error);
    int64_t after = (int64_t)time(NULL);

    summaries list = list_tables(storage, false);
    cr_assert_eq(list.count, 3);
    cr_assert_str_eq(list.tables[0].id, "played");
    cr_assert_eq(list.tables[0].moves, 2);
    cr_assert_eq(list.tables[0].players, 2);
    cr_assert_str_eq(list.tables[0].game, "piece-o-cake");
    cr_assert_str_eq(list.tables[0].options, "rounds=2");
    cr_assert(!list.tables[0].over);
    /* A move's time is when it was stored; a table without one has its creation. */
    cr_assert(list.tables[0].last_move >= before && list.tables[0].last_move <= after);
    cr_assert_eq(list.tables[1].moves, 0);
    cr_assert_eq(list.tables[1].last_move, 200);
    cr_assert(list.tables[2].over);
    cr_assert_eq(list_tables(storage, true).count, 2);

    /* Expiry: only an unfinished table idle since before the time given. */
    cr_assert(!delete_if_idle(storage, "played", 1000), "moved just now");
    cr_assert(store_set_last_move_time(storage, "played", 500, error, sizeof error), "%s", error);
    cr_assert(store_set_last_move_time(storage, "done", 500, error, sizeof error), "%s", error);
    cr_assert(store_set_last_move_time(storage, "empty", 700, error, sizeof error), "%s", error);
    list = list_tables(storage, false); /* (by creation: empty's is 700 now) */
    cr_assert_str_eq(list.tables[1].id, "done");
    cr_assert_eq(list.tables[0].last_move, 500);
    cr_assert_eq(list.tables[1].last_move, 500);
    cr_assert_eq(list.tables[2].last_move, 700);
    cr_assert(!delete_if_idle(storage, "played", 500), "not before 500");
    cr_assert(!delete_if_idle(storage, "done", 1000), "a finished table never expires");
    cr_assert(delete_if_idle(storage, "played", 501));
    cr_assert(!delete_if_idle(storage, "empty", 700));
    cr_assert(delete_if_idle(storage, "empty", 701));
    table_collection collection = {0};
    expect_error(store_load_table(storage, "played", collect, &collection, error, sizeof error),
                 error, "no table played");
    list = list_tables(storage, false);
    cr_assert_eq(list.count, 1);
    cr_assert_str_eq(list.tables[0].id, "done");

    /* An operator's delete takes any table; a missing one is an error. */
    cr_assert(delete_if_idle(storage, "done", -1));
    bool deleted = true;
    expect_error(store_delete_table(storage, "done", -1, &deleted, error, sizeof error), error,
                 "no table done");
    cr_assert(!deleted);
    expect_error(store_set_last_move_time(storage, "done", 1, error, sizeof error), error,
                 "no table done");
    cr_assert_eq(list_tables(storage, false).count, 0);
    /* The id is free again, and its old moves are gone with it. */
    table = make_table("played", 2, 100);
    create(storage, &table);
    append(storage, "played", 0, -1, "deal again");
    store_close(storage);
}

BOTH_BACKENDS(options_are_replaced)
{
    store *storage = open_store(location(which, "options.db"));
    store_table table = make_table("t", 2, 100);
    create(storage, &table);
    char error[256];
    cr_assert(store_set_options(storage, "t", "deck=abc.deck", error, sizeof error), "%s", error);
    table_collection collection = {0};
    cr_assert_str_eq(load_one(storage, "t", &collection).table.options, "deck=abc.deck");
    free_collection(&collection);
    expect_error(store_set_options(storage, "none", "x=1", error, sizeof error), error,
                 "no table none");
    store_close(storage);
}

/* A database of schema version 1 (no time of moves) as it was: the
 * moves of its unfinished tables count as stored at the upgrade, so that
 * no game in play expires at once; a finished one keeps its creation. */
BOTH_BACKENDS(a_database_from_before_the_time_of_moves_is_upgraded)
{
    const char *path = location(which, "version1.db");
    store *storage = open_store(path);
    store_table table = make_table("playing", 2, 100);
    create(storage, &table);
    append(storage, "playing", 0, -1, "deal");
    table = make_table("ended", 2, 200);
    create(storage, &table);
    append(storage, "ended", 0, -1, "deal");
    char error[256];
    cr_assert(store_finish_table(storage, "ended", "{}", error, sizeof error), "%s", error);
    store_close(storage);
    if (which == SQLITE)
        execute(path, "ALTER TABLE moves DROP COLUMN played; DROP TABLE chat; DROP TABLE reviews;"
                      " ALTER TABLE tables DROP COLUMN host; ALTER TABLE tables DROP COLUMN rematch;"
                      " PRAGMA user_version = 1;");
    else
        postgres_execute(path, "ALTER TABLE moves DROP COLUMN played; DROP TABLE decks;"
                               " DROP TABLE chat; DROP TABLE reviews; ALTER TABLE tables DROP COLUMN host;"
                               " ALTER TABLE tables DROP COLUMN rematch;"
                               " UPDATE gateau_schema SET version = 1");

    int64_t before = (int64_t)time(NULL);
    storage = open_store(path);
    summaries list = list_tables(storage, false);
    cr_assert_eq(list.count, 2);
    cr_assert(list.tables[0].last_move >= before, "%lld", (long long)list.tables[0].last_move);
    cr_assert_eq(list.tables[1].last_move, 200);
    append(storage, "playing", 1, 0, "take 1");
    cr_assert_eq(list_tables(storage, true).tables[0].moves, 2);
    store_close(storage);
}

Test(store, a_stored_table_as_a_record)
{
    store_table table = make_table("t", 2, 100);
    store_move moves[] = {{.number = 0, .seat = GATEAU_CHANCE, .line = "deal"},
                          {.number = 1, .seat = 1, .line = "take 1"}};
    char *text = store_record_text(&table, moves, 2);
    cr_assert_str_eq(text, "game: piece-o-cake\nplayers: 2\noptions: rounds=2\n---\ndeal\n"
                           "2: take 1\n");
    free(text);
}

/* ---- The store tells the truth (docs/server.md, "When the store fails") ---------------- */

/* A second store on one SQLite file (a second server) is refused while
 * the first is open, with one line naming the file and its holder. */
Test(store, a_second_store_on_one_file_is_refused)
{
    const char *path = support_temp_path("held.db");
    store *first = open_store(path);
    char error[256] = "";
    store *second = store_open(path, error, sizeof error);
    if (second) store_close(second);
    expect_error(second != NULL, error, "is in use by another gateau process (pid ");
    cr_assert(strstr(error, path), "%s", error);
    store_close(first);
    store_close(open_store(path)); /* free again once the first is closed */
}

/* A file deleted (or replaced) under an open store: no write goes to the
 * ghost; each says so. */
Test(store, a_deleted_file_is_noticed)
{
    const char *path = support_temp_path("deleted.db");
    store *storage = open_store(path);
    store_table table = make_table("t", 2, 1);
    create(storage, &table);
    append(storage, "t", 0, 0, "first");
    cr_assert_eq(unlink(path), 0);
    char error[256];
    store_move move = {.number = 1, .seat = 1, .line = "second", .clock_left = -1};
    expect_error(store_append_move(storage, "t", &move, error, sizeof error), error,
                 "was deleted or replaced while in use");
    store_table other = make_table("u", 2, 1);
    expect_error(store_create_table(storage, &other, error, sizeof error), error,
                 "was deleted or replaced");
    store_close(storage);
}

/* Fewer tables or moves than the store counted (rows lost with a -wal
 * file deleted after a crash, say) are reported at the next open; a
 * file as it was left is not. */
Test(store, lost_tables_are_reported_at_open)
{
    const char *path = support_temp_path("lost.db");
    store *storage = open_store(path);
    for (int t = 0; t < 3; t++) {
        char id[16];
        snprintf(id, sizeof id, "t%d", t);
        store_table table = make_table(id, 2, 1);
        create(storage, &table);
        append(storage, id, 0, 0, "first");
    }
    store_close(storage);
    storage = open_store(path);
    cr_assert_null(store_warning(storage), "%s", store_warning(storage));
    store_close(storage);
    execute(path, "DELETE FROM moves WHERE table_id = 't2'; DELETE FROM seats WHERE table_id = "
                  "'t2'; DELETE FROM tables WHERE id = 't2'");
    storage = open_store(path);
    const char *warning = store_warning(storage);
    cr_assert(warning && strstr(warning, "has 2 tables and 2 moves, but had at least 3 and 3"),
              "%s", warning ? warning : "(no warning)");
    store_close(storage);
}

/* Many moves leave a -wal file of bounded size (checkpoints that restart
 * it, journal_size_limit), and a quiet store truncates it. */
Test(store, the_wal_stays_bounded)
{
    const char *path = support_temp_path("wal.db");
    char wal[512];
    snprintf(wal, sizeof wal, "%s-wal", path);
    store *storage = open_store(path);
    store_table table = make_table("t", 2, 1);
    create(storage, &table);
    char line[600];
    memset(line, 'x', sizeof line - 1);
    line[sizeof line - 1] = '\0';
    off_t largest = 0;
    struct stat file;
    /* 10,000 commits: at least a 4 KB page each, 41 MB of -wal unbounded. */
    for (int m = 0; m < 10000; m++) {
        append(storage, "t", m, m % 2, line);
        if (m % 500 == 0 && stat(wal, &file) == 0 && file.st_size > largest)
            largest = file.st_size;
    }
    cr_assert_lt(largest, 32 << 20, "the -wal grew to %lld bytes", (long long)largest);
    bool truncated = false;
    /* (Bounded: 20 s, for a sanitizer build on a busy host, where the
     * appends above may still be committing.) */
    for (int polls = 0; polls < 400 && !truncated; polls++) {
        nanosleep(&(struct timespec){0, 50000000}, NULL);
        truncated = stat(wal, &file) == 0 && file.st_size == 0;
    }
    cr_assert(truncated, "a quiet store truncates its -wal");
    store_close(storage);
}

static void note_damage(void *context, const char *table_id, const char *reason)
{
    snprintf(context, 256, "%s: %s", table_id, reason);
}

/* A table with a damaged row (a seat missing) is skipped by a load that
 * asked so (store_on_damage: the server's start), and told; the others
 * load.  Without it, the load fails as before. */
BOTH_BACKENDS(a_damaged_table_is_skipped_and_told)
{
    const char *path = location(which, "damaged.db");
    store *storage = open_store(path);
    store_table first = make_table("a", 2, 1), second = make_table("b", 2, 2);
    create(storage, &first);
    create(storage, &second);
    store_close(storage);
    if (which == SQLITE) execute(path, "DELETE FROM seats WHERE table_id = 'a' AND seat = 1");
    else postgres_execute(path, "DELETE FROM seats WHERE table_id = 'a' AND seat = 1");
    storage = open_store(path);
    table_collection collection = {0};
    char error[256], told[256] = "";
    cr_assert(!store_load_tables(storage, true, collect, &collection, error, sizeof error));
    free_collection(&collection);
    store_on_damage(storage, note_damage, told);
    cr_assert(store_load_tables(storage, true, collect, &collection, error, sizeof error), "%s",
              error);
    cr_assert_eq(collection.count, 1);
    cr_assert_str_eq(collection.tables[0].table.id, "b");
    cr_assert(strstr(told, "a: store: table a: damaged seats"), "%s", told);
    free_collection(&collection);
    store_close(storage);
}

/* A move waits at most the lock timeout behind another transaction's
 * lock (PostgreSQL), then fails with the reason. */
Test(store, a_locked_table_fails_in_seconds_postgres)
{
    const char *url = location(POSTGRES, "locked");
    store *storage = open_store(url);
    store_table table = make_table("t", 2, 1);
    create(storage, &table);
    PGconn *holder = PQconnectdb(url);
    cr_assert_eq(PQstatus(holder), CONNECTION_OK, "%s", PQerrorMessage(holder));
    PGresult *result = PQexec(holder, "BEGIN; LOCK TABLE moves IN ACCESS EXCLUSIVE MODE");
    cr_assert_eq(PQresultStatus(result), PGRES_COMMAND_OK, "%s", PQerrorMessage(holder));
    PQclear(result);
    char error[256];
    store_move move = {.number = 0, .seat = 0, .line = "first", .clock_left = -1};
    expect_error(store_append_move(storage, "t", &move, error, sizeof error), error,
                 "lock timeout");
    PQfinish(holder);
    append(storage, "t", 0, 0, "first"); /* and then it goes on */
    store_close(storage);
}

/* Tables deleted (expiry, `gateau tables delete`) are no lost tables: the
 * lock file's counts follow the delete, even when the process then dies
 * without closing the store. */
Test(store, deleted_tables_are_not_reported_lost)
{
    const char *path = support_temp_path("deleted.db");
    store *storage = open_store(path);
    for (int t = 0; t < 2; t++) {
        char id[16];
        snprintf(id, sizeof id, "t%d", t);
        store_table table = make_table(id, 2, 100 + t);
        create(storage, &table);
        append(storage, id, 0, -1, "deal");
    }
    store_close(storage);
    pid_t child = fork();
    cr_assert_geq(child, 0);
    if (child == 0) {
        char error[256];
        bool deleted = false;
        store *mine = store_open(path, error, sizeof error);
        bool done = mine && store_delete_table(mine, "t0", -1, &deleted, error, sizeof error);
        _exit(done && deleted ? 0 : 1); /* (as a kill would: no store_close) */
    }
    int status;
    cr_assert_eq(waitpid(child, &status, 0), child);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    storage = open_store(path);
    cr_assert_null(store_warning(storage), "%s", store_warning(storage));
    cr_assert_eq(list_tables(storage, false).count, 1);
    store_close(storage);
}
