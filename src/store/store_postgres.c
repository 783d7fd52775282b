/*
 * store_postgres.c: the store (store.h) in a PostgreSQL database, for
 * several `gateau serve` processes on one database (docs/server.md).
 *
 * The database decides the order of moves: moves has the primary key
 * (table_id, number), and a move is inserted only when its number is the
 * table's next (INSERT ... SELECT ... WHERE, ON CONFLICT DO NOTHING).  Two
 * processes storing move N at once: the second insert waits for the
 * first's transaction and then inserts nothing, so exactly one wins and
 * the other is told "move N is already there".  A gap is refused too.
 *
 * Changes are announced by the database itself: triggers on moves, seats
 * and tables NOTIFY the channel "gateau" with "<table id> <version>"
 * (the move count after a move, -1 after another change), delivered when
 * the transaction commits, to every process that LISTENs (store_watch,
 * on a second connection and a thread of its own).
 *
 * One connection for the calls, used by one thread at a time under
 * storage->lock.  Group commit as in store_sqlite.c: moves appended at the
 * same time go in one transaction (one commit, one WAL flush in the
 * server), each caller returning once its own row is committed.  A lost
 * connection is opened again at the next call.
 *
 * Durability: the server's defaults (synchronous_commit on): a commit
 * has reached the server's disk when it returns, so a move the server
 * acknowledges survives kill -9 of gateau, and of PostgreSQL too.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store/backend.h"
#include "store/libpq.h"

/* The schema's version, kept in gateau_schema; a later gateau migrates
 * from there, and this one refuses a database of a newer one. */
enum { SCHEMA_VERSION = 5 };

/* Serializes schema creation between processes opening a new database
 * at once (pg_advisory_xact_lock's key: "GATE"). */
#define SCHEMA_LOCK "1195463749"

static const char *const schema_sql =
    "CREATE TABLE gateau_schema (version INTEGER NOT NULL);"
    "INSERT INTO gateau_schema VALUES (1);"
    "CREATE TABLE tables ("
    "  id TEXT PRIMARY KEY NOT NULL,"
    "  game TEXT NOT NULL,"
    "  players INTEGER NOT NULL,"
    "  options TEXT NOT NULL,"
    "  seed BIGINT NOT NULL,"
    "  clock TEXT NOT NULL,"
    "  created BIGINT NOT NULL,"
    "  over BOOLEAN NOT NULL DEFAULT false,"
    "  result TEXT,"
    "  creator_hash BYTEA NOT NULL);"
    "CREATE INDEX tables_by_age ON tables (created, id);"
    "CREATE TABLE seats ("
    "  table_id TEXT NOT NULL REFERENCES tables (id),"
    "  seat INTEGER NOT NULL,"
    "  spec TEXT NOT NULL,"
    "  name TEXT NOT NULL,"
    "  has_token BOOLEAN NOT NULL,"
    "  token_hash BYTEA,"
    "  zombie BOOLEAN NOT NULL,"
    "  PRIMARY KEY (table_id, seat));"
    "CREATE TABLE moves ("
    "  table_id TEXT NOT NULL REFERENCES tables (id),"
    "  number INTEGER NOT NULL,"
    "  seat INTEGER NOT NULL,"
    "  line TEXT NOT NULL,"
    "  clock_left BIGINT NOT NULL,"
    "  PRIMARY KEY (table_id, number));"
    /* The announcements (store_watch). */
    "CREATE FUNCTION gateau_move_stored() RETURNS trigger LANGUAGE plpgsql AS $$"
    " BEGIN PERFORM pg_notify('gateau', NEW.table_id || ' ' || (NEW.number + 1)); RETURN NULL;"
    " END $$;"
    "CREATE FUNCTION gateau_seat_changed() RETURNS trigger LANGUAGE plpgsql AS $$"
    " BEGIN PERFORM pg_notify('gateau', NEW.table_id || ' -1'); RETURN NULL; END $$;"
    "CREATE FUNCTION gateau_table_changed() RETURNS trigger LANGUAGE plpgsql AS $$"
    " BEGIN PERFORM pg_notify('gateau', NEW.id || ' -1'); RETURN NULL; END $$;"
    "CREATE TRIGGER moves_announced AFTER INSERT ON moves"
    "  FOR EACH ROW EXECUTE FUNCTION gateau_move_stored();"
    "CREATE TRIGGER seats_announced AFTER UPDATE ON seats"
    "  FOR EACH ROW EXECUTE FUNCTION gateau_seat_changed();"
    "CREATE TRIGGER tables_announced AFTER UPDATE ON tables"
    "  FOR EACH ROW EXECUTE FUNCTION gateau_table_changed();";

/* upgrades[v - 1] takes the schema from version v to v + 1 (schema_sql
 * makes version 1).  Later versions append here; never edit an entry once
 * released. */
static const char *const upgrades[] = {
    /* 2: when each move was stored (Unix seconds), for expiry; the moves
     * of unfinished tables from before count as stored at the upgrade. */
    "ALTER TABLE moves ADD COLUMN played BIGINT;"
    "UPDATE moves SET played = extract(epoch FROM now())::bigint"
    "  WHERE table_id IN (SELECT id FROM tables WHERE NOT over);"
    "UPDATE gateau_schema SET version = 2;",
    /* 3: decks sent by clients, by name (their hash), readable by every
     * process on the database. */
    "CREATE TABLE decks (name TEXT PRIMARY KEY NOT NULL, content TEXT NOT NULL);"
    "UPDATE gateau_schema SET version = 3;",
    /* 4: the people at a table: the creator's name (the lobby's host),
     * the table a finished one's rematch made, and each table's chat. */
    "ALTER TABLE tables ADD COLUMN host TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE tables ADD COLUMN rematch TEXT NOT NULL DEFAULT '';"
    "CREATE TABLE chat ("
    "  table_id TEXT NOT NULL REFERENCES tables (id),"
    "  number INTEGER NOT NULL,"
    "  seat INTEGER NOT NULL,"
    "  name TEXT NOT NULL,"
    "  text TEXT NOT NULL,"
    "  posted BIGINT NOT NULL,"
    "  PRIMARY KEY (table_id, number));"
    /* (every process hears of a message: its pages' sockets get it) */
    "CREATE OR REPLACE FUNCTION gateau_chat_posted() RETURNS trigger LANGUAGE plpgsql AS $$"
    " BEGIN PERFORM pg_notify('gateau', NEW.table_id || ' -1'); RETURN NULL; END $$;"
    "CREATE TRIGGER chat_announced AFTER INSERT ON chat"
    "  FOR EACH ROW EXECUTE FUNCTION gateau_chat_posted();"
    "UPDATE gateau_schema SET version = 4;",
    /* 5: a finished table's review (docs/review.md), as the JSON the
     * review library writes, and when it was made (Unix seconds). */
    "CREATE TABLE reviews ("
    "  table_id TEXT PRIMARY KEY NOT NULL REFERENCES tables (id),"
    "  review TEXT NOT NULL,"
    "  made BIGINT NOT NULL);"
    "UPDATE gateau_schema SET version = 5;",
};

/* The statements, prepared on each connection. */
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
    STATEMENT_COUNT
};

#define TABLE_COLUMNS "id, game, players, options, seed, clock, created, over, creator_hash"

static const struct {
    const char *sql;
    int parameters;
} statements[STATEMENT_COUNT] = {
    /* Inserted only as the table's next move, and only once (see the top). */
    [APPEND_MOVE] = {"INSERT INTO moves (table_id, number, seat, line, clock_left, played)"
                     " SELECT $1, $2, $3, $4, $5, $6"
                     " WHERE $2 = (SELECT coalesce(max(number) + 1, 0) FROM moves"
                     "             WHERE table_id = $1)"
                     " ON CONFLICT DO NOTHING",
                     6},
    [NEXT_MOVE_NUMBER] = {"SELECT coalesce(max(number) + 1, 0) FROM moves WHERE table_id = $1",
                          1},
    [INSERT_TABLE] = {"INSERT INTO tables (" TABLE_COLUMNS ", host)"
                      " VALUES ($1, $2, $3, $4, $5, $6, $7, false, $8, $9) ON CONFLICT DO NOTHING",
                      9},
    [INSERT_SEAT] = {"INSERT INTO seats (table_id, seat, spec, name, has_token, token_hash,"
                     " zombie) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                     7},
    [UPDATE_SEAT] = {"UPDATE seats SET spec = $3, name = $4, has_token = $5, token_hash = $6,"
                     " zombie = $7 WHERE table_id = $1 AND seat = $2",
                     7},
    [FINISH_TABLE] = {"UPDATE tables SET over = true, result = $2 WHERE id = $1 AND NOT over", 2},
    [TABLE_STATUS] = {"SELECT players, over FROM tables WHERE id = $1", 1},
    [SELECT_TABLES] = {"SELECT " TABLE_COLUMNS ", result, host, rematch FROM tables"
                       " WHERE NOT ($1 AND over)"
                       " ORDER BY created, id",
                       1},
    [SELECT_TABLE] = {"SELECT " TABLE_COLUMNS ", result, host, rematch FROM tables WHERE id = $1",
                      1},
    [SELECT_SEATS] = {"SELECT seat, spec, name, has_token, token_hash, zombie FROM seats"
                      " WHERE table_id = $1 ORDER BY seat",
                      1},
    [SELECT_MOVES] = {"SELECT number, seat, line, clock_left FROM moves WHERE table_id = $1"
                      " ORDER BY number",
                      1},
};

/* A move waiting for its commit (postgres_store_append_move). */
struct postgres_store {
    char *url;
    /* Error-checking, so that a visitor calling the store back (which
     * would deadlock) gets an error instead. */
    pthread_mutex_t lock;
    PGconn *connection;
    /* Group commit, as in store_sqlite.c. */
    commit_queue queue;
    /* store_watch: its connection and thread, stopped through a pipe. */
    PGconn *listener;
    pthread_t listen_thread;
    bool listening;
    int stop_pipe[2];
    store_change_visitor notice;
    void *notice_context;
};

/* libpq's own message about a connection names where the server is:
 * 'connection to server at "db.example.org" (10.0.0.5), port 5432
 * failed: ...', 'on socket "/run/postgresql/.s.PGSQL.5432"', 'could not
 * translate host name "db"'.  Those go to logs that need not say where
 * the database lives (docs/server.md), so every quoted name, the address
 * in brackets after one, and the port are written as "***" in place. */
void store_hide_addresses(char *line)
{
    char out[256];
    size_t used = 0;
    bool after_quote = false;
    for (const char *c = line; *c && used + 4 < sizeof out;) {
        const char *hidden_end = NULL;
        if (*c == '"') {
            hidden_end = strchr(c + 1, '"');
            if (hidden_end) hidden_end++;
        } else if (*c == '(' && after_quote) {
            hidden_end = strchr(c, ')');
            if (hidden_end) hidden_end++;
        } else if (!strncmp(c, "port ", 5) && c[5] >= '0' && c[5] <= '9') {
            memcpy(out + used, "port ", 5);
            used += 5;
            c += 5;
            hidden_end = c + strspn(c, "0123456789");
        }
        if (hidden_end) {
            bool bracketed = *c == '(';
            const char *mask = bracketed ? "(***)" : "***";
            size_t length = strlen(mask);
            if (used + length >= sizeof out) break;
            memcpy(out + used, mask, length);
            used += length;
            after_quote = *c == '"';
            c = hidden_end;
            continue;
        }
        if (*c != ' ') after_quote = false;
        out[used++] = *c++;
    }
    out[used] = '\0';
    memcpy(line, out, used + 1);
}

/* PostgreSQL's message, on one line (libpq's end with a newline, some
 * have a DETAIL line), libpq's own about the connection without where
 * the server is (store_hide_addresses): a static buffer per thread. */
static const char *message_of(PGconn *connection, const PGresult *result)
{
    static _Thread_local char line[256];
    const char *text = result ? libpq.PQresultErrorMessage(result) : "";
    bool about_connection = !text[0];
    if (about_connection) text = libpq.PQerrorMessage(connection);
    snprintf(line, sizeof line, "%s", text[0] ? text : "no answer from the server");
    for (char *c = line; *c; c++)
        if (*c == '\n' || *c == '\r') {
            *c = '\0';
            break;
        }
    if (about_connection) store_hide_addresses(line);
    return line;
}

/* The URL without its password, for messages. */
static void url_for_messages(const char *url, char *out, size_t size)
{
    store_path_shown(url, out, size);
}

/* ---- connecting ---------------------------------------------------------------------- */

static bool execute(PGconn *connection, const char *sql, char *reason, size_t size)
{
    PGresult *result = libpq.PQexec(connection, sql);
    bool done = libpq.PQresultStatus(result) == PGRES_COMMAND_OK ||
                libpq.PQresultStatus(result) == PGRES_TUPLES_OK;
    if (!done) store_fail(reason, size, "%s", message_of(connection, result));
    libpq.PQclear(result);
    return done;
}

/* Creates the schema in a new database, or checks that of an old one, in
 * one transaction under an advisory lock (two processes opening a new
 * database at once create it once). */
static bool migrate(PGconn *connection, const char *shown, char *error, size_t error_size)
{
    char reason[256];
    if (!execute(connection, "BEGIN; SELECT pg_advisory_xact_lock(" SCHEMA_LOCK ")", reason,
                 sizeof reason))
        return store_fail(error, error_size, "store: cannot open %s: %s", shown, reason);
    PGresult *result = libpq.PQexec(connection, "SELECT to_regclass('gateau_schema') IS NOT NULL,"
                                          " to_regclass('moves') IS NOT NULL");
    bool good = libpq.PQresultStatus(result) == PGRES_TUPLES_OK && libpq.PQntuples(result) == 1;
    bool marked = good && libpq.PQgetvalue(result, 0, 0)[0] == 't';
    bool foreign = good && !marked && libpq.PQgetvalue(result, 0, 1)[0] == 't';
    if (!good) snprintf(reason, sizeof reason, "%s", message_of(connection, result));
    libpq.PQclear(result);
    if (good && foreign) {
        execute(connection, "ROLLBACK", NULL, 0);
        return store_fail(error, error_size,
                    "store: cannot open %s: not a gateau database (it has a table named moves)",
                    shown);
    }
    int version = 1;
    if (good && marked) {
        result = libpq.PQexec(connection, "SELECT max(version) FROM gateau_schema");
        version = libpq.PQresultStatus(result) == PGRES_TUPLES_OK && libpq.PQntuples(result) == 1
                          ? atoi(libpq.PQgetvalue(result, 0, 0))
                          : -1;
        libpq.PQclear(result);
        if (version > SCHEMA_VERSION) {
            execute(connection, "ROLLBACK", NULL, 0);
            return store_fail(error, error_size,
                        "store: cannot open %s: written by a newer gateau (schema version %d,"
                        " this one knows up to %d)",
                        shown, version, SCHEMA_VERSION);
        }
        if (version < 1) {
            execute(connection, "ROLLBACK", NULL, 0);
            return store_fail(error, error_size, "store: cannot open %s: damaged (no schema version)",
                        shown);
        }
    } else if (good) {
        good = execute(connection, schema_sql, reason, sizeof reason);
    }
    for (int v = version; good && v < SCHEMA_VERSION; v++)
        good = execute(connection, upgrades[v - 1], reason, sizeof reason);
    if (good) good = execute(connection, "COMMIT", reason, sizeof reason);
    if (!good) {
        execute(connection, "ROLLBACK", NULL, 0);
        return store_fail(error, error_size, "store: cannot create the schema in %s: %s", shown, reason);
    }
    return true;
}

static bool prepare_statements(PGconn *connection, char *reason, size_t size)
{
    for (int s = 0; s < STATEMENT_COUNT; s++) {
        char name[16];
        snprintf(name, sizeof name, "s%d", s);
        PGresult *result = libpq.PQprepare(connection, name, statements[s].sql, statements[s].parameters,
                                     NULL);
        bool done = libpq.PQresultStatus(result) == PGRES_COMMAND_OK;
        if (!done) store_fail(reason, size, "%s", message_of(connection, result));
        libpq.PQclear(result);
        if (!done) return false;
    }
    return true;
}

/* Every statement gives up after STATEMENT_TIMEOUT, and every wait for
 * a lock after LOCK_TIMEOUT: a move never waits for long behind a stuck
 * transaction or a server in trouble (the caller answers 503 and
 * retries).  Set on each connection, again after a reconnection. */
#define SESSION_SETTINGS "SET statement_timeout = '10s'; SET lock_timeout = '3s'"

static void ignore_notice(void *context, const char *message)
{
    (void)context, (void)message;
}

static PGconn *connect_to(const char *url, const char *shown, char *error, size_t error_size)
{
    char reason[256];
    if (!libpq_load(reason, sizeof reason)) {
        store_fail(error, error_size, "store: cannot open %s: %s", shown, reason);
        return NULL;
    }
    PGconn *connection = libpq.PQconnectdb(url);
    if (libpq.PQstatus(connection) != CONNECTION_OK) {
        store_fail(error, error_size, "store: cannot open %s: %s", shown, message_of(connection, NULL));
        libpq.PQfinish(connection);
        return NULL;
    }
    /* The server's notices are not ours to print. */
    libpq.PQsetNoticeProcessor(connection, ignore_notice, NULL);
    if (!execute(connection, SESSION_SETTINGS, reason, sizeof reason)) {
        store_fail(error, error_size, "store: cannot open %s: %s", shown, reason);
        libpq.PQfinish(connection);
        return NULL;
    }
    return connection;
}

/* The call connection, opened again if it was lost (a restart of the
 * server): false with a reason when it cannot be. */
static bool ensure_connected(postgres_store *storage, char *error, size_t error_size)
{
    if (libpq.PQstatus(storage->connection) == CONNECTION_OK) return true;
    libpq.PQreset(storage->connection);
    char reason[256];
    if (libpq.PQstatus(storage->connection) != CONNECTION_OK)
        return store_fail(error, error_size, "store: the database is unreachable: %s",
                    message_of(storage->connection, NULL));
    if (!execute(storage->connection, SESSION_SETTINGS, reason, sizeof reason) ||
        !prepare_statements(storage->connection, reason, sizeof reason))
        return store_fail(error, error_size, "store: the database is unreachable: %s", reason);
    return true;
}

static void stop_watching(postgres_store *storage);

void postgres_store_close(postgres_store *storage)
{
    if (!storage) return;
    stop_watching(storage);
    if (storage->connection) libpq.PQfinish(storage->connection);
    pthread_mutex_destroy(&storage->lock);
    commit_queue_destroy(&storage->queue);
    free(storage->url);
    free(storage);
}

postgres_store *postgres_store_open(const char *url, char *error, size_t error_size)
{
    char shown[512];
    url_for_messages(url, shown, sizeof shown);
    postgres_store *storage = calloc(1, sizeof *storage);
    if (!storage) abort(); /* out of memory */
    storage->url = strdup(url);
    if (!storage->url) abort();
    storage->stop_pipe[0] = storage->stop_pipe[1] = -1;
    pthread_mutexattr_t attributes;
    pthread_mutexattr_init(&attributes);
    pthread_mutexattr_settype(&attributes, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(&storage->lock, &attributes);
    pthread_mutexattr_destroy(&attributes);
    commit_queue_init(&storage->queue);
    char reason[256];
    storage->connection = connect_to(url, shown, error, error_size);
    if (!storage->connection || !migrate(storage->connection, shown, error, error_size)) {
        postgres_store_close(storage);
        return NULL;
    }
    if (!prepare_statements(storage->connection, reason, sizeof reason)) {
        store_fail(error, error_size, "store: cannot open %s: %s", shown, reason);
        postgres_store_close(storage);
        return NULL;
    }
    return storage;
}

/* ---- helpers of the calls ------------------------------------------------------------- */

static bool lock(postgres_store *storage, char *error, size_t error_size)
{
    int status = pthread_mutex_lock(&storage->lock);
    if (status == EDEADLK)
        return store_fail(error, error_size, "store: called from inside a visit of store_load_tables");
    if (status != 0) return store_fail(error, error_size, "store: cannot lock: %s", strerror(status));
    if (!ensure_connected(storage, error, error_size)) {
        pthread_mutex_unlock(&storage->lock);
        return false;
    }
    return true;
}

static bool lock_for(postgres_store *storage, const char *table_id, char *error,
                     size_t error_size)
{
    if (!table_id) return store_fail(error, error_size, "store: no table id given");
    return lock(storage, error, error_size);
}

static void unlock(postgres_store *storage)
{
    pthread_mutex_unlock(&storage->lock);
}

/* The parameters of one statement, as text (binary for the hashes). */
typedef struct parameters {
    const char *values[12];
    int lengths[12], formats[12];
    char numbers[12][24];
    int count;
} parameters;

static void add_text(parameters *list, const char *text)
{
    /* (a statement with more parameters than the list holds is this
     * file's mistake: stop rather than write past it) */
    if (list->count == (int)(sizeof list->values / sizeof *list->values)) abort();
    list->values[list->count] = text;
    list->lengths[list->count] = 0;
    list->formats[list->count++] = 0;
}

static void add_integer(parameters *list, long long value)
{
    snprintf(list->numbers[list->count], sizeof list->numbers[0], "%lld", value);
    add_text(list, list->numbers[list->count]);
}

static void add_boolean(parameters *list, bool value)
{
    add_text(list, value ? "true" : "false");
}

/* A hash, or NULL when there is none. */
static void add_hash(parameters *list, const uint8_t *hash)
{
    list->values[list->count] = (const char *)hash;
    list->lengths[list->count] = hash ? STORE_HASH_SIZE : 0;
    list->formats[list->count++] = 1;
}

static PGresult *run(postgres_store *storage, enum statement which, const parameters *list)
{
    char name[16];
    snprintf(name, sizeof name, "s%d", (int)which);
    return libpq.PQexecPrepared(storage->connection, name, list->count, list->values, list->lengths,
                          list->formats, 0);
}

/* Rows a command changed ("INSERT 0 1": 1). */
static int changed_rows(PGresult *result)
{
    return atoi(libpq.PQcmdTuples(result));
}

static const char *message(postgres_store *storage, const PGresult *result)
{
    return message_of(storage->connection, result);
}

/* The seed's bits as PostgreSQL's signed BIGINT and back. */
static long long seed_to_column(uint64_t seed)
{
    int64_t value;
    memcpy(&value, &seed, sizeof value);
    return (long long)value;
}

static uint64_t seed_from_column(const char *text)
{
    int64_t value = strtoll(text, NULL, 10);
    uint64_t seed;
    memcpy(&seed, &value, sizeof seed);
    return seed;
}

/* Whether table_id is there (1), not (0), or the query failed (-1); its
 * player count and whether it is over. */
static int table_status(postgres_store *storage, const char *table_id, int *players, bool *over)
{
    parameters list = {0};
    add_text(&list, table_id);
    PGresult *result = run(storage, TABLE_STATUS, &list);
    int found = libpq.PQresultStatus(result) != PGRES_TUPLES_OK ? -1 : libpq.PQntuples(result) == 1;
    if (found == 1) {
        *players = atoi(libpq.PQgetvalue(result, 0, 0));
        *over = libpq.PQgetvalue(result, 0, 1)[0] == 't';
    }
    libpq.PQclear(result);
    return found;
}

static void bind_seat(parameters *list, const char *table_id, int seat, const store_seat *value)
{
    add_text(list, table_id);
    add_integer(list, seat);
    add_text(list, value->spec);
    add_text(list, value->name);
    add_boolean(list, value->has_token);
    add_hash(list, value->has_token ? value->token_hash : NULL);
    add_boolean(list, value->zombie);
}

/* ---- writing ------------------------------------------------------------------------ */

static bool rollback(postgres_store *storage)
{
    execute(storage->connection, "ROLLBACK", NULL, 0);
    return false;
}

static bool create_table(postgres_store *storage, const store_table *table, char *error,
                         size_t error_size)
{
    if (!store_table_fits(table, error, error_size)) return false;
    const char *id = table->id;

    char reason[256];
    if (!execute(storage->connection, "BEGIN", reason, sizeof reason))
        return store_fail(error, error_size, "store: cannot create table %s: %s", id, reason);
    parameters list = {0};
    add_text(&list, id);
    add_text(&list, table->game);
    add_integer(&list, table->players);
    add_text(&list, table->options);
    add_integer(&list, seed_to_column(table->seed));
    add_text(&list, table->clock);
    add_integer(&list, table->created);
    add_hash(&list, table->creator_hash);
    add_text(&list, table->host);
    PGresult *result = run(storage, INSERT_TABLE, &list);
    bool done = libpq.PQresultStatus(result) == PGRES_COMMAND_OK;
    if (done && changed_rows(result) == 0) {
        libpq.PQclear(result);
        store_fail(error, error_size, "store: cannot create table %s: it already exists", id);
        return rollback(storage);
    }
    for (int s = 0; s < table->players && done; s++) {
        libpq.PQclear(result);
        list = (parameters){0};
        bind_seat(&list, id, s, &table->seats[s]);
        result = run(storage, INSERT_SEAT, &list);
        done = libpq.PQresultStatus(result) == PGRES_COMMAND_OK;
    }
    if (!done) snprintf(reason, sizeof reason, "%s", message(storage, result));
    libpq.PQclear(result);
    if (done) done = execute(storage->connection, "COMMIT", reason, sizeof reason);
    if (done) return true;
    store_fail(error, error_size, "store: cannot create table %s: %s", id, reason);
    return rollback(storage);
}

bool postgres_store_create_table(postgres_store *storage, const store_table *table, char *error,
                                 size_t error_size)
{
    if (!lock(storage, error, error_size)) return false;
    bool done = create_table(storage, table, error, error_size);
    unlock(storage);
    return done;
}

static bool update_seat(postgres_store *storage, const char *table_id, int seat,
                        const store_seat *value, char *error, size_t error_size)
{
    if (!store_seat_fits(value))
        return store_fail(error, error_size,
                    "store: cannot update seat index %d of table %s: unterminated text", seat,
                    table_id);
    parameters list = {0};
    bind_seat(&list, table_id, seat, value);
    PGresult *result = run(storage, UPDATE_SEAT, &list);
    bool done = libpq.PQresultStatus(result) == PGRES_COMMAND_OK;
    int changed = done ? changed_rows(result) : 0;
    if (!done)
        store_fail(error, error_size, "store: cannot update seat index %d of table %s: %s", seat,
             table_id, message(storage, result));
    libpq.PQclear(result);
    if (!done) return false;
    if (changed == 1) return true;
    int players;
    bool over;
    int found = table_status(storage, table_id, &players, &over);
    if (found == 1)
        return store_fail(error, error_size,
                    "store: cannot update seat index %d of table %s: it has %d seats", seat,
                    table_id, players);
    return store_fail(error, error_size, "store: cannot update seat index %d of table %s: %s", seat,
                table_id, found == 0 ? "no such table" : message(storage, NULL));
}

bool postgres_store_update_seat(postgres_store *storage, const char *table_id, int seat,
                                const store_seat *value, char *error, size_t error_size)
{
    if (!lock_for(storage, table_id, error, error_size)) return false;
    bool done = update_seat(storage, table_id, seat, value, error, error_size);
    unlock(storage);
    return done;
}

/* Why a move inserted nothing: no such table, a duplicate or a gap. */
static bool explain_refused_move(postgres_store *storage, const char *table_id, int number,
                                 char *error, size_t error_size)
{
    int players;
    bool over;
    int found = table_status(storage, table_id, &players, &over);
    if (found == 0)
        return store_fail(error, error_size, "store: cannot append move %d to table %s: no such table",
                    number, table_id);
    parameters list = {0};
    add_text(&list, table_id);
    PGresult *result = run(storage, NEXT_MOVE_NUMBER, &list);
    long long next = libpq.PQresultStatus(result) == PGRES_TUPLES_OK && libpq.PQntuples(result) == 1
                         ? atoll(libpq.PQgetvalue(result, 0, 0))
                         : -1;
    if (found < 0 || next < 0) {
        store_fail(error, error_size, "store: cannot append move %d to table %s: %s", number, table_id,
             message(storage, result));
        libpq.PQclear(result);
        return false;
    }
    libpq.PQclear(result);
    if (number < next)
        return store_fail(error, error_size,
                    "store: cannot append move %d to table %s: move %d is already there", number,
                    table_id, number);
    return store_fail(error, error_size,
                "store: cannot append move %d to table %s: the next move is %lld", number,
                table_id, next);
}

/* Appends one move inside the batch's transaction.  False with *broken
 * when the transaction itself failed (then nothing of it commits). */
static bool append_move(postgres_store *storage, const char *table_id, const store_move *move,
                        bool *broken, char *error, size_t error_size)
{
    if (!move->line)
        return store_fail(error, error_size, "store: cannot append move %d to table %s: no line",
                    move->number, table_id);
    parameters list = {0};
    add_text(&list, table_id);
    add_integer(&list, move->number);
    add_integer(&list, move->seat);
    add_text(&list, move->line);
    add_integer(&list, move->clock_left);
    add_integer(&list, (long long)time(NULL));
    PGresult *result = run(storage, APPEND_MOVE, &list);
    bool done = libpq.PQresultStatus(result) == PGRES_COMMAND_OK;
    if (!done) {
        *broken = true;
        /* (a foreign key: the number was the next, 0, of no table) */
        bool no_table = !strcmp(libpq.PQresultErrorField(result, PG_DIAG_SQLSTATE) ?
                                    libpq.PQresultErrorField(result, PG_DIAG_SQLSTATE) : "", "23503");
        if (no_table)
            store_fail(error, error_size, "store: cannot append move %d to table %s: no such table",
                 move->number, table_id);
        else
            store_fail(error, error_size, "store: cannot append move %d to table %s: %s", move->number,
                 table_id, message(storage, result));
        libpq.PQclear(result);
        return false;
    }
    int changed = changed_rows(result);
    libpq.PQclear(result);
    if (changed == 1) return true;
    return explain_refused_move(storage, table_id, move->number, error, error_size);
}

/* Commits a batch of waiting moves in one transaction: each is appended
 * or refused on its own.  A statement that fails (rather than inserting
 * nothing: a foreign key, a lost connection) aborts the transaction, so
 * the batch is then tried again one move per transaction. */
static void commit_batch(postgres_store *storage, pending_move *batch, bool one_by_one)
{
    char reason[256];
    if (!lock(storage, reason, sizeof reason)) {
        for (pending_move *item = batch; item; item = item->next)
            store_fail(item->error, item->error_size, "%s", reason);
        return;
    }
    for (pending_move *start = batch; start;) {
        pending_move *end = one_by_one ? start->next : NULL;
        bool begun = execute(storage->connection, "BEGIN", reason, sizeof reason), broken = false;
        for (pending_move *item = start; begun && item != end; item = item->next)
            item->appended = append_move(storage, item->table_id, item->move, &broken, item->error,
                                         item->error_size) && !broken;
        if (broken && !one_by_one && start->next) {
            /* Which move broke it matters only to itself: again, alone. */
            rollback(storage);
            unlock(storage);
            for (pending_move *item = start; item; item = item->next) item->appended = false;
            commit_batch(storage, start, true);
            return;
        }
        bool committed = begun && !broken &&
                         execute(storage->connection, "COMMIT", reason, sizeof reason);
        if (begun && !committed) rollback(storage);
        for (pending_move *item = start; !committed && item != end; item = item->next) {
            if (!item->appended && (broken || begun)) continue; /* (its own reason) */
            item->appended = false;
            store_fail(item->error, item->error_size, "store: cannot append move %d to table %s: %s",
                 item->move->number, item->table_id, reason);
        }
        start = end;
    }
    unlock(storage);
}

/* (the commit_queue's commit: backend.h) */
static void commit_queued(void *backend, pending_move *batch)
{
    commit_batch(backend, batch, false);
}

bool postgres_store_append_move(postgres_store *storage, const char *table_id,
                                const store_move *move, char *error, size_t error_size)
{
    pending_move mine = {.table_id = table_id, .move = move, .error = error,
                         .error_size = error_size};
    commit_queue_wait(&storage->queue, &mine, commit_queued, storage);
    return mine.appended;
}

static bool finish_table(postgres_store *storage, const char *table_id, const char *result_json,
                         char *error, size_t error_size)
{
    if (!result_json)
        return store_fail(error, error_size, "store: cannot finish table %s: no result", table_id);
    parameters list = {0};
    add_text(&list, table_id);
    add_text(&list, result_json);
    PGresult *result = run(storage, FINISH_TABLE, &list);
    bool done = libpq.PQresultStatus(result) == PGRES_COMMAND_OK;
    int changed = done ? changed_rows(result) : 0;
    if (!done)
        store_fail(error, error_size, "store: cannot finish table %s: %s", table_id,
             message(storage, result));
    libpq.PQclear(result);
    if (!done) return false;
    if (changed == 1) return true;
    int players;
    bool over;
    int found = table_status(storage, table_id, &players, &over);
    if (found == 1)
        return store_fail(error, error_size, "store: cannot finish table %s: it is already over",
                    table_id);
    return store_fail(error, error_size, "store: cannot finish table %s: %s", table_id,
                found == 0 ? "no such table" : message(storage, NULL));
}

bool postgres_store_finish_table(postgres_store *storage, const char *table_id,
                                 const char *result_json, char *error, size_t error_size)
{
    if (!lock_for(storage, table_id, error, error_size)) return false;
    bool done = finish_table(storage, table_id, result_json, error, error_size);
    unlock(storage);
    return done;
}

/* ---- reading ------------------------------------------------------------------------ */

static bool copy_text(const PGresult *result, int row, int column, char *target, size_t size)
{
    const char *text = libpq.PQgetvalue(result, row, column);
    if (strlen(text) >= size) return false;
    memcpy(target, text, strlen(text) + 1);
    return true;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

/* A BYTEA column in text form ("\x" and hex): 32 bytes, or NULL (zeros). */
static bool copy_hash(const PGresult *result, int row, int column, uint8_t hash[STORE_HASH_SIZE])
{
    memset(hash, 0, STORE_HASH_SIZE);
    if (libpq.PQgetisnull(result, row, column)) return true;
    const char *text = libpq.PQgetvalue(result, row, column);
    if (strlen(text) != 2 + 2 * STORE_HASH_SIZE || text[0] != '\\' || text[1] != 'x') return false;
    for (int i = 0; i < STORE_HASH_SIZE; i++) {
        int high = hex_digit(text[2 + 2 * i]), low = hex_digit(text[3 + 2 * i]);
        if (high < 0 || low < 0) return false;
        hash[i] = (uint8_t)(high << 4 | low);
    }
    return true;
}

/* Row `row` of TABLE_COLUMNS and the result into table (seats apart). */
static bool read_table_row(const PGresult *rows, int row, store_table *table, char *error,
                           size_t error_size)
{
    memset(table, 0, sizeof *table);
    if (!libpq.PQgetisnull(rows, row, 9))
        snprintf(table->result, sizeof table->result, "%s", libpq.PQgetvalue(rows, row, 9));
    if (!copy_text(rows, row, 0, table->id, sizeof table->id))
        return store_fail(error, error_size, "store: a table's id is too long");
    table->players = atoi(libpq.PQgetvalue(rows, row, 2));
    table->seed = seed_from_column(libpq.PQgetvalue(rows, row, 4));
    table->created = strtoll(libpq.PQgetvalue(rows, row, 6), NULL, 10);
    table->over = libpq.PQgetvalue(rows, row, 7)[0] == 't';
    if (!copy_text(rows, row, 1, table->game, sizeof table->game) ||
        !copy_text(rows, row, 3, table->options, sizeof table->options) ||
        !copy_text(rows, row, 5, table->clock, sizeof table->clock) ||
        !copy_hash(rows, row, 8, table->creator_hash) ||
        !copy_text(rows, row, 10, table->host, sizeof table->host) ||
        !copy_text(rows, row, 11, table->rematch, sizeof table->rematch) || table->players < 1 ||
        table->players > GATEAU_MAX_PLAYERS)
        return store_fail(error, error_size, "store: table %s: damaged row", table->id);
    return true;
}

static bool read_seats(postgres_store *storage, store_table *table, char *error,
                       size_t error_size)
{
    parameters list = {0};
    add_text(&list, table->id);
    PGresult *result = run(storage, SELECT_SEATS, &list);
    if (libpq.PQresultStatus(result) != PGRES_TUPLES_OK) {
        store_fail(error, error_size, "store: cannot read the seats of table %s: %s", table->id,
             message(storage, result));
        libpq.PQclear(result);
        return false;
    }
    int count = libpq.PQntuples(result);
    bool good = count == table->players;
    for (int r = 0; good && r < count; r++) {
        store_seat *seat = &table->seats[r];
        good = atoi(libpq.PQgetvalue(result, r, 0)) == r &&
               copy_text(result, r, 1, seat->spec, sizeof seat->spec) &&
               copy_text(result, r, 2, seat->name, sizeof seat->name) &&
               copy_hash(result, r, 4, seat->token_hash);
        seat->has_token = libpq.PQgetvalue(result, r, 3)[0] == 't';
        seat->zombie = libpq.PQgetvalue(result, r, 5)[0] == 't';
    }
    libpq.PQclear(result);
    if (!good) return store_fail(error, error_size, "store: table %s: damaged seats", table->id);
    return true;
}

/* A table's moves; their lines point into *result, which the caller
 * clears after the visit. */
static bool read_moves(postgres_store *storage, const char *table_id, PGresult **result,
                       store_move **moves, int *count, char *error, size_t error_size)
{
    parameters list = {0};
    add_text(&list, table_id);
    *result = run(storage, SELECT_MOVES, &list);
    if (libpq.PQresultStatus(*result) != PGRES_TUPLES_OK)
        return store_fail(error, error_size, "store: cannot read the moves of table %s: %s", table_id,
                    message(storage, *result));
    *count = libpq.PQntuples(*result);
    *moves = malloc(((size_t)*count + 1) * sizeof **moves);
    if (!*moves) abort(); /* out of memory */
    for (int m = 0; m < *count; m++) {
        int number = atoi(libpq.PQgetvalue(*result, m, 0));
        if (number != m)
            return store_fail(error, error_size, "store: table %s: move %d is missing", table_id, m);
        (*moves)[m] = (store_move){.number = number,
                                   .seat = atoi(libpq.PQgetvalue(*result, m, 1)),
                                   .line = libpq.PQgetvalue(*result, m, 2),
                                   .clock_left = strtoll(libpq.PQgetvalue(*result, m, 3), NULL, 10)};
    }
    return true;
}

/* Visits each table of the rows `tables`; found counts them.  Each
 * table's seats and moves are read in the transaction of the whole load
 * (REPEATABLE READ: one snapshot, so a move stored meanwhile is in all
 * of a table's reads or in none). */
static bool visit_tables(postgres_store *storage, const PGresult *tables, store_visitor visit,
                         void *context, const store_damage *damage, char *error,
                         size_t error_size)
{
    bool good = true;
    for (int row = 0; good && row < libpq.PQntuples(tables); row++) {
        store_table table;
        PGresult *result = NULL;
        store_move *moves = NULL;
        int count = 0;
        good = read_table_row(tables, row, &table, error, error_size) &&
               read_seats(storage, &table, error, error_size) &&
               read_moves(storage, table.id, &result, &moves, &count, error, error_size);
        if (!good && damage && damage->notice && store_error_is_damage(error)) {
            damage->notice(damage->context, table.id, error); /* skipped, and told */
            good = true;
            free(moves);
            libpq.PQclear(result);
            continue;
        }
        bool go_on = good && visit(context, &table, moves, count);
        free(moves);
        libpq.PQclear(result);
        if (!go_on) break;
    }
    return good;
}

static bool load(postgres_store *storage, enum statement which, const parameters *list,
                 store_visitor visit, void *context, const store_damage *damage, int *found,
                 char *error, size_t error_size)
{
    char reason[256];
    if (!execute(storage->connection, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", reason,
                 sizeof reason))
        return store_fail(error, error_size, "store: cannot read the tables: %s", reason);
    PGresult *tables = run(storage, which, list);
    bool good = libpq.PQresultStatus(tables) == PGRES_TUPLES_OK;
    if (!good)
        store_fail(error, error_size, "store: cannot read the tables: %s", message(storage, tables));
    *found = good ? libpq.PQntuples(tables) : 0;
    if (good) good = visit_tables(storage, tables, visit, context, damage, error, error_size);
    libpq.PQclear(tables);
    execute(storage->connection, "COMMIT", NULL, 0);
    return good;
}

bool postgres_store_load_tables(postgres_store *storage, bool unfinished_only,
                                store_visitor visit, void *context, const store_damage *damage,
                                char *error, size_t error_size)
{
    if (!lock(storage, error, error_size)) return false;
    parameters list = {0};
    add_boolean(&list, unfinished_only);
    int found;
    bool done = load(storage, SELECT_TABLES, &list, visit, context, damage, &found, error,
                     error_size);
    unlock(storage);
    return done;
}

bool postgres_store_load_table(postgres_store *storage, const char *table_id, store_visitor visit,
                               void *context, char *error, size_t error_size)
{
    if (!lock_for(storage, table_id, error, error_size)) return false;
    parameters list = {0};
    add_text(&list, table_id);
    int found;
    bool done = load(storage, SELECT_TABLE, &list, visit, context, NULL, &found, error,
                     error_size);
    unlock(storage);
    if (done && found == 0) return store_fail(error, error_size, "no table %s", table_id);
    return done;
}

/* ---- watching ------------------------------------------------------------------------ */

/* Tells of each notification waiting on the listener's connection. */
static void tell_notifications(postgres_store *storage)
{
    PGnotify *notification;
    while ((notification = libpq.PQnotifies(storage->listener)) != NULL) {
        char id[STORE_ID_SIZE];
        int version;
        if (sscanf(notification->extra, "%23s %d", id, &version) == 2)
            storage->notice(storage->notice_context, id, version);
        libpq.PQfreemem(notification);
    }
}

/* The listener's thread: waits on its connection's socket and on the stop
 * pipe.  A lost connection is opened again (and every table is then
 * told to catch up: "*", since notifications sent meanwhile are lost). */
static void *listen_main(void *argument)
{
    postgres_store *storage = argument;
    for (;;) {
        int socket = libpq.PQstatus(storage->listener) == CONNECTION_OK ? libpq.PQsocket(storage->listener)
                                                                   : -1;
        struct pollfd waits[2] = {{.fd = storage->stop_pipe[0], .events = POLLIN},
                                  {.fd = socket, .events = POLLIN}};
        /* Without a connection: a second's wait, then a new attempt. */
        int ready = poll(waits, socket >= 0 ? 2 : 1, socket >= 0 ? -1 : 1000);
        if (ready < 0 && errno != EINTR) break;
        if (waits[0].revents) break;
        if (socket < 0) {
            libpq.PQreset(storage->listener);
            if (libpq.PQstatus(storage->listener) == CONNECTION_OK &&
                execute(storage->listener, "LISTEN gateau", NULL, 0))
                storage->notice(storage->notice_context, "*", -1);
            continue;
        }
        if (waits[1].revents && !libpq.PQconsumeInput(storage->listener)) continue;
        tell_notifications(storage);
    }
    return NULL;
}

bool postgres_store_watch(postgres_store *storage, store_change_visitor notice, void *context,
                          char *error, size_t error_size)
{
    if (storage->listening) return store_fail(error, error_size, "store: already watched");
    char shown[512];
    url_for_messages(storage->url, shown, sizeof shown);
    storage->listener = connect_to(storage->url, shown, error, error_size);
    if (!storage->listener) return false;
    char reason[256];
    if (!execute(storage->listener, "LISTEN gateau", reason, sizeof reason) ||
        pipe(storage->stop_pipe) != 0) {
        store_fail(error, error_size, "store: cannot watch %s: %s", shown, reason);
        libpq.PQfinish(storage->listener);
        storage->listener = NULL;
        return false;
    }
    storage->notice = notice;
    storage->notice_context = context;
    if (pthread_create(&storage->listen_thread, NULL, listen_main, storage) != 0) {
        libpq.PQfinish(storage->listener);
        storage->listener = NULL;
        return store_fail(error, error_size, "store: cannot watch %s: no thread", shown);
    }
    storage->listening = true;
    return true;
}

static void stop_watching(postgres_store *storage)
{
    if (storage->listening) {
        if (write(storage->stop_pipe[1], "x", 1) != 1) perror("gateau: store");
        pthread_join(storage->listen_thread, NULL);
        storage->listening = false;
    }
    if (storage->listener) libpq.PQfinish(storage->listener);
    storage->listener = NULL;
    for (int e = 0; e < 2; e++)
        if (storage->stop_pipe[e] >= 0) close(storage->stop_pipe[e]);
    storage->stop_pipe[0] = storage->stop_pipe[1] = -1;
}

/* ---- what an operator asks, and expiry ------------------------------------------------ */

/* When a table's last move was stored (store_summary): that move's time,
 * else the table's creation.  t is the tables row. */
#define LAST_MOVE_OF(t)                                                                      \
    "coalesce((SELECT played FROM moves WHERE table_id = " t ".id"                           \
    " ORDER BY number DESC LIMIT 1), " t ".created)"

/* An operator's statement, or one run once an hour: not kept prepared. */
static PGresult *run_sql(postgres_store *storage, const char *sql, const parameters *list)
{
    return libpq.PQexecParams(storage->connection, sql, list->count, NULL, list->values,
                              list->lengths, list->formats, 0);
}

static bool read_summary(const PGresult *rows, int row, store_summary *summary)
{
    memset(summary, 0, sizeof *summary);
    summary->players = atoi(libpq.PQgetvalue(rows, row, 2));
    summary->created = strtoll(libpq.PQgetvalue(rows, row, 4), NULL, 10);
    summary->over = libpq.PQgetvalue(rows, row, 5)[0] == 't';
    summary->moves = atoi(libpq.PQgetvalue(rows, row, 6));
    summary->last_move = strtoll(libpq.PQgetvalue(rows, row, 7), NULL, 10);
    summary->ended = libpq.PQgetvalue(rows, row, 8)[0] == 't';
    return copy_text(rows, row, 0, summary->id, sizeof summary->id) &&
           copy_text(rows, row, 1, summary->game, sizeof summary->game) &&
           copy_text(rows, row, 3, summary->options, sizeof summary->options);
}

bool postgres_store_list_tables(postgres_store *storage, bool unfinished_only,
                                store_summary_visitor visit, void *context, char *error,
                                size_t error_size)
{
    if (!lock(storage, error, error_size)) return false;
    parameters list = {0};
    add_boolean(&list, unfinished_only);
    PGresult *rows = run_sql(storage,
                             "SELECT id, game, players, options, created, over,"
                             " (SELECT coalesce(max(number) + 1, 0) FROM moves"
                             "  WHERE table_id = t.id), " LAST_MOVE_OF("t")
                             ", coalesce(result LIKE '{\"ended\":%', false)"
                             " FROM tables t WHERE NOT ($1 AND over) ORDER BY created, id",
                             &list);
    bool good = libpq.PQresultStatus(rows) == PGRES_TUPLES_OK;
    if (!good)
        store_fail(error, error_size, "store: cannot list the tables: %s", message(storage, rows));
    /* (the rows are all read already: visit may take its time) */
    unlock(storage);
    store_summary summary;
    for (int row = 0; good && row < libpq.PQntuples(rows); row++) {
        if (!read_summary(rows, row, &summary)) {
            good = store_fail(error, error_size, "store: the row of table %.30s is damaged",
                              libpq.PQgetvalue(rows, row, 0));
            break;
        }
        if (!visit(context, &summary)) break;
    }
    libpq.PQclear(rows);
    return good;
}

/* Runs sql with the table id as $1 (and value as $2 when not NULL): the
 * rows it changed, or -1 with the reason. */
static int change_rows(postgres_store *storage, const char *sql, const char *table_id,
                       const int64_t *value, char *reason, size_t size)
{
    parameters list = {0};
    add_text(&list, table_id);
    if (value) add_integer(&list, *value);
    PGresult *result = run_sql(storage, sql, &list);
    int changed = libpq.PQresultStatus(result) == PGRES_COMMAND_OK ? changed_rows(result) : -1;
    if (changed < 0) store_fail(reason, size, "%s", message(storage, result));
    libpq.PQclear(result);
    return changed;
}

/* Whether the table may go, its row locked (FOR UPDATE: a move being
 * stored meanwhile waits for the delete, or the delete for its commit):
 * 1 when it may, 0 when it may not, -1 with the reason; *found whether
 * it is there. */
static int may_delete(postgres_store *storage, const char *table_id, int64_t idle_before,
                      bool *found, char *reason, size_t size)
{
    parameters list = {0};
    add_text(&list, table_id);
    PGresult *result = run_sql(storage, "SELECT id FROM tables WHERE id = $1 FOR UPDATE", &list);
    bool good = libpq.PQresultStatus(result) == PGRES_TUPLES_OK;
    *found = good && libpq.PQntuples(result) == 1;
    if (!good) store_fail(reason, size, "%s", message(storage, result));
    libpq.PQclear(result);
    if (!good) return -1;
    if (!*found || idle_before < 0) return *found;
    /* (after the lock: a statement of its own sees the moves committed
     * before it was granted) */
    result = run_sql(storage, "SELECT over, " LAST_MOVE_OF("t") " FROM tables t WHERE id = $1",
                     &list);
    good = libpq.PQresultStatus(result) == PGRES_TUPLES_OK && libpq.PQntuples(result) == 1;
    int may = good && libpq.PQgetvalue(result, 0, 0)[0] != 't' &&
              strtoll(libpq.PQgetvalue(result, 0, 1), NULL, 10) < idle_before;
    if (!good) store_fail(reason, size, "%s", message(storage, result));
    libpq.PQclear(result);
    return good ? may : -1;
}

bool postgres_store_delete_table(postgres_store *storage, const char *table_id,
                                 int64_t idle_before, bool *deleted, char *error,
                                 size_t error_size)
{
    *deleted = false;
    if (!lock_for(storage, table_id, error, error_size)) return false;
    char reason[256] = "";
    bool found = false, good = execute(storage->connection, "BEGIN", reason, sizeof reason);
    int may = good ? may_delete(storage, table_id, idle_before, &found, reason, sizeof reason) : -1;
    good = may >= 0;
    if (may == 1)
        good = change_rows(storage, "DELETE FROM reviews WHERE table_id = $1", table_id, NULL,
                           reason, sizeof reason) >= 0 &&
               change_rows(storage, "DELETE FROM moves WHERE table_id = $1", table_id, NULL,
                           reason, sizeof reason) >= 0 &&
               change_rows(storage, "DELETE FROM chat WHERE table_id = $1", table_id, NULL,
                           reason, sizeof reason) >= 0 &&
               change_rows(storage, "DELETE FROM seats WHERE table_id = $1", table_id, NULL,
                           reason, sizeof reason) >= 0 &&
               change_rows(storage, "DELETE FROM tables WHERE id = $1", table_id, NULL, reason,
                           sizeof reason) >= 0;
    if (good) good = execute(storage->connection, "COMMIT", reason, sizeof reason);
    if (!good) {
        store_fail(error, error_size, "store: cannot delete table %s: %s", table_id, reason);
        rollback(storage);
    }
    unlock(storage);
    if (good && !found) return store_fail(error, error_size, "no table %s", table_id);
    *deleted = good && may == 1;
    return good;
}

bool postgres_store_expire_table(postgres_store *storage, const char *table_id,
                                 int64_t idle_before, const char *result_json, bool *expired,
                                 char *error, size_t error_size)
{
    *expired = false;
    if (!lock_for(storage, table_id, error, error_size)) return false;
    char reason[256] = "";
    /* (the table's row locked, FOR UPDATE, before its last move is read:
     * a move's insert waits for it, or committed before it) */
    bool found = false, good = execute(storage->connection, "BEGIN", reason, sizeof reason);
    int may = good ? may_delete(storage, table_id, idle_before, &found, reason, sizeof reason) : -1;
    good = may >= 0;
    if (may == 1) {
        parameters list = {0};
        add_text(&list, table_id);
        add_text(&list, result_json);
        PGresult *result = run_sql(storage, "UPDATE tables SET over = true, result = $2"
                                            " WHERE id = $1", &list);
        good = libpq.PQresultStatus(result) == PGRES_COMMAND_OK;
        if (!good) store_fail(reason, sizeof reason, "%s", message(storage, result));
        libpq.PQclear(result);
    }
    if (good) good = execute(storage->connection, "COMMIT", reason, sizeof reason);
    if (!good) {
        store_fail(error, error_size, "store: cannot expire table %s: %s", table_id, reason);
        rollback(storage);
    }
    unlock(storage);
    if (good && !found) return store_fail(error, error_size, "no table %s", table_id);
    *expired = good && may == 1;
    return good;
}

bool postgres_store_put_deck(postgres_store *storage, const char *name, const char *content,
                             char *error, size_t error_size)
{
    if (!lock(storage, error, error_size)) return false;
    parameters list = {0};
    add_text(&list, name);
    add_text(&list, content);
    PGresult *result = run_sql(storage, "INSERT INTO decks (name, content) VALUES ($1, $2)"
                                        " ON CONFLICT (name) DO NOTHING", &list);
    bool good = libpq.PQresultStatus(result) == PGRES_COMMAND_OK;
    if (!good)
        store_fail(error, error_size, "store: cannot keep deck %s: %s", name,
                   message(storage, result));
    libpq.PQclear(result);
    unlock(storage);
    return good;
}

bool postgres_store_get_deck(postgres_store *storage, const char *name, char **content,
                             char *error, size_t error_size)
{
    *content = NULL;
    if (!lock(storage, error, error_size)) return false;
    parameters list = {0};
    add_text(&list, name);
    PGresult *result = run_sql(storage, "SELECT content FROM decks WHERE name = $1", &list);
    bool good = libpq.PQresultStatus(result) == PGRES_TUPLES_OK;
    if (!good)
        store_fail(error, error_size, "store: cannot read deck %s: %s", name,
                   message(storage, result));
    else if (libpq.PQntuples(result) != 1)
        good = store_fail(error, error_size, "no deck %s", name);
    else if (!(*content = strdup(libpq.PQgetvalue(result, 0, 0))))
        abort(); /* out of memory */
    libpq.PQclear(result);
    unlock(storage);
    return good;
}

/* ---- the people at a table: chat, rematch ------------------------------------------ */

bool postgres_store_append_chat(postgres_store *storage, const char *table_id,
                                const store_chat *sent, int *number, char *error,
                                size_t error_size)
{
    if (!lock_for(storage, table_id, error, error_size)) return false;
    parameters list = {0};
    add_text(&list, table_id);
    add_integer(&list, sent->seat);
    add_text(&list, sent->name);
    add_text(&list, sent->text);
    add_integer(&list, sent->posted);
    /* (two posts at once on two processes: the key refuses the second,
     * which is then a failure like any other) */
    PGresult *result = run_sql(storage,
                               "INSERT INTO chat (table_id, number, seat, name, text, posted)"
                               " SELECT $1, (SELECT coalesce(max(number) + 1, 0) FROM chat"
                               " WHERE table_id = $1), $2, $3, $4, $5 FROM tables WHERE id = $1"
                               " RETURNING number",
                               &list);
    int changed = libpq.PQresultStatus(result) == PGRES_TUPLES_OK ? libpq.PQntuples(result) : -1;
    if (changed == 1) *number = atoi(libpq.PQgetvalue(result, 0, 0));
    if (changed < 0)
        store_fail(error, error_size, "store: cannot keep a chat message of table %s: %s",
                   table_id, message(storage, result));
    libpq.PQclear(result);
    unlock(storage);
    if (changed == 0) return store_fail(error, error_size, "no table %s", table_id);
    return changed == 1;
}

bool postgres_store_load_chat(postgres_store *storage, const char *table_id, int most,
                              store_chat_visitor visit, void *context, char *error,
                              size_t error_size)
{
    if (!lock_for(storage, table_id, error, error_size)) return false;
    parameters list = {0};
    add_text(&list, table_id);
    add_integer(&list, most);
    PGresult *rows = run_sql(storage,
                             "SELECT seat, name, text, posted, number FROM (SELECT * FROM chat"
                             " WHERE table_id = $1 ORDER BY number DESC LIMIT $2) AS last"
                             " ORDER BY number",
                             &list);
    bool good = libpq.PQresultStatus(rows) == PGRES_TUPLES_OK;
    if (!good)
        store_fail(error, error_size, "store: cannot read the chat of table %s: %s", table_id,
                   message(storage, rows));
    /* (visited with the store unlocked: the rows are this call's own) */
    unlock(storage);
    store_chat chat;
    for (int row = 0; good && row < libpq.PQntuples(rows); row++) {
        memset(&chat, 0, sizeof chat);
        chat.seat = atoi(libpq.PQgetvalue(rows, row, 0));
        chat.posted = strtoll(libpq.PQgetvalue(rows, row, 3), NULL, 10);
        chat.number = atoi(libpq.PQgetvalue(rows, row, 4));
        if (!copy_text(rows, row, 1, chat.name, sizeof chat.name) ||
            !copy_text(rows, row, 2, chat.text, sizeof chat.text)) {
            good = store_fail(error, error_size, "store: a chat message of table %s is damaged",
                              table_id);
            break;
        }
        if (!visit(context, &chat)) break;
    }
    libpq.PQclear(rows);
    return good;
}

bool postgres_store_set_rematch(postgres_store *storage, const char *table_id,
                                const char *rematch_id, char existing[STORE_ID_SIZE],
                                char *error, size_t error_size)
{
    if (!lock_for(storage, table_id, error, error_size)) return false;
    parameters list = {0};
    add_text(&list, table_id);
    add_text(&list, rematch_id);
    PGresult *result = run_sql(storage,
                               "UPDATE tables SET rematch = $2 WHERE id = $1 AND rematch = ''",
                               &list);
    int changed = libpq.PQresultStatus(result) == PGRES_COMMAND_OK ? changed_rows(result) : -1;
    if (changed < 0)
        store_fail(error, error_size, "store: cannot note the rematch of table %s: %s", table_id,
                   message(storage, result));
    libpq.PQclear(result);
    if (changed == 0) {
        list = (parameters){0};
        add_text(&list, table_id);
        result = run_sql(storage, "SELECT rematch FROM tables WHERE id = $1", &list);
        if (libpq.PQresultStatus(result) == PGRES_TUPLES_OK && libpq.PQntuples(result) == 1)
            copy_text(result, 0, 0, existing, STORE_ID_SIZE);
        libpq.PQclear(result);
    }
    unlock(storage);
    if (changed == 0 && existing[0]) return store_fail(error, error_size, "already");
    if (changed == 0) return store_fail(error, error_size, "no table %s", table_id);
    return changed == 1;
}

bool postgres_store_set_options(postgres_store *storage, const char *table_id,
                                const char *options, char *error, size_t error_size)
{
    if (!lock_for(storage, table_id, error, error_size)) return false;
    parameters list = {0};
    add_text(&list, table_id);
    add_text(&list, options);
    PGresult *result = run_sql(storage, "UPDATE tables SET options = $2 WHERE id = $1", &list);
    int changed = libpq.PQresultStatus(result) == PGRES_COMMAND_OK ? changed_rows(result) : -1;
    if (changed < 0)
        store_fail(error, error_size, "store: cannot set the options of table %s: %s", table_id,
                   message(storage, result));
    libpq.PQclear(result);
    unlock(storage);
    if (changed == 0) return store_fail(error, error_size, "no table %s", table_id);
    return changed == 1;
}

bool postgres_store_set_last_move_time(postgres_store *storage, const char *table_id,
                                       int64_t when, char *error, size_t error_size)
{
    if (!lock_for(storage, table_id, error, error_size)) return false;
    char reason[256];
    int changed = change_rows(storage,
                              "UPDATE moves SET played = $2 WHERE table_id = $1 AND number ="
                              " (SELECT max(number) FROM moves WHERE table_id = $1)",
                              table_id, &when, reason, sizeof reason);
    if (changed == 0)
        changed = change_rows(storage, "UPDATE tables SET created = $2 WHERE id = $1", table_id,
                              &when, reason, sizeof reason);
    unlock(storage);
    if (changed < 0)
        return store_fail(error, error_size, "store: cannot set the time of table %s: %s",
                          table_id, reason);
    if (changed == 0) return store_fail(error, error_size, "no table %s", table_id);
    return true;
}

/* One statement (its own transaction): the move goes only while it is
 * the table's last.  The trigger on moves tells the other processes. */
bool postgres_store_remove_last_move(postgres_store *storage, const char *table_id, int number,
                                     char *error, size_t error_size)
{
    if (!lock_for(storage, table_id, error, error_size)) return false;
    char reason[256];
    int64_t last = number;
    int changed = change_rows(storage,
                              "DELETE FROM moves WHERE table_id = $1 AND number = $2 AND number ="
                              " (SELECT max(number) FROM moves WHERE table_id = $1)",
                              table_id, &last, reason, sizeof reason);
    unlock(storage);
    if (changed < 0)
        return store_fail(error, error_size, "store: cannot remove move %d of table %s: %s",
                          number, table_id, reason);
    if (changed == 0)
        return store_fail(error, error_size, "move %d is not the last of table %s", number,
                          table_id);
    return true;
}

/* SELECT 1 on the calls' connection, opened again when it was lost
 * (GET /healthz). */
bool postgres_store_check(postgres_store *storage, char *error, size_t error_size)
{
    if (!lock(storage, error, error_size)) return false;
    char reason[256];
    bool good = execute(storage->connection, "SELECT 1", reason, sizeof reason);
    if (!good) store_fail(error, error_size, "store: the database does not answer: %s", reason);
    unlock(storage);
    return good;
}

/* ---- reviews ------------------------------------------------------------------------ */

bool postgres_store_save_review(postgres_store *storage, const char *table_id, const char *review,
                                int64_t made, char *error, size_t error_size)
{
    if (!lock_for(storage, table_id, error, error_size)) return false;
    char made_text[24];
    snprintf(made_text, sizeof made_text, "%lld", (long long)made);
    parameters list = {0};
    add_text(&list, table_id);
    add_text(&list, review);
    add_text(&list, made_text);
    PGresult *result = run_sql(storage,
                               "INSERT INTO reviews (table_id, review, made)"
                               " SELECT id, $2, $3 FROM tables WHERE id = $1"
                               " ON CONFLICT (table_id) DO UPDATE"
                               " SET review = excluded.review, made = excluded.made",
                               &list);
    int changed = libpq.PQresultStatus(result) == PGRES_COMMAND_OK ? changed_rows(result) : -1;
    if (changed < 0)
        store_fail(error, error_size, "store: cannot keep the review of table %s: %s", table_id,
                   message(storage, result));
    libpq.PQclear(result);
    unlock(storage);
    if (changed == 0) return store_fail(error, error_size, "no table %s", table_id);
    return changed == 1;
}

bool postgres_store_load_review(postgres_store *storage, const char *table_id, char **review,
                                char *error, size_t error_size)
{
    *review = NULL;
    if (!lock_for(storage, table_id, error, error_size)) return false;
    parameters list = {0};
    add_text(&list, table_id);
    PGresult *result = run_sql(storage, "SELECT review FROM reviews WHERE table_id = $1", &list);
    bool good = libpq.PQresultStatus(result) == PGRES_TUPLES_OK;
    if (!good)
        store_fail(error, error_size, "store: cannot read the review of table %s: %s", table_id,
                   message(storage, result));
    else if (libpq.PQntuples(result) == 1 && !(*review = strdup(libpq.PQgetvalue(result, 0, 0))))
        abort(); /* out of memory */
    libpq.PQclear(result);
    unlock(storage);
    return good;
}
