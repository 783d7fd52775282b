/*
 * store_sqlite.c: the store (store.h) as one SQLite database file.
 *
 * One connection, used by one thread at a time under storage->lock: the
 * server's writes are small (a move is one short row), so a pool of
 * connections would buy nothing but lock contention inside SQLite.
 *
 * Group commit: moves appended at the same time, from any tables, are
 * committed together in one transaction (store_append_move), each caller
 * returning once its own row is committed; a commit costs about as much
 * for one row as for fifty.  WAL checkpoints (copying the -wal file into
 * the database and syncing the disk, milliseconds) run on a thread of
 * their own with a second connection, never inside a caller's commit.
 *
 * The file says what it is: PRAGMA application_id marks it as gateau's and
 * PRAGMA user_version is the schema's version, so that a later gateau can
 * migrate it (migrations[] below) and this one refuses a file it does not
 * know instead of writing into it.
 */
#include "store/backend.h"

#include <errno.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* "GATE" in ASCII: PRAGMA application_id of every gateau database. */
#define APPLICATION_ID 0x47415445

/* How long a call waits for a lock another process holds (a backup, a
 * second server by mistake) before failing, in milliseconds. */
#define BUSY_TIMEOUT 5000

/* migrations[v] takes the schema from version v to v + 1, so the schema's
 * version is the count of migrations, and a new database is one that
 * starts at version 0.  Later versions append here; never edit an entry
 * once released.
 *
 * WITHOUT ROWID keeps seats and moves in primary key order on disk, so a
 * table's moves are read in one sweep.  seed holds the uint64_t's bits as
 * SQLite's signed 64-bit integer. */
static const char *const migrations[] = {
    "CREATE TABLE tables ("
    "  id TEXT PRIMARY KEY NOT NULL,"
    "  game TEXT NOT NULL,"
    "  players INTEGER NOT NULL,"
    "  options TEXT NOT NULL,"
    "  seed INTEGER NOT NULL,"
    "  clock TEXT NOT NULL,"
    "  created INTEGER NOT NULL,"
    "  over INTEGER NOT NULL DEFAULT 0,"
    "  result TEXT,"
    "  creator_hash BLOB NOT NULL);"
    "CREATE TABLE seats ("
    "  table_id TEXT NOT NULL REFERENCES tables (id),"
    "  seat INTEGER NOT NULL,"
    "  spec TEXT NOT NULL,"
    "  name TEXT NOT NULL,"
    "  has_token INTEGER NOT NULL,"
    "  token_hash BLOB,"
    "  zombie INTEGER NOT NULL,"
    "  PRIMARY KEY (table_id, seat)) WITHOUT ROWID;"
    "CREATE TABLE moves ("
    "  table_id TEXT NOT NULL REFERENCES tables (id),"
    "  number INTEGER NOT NULL,"
    "  seat INTEGER NOT NULL,"
    "  line TEXT NOT NULL,"
    "  clock_left INTEGER NOT NULL,"
    "  PRIMARY KEY (table_id, number)) WITHOUT ROWID;",
    /* 2: when each move was stored (Unix seconds), for expiry.  The moves
     * of unfinished tables from before count as stored at the upgrade, so
     * that no game in play expires for want of a time. */
    "ALTER TABLE moves ADD COLUMN played INTEGER;"
    "UPDATE moves SET played = CAST(strftime('%s', 'now') AS INTEGER)"
    "  WHERE table_id IN (SELECT id FROM tables WHERE NOT over);",
    /* 3: the people at a table: the creator's name (the lobby's host),
     * the table a finished one's rematch made, and each table's chat. */
    "ALTER TABLE tables ADD COLUMN host TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE tables ADD COLUMN rematch TEXT NOT NULL DEFAULT '';"
    "CREATE TABLE chat ("
    "  table_id TEXT NOT NULL REFERENCES tables (id),"
    "  number INTEGER NOT NULL,"
    "  seat INTEGER NOT NULL,"
    "  name TEXT NOT NULL,"
    "  text TEXT NOT NULL,"
    "  posted INTEGER NOT NULL,"
    "  PRIMARY KEY (table_id, number)) WITHOUT ROWID;",
    /* 4: a finished table's review (docs/review.md), as the JSON the
     * review library writes, and when it was made (Unix seconds). */
    "CREATE TABLE reviews ("
    "  table_id TEXT PRIMARY KEY NOT NULL REFERENCES tables (id),"
    "  review TEXT NOT NULL,"
    "  made INTEGER NOT NULL);",
};
enum { SCHEMA_VERSION = sizeof migrations / sizeof migrations[0] };

/* The statements, prepared once at open. */
enum statement {
    APPEND_MOVE,
    NEXT_MOVE_NUMBER,
    INSERT_TABLE,
    INSERT_SEAT,
    UPDATE_SEAT,
    FINISH_TABLE,
    TABLE_STATUS,
    SELECT_TABLES,
    SELECT_TABLE,
    SELECT_SEATS,
    SELECT_MOVES,
    BEGIN_BATCH,
    COMMIT_BATCH,
    STATEMENT_COUNT
};

#define TABLE_COLUMNS "id, game, players, options, seed, clock, created, over, creator_hash"

static const char *const statement_sql[STATEMENT_COUNT] = {
    /* The number must be the table's next one (NEXT_MOVE_NUMBER, read in
     * the same write transaction as the insert): a duplicate or a gap
     * inserts nothing.  The primary key would refuse a duplicate anyway;
     * the check also refuses a gap, which no replay could get past.  (An
     * INSERT ... SELECT from moves itself made SQLite build a temporary
     * table for every move.) */
    [APPEND_MOVE] = "INSERT INTO moves (table_id, number, seat, line, clock_left, played)"
                    " VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    [NEXT_MOVE_NUMBER] = "SELECT coalesce(max(number) + 1, 0) FROM moves WHERE table_id = ?1",
    [INSERT_TABLE] = "INSERT INTO tables (" TABLE_COLUMNS ", host)"
                     " VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?)",
    [INSERT_SEAT] = "INSERT INTO seats (table_id, seat, spec, name, has_token, token_hash, zombie)"
                    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    [UPDATE_SEAT] = "UPDATE seats SET spec = ?3, name = ?4, has_token = ?5, token_hash = ?6,"
                    " zombie = ?7 WHERE table_id = ?1 AND seat = ?2",
    [FINISH_TABLE] = "UPDATE tables SET over = 1, result = ?2 WHERE id = ?1 AND NOT over",
    [TABLE_STATUS] = "SELECT players, over FROM tables WHERE id = ?1",
    [SELECT_TABLES] = "SELECT " TABLE_COLUMNS ", result, host, rematch FROM tables"
                      " WHERE NOT (?1 AND over)"
                      " ORDER BY created, id",
    [SELECT_TABLE] = "SELECT " TABLE_COLUMNS ", result, host, rematch FROM tables WHERE id = ?1",
    [SELECT_SEATS] = "SELECT seat, spec, name, has_token, token_hash, zombie FROM seats"
                     " WHERE table_id = ?1 ORDER BY seat",
    [SELECT_MOVES] = "SELECT number, seat, line, clock_left FROM moves WHERE table_id = ?1"
                     " ORDER BY number",
    /* A batch of moves (group commit): prepared once, not parsed per batch. */
    [BEGIN_BATCH] = "BEGIN IMMEDIATE",
    [COMMIT_BATCH] = "COMMIT",
};

/* WAL pages after which the checkpoint thread is woken (SQLite's own
 * automatic checkpoint, which ran inside a commit, has the same size).
 * A passive checkpoint never waits for the writer, so under a steady
 * stream of commits it may never reach the WAL's end, and the WAL then
 * never starts again from its beginning: past INLINE_PAGES the writer
 * itself, between two of its commits, checkpoints the WAL whole and
 * truncates it (wal_grew).  (The thread once did that with RESTART, which
 * waits for the writer while the writer's own checkpoint waited for the
 * thread's: under a steady stream of commits on a busy host the WAL grew
 * to 69 MB.)  A WAL that was reset is cut back to WAL_KEPT_BYTES
 * (journal_size_limit), and a quiet store (no commit for a second)
 * truncates it to nothing. */
enum { CHECKPOINT_PAGES = 1000, WAL_KEPT_BYTES = 4 << 20, QUIET_MS = 1000, INLINE_PAGES = 5000 };

struct sqlite_store {
    /* Error-checking, so that a visitor calling the store back (which
     * would deadlock) gets an error instead. */
    pthread_mutex_t lock;
    sqlite3 *database;
    sqlite3_stmt *statements[STATEMENT_COUNT];
    /* Group commit: moves waiting, and whether a caller is committing a
     * batch now (the others wait for the next). */
    commit_queue queue;
    /* Checkpoints: their own connection and thread, woken by the WAL
     * hook of the main connection. */
    sqlite3 *checkpointer;
    pthread_t checkpoint_thread;
    bool checkpoint_running, checkpoint_wanted, stopping;
    pthread_mutex_t checkpoint_lock;
    pthread_cond_t checkpoint_wake;
    int wal_pages;          /* in the WAL after the last commit (the WAL hook's count) */
    bool committed_lately;  /* a commit since the quiet checkpoint last looked */
    /* The database file as opened: a file deleted or replaced under the
     * server is noticed before the next write (check_file). */
    char *path;
    dev_t device;
    ino_t inode;
    /* PATH.lock: held (flock) while open, so that a second server on the
     * same file is refused; it also keeps the count of tables and moves
     * (store_open compares them with the file's: tables lost to a
     * damaged or deleted -wal are reported). */
    int lock_file;
    long long tables, moves;
    int counts_length; /* of the counts in the lock file: it is cut only when shorter */
    char warning[256];
};

/* The seed's bits as SQLite's signed integer and back (memcpy: a plain
 * cast of a value above INT64_MAX is implementation-defined). */
static int64_t seed_to_column(uint64_t seed)
{
    int64_t value;
    memcpy(&value, &seed, sizeof value);
    return value;
}

static uint64_t seed_from_column(int64_t value)
{
    uint64_t seed;
    memcpy(&seed, &value, sizeof seed);
    return seed;
}

/* ---- opening ------------------------------------------------------------------ */

/* The one integer a statement (a PRAGMA, a count) returns. */
static int query_integer(sqlite3 *database, const char *sql, int64_t *value)
{
    sqlite3_stmt *statement;
    int status = sqlite3_prepare_v2(database, sql, -1, &statement, NULL);
    if (status != SQLITE_OK) return status;
    status = sqlite3_step(statement);
    if (status == SQLITE_ROW) {
        *value = sqlite3_column_int64(statement, 0);
        status = SQLITE_OK;
    }
    sqlite3_finalize(statement);
    return status;
}

/* Why opening path failed when SQLite only says "unable to open database
 * file": most often a folder that is missing or is the path itself. */
static void explain_open_failure(const char *path, const char *reason, char *error,
                                 size_t error_size)
{
    struct stat status;
    if (stat(path, &status) == 0 && S_ISDIR(status.st_mode)) {
        store_fail(error, error_size, "store: cannot open %s: it is a folder", path);
        return;
    }
    const char *slash = strrchr(path, '/');
    if (slash && slash != path) {
        char folder[4096];
        snprintf(folder, sizeof folder, "%.*s", (int)(slash - path), path);
        if (stat(folder, &status) != 0) {
            if (errno == ENOENT)
                store_fail(error, error_size, "store: cannot open %s: no folder %s", path, folder);
            else
                store_fail(error, error_size, "store: cannot open %s: folder %s: %s", path, folder,
                     strerror(errno));
            return;
        }
        if (!S_ISDIR(status.st_mode)) {
            store_fail(error, error_size, "store: cannot open %s: %s is not a folder", path, folder);
            return;
        }
    }
    store_fail(error, error_size, "store: cannot open %s: %s", path, reason);
}

/* The schema version of the file, or false when it is not a gateau
 * database (another program's database, or one of a newer gateau).  Run
 * before anything writes to the file, and again inside the transaction
 * that migrates it (another process may have created the schema in
 * between). */
static bool read_version(sqlite3 *database, const char *path, int64_t *version, char *error,
                         size_t error_size)
{
    int64_t application_id = 0, objects = 0;
    int status = query_integer(database, "PRAGMA application_id", &application_id);
    if (status == SQLITE_OK) status = query_integer(database, "PRAGMA user_version", version);
    if (status == SQLITE_OK)
        status = query_integer(database, "SELECT count(*) FROM sqlite_master", &objects);
    if (status != SQLITE_OK)
        return store_fail(error, error_size, "store: cannot open %s: %s", path, sqlite3_errmsg(database));
    if (application_id == 0 && *version == 0 && objects == 0) return true; /* new */
    if (application_id != APPLICATION_ID)
        return store_fail(error, error_size,
                    "store: cannot open %s: not a gateau database (another program's SQLite file)",
                    path);
    if (*version > SCHEMA_VERSION)
        return store_fail(error, error_size,
                    "store: cannot open %s: written by a newer gateau (schema version %lld,"
                    " this one knows up to %d)",
                    path, (long long)*version, SCHEMA_VERSION);
    if (*version < 1)
        return store_fail(error, error_size, "store: cannot open %s: damaged (no schema version)", path);
    return true;
}

/* The connection's settings, which SQLite does not keep in the file
 * (except the journal mode, which is set again harmlessly). */
static bool configure(sqlite3 *database, const char *path, char *error, size_t error_size)
{
    /* WAL: a commit appends to the -wal file instead of rewriting pages
     * and keeping a rollback journal, so it is one write, and readers
     * never block the writer. */
    sqlite3_stmt *statement;
    int status = sqlite3_prepare_v2(database, "PRAGMA journal_mode = WAL", -1, &statement, NULL);
    if (status == SQLITE_OK) status = sqlite3_step(statement);
    char mode[16] = "";
    if (status == SQLITE_ROW)
        snprintf(mode, sizeof mode, "%s", (const char *)sqlite3_column_text(statement, 0));
    sqlite3_finalize(statement);
    if (status != SQLITE_ROW)
        return store_fail(error, error_size, "store: cannot open %s: %s", path, sqlite3_errmsg(database));
    if (strcmp(mode, "wal") != 0)
        return store_fail(error, error_size, "store: cannot open %s: WAL mode refused (journal mode %s)",
                    path, mode);

    /* synchronous = NORMAL: in WAL mode a commit has written its pages to
     * the -wal file (they are in the kernel) when it returns, and SQLite
     * syncs the disk only at checkpoints.  A process that crashes or is
     * killed (kill -9) loses nothing: the kernel still writes its pages.
     * What NORMAL may lose is the last moves before a power cut or a
     * kernel crash, never the database's consistency.  FULL would sync
     * the -wal file on every commit, a disk flush per move (milliseconds
     * on many disks: 160 moves per second against 15,000 with NORMAL on
     * the machine gateau was written on), for a promise we do not make.
     *
     * foreign_keys: a seat or a move never names a table that is not
     * there (a server bug then fails loudly instead of leaving strays). */
    const char *settings = "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;";
    if (sqlite3_exec(database, settings, NULL, NULL, NULL) != SQLITE_OK)
        return store_fail(error, error_size, "store: cannot open %s: %s", path, sqlite3_errmsg(database));
    return true;
}

/* Creates or upgrades the schema, in one transaction (all of it or none,
 * also when two processes open a new file at once). */
static bool migrate(sqlite3 *database, const char *path, char *error, size_t error_size)
{
    if (sqlite3_exec(database, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return store_fail(error, error_size, "store: cannot open %s: %s", path, sqlite3_errmsg(database));
    int64_t version;
    if (!read_version(database, path, &version, error, error_size)) {
        sqlite3_exec(database, "ROLLBACK", NULL, NULL, NULL);
        return false;
    }
    bool done = true;
    for (int64_t v = version; v < SCHEMA_VERSION && done; v++)
        done = sqlite3_exec(database, migrations[v], NULL, NULL, NULL) == SQLITE_OK;
    if (done && version < SCHEMA_VERSION) {
        char sql[128];
        snprintf(sql, sizeof sql, "PRAGMA application_id = %d; PRAGMA user_version = %d;",
                 APPLICATION_ID, SCHEMA_VERSION);
        done = sqlite3_exec(database, sql, NULL, NULL, NULL) == SQLITE_OK;
    }
    if (done) done = sqlite3_exec(database, "COMMIT", NULL, NULL, NULL) == SQLITE_OK;
    if (!done) {
        store_fail(error, error_size, "store: cannot create the schema in %s: %s", path,
             sqlite3_errmsg(database));
        sqlite3_exec(database, "ROLLBACK", NULL, NULL, NULL);
    }
    return done;
}

/* ---- checkpoints ------------------------------------------------------------------ */

/* Copies the -wal file into the database whenever the main connection's
 * commits have put CHECKPOINT_PAGES pages in it.  PASSIVE: it waits for
 * no reader or writer, and commits go on meanwhile. */
static void *checkpoint_main(void *argument)
{
    sqlite_store *storage = argument;
    pthread_mutex_lock(&storage->checkpoint_lock);
    for (;;) {
        while (!storage->checkpoint_wanted && !storage->stopping) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_sec += QUIET_MS / 1000;
            if (pthread_cond_timedwait(&storage->checkpoint_wake, &storage->checkpoint_lock,
                                       &until) != ETIMEDOUT)
                continue;
            /* A quiet second with a WAL left: truncated to nothing. */
            bool quiet = !storage->committed_lately && storage->wal_pages > 0;
            storage->committed_lately = false;
            if (!quiet) continue;
            int pages = storage->wal_pages;
            storage->wal_pages = 0;
            pthread_mutex_unlock(&storage->checkpoint_lock);
            int done = sqlite3_wal_checkpoint_v2(storage->checkpointer, NULL,
                                                 SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
            pthread_mutex_lock(&storage->checkpoint_lock);
            /* Busy (the writer's own checkpoint): again the next second. */
            if (done != SQLITE_OK && !storage->wal_pages) storage->wal_pages = pages;
        }
        if (storage->stopping) break;
        storage->checkpoint_wanted = false;
        int mode = SQLITE_CHECKPOINT_PASSIVE;
        pthread_mutex_unlock(&storage->checkpoint_lock);
        sqlite3_wal_checkpoint_v2(storage->checkpointer, NULL, mode, NULL, NULL);
        pthread_mutex_lock(&storage->checkpoint_lock);
    }
    pthread_mutex_unlock(&storage->checkpoint_lock);
    return NULL;
}

/* SQLite's WAL hook, after each commit of the main connection. */
static int wal_grew(void *argument, sqlite3 *database, const char *name, int pages)
{
    (void)name;
    sqlite_store *storage = argument;
    if (pages >= INLINE_PAGES) {
        /* (the writer's own transaction is over here: nothing writes
         * while it copies.  TRUNCATE, not PASSIVE: a passive one gives up
         * on frames that the checkpoint thread's connection is reading
         * (its own checkpoint), and the WAL then never restarts: 45 MB
         * in a sanitizer build on a busy host.  TRUNCATE waits for that
         * reader, under the busy timeout, and empties the file.) */
        /* Busy (the thread is checkpointing): tried again for a moment
         * (the writer waits, rarely: past 20 MB of WAL), then at the next
         * commit, without waking the thread meanwhile; and 1, not 0, so
         * that a quiet second truncates it if no commit comes. */
        bool done = false;
        for (int tries = 0; !done && tries < 40; tries++) { /* (at most about 0.2 s) */
            if (tries) nanosleep(&(struct timespec){0, 5000000}, NULL);
            done = sqlite3_wal_checkpoint_v2(database, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL,
                                             NULL) == SQLITE_OK;
        }
        pages = done ? 0 : 1;
    }
    pthread_mutex_lock(&storage->checkpoint_lock);
    storage->wal_pages = pages;
    storage->committed_lately = true;
    if (pages >= CHECKPOINT_PAGES) {
        storage->checkpoint_wanted = true;
        pthread_cond_signal(&storage->checkpoint_wake);
    }
    pthread_mutex_unlock(&storage->checkpoint_lock);
    return SQLITE_OK;
}

/* The second connection and its thread; without them (a failure), SQLite
 * checkpoints inside commits as it did before. */
static void start_checkpoints(sqlite_store *storage, const char *path)
{
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path, &storage->checkpointer, flags, NULL) != SQLITE_OK) {
        sqlite3_close(storage->checkpointer);
        storage->checkpointer = NULL;
        return;
    }
    sqlite3_busy_timeout(storage->checkpointer, BUSY_TIMEOUT);
    char limit[64];
    snprintf(limit, sizeof limit, "PRAGMA journal_size_limit = %d", WAL_KEPT_BYTES);
    sqlite3_exec(storage->checkpointer, limit, NULL, NULL, NULL);
    sqlite3_exec(storage->database, limit, NULL, NULL, NULL);
    /* A connection opens the -wal file with its first read: until then it
     * takes the database for one without WAL, and checkpoints nothing. */
    int64_t objects;
    if (query_integer(storage->checkpointer, "SELECT count(*) FROM sqlite_master", &objects) !=
            SQLITE_OK ||
        pthread_create(&storage->checkpoint_thread, NULL, checkpoint_main, storage) != 0) {
        sqlite3_close(storage->checkpointer);
        storage->checkpointer = NULL;
        return;
    }
    storage->checkpoint_running = true;
    sqlite3_wal_hook(storage->database, wal_grew, storage);
}

static void stop_checkpoints(sqlite_store *storage)
{
    if (!storage->checkpoint_running) return;
    pthread_mutex_lock(&storage->checkpoint_lock);
    storage->stopping = true;
    pthread_cond_signal(&storage->checkpoint_wake);
    pthread_mutex_unlock(&storage->checkpoint_lock);
    pthread_join(storage->checkpoint_thread, NULL);
    sqlite3_close(storage->checkpointer);
    storage->checkpoint_running = false;
}

static void write_counts(sqlite_store *storage);
static bool count_rows(sqlite3 *database, long long *tables, long long *moves);
static bool take_lock(sqlite_store *storage, const char *path, long long *tables,
                      long long *moves, char *error, size_t error_size);
static void compare_counts(sqlite_store *storage, long long kept_tables, long long kept_moves);

void sqlite_store_close(sqlite_store *storage)
{
    if (!storage) return;
    stop_checkpoints(storage);
    /* A clean stop counts again (whatever deleted rows meanwhile): the
     * next start compares with these. */
    if (storage->lock_file >= 0 && storage->statements[0] &&
        count_rows(storage->database, &storage->tables, &storage->moves))
        write_counts(storage);
    for (int s = 0; s < STATEMENT_COUNT; s++) sqlite3_finalize(storage->statements[s]);
    sqlite3_close(storage->database); /* (the last connection: it checkpoints the rest) */
    if (storage->lock_file >= 0) close(storage->lock_file); /* (and its lock) */
    free(storage->path);
    pthread_mutex_destroy(&storage->lock);
    commit_queue_destroy(&storage->queue);
    pthread_mutex_destroy(&storage->checkpoint_lock);
    pthread_cond_destroy(&storage->checkpoint_wake);
    free(storage);
}

/* A store of path not yet opened: its locks, its queue, no lock file. */
static sqlite_store *store_new(const char *path)
{
    sqlite_store *storage = calloc(1, sizeof *storage);
    if (!storage) abort(); /* out of memory */
    pthread_mutexattr_t attributes;
    pthread_mutexattr_init(&attributes);
    pthread_mutexattr_settype(&attributes, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(&storage->lock, &attributes);
    pthread_mutexattr_destroy(&attributes);
    commit_queue_init(&storage->queue);
    pthread_mutex_init(&storage->checkpoint_lock, NULL);
    pthread_cond_init(&storage->checkpoint_wake, NULL);
    storage->lock_file = -1;
    storage->path = strdup(path);
    if (!storage->path) abort();
    return storage;
}

/* Opens the store's connection with flags, as both ways of opening want
 * it (extended result codes, the busy timeout); false with why. */
static bool open_connection(sqlite_store *storage, int flags, char *error, size_t error_size)
{
    const char *path = storage->path;
    int status = sqlite3_open_v2(path, &storage->database, flags, NULL);
    if (status != SQLITE_OK) {
        explain_open_failure(path, storage->database ? sqlite3_errmsg(storage->database)
                                                   : sqlite3_errstr(status),
                             error, error_size);
        return false;
    }
    sqlite3_extended_result_codes(storage->database, 1);
    sqlite3_busy_timeout(storage->database, BUSY_TIMEOUT);
    return true;
}

sqlite_store *sqlite_store_open(const char *path, char *error, size_t error_size)
{
    sqlite_store *storage = store_new(path);
    long long kept_tables = -1, kept_moves = -1;
    if (!take_lock(storage, path, &kept_tables, &kept_moves, error, error_size)) {
        sqlite_store_close(storage);
        return NULL;
    }

    /* NOMUTEX: storage->lock already serializes every use of the
     * connection, so SQLite's own mutex per connection is not needed. */
    if (!open_connection(storage, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                         error, error_size)) {
        sqlite_store_close(storage);
        return NULL;
    }

    /* Refuse a foreign file before anything (the journal mode) changes it. */
    int64_t version;
    if (!read_version(storage->database, path, &version, error, error_size) ||
        !configure(storage->database, path, error, error_size) ||
        !migrate(storage->database, path, error, error_size)) {
        sqlite_store_close(storage);
        return NULL;
    }
    for (int s = 0; s < STATEMENT_COUNT; s++) {
        if (sqlite3_prepare_v3(storage->database, statement_sql[s], -1, SQLITE_PREPARE_PERSISTENT,
                               &storage->statements[s], NULL) != SQLITE_OK) {
            store_fail(error, error_size, "store: cannot open %s: %s", path,
                 sqlite3_errmsg(storage->database));
            sqlite_store_close(storage);
            return NULL;
        }
    }
    /* Commits no longer checkpoint: the checkpoint thread does. */
    if (sqlite3_exec(storage->database, "PRAGMA wal_autocheckpoint = 0", NULL, NULL, NULL) ==
        SQLITE_OK)
        start_checkpoints(storage, path);
    struct stat file;
    if (stat(path, &file) == 0) {
        storage->device = file.st_dev;
        storage->inode = file.st_ino;
    }
    compare_counts(storage, kept_tables, kept_moves);
    return storage;
}

sqlite_store *sqlite_store_open_reading(const char *path, char *error, size_t error_size)
{
    sqlite_store *storage = store_new(path); /* (no PATH.lock: a server may hold it) */
    /* Read-only: a server's writer goes on beside it (WAL), nothing here
     * writes, creates, migrates or checkpoints. */
    if (!open_connection(storage, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, error, error_size)) {
        sqlite_store_close(storage);
        return NULL;
    }
    int64_t version;
    bool good = read_version(storage->database, path, &version, error, error_size);
    if (good && version < SCHEMA_VERSION)
        good = store_fail(error, error_size, "store: %s is of an older gateau (schema version %lld):"
                          " a server's start (or a command that writes) upgrades it first",
                          path, (long long)version);
    for (int s = 0; good && s < STATEMENT_COUNT; s++)
        if (sqlite3_prepare_v3(storage->database, statement_sql[s], -1,
                               SQLITE_PREPARE_PERSISTENT, &storage->statements[s],
                               NULL) != SQLITE_OK)
            good = store_fail(error, error_size, "store: cannot open %s: %s", path,
                              sqlite3_errmsg(storage->database));
    if (!good) {
        sqlite_store_close(storage);
        return NULL;
    }
    struct stat file;
    if (stat(path, &file) == 0) {
        storage->device = file.st_dev;
        storage->inode = file.st_ino;
    }
    return storage;
}

/* ---- the lock file, its counts, the file's identity ------------------------------------ */

/* Writes "pid P tables T moves M" into the lock file (a few bytes, no
 * sync: a lower bound that survives a crash of the process). */
static void write_counts(sqlite_store *storage)
{
    char text[128];
    int length = snprintf(text, sizeof text, "pid %ld tables %lld moves %lld\n", (long)getpid(),
                          storage->tables, storage->moves);
    /* After every commit: the truncation (a second system call, and the
     * dearer one) only when the text got shorter, which counts that grow
     * seldom make it. */
    if (pwrite(storage->lock_file, text, (size_t)length, 0) == length &&
        (length < storage->counts_length || !storage->counts_length))
        (void)!ftruncate(storage->lock_file, length);
    storage->counts_length = length;
}

/* The file's tables and moves, counted. */
static bool count_rows(sqlite3 *database, long long *tables, long long *moves)
{
    int64_t counted_tables = 0, counted_moves = 0;
    if (query_integer(database, "SELECT count(*) FROM tables", &counted_tables) != SQLITE_OK ||
        query_integer(database, "SELECT count(*) FROM moves", &counted_moves) != SQLITE_OK)
        return false;
    *tables = counted_tables;
    *moves = counted_moves;
    return true;
}

/*
 * PATH.lock, held with flock while the store is open: a second server on
 * the same file (which would drift apart from the first, each holding
 * its own tables in memory) is refused at its start.  The kernel lets go
 * of the lock when the process ends, however it ends.  What the file
 * says of the last counts is read before this process writes its own.
 */
static bool take_lock(sqlite_store *storage, const char *path, long long *tables,
                      long long *moves, char *error, size_t error_size)
{
    if (!strcmp(path, ":memory:") || !path[0]) return true;
    char lock_path[4200];
    snprintf(lock_path, sizeof lock_path, "%s.lock", path);
    storage->lock_file = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (storage->lock_file < 0) {
        /* (a missing folder or a folder path: explained by the open below) */
        if (errno == ENOENT || errno == EISDIR || errno == ENOTDIR) return true;
        return store_fail(error, error_size, "store: cannot open %s: %s", lock_path,
                          strerror(errno));
    }
    char text[128] = "";
    ssize_t got = pread(storage->lock_file, text, sizeof text - 1, 0);
    text[got > 0 ? got : 0] = '\0';
    long pid = 0;
    if (flock(storage->lock_file, LOCK_EX | LOCK_NB) != 0) {
        sscanf(text, "pid %ld", &pid);
        return store_fail(error, error_size,
                          "store: %s is in use by another gateau process (pid %ld holds %s)",
                          path, pid, lock_path);
    }
    if (sscanf(text, "pid %ld tables %lld moves %lld", &pid, tables, moves) != 3)
        *tables = *moves = -1;
    return true;
}

/* At open: fewer tables or moves than the last count (a damaged or
 * deleted -wal after a crash, an older copy of the file) is a warning. */
static void compare_counts(sqlite_store *storage, long long kept_tables, long long kept_moves)
{
    if (storage->lock_file < 0) return;
    if (!count_rows(storage->database, &storage->tables, &storage->moves)) return;
    if (kept_tables > storage->tables || kept_moves > storage->moves)
        snprintf(storage->warning, sizeof storage->warning,
                 "store: %s has %lld tables and %lld moves, but had at least %lld and %lld: "
                 "some were lost (a damaged or deleted -wal file, or an older copy?)",
                 storage->path, storage->tables, storage->moves, kept_tables, kept_moves);
    write_counts(storage);
}

const char *sqlite_store_warning(const sqlite_store *storage)
{
    return storage->warning[0] ? storage->warning : NULL;
}

/* Before a write: the file at the path must still be the one opened.  A
 * deleted or replaced file would take writes that no restart finds. */
static bool check_file(sqlite_store *storage, char *error, size_t error_size)
{
    if (!storage->inode) return true;
    struct stat file;
    if (stat(storage->path, &file) != 0 || file.st_dev != storage->device ||
        file.st_ino != storage->inode)
        return store_fail(error, error_size,
                          "store: the database file %s was deleted or replaced while in use: "
                          "nothing more is written (restart the server)", storage->path);
    return true;
}

/* ---- helpers of the calls ----------------------------------------------------------- */

static bool lock(sqlite_store *storage, char *error, size_t error_size)
{
    int status = pthread_mutex_lock(&storage->lock);
    if (status == EDEADLK)
        return store_fail(error, error_size, "store: called from inside a visit of store_load_tables");
    if (status != 0) return store_fail(error, error_size, "store: cannot lock: %s", strerror(status));
    return true;
}

/* Locks the store for a call about table_id, which must be given. */
static bool lock_for(sqlite_store *storage, const char *table_id, char *error, size_t error_size)
{
    if (!table_id) return store_fail(error, error_size, "store: no table id given");
    return lock(storage, error, error_size);
}

static void unlock(sqlite_store *storage)
{
    pthread_mutex_unlock(&storage->lock);
}

/* A statement bound afresh: the previous run's state and values cleared. */
static sqlite3_stmt *statement(sqlite_store *storage, enum statement which)
{
    sqlite3_stmt *prepared = storage->statements[which];
    sqlite3_reset(prepared);
    sqlite3_clear_bindings(prepared);
    return prepared;
}

/* Runs a statement that returns no rows; SQLITE_DONE or the error.
 * sqlite3_errmsg still describes the error after the reset. */
static int run(sqlite3_stmt *prepared)
{
    int status = sqlite3_step(prepared);
    sqlite3_reset(prepared);
    return status;
}

static void bind_hash(sqlite3_stmt *prepared, int index, const uint8_t hash[STORE_HASH_SIZE])
{
    sqlite3_bind_blob(prepared, index, hash, STORE_HASH_SIZE, SQLITE_STATIC);
}

static void bind_seat(sqlite3_stmt *prepared, const char *table_id, int seat,
                      const store_seat *value)
{
    sqlite3_bind_text(prepared, 1, table_id, -1, SQLITE_STATIC);
    sqlite3_bind_int(prepared, 2, seat);
    sqlite3_bind_text(prepared, 3, value->spec, -1, SQLITE_STATIC);
    sqlite3_bind_text(prepared, 4, value->name, -1, SQLITE_STATIC);
    sqlite3_bind_int(prepared, 5, value->has_token);
    if (value->has_token) bind_hash(prepared, 6, value->token_hash); /* else NULL */
    sqlite3_bind_int(prepared, 7, value->zombie);
}

/* Whether table_id is there, its player count and whether it is over. */
static int table_status(sqlite_store *storage, const char *table_id, int *players, bool *over)
{
    sqlite3_stmt *prepared = statement(storage, TABLE_STATUS);
    sqlite3_bind_text(prepared, 1, table_id, -1, SQLITE_STATIC);
    int status = sqlite3_step(prepared);
    if (status == SQLITE_ROW) {
        *players = sqlite3_column_int(prepared, 0);
        *over = sqlite3_column_int(prepared, 1) != 0;
    }
    sqlite3_reset(prepared);
    return status;
}

/* ---- writing ------------------------------------------------------------------------ */

static bool rollback(sqlite_store *storage)
{
    sqlite3_exec(storage->database, "ROLLBACK", NULL, NULL, NULL);
    return false;
}

static bool create_table(sqlite_store *storage, const store_table *table, char *error, size_t error_size)
{
    if (!store_table_fits(table, error, error_size)) return false;
    const char *id = table->id;

    sqlite3 *database = storage->database;
    if (sqlite3_exec(database, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return store_fail(error, error_size, "store: cannot create table %s: %s", id,
                    sqlite3_errmsg(database));
    sqlite3_stmt *prepared = statement(storage, INSERT_TABLE);
    sqlite3_bind_text(prepared, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_text(prepared, 2, table->game, -1, SQLITE_STATIC);
    sqlite3_bind_int(prepared, 3, table->players);
    sqlite3_bind_text(prepared, 4, table->options, -1, SQLITE_STATIC);
    sqlite3_bind_int64(prepared, 5, seed_to_column(table->seed));
    sqlite3_bind_text(prepared, 6, table->clock, -1, SQLITE_STATIC);
    sqlite3_bind_int64(prepared, 7, table->created);
    bind_hash(prepared, 8, table->creator_hash);
    sqlite3_bind_text(prepared, 9, table->host, -1, SQLITE_STATIC);
    int status = run(prepared);
    if (status == SQLITE_CONSTRAINT_PRIMARYKEY) {
        store_fail(error, error_size, "store: cannot create table %s: it already exists", id);
        return rollback(storage);
    }
    for (int s = 0; s < table->players && status == SQLITE_DONE; s++) {
        prepared = statement(storage, INSERT_SEAT);
        bind_seat(prepared, id, s, &table->seats[s]);
        status = run(prepared);
    }
    if (status == SQLITE_DONE && sqlite3_exec(database, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
        return true;
    store_fail(error, error_size, "store: cannot create table %s: %s", id, sqlite3_errmsg(database));
    return rollback(storage);
}

bool sqlite_store_create_table(sqlite_store *storage, const store_table *table, char *error, size_t error_size)
{
    if (!lock(storage, error, error_size)) return false;
    bool done = check_file(storage, error, error_size) &&
                create_table(storage, table, error, error_size);
    if (done && storage->lock_file >= 0) {
        storage->tables++;
        write_counts(storage);
    }
    unlock(storage);
    return done;
}

static bool update_seat(sqlite_store *storage, const char *table_id, int seat, const store_seat *value,
                        char *error, size_t error_size)
{
    if (!store_seat_fits(value))
        return store_fail(error, error_size,
                    "store: cannot update seat index %d of table %s: unterminated text", seat,
                    table_id);
    sqlite3_stmt *prepared = statement(storage, UPDATE_SEAT);
    bind_seat(prepared, table_id, seat, value);
    if (run(prepared) != SQLITE_DONE)
        return store_fail(error, error_size, "store: cannot update seat index %d of table %s: %s", seat,
                    table_id, sqlite3_errmsg(storage->database));
    if (sqlite3_changes(storage->database) == 1) return true;
    int players;
    bool over;
    int status = table_status(storage, table_id, &players, &over);
    if (status == SQLITE_ROW)
        return store_fail(error, error_size,
                    "store: cannot update seat index %d of table %s: it has %d seats", seat,
                    table_id, players);
    const char *reason = status == SQLITE_DONE ? "no such table" : sqlite3_errmsg(storage->database);
    return store_fail(error, error_size, "store: cannot update seat index %d of table %s: %s", seat,
                table_id, reason);
}

bool sqlite_store_update_seat(sqlite_store *storage, const char *table_id, int seat, const store_seat *value,
                       char *error, size_t error_size)
{
    if (!lock_for(storage, table_id, error, error_size)) return false;
    bool done = check_file(storage, error, error_size) &&
                update_seat(storage, table_id, seat, value, error, error_size);
    unlock(storage);
    return done;
}

/* Why a move numbered number inserted nothing: no such table (the
 * number was not the next one, so the foreign key was not reached), a
 * duplicate or a gap. */
static bool explain_refused_move(sqlite_store *storage, const char *table_id, int number, char *error,
                                 size_t error_size)
{
    int players;
    bool over;
    if (table_status(storage, table_id, &players, &over) == SQLITE_DONE)
        return store_fail(error, error_size, "store: cannot append move %d to table %s: no such table",
                    number, table_id);
    sqlite3_stmt *prepared = statement(storage, NEXT_MOVE_NUMBER);
    sqlite3_bind_text(prepared, 1, table_id, -1, SQLITE_STATIC);
    int status = sqlite3_step(prepared);
    int64_t next = status == SQLITE_ROW ? sqlite3_column_int64(prepared, 0) : -1;
    sqlite3_reset(prepared);
    if (status != SQLITE_ROW)
        return store_fail(error, error_size, "store: cannot append move %d to table %s: %s", number,
                    table_id, sqlite3_errmsg(storage->database));
    if (number < next)
        return store_fail(error, error_size,
                    "store: cannot append move %d to table %s: move %d is already there", number,
                    table_id, number);
    return store_fail(error, error_size,
                "store: cannot append move %d to table %s: the next move is %lld", number,
                table_id, (long long)next);
}

/* Appends one move inside the batch's transaction. */
static bool append_move(sqlite_store *storage, const char *table_id, const store_move *move, char *error,
                        size_t error_size)
{
    if (!move->line)
        return store_fail(error, error_size, "store: cannot append move %d to table %s: no line",
                    move->number, table_id);
    sqlite3_stmt *prepared = statement(storage, NEXT_MOVE_NUMBER);
    sqlite3_bind_text(prepared, 1, table_id, -1, SQLITE_STATIC);
    int status = sqlite3_step(prepared);
    int64_t next = status == SQLITE_ROW ? sqlite3_column_int64(prepared, 0) : -1;
    sqlite3_reset(prepared);
    if (status != SQLITE_ROW)
        return store_fail(error, error_size, "store: cannot append move %d to table %s: %s",
                    move->number, table_id, sqlite3_errmsg(storage->database));
    if (next != move->number)
        return explain_refused_move(storage, table_id, move->number, error, error_size);
    prepared = statement(storage, APPEND_MOVE);
    sqlite3_bind_text(prepared, 1, table_id, -1, SQLITE_STATIC);
    sqlite3_bind_int(prepared, 2, move->number);
    sqlite3_bind_int(prepared, 3, move->seat);
    sqlite3_bind_text(prepared, 4, move->line, -1, SQLITE_STATIC);
    sqlite3_bind_int64(prepared, 5, move->clock_left);
    sqlite3_bind_int64(prepared, 6, (int64_t)time(NULL));
    status = run(prepared);
    if (status == SQLITE_DONE) return true;
    if (status == SQLITE_CONSTRAINT_FOREIGNKEY)
        return store_fail(error, error_size, "store: cannot append move %d to table %s: no such table",
                    move->number, table_id);
    return store_fail(error, error_size, "store: cannot append move %d to table %s: %s", move->number,
                table_id, sqlite3_errmsg(storage->database));
}

/* Commits a batch of waiting moves in one transaction: each is appended
 * or refused on its own (a refused one inserts nothing), and none is
 * appended unless the transaction commits. */
static void commit_batch(sqlite_store *storage, pending_move *batch)
{
    char reason[256];
    if (!lock(storage, reason, sizeof reason)) {
        for (pending_move *item = batch; item; item = item->next)
            store_fail(item->error, item->error_size, "%s", reason);
        return;
    }
    if (!check_file(storage, reason, sizeof reason)) {
        for (pending_move *item = batch; item; item = item->next)
            store_fail(item->error, item->error_size, "%s", reason);
        unlock(storage);
        return;
    }
    sqlite3 *database = storage->database;
    bool begun = run(statement(storage, BEGIN_BATCH)) == SQLITE_DONE;
    if (!begun) snprintf(reason, sizeof reason, "%s", sqlite3_errmsg(database));
    for (pending_move *item = batch; begun && item; item = item->next)
        item->appended = append_move(storage, item->table_id, item->move, item->error,
                                     item->error_size);
    bool committed = begun && run(statement(storage, COMMIT_BATCH)) == SQLITE_DONE;
    if (begun && !committed) {
        snprintf(reason, sizeof reason, "%s", sqlite3_errmsg(database));
        rollback(storage);
    }
    for (pending_move *item = batch; !committed && item; item = item->next) {
        if (!item->appended && begun) continue; /* (its own reason) */
        item->appended = false;
        store_fail(item->error, item->error_size, "store: cannot append move %d to table %s: %s",
             item->move->number, item->table_id, reason);
    }
    if (committed && storage->lock_file >= 0) {
        for (pending_move *item = batch; item; item = item->next) storage->moves += item->appended;
        write_counts(storage);
    }
    unlock(storage);
}

/* (the commit_queue's commit: backend.h) */
static void commit_queued(void *backend, pending_move *batch)
{
    commit_batch(backend, batch);
}

bool sqlite_store_append_move(sqlite_store *storage, const char *table_id, const store_move *move, char *error,
                       size_t error_size)
{
    pending_move mine = {.table_id = table_id, .move = move, .error = error,
                         .error_size = error_size};
    commit_queue_wait(&storage->queue, &mine, commit_queued, storage);
    return mine.appended;
}

static bool finish_table(sqlite_store *storage, const char *table_id, const char *result_json,
                         char *error, size_t error_size)
{
    if (!result_json)
        return store_fail(error, error_size, "store: cannot finish table %s: no result", table_id);
    sqlite3_stmt *prepared = statement(storage, FINISH_TABLE);
    sqlite3_bind_text(prepared, 1, table_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(prepared, 2, result_json, -1, SQLITE_STATIC);
    if (run(prepared) != SQLITE_DONE)
        return store_fail(error, error_size, "store: cannot finish table %s: %s", table_id,
                    sqlite3_errmsg(storage->database));
    if (sqlite3_changes(storage->database) == 1) return true;
    int players;
    bool over;
    int status = table_status(storage, table_id, &players, &over);
    /* A table already over keeps its first result: two writers never
     * both win. */
    if (status == SQLITE_ROW)
        return store_fail(error, error_size, "store: cannot finish table %s: it is already over",
                    table_id);
    return store_fail(error, error_size, "store: cannot finish table %s: %s", table_id,
                status == SQLITE_DONE ? "no such table" : sqlite3_errmsg(storage->database));
}

bool sqlite_store_finish_table(sqlite_store *storage, const char *table_id, const char *result_json,
                        char *error, size_t error_size)
{
    if (!lock_for(storage, table_id, error, error_size)) return false;
    bool done = check_file(storage, error, error_size) &&
                finish_table(storage, table_id, result_json, error, error_size);
    unlock(storage);
    return done;
}

/* ---- reading ------------------------------------------------------------------------ */

/* One table's moves as read, their lines copied (a row's text lives only
 * until the next step). */
typedef struct move_list {
    store_move *moves;
    int count, capacity;
} move_list;

static void clear_moves(move_list *list)
{
    for (int m = 0; m < list->count; m++) free((char *)list->moves[m].line);
    list->count = 0;
}

static bool copy_text(sqlite3_stmt *row, int column, char *target, size_t size)
{
    const char *text = (const char *)sqlite3_column_text(row, column);
    if (!text || strlen(text) >= size) return false;
    memcpy(target, text, strlen(text) + 1);
    return true;
}

/* A hash column: 32 bytes, or NULL (zeros). */
static bool copy_hash(sqlite3_stmt *row, int column, uint8_t hash[STORE_HASH_SIZE])
{
    memset(hash, 0, STORE_HASH_SIZE);
    if (sqlite3_column_type(row, column) == SQLITE_NULL) return true;
    const void *blob = sqlite3_column_blob(row, column);
    if (sqlite3_column_bytes(row, column) != STORE_HASH_SIZE) return false;
    memcpy(hash, blob, STORE_HASH_SIZE);
    return true;
}

/* A row of TABLE_COLUMNS and the result into table (seats apart). */
static bool read_table_row(sqlite3_stmt *row, store_table *table, char *error, size_t error_size)
{
    memset(table, 0, sizeof *table);
    const unsigned char *result = sqlite3_column_text(row, 9);
    if (result) snprintf(table->result, sizeof table->result, "%s", (const char *)result);
    if (!copy_text(row, 0, table->id, sizeof table->id))
        return store_fail(error, error_size, "store: a table's id is too long");
    table->players = sqlite3_column_int(row, 2);
    table->seed = seed_from_column(sqlite3_column_int64(row, 4));
    table->created = sqlite3_column_int64(row, 6);
    table->over = sqlite3_column_int(row, 7) != 0;
    if (!copy_text(row, 1, table->game, sizeof table->game) ||
        !copy_text(row, 3, table->options, sizeof table->options) ||
        !copy_text(row, 5, table->clock, sizeof table->clock) ||
        !copy_hash(row, 8, table->creator_hash) ||
        !copy_text(row, 10, table->host, sizeof table->host) ||
        !copy_text(row, 11, table->rematch, sizeof table->rematch) || table->players < 1 ||
        table->players > GATEAU_MAX_PLAYERS)
        return store_fail(error, error_size, "store: table %s: damaged row", table->id);
    return true;
}

static bool read_seats(sqlite_store *storage, store_table *table, char *error, size_t error_size)
{
    sqlite3_stmt *prepared = statement(storage, SELECT_SEATS);
    sqlite3_bind_text(prepared, 1, table->id, -1, SQLITE_STATIC);
    int count = 0, status = SQLITE_DONE;
    bool good = true;
    while (good && (status = sqlite3_step(prepared)) == SQLITE_ROW) {
        /* Seats 0 to players - 1, each once, in order. */
        good = count < table->players && sqlite3_column_int(prepared, 0) == count;
        if (!good) break;
        store_seat *seat = &table->seats[count++];
        good = copy_text(prepared, 1, seat->spec, sizeof seat->spec) &&
               copy_text(prepared, 2, seat->name, sizeof seat->name) &&
               copy_hash(prepared, 4, seat->token_hash);
        seat->has_token = sqlite3_column_int(prepared, 3) != 0;
        seat->zombie = sqlite3_column_int(prepared, 5) != 0;
    }
    sqlite3_reset(prepared);
    if (!good || count != table->players) {
        if (good && status != SQLITE_DONE)
            return store_fail(error, error_size, "store: cannot read the seats of table %s: %s",
                        table->id, sqlite3_errmsg(storage->database));
        return store_fail(error, error_size, "store: table %s: damaged seats", table->id);
    }
    return true;
}

static bool read_moves(sqlite_store *storage, const char *table_id, move_list *list, char *error,
                       size_t error_size)
{
    clear_moves(list);
    sqlite3_stmt *prepared = statement(storage, SELECT_MOVES);
    sqlite3_bind_text(prepared, 1, table_id, -1, SQLITE_STATIC);
    int status;
    while ((status = sqlite3_step(prepared)) == SQLITE_ROW) {
        int number = sqlite3_column_int(prepared, 0);
        if (number != list->count) {
            /* append_move refuses gaps, so only a damaged file has one. */
            sqlite3_reset(prepared);
            return store_fail(error, error_size, "store: table %s: move %d is missing", table_id,
                        list->count);
        }
        if (list->count == list->capacity) {
            list->capacity = list->capacity ? 2 * list->capacity : 64;
            list->moves = realloc(list->moves, (size_t)list->capacity * sizeof *list->moves);
            if (!list->moves) abort(); /* out of memory */
        }
        const char *line = (const char *)sqlite3_column_text(prepared, 2);
        char *copy = strdup(line ? line : "");
        if (!copy) abort(); /* out of memory */
        list->moves[list->count++] = (store_move){.number = number,
                                                  .seat = sqlite3_column_int(prepared, 1),
                                                  .line = copy,
                                                  .clock_left = sqlite3_column_int64(prepared, 3)};
    }
    sqlite3_reset(prepared);
    if (status != SQLITE_DONE)
        return store_fail(error, error_size, "store: cannot read the moves of table %s: %s", table_id,
                    sqlite3_errmsg(storage->database));
    return true;
}

/* Visits each table that the statement `tables` (already bound) returns;
 * found counts them. */
static bool visit_tables(sqlite_store *storage, sqlite3_stmt *tables, store_visitor visit, void *context,
                         const store_damage *damage, int *found, char *error, size_t error_size)
{
    store_table table;
    move_list list = {0};
    bool good = true;
    int status = SQLITE_DONE;
    *found = 0;
    while (good && (status = sqlite3_step(tables)) == SQLITE_ROW) {
        ++*found;
        good = read_table_row(tables, &table, error, error_size) &&
               read_seats(storage, &table, error, error_size) &&
               read_moves(storage, table.id, &list, error, error_size);
        if (!good && damage && damage->notice && store_error_is_damage(error)) {
            damage->notice(damage->context, table.id, error); /* skipped, and told */
            good = true;
            continue;
        }
        bool go_on = good && visit(context, &table, list.moves, list.count);
        if (!go_on) break;
    }
    if (good && status != SQLITE_ROW && status != SQLITE_DONE)
        good = store_fail(error, error_size, "store: cannot read the tables: %s",
                    sqlite3_errmsg(storage->database));
    sqlite3_reset(tables);
    clear_moves(&list);
    free(list.moves);
    return good;
}

bool sqlite_store_load_tables(sqlite_store *storage, bool unfinished_only, store_visitor visit, void *context,
                       const store_damage *damage, char *error, size_t error_size)
{
    if (!lock(storage, error, error_size)) return false;
    sqlite3_stmt *tables = statement(storage, SELECT_TABLES);
    sqlite3_bind_int(tables, 1, unfinished_only);
    int found;
    bool done = visit_tables(storage, tables, visit, context, damage, &found, error, error_size);
    unlock(storage);
    return done;
}

bool sqlite_store_load_table(sqlite_store *storage, const char *table_id, store_visitor visit, void *context,
                      char *error, size_t error_size)
{
    if (!lock_for(storage, table_id, error, error_size)) return false;
    sqlite3_stmt *tables = statement(storage, SELECT_TABLE);
    sqlite3_bind_text(tables, 1, table_id, -1, SQLITE_STATIC);
    int found;
    bool done = visit_tables(storage, tables, visit, context, NULL, &found, error, error_size);
    unlock(storage);
    if (done && found == 0) return store_fail(error, error_size, "no table %s", table_id);
    return done;
}

/* ---- what an operator asks, and expiry ------------------------------------------------ */

/* When a table's last move was stored: that move's time, else (no move,
 * or moves from before times were kept) the table's creation.  t is the
 * tables row. */
#define LAST_MOVE_OF(t)                                                                      \
    "coalesce((SELECT played FROM moves WHERE table_id = " t ".id"                           \
    " ORDER BY number DESC LIMIT 1), " t ".created)"

/* These calls are an operator's or once an hour: their statements are
 * prepared per call rather than kept. */
static int prepare(sqlite_store *storage, const char *sql, sqlite3_stmt **prepared)
{
    return sqlite3_prepare_v2(storage->database, sql, -1, prepared, NULL);
}

static bool read_summary(sqlite3_stmt *row, store_summary *summary)
{
    memset(summary, 0, sizeof *summary);
    summary->players = sqlite3_column_int(row, 2);
    summary->created = sqlite3_column_int64(row, 4);
    summary->over = sqlite3_column_int(row, 5) != 0;
    summary->moves = sqlite3_column_int(row, 6);
    summary->last_move = sqlite3_column_int64(row, 7);
    summary->ended = sqlite3_column_int(row, 8) != 0;
    return copy_text(row, 0, summary->id, sizeof summary->id) &&
           copy_text(row, 1, summary->game, sizeof summary->game) &&
           copy_text(row, 3, summary->options, sizeof summary->options);
}

bool sqlite_store_list_tables(sqlite_store *storage, bool unfinished_only,
                              store_summary_visitor visit, void *context, char *error,
                              size_t error_size)
{
    if (!lock(storage, error, error_size)) return false;
    sqlite3_stmt *rows;
    int status = prepare(storage,
                         "SELECT id, game, players, options, created, over,"
                         " (SELECT coalesce(max(number) + 1, 0) FROM moves WHERE table_id = t.id), "
                         LAST_MOVE_OF("t") ", coalesce(result LIKE '{\"ended\":%', 0)"
                         " FROM tables t WHERE NOT (?1 AND over) ORDER BY created, id",
                         &rows);
    bool good = status == SQLITE_OK;
    if (good) sqlite3_bind_int(rows, 1, unfinished_only);
    store_summary summary;
    while (good && (status = sqlite3_step(rows)) == SQLITE_ROW) {
        if (!read_summary(rows, &summary)) {
            good = store_fail(error, error_size, "store: the row of table %.30s is damaged",
                              (const char *)sqlite3_column_text(rows, 0));
            break;
        }
        if (!visit(context, &summary)) break;
    }
    if (status != SQLITE_OK && status != SQLITE_ROW && status != SQLITE_DONE)
        good = store_fail(error, error_size, "store: cannot list the tables: %s",
                          sqlite3_errmsg(storage->database));
    sqlite3_finalize(rows);
    unlock(storage);
    return good;
}

/* Runs sql with table_id as ?1 (and value as ?2 when not NULL): its
 * status, SQLITE_DONE when it went well. */
static int run_for_table(sqlite_store *storage, const char *sql, const char *table_id,
                         const int64_t *value)
{
    sqlite3_stmt *prepared;
    int status = prepare(storage, sql, &prepared);
    if (status != SQLITE_OK) return status;
    sqlite3_bind_text(prepared, 1, table_id, -1, SQLITE_STATIC);
    if (value) sqlite3_bind_int64(prepared, 2, *value);
    status = sqlite3_step(prepared);
    sqlite3_finalize(prepared);
    return status;
}

/* Whether the table may go (inside the deleting transaction): SQLITE_ROW
 * when it may, SQLITE_DONE when it may not, else the error. */
static int may_delete(sqlite_store *storage, const char *table_id, int64_t idle_before,
                      bool *found)
{
    sqlite3_stmt *prepared;
    int status = prepare(storage, "SELECT over, " LAST_MOVE_OF("t") " FROM tables t WHERE id = ?1",
                         &prepared);
    if (status != SQLITE_OK) return status;
    sqlite3_bind_text(prepared, 1, table_id, -1, SQLITE_STATIC);
    status = sqlite3_step(prepared);
    *found = status == SQLITE_ROW;
    if (status == SQLITE_ROW && idle_before >= 0 &&
        (sqlite3_column_int(prepared, 0) || sqlite3_column_int64(prepared, 1) >= idle_before))
        status = SQLITE_DONE;
    sqlite3_finalize(prepared);
    return status;
}

/* The start of a change to an idle table (a delete, an expiry): the
 * writer's lock, the file still the one opened, a write transaction
 * (IMMEDIATE: the check and the change in one, so that no move is
 * committed between them) and may_delete's answer in *status (SQLITE_ROW:
 * the table may change; SQLITE_DONE: not; else an error) and *found.
 * false, nothing held, when the lock or the file refused. */
static bool begin_idle_change(sqlite_store *storage, const char *table_id, int64_t idle_before,
                              bool *found, int *status, char *error, size_t error_size)
{
    *found = false;
    if (!lock_for(storage, table_id, error, error_size)) return false;
    if (!check_file(storage, error, error_size)) {
        unlock(storage);
        return false;
    }
    bool begun = sqlite3_exec(storage->database, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK;
    *status = begun ? may_delete(storage, table_id, idle_before, found) : SQLITE_ERROR;
    return true;
}

bool sqlite_store_delete_table(sqlite_store *storage, const char *table_id, int64_t idle_before,
                               bool *deleted, char *error, size_t error_size)
{
    *deleted = false;
    bool found;
    int status;
    if (!begin_idle_change(storage, table_id, idle_before, &found, &status, error, error_size))
        return false;
    bool good = status == SQLITE_ROW || status == SQLITE_DONE;
    if (status == SQLITE_ROW)
        good = run_for_table(storage, "DELETE FROM reviews WHERE table_id = ?1", table_id, NULL) ==
                   SQLITE_DONE &&
               run_for_table(storage, "DELETE FROM moves WHERE table_id = ?1", table_id, NULL) ==
                   SQLITE_DONE &&
               run_for_table(storage, "DELETE FROM chat WHERE table_id = ?1", table_id, NULL) ==
                   SQLITE_DONE &&
               run_for_table(storage, "DELETE FROM seats WHERE table_id = ?1", table_id, NULL) ==
                   SQLITE_DONE &&
               run_for_table(storage, "DELETE FROM tables WHERE id = ?1", table_id, NULL) ==
                   SQLITE_DONE;
    if (good) good = sqlite3_exec(storage->database, "COMMIT", NULL, NULL, NULL) == SQLITE_OK;
    if (!good) {
        store_fail(error, error_size, "store: cannot delete table %s: %s", table_id,
                   sqlite3_errmsg(storage->database));
        rollback(storage);
    }
    /* The lock file's counts go down with the rows, or the next start
     * would take the deleted rows for lost ones. */
    if (good && status == SQLITE_ROW && storage->lock_file >= 0 &&
        count_rows(storage->database, &storage->tables, &storage->moves))
        write_counts(storage);
    unlock(storage);
    if (good && !found) return store_fail(error, error_size, "no table %s", table_id);
    *deleted = good && status == SQLITE_ROW;
    return good;
}

bool sqlite_store_expire_table(sqlite_store *storage, const char *table_id, int64_t idle_before,
                               const char *result_json, bool *expired, char *error,
                               size_t error_size)
{
    *expired = false;
    bool found;
    int status;
    if (!begin_idle_change(storage, table_id, idle_before, &found, &status, error, error_size))
        return false;
    bool good = status == SQLITE_ROW || status == SQLITE_DONE;
    if (status == SQLITE_ROW) {
        sqlite3_stmt *prepared = statement(storage, FINISH_TABLE);
        sqlite3_bind_text(prepared, 1, table_id, -1, SQLITE_STATIC);
        sqlite3_bind_text(prepared, 2, result_json, -1, SQLITE_STATIC);
        good = run(prepared) == SQLITE_DONE;
    }
    if (good) good = sqlite3_exec(storage->database, "COMMIT", NULL, NULL, NULL) == SQLITE_OK;
    if (!good) {
        store_fail(error, error_size, "store: cannot expire table %s: %s", table_id,
                   sqlite3_errmsg(storage->database));
        rollback(storage);
    }
    unlock(storage);
    if (good && !found) return store_fail(error, error_size, "no table %s", table_id);
    *expired = good && status == SQLITE_ROW;
    return good;
}

/* ---- the people at a table: chat, rematch ------------------------------------------ */

bool sqlite_store_append_chat(sqlite_store *storage, const char *table_id,
                              const store_chat *message, int *number, char *error,
                              size_t error_size)
{
    if (!lock_for(storage, table_id, error, error_size)) return false;
    if (!check_file(storage, error, error_size)) {
        unlock(storage);
        return false;
    }
    sqlite3_stmt *prepared;
    /* (one statement: its number is read and used in the same write) */
    int status = prepare(storage,
                         "INSERT INTO chat (table_id, number, seat, name, text, posted)"
                         " SELECT ?1, (SELECT coalesce(max(number) + 1, 0) FROM chat"
                         " WHERE table_id = ?1), ?2, ?3, ?4, ?5 FROM tables WHERE id = ?1"
                         " RETURNING number",
                         &prepared);
    if (status == SQLITE_OK) {
        sqlite3_bind_text(prepared, 1, table_id, -1, SQLITE_STATIC);
        sqlite3_bind_int(prepared, 2, message->seat);
        sqlite3_bind_text(prepared, 3, message->name, -1, SQLITE_STATIC);
        sqlite3_bind_text(prepared, 4, message->text, -1, SQLITE_STATIC);
        sqlite3_bind_int64(prepared, 5, message->posted);
        status = sqlite3_step(prepared);
        if (status == SQLITE_ROW) {
            *number = sqlite3_column_int(prepared, 0);
            status = sqlite3_step(prepared);
        } else if (status == SQLITE_DONE) {
            status = SQLITE_NOTFOUND; /* (no row: no such table) */
        }
        sqlite3_finalize(prepared);
    }
    bool good = status == SQLITE_DONE;
    if (status == SQLITE_NOTFOUND)
        store_fail(error, error_size, "no table %s", table_id);
    else if (!good)
        store_fail(error, error_size, "store: cannot keep a chat message of table %s: %s",
                   table_id, sqlite3_errmsg(storage->database));
    unlock(storage);
    return good;
}

bool sqlite_store_load_chat(sqlite_store *storage, const char *table_id, int most,
                            store_chat_visitor visit, void *context, char *error,
                            size_t error_size)
{
    if (!lock_for(storage, table_id, error, error_size)) return false;
    sqlite3_stmt *rows;
    int status = prepare(storage,
                         "SELECT seat, name, text, posted, number FROM (SELECT * FROM chat"
                         " WHERE table_id = ?1 ORDER BY number DESC LIMIT ?2) ORDER BY number",
                         &rows);
    bool good = status == SQLITE_OK;
    if (good) {
        sqlite3_bind_text(rows, 1, table_id, -1, SQLITE_STATIC);
        sqlite3_bind_int(rows, 2, most);
    }
    store_chat message;
    while (good && (status = sqlite3_step(rows)) == SQLITE_ROW) {
        memset(&message, 0, sizeof message);
        message.seat = sqlite3_column_int(rows, 0);
        message.posted = sqlite3_column_int64(rows, 3);
        message.number = sqlite3_column_int(rows, 4);
        if (!copy_text(rows, 1, message.name, sizeof message.name) ||
            !copy_text(rows, 2, message.text, sizeof message.text)) {
            good = store_fail(error, error_size, "store: a chat message of table %s is damaged",
                              table_id);
            break;
        }
        if (!visit(context, &message)) break;
    }
    if (status != SQLITE_OK && status != SQLITE_ROW && status != SQLITE_DONE)
        good = store_fail(error, error_size, "store: cannot read the chat of table %s: %s",
                          table_id, sqlite3_errmsg(storage->database));
    sqlite3_finalize(rows);
    unlock(storage);
    return good;
}

bool sqlite_store_set_rematch(sqlite_store *storage, const char *table_id,
                              const char *rematch_id, char existing[STORE_ID_SIZE], char *error,
                              size_t error_size)
{
    if (!lock_for(storage, table_id, error, error_size)) return false;
    if (!check_file(storage, error, error_size)) {
        unlock(storage);
        return false;
    }
    sqlite3_stmt *prepared;
    int status = prepare(storage,
                         "UPDATE tables SET rematch = ?2 WHERE id = ?1 AND rematch = ''",
                         &prepared);
    if (status == SQLITE_OK) {
        sqlite3_bind_text(prepared, 1, table_id, -1, SQLITE_STATIC);
        sqlite3_bind_text(prepared, 2, rematch_id, -1, SQLITE_STATIC);
        status = sqlite3_step(prepared);
        sqlite3_finalize(prepared);
    }
    bool good = status == SQLITE_DONE;
    if (!good) {
        store_fail(error, error_size, "store: cannot note the rematch of table %s: %s", table_id,
                   sqlite3_errmsg(storage->database));
    } else if (sqlite3_changes(storage->database) != 1) {
        good = false;
        status = prepare(storage, "SELECT rematch FROM tables WHERE id = ?1", &prepared);
        if (status == SQLITE_OK) {
            sqlite3_bind_text(prepared, 1, table_id, -1, SQLITE_STATIC);
            if (sqlite3_step(prepared) == SQLITE_ROW)
                copy_text(prepared, 0, existing, STORE_ID_SIZE);
            sqlite3_finalize(prepared);
        }
        if (existing[0]) store_fail(error, error_size, "already");
        else store_fail(error, error_size, "no table %s", table_id);
    }
    unlock(storage);
    return good;
}

bool sqlite_store_set_options(sqlite_store *storage, const char *table_id, const char *options,
                              char *error, size_t error_size)
{
    if (!lock_for(storage, table_id, error, error_size)) return false;
    if (!check_file(storage, error, error_size)) {
        unlock(storage);
        return false;
    }
    sqlite3_stmt *prepared;
    int status = prepare(storage, "UPDATE tables SET options = ?2 WHERE id = ?1", &prepared);
    if (status == SQLITE_OK) {
        sqlite3_bind_text(prepared, 1, table_id, -1, SQLITE_STATIC);
        sqlite3_bind_text(prepared, 2, options, -1, SQLITE_STATIC);
        status = sqlite3_step(prepared);
        sqlite3_finalize(prepared);
    }
    bool good = status == SQLITE_DONE;
    if (!good)
        store_fail(error, error_size, "store: cannot set the options of table %s: %s", table_id,
                   sqlite3_errmsg(storage->database));
    else if (sqlite3_changes(storage->database) != 1)
        good = store_fail(error, error_size, "no table %s", table_id);
    unlock(storage);
    return good;
}

bool sqlite_store_set_last_move_time(sqlite_store *storage, const char *table_id, int64_t when,
                                     char *error, size_t error_size)
{
    if (!lock_for(storage, table_id, error, error_size)) return false;
    int status = run_for_table(storage,
                               "UPDATE moves SET played = ?2 WHERE table_id = ?1 AND number ="
                               " (SELECT max(number) FROM moves WHERE table_id = ?1)",
                               table_id, &when);
    if (status == SQLITE_DONE && sqlite3_changes(storage->database) == 0)
        status = run_for_table(storage, "UPDATE tables SET created = ?2 WHERE id = ?1", table_id,
                               &when);
    bool good = status == SQLITE_DONE;
    if (!good)
        store_fail(error, error_size, "store: cannot set the time of table %s: %s", table_id,
                   sqlite3_errmsg(storage->database));
    else if (sqlite3_changes(storage->database) != 1)
        good = store_fail(error, error_size, "no table %s", table_id);
    unlock(storage);
    return good;
}

/* One statement, one transaction: the move goes only while it is the
 * table's last (its number the largest), so a move stored meanwhile
 * keeps it. */
bool sqlite_store_remove_last_move(sqlite_store *storage, const char *table_id, int number,
                                   char *error, size_t error_size)
{
    if (!lock_for(storage, table_id, error, error_size)) return false;
    if (!check_file(storage, error, error_size)) {
        unlock(storage);
        return false;
    }
    int64_t last = number;
    int status = run_for_table(storage,
                               "DELETE FROM moves WHERE table_id = ?1 AND number = ?2 AND number ="
                               " (SELECT max(number) FROM moves WHERE table_id = ?1)",
                               table_id, &last);
    bool good = status == SQLITE_DONE;
    if (!good) {
        store_fail(error, error_size, "store: cannot remove move %d of table %s: %s", number,
                   table_id, sqlite3_errmsg(storage->database));
    } else if (sqlite3_changes(storage->database) != 1) {
        good = store_fail(error, error_size, "move %d is not the last of table %s", number,
                          table_id);
    } else if (storage->lock_file >= 0) {
        /* The lock file's count goes down with the row, or the next start
         * would take the removed move for a lost one. */
        storage->moves--;
        write_counts(storage);
    }
    unlock(storage);
    return good;
}

/* A read of the schema through the store's own connection (GET
 * /healthz), and the file still where it was opened: a file deleted or
 * replaced under a running server would take writes that no restart
 * finds (the read alone, from the open file, would not notice). */
bool sqlite_store_check(sqlite_store *storage, char *error, size_t error_size)
{
    if (!lock(storage, error, error_size)) return false;
    char *reason = NULL;
    int status = sqlite3_exec(storage->database, "SELECT count(*) FROM tables WHERE 0", NULL, NULL,
                              &reason);
    bool good = status == SQLITE_OK;
    if (!good)
        store_fail(error, error_size, "store: the database does not answer: %s",
                   reason ? reason : sqlite3_errstr(status));
    else
        good = check_file(storage, error, error_size); /* (what every write checks) */
    sqlite3_free(reason);
    unlock(storage);
    return good;
}

/* ---- reviews ------------------------------------------------------------------------ */

bool sqlite_store_save_review(sqlite_store *storage, const char *table_id, const char *review,
                              int64_t made, char *error, size_t error_size)
{
    if (!lock_for(storage, table_id, error, error_size)) return false;
    if (!check_file(storage, error, error_size)) {
        unlock(storage);
        return false;
    }
    sqlite3_stmt *prepared;
    int status = prepare(storage,
                         "INSERT OR REPLACE INTO reviews (table_id, review, made)"
                         " SELECT id, ?2, ?3 FROM tables WHERE id = ?1",
                         &prepared);
    if (status == SQLITE_OK) {
        sqlite3_bind_text(prepared, 1, table_id, -1, SQLITE_STATIC);
        sqlite3_bind_text(prepared, 2, review, -1, SQLITE_STATIC);
        sqlite3_bind_int64(prepared, 3, made);
        status = sqlite3_step(prepared);
        sqlite3_finalize(prepared);
    }
    bool good = status == SQLITE_DONE;
    if (!good)
        store_fail(error, error_size, "store: cannot keep the review of table %s: %s", table_id,
                   sqlite3_errmsg(storage->database));
    else if (sqlite3_changes(storage->database) != 1)
        good = store_fail(error, error_size, "no table %s", table_id);
    unlock(storage);
    return good;
}

bool sqlite_store_load_review(sqlite_store *storage, const char *table_id, char **review,
                              char *error, size_t error_size)
{
    *review = NULL;
    if (!lock_for(storage, table_id, error, error_size)) return false;
    sqlite3_stmt *prepared;
    int status = prepare(storage, "SELECT review FROM reviews WHERE table_id = ?1", &prepared);
    if (status == SQLITE_OK) {
        sqlite3_bind_text(prepared, 1, table_id, -1, SQLITE_STATIC);
        status = sqlite3_step(prepared);
        if (status == SQLITE_ROW) {
            const char *text = (const char *)sqlite3_column_text(prepared, 0);
            if (text && !(*review = strdup(text))) abort(); /* out of memory */
            status = SQLITE_DONE;
        }
        sqlite3_finalize(prepared);
    }
    bool good = status == SQLITE_DONE;
    if (!good)
        store_fail(error, error_size, "store: cannot read the review of table %s: %s", table_id,
                   sqlite3_errmsg(storage->database));
    unlock(storage);
    return good;
}
