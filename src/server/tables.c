/*
 * tables.c: every table of the server, by id.
 *
 * A hash of table pointers under a read-write lock: lookups (every
 * request) share it, adding or dropping a table takes it alone.
 * Unfinished tables are restored from the store at start; a finished
 * table that is not in memory is loaded when somebody asks for it.
 *
 * A finished table is dropped from memory as soon as nobody holds it: a
 * game kept until the server stops grew memory with every game played.
 * Whoever keeps a table's pointer beyond the hash's lock holds a
 * reference (table->references): a request between tables_lock and
 * table_unlock, each WebSocket subscriber, the bots' queue.  A reference
 * is taken only while the hash's lock is held or by a holder of another
 * one, so a table found with none, under the lock taken alone, has nobody
 * who could still reach it.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/server.h"

enum { TABLES_BUCKETS = 4096 };

typedef struct table_entry {
    server_table *table;
    struct table_entry *next;
} table_entry;

static struct {
    pthread_rwlock_t lock;
    table_entry *buckets[TABLES_BUCKETS];
    int count;
    struct store *store;
} tables = {.lock = PTHREAD_RWLOCK_INITIALIZER};

static unsigned bucket_of(const char *id)
{
    unsigned hash = 2166136261u; /* FNV-1a */
    for (const unsigned char *c = (const unsigned char *)id; *c; c++) hash = (hash ^ *c) * 16777619u;
    return hash % TABLES_BUCKETS;
}

static server_table *find(const char *id)
{
    for (table_entry *entry = tables.buckets[bucket_of(id)]; entry; entry = entry->next)
        if (!strcmp(entry->table->id, id)) return entry->table;
    return NULL;
}

/* Under the hash's lock, taken alone. */
static void add_locked(server_table *table)
{
    table_entry *entry = malloc(sizeof *entry);
    if (!entry) abort();
    entry->table = table;
    unsigned bucket = bucket_of(table->id);
    entry->next = tables.buckets[bucket];
    tables.buckets[bucket] = entry;
    tables.count++;
}

void tables_add(server_table *table)
{
    pthread_rwlock_wrlock(&tables.lock);
    add_locked(table);
    pthread_rwlock_unlock(&tables.lock);
}

void table_hold(server_table *table) { atomic_fetch_add(&table->references, 1); }

/* Drops table from the hash and frees it if it is (still) finished and
 * held by nobody.  table may have been freed already by another release
 * that got here first, so it is looked for by address before it is read. */
static void drop_if_unheld(server_table *table)
{
    pthread_rwlock_wrlock(&tables.lock);
    table_entry **link = &tables.buckets[0], *entry = NULL;
    for (int b = 0; b < TABLES_BUCKETS && !entry; b++)
        for (link = &tables.buckets[b]; *link; link = &(*link)->next)
            if ((*link)->table == table) {
                entry = *link;
                break;
            }
    /* (a table whose end the store has yet to take stays for its retries) */
    bool drop = entry && table->over && table->finish_stored && !atomic_load(&table->retry_due) &&
                atomic_load(&table->references) == 0;
    if (drop) {
        *link = entry->next;
        tables.count--;
    }
    pthread_rwlock_unlock(&tables.lock);
    if (!drop) return;
    free(entry);
    table_free(table);
}

void table_release(server_table *table)
{
    /* The last holder's view of `over` is final: only a holder changes it. */
    if (atomic_fetch_sub(&table->references, 1) == 1 && table->over) drop_if_unheld(table);
}

struct store *tables_store(void) { return tables.store; }

int tables_in_memory(void)
{
    pthread_rwlock_rdlock(&tables.lock);
    int count = tables.count;
    pthread_rwlock_unlock(&tables.lock);
    return count;
}

/* ---- Restoring ------------------------------------------------------------------- */

/*
 * A table is rebuilt inside the store's visit, but settled after it: a
 * server killed between a move and the chance moves that follow it (or
 * the table's end) left writes to make, and a visit may not write.
 */
typedef struct restore_context {
    server_table **loaded;
    int count, capacity;
    int restored, failed;
} restore_context;

static bool restore_one(void *context, const store_table *kept, const store_move *moves,
                        int move_count)
{
    restore_context *counts = context;
    char error[512];
    server_table *table = table_restore(tables.store, kept, moves, move_count, error, sizeof error);
    if (!table) {
        /* One damaged table must not keep the others from being served. */
        fprintf(stderr, "gateau serve: cannot restore %s\n", error);
        counts->failed++;
        return true;
    }
    if (counts->count == counts->capacity) {
        counts->capacity = counts->capacity ? 2 * counts->capacity : 64;
        counts->loaded = realloc(counts->loaded, sizeof *counts->loaded * (size_t)counts->capacity);
        if (!counts->loaded) abort();
    }
    counts->loaded[counts->count++] = table;
    return true;
}

/* A restored table settled and served (what the store refuses now is
 * retried: table_store_failed). */
static bool resume(server_table *table)
{
    table_resume(table);
    return true;
}

/* A table whose rows cannot be read: skipped, and said, so that the
 * others are served. */
static void report_damage(void *context, const char *table_id, const char *reason)
{
    ((restore_context *)context)->failed++;
    fprintf(stderr, "gateau serve: skipped table %s: %s\n", table_id[0] ? table_id : "(no id)",
            reason);
}

bool tables_init(struct store *database, char *error, size_t error_size)
{
    tables.store = database;
    restore_context counts = {0};
    store_on_damage(database, report_damage, &counts);
    bool loaded = store_load_tables(database, true, restore_one, &counts, error, error_size);
    for (int i = 0; i < counts.count; i++) {
        if (loaded && resume(counts.loaded[i])) {
            tables_add(counts.loaded[i]);
            counts.restored++;
        } else if (loaded) {
            counts.failed++;
        } else {
            table_free(counts.loaded[i]);
        }
    }
    free(counts.loaded);
    store_on_damage(database, NULL, NULL);
    if (!loaded) return false;
    if (counts.restored || counts.failed)
        printf("Restored %d unfinished table%s%s.\n", counts.restored,
               counts.restored == 1 ? "" : "s", counts.failed ? " (some could not be: see above)" : "");
    return true;
}

void tables_shutdown(void)
{
    pthread_rwlock_wrlock(&tables.lock);
    for (int b = 0; b < TABLES_BUCKETS; b++) {
        for (table_entry *entry = tables.buckets[b], *next; entry; entry = next) {
            next = entry->next;
            table_free(entry->table);
            free(entry);
        }
        tables.buckets[b] = NULL;
    }
    tables.count = 0;
    pthread_rwlock_unlock(&tables.lock);
}

/* ---- Lookups ---------------------------------------------------------------------- */

static bool load_one(void *context, const store_table *kept, const store_move *moves,
                     int move_count)
{
    char error[512];
    *(server_table **)context = table_restore(tables.store, kept, moves, move_count, error, sizeof error);
    if (!*(server_table **)context) fprintf(stderr, "gateau serve: cannot load %s\n", error);
    return false;
}

server_table *tables_lock(const char *id)
{
    pthread_rwlock_rdlock(&tables.lock);
    server_table *found = find(id);
    if (found) table_hold(found);
    pthread_rwlock_unlock(&tables.lock);
    if (!found && tables.store) {
        /* A finished table not in memory (ended and dropped, or from
         * before a restart): loaded again, dropped again when released. */
        char error[256];
        server_table *loaded = NULL;
        if (store_load_table(tables.store, id, load_one, &loaded, error, sizeof error) && loaded &&
            resume(loaded)) {
            pthread_rwlock_wrlock(&tables.lock);
            found = find(id);
            if (!found) add_locked(found = loaded);
            table_hold(found);
            pthread_rwlock_unlock(&tables.lock);
            if (found != loaded) table_free(loaded); /* another request loaded it first */
        }
    }
    if (found) pthread_mutex_lock(&found->lock);
    return found;
}

void table_unlock(server_table *table)
{
    pthread_mutex_unlock(&table->lock);
    table_release(table);
}

void tables_each(void (*visit)(server_table *table, void *context), void *context)
{
    pthread_rwlock_rdlock(&tables.lock);
    for (int b = 0; b < TABLES_BUCKETS; b++)
        for (table_entry *entry = tables.buckets[b]; entry; entry = entry->next)
            visit(entry->table, context);
    pthread_rwlock_unlock(&tables.lock);
}

/* ---- Other processes' changes ---------------------------------------------------------- */

static void catch_up_now(server_table *table)
{
    char error[512];
    if (!table_catch_up(table, error, sizeof error))
        fprintf(stderr, "gateau serve: cannot catch up: %s\n", error);
}

static void hold_into(server_table *table, void *context)
{
    server_table ***next = context;
    table_hold(table);
    *(*next)++ = table;
}

/* Called on the store's listener thread.  Only tables in memory catch
 * up: another is loaded whole, as it is then, when somebody asks for it.
 * A move this process stored itself is already at its version. */
void tables_notice(void *context, const char *table_id, int version)
{
    (void)context;
    if (!strcmp(table_id, "*")) {
        /* The listener lost its connection: whatever it missed. */
        pthread_rwlock_rdlock(&tables.lock);
        int count = tables.count;
        pthread_rwlock_unlock(&tables.lock);
        server_table **all = calloc((size_t)count + 1, sizeof *all), **next = all;
        if (!all) abort();
        pthread_rwlock_rdlock(&tables.lock);
        for (int b = 0; b < TABLES_BUCKETS; b++)
            for (table_entry *entry = tables.buckets[b]; entry && next - all < count;
                 entry = entry->next)
                hold_into(entry->table, &next);
        pthread_rwlock_unlock(&tables.lock);
        for (server_table **held = all; held < next; held++) {
            pthread_mutex_lock(&(*held)->lock);
            catch_up_now(*held);
            table_unlock(*held);
        }
        free(all);
        return;
    }
    pthread_rwlock_rdlock(&tables.lock);
    server_table *found = find(table_id);
    if (found) table_hold(found);
    pthread_rwlock_unlock(&tables.lock);
    if (!found) return;
    pthread_mutex_lock(&found->lock);
    if (version < 0 || version > found->version) catch_up_now(found);
    table_unlock(found);
}

/* ---- The lobby ---------------------------------------------------------------------- */

/* The lobby's two lists: tables with open seats, and games in play to
 * watch (at most LOBBY_MAX_WATCHED of them: the lobby is a page, not an
 * archive). */
enum { LOBBY_MAX_WATCHED = 100 };
typedef struct lobby_lists {
    json_t *open, *playing;
} lobby_lists;

static void add_to_lobby(server_table *table, void *context)
{
    lobby_lists *lists = context;
    pthread_mutex_lock(&table->lock);
    json_t *open = json_array();
    for (int s = 0; s < table->players; s++)
        if (!strcmp(table->seats[s].spec, "open") && !table->seats[s].claimed)
            json_array_append_new(open, json_integer(s + 1));
    json_t *list = json_array_size(open) ? lists->open : lists->playing;
    if (!table->over && (list == lists->open || json_array_size(list) < LOBBY_MAX_WATCHED)) {
        json_t *item = json_object();
        json_object_set_new(item, "id", json_string(table->id));
        json_object_set_new(item, "game", json_string(gateau_game_name(gateau_setup_game(table->setup))));
        json_object_set_new(item, "players", json_integer(table->players));
        json_object_set_new(item, "open", open);
        json_object_set_new(item, "created", json_integer(table->created));
        json_array_append_new(list, item);
    } else {
        json_decref(open);
    }
    pthread_mutex_unlock(&table->lock);
}

char *tables_lobby(void)
{
    lobby_lists lists = {json_array(), json_array()};
    tables_each(add_to_lobby, &lists);
    json_t *answer = json_pack("{s:o, s:o}", "tables", lists.open, "playing", lists.playing);
    char *text = json_dumps(answer, JSON_COMPACT);
    json_decref(answer);
    return text;
}
