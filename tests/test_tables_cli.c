/*
 * test_tables_cli.c: `gateau tables list|show|delete|expire|backup --db` on a
 * SQLite file and a PostgreSQL database (docs/server.md): what each
 * prints, and a one-line error with a non-zero exit for a bad id, a bad
 * database or bad arguments.  The tables are written through the store,
 * their times set in the past through it too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "gateau/record.h"
#include "gateau/rng.h"
#include "postgres_server.h"
#include "store/store.h"
#include "support.h"

TestSuite(tables_cli, .init = support_temp_setup, .fini = support_temp_teardown, .timeout = 120);

POSTGRES_SERVER_START_HOOK()
POSTGRES_SERVER_STOP_HOOK()

/* A Mice Cake table of two stored with the moves of a random game (all
 * of it when finished, else its first half). */
static void store_game(store *storage, const char *id, bool finished, uint64_t seed)
{
    gateau_setup *setup = support_setup("mice-cake", 2, NULL);
    gateau_record *record = gateau_record_new(setup);
    gateau_rng rng;
    gateau_rng_seed(&rng, seed);
    support_play_out(record, &rng);
    store_table table = {.players = 2, .created = (int64_t)time(NULL), .seed = seed};
    snprintf(table.id, sizeof table.id, "%s", id);
    snprintf(table.game, sizeof table.game, "mice-cake");
    snprintf(table.seats[0].spec, sizeof table.seats[0].spec, "human");
    snprintf(table.seats[0].name, sizeof table.seats[0].name, "Ann");
    snprintf(table.seats[1].spec, sizeof table.seats[1].spec, "random");
    char error[256];
    cr_assert(store_create_table(storage, &table, error, sizeof error), "%s", error);
    int count = gateau_record_move_count(record);
    if (!finished) count /= 2;
    for (int m = 0; m < count; m++) {
        store_move move = {.number = m, .seat = gateau_record_move_seat(record, m),
                           .line = gateau_record_move_text(record, m), .clock_left = -1};
        cr_assert(store_append_move(storage, id, &move, error, sizeof error), "%s", error);
    }
    if (finished) cr_assert(store_finish_table(storage, id, "{}", error, sizeof error), "%s", error);
    gateau_record_free(record);
    gateau_setup_free(setup);
}

static store *open_store(const char *path)
{
    char error[256];
    store *storage = store_open(path, error, sizeof error);
    cr_assert_not_null(storage, "%s", error);
    return storage;
}

static void make_old(const char *db, const char *id, int days)
{
    store *storage = open_store(db);
    char error[256];
    cr_assert(store_set_last_move_time(storage, id, (int64_t)time(NULL) - days * 86400 - 60,
                                       error, sizeof error),
              "%s", error);
    store_close(storage);
}

/* The line of `tables list` about id, or NULL. */
static const char *line_of(const char *listing, const char *id)
{
    for (const char *line = listing; line && *line; line = strchr(line, '\n') + 1) {
        if (!strncmp(line, id, strlen(id)) && line[strlen(id)] == ' ') return line;
        if (!strchr(line, '\n')) break;
    }
    return NULL;
}

static void every_command(const char *db)
{
    store *storage = open_store(db);
    store_game(storage, "playing", false, 1);
    store_game(storage, "finished", true, 2);
    store_game(storage, "idle", false, 3);
    store_close(storage);

    char *listing = support_run_expect(0, "tables list --db '%s'", db);
    cr_assert(strstr(listing, "id ") == listing, "a header first: %s", listing);
    const char *line = line_of(listing, "playing");
    cr_assert_not_null(line, "%s", listing);
    cr_assert(strstr(line, "mice-cake") && strstr(line, "playing"), "%s", line);
    char year[16];
    time_t now = time(NULL);
    strftime(year, sizeof year, " %Y-", gmtime(&now));
    cr_assert(strstr(line, year), "the last move's time: %s", line);
    line = line_of(listing, "finished");
    cr_assert(line && strstr(line, "over"), "%s", listing);
    free(listing);

    /* show: the record, its names too; it replays. */
    char *record = support_run_expect(0, "tables show playing --db '%s'", db);
    cr_assert(strstr(record, "game: mice-cake"), "%s", record);
    cr_assert(strstr(record, "Ann"), "%s", record);
    const char *file = support_temp_path("shown.txt");
    support_write_file(file, record);
    free(record);
    free(support_run_expect(0, "replay '%s'", file));

    /* expire: only unfinished tables idle for the days given. */
    make_old(db, "idle", 10);
    make_old(db, "finished", 100);
    char *said = support_run_expect(0, "tables expire --days 11 --db '%s'", db);
    cr_assert(strstr(said, "Expired 0 tables without a move for 11 days."), "%s", said);
    free(said);
    said = support_run_expect(0, "tables expire --days 9 --db '%s'", db);
    cr_assert(strstr(said, "Expired 1 table without a move for 9 days."), "%s", said);
    free(said);
    /* (ended, its rows kept) */
    listing = support_run_expect(0, "tables list --db '%s'", db);
    line = line_of(listing, "idle");
    cr_assert(line && strstr(line, "ended"), "%s", listing);
    line = line_of(listing, "finished");
    cr_assert(line && strstr(line, " over"), "a game that ended as games do: %s", listing);
    /* show says why, in a comment: the record still replays. */
    char *ended = support_run_expect(0, "tables show idle --db '%s'", db);
    cr_assert(strstr(ended, "\n# ended before the game did: expired: no move for at least 9 "
                            "days\n"), "%s", ended);
    support_write_file(file, ended);
    free(ended);
    free(support_run_expect(0, "replay '%s'", file));
    cr_assert_not_null(line_of(listing, "finished"), "%s", listing);
    free(listing);
    said = support_run_expect(0, "tables expire --days 9 --db '%s'", db);
    cr_assert(strstr(said, "Expired 0 tables"), "an ended table ends once: %s", said);
    free(said);

    /* delete: any table; a missing one is an error. */
    said = support_run_expect(0, "tables delete finished --db '%s'", db);
    cr_assert(strstr(said, "Deleted table finished."), "%s", said);
    free(said);
    listing = support_run_expect(0, "tables list --db '%s'", db);
    cr_assert_null(line_of(listing, "finished"), "%s", listing);
    cr_assert_not_null(line_of(listing, "playing"), "%s", listing);
    free(listing);

    char arguments[1024];
    snprintf(arguments, sizeof arguments, "tables delete finished --db '%s'", db);
    support_expect_error(arguments, 1, "tables delete: no table finished");
    snprintf(arguments, sizeof arguments, "tables show nosuch --db '%s'", db);
    support_expect_error(arguments, 1, "tables show: no table nosuch");
    snprintf(arguments, sizeof arguments, "tables show playing idle --db '%s'", db);
    support_expect_error(arguments, 2, "one table at a time");
}

Test(tables_cli, every_command_sqlite) { every_command(support_temp_path("tables.db")); }

Test(tables_cli, every_command_postgres)
{
    postgres_server_require();
    every_command(postgres_server_database("tables_cli"));
}

Test(tables_cli, bad_databases_and_arguments)
{
    support_expect_error("tables list --db /nonexistent/gateau.db", 1,
                         "tables list: no database /nonexistent/gateau.db");
    cr_assert(!support_file_exists("/nonexistent/gateau.db"));
    const char *missing = support_temp_path("missing.db");
    char arguments[1024];
    snprintf(arguments, sizeof arguments, "tables list --db '%s'", missing);
    support_expect_error(arguments, 1, "no database");
    cr_assert(!support_file_exists(missing), "never made anew");
    const char *text = support_temp_path("notes.txt");
    support_write_file(text, "not a database at all, but long enough to be read as one...\n");
    snprintf(arguments, sizeof arguments, "tables list --db '%s'", text);
    support_expect_error(arguments, 1, "tables list: store: cannot open");
    support_expect_error("tables list --db postgresql://someone:secret@127.0.0.1:1/gateau"
                         "?connect_timeout=5",
                         1, "someone:***@127.0.0.1:1");

    /* A SQLite database a server has open: a write is refused, naming
     * its holder (reading: reading_works_beside_a_running_server...). */
    const char *held = support_temp_path("held.db");
    char error[256];
    store *server = store_open(held, error, sizeof error);
    cr_assert_not_null(server, "%s", error);
    snprintf(arguments, sizeof arguments, "tables delete nosuch --db '%s'", held);
    support_expect_error(arguments, 1, "is in use by another gateau process (pid");
    store_close(server);
    free(support_run_expect(0, "tables list --db '%s'", held));

    support_expect_error("tables", 2, "usage: gateau tables");
    support_expect_error("tables list", 2, "--db FILE|URL: which database?");
    support_expect_error("tables burn --db x.db", 2, "usage: gateau tables");
    support_expect_error("tables show --db x.db", 2, "which table?");
    support_expect_error("tables list playing --db x.db", 2, "takes no table id");
    support_expect_error("tables expire --days 0 --db x.db", 2, "--days");
    support_expect_error("tables expire --days --db x.db", 2, "--days");
    support_expect_error("tables list --days 3 --db x.db", 2, "--days is for expire");
    support_expect_error("tables list --db", 2, "--db needs a value");
    support_expect_error("tables list --all --db x.db", 2, "unknown option '--all'");
}

/* ---- beside a running server -------------------------------------------------------------- */

/*
 * While "a server" (this process, holding the store's lock and writing)
 * has a SQLite database open: list and show read it, up to the last
 * committed move; delete and expire are refused with one line that says
 * a server holds the file and what to do, and change nothing.
 */
Test(tables_cli, reading_works_beside_a_running_server_and_writes_are_refused)
{
    const char *db = support_temp_path("held.db");
    store *server = open_store(db);
    store_game(server, "playing", false, 6);
    store_game(server, "finished", true, 7);

    char *listing = support_run_expect(0, "tables list --db '%s'", db);
    const char *line = line_of(listing, "playing");
    cr_assert(line && strstr(line, "playing"), "%s", listing);
    cr_assert(line_of(listing, "finished"), "%s", listing);
    int moves = 0;
    cr_assert_eq(sscanf(line, "playing mice-cake %*d %d", &moves), 1, "%s", line);
    free(listing);
    /* The server goes on writing: the next listing sees its commit. */
    char error[256];
    gateau_setup *setup = support_setup("mice-cake", 2, NULL);
    gateau_record *record = gateau_record_new(setup);
    gateau_rng rng;
    gateau_rng_seed(&rng, 6);
    support_play_out(record, &rng);
    store_move move = {.number = moves, .seat = gateau_record_move_seat(record, moves),
                       .line = gateau_record_move_text(record, moves), .clock_left = -1};
    cr_assert(store_append_move(server, "playing", &move, error, sizeof error), "%s", error);
    gateau_record_free(record);
    gateau_setup_free(setup);
    listing = support_run_expect(0, "tables list --db '%s'", db);
    int now = 0;
    line = line_of(listing, "playing");
    cr_assert(line && sscanf(line, "playing mice-cake %*d %d", &now) == 1, "%s", listing);
    cr_assert_eq(now, moves + 1, "%s", listing);
    free(listing);
    char *shown = support_run_expect(0, "tables show finished --db '%s'", db);
    cr_assert(strstr(shown, "game: mice-cake"), "%s", shown);
    free(shown);

    char arguments[1024];
    snprintf(arguments, sizeof arguments, "tables delete finished --db '%s'", db);
    support_expect_error(arguments, 1, "is in use by another gateau process");
    support_expect_error(arguments, 1, "stop that server first, then run this again");
    snprintf(arguments, sizeof arguments, "tables expire --days 1 --db '%s'", db);
    support_expect_error(arguments, 1, "stop that server first");
    store_close(server);
    /* (refused, nothing changed; once the server stops, it goes) */
    free(support_run_expect(0, "tables delete finished --db '%s'", db));
    /* The reading commands create nothing and upgrade nothing. */
    snprintf(arguments, sizeof arguments, "tables list --db '%s'",
             support_temp_path("absent.db"));
    support_expect_error(arguments, 1, "no database");
    cr_assert(!support_file_exists(support_temp_path("absent.db")));
}

/* ---- backup ---------------------------------------------------------------------------- */

/*
 * A SQLite database copied while "a server" (this process, holding the
 * store's lock) has it open: the copy lists and shows the same tables,
 * byte for byte, and carries the decks kept beside the database.
 */
Test(tables_cli, a_backup_beside_a_running_server_restores_every_table)
{
    const char *db = support_temp_path("live.db");
    store *server = open_store(db);
    store_game(server, "playing", false, 4);
    store_game(server, "finished", true, 5);
    char decks[600], deck[700];
    snprintf(decks, sizeof decks, "%s.decks", db);
    cr_assert_eq(mkdir(decks, 0700), 0);
    const char *name = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.deck";
    snprintf(deck, sizeof deck, "%s/%s", decks, name);
    support_write_file(deck, "a deck's text\n");

    const char *copy = support_temp_path("copy.db");
    char *said = support_run_expect(0, "tables backup '%s' --db '%s'", copy, db);
    cr_assert(strstr(said, "Backed up") && strstr(said, "and 1 deck to"), "%s", said);
    free(said);
    char arguments[1024];
    snprintf(arguments, sizeof arguments, "tables backup '%s' --db '%s'", copy, db);
    support_expect_error(arguments, 1, "exists already: a backup never overwrites");
    store_close(server);

    char *original = support_run_expect(0, "tables show playing --db '%s'", db);
    char *restored = support_run_expect(0, "tables show playing --db '%s'", copy);
    cr_assert_str_eq(restored, original);
    free(original);
    free(restored);
    char *listing = support_run_expect(0, "tables list --db '%s'", copy);
    cr_assert(line_of(listing, "playing") && line_of(listing, "finished"), "%s", listing);
    free(listing);
    snprintf(deck, sizeof deck, "%s.decks/%s", copy, name);
    char *kept = support_read_file(deck);
    cr_assert_str_eq(kept, "a deck's text\n");
    free(kept);
}

Test(tables_cli, a_backup_refuses_what_it_cannot_copy)
{
    char arguments[1024];
    const char *copy = support_temp_path("copy.db");
    snprintf(arguments, sizeof arguments, "tables backup '%s' --db /nonexistent/gateau.db", copy);
    support_expect_error(arguments, 1, "tables backup: no database /nonexistent/gateau.db");
    const char *text = support_temp_path("notes.txt");
    support_write_file(text, "not a database at all, but long enough to be read as one...\n");
    snprintf(arguments, sizeof arguments, "tables backup '%s' --db '%s'", copy, text);
    support_expect_error(arguments, 1, "tables backup:");
    cr_assert(!support_file_exists(copy), "no copy of what is not a database");
    support_expect_error("tables backup x.db --db postgresql://127.0.0.1:1/gateau", 1,
                         "backed up with pg_dump");
    support_expect_error("tables backup --db x.db", 2, "into which new file?");
    support_expect_error("tables backup x.db y.db --db z.db", 2, "one file ('y.db' is one too many)");
}

/* What docs/server.md says for PostgreSQL: pg_dump, then pg_restore into
 * an empty database, which then holds the same tables. */
Test(tables_cli, a_postgres_backup_with_pg_dump_restores_every_table)
{
    postgres_server_require();
    char from[512], to[512];
    snprintf(from, sizeof from, "%s", postgres_server_database("dumped"));
    snprintf(to, sizeof to, "%s", postgres_server_database("restored"));
    store *server = open_store(from);
    store_game(server, "playing", false, 6);
    store_close(server);
    const char *dump = support_temp_path("gateau.dump");
    char command[2048];
    snprintf(command, sizeof command,
             "PATH=\"$PATH:$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)\";"
             " pg_dump --format=custom --file='%s' '%s' && pg_restore --no-owner --dbname='%s' '%s'",
             dump, from, to, dump);
    cr_assert_eq(system(command), 0, "%s", command);
    char *original = support_run_expect(0, "tables show playing --db '%s'", from);
    char *restored = support_run_expect(0, "tables show playing --db '%s'", to);
    cr_assert_str_eq(restored, original);
    free(original);
    free(restored);
}
