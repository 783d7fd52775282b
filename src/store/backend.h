/*
 * backend.h: the two databases behind store.h.  store.c picks one by the
 * path given to store_open (a postgresql:// URL or a SQLite file) and
 * forwards each call; each backend keeps its own struct and promises what
 * store.h says.
 */
#ifndef GATEAU_STORE_BACKEND_H
#define GATEAU_STORE_BACKEND_H

#include "store/store.h"

typedef struct sqlite_store sqlite_store;
sqlite_store *sqlite_store_open(const char *path, char *error, size_t error_size);
void sqlite_store_close(sqlite_store *storage);
bool sqlite_store_create_table(sqlite_store *storage, const store_table *table, char *error,
                               size_t error_size);
bool sqlite_store_update_seat(sqlite_store *storage, const char *table_id, int seat,
                              const store_seat *value, char *error, size_t error_size);
bool sqlite_store_append_move(sqlite_store *storage, const char *table_id, const store_move *move,
                              char *error, size_t error_size);
bool sqlite_store_finish_table(sqlite_store *storage, const char *table_id,
                               const char *result_json, char *error, size_t error_size);
bool sqlite_store_load_tables(sqlite_store *storage, bool unfinished_only, store_visitor visit,
                              void *context, char *error, size_t error_size);
bool sqlite_store_load_table(sqlite_store *storage, const char *table_id, store_visitor visit,
                             void *context, char *error, size_t error_size);

typedef struct postgres_store postgres_store;
postgres_store *postgres_store_open(const char *url, char *error, size_t error_size);
void postgres_store_close(postgres_store *storage);
bool postgres_store_create_table(postgres_store *storage, const store_table *table, char *error,
                                 size_t error_size);
bool postgres_store_update_seat(postgres_store *storage, const char *table_id, int seat,
                                const store_seat *value, char *error, size_t error_size);
bool postgres_store_append_move(postgres_store *storage, const char *table_id,
                                const store_move *move, char *error, size_t error_size);
bool postgres_store_finish_table(postgres_store *storage, const char *table_id,
                                 const char *result_json, char *error, size_t error_size);
bool postgres_store_load_tables(postgres_store *storage, bool unfinished_only,
                                store_visitor visit, void *context, char *error,
                                size_t error_size);
bool postgres_store_load_table(postgres_store *storage, const char *table_id, store_visitor visit,
                               void *context, char *error, size_t error_size);
bool postgres_store_watch(postgres_store *storage, store_change_visitor notice, void *context,
                          char *error, size_t error_size);

#endif
