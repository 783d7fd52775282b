/*
 * tables.c: `gateau tables list|show ID|delete ID|expire [--days N]|
 * backup FILE --db FILE|URL` (docs/server.md): the tables of a server's
 * database, for its operator.
 *
 * It opens the store as the server does (both may run at once; see
 * docs/server.md for what a running server makes of a table deleted
 * under it), and never creates a database: a --db that names no file is
 * an error, not a new empty database to list.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "server/server.h"

#define TABLES_USAGE                                                                         \
    "usage: gateau tables list|show ID|delete ID|expire [--days N]|backup FILE --db FILE|URL"

typedef struct tables_flags {
    const char *action, *id, *db;
    int days;
} tables_flags;

/* false after printing why (exit 2). */
static bool parse_tables_flags(int argc, char **argv, tables_flags *flags)
{
    *flags = (tables_flags){.days = 30};
    bool days_given = false;
    for (int i = 0; i < argc; i++) {
        const char *argument = argv[i];
        if (!strcmp(argument, "--db") || !strcmp(argument, "--days")) {
            if (i + 1 >= argc) {
                cli_error("tables: %s needs a value", argument);
                return false;
            }
            const char *value = argv[++i];
            uint64_t days;
            if (argument[3] == 'b') {
                flags->db = value;
            } else if (!cli_parse_integer("tables", argument, value, 1, 36500, &days)) {
                return false;
            } else {
                flags->days = (int)days;
                days_given = true;
            }
        } else if (!strncmp(argument, "--", 2)) {
            cli_error("tables: unknown option '%s' (" TABLES_USAGE ")", argument);
            return false;
        } else if (!flags->action) {
            flags->action = argument;
        } else if (!flags->id) {
            flags->id = argument;
        } else {
            cli_error(!strcmp(flags->action, "backup")
                          ? "tables backup: one file ('%s' is one too many)"
                          : "tables: one table at a time ('%s' is one too many)",
                      argument);
            return false;
        }
    }
    const char *action = flags->action ? flags->action : "";
    bool needs_id = !strcmp(action, "show") || !strcmp(action, "delete") ||
                    !strcmp(action, "backup"); /* (backup's "id" is the copy's file) */
    if (!needs_id && strcmp(action, "list") && strcmp(action, "expire")) {
        cli_error("tables: " TABLES_USAGE);
        return false;
    }
    if (needs_id != (flags->id != NULL)) {
        cli_error(!strcmp(action, "backup") ? "tables %s: into which new file? (" TABLES_USAGE ")"
                  : needs_id                ? "tables %s: which table? (" TABLES_USAGE ")"
                           : "tables %s takes no table id (" TABLES_USAGE ")",
                  action);
        return false;
    }
    if (days_given && strcmp(action, "expire")) {
        cli_error("tables %s: --days is for expire", action);
        return false;
    }
    if (!flags->db) {
        cli_error("tables %s: --db FILE|URL: which database?", action);
        return false;
    }
    return true;
}

/* The database, never made anew: NULL after printing why. */
static store *open_database(const tables_flags *flags)
{
    if (store_path_is_conninfo(flags->db)) { /* (not shown: it may hold a password) */
        cli_error("tables %s: --db: %s", flags->action, STORE_CONNINFO_REFUSED);
        return NULL;
    }
    if (!store_path_is_url(flags->db) && access(flags->db, F_OK) != 0) {
        cli_error("tables %s: no database %s", flags->action, flags->db);
        return NULL;
    }
    char error[512];
    /* Reading goes on beside a server (a SQLite file's lock is for
     * writers); a write must wait for the server to stop, or it would
     * change tables behind the server's back. */
    bool reading = !strcmp(flags->action, "list") || !strcmp(flags->action, "show");
    store *database = reading ? store_open_reading(flags->db, error, sizeof error)
                              : store_open(flags->db, error, sizeof error);
    if (!database && strstr(error, "is in use by another gateau process"))
        cli_error("tables %s: %s: stop that server first, then run this again (list, show and "
                  "backup work beside it)", flags->action, error);
    else if (!database)
        cli_error("tables %s: %s", flags->action, error);
    return database;
}

/* ---- list ------------------------------------------------------------------------ */

static void format_time(int64_t seconds, char *out, size_t size)
{
    time_t value = (time_t)seconds;
    struct tm parts;
    if (!gmtime_r(&value, &parts) || !strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &parts))
        snprintf(out, size, "%lld", (long long)seconds);
}

static bool print_summary(void *context, const store_summary *table)
{
    (void)context;
    char last[32];
    format_time(table->last_move, last, sizeof last);
    printf("%-12s  %-14s  %7d  %5d  %-20s  %s\n", table->id, table->game, table->players,
           table->moves, last, table->ended ? "ended" : table->over ? "over" : "playing");
    return true;
}

static int list_tables(store *database)
{
    char error[512];
    printf("%-12s  %-14s  %7s  %5s  %-20s  %s\n", "id", "game", "players", "moves",
           "last move (UTC)", "state");
    if (!store_list_tables(database, false, print_summary, NULL, error, sizeof error)) {
        cli_error("tables list: %s", error);
        return 1;
    }
    return 0;
}

/* ---- show ------------------------------------------------------------------------- */

typedef struct shown {
    char *text; /* the record */
    char error[512];
    char ended[STORE_RESULT_SIZE]; /* why it ended before its game did, or "" */
} shown;

/* The table as its record: replayed by the engine (so with its names and
 * result), or as stored when it does not replay (then error says why). */
static bool record_of(void *context, const store_table *table, const store_move *moves,
                      int count)
{
    shown *out = context;
    /* (a record has no line for an end before the game's: a comment) */
    json_t *result = table->over ? json_loads(table->result, 0, NULL) : NULL;
    const char *why = json_string_value(json_object_get(result, "ended"));
    if (why) snprintf(out->ended, sizeof out->ended, "%s", why);
    json_decref(result);
    char *stored = store_record_text(table, moves, count);
    int line;
    decks_fetch(table->options);
    gateau_record *record =
        gateau_record_read(stored, decks_folder(), out->error, sizeof out->error, &line);
    if (!record) {
        decks_unpath(out->error);
        out->text = stored;
        return false;
    }
    for (int s = 0; s < table->players; s++)
        if (table->seats[s].name[0]) gateau_record_set_name(record, s, table->seats[s].name);
    out->text = gateau_record_text(record);
    gateau_record_free(record);
    free(stored);
    return false;
}

static int show_table(store *database, const char *id)
{
    shown out = {0};
    if (!store_load_table(database, id, record_of, &out, out.error, sizeof out.error)) {
        cli_error("tables show: %s", out.error);
        return 1;
    }
    if (out.text) fputs(out.text, stdout);
    if (out.ended[0]) printf("# ended before the game did: %s\n", out.ended);
    int status = 0;
    if (out.error[0]) {
        cli_error("tables show: table %s does not replay (shown as stored): %s", id, out.error);
        status = 1;
    }
    free(out.text);
    return status;
}

/* ---- delete, expire ------------------------------------------------------------------- */

static int delete_table(store *database, const char *id)
{
    char error[512];
    bool deleted;
    if (!store_delete_table(database, id, -1, &deleted, error, sizeof error)) {
        cli_error("tables delete: %s", error);
        return 1;
    }
    printf("Deleted table %s.\n", id);
    return 0;
}

static int expire_tables(store *database, int days)
{
    char error[512];
    int expired;
    if (!tables_expire(database, expiry_cutoff(days), &expired, error, sizeof error)) {
        cli_error("tables expire: %s", error);
        return 1;
    }
    printf("Expired %d table%s without a move for %d day%s.\n", expired, expired == 1 ? "" : "s",
           days, days == 1 ? "" : "s");
    return 0;
}

/* ---- backup -------------------------------------------------------------------------- */

/* Beside a running server: no store_open (its lock), a read-only copy
 * (store_backup.c), then the decks its tables name. */
static int backup_database(const tables_flags *flags)
{
    if (store_path_is_conninfo(flags->db)) {
        cli_error("tables backup: --db: %s", STORE_CONNINFO_REFUSED);
        return 1;
    }
    if (!store_path_is_url(flags->db) && access(flags->db, F_OK) != 0) {
        cli_error("tables backup: no database %s", flags->db);
        return 1;
    }
    char error[1024];
    if (!store_backup(flags->db, flags->id, error, sizeof error)) {
        cli_error("tables backup: %s", error);
        return 1;
    }
    decks_configure(flags->db);
    int decks;
    if (!decks_copy(flags->id, &decks, error, sizeof error)) {
        cli_error("tables backup: %s", error);
        return 1;
    }
    printf("Backed up %s to %s", flags->db, flags->id);
    if (decks) printf(", and %d deck%s to %s.decks", decks, decks == 1 ? "" : "s", flags->id);
    printf(".\n");
    return 0;
}

int cli_tables(int argc, char **argv)
{
    tables_flags flags;
    if (!parse_tables_flags(argc, argv, &flags)) return 2;
    if (!strcmp(flags.action, "backup")) return backup_database(&flags);
    store *database = open_database(&flags);
    if (!database) return 1;
    char error[512];
    if (!decks_open(flags.db, error, sizeof error)) {
        cli_error("tables %s: %s", flags.action, error);
        store_close(database);
        return 1;
    }
    int status = !strcmp(flags.action, "list")     ? list_tables(database)
                 : !strcmp(flags.action, "show")   ? show_table(database, flags.id)
                 : !strcmp(flags.action, "delete") ? delete_table(database, flags.id)
                                                   : expire_tables(database, flags.days);
    decks_close();
    store_close(database);
    return status;
}
