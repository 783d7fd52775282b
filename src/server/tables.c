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
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
        if (!strcmp(entry->table->id, id) && !entry->table->expired) return entry->table;
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

bool tables_add_new(server_table *table)
{
    pthread_rwlock_wrlock(&tables.lock);
    bool added = !find(table->id);
    if (added) add_locked(table);
    pthread_rwlock_unlock(&tables.lock);
    return added;
}

void tables_discard(server_table *table)
{
    pthread_mutex_lock(&table->lock);
    table->over = table->expired = table->finish_stored = true;
    pthread_mutex_unlock(&table->lock);
    tables_add(table); /* (so that the last release finds it, and frees it) */
    table_hold(table);
    table_release(table);
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
        server_log("cannot restore %s", error);
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
    server_log("skipped table %s: %s", table_id[0] ? table_id : "(no id)",
            reason);
}

bool tables_init(struct store *database, char *error, size_t error_size)
{
    tables.store = database;
    /* Decks named by a path (a database from before): kept by their hash
     * now.  A table skipped says why in the log (and again when its
     * restore fails); a store that cannot list its tables here keeps no
     * table from being served. */
    int skipped;
    char reason[512];
    if (!decks_migrate(database, &skipped, reason, sizeof reason))
        server_log("cannot look for decks named by a path: %s", reason);
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
    if (!*(server_table **)context) server_log("cannot load %s", error);
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
        server_log("cannot catch up: %s", error);
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

/*
 * The lobby is paginated: a page of the unfinished tables, those with
 * open seats first, then the games in play (to watch), each newest first.
 * A cursor names the last table of a page by its place in that order,
 * "GROUP.CREATED.ID", so that the next page starts after it even when
 * tables came or went meanwhile.  Without pages, 5,000 tables made a
 * lobby of 490 KB.
 */
typedef struct lobby_entry {
    int group; /* 0: open seats; 1: in play */
    int64_t created;
    char id[STORE_ID_SIZE];
    json_t *item;
} lobby_entry;

typedef struct lobby_entries {
    lobby_entry *list;
    int count, capacity;
} lobby_entries;

static void add_to_lobby(server_table *table, void *context)
{
    lobby_entries *entries = context;
    pthread_mutex_lock(&table->lock);
    const char *game = gateau_game_name(gateau_setup_game(table->setup));
    if (table->over || lesson_table(game, table->seed)) {
        pthread_mutex_unlock(&table->lock);
        return;
    }
    json_t *open = json_array(), *people = json_array();
    for (int s = 0; s < table->players; s++) {
        const table_seat *seat = &table->seats[s];
        bool is_open = !strcmp(seat->spec, "open") && !seat->claimed;
        if (is_open) json_array_append_new(open, json_integer(s + 1));
        /* Who sits there: a name, an open seat, or a bot by its spec. */
        json_t *person = json_object();
        json_object_set_new(person, "name", seat->name[0] ? json_string(seat->name) : json_null());
        if (is_open) json_object_set_new(person, "open", json_true());
        if (!seat->human) json_object_set_new(person, "bot", json_string(seat->spec));
        json_array_append_new(people, person);
    }
    if (entries->count == entries->capacity) {
        entries->capacity = entries->capacity ? 2 * entries->capacity : 64;
        entries->list = realloc(entries->list, sizeof *entries->list * (size_t)entries->capacity);
        if (!entries->list) abort();
    }
    lobby_entry *entry = &entries->list[entries->count++];
    entry->group = json_array_size(open) ? 0 : 1;
    entry->created = table->created;
    snprintf(entry->id, sizeof entry->id, "%s", table->id);
    entry->item = json_object();
    json_object_set_new(entry->item, "id", json_string(table->id));
    json_object_set_new(entry->item, "game", json_string(game));
    json_object_set_new(entry->item, "players", json_integer(table->players));
    json_object_set_new(entry->item, "open_seats", json_integer((json_int_t)json_array_size(open)));
    json_object_set_new(entry->item, "open", open);
    json_object_set_new(entry->item, "seats", people);
    json_object_set_new(entry->item, "host", table->host[0] ? json_string(table->host) : json_null());
    json_object_set_new(entry->item, "clock",
                        table->clock_text[0] ? json_string(table->clock_text) : json_null());
    json_object_set_new(entry->item, "created", json_integer(table->created));
    pthread_mutex_unlock(&table->lock);
}

/* The lobby's order (a cursor is compared with it too). */
static int compare_lobby_entries(const void *left, const void *right)
{
    const lobby_entry *a = left, *b = right;
    if (a->group != b->group) return a->group - b->group;
    if (a->created != b->created) return a->created > b->created ? -1 : 1;
    return strcmp(a->id, b->id);
}

/* "GROUP.CREATED.ID" into a position; false when it is not one. */
static bool read_cursor(const char *text, lobby_entry *position)
{
    char *end;
    memset(position, 0, sizeof *position);
    if (text[0] != '0' && text[0] != '1') return false;
    position->group = text[0] - '0';
    if (text[1] != '.' || text[2] < '0' || text[2] > '9') return false;
    errno = 0;
    long long created = strtoll(text + 2, &end, 10);
    if (errno || *end != '.' || !end[1]) return false;
    position->created = created;
    const char *id = end + 1;
    if (strlen(id) >= sizeof position->id || strspn(id, "abcdefghijklmnopqrstuvwxyz0123456789") !=
                                                 strlen(id))
        return false;
    snprintf(position->id, sizeof position->id, "%s", id);
    return true;
}

char *tables_lobby(int limit, const char *after)
{
    lobby_entry position;
    if (after && after[0] && !read_cursor(after, &position)) return NULL;
    lobby_entries entries = {0};
    tables_each(add_to_lobby, &entries);
    if (entries.count)
        qsort(entries.list, (size_t)entries.count, sizeof *entries.list, compare_lobby_entries);
    int first = 0;
    while (after && after[0] && first < entries.count &&
           compare_lobby_entries(&entries.list[first], &position) <= 0)
        first++;
    json_t *page = json_array(), *next = json_null();
    for (int i = first; i < entries.count; i++) {
        if (i < first + limit) {
            json_array_append(page, entries.list[i].item);
        } else if (i == first + limit) {
            const lobby_entry *last = &entries.list[i - 1];
            char cursor[64];
            snprintf(cursor, sizeof cursor, "%d.%lld.%s", last->group, (long long)last->created,
                     last->id);
            next = json_string(cursor);
        }
        json_decref(entries.list[i].item);
    }
    for (int i = 0; i < first; i++) json_decref(entries.list[i].item);
    free(entries.list);
    json_t *answer = json_pack("{s:o, s:o}", "tables", page, "next", next);
    char *text = json_dumps(answer, JSON_COMPACT);
    json_decref(answer);
    return text;
}

/* ---- Expiry ------------------------------------------------------------------------ */

/* The unfinished tables of the store, and those among them to expire. */
typedef struct expiry_lists {
    char (*stored)[STORE_ID_SIZE];
    int stored_count, stored_capacity;
    char (*idle)[STORE_ID_SIZE];
    int idle_count, idle_capacity;
    int64_t idle_before;
} expiry_lists;

static void add_id(char (**list)[STORE_ID_SIZE], int *count, int *capacity, const char *id)
{
    if (*count == *capacity) {
        *capacity = *capacity ? 2 * *capacity : 64;
        *list = realloc(*list, sizeof **list * (size_t)*capacity);
        if (!*list) abort();
    }
    snprintf((*list)[(*count)++], STORE_ID_SIZE, "%s", id);
}

static bool note_stored(void *context, const store_summary *table)
{
    expiry_lists *lists = context;
    add_id(&lists->stored, &lists->stored_count, &lists->stored_capacity, table->id);
    if (table->last_move < lists->idle_before)
        add_id(&lists->idle, &lists->idle_count, &lists->idle_capacity, table->id);
    return true;
}

static int compare_ids(const void *a, const void *b) { return strcmp(a, b); }

/* Under the table's lock: it is out of the store, so out of reach too. */
static void mark_expired(server_table *table)
{
    table->expired = true;
    table->over = true; /* (no bot moves it; its last holder frees it) */
}

/* Why an idle table ended, for its snapshot and its stored result. */
static void expiry_reason(int64_t idle_before, char *out, size_t size)
{
    int64_t days = ((int64_t)time(NULL) - idle_before + 43200) / 86400;
    snprintf(out, size, "expired: no move for at least %lld day%s", (long long)days,
             days == 1 ? "" : "s");
}

/* A table in memory that expired: over, why in its snapshot, its
 * WebSockets told (they stay open, as on any finished table). */
static void end_expired(server_table *table, const char *reason)
{
    if (table->over) return;
    snprintf(table->ended, sizeof table->ended, "%s", reason);
    table->over = table->finish_stored = true;
    table_forget_snapshots(table);
    websocket_push(table);
}

/* One idle table ended in the store ({"ended": "expired: ..."}, its rows
 * kept), and in memory when it is there: locked meanwhile, so that no
 * move of this process is stored during it. */
static bool expire_one(struct store *database, const char *id, int64_t idle_before,
                       bool *ended, char *error, size_t error_size)
{
    char reason[96];
    expiry_reason(idle_before, reason, sizeof reason);
    json_t *why = json_pack("{s:s}", "ended", reason);
    char *result = json_dumps(why, JSON_COMPACT);
    json_decref(why);
    if (!result) abort(); /* out of memory */
    pthread_rwlock_rdlock(&tables.lock);
    server_table *found = find(id);
    if (found) table_hold(found);
    pthread_rwlock_unlock(&tables.lock);
    if (found) pthread_mutex_lock(&found->lock);
    bool done = store_expire_table(database, id, idle_before, result, ended, error, error_size);
    free(result);
    if (!done && !strncmp(error, "no table", 8)) done = true; /* (gone meanwhile) */
    if (found && *ended) end_expired(found, reason);
    if (found) table_unlock(found);
    return done;
}

/* Tables in memory, unfinished and older than idle_before, that the
 * store no longer has (sorted in stored): another process expired or
 * deleted them.  (A younger one may be too new for the list.) */
static int drop_vanished(const expiry_lists *lists)
{
    pthread_rwlock_rdlock(&tables.lock);
    int count = tables.count, held = 0;
    server_table **gone = calloc((size_t)count + 1, sizeof *gone);
    if (!gone) abort();
    for (int b = 0; b < TABLES_BUCKETS; b++)
        for (table_entry *entry = tables.buckets[b]; entry && held < count; entry = entry->next) {
            server_table *table = entry->table;
            if (table->expired || table->created >= lists->idle_before ||
                (lists->stored_count && bsearch(table->id, lists->stored,
                                                (size_t)lists->stored_count, STORE_ID_SIZE,
                                                compare_ids)))
                continue;
            table_hold(table);
            gone[held++] = table;
        }
    pthread_rwlock_unlock(&tables.lock);
    int dropped = 0;
    char error[256];
    for (int i = 0; i < held; i++) {
        pthread_mutex_lock(&gone[i]->lock);
        error[0] = '\0';
        /* Ended in the store (`gateau tables expire` beside this server, a
         * lost notice of another process): the table takes its end, and
         * stays to be read.  Not there at all (deleted): it leaves. */
        if (!gone[i]->over && table_catch_up(gone[i], error, sizeof error) && gone[i]->over) {
            dropped++;
        } else if (!gone[i]->over && !strncmp(error, "no table", 8)) {
            mark_expired(gone[i]);
            dropped++;
        }
        table_unlock(gone[i]);
    }
    free(gone);
    return dropped;
}

bool tables_expire(struct store *database, int64_t idle_before, int *expired, char *error,
                   size_t error_size)
{
    *expired = 0;
    expiry_lists lists = {.idle_before = idle_before};
    bool done = store_list_tables(database, true, note_stored, &lists, error, error_size);
    for (int i = 0; done && i < lists.idle_count; i++) {
        bool ended = false;
        done = expire_one(database, lists.idle[i], idle_before, &ended, error, error_size);
        *expired += ended;
    }
    if (done) {
        if (lists.stored_count)
            qsort(lists.stored, (size_t)lists.stored_count, STORE_ID_SIZE, compare_ids);
        *expired += drop_vanished(&lists);
    }
    free(lists.stored);
    free(lists.idle);
    return done;
}
