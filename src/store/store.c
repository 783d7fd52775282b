/*
 * store.c: store.h's calls, forwarded to the backend that store_open
 * chose: PostgreSQL for a postgresql:// (or postgres://) URL, SQLite for
 * anything else (a file's path).
 */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "store/backend.h"

/* ---- Shared by the backends (backend.h) ------------------------------------------------ */

bool store_fail(char *error, size_t error_size, const char *format, ...)
{
    if (error && error_size) {
        va_list arguments;
        va_start(arguments, format);
        vsnprintf(error, error_size, format, arguments);
        va_end(arguments);
    }
    return false;
}

bool store_fits(const char *text, size_t size)
{
    return memchr(text, '\0', size) != NULL;
}

bool store_seat_fits(const store_seat *seat)
{
    return store_fits(seat->spec, sizeof seat->spec) && store_fits(seat->name, sizeof seat->name);
}

bool store_table_fits(const store_table *table, char *error, size_t error_size)
{
    if (!store_fits(table->id, sizeof table->id) || !table->id[0])
        return store_fail(error, error_size, "store: cannot create a table: bad id");
    const char *id = table->id;
    if (!store_fits(table->game, sizeof table->game) ||
        !store_fits(table->options, sizeof table->options) ||
        !store_fits(table->clock, sizeof table->clock) ||
        !store_fits(table->host, sizeof table->host))
        return store_fail(error, error_size, "store: cannot create table %s: unterminated text", id);
    if (table->players < 1 || table->players > GATEAU_MAX_PLAYERS)
        return store_fail(error, error_size, "store: cannot create table %s: %d players", id,
                          table->players);
    for (int s = 0; s < table->players; s++)
        if (!store_seat_fits(&table->seats[s]))
            return store_fail(error, error_size,
                              "store: cannot create table %s: unterminated text in seat index %d",
                              id, s);
    return true;
}

/* ---- Forwarding ------------------------------------------------------------------------ */

/* Every failed call, for GET /metrics: an atomic, so that counting
 * takes no lock on the way of a commit. */
static atomic_uint_fast64_t failed_calls;

uint64_t store_error_count(void) { return (uint64_t)atomic_load(&failed_calls); }

/* ok, counted when false. */
static bool counted(bool ok)
{
    if (!ok) atomic_fetch_add_explicit(&failed_calls, 1, memory_order_relaxed);
    return ok;
}

struct store {
    sqlite_store *sqlite;     /* exactly one of the two */
    postgres_store *postgres;
    store_failures failures;  /* injected by tests only (read_failures) */
    store_damage damage;      /* store_on_damage */
};

void store_on_damage(store *storage, store_damage_notice notice, void *context)
{
    storage->damage = (store_damage){notice, context};
}

bool store_error_is_damage(const char *error)
{
    return strstr(error, "damaged") || strstr(error, "is missing");
}

/* ---- Injected failures (tests only) ---------------------------------------------------- */

/*
 * GATEAU_TEST_STORE_FAIL makes writes fail as a database's would, so
 * that the tests can show the server through them; nothing else sets it.
 * "every:N": each Nth write (1-based) fails; "after:N": every write after
 * the first N fails.  Writes are store_create_table, store_update_seat,
 * store_append_move and store_finish_table (and the others that call
 * injected_failure: a removed move, a deck, a chat message, a rematch, a
 * review), counted together.
 */
static void read_failures(store_failures *failures)
{
    const char *text = getenv("GATEAU_TEST_STORE_FAIL");
    long number;
    char extra;
    if (!text) return;
    if (sscanf(text, "every:%ld%c", &number, &extra) == 1 && number > 0) failures->every = number;
    else if (sscanf(text, "after:%ld%c", &number, &extra) == 1 && number >= 0)
        failures->after = number, failures->all_after = true;
    else fprintf(stderr, "gateau: GATEAU_TEST_STORE_FAIL '%s' is not every:N or after:N: ignored\n",
                 text);
}

/* Whether this write is one the test wants to fail (then error says so). */
static bool injected_failure(store *storage, const char *what, char *error, size_t error_size)
{
    store_failures *failures = &storage->failures;
    if (!failures->every && !failures->all_after) return false;
    long count = atomic_fetch_add(&failures->writes, 1) + 1;
    bool fail = failures->every ? count % failures->every == 0 : count > failures->after;
    if (fail) store_fail(error, error_size, "store: cannot %s: injected failure %ld (GATEAU_TEST_STORE_FAIL)",
                         what, count);
    return fail;
}

bool store_path_is_url(const char *path)
{
    return path && (!strncmp(path, "postgresql://", 13) || !strncmp(path, "postgres://", 11));
}

bool store_path_is_conninfo(const char *path)
{
    /* libpq's keywords (the ones such a string starts with in practice) */
    static const char *const keywords[] = {"host",     "hostaddr", "port",    "dbname",
                                           "user",     "password", "passfile", "service",
                                           "sslmode", "connect_timeout", "options",
                                           "application_name"};
    if (!path) return false;
    while (*path == ' ' || *path == '\t') path++;
    size_t length = strcspn(path, " \t=");
    const char *after = path + length;
    while (*after == ' ' || *after == '\t') after++;
    if (*after != '=') return false;
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
        if (strlen(keywords[i]) == length && !strncmp(path, keywords[i], length)) return true;
    return false;
}

store *store_open(const char *path, char *error, size_t error_size)
{
    if (!path) {
        if (error && error_size) snprintf(error, error_size, "store: no database given");
        return NULL;
    }
    if (store_path_is_conninfo(path)) { /* (never a file named after it, password and all) */
        if (error && error_size) snprintf(error, error_size, "store: %s", STORE_CONNINFO_REFUSED);
        return NULL;
    }
    store *storage = calloc(1, sizeof *storage);
    if (!storage) abort(); /* out of memory */
    if (store_path_is_url(path)) storage->postgres = postgres_store_open(path, error, error_size);
    else storage->sqlite = sqlite_store_open(path, error, error_size);
    if (!storage->sqlite && !storage->postgres) {
        free(storage);
        return NULL;
    }
    read_failures(&storage->failures);
    return storage;
}

store *store_open_reading(const char *path, char *error, size_t error_size)
{
    /* (PostgreSQL is shared anyway: opened as a server opens it) */
    if (!path || store_path_is_url(path)) return store_open(path, error, error_size);
    store *storage = calloc(1, sizeof *storage);
    if (!storage) abort(); /* out of memory */
    storage->sqlite = sqlite_store_open_reading(path, error, error_size);
    if (!storage->sqlite) {
        free(storage);
        return NULL;
    }
    return storage;
}

void store_close(store *storage)
{
    if (!storage) return;
    if (storage->postgres) postgres_store_close(storage->postgres);
    else sqlite_store_close(storage->sqlite);
    free(storage);
}

const char *store_warning(const store *storage)
{
    return storage && storage->sqlite ? sqlite_store_warning(storage->sqlite) : NULL;
}

bool store_is_shared(const store *storage)
{
    return storage && storage->postgres;
}

bool store_create_table(store *storage, const store_table *table, char *error, size_t error_size)
{
    if (injected_failure(storage, "create a table", error, error_size)) return counted(false);
    return counted(storage->postgres
                       ? postgres_store_create_table(storage->postgres, table, error, error_size)
                       : sqlite_store_create_table(storage->sqlite, table, error, error_size));
}

bool store_update_seat(store *storage, const char *table_id, int seat, const store_seat *value,
                       char *error, size_t error_size)
{
    if (injected_failure(storage, "update a seat", error, error_size)) return counted(false);
    return counted(storage->postgres
                       ? postgres_store_update_seat(storage->postgres, table_id, seat, value, error,
                                                    error_size)
                       : sqlite_store_update_seat(storage->sqlite, table_id, seat, value, error,
                                                  error_size));
}

/* The store whose visit (store_load_tables, store_load_table) this thread
 * is inside, if any: an append from there would wait for a commit that
 * waits for the visit to end. */
static _Thread_local const store *visiting;

bool store_append_move(store *storage, const char *table_id, const store_move *move, char *error,
                       size_t error_size)
{
    if (!table_id) return store_fail(error, error_size, "store: no table id given");
    if (visiting == storage)
        return store_fail(error, error_size,
                          "store: called from inside a visit of store_load_tables");
    if (injected_failure(storage, "append a move", error, error_size)) return counted(false);
    return counted(storage->postgres
                       ? postgres_store_append_move(storage->postgres, table_id, move, error,
                                                    error_size)
                       : sqlite_store_append_move(storage->sqlite, table_id, move, error,
                                                  error_size));
}

bool store_remove_last_move(store *storage, const char *table_id, int number, char *error,
                            size_t error_size)
{
    if (!table_id) return store_fail(error, error_size, "store: no table id given");
    if (visiting == storage)
        return store_fail(error, error_size, "store: called from inside a visit of the tables");
    if (injected_failure(storage, "remove a move", error, error_size)) return counted(false);
    return counted(storage->postgres
                       ? postgres_store_remove_last_move(storage->postgres, table_id, number,
                                                         error, error_size)
                       : sqlite_store_remove_last_move(storage->sqlite, table_id, number, error,
                                                       error_size));
}

bool store_finish_table(store *storage, const char *table_id, const char *result_json,
                        char *error, size_t error_size)
{
    if (injected_failure(storage, "finish a table", error, error_size)) return counted(false);
    return counted(storage->postgres
                       ? postgres_store_finish_table(storage->postgres, table_id, result_json,
                                                     error, error_size)
                       : sqlite_store_finish_table(storage->sqlite, table_id, result_json, error,
                                                   error_size));
}

bool store_load_tables(store *storage, bool unfinished_only, store_visitor visit, void *context,
                       char *error, size_t error_size)
{
    const store *outer = visiting;
    visiting = storage;
    bool loaded = storage->postgres
                      ? postgres_store_load_tables(storage->postgres, unfinished_only, visit,
                                                   context, &storage->damage, error, error_size)
                      : sqlite_store_load_tables(storage->sqlite, unfinished_only, visit,
                                                 context, &storage->damage, error, error_size);
    visiting = outer;
    return counted(loaded);
}

bool store_load_table(store *storage, const char *table_id, store_visitor visit, void *context,
                      char *error, size_t error_size)
{
    const store *outer = visiting;
    visiting = storage;
    bool loaded = storage->postgres
                      ? postgres_store_load_table(storage->postgres, table_id, visit, context,
                                                  error, error_size)
                      : sqlite_store_load_table(storage->sqlite, table_id, visit, context,
                                                error, error_size);
    visiting = outer;
    /* A table that is not there is an answer, not a failure. */
    if (!loaded && error && !strncmp(error, "no table ", 9)) return false;
    return counted(loaded);
}

/* A SQLite file has one server: nobody else changes its tables, so there
 * is nothing to watch. */
bool store_watch(store *storage, store_change_visitor notice, void *context, char *error,
                 size_t error_size)
{
    if (!storage->postgres) return true;
    return postgres_store_watch(storage->postgres, notice, context, error, error_size);
}

/* ---- What an operator asks, and expiry ----------------------------------------------- */

bool store_list_tables(store *storage, bool unfinished_only, store_summary_visitor visit,
                       void *context, char *error, size_t error_size)
{
    const store *outer = visiting;
    visiting = storage;
    bool listed = storage->postgres
                      ? postgres_store_list_tables(storage->postgres, unfinished_only, visit,
                                                   context, error, error_size)
                      : sqlite_store_list_tables(storage->sqlite, unfinished_only, visit, context,
                                                 error, error_size);
    visiting = outer;
    return listed;
}

bool store_delete_table(store *storage, const char *table_id, int64_t idle_before, bool *deleted,
                        char *error, size_t error_size)
{
    *deleted = false;
    if (!table_id) return store_fail(error, error_size, "store: no table id given");
    if (visiting == storage)
        return store_fail(error, error_size, "store: called from inside a visit of the tables");
    return storage->postgres
               ? postgres_store_delete_table(storage->postgres, table_id, idle_before, deleted,
                                             error, error_size)
               : sqlite_store_delete_table(storage->sqlite, table_id, idle_before, deleted, error,
                                           error_size);
}

bool store_expire_table(store *storage, const char *table_id, int64_t idle_before,
                        const char *result_json, bool *expired, char *error, size_t error_size)
{
    *expired = false;
    if (!table_id || !result_json) return store_fail(error, error_size, "store: no table id given");
    if (visiting == storage)
        return store_fail(error, error_size, "store: called from inside a visit of the tables");
    return storage->postgres
               ? postgres_store_expire_table(storage->postgres, table_id, idle_before,
                                             result_json, expired, error, error_size)
               : sqlite_store_expire_table(storage->sqlite, table_id, idle_before, result_json,
                                           expired, error, error_size);
}

bool store_put_deck(store *storage, const char *name, const char *content, char *error,
                    size_t error_size)
{
    if (!storage->postgres)
        return store_fail(error, error_size, "store: decks are files beside a SQLite database");
    if (visiting == storage)
        return store_fail(error, error_size, "store: called from inside a visit of the tables");
    if (injected_failure(storage, "keep a deck", error, error_size)) return counted(false);
    return counted(postgres_store_put_deck(storage->postgres, name, content, error, error_size));
}

bool store_get_deck(store *storage, const char *name, char **content, char *error,
                    size_t error_size)
{
    *content = NULL;
    if (!storage->postgres)
        return store_fail(error, error_size, "store: decks are files beside a SQLite database");
    if (visiting == storage)
        return store_fail(error, error_size, "store: called from inside a visit of the tables");
    bool found = postgres_store_get_deck(storage->postgres, name, content, error, error_size);
    return found || !strncmp(error, "no deck", 7) ? found : counted(false);
}

bool store_append_chat(store *storage, const char *table_id, const store_chat *message,
                       int *number, char *error, size_t error_size)
{
    if (!table_id || !message) return store_fail(error, error_size, "store: no table id given");
    if (!store_fits(message->name, sizeof message->name) ||
        !store_fits(message->text, sizeof message->text))
        return store_fail(error, error_size, "store: a chat message of table %s is too long",
                          table_id);
    if (visiting == storage)
        return store_fail(error, error_size, "store: called from inside a visit of the tables");
    if (injected_failure(storage, "keep a chat message", error, error_size)) return counted(false);
    return counted(storage->postgres
                       ? postgres_store_append_chat(storage->postgres, table_id, message,
                                                    number, error, error_size)
                       : sqlite_store_append_chat(storage->sqlite, table_id, message, number,
                                                  error, error_size));
}

bool store_load_chat(store *storage, const char *table_id, int most, store_chat_visitor visit,
                     void *context, char *error, size_t error_size)
{
    if (!table_id) return store_fail(error, error_size, "store: no table id given");
    if (visiting == storage)
        return store_fail(error, error_size, "store: called from inside a visit of the tables");
    return counted(storage->postgres
                       ? postgres_store_load_chat(storage->postgres, table_id, most, visit,
                                                  context, error, error_size)
                       : sqlite_store_load_chat(storage->sqlite, table_id, most, visit, context,
                                                error, error_size));
}

bool store_set_rematch(store *storage, const char *table_id, const char *rematch_id,
                       char existing[STORE_ID_SIZE], char *error, size_t error_size)
{
    existing[0] = '\0';
    if (!table_id || !rematch_id || !store_fits(rematch_id, STORE_ID_SIZE))
        return store_fail(error, error_size, "store: no table id given");
    if (visiting == storage)
        return store_fail(error, error_size, "store: called from inside a visit of the tables");
    if (injected_failure(storage, "note a rematch", error, error_size)) return counted(false);
    return storage->postgres
               ? postgres_store_set_rematch(storage->postgres, table_id, rematch_id, existing,
                                            error, error_size)
               : sqlite_store_set_rematch(storage->sqlite, table_id, rematch_id, existing, error,
                                          error_size);
}

bool store_set_options(store *storage, const char *table_id, const char *options, char *error,
                       size_t error_size)
{
    if (!table_id || !options) return store_fail(error, error_size, "store: no table id given");
    if (!store_fits(options, STORE_OPTIONS_SIZE))
        return store_fail(error, error_size, "store: the options of table %s are too long",
                          table_id);
    if (visiting == storage)
        return store_fail(error, error_size, "store: called from inside a visit of the tables");
    return storage->postgres
               ? postgres_store_set_options(storage->postgres, table_id, options, error,
                                            error_size)
               : sqlite_store_set_options(storage->sqlite, table_id, options, error, error_size);
}

bool store_set_last_move_time(store *storage, const char *table_id, int64_t when, char *error,
                              size_t error_size)
{
    if (!table_id) return store_fail(error, error_size, "store: no table id given");
    if (visiting == storage)
        return store_fail(error, error_size, "store: called from inside a visit of the tables");
    return storage->postgres
               ? postgres_store_set_last_move_time(storage->postgres, table_id, when, error,
                                                   error_size)
               : sqlite_store_set_last_move_time(storage->sqlite, table_id, when, error,
                                                 error_size);
}

bool store_save_review(store *storage, const char *table_id, const char *review, int64_t made,
                       char *error, size_t error_size)
{
    if (!table_id || !review) return store_fail(error, error_size, "store: no table id given");
    if (visiting == storage)
        return store_fail(error, error_size, "store: called from inside a visit of the tables");
    if (injected_failure(storage, "keep a review", error, error_size)) return counted(false);
    return counted(storage->postgres
                       ? postgres_store_save_review(storage->postgres, table_id, review, made,
                                                    error, error_size)
                       : sqlite_store_save_review(storage->sqlite, table_id, review, made, error,
                                                  error_size));
}

bool store_load_review(store *storage, const char *table_id, char **review, char *error,
                       size_t error_size)
{
    *review = NULL;
    if (!table_id) return store_fail(error, error_size, "store: no table id given");
    if (visiting == storage)
        return store_fail(error, error_size, "store: called from inside a visit of the tables");
    return counted(storage->postgres
                       ? postgres_store_load_review(storage->postgres, table_id, review, error,
                                                    error_size)
                       : sqlite_store_load_review(storage->sqlite, table_id, review, error,
                                                  error_size));
}

bool store_check(store *storage, char *error, size_t error_size)
{
    return counted(storage->postgres ? postgres_store_check(storage->postgres, error, error_size)
                                     : sqlite_store_check(storage->sqlite, error, error_size));
}

/* The end of a URL's user part (its '@'), or NULL when it has none. */
static const char *user_part_end(const char *authority)
{
    size_t length = strcspn(authority, "/?#");
    const char *at = NULL;
    for (const char *c = authority; c < authority + length; c++)
        if (*c == '@') at = c;
    return at;
}

/* A libpq key=value string as it may be shown: password's value (bare or
 * quoted) becomes ***. */
static void shown_conninfo(const char *path, char *out, size_t size)
{
    size_t used = 0;
    for (const char *c = path; *c && used + 4 < size;) {
        if (!strncmp(c, "password", 8) && (c == path || c[-1] == ' ' || c[-1] == '\t')) {
            const char *value = c + 8;
            while (*value == ' ' || *value == '\t') value++;
            if (*value == '=') {
                value++;
                while (*value == ' ' || *value == '\t') value++;
                used += (size_t)snprintf(out + used, size - used, "password=***");
                if (*value == '\'') { /* quoted: up to the closing quote, \' inside */
                    for (value++; *value && *value != '\''; value++)
                        if (*value == '\\' && value[1]) value++;
                    if (*value) value++;
                } else {
                    value += strcspn(value, " \t");
                }
                c = value;
                continue;
            }
        }
        out[used++] = *c++;
    }
    out[used < size ? used : size - 1] = '\0';
}

void store_path_shown(const char *path, char *out, size_t size)
{
    if (!size) return;
    out[0] = '\0';
    if (!path) return;
    if (store_path_is_conninfo(path)) {
        shown_conninfo(path, out, size);
        return;
    }
    if (!store_path_is_url(path)) {
        snprintf(out, size, "%s", path);
        return;
    }
    const char *authority = strstr(path, "://") + 3, *at = user_part_end(authority);
    const char *colon = at ? memchr(authority, ':', (size_t)(at - authority)) : NULL;
    size_t used = 0;
    /* Appends length bytes of text (as many as fit). */
#define APPEND(text, length)                                                                   \
    do {                                                                                       \
        size_t room = size - 1 - used, take = (size_t)(length) < room ? (size_t)(length) : room; \
        memcpy(out + used, (text), take);                                                      \
        used += take;                                                                          \
    } while (0)
    const char *rest = path;
    if (colon) {
        APPEND(path, colon + 1 - path);
        APPEND("***", 3);
        rest = at;
    }
    /* password=... among the parameters (libpq takes it there too). */
    const char *query = strchr(rest, '?');
    if (query) {
        APPEND(rest, query + 1 - rest);
        for (const char *item = query + 1; *item;) {
            size_t length = strcspn(item, "&");
            if (!strncasecmp(item, "password=", 9)) {
                APPEND(item, 9);
                APPEND("***", 3);
            } else {
                APPEND(item, length);
            }
            item += length;
            if (*item == '&') APPEND(item++, 1);
        }
    } else {
        APPEND(rest, strlen(rest));
    }
#undef APPEND
    out[used] = '\0';
}
