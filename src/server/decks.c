/*
 * decks.c: the decks clients send (Cake Master's "deck"), kept by their
 * content.
 *
 * A deck is kept once, as HASH.deck (HASH its SHA-256 in hex) in the
 * folder beside the database, DB.decks/, and a table's options name it
 * as "deck=HASH.deck", looked up in that folder.  So a table names no
 * path of the server: not in its record, its snapshots or its errors; a
 * database moved with its folder keeps its tables; and a thousand tables
 * of one deck keep one file.
 *
 * A deck is written under its name only once the engine has read it
 * (checked in a private folder first), so that a refused deck leaves no
 * file, and a file under a hash's name is always a deck that was good.
 *
 * Databases written before decks were kept by content name an absolute
 * path: decks_migrate copies each such deck under its hash at start and
 * has the table name it so.
 *
 * With PostgreSQL the database is shared by processes on several
 * machines, so a deck is kept in it (its decks table, by name: the
 * store's put and get), and the folder is a private cache of this
 * process's (a temporary folder, emptied at the stop): a deck is written
 * there when it is kept, and fetched from the database (its hash
 * checked) before a table or a record that names it is read
 * (decks_fetch).  The decks have a connection of their own, apart from
 * the tables', so that a fetch may run inside a visit of the tables (a
 * restore).
 */
#define _GNU_SOURCE /* mkdtemp */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server/server.h"
#include "store/sha256.h"

enum { HASH_HEX = 2 * STORE_HASH_SIZE };

/* The folder: beside a SQLite database; with PostgreSQL, the cache
 * (decks_open), or "" before it is made. */
static char folder[4096];
/* PostgreSQL: where decks are kept (and the folder is a temporary cache). */
static store *deck_store;

void decks_configure(const char *database)
{
    folder[0] = '\0';
    if (!database || store_path_is_url(database)) return;
    int needed = snprintf(folder, sizeof folder, "%s.decks", database);
    if (needed < 0 || (size_t)needed >= sizeof folder) folder[0] = '\0';
}

bool decks_open(const char *database, char *error, size_t error_size)
{
    decks_configure(database);
    if (!database || !store_path_is_url(database)) return true;
    const char *temporary = getenv("TMPDIR");
    snprintf(folder, sizeof folder, "%s/gateau-decks-XXXXXX",
             temporary && temporary[0] ? temporary : "/tmp");
    if (!mkdtemp(folder)) {
        snprintf(error, error_size, "cannot make a folder for decks: %s", strerror(errno));
        folder[0] = '\0';
        return false;
    }
    deck_store = store_open(database, error, error_size);
    if (!deck_store) {
        rmdir(folder);
        folder[0] = '\0';
    }
    return deck_store != NULL;
}

void decks_close(void)
{
    if (!deck_store) return; /* (a SQLite database's folder stays, of course) */
    store_close(deck_store);
    deck_store = NULL;
    /* The cache's files (and a private folder a stop interrupted). */
    DIR *cached = opendir(folder);
    for (struct dirent *entry; cached && (entry = readdir(cached));) {
        if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, "..")) continue;
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", folder, entry->d_name);
        if (unlink(path) != 0) rmdir(path);
    }
    if (cached) closedir(cached);
    rmdir(folder);
    folder[0] = '\0';
}

const char *decks_folder(void) { return folder[0] ? folder : NULL; }

/* Removes every "prefix/" from text, in place. */
static void remove_prefix(char *text, const char *prefix)
{
    size_t length = strlen(prefix);
    if (!length) return;
    for (char *at; (at = strstr(text, prefix)) && at[length] == '/';)
        memmove(at, at + length + 1, strlen(at + length + 1) + 1);
}

void decks_unpath(char *text)
{
    if (folder[0]) remove_prefix(text, folder);
}

static void hash_name(const char *content, size_t length, char name[DECKS_NAME_SIZE])
{
    uint8_t hash[STORE_HASH_SIZE];
    store_sha256(content, length, hash);
    for (int i = 0; i < STORE_HASH_SIZE; i++) snprintf(name + 2 * i, 3, "%02x", hash[i]);
    snprintf(name + HASH_HEX, DECKS_NAME_SIZE - HASH_HEX, ".deck");
}

bool decks_is_hash_name(const char *name)
{
    return strlen(name) == HASH_HEX + 5 && strspn(name, "0123456789abcdef") == HASH_HEX &&
           !strcmp(name + HASH_HEX, ".deck");
}

static bool write_file(const char *path, const char *content, size_t length)
{
    FILE *file = fopen(path, "wbx");
    bool ok = file && fwrite(content, 1, length, file) == length;
    if (file && fclose(file) != 0) ok = false;
    return ok;
}

static bool make_folder(char *error, size_t error_size)
{
    if (mkdir(folder, 0700) == 0 || errno == EEXIST) return true;
    snprintf(error, error_size, "cannot keep the deck: its folder: %s", strerror(errno));
    return false;
}

/* Writes content as name in a private folder of the decks' folder, then
 * moves it to the folder: a reader never sees half a deck.  check, when
 * given, reads it there first: false (nothing left behind) when it
 * refuses.  to_store: with PostgreSQL, into the database first. */
typedef bool (*deck_check)(const char *private_folder, const char *name, void *context,
                           char *error, size_t error_size);

/* With PostgreSQL, the deck into the database before it is in the
 * cache: a table names only a deck every process can fetch. */
static bool keep_in_store(const char *content, const char *name, int *status, char *error,
                          size_t error_size)
{
    char reason[512];
    if (!deck_store || store_put_deck(deck_store, name, content, reason, sizeof reason))
        return true;
    server_log("deck %s: %s", name, reason);
    *status = 503;
    snprintf(error, error_size, "storage unavailable");
    return false;
}

static bool place(const char *content, size_t length, const char *name, deck_check check,
                  void *context, bool to_store, int *status, char *error, size_t error_size)
{
    char private_folder[4200], path[4300], final[4200];
    snprintf(private_folder, sizeof private_folder, "%s/.incoming-XXXXXX", folder);
    snprintf(final, sizeof final, "%s/%s", folder, name);
    *status = 503;
    if (!mkdtemp(private_folder)) {
        snprintf(error, error_size, "cannot keep the deck: %s", strerror(errno));
        return false;
    }
    snprintf(path, sizeof path, "%s/%s", private_folder, name);
    bool ok = write_file(path, content, length);
    if (!ok) snprintf(error, error_size, "cannot keep the deck: %s", strerror(errno));
    if (ok && check && !check(private_folder, name, context, error, error_size)) {
        remove_prefix(error, private_folder);
        *status = 422;
        ok = false;
    }
    if (ok && to_store) ok = keep_in_store(content, name, status, error, error_size);
    if (ok && rename(path, final) != 0) {
        snprintf(error, error_size, "cannot keep the deck: %s", strerror(errno));
        ok = false;
    }
    if (!ok) unlink(path);
    rmdir(private_folder);
    return ok;
}

/* What a table's setup will make of the deck (the engine's reader). */
typedef struct table_parts {
    const gateau_game *game;
    int players;
    const char *options;
} table_parts;

static bool check_with_engine(const char *private_folder, const char *name, void *context,
                              char *error, size_t error_size)
{
    const table_parts *parts = context;
    char options[STORE_OPTIONS_SIZE + DECKS_NAME_SIZE + 8];
    snprintf(options, sizeof options, "%s%sdeck=%s", parts->options,
             parts->options[0] ? " " : "", name);
    gateau_setup *setup =
        gateau_setup_new(parts->game, parts->players, options, private_folder, error, error_size);
    gateau_setup_free(setup);
    return setup != NULL;
}

bool decks_keep(const gateau_game *game, int players, const char *options, const char *content,
                char name[DECKS_NAME_SIZE], int *status, char *error, size_t error_size)
{
    *status = 503;
    if (!folder[0]) {
        snprintf(error, error_size, "decks sent by clients are not kept here");
        return false;
    }
    size_t length = strlen(content);
    hash_name(content, length, name);
    if (!make_folder(error, error_size)) return false;
    char final[4200];
    snprintf(final, sizeof final, "%s/%s", folder, name);
    table_parts parts = {game, players, options ? options : ""};
    if (access(final, F_OK) == 0) {
        /* Kept before, so read by the engine before: but this table's
         * other options (its players) may not suit it. */
        bool good = check_with_engine(folder, name, &parts, error, error_size);
        if (!good) decks_unpath(error), *status = 422;
        return good;
    }
    return place(content, length, name, check_with_engine, &parts, true, status, error,
                 error_size);
}

/* ---- PostgreSQL: decks fetched from the database ------------------------------------------ */

/* One deck from the database into the cache, its content checked against
 * its name (a row changed by hand is not taken for the deck). */
static void fetch_one(const char *name)
{
    char path[4200], reason[512];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    if (access(path, F_OK) == 0) return;
    char *content = NULL;
    if (!store_get_deck(deck_store, name, &content, reason, sizeof reason)) {
        server_log("deck %s: %s", name, reason);
        return;
    }
    char hashed[DECKS_NAME_SIZE];
    size_t length = strlen(content);
    hash_name(content, length, hashed);
    int status;
    if (strcmp(hashed, name) != 0)
        server_log("deck %s: the database's copy is not that deck (its hash is %.64s)", name,
                   hashed);
    else if (!place(content, length, name, NULL, NULL, false, &status, reason, sizeof reason))
        server_log("deck %s: %s", name, reason);
    free(content);
}

void decks_fetch(const char *text)
{
    if (!deck_store || !text) return;
    for (const char *at = strstr(text, "deck="); at; at = strstr(at + 5, "deck=")) {
        char name[DECKS_NAME_SIZE + 1];
        size_t length = strcspn(at + 5, " \t\r\n");
        if (length >= sizeof name) continue;
        snprintf(name, sizeof name, "%.*s", (int)length, at + 5);
        if (decks_is_hash_name(name)) fetch_one(name);
    }
}

/* ---- Databases from before decks were kept by content ---------------------------------- */

/* The value of the word "deck=..." in options: where it starts and its
 * length, or NULL. */
static const char *deck_word(const char *options, size_t *length)
{
    for (const char *p = options; *p;) {
        p += strspn(p, " ");
        size_t word = strcspn(p, " ");
        if (word > 5 && !strncmp(p, "deck=", 5)) {
            *length = word - 5;
            return p + 5;
        }
        p += word;
    }
    return NULL;
}

typedef struct old_deck {
    char id[STORE_ID_SIZE];
    char options[STORE_OPTIONS_SIZE];
} old_deck;

typedef struct old_decks {
    old_deck *tables;
    int count, capacity;
} old_decks;

static bool note_old_deck(void *context, const store_summary *table)
{
    old_decks *found = context;
    size_t length;
    const char *value = deck_word(table->options, &length);
    char name[DECKS_NAME_SIZE + 1];
    if (!value || (length < sizeof name && (snprintf(name, sizeof name, "%.*s", (int)length,
                                                     value), decks_is_hash_name(name))))
        return true;
    if (found->count == found->capacity) {
        found->capacity = found->capacity ? 2 * found->capacity : 16;
        found->tables = realloc(found->tables, sizeof *found->tables * (size_t)found->capacity);
        if (!found->tables) abort();
    }
    old_deck *table_found = &found->tables[found->count++];
    snprintf(table_found->id, sizeof table_found->id, "%s", table->id);
    snprintf(table_found->options, sizeof table_found->options, "%s", table->options);
    return true;
}

/* The whole file at path (at most a deck's size): malloc'd, NULL with
 * errno. */
static char *read_deck_file(const char *path, size_t *length)
{
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    char *content = malloc(DECKS_MAX_SIZE + 1);
    if (!content) abort();
    *length = fread(content, 1, DECKS_MAX_SIZE + 1, file);
    bool too_long = *length > DECKS_MAX_SIZE, failed = ferror(file);
    fclose(file);
    if (too_long || failed) {
        free(content);
        errno = too_long ? EFBIG : EIO;
        return NULL;
    }
    content[*length] = '\0';
    return content;
}

/* One table's deck copied under its hash and named so: false after
 * saying why in the log. */
static bool migrate_one(store *database, const old_deck *table)
{
    size_t length = 0, content_length;
    const char *value = deck_word(table->options, &length);
    char path[4096], name[DECKS_NAME_SIZE], error[512];
    snprintf(path, sizeof path, "%.*s", (int)length, value);
    char *content = read_deck_file(path, &content_length);
    if (!content) {
        server_log("table %s: its deck %s cannot be read (%s): the table is skipped", table->id,
                   path, strerror(errno));
        return false;
    }
    hash_name(content, content_length, name);
    char final[4200];
    snprintf(final, sizeof final, "%s/%s", folder, name);
    int status;
    bool ok = access(final, F_OK) == 0 ||
              place(content, content_length, name, NULL, NULL, true, &status, error,
                    sizeof error);
    free(content);
    char options[STORE_OPTIONS_SIZE];
    int needed = snprintf(options, sizeof options, "%.*sdeck=%s%s",
                          (int)(value - 5 - table->options), table->options, name,
                          value + length);
    if (ok && (needed < 0 || (size_t)needed >= sizeof options)) {
        snprintf(error, sizeof error, "its options would be too long");
        ok = false;
    }
    if (ok) ok = store_set_options(database, table->id, options, error, sizeof error);
    if (!ok) {
        server_log("table %s: cannot keep its deck %s by its hash: %s", table->id, path, error);
        return false;
    }
    printf("Table %s: its deck %s is kept as %s.\n", table->id, path, name);
    return true;
}

bool decks_migrate(store *database, int *skipped, char *error, size_t error_size)
{
    *skipped = 0;
    if (!folder[0]) return true;
    old_decks found = {0};
    if (!store_list_tables(database, false, note_old_deck, &found, error, error_size)) {
        free(found.tables);
        return false;
    }
    if (found.count && !make_folder(error, error_size)) {
        free(found.tables);
        return false;
    }
    for (int t = 0; t < found.count; t++)
        if (!migrate_one(database, &found.tables[t])) ++*skipped;
    free(found.tables);
    return true;
}

/* ---- Backups ------------------------------------------------------------------------- */

bool decks_copy(const char *to_database, int *copied, char *error, size_t error_size)
{
    *copied = 0;
    if (!folder[0]) return true;
    DIR *source = opendir(folder);
    if (!source) {
        if (errno == ENOENT) return true; /* no table had a deck of its own */
        snprintf(error, error_size, "cannot read %s: %s", folder, strerror(errno));
        return false;
    }
    char target[4200];
    snprintf(target, sizeof target, "%s.decks", to_database);
    bool ok = mkdir(target, 0700) == 0 || errno == EEXIST;
    if (!ok) snprintf(error, error_size, "cannot make %s: %s", target, strerror(errno));
    for (struct dirent *entry; ok && (entry = readdir(source));) {
        if (!decks_is_hash_name(entry->d_name)) continue; /* (.incoming-* and strangers) */
        char from[4600], to[4600];
        snprintf(from, sizeof from, "%s/%s", folder, entry->d_name);
        snprintf(to, sizeof to, "%s/%s", target, entry->d_name);
        size_t length;
        char *content = read_deck_file(from, &length);
        if (!content) {
            snprintf(error, error_size, "cannot read %s: %s", from, strerror(errno));
            ok = false;
        } else if (!write_file(to, content, length) && errno != EEXIST) {
            snprintf(error, error_size, "cannot write %s: %s", to, strerror(errno));
            ok = false;
        } else {
            (*copied)++;
        }
        free(content);
    }
    closedir(source);
    return ok;
}
