/*
 * backend.h: the two databases behind store.h.  store.c picks one by the
 * path given to store_open (a postgresql:// URL or a SQLite file) and
 * forwards each call; each backend keeps its own struct and promises what
 * store.h says.
 */
#ifndef GATEAU_STORE_BACKEND_H
#define GATEAU_STORE_BACKEND_H

#include <pthread.h>

#include "store/store.h"

/* ---- Shared by the backends (store.c, commit_queue.c) ------------------------------ */

/* Writes the one-line reason (printf-style) into error; returns false. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
bool store_fail(char *error, size_t error_size, const char *format, ...);

/* Whether text is a C string within size bytes (NUL included). */
bool store_fits(const char *text, size_t size);
/* Whether a seat's texts are C strings within their fields. */
bool store_seat_fits(const store_seat *seat);
/* Whether a table to create is whole (an id, terminated texts, a player
 * count, terminated seats); false with the reason. */
bool store_table_fits(const store_table *table, char *error, size_t error_size);

/* Writes that tests make fail (store.c, GATEAU_TEST_STORE_FAIL). */
typedef struct store_failures {
    long every;        /* each Nth write fails; 0: none */
    long after;        /* with all_after: every write after the first N fails */
    bool all_after;
    _Atomic long writes;
} store_failures;

/* A move waiting for its commit (store_append_move). */
typedef struct pending_move {
    const char *table_id;
    const store_move *move;
    char *error;
    size_t error_size;
    bool done, appended;
    struct pending_move *next;
} pending_move;

/* Group commit: the moves waiting, and whether a caller is committing a
 * batch now. */
typedef struct commit_queue {
    pthread_mutex_t lock;
    pthread_cond_t committed;
    pending_move *head, *tail;
    bool committing;
} commit_queue;

/* Commits batch (a list through next), setting each item's appended and,
 * when refused, its error; backend is the backend's store. */
typedef void (*commit_function)(void *backend, pending_move *batch);

void commit_queue_init(commit_queue *queue);
void commit_queue_destroy(commit_queue *queue);
/* Queues mine and returns once it is committed, by this caller (with
 * commit) or by another caller's batch. */
void commit_queue_wait(commit_queue *queue, pending_move *mine, commit_function commit,
                       void *backend);

/* ---- The backends ------------------------------------------------------------------ */

/* Whether a read's error is about damaged rows (store_on_damage), not a
 * failing database: the reasons the backends write for those say so. */
bool store_error_is_damage(const char *error);
/* store_on_damage's notice, given to the backends' load_tables. */
typedef struct store_damage {
    store_damage_notice notice;
    void *context;
} store_damage;

typedef struct sqlite_store sqlite_store;
sqlite_store *sqlite_store_open(const char *path, char *error, size_t error_size);
void sqlite_store_close(sqlite_store *storage);
/* What opening found amiss but did not refuse (tables lost since the
 * last count), or NULL. */
const char *sqlite_store_warning(const sqlite_store *storage);
/* Read-only, without the lock: for reading beside a server. */
sqlite_store *sqlite_store_open_reading(const char *path, char *error, size_t error_size);
bool sqlite_store_create_table(sqlite_store *storage, const store_table *table, char *error,
                               size_t error_size);
bool sqlite_store_update_seat(sqlite_store *storage, const char *table_id, int seat,
                              const store_seat *value, char *error, size_t error_size);
bool sqlite_store_append_move(sqlite_store *storage, const char *table_id, const store_move *move,
                              char *error, size_t error_size);
bool sqlite_store_remove_last_move(sqlite_store *storage, const char *table_id, int number,
                                   char *error, size_t error_size);
bool sqlite_store_finish_table(sqlite_store *storage, const char *table_id,
                               const char *result_json, char *error, size_t error_size);
bool sqlite_store_load_tables(sqlite_store *storage, bool unfinished_only, store_visitor visit,
                              void *context, const store_damage *damage, char *error,
                              size_t error_size);
bool sqlite_store_load_table(sqlite_store *storage, const char *table_id, store_visitor visit,
                             void *context, char *error, size_t error_size);
bool sqlite_store_check(sqlite_store *storage, char *error, size_t error_size);

bool sqlite_store_list_tables(sqlite_store *storage, bool unfinished_only,
                              store_summary_visitor visit, void *context, char *error,
                              size_t error_size);
bool sqlite_store_delete_table(sqlite_store *storage, const char *table_id, int64_t idle_before,
                               bool *deleted, char *error, size_t error_size);
bool sqlite_store_expire_table(sqlite_store *storage, const char *table_id, int64_t idle_before,
                               const char *result_json, bool *expired, char *error,
                               size_t error_size);
bool sqlite_store_append_chat(sqlite_store *storage, const char *table_id,
                              const store_chat *message, int *number, char *error,
                              size_t error_size);
bool sqlite_store_load_chat(sqlite_store *storage, const char *table_id, int most,
                            store_chat_visitor visit, void *context, char *error,
                            size_t error_size);
bool sqlite_store_set_rematch(sqlite_store *storage, const char *table_id,
                              const char *rematch_id, char existing[STORE_ID_SIZE], char *error,
                              size_t error_size);
bool sqlite_store_set_options(sqlite_store *storage, const char *table_id, const char *options,
                              char *error, size_t error_size);
bool sqlite_store_set_last_move_time(sqlite_store *storage, const char *table_id, int64_t when,
                                     char *error, size_t error_size);
bool sqlite_store_save_review(sqlite_store *storage, const char *table_id, const char *review,
                              int64_t made, char *error, size_t error_size);
bool sqlite_store_load_review(sqlite_store *storage, const char *table_id, char **review,
                              char *error, size_t error_size);

/* libpq's message about a connection without where the server is: its
 * quoted names, the address in brackets after one and the port's number
 * as "***", in place (store_postgres.c; at most 255 bytes are kept). */
void store_hide_addresses(char *line);

typedef struct postgres_store postgres_store;
postgres_store *postgres_store_open(const char *url, char *error, size_t error_size);
void postgres_store_close(postgres_store *storage);
bool postgres_store_create_table(postgres_store *storage, const store_table *table, char *error,
                                 size_t error_size);
bool postgres_store_update_seat(postgres_store *storage, const char *table_id, int seat,
                                const store_seat *value, char *error, size_t error_size);
bool postgres_store_append_move(postgres_store *storage, const char *table_id,
                                const store_move *move, char *error, size_t error_size);
bool postgres_store_remove_last_move(postgres_store *storage, const char *table_id,
                                     int number, char *error, size_t error_size);
bool postgres_store_finish_table(postgres_store *storage, const char *table_id,
                                 const char *result_json, char *error, size_t error_size);
bool postgres_store_load_tables(postgres_store *storage, bool unfinished_only,
                                store_visitor visit, void *context, const store_damage *damage,
                                char *error, size_t error_size);
bool postgres_store_load_table(postgres_store *storage, const char *table_id, store_visitor visit,
                               void *context, char *error, size_t error_size);
bool postgres_store_check(postgres_store *storage, char *error, size_t error_size);
bool postgres_store_watch(postgres_store *storage, store_change_visitor notice, void *context,
                          char *error, size_t error_size);

bool postgres_store_list_tables(postgres_store *storage, bool unfinished_only,
                                store_summary_visitor visit, void *context, char *error,
                                size_t error_size);
bool postgres_store_delete_table(postgres_store *storage, const char *table_id,
                                 int64_t idle_before, bool *deleted, char *error,
                                 size_t error_size);
bool postgres_store_expire_table(postgres_store *storage, const char *table_id,
                                 int64_t idle_before, const char *result_json, bool *expired,
                                 char *error, size_t error_size);
bool postgres_store_put_deck(postgres_store *storage, const char *name, const char *content,
                             char *error, size_t error_size);
bool postgres_store_get_deck(postgres_store *storage, const char *name, char **content,
                             char *error, size_t error_size);
bool postgres_store_append_chat(postgres_store *storage, const char *table_id,
                              const store_chat *message, int *number, char *error,
                              size_t error_size);
bool postgres_store_load_chat(postgres_store *storage, const char *table_id, int most,
                            store_chat_visitor visit, void *context, char *error,
                            size_t error_size);
bool postgres_store_set_rematch(postgres_store *storage, const char *table_id,
                              const char *rematch_id, char existing[STORE_ID_SIZE], char *error,
                              size_t error_size);
bool postgres_store_set_options(postgres_store *storage, const char *table_id,
                                const char *options, char *error, size_t error_size);
bool postgres_store_set_last_move_time(postgres_store *storage, const char *table_id,
                                       int64_t when, char *error, size_t error_size);
bool postgres_store_save_review(postgres_store *storage, const char *table_id, const char *review,
                                int64_t made, char *error, size_t error_size);
bool postgres_store_load_review(postgres_store *storage, const char *table_id, char **review,
                                char *error, size_t error_size);

#endif
