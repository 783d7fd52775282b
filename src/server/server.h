/*
 * server.h: the parts of `gateau serve` (docs/server.md).
 *
 *   table.c      one table: its match, seats, tokens, log and versions,
 *                changed under the table's own lock
 *   tables.c     every table by id; creating, restoring, the lobby
 *   snapshot.c   what one seat (or a spectator) may see of a table, as JSON
 *   workers.c    bots thinking on a pool of threads; the clocks
 *   http.c       the HTTP routes (civetweb), request parsing and limits
 *   websocket.c  subscribers, pushes and presence
 *   tokens.c     ids and secret tokens
 *   server.c     starting and stopping it all
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

/* ---- Limits ---------------------------------------------------------------------- */
enum {
    SERVER_MAX_BODY = 128 * 1024,   /* a request body (a deck is at most 64 KiB) */
    SERVER_MAX_MESSAGE = 4096,      /* a WebSocket message from a client */
    SERVER_TOKEN_SIZE = 33,         /* 32 characters (192 bits) and the NUL */
    SERVER_MAX_SUBSCRIBERS = 64     /* WebSockets on one table */
};

typedef struct server_options {
    const char *bind;     /* "127.0.0.1" */
    int port;             /* 8080; 0: any free port */
    const char *db;       /* the SQLite file */
    const char *web;      /* the browser files, or NULL */
    int bot_threads;      /* bots thinking at once */
    int connections;      /* connections served at once (a WebSocket holds one) */
    const char *origins;  /* WebSocket origins allowed besides the server's own, comma-separated */
    bool quiet;           /* no request log */
    /* ext: bot specs (docs/protocol.md) tables may name, comma-separated,
     * exactly as given; NULL: none (an ext: spec runs a program here). */
    const char *ext_bots;
} server_options;

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
} table_seat;

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
    char *shared_front, *shared_middle, *shared_scores;
    subscriber *subscribers[SERVER_MAX_SUBSCRIBERS];
    int subscriber_count;
    bool bot_queued;              /* waiting for or held by a worker */
    bool over;
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

/* Makes a table from a creation request's parts: NULL with a reason
 * (for a 400/422).  names may be NULL, or hold NULL for a seat without a
 * name.  tokens receives one token per "human" seat (others ""), creator
 * the creator's. */
server_table *table_create(struct store *database, const gateau_game *game, int players,
                    const char *options, const char *seats[GATEAU_MAX_PLAYERS],
                    const char *names[GATEAU_MAX_PLAYERS], const char *clock,
                    char tokens[GATEAU_MAX_PLAYERS][SERVER_TOKEN_SIZE],
                    char creator[SERVER_TOKEN_SIZE], char *error, size_t error_size);
/* A table as the store kept it, its moves replayed: NULL with a reason.
 * It is not yet settled: call table_resume once the store is free again
 * (table_restore runs inside a store visit, which may not write). */
server_table *table_restore(struct store *database, const store_table *kept, const store_move *moves,
                     int move_count, char *error, size_t error_size);
/* Settles a restored table: what a crash cut short between a move and
 * what follows it (its chance moves, its end) is played and stored now.
 * False with a reason when the store refuses. */
bool table_resume(server_table *table, char *error, size_t error_size);
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

/* The seats whose bot (or stand-in) must move now (bits), under the lock. */
uint32_t table_bot_seats(const server_table *table);

/* The JSON a viewer (a seat, or GATEAU_OBSERVER) receives, with the log
 * from entry log_from on (0: all of it): malloc'd. */
/* After a change: the cached snapshots are stale. */
void table_forget_snapshots(server_table *table);
char *table_snapshot_from(server_table *table, int viewer, int log_from);
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

/* Milliseconds on a monotonic clock. */
int64_t server_now(void);

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

/* ---- Every table (tables.c) -------------------------------------------------------------- */

bool tables_init(struct store *database, char *error, size_t error_size); /* restores */
void tables_shutdown(void);
void tables_add(server_table *table);
/* The table with id, locked and held; NULL when there is none.
 * table_unlock it (which lets it go too). */
server_table *tables_lock(const char *id);
void table_unlock(server_table *table);
/* Another reference to a table one holds already (a subscriber, the
 * bots' queue), and letting one go: a finished table nobody holds any
 * more leaves memory (the store loads it again when asked). */
void table_hold(server_table *table);
void table_release(server_table *table);
/* The lobby: {"tables": [tables with open seats], "playing": [games in play to watch]}, malloc'd. */
char *tables_lobby(void);
/* Calls visit on every table (unlocked; visit locks what it needs). */
void tables_each(void (*visit)(server_table *table, void *context), void *context);
struct store *tables_store(void);
/* The store's change notices (store_watch): a table in memory that
 * another process changed catches up ("*": every table). */
void tables_notice(void *context, const char *table_id, int version);
/* Tables held in memory now (finished ones leave when nobody holds them). */
int tables_in_memory(void);

/* ---- Bots and clocks (workers.c) ----------------------------------------------------------- */

bool workers_start(int threads);
void workers_stop(void);
/* After a change (under the table's lock): queues the table if a bot
 * must move. */
void workers_notice(server_table *table);

/* ---- Subscribers (websocket.c) ------------------------------------------------------------- */

struct mg_context;
void websocket_register(struct mg_context *context, const server_options *options);
/* Sends every subscriber of table its snapshot (under the table's lock). */
void websocket_push(server_table *table);

/* ---- HTTP (http.c) --------------------------------------------------------------------- */

/* Before civetweb starts: the options, and the callback that answers
 * civetweb's own refusals (a request it cannot route) as ours are
 * answered, in JSON. */
struct mg_callbacks;
void http_configure(const server_options *options, struct mg_callbacks *callbacks);
/* The routes, once civetweb runs. */
void http_register(struct mg_context *context);

/* ---- The server (server.c) ------------------------------------------------------------- */

/* Starts serving (the store opened, its tables restored, the bots'
 * threads and civetweb started): NULL with a reason.  For tests and fuzz
 * targets that run a server in their own process. */
typedef struct server server;
server *server_start(const server_options *options, char *error, size_t error_size);
int server_port(const server *running); /* the port listened on */
void server_stop(server *running);
/* Runs until SIGINT or SIGTERM: the exit status. */
int server_run(const server_options *options);

#endif
