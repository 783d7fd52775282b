/*
 * server.h: the parts of `gateau serve` (docs/server.md).
 *
 *   table.c      one table: its match, seats, tokens, log and versions,
 *                changed under the table's own lock
 *   table_flow.c a person's take-back of his last move; a seat handed to a
 *                bot when its player is away or out of time
 *   tables.c     every table by id; creating, restoring, the lobby
 *   snapshot.c   what one seat (or a spectator) may see of a table, as JSON
 *   workers.c    bots thinking on a pool of threads; the clocks
 *   loop.c       the event loop (libwebsockets): every socket's reads and
 *                writes, on one thread that never waits for a lock
 *   requests.c   the request threads, where the loop hands requests that
 *                touch tables or files, and the answers' way back
 *   http.c       the HTTP routes, request parsing and their refusals
 *   files.c      the web root's files
 *   browser.c    what browsers are trusted with: Host, Origin, CORS
 *   addresses.c  the limits per client address
 *   websocket.c  subscribers, their bounded outboxes, pushes and presence
 *   tokens.c     ids and secret tokens
 *   metrics.c    what GET /metrics tells: counters updated without locks
 *   request_log.c the request log's lines, its file and its reopening
 *   names.c      the names people give themselves, checked
 *   chat.c       a table's chat: stored, rate limited, pushed
 *   rematch.c    another game with the same people
 *   server.c     starting and stopping it all
 *   lessons.c    the tables of "Learn to play": a fixed game with bots
 *
 * The engine is used through include/gateau/ only; storage through
 * src/store/store.h.
 */
#ifndef GATEAU_SERVER_H
#define GATEAU_SERVER_H

#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "gateau/bot.h"
#include "gateau/gateau.h"
#include "gateau/match.h"
#include "gateau/record.h"
#include "store/store.h"

/* ---- Limits (docs/server.md, "Limits") ------------------------------------------------ */
enum {
    SERVER_MAX_BODY = 128 * 1024,   /* a request body (a deck is at most 64 KiB) */
    SERVER_MAX_DEPTH = 32,          /* a request body's nesting, checked before parsing */
    SERVER_MAX_HEAD = 8192,         /* a request's line and headers */
    SERVER_MAX_MESSAGE = 4096,      /* a WebSocket message from a client, fragments together */
    SERVER_TOKEN_SIZE = 33,         /* 32 characters (192 bits) and the NUL */
    SERVER_SEAT_SOCKETS = 8,        /* WebSockets of one seat */
    SERVER_MAX_SPECTATORS = 100000, /* the most --spectators may allow */
    SERVER_OUTBOX_MESSAGES = 64,    /* pushes waiting for one WebSocket ... */
    SERVER_OUTBOX_BYTES = 1 << 20,  /* ... or their bytes: past either, it is closed (1013) */
    SERVER_HEAD_SECONDS = 5,        /* a request's head must arrive within */
    SERVER_BODY_SECONDS = 10,       /* its body within */
    SERVER_IDLE_SECONDS = 30,       /* a keep-alive connection may wait for its next request
                                       (--keep-alive) */
    SERVER_HELLO_SECONDS = 10,      /* a WebSocket's first message must arrive within */
    SERVER_PING_SECONDS = 20,       /* a WebSocket is pinged after this long without a frame,
                                       closed after twice as long (--websocket-ping) */
    SERVER_WRITE_ROOM = 32,         /* bytes before a WebSocket message (LWS_PRE) */
    SERVER_REQUEST_THREADS = 16,    /* threads answering requests */
    SERVER_REQUEST_QUEUE = 4096     /* requests waiting for one: past it, 503 */
};

enum {
    /* --max-bot-iters' default: twice the largest default budget of an
     * ismcts bot (10,000 iterations), a few seconds at most in the
     * slowest game (docs/server.md). */
    SERVER_DEFAULT_BOT_ITERS = 20000,
    /* An ext: program's time per move without ms= (docs/protocol.md). */
    SERVER_EXT_DEFAULT_MS = 10000,
    SERVER_MAX_REVIEW_THREADS = 16
};

/* How a table's review stands (reviews.c). */
typedef enum review_state {
    REVIEW_NONE,    /* none asked for since the server started */
    REVIEW_QUEUED,
    REVIEW_RUNNING,
    REVIEW_DONE,
    REVIEW_FAILED
} review_state;

typedef struct server_options {
    const char *bind;     /* "127.0.0.1" */
    int port;             /* 8080; 0: any free port */
    const char *db;       /* the SQLite file, or a PostgreSQL URL */
    const char *web;      /* the browser files, or NULL */
    int bot_threads;      /* bots thinking at once */
    const char *origins;  /* other origins allowed (CORS, WebSockets), comma-separated */
    const char *hosts;    /* names the server answers to besides its own, comma-separated */
    const char *trusted_proxies; /* addresses whose X-Forwarded-For is believed, comma-separated */
    /* Limits; 0: none. */
    int connections;         /* open connections in all (10000) */
    int address_connections; /* open connections from one client address (128) */
    int address_websockets;  /* open WebSockets from one client address (64) */
    int address_requests;    /* requests a second from one address (100; bursts of 4x) */
    int address_tables;      /* tables created a minute from one address (30) */
    int spectators;          /* spectators' WebSockets on one table (100) */
    int websocket_ping;      /* a quiet WebSocket is pinged after this many seconds and
                                closed after twice as many (20) */
    int keep_alive;          /* an idle keep-alive connection is closed after this many
                                seconds (30) */
    bool quiet;           /* no request log */
    /* Unfinished tables without a move for this many days expire
     * (expiry.c); 0: never. */
    int expire_days;
    int max_bot_ms;       /* the most a bot's budget (ms=N) may be (5000); an ext: bot
                             without ms= has SERVER_EXT_DEFAULT_MS */
    int max_bot_iters;    /* the most a search's budget (iters=N) may be */
    int store_retry;      /* seconds the store may fail a table before it is broken (60) */
    const char *log;      /* the request log's file (reopened on SIGHUP); NULL: stderr */
    /* ext: bot specs (docs/protocol.md) tables may name, comma-separated,
     * exactly as given; NULL: none (an ext: spec runs a program here). */
    const char *ext_bots;
    /* Reviews (reviews.c): threads searching, jobs waiting at most, and
     * each search's iterations (0: the review library's default). */
    int review_threads;
    int review_queue;
    int review_iters;
} server_options;

/* The defaults of the limits above (gateau serve's, and the tests'). */
#define SERVER_DEFAULT_LIMITS                                                          \
    .connections = 10000, .address_connections = 128, .address_websockets = 64,      \
    .address_requests = 100, .address_tables = 30, .spectators = 100,                 \
    .websocket_ping = SERVER_PING_SECONDS, .keep_alive = SERVER_IDLE_SECONDS,            \
    .max_bot_ms = 5000, .max_bot_iters = SERVER_DEFAULT_BOT_ITERS, .store_retry = 60,      \
    .review_threads = 1, .review_queue = 16

/* ---- Tokens (tokens.c) --------------------------------------------------------------- */

/* A fresh secret: 32 URL-safe characters from 192 random bits of the
 * system's generator.  False when the generator fails. */
bool token_new(char token[SERVER_TOKEN_SIZE]);
/* A table id: 12 lower-case letters and digits (public, unguessable). */
bool token_new_id(char id[STORE_ID_SIZE]);
void token_hash(const char *token, uint8_t hash[STORE_HASH_SIZE]);
/* Whether token hashes to hash, in time independent of where they differ. */
bool token_matches(const char *token, const uint8_t hash[STORE_HASH_SIZE]);

/* ---- A table (table.c) --------------------------------------------------------------- */

typedef struct subscriber subscriber;
typedef struct table_chat table_chat;

typedef struct table_seat {
    char spec[STORE_SPEC_SIZE];   /* "human", "open" or a bot spec */
    bool human;                   /* a person's seat ("human" or "open") */
    bool claimed;                 /* its token has been given out */
    uint8_t token_hash[STORE_HASH_SIZE];
    char name[STORE_NAME_SIZE];
    bool zombie;                  /* a person's seat handed to a bot */
    gateau_bot *bot;              /* bot seats, zombies, and a late seat's stand-in */
    int connections;              /* presence: open WebSockets of this seat */
    int64_t clock_left;           /* milliseconds; -1 without a clock */
    /* Its moves in a row that its clock's stand-in made (a move of its
     * own starts again from 0): at TABLE_TIMEOUTS_TO_HAND_OVER, the other
     * seats may hand it to a bot (table_flow.c).  Not stored: a restart
     * starts again from 0. */
    int timeouts;
    int64_t absent_since;         /* monotonic ms: since when no WebSocket of it is open */
    /* Who handed it to a bot and why, for its player's page: the seat
     * (from 0; -1: nobody), "away" or "timeouts", how long it was away (ms). */
    int handed_by;
    const char *handed_why;
    int64_t handed_away;
} table_seat;

/* What a take-back needs of the last move a person made (table_flow.c):
 * the table as it was before it. */
typedef struct table_undo {
    bool valid;
    int index, seat;              /* the move's number, its seat */
    int64_t clock_before, turn_started;
    int phase_start, timeouts;
    /* The position before it (owned; kept from move to move): whether
     * the move showed anything hidden is judged from it when a take-back
     * is asked, not on every move's way. */
    gateau_state *before;
} table_undo;

/* The rules of the clock and of hand-overs (docs/server.md). */
enum {
    TABLE_TIMEOUTS_TO_HAND_OVER = 3, /* timed-out moves in a row */
    TABLE_ABSENCE_TO_HAND_OVER_MS = 60000 /* no WebSocket for this long */
};

/* What one viewer (a seat, or the spectators) may see of one move. */
typedef struct table_log_entry {
    char *json[GATEAU_MAX_PLAYERS + 1]; /* [seat], [players] for spectators; viewers
                                         who read the same share one string */
} table_log_entry;

typedef struct server_table {
    pthread_mutex_t lock;
    /* Holders of this table's pointer (tables.c): a finished table is
     * freed when the last lets go. */
    _Atomic int references;
    char id[STORE_ID_SIZE];
    gateau_setup *setup;
    gateau_match *match;          /* every seat a host seat: bots run in workers.c */
    gateau_record *record;        /* the match's */
    uint64_t seed;
    int players;
    table_seat seats[GATEAU_MAX_PLAYERS];
    uint8_t creator_hash[STORE_HASH_SIZE];
    int64_t created;
    /* The clock: total and increment (ms), or total -1 for none; when the
     * current turn began (monotonic ms). */
    int64_t clock_total, clock_increment, turn_started;
    char clock_text[STORE_CLOCK_SIZE];
    /* "30s/move": each turn has clock_total, no bank, no increment. */
    bool clock_per_move;
    /* The last move took its seat out of a simultaneous phase that goes
     * on: the others' turn (and their clocks) did not start again. */
    bool phase_continued;
    table_undo undo;
    /* Counts take-backs: a bot that thought before one does not play
     * (the version alone may come back to the same number). */
    int takebacks;
    int version;                  /* moves in the record: every change adds one */
    /* The version at which the current simultaneous phase (a vote, secret
     * shares) began, or -1 outside one: a move posted with a version of
     * this phase is still current (table_play). */
    int phase_start;
    table_log_entry *log;         /* one per move */
    int log_capacity;
    /* Cached snapshots of the current version, per viewer, and the
     * members every viewer shares (snapshot.c), built once per change. */
    char *snapshot[GATEAU_MAX_PLAYERS + 1];
    size_t snapshot_length[GATEAU_MAX_PLAYERS + 1];
    char *shared_front, *shared_middle, *shared_scores;
    subscriber **subscribers;     /* the table's WebSockets (websocket.c) */
    int subscriber_count, subscriber_capacity, spectator_count;
    bool bot_queued;              /* waiting for or held by a worker */
    bool over;
    /* Out of the store (deleted by `gateau tables delete` or another
     * process, noticed by tables_expire): over, found by no lookup, freed
     * when its last holder lets go.  (An expired table only ends.) */
    bool expired;
    bool finish_stored;           /* the store has the result (over may be set before) */
    /* A write the store refused after a change (a chance move, a bot's or
     * a clock's move, the end) is tried again (table_store_failed): when
     * the next attempt is due (monotonic ms; 0: none), since when the
     * store has failed this table, and the pause before the next one,
     * doubling.  Past the server's limit the table is broken: why, for
     * its snapshot ("" while it is not). */
    _Atomic int64_t retry_due;
    int64_t retry_since, retry_delay;
    char broken[160];
    /* Why the table ended before its game did (a seat forfeited), or "". */
    char ended[200];
    /* The people (names.c, chat.c, rematch.c): the creator's name ("" when
     * none was given), the table this one's rematch made ("" until one),
     * and the chat's last messages with its senders' rate (NULL until the
     * chat is first read or posted to). */
    char host[STORE_NAME_SIZE];
    char rematch[STORE_ID_SIZE];
    table_chat *chat;
    struct store *store;
} server_table;

/* text as a JSON string, quotes included, escaped as jansson's compact
 * output escapes it: malloc'd (snapshot.c).  Strings written straight,
 * where a jansson tree cost more than the rest of their work. */
char *json_quote(const char *text);

/* What viewer may see of one move made from before (its notation shown
 * only where gateau_move_visible allows), as one JSON object: malloc'd. */
char *table_describe_move(const gateau_state *before, int seat, const gateau_action *actions,
                      int count, const char *notation, int index, const char *note, int viewer);

/* The viewer index of a seat, or of the spectators. */
static inline int table_viewer_index(const server_table *table, int seat)
{
    return seat >= 0 ? seat : table->players;
}

/* Makes a table from a creation request's parts: NULL with a reason and
 * a status (422; 503 when the store refused it, the reason logged).  names may be NULL, or hold NULL for a seat without a
 * name; host (the creator's name) may be NULL.  tokens receives one token per "human" seat
 * (others ""), creator the creator's.  seed: NULL for a fresh one from the system (every
 * table but a lesson's). */
server_table *table_create(struct store *database, const gateau_game *game, int players,
                    const char *options, const char *seats[GATEAU_MAX_PLAYERS],
                    const char *names[GATEAU_MAX_PLAYERS], const char *host,
                    const char *clock, const uint64_t *seed,
                    char tokens[GATEAU_MAX_PLAYERS][SERVER_TOKEN_SIZE],
                    char creator[SERVER_TOKEN_SIZE], int *status, char *error,
                    size_t error_size);
/* ---- Lessons (lessons.c) ------------------------------------------------------------ */

/* A "Learn to play" table: its game, seats and options, and the seed that
 * makes its deal and its bots' moves the same every time. */
typedef struct server_lesson {
    const char *game;
    int players;
    const char *options;
    const char *seats[GATEAU_MAX_PLAYERS];
    uint64_t seed;
} server_lesson;

/* The lesson of game (a registry name), or NULL when it has none. */
const server_lesson *lesson_find(const char *game);
/* Whether a table of game with this seed is a lesson's: the lobby leaves
 * lessons out (each is one learner's, and there may be many). */
bool lesson_table(const char *game, uint64_t seed);

/* A table as the store kept it, its moves replayed: NULL with a reason.
 * It is not yet settled: call table_resume once the store is free again
 * (table_restore runs inside a store visit, which may not write). */
server_table *table_restore(struct store *database, const store_table *kept, const store_move *moves,
                     int move_count, char *error, size_t error_size);
/* Settles a restored table: what a crash cut short between a move and
 * what follows it (its chance moves, its end) is played and stored now,
 * or retried later when the store refuses (table_store_failed). */
void table_resume(server_table *table);
void table_free(server_table *table);
/* The ext: specs tables may name (server_options.ext_bots), set once at
 * start; any other ext: spec is refused, since it would run a program. */
void table_allow_ext_bots(const char *list);

/* The seat a token opens (under the lock), or -1. */
int table_seat_of(const server_table *table, const char *token);

/* Plays seat's whole move (notation, or actions when text is NULL) if
 * version is current: 0, or an HTTP status (403, 409, 422) with a reason.
 * Stored before it returns; chance that follows is played and stored too.
 * The caller holds the lock. */
int table_play(server_table *table, int seat, int version, const char *text,
               const gateau_action *actions, int count, const char *note, char *error,
               size_t error_size);

/* Several servers on one database (store_is_shared): takes what other
 * processes stored since this table was loaded (moves, replayed through
 * the engine as a restore does; seats; the end) and pushes the change to
 * the subscribers.  Under the lock.  False with a reason when a stored
 * move cannot be replayed (the table stays where it was). */
bool table_catch_up(server_table *table, char *error, size_t error_size);

/* The store refused a write after a change (the reason is logged by
 * the caller): a retry is due after a pause that doubles from
 * STORE_RETRY_FIRST_MS to STORE_RETRY_MOST_MS, and after the server's
 * limit (table_configure_retry) the table is broken instead.  Under the lock. */
void table_store_failed(server_table *table);
/* Whether a retry is due now (workers.c queues the table then). */
bool table_retry_due(const server_table *table);
/* The retry itself, on a worker: what a failure cut short (chance, the
 * end) is stored now, or the pause doubles.  Under the lock. */
void table_retry(server_table *table);
/* How long (ms) the store may fail one table before it is broken, and
 * the most a bot's time budget (ms=N, --max-bot-ms) and a search's
 * iterations (iters=N, --max-bot-iters) may be. */
void table_configure(int64_t give_up_ms, int max_bot_ms, int max_bot_iters);
/* Whether a bot spec's budgets are within the caps: its ms= (an ext:
 * program without one has SERVER_EXT_DEFAULT_MS) and its iters=.  false
 * with the reason, which names the cap and its flag. */
bool table_check_budget(const char *spec, int most_ms, int most_iters, char *error,
                        size_t error_size);
/* A table the store has over before its game's end (a forfeit, an
 * expiry): why, from the stored result's {"ended": "..."}, for its
 * snapshot. */
void table_take_ending(server_table *table, const store_table *kept);
/* An ext: seat with onerror=forfeit failed: the table ends there, its
 * snapshot and stored result saying why.  Under the lock. */
void table_forfeit(server_table *table, int seat, const char *reason);
/* Several servers on one database: whether this table's store is shared;
 * and (under the lock) whether a bot or chance move has waited so long
 * for the process that should make it that this one takes it over (it
 * plays the chance itself; true: queue the bots). */
bool table_is_shared(const server_table *table);
bool table_take_over(server_table *table);
enum { STORE_RETRY_FIRST_MS = 50, STORE_RETRY_MOST_MS = 5000 };

/* The seats whose bot (or stand-in) must move now (bits), under the lock. */
uint32_t table_bot_seats(const server_table *table);

/* The JSON a viewer (a seat, or GATEAU_OBSERVER) receives, with the log
 * from entry log_from on (0: all of it): malloc'd. */
/* After a change: the cached snapshots are stale. */
void table_forget_snapshots(server_table *table);
char *table_snapshot_from(server_table *table, int viewer, int log_from);
/* The same with room bytes before the text (a push's, SERVER_WRITE_ROOM),
 * its length (the room not counted) in *length. */
char *table_snapshot_message(server_table *table, int viewer, int log_from, size_t room,
                             size_t *length);
/* The snapshot without its log, as if the table's state were state (its
 * uncached maker; the secrecy test gives it determinized states). */
char *table_snapshot_head(server_table *table, const gateau_state *state, int viewer);
/* Legal continuations of seat's move after the actions given: a
 * malloc'd JSON object, or NULL with a reason (422). */
char *table_legal_after(server_table *table, int seat, const gateau_action *after, int count,
                        char *error, size_t error_size);
/* The record as viewer may see it (the full record once the game is
 * over, for everybody): malloc'd. */
char *table_record_for(server_table *table, int viewer);

/* Hands a person's seat to a bot (zombie) or back: 0 or a status. */
int table_set_zombie(server_table *table, int seat, bool zombie, const char *bot_spec, char *error,
                     size_t error_size);
/* Claims an open seat for name: its token, or 0/status as table_play. */
int table_join(server_table *table, int seat, const char *name, char token[SERVER_TOKEN_SIZE],
               char *error, size_t error_size);

/* The table's time since a moment of server_now(): real milliseconds,
 * times GATEAU_TEST_TIME_SCALE for the tests (docs/server.md). */
int64_t table_elapsed(int64_t since);
int64_t table_time_scale(void);

/* ---- Take-backs and hand-overs (table_flow.c) --------------------------------------------- */

/* Before a person's move is committed: what its take-back needs (the
 * move is the record's last, index; before, the state before it). */
void table_flow_remember(server_table *table, int seat, int index, const gateau_state *before,
                         int64_t clock_before, int phase_start);
/* Frees what table_flow_remember kept (table_free). */
void table_flow_forget(server_table *table);
/* Takes seat's last move back: 0, or 409 (with why), 503. */
int table_take_back(server_table *table, int seat, char *error, size_t error_size);
/* Seat by hands seat to a bot (back: seat's own player takes it back):
 * 0, or 403, 409, 422, 503 with why. */
int table_hand_over(server_table *table, int by, int seat, bool back, char *error,
                    size_t error_size);
/* The log entry of the last move goes (a take-back). */
void table_drop_last_log(server_table *table);

/* The threads that work for the loop (requests, bots, reviews) run this
 * much nicer than it: server_thread_below_loop. */
enum { SERVER_HELPER_NICENESS = 5 };
/* The calling thread's name (at most 15 characters), shown by top -H
 * and in /proc (server.c). */
void server_thread_name(const char *name);
/* Called by a thread that works for the loop as it starts: named, and
 * nicer. */
void server_thread_below_loop(const char *name);

/* Milliseconds on a monotonic clock. */
int64_t server_now(void);
/* Microseconds on the same clock. */
int64_t server_now_us(void);

/* ---- Decks sent by clients (decks.c) ------------------------------------------------------ */

enum {
    DECKS_MAX_SIZE = 64 * 1024,        /* a deck's text */
    DECKS_NAME_SIZE = 2 * STORE_HASH_SIZE + 6 /* "HASH.deck" and the NUL */
};
/* The decks of the SQLite database at path are kept beside it
 * (DB.decks/); set once at start (for commands that read them). */
void decks_configure(const char *database);
/* The same for a server (or a command that reads tables): with
 * PostgreSQL, decks are kept in the database and a private temporary
 * folder of this process caches them (decks_close empties it).  false
 * with the reason. */
bool decks_open(const char *database, char *error, size_t error_size);
void decks_close(void);
/* PostgreSQL: the decks text names ("deck=HASH.deck": a table's options,
 * a record) fetched from the database into the folder, when not there
 * yet, before the engine reads them; a deck that cannot be fetched is
 * logged (the engine then says it is missing).  Nothing with SQLite. */
void decks_fetch(const char *text);
/* That folder, where tables' "deck=HASH.deck" options are looked up;
 * NULL when there is none. */
const char *decks_folder(void);
/* Keeps a deck's text by its hash once the engine reads it as this
 * table's (game, players and the table's other options): its name
 * "HASH.deck" for the table's options, or false with a status (422: the
 * engine refuses it, nothing is left; 503: it cannot be kept) and a
 * reason that names no path. */
bool decks_keep(const gateau_game *game, int players, const char *options, const char *content,
                char name[DECKS_NAME_SIZE], int *status, char *error, size_t error_size);
/* Whether name is "HASH.deck". */
bool decks_is_hash_name(const char *name);
/* Takes the decks' folder out of a reason, in place: the deck is then
 * named by its hash alone. */
void decks_unpath(char *text);
/* Copies the decks of the configured folder into to_database's own
 * (TO.decks/) for a backup: false with the reason. */
bool decks_copy(const char *to_database, int *copied, char *error, size_t error_size);
/* Tables of a database from before decks were kept by content name a
 * deck by its path: each deck is copied under its hash and the table
 * names it so.  A table whose deck cannot be read is left as it is and
 * counted in skipped (the log says which).  False when the store fails. */
bool decks_migrate(struct store *database, int *skipped, char *error, size_t error_size);

/* ---- Hints and replays (analysis.c) ---------------------------------------------------------- */

/* The best moves for seat in state (a copy the caller owns: no lock is
 * needed) from a search of milliseconds, as a malloc'd JSON object
 * {"unit", "ms", "moves": [{"move", "action", "win", "score", "visits",
 * "exact"}]}; NULL with a status (503 when most_at_once hints are already
 * running) and a reason. */
char *analysis_hint(const gateau_state *state, int seat, int milliseconds, int most_at_once,
                    int *status, char *error, size_t error_size);

/* Every position of record from its start, each with the move that led
 * there as viewer saw it, as a malloc'd JSON object {"game", "players",
 * "names", "over", "scores", "steps": [{"n", "seat", "text", "move",
 * "view"}]}.  viewer: a seat, GATEAU_OBSERVER, or ANALYSIS_EVERYONE (each
 * step's "views": every seat's; its move as the spectators saw it). */
#define ANALYSIS_EVERYONE (-100)
char *analysis_replay(const gateau_record *record, int viewer);

/* ---- The people at a table: names (names.c), chat (chat.c), rematches (rematch.c) --- */

enum {
    NAME_MOST_CHARACTERS = 40,  /* a person's name */
    CHAT_MOST_CHARACTERS = 300, /* a chat message */
    CHAT_KEPT = 50,             /* the last messages a table sends to whoever opens it */
    CHAT_BURST = 5,             /* messages one sender may post at once ... */
    CHAT_REFILL_MS = 3000,      /* ... and one more each this many milliseconds */
    CHAT_SPECTATOR_SENDERS = 32 /* spectators' addresses a table remembers the rate of */
};
/* Whether text is a name people may show: UTF-8 of 1 to 40 characters,
 * not all spaces, no control characters.  false with a reason that
 * starts with what (such as "'name'"). */
bool name_check(const char *text, const char *what, char *error, size_t error_size);
/* Seat names itself (a person's claimed seat; 422 otherwise), stored and
 * pushed: 0 or a status (503 when the store refuses) with a reason.
 * Under the lock. */
int table_rename(server_table *table, int seat, const char *name, char *error,
                 size_t error_size);

/* The chat's memory (table_free frees it). */
void chat_free(table_chat *chat);
/* Posts text to the table's chat: from seat (under its name) or from a
 * spectator (seat GATEAU_OBSERVER, under name, from the address client),
 * stored, then pushed to every WebSocket as {"chat": [message]}.  0 or a
 * status with a reason: 400 (text), 422 (a spectator's name that is a
 * seat's), 429 (over the sender's rate: *retry_after seconds), 503 (the
 * store).  Under the lock. */
int chat_post(server_table *table, int seat, const char *client, const char *name,
              const char *text, int *retry_after, char *error, size_t error_size);
/* {"chat": [the last CHAT_KEPT messages, oldest first], "chat_history":
 * true}: malloc'd; NULL when the store cannot read them.  Under the lock. */
char *chat_history(server_table *table);
/* Several servers on one database: the messages other processes stored
 * since (a notice of the table's change) are kept and pushed here too.
 * Under the lock. */
void chat_catch_up(server_table *table);

/* POST /api/tables/ID/rematch by a seat of a finished table: makes the
 * rematch when it is the first (the same game, options, clock and seats,
 * bots staying bots, each person's seat waiting for its person), and
 * gives the seat its own seat there.  The answer's JSON (malloc'd:
 * {"id", "seat", "token", "creator"?}) or NULL with a status and reason.
 * Takes the tables' locks itself. */
char *rematch_accept(const char *table_id, const char *token, int *status, char *error,
                     size_t error_size);
/* A person's seat of a rematch, waiting for its person ("invited" in the
 * store): claimed for them, its token returned.  Under the lock. */
int table_claim_invited(server_table *table, int seat, char token[SERVER_TOKEN_SIZE],
                        char *error, size_t error_size);

/* ---- Reviews (reviews.c) ------------------------------------------------------------------- */

bool reviews_start(struct store *database, int threads, int queue_limit, long iterations);
void reviews_stop(void); /* cancels what is under way; forgets every job */
const char *review_state_name(review_state state);
/* How the review of a table stands in this process (REVIEW_NONE when none
 * was asked for since the start, or long ago), for its snapshot.  Takes
 * the reviews' lock: callable with the table's lock held. */
review_state reviews_progress(const char *table_id, int *done, int *total);
/* The routes' work: each returns the HTTP status and sets *answer
 * (malloc'd): JSON for 200 and 202, a one-line reason otherwise.  Called
 * without any table's lock (they take it to push progress).
 * ask_table queues the review of a finished table whose full record is
 * record (or answers the one kept); ask_upload that of a client's record,
 * already checked.  client: the address asking (a client may have
 * REVIEWS_PER_ADDRESS reviews waiting or under way: 429 past it). */
int reviews_ask_table(const char *table_id, const char *record, const char *client, char **answer);
int reviews_table_status(const char *table_id, char **answer);
int reviews_ask_upload(const char *record, const char *client, char **answer);
int reviews_upload_status(const char *id, char **answer);

/* ---- Every table (tables.c) -------------------------------------------------------------- */

bool tables_init(struct store *database, char *error, size_t error_size); /* restores */
void tables_shutdown(void);
void tables_add(server_table *table);
/* The same unless a table with its id is there already (loaded from the
 * store meanwhile): false then, and the caller frees its own. */
bool tables_add_new(server_table *table);
/* A table made but not wanted after all (not locked by the caller): over
 * and found by no lookup, freed when its last holder (the bots' queue)
 * lets go.  Its rows stay in the store. */
void tables_discard(server_table *table);
/* The table with id, locked and held; NULL when there is none.
 * table_unlock it (which lets it go too). */
server_table *tables_lock(const char *id);
void table_unlock(server_table *table);
/* Another reference to a table one holds already (a subscriber, the
 * bots' queue), and letting one go: a finished table nobody holds any
 * more leaves memory (the store loads it again when asked). */
void table_hold(server_table *table);
void table_release(server_table *table);
/* The lobby's default page and its most (docs/server.md). */
enum { LOBBY_PAGE = 50, LOBBY_MAX_PAGE = 200 };
/* A page of the lobby: {"tables": [at most limit unfinished tables, those
 * with open seats first, each kind newest first], "next": the cursor of
 * the page after it, or null}, from after the cursor given (NULL or "":
 * the first page); malloc'd, or NULL when after is not a cursor. */
char *tables_lobby(int limit, const char *after);
/* Calls visit on every table (unlocked; visit locks what it needs). */
void tables_each(void (*visit)(server_table *table, void *context), void *context);
struct store *tables_store(void);
/* The store's change notices (store_watch): a table in memory that
 * another process changed catches up ("*": every table). */
void tables_notice(void *context, const char *table_id, int version);
/* Tables held in memory now (finished ones leave when nobody holds them). */
int tables_in_memory(void);

/* Unfinished tables whose last move is older than idle_before (Unix
 * seconds) end, in the store and in memory: over, "ended": "expired: no
 * move for at least N days", their rows kept, their WebSockets told.  A
 * table in memory that another process ended takes that end; one that
 * was taken out of the store (`gateau tables delete`) leaves memory.  A
 * table whose move is being stored meanwhile stays in play.  expired
 * counts them; false with a reason when the store fails. */
bool tables_expire(struct store *database, int64_t idle_before, int *expired, char *error,
                   size_t error_size);

/* ---- Expiry (expiry.c) ------------------------------------------------------------------ */

/* Unix seconds before which a last move is days old. */
int64_t expiry_cutoff(int days);
/* One sweep (tables_expire) for tables days without a move, its count
 * in the log; days 0: nothing. */
bool expiry_sweep(struct store *database, int days);
/* A sweep every hour on a thread of its own (days 0: none), until
 * expiry_stop. */
bool expiry_start(struct store *database, int days);
void expiry_stop(void);

/* ---- Bots and clocks (workers.c) ----------------------------------------------------------- */

bool workers_start(int threads);
void workers_stop(void);
/* After a change (under the table's lock): queues the table if a bot
 * must move. */
void workers_notice(server_table *table);
/* Tables waiting in the bots' queue now. */
int workers_queued(void);

/* ---- The request log (request_log.c) ------------------------------------------------------ */

/* Lines go to path from now on (NULL: standard error): false with a reason. */
bool request_log_open(const char *path, char *error, size_t error_size);
/* SIGHUP: the file opened again by its name (logrotate moved the old one). */
bool request_log_reopen(char *error, size_t error_size);
void request_log_close(void);
/* One line as it is (a newline added). */
void request_log_text(const char *line);
/* One answer's line: when (ISO 8601, UTC), client, method, path, status,
 * and the milliseconds it took.  The texts are already on one line. */
void request_log_answer(const char *client, const char *method, const char *path, int status,
                        int64_t microseconds);

/* What the server has to say (a store's failure, a table broken,
 * skipped or expired), as one line of the request log's shape: "TIME -
 * gateau serve: MESSAGE" (control characters escaped), to the same
 * place, --quiet or not.  Never a token or a password: callers pass
 * reasons the store already stripped of addresses (store_postgres.c). */
void server_log(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* ---- Metrics (metrics.c) ------------------------------------------------------------------ */

typedef enum metric_gauge {
    METRIC_CONNECTIONS, /* open connections */
    METRIC_WEBSOCKETS,  /* open WebSockets */
    METRIC_GAUGES
} metric_gauge;
void metrics_gauge_add(metric_gauge which, long delta);
/* A request answered with status (101 for a WebSocket's upgrade). */
void metrics_request(int status);
/* A client's move accepted, stored and pushed in microseconds. */
void metrics_move(int64_t microseconds);
/* Who made a stored move (gateau_moves_stored_total's label). */
typedef enum metric_mover {
    MOVER_PERSON, /* a seat's move posted by its client */
    MOVER_BOT,    /* a bot seat's, or a person's seat handed to a bot */
    MOVER_CLOCK,  /* the stand-in of a seat whose time ran out */
    MOVER_CHANCE, /* the deal, dice and the like */
    MOVERS
} metric_mover;
void metrics_stored_move(metric_mover by);
/* The scrape: Prometheus' text format 0.0.4, malloc'd. */
char *metrics_text(void);

/* ---- One request and its answer (loop.c, requests.c, http.c) ------------------------------ */

/*
 * The loop reads a request into an exchange and hands it to a request
 * thread (requests.c), which fills in the answer (http.c, files.c) and
 * hands it back; the loop writes it.  A WebSocket's first message
 * travels the same way (websocket.c), its answer a subscriber or a close.
 */
typedef struct http_exchange {
    /* The request, as the loop read it. */
    char method[8];               /* "GET", "HEAD", "POST" */
    char path[1024];              /* decoded */
    char query[1024];             /* decoded "name=value" items, '&' between them */
    char token[128];              /* Authorization: Bearer's, "" when none */
    char origin[256];             /* "" when none */
    char if_none_match[96];
    char client[64];              /* its address (X-Forwarded-For's from a trusted proxy) */
    int64_t started;              /* when its head was read, monotonic microseconds */
    char *body;                   /* POST's, NUL-terminated */
    size_t body_length, body_capacity;
    bool websocket_hello;         /* a WebSocket's first message (body), not a request */
    char table_id[STORE_ID_SIZE]; /* the WebSocket's table */
    /* The answer: status, Content-Type, body (malloc'd), extra header lines. */
    int status;
    const char *type;
    char *answer;
    size_t answer_length;
    char headers[640];
    bool close_after;             /* the connection closes once it is written */
    bool after_body;              /* a refusal written once the body is read */
    /* A WebSocket's first message answered: its subscriber, or a close. */
    subscriber *subscribed;
    int close_code;
    char close_reason[124];
    /* The loop's own. */
    struct loop_connection *connection; /* NULL once the connection is gone */
    bool in_flight;               /* with a request thread */
    int completions;              /* libwebsockets said the body is whole (once, but see loop.c) */
    size_t written;               /* of the answer, head included */
    char *head;                   /* the answer's head, once made */
    size_t head_length;
    struct http_exchange *next;   /* in a queue */
} http_exchange;

void exchange_free(http_exchange *exchange);
/* Sets the answer: status, type and a copy of body. */
void exchange_answer(http_exchange *exchange, int status, const char *type, const char *body);
/* A refusal: {"error": "<reason on one line>"}. */
void exchange_error(http_exchange *exchange, int status, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
/* text on one line of printable characters (control characters as C escapes). */
void one_line(const char *text, char *out, size_t size);
/* How deep text's arrays and objects nest, strings skipped (counted before
 * any recursive parse: docs/server.md, nesting at most SERVER_MAX_DEPTH). */
int json_nesting(const char *text, size_t length);

/* ---- The request threads (requests.c) ---------------------------------------------------- */

bool requests_start(int threads, int queue_size);
/* Hands an exchange to a request thread: false when the queue is full. */
bool requests_submit(http_exchange *exchange);
/* Work that needs a table's lock but answers nobody (a subscriber leaving). */
bool requests_submit_task(void (*run)(void *context), void *context);
/* Runs every task and exchange already queued, then stops the threads. */
void requests_stop(void);

/* ---- The loop (loop.c) ---------------------------------------------------------------------- */

/* Starts the loop on its own thread, listening: false with a reason. */
bool loop_start(const server_options *options, char *error, size_t error_size);
int loop_port(void);
/* Closes every connection (WebSockets with 1001) and stops. */
void loop_stop(void);
/* After the request threads stopped: frees what they answered for nobody. */
void loop_forget(void);
/* From any thread: an exchange answered (the loop writes it). */
void loop_answered(http_exchange *exchange);
/* From any thread: a subscriber has pushes to write, or must be closed. */
void loop_wake(subscriber *to);

/* ---- HTTP routes (http.c) and files (files.c) ---------------------------------------------- */

void http_configure(const server_options *options);
/* Answers a request (on a request thread). */
void http_answer(http_exchange *exchange);
/* GET or HEAD of a file of the web root (NULL: none) into exchange. */
void files_answer(const char *root, http_exchange *exchange);
/* The Content-Type of a file name. */
const char *files_type(const char *name);

/* ---- Browsers (browser.c) ------------------------------------------------------------------ */

void browser_configure(const server_options *options);
/* Whether Host (with or without a port) names this server. */
bool browser_host_allowed(const char *host);
/* Whether a request with this Origin ("" for none) and Host may change
 * things or open a WebSocket: none, the server's own, or --origin's. */
bool browser_origin_allowed(const char *origin, const char *host);
/* Whether origin is one of --origin's (it gets CORS headers). */
bool browser_cors_origin(const char *origin);
/* The CORS header lines for origin ("" when none) into out. */
void browser_cors_headers(const char *origin, char *out, size_t size);

/* ---- Limits per client address (addresses.c; the loop's thread only) --------------------- */

typedef struct client_address client_address;
void addresses_configure(const server_options *options);
/* The record of an address (text, as inet_ntop writes it), made when
 * new: NULL when memory is short. */
client_address *addresses_find(const char *text);
/* Whether text is one of --trusted-proxy's. */
bool addresses_trusted(const char *text);
/* Counting what an address holds open: false when over its limit (a
 * trusted proxy's connections are counted, not limited). */
bool addresses_connect(client_address *address, bool limited);
void addresses_disconnect(client_address *address);
bool addresses_open_websocket(client_address *address);
void addresses_close_websocket(client_address *address);
/* One request (or one table made) now: 0 when allowed, else the seconds
 * to wait (Retry-After). */
int addresses_request(client_address *address);
int addresses_create_table(client_address *address);
/* Forgets addresses that hold nothing and whose buckets are full again. */
void addresses_sweep(void);
void addresses_free_all(void);
const char *addresses_text(const client_address *address);

/* ---- Subscribers (websocket.c) ------------------------------------------------------------- */

void websocket_configure(const server_options *options);
/* Sends every subscriber of table what it has not had (under the table's
 * lock): queued in each one's outbox, written by the loop. */
void websocket_push(server_table *table);
/* Queues text (a JSON object that is no snapshot: a chat message) for
 * every subscriber of table, under the table's lock. */
void websocket_push_text(server_table *table, const char *text);
/* A WebSocket's first message, on a request thread: subscribes it (its
 * first snapshot queued) or says how to close it. */
void websocket_hello(http_exchange *exchange);
/* The connection of a subscriber closed (the loop): it leaves its table. */
void websocket_gone(subscriber *leaving);
/* The loop's side of a subscriber: its connection (NULL: none). */
struct loop_connection *subscriber_connection(subscriber *to);
void subscriber_set_connection(subscriber *to, struct loop_connection *connection);
/* A push waiting in an outbox: SERVER_WRITE_ROOM bytes of room, then
 * its text (length bytes); malloc'd. */
typedef struct push_message {
    char *data;
    size_t length;
} push_message;
/* The most a WebSocket frame's head takes (server to client: no mask). */
enum { SERVER_FRAME_HEAD = 10 };
/* Takes the next pushes to write, oldest first: as many as fit in room
 * bytes with a frame head each (at most most), and always the first
 * however large.  Returns how many (the caller frees each's data);
 * *more when others still wait; *close_code 1013 (none taken) when the
 * subscriber fell behind. */
int subscriber_take(subscriber *to, push_message *taken, int most, size_t room, bool *more,
                    int *close_code);
/* The loop takes a subscriber off its wake list (before writing), and
 * lets go of the wake-up's reference (after); true when it fell behind. */
bool subscriber_woken(subscriber *to);
void subscriber_release(subscriber *to);

/* ---- The server (server.c) ------------------------------------------------------------- */

/* Starts serving (the store opened, its tables restored, the bots'
 * threads, the request threads and the loop started): NULL with a reason.  For tests and fuzz
 * targets that run a server in their own process. */
typedef struct server server;
server *server_start(const server_options *options, char *error, size_t error_size);
int server_port(const server *running); /* the port listened on */
/* Whether the tables are restored (before, requests are answered 503,
 * but for /healthz and /metrics). */
bool server_ready(void);
void server_stop(server *running);
/* Whether address is one --bind takes (an IPv4 or IPv6 address): false
 * with a reason. */
bool server_check_bind(const char *address, char *error, size_t error_size);
/* Runs until SIGINT or SIGTERM (SIGHUP reopens the log): the exit status. */
int server_run(const server_options *options);

#endif
