/*
 * store.h: where `gateau serve` keeps its tables, behind a small interface
 * so that another database (PostgreSQL) can follow without touching the
 * server.  The server holds every unfinished table in memory; the store is
 * what survives a stop or a crash: a table's setup and seats when it is
 * made, each move when it is played, the result when it ends.  Restarting
 * replays each unfinished table's moves.
 *
 * Durability: store_append_move returns only after the move's row is
 * committed, so that a move the server acknowledges survives kill -9.
 *
 * A store may be called from several threads; calls are serialized inside.
 * Errors: false, and a one-line reason in error.
 */
#ifndef GATEAU_STORE_H
#define GATEAU_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gateau/gateau.h"

enum {
    STORE_ID_SIZE = 24,      /* a table id, NUL included */
    STORE_SPEC_SIZE = 128,   /* "human" or a bot spec */
    /* A person's name: at most 40 characters (docs/server.md), each at
     * most 4 bytes of UTF-8, and the NUL. */
    STORE_NAME_SIZE = 164,
    /* A chat message: at most 300 characters, as above. */
    STORE_CHAT_SIZE = 1204,
    STORE_HASH_SIZE = 32,    /* a token is kept as its SHA-256, never itself */
    STORE_OPTIONS_SIZE = 1024,
    STORE_CLOCK_SIZE = 32,
    STORE_RESULT_SIZE = 512
};

typedef struct store_seat {
    char spec[STORE_SPEC_SIZE]; /* "human", or the bot spec that plays it */
    char name[STORE_NAME_SIZE]; /* "" until a player names it */
    bool has_token;             /* a human seat that has been given out */
    uint8_t token_hash[STORE_HASH_SIZE];
    /* A person's seat handed to a bot by the table's creator ("zombie"),
     * until it is handed back. */
    bool zombie;
} store_seat;

typedef struct store_table {
    char id[STORE_ID_SIZE];
    char game[32];
    int players;
    char options[STORE_OPTIONS_SIZE];
    uint64_t seed;                /* chance: secret until the end */
    char clock[STORE_CLOCK_SIZE]; /* "10m+20s", or "" */
    int64_t created;              /* Unix seconds */
    store_seat seats[GATEAU_MAX_PLAYERS];
    uint8_t creator_hash[STORE_HASH_SIZE]; /* the creator's token */
    bool over;
    /* The stored result's JSON when over (read only: what
     * store_finish_table wrote), cut to fit: enough for {"ended": "..."}
     * of a table that ended before its game (a forfeit, an expiry). */
    char result[STORE_RESULT_SIZE];
    char host[STORE_NAME_SIZE];    /* the creator's name, "" when none was given */
    char rematch[STORE_ID_SIZE];   /* the table its rematch made, "" until one */
} store_table;

/* One move as recorded: its number (0, 1, ... in play order), the seat
 * (GATEAU_CHANCE for chance), its record line, and the time left on the
 * seat's clock after it (milliseconds; -1 without a clock). */
typedef struct store_move {
    int number;
    int seat;
    const char *line;
    int64_t clock_left;
} store_move;

typedef struct store store;

/* Opens (creating when missing) the database at path: a SQLite file, or
 * a PostgreSQL database given as a postgresql:// (or postgres://) URL,
 * whose tables the store creates when they are missing. */
store *store_open(const char *path, char *error, size_t error_size);
/* The same for reading only (`gateau tables list|show`): a SQLite file
 * is opened read-only and without PATH.lock, so beside the server that
 * holds it; nothing is created or upgraded (a missing or older file is
 * an error).  Only reads may be called on it. */
store *store_open_reading(const char *path, char *error, size_t error_size);
void store_close(store *store);
/* What store_open found amiss without refusing the database, on one line
 * (SQLite: fewer tables or moves than it held at its last count, lost to
 * a damaged or deleted -wal file), or NULL.  The server logs it. */
const char *store_warning(const store *store);
/* Copies the SQLite database at path into the new file `to`, consistent
 * and compact, while a server may be using it (store_backup.c): false
 * with the reason (a PostgreSQL URL: pg_dump is the tool; `to` exists). */
bool store_backup(const char *path, const char *to, char *error, size_t error_size);
/* Whether path is a PostgreSQL URL rather than a file. */
bool store_path_is_url(const char *path);
/* Whether path is a libpq "key=value" connection string ("host=db
 * user=gateau ..."): refused everywhere (store_open too), so that it never
 * becomes a file named after it, password and all; only URLs are taken. */
bool store_path_is_conninfo(const char *path);
#define STORE_CONNINFO_REFUSED                                                                \
    "a libpq 'key=value' connection string is not taken: give a postgresql:// URL (the "     \
    "password in PGPASSWORD or ~/.pgpass, docs/server.md)"
/* path as it may be shown (a start line, an error, --check): a URL's
 * password, in its user part or as a password= parameter, becomes ***;
 * so does a key=value string's password. */
void store_path_shown(const char *path, char *out, size_t size);

/* Whether the database answers a trivial query now (GET /healthz): false
 * with the reason (which may name a host, never a password). */
bool store_check(store *store, char *error, size_t error_size);
/* The store calls that failed so far, in this process (GET /metrics). */
uint64_t store_error_count(void);

/* Whether other processes may change this store's tables meanwhile
 * (PostgreSQL: several servers on one database).  Then a move refused as
 * "already there" means another process got there first, and
 * store_watch tells of their changes. */
bool store_is_shared(const store *store);

/* Calls notice, on a thread of the store's own, whenever any process
 * changes a table: version is the table's move count after a move, or -1
 * after another change (a seat, the end).  Changes made through this
 * store are told too.  A store that is not shared never calls it.  Call
 * once, before the server serves; store_close stops it. */
typedef void (*store_change_visitor)(void *context, const char *table_id, int version);
bool store_watch(store *store, store_change_visitor notice, void *context, char *error,
                 size_t error_size);

/* A new table (no moves yet). */
bool store_create_table(store *store, const store_table *table, char *error, size_t error_size);

/* A seat changed: claimed, named, handed to a bot or back. */
bool store_update_seat(store *store, const char *table_id, int seat, const store_seat *value,
                       char *error, size_t error_size);

/* One message of a table's chat: its sender (a seat, or -1 for a
 * spectator), the name it was sent under, its text, and when (Unix
 * seconds). */
typedef struct store_chat {
    int number; /* 0, 1, ... in the order the store took them (set by the store) */
    int seat;
    char name[STORE_NAME_SIZE];
    char text[STORE_CHAT_SIZE];
    int64_t posted;
} store_chat;

/* Appends a chat message after the table's others (committed when this
 * returns true), its number in *number.  With PostgreSQL every process
 * is told (store_watch: version -1). */
bool store_append_chat(store *store, const char *table_id, const store_chat *message,
                       int *number, char *error, size_t error_size);
/* Calls visit with the table's last `most` chat messages, oldest first;
 * visit must not call the store. */
typedef bool (*store_chat_visitor)(void *context, const store_chat *message);
bool store_load_chat(store *store, const char *table_id, int most, store_chat_visitor visit,
                     void *context, char *error, size_t error_size);
/* Notes the table a finished table's rematch made: only once (false with
 * "already" and the existing id in *existing when another process or
 * request noted one first). */
bool store_set_rematch(store *store, const char *table_id, const char *rematch_id,
                       char existing[STORE_ID_SIZE], char *error, size_t error_size);

/* Appends a move; committed when this returns true.  Its number must be
 * the table's next one: a move whose number is already there is refused
 * (two writers never both win), and so is a gap (no replay gets past one). */
bool store_append_move(store *store, const char *table_id, const store_move *move, char *error,
                       size_t error_size);

/* Removes move number, the table's last, with nothing after it (a
 * take-back, docs/server.md): in one transaction, so that the record is
 * as if the move had never been played.  Refused ("move N is not the
 * last of table ID") when another move followed it meanwhile. */
bool store_remove_last_move(store *store, const char *table_id, int number, char *error,
                            size_t error_size);
/* The table has ended: its result (gateau_record_result_json) is kept.
 * A table already over is refused (its first result stays). */
bool store_finish_table(store *store, const char *table_id, const char *result_json,
                        char *error, size_t error_size);

/* Calls visit for each table (unfinished ones only, or all; oldest first),
 * with its moves in order; visit returns false to stop.  The pointers live
 * for the call only.  The store stays locked during the visits, so visit
 * must not call the store (such a call fails with an error). */
typedef bool (*store_visitor)(void *context, const store_table *table, const store_move *moves,
                              int move_count);
bool store_load_tables(store *store, bool unfinished_only, store_visitor visit, void *context,
                       char *error, size_t error_size);

/* Makes store_load_tables skip a table whose rows are damaged (a missing
 * seat or move, a row that cannot be read back), telling notice its id
 * and why, instead of failing the whole load: one damaged table must not
 * keep a server from starting.  (A failing database still fails it.) */
typedef void (*store_damage_notice)(void *context, const char *table_id, const char *reason);
void store_on_damage(store *store, store_damage_notice notice, void *context);

/* One table by id; false with "no table ID" when there is none. */
bool store_load_table(store *store, const char *table_id, store_visitor visit, void *context,
                      char *error, size_t error_size);

/* ---- What an operator asks (gateau tables) and expiry ------------------------------- */

/* A table in a list: no seats, no moves, but how many moves it has and
 * when the last was stored (Unix seconds; its creation when it has none,
 * or when its moves are older than the time of moves was kept). */
typedef struct store_summary {
    char id[STORE_ID_SIZE];
    char game[32];
    int players;
    char options[STORE_OPTIONS_SIZE];
    int64_t created, last_move;
    int moves;
    bool over;
    bool ended; /* over before its game's end: its result is {"ended": ...} */
} store_summary;

/* Calls visit for each table (unfinished ones only, or all; oldest
 * first); visit returns false to stop.  As store_load_tables, visit must
 * not call the store. */
typedef bool (*store_summary_visitor)(void *context, const store_summary *table);
bool store_list_tables(store *store, bool unfinished_only, store_summary_visitor visit,
                       void *context, char *error, size_t error_size);

/* Deletes a table with its seats and moves.  idle_before < 0: whatever
 * it is; else only an unfinished table whose last move (store_summary's
 * last_move) is before idle_before, checked in the deleting transaction
 * so that a move stored meanwhile keeps it.  *deleted says whether it
 * went; false with "no table ID" when there is none. */
bool store_delete_table(store *store, const char *table_id, int64_t idle_before, bool *deleted,
                        char *error, size_t error_size);

/* Ends an unfinished table whose last move (store_summary's last_move)
 * is before idle_before with result_json, checked in the same transaction
 * so that a move stored meanwhile keeps the table in play: its rows stay
 * (its record can still be read).  *expired says whether it ended; false
 * with "no table ID" when there is none. */
bool store_expire_table(store *store, const char *table_id, int64_t idle_before,
                        const char *result_json, bool *expired, char *error, size_t error_size);

/* Decks sent by clients, where the database is shared (PostgreSQL: a
 * file on one server's disk would not be the others'): kept by name
 * ("HASH.deck", its content's SHA-256) in the database.  put keeps
 * content under name (nothing when that name is there already: the name
 * is the content's hash); get reads it back (*content malloc'd), false
 * with "no deck NAME" when there is none.  A SQLite database keeps its
 * decks as files beside it (docs/server.md): both fail there. */
bool store_put_deck(store *store, const char *name, const char *content, char *error,
                    size_t error_size);
bool store_get_deck(store *store, const char *name, char **content, char *error,
                    size_t error_size);

/* Replaces a table's options text (a deck named by its hash instead of
 * a path, when an old database is opened). */
bool store_set_options(store *store, const char *table_id, const char *options, char *error,
                       size_t error_size);

/* Sets when the table's last move was stored (its creation when it has
 * no move): for tests of expiry, which cannot wait for days. */
bool store_set_last_move_time(store *store, const char *table_id, int64_t when, char *error,
                              size_t error_size);

/* A finished table's review (docs/review.md): save keeps review (JSON)
 * with the time it was made, replacing an earlier one, false with "no
 * table ID" when there is none; load gives it back malloc'd in *review,
 * or NULL (and true) when the table has no review. */
bool store_save_review(store *store, const char *table_id, const char *review, int64_t made,
                       char *error, size_t error_size);
bool store_load_review(store *store, const char *table_id, char **review, char *error,
                       size_t error_size);

/* A stored table as a record's text (the engine's format), every player
 * move with its seat: malloc'd.  Replayed by the server when it restores
 * a table, shown by `gateau tables show`. */
char *store_record_text(const store_table *table, const store_move *moves, int count);

#endif
