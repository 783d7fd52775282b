/*
 * store_backup.c: a copy of a SQLite database taken while a server uses
 * it (`gateau tables backup`, docs/server.md).
 *
 * VACUUM INTO writes a consistent copy from one read transaction: the
 * server's writer goes on meanwhile (WAL mode lets readers and one writer
 * work at once), and the copy is a plain compact database with no -wal of
 * its own.  The database is opened read-only and without the store's lock
 * (PATH.lock), which a running server holds: reading beside it is safe,
 * writing is what the lock keeps to one process.  A PostgreSQL database
 * is backed up with pg_dump, which is made for it.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "store/backend.h"

/* Whether the database holds gateau's tables (as store_open checks, but
 * read-only: nothing is created or migrated here). */
static bool is_gateau_database(sqlite3 *database)
{
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v2(database,
                           "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'moves'",
                           -1, &statement, NULL) != SQLITE_OK)
        return false;
    bool found = sqlite3_step(statement) == SQLITE_ROW;
    sqlite3_finalize(statement);
    return found;
}

bool store_backup(const char *path, const char *to, char *error, size_t error_size)
{
    if (store_path_is_url(path))
        return store_fail(error, error_size,
                          "a PostgreSQL database is backed up with pg_dump (docs/server.md)");
    struct stat file;
    if (stat(to, &file) == 0)
        return store_fail(error, error_size, "%s exists already: a backup never overwrites", to);
    sqlite3 *database = NULL;
    if (sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        store_fail(error, error_size, "cannot open %s: %s", path,
                   database ? sqlite3_errmsg(database) : "out of memory");
        sqlite3_close(database);
        return false;
    }
    sqlite3_busy_timeout(database, 5000);
    bool ok = false;
    sqlite3_stmt *statement = NULL;
    if (!is_gateau_database(database)) {
        store_fail(error, error_size, "%s is not a gateau database", path);
    } else if (sqlite3_prepare_v2(database, "VACUUM INTO ?1", -1, &statement, NULL) != SQLITE_OK ||
               sqlite3_bind_text(statement, 1, to, -1, SQLITE_STATIC) != SQLITE_OK ||
               sqlite3_step(statement) != SQLITE_DONE) {
        store_fail(error, error_size, "cannot copy %s to %s: %s", path, to,
                   sqlite3_errmsg(database));
    } else {
        ok = true;
    }
    sqlite3_finalize(statement);
    sqlite3_close(database);
    return ok;
}
