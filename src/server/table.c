/*
 * table.c: one table of `gateau serve`: the only true state of its game.
 *
 * A table is a match whose seats are all the host's: people's moves come
 * from requests, bots' moves from workers.c, chance from (seed, move
 * number) as in `gateau play`, so that replaying the stored moves after a
 * restart rebuilds the very same table.  Every change goes through
 * commit_move(): the move is stored (committed) before anybody is told,
 * and if the store refuses, the table goes back to where it was.
 *
 * The caller holds table->lock for everything here (tables.c).
 */
#include <ctype.h>
#include <stdatomic.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "server/server.h"

int64_t server_now(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* The tests' clock runs this many times faster than the real one: a 30 s
 * clock runs out in 1 s at 30 (GATEAU_TEST_TIME_SCALE, for tests only:
 * the browser tests' clock that runs out, without waiting). */
int64_t table_time_scale(void)
{
    static _Atomic int64_t scale = 0;
    int64_t known = atomic_load(&scale);
    if (known) return known;
    const char *text = getenv("GATEAU_TEST_TIME_SCALE");
    long long value = text ? atoll(text) : 1;
    known = value >= 1 && value <= 1000 ? value : 1;
    atomic_store(&scale, known);
    return known;
}

int64_t table_elapsed(int64_t since)
{
    return (server_now() - since) * table_time_scale();
}

static void set_reason(char *error, size_t size, const char *format, const char *text)
{
    snprintf(error, size, format, text);
}

/* ---- The clock: "10m+20s", "30s/move" -------------------------------------------- */

/* One "10m" / "90s" / "1h" / "2d": milliseconds, or -1. */
static int64_t parse_duration(const char *text, size_t length)
{
    int64_t value = 0;
    size_t i = 0;
    while (i < length && isdigit((unsigned char)text[i]) && value < 1000000)
        value = value * 10 + (text[i++] - '0');
    if (i == 0 || i + 1 != length) return -1;
    switch (text[i]) {
    case 'd': return value * 86400000;
    case 'h': return value * 3600000;
    case 'm': return value * 60000;
    case 's': return value * 1000;
    default: return -1;
    }
}

/* total[+increment], each a number and d, h, m or s, or "total/move" (each
 * turn has total, nothing kept from one to the next); at most 30 days. */
static bool parse_clock(const char *text, int64_t *total, int64_t *increment, bool *per_move)
{
    const char *slash = strchr(text, '/');
    *per_move = slash && !strcmp(slash, "/move");
    if (*per_move) {
        *total = parse_duration(text, (size_t)(slash - text));
        *increment = 0;
        return *total > 0 && *total <= 30LL * 24 * 3600000;
    }
    size_t plus = strcspn(text, "+");
    *total = parse_duration(text, plus);
    *increment = text[plus] ? parse_duration(text + plus + 1, strlen(text + plus + 1)) : 0;
    const int64_t month = 30LL * 24 * 3600000;
    return *total > 0 && *total <= month && *increment >= 0 && *increment <= month;
}

/* ---- Making and freeing ------------------------------------------------------------- */

/* A table on setup (which it owns from now on, even on failure). */
static server_table *table_new(gateau_setup *setup, uint64_t seed, const gateau_record *resume,
                        char *error, size_t error_size)
{
    server_table *table = calloc(1, sizeof *table);
    if (!table) abort();
    pthread_mutex_init(&table->lock, NULL);
    table->setup = setup;
    table->players = gateau_setup_players(setup);
    table->seed = seed;
    table->clock_total = -1;
    table->phase_start = -1; /* (the first state is chance in every game; restores set it) */
    gateau_match_config config = {.setup = setup, .chance_by_move = true, .chance_seed = seed,
                                  .keep_record = true, .resume = resume};
    table->match = gateau_match_new(&config, error, error_size);
    if (!table->match) {
        table_free(table);
        return NULL;
    }
    table->record = gateau_match_record(table->match);
    return table;
}

/* Whether viewer v's text of a log entry is an earlier viewer's too (then
 * that viewer's pointer owns it). */
static bool log_entry_shared(const table_log_entry *entry, int v)
{
    for (int earlier = 0; earlier < v; earlier++)
        if (entry->json[earlier] == entry->json[v]) return true;
    return false;
}

void table_free(server_table *table)
{
    if (!table) return;
    chat_free(table->chat);
    for (int m = 0; m < table->version; m++)
        for (int v = 0; v <= table->players; v++)
            if (!log_entry_shared(&table->log[m], v)) free(table->log[m].json[v]);
    free(table->log);
    table_flow_forget(table);
    table_forget_snapshots(table);
    for (int s = 0; s < table->players; s++) gateau_bot_free(table->seats[s].bot);
    gateau_match_free(table->match);
    gateau_setup_free(table->setup);
    free(table->subscribers); /* (empty: each subscriber holds its table) */
    pthread_mutex_destroy(&table->lock);
    free(table);
}

/* ---- ext: bots: only those the server was started with ------------------------------ */

static char *allowed_ext_bots; /* ",spec,spec," or NULL; set before any table */

void table_allow_ext_bots(const char *list)
{
    free(allowed_ext_bots);
    allowed_ext_bots = NULL;
    if (!list || !list[0]) return;
    size_t size = strlen(list) + 3;
    allowed_ext_bots = malloc(size);
    if (!allowed_ext_bots) abort();
    snprintf(allowed_ext_bots, size, ",%s,", list);
}

/* A client may name an ext: bot only if the server's owner listed it. */
static bool bot_allowed(const char *spec, char *error, size_t error_size)
{
    if (strncmp(spec, "ext:", 4) != 0) return true;
    if (allowed_ext_bots && !strchr(spec, ',')) {
        char wanted[600];
        snprintf(wanted, sizeof wanted, ",%s,", spec);
        if (strlen(spec) < 500 && strstr(allowed_ext_bots, wanted)) return true;
    }
    snprintf(error, error_size, "ext: bots run programs on the server: only those it was "
             "started with (gateau serve --ext-bots) may play");
    return false;
}

/* A seat's spec: "human", "open", "invited" (a rematch's seat waiting for
 * its person: rematch.c) or a bot that exists. */
static bool set_seat(table_seat *seat, const char *spec, int number, char *error,
                     size_t error_size)
{
    snprintf(seat->spec, sizeof seat->spec, "%s", spec);
    seat->clock_left = -1;
    seat->handed_by = -1;
    seat->absent_since = server_now();
    if (!strcmp(spec, "human") || !strcmp(spec, "open") || !strcmp(spec, "invited")) {
        seat->human = true;
        return true;
    }
    char reason[256];
    seat->bot = bot_allowed(spec, reason, sizeof reason)
                    ? gateau_bot_new(spec, reason, sizeof reason) : NULL;
    if (!seat->bot) {
        snprintf(error, error_size, "seat %d: %s (or human, open)", number, reason);
        return false;
    }
    return true;
}

/* ---- The log: what each viewer may see of each move --------------------------------- */

static void grow_log(server_table *table)
{
    if (table->version < table->log_capacity) return;
    table->log_capacity = table->log_capacity ? 2 * table->log_capacity : 64;
    table->log = realloc(table->log, sizeof *table->log * (size_t)table->log_capacity);
    if (!table->log) abort();
}

/* Written straight, as jansson's compact output of {"n", "seat", "text",
 * "move", "note"} would be: five per move, where building the tree cost
 * more than describing the move. */
char *table_describe_move(const gateau_state *before, int seat, const gateau_action *actions,
                      int count, const char *notation, int index, const char *note, int viewer)
{
    char *text = gateau_move_describe(before, seat, actions, count, viewer);
    char *quoted_text = json_quote(text);
    free(text);
    bool visible = seat == viewer || gateau_move_visible(before, seat, actions, count, viewer);
    char *quoted_move = visible ? json_quote(notation) : NULL;
    char *quoted_note = note ? json_quote(note) : NULL;
    size_t size = strlen(quoted_text) + (quoted_move ? strlen(quoted_move) : 4) +
                  (quoted_note ? strlen(quoted_note) : 0) + 96;
    char *json = malloc(size), seat_text[16] = "null";
    if (!json) abort();
    if (seat >= 0) snprintf(seat_text, sizeof seat_text, "%d", seat + 1);
    snprintf(json, size, "{\"n\":%d,\"seat\":%s,\"text\":%s,\"move\":%s%s%s}", index, seat_text,
             quoted_text, quoted_move ? quoted_move : "null", quoted_note ? ",\"note\":" : "",
             quoted_note ? quoted_note : "");
    free(quoted_text);
    free(quoted_move);
    free(quoted_note);
    return json;
}

/* The log entry of move index (just made from before) for every viewer. */
static void log_move(server_table *table, const gateau_state *before, int index, const char *note)
{
    grow_log(table);
    int count, seat = gateau_record_move_seat(table->record, index);
    const gateau_action *actions = gateau_record_move_actions(table->record, index, &count);
    const char *notation = gateau_record_move_text(table->record, index);
    table_log_entry *entry = &table->log[index];
    for (int v = 0; v <= table->players; v++) {
        entry->json[v] = table_describe_move(before, seat, actions, count, notation, index, note,
                                             v == table->players ? GATEAU_OBSERVER : v);
        /* Most moves read the same to every viewer: one copy serves them
         * all, which halves a long game's log in memory. */
        for (int earlier = 0; earlier < v; earlier++) {
            if (!strcmp(entry->json[earlier], entry->json[v])) {
                free(entry->json[v]);
                entry->json[v] = entry->json[earlier];
                break;
            }
        }
    }
}

void table_drop_last_log(server_table *table)
{
    int last = table->version - 1;
    for (int v = 0; v <= table->players; v++)
        if (!log_entry_shared(&table->log[last], v)) free(table->log[last].json[v]);
    memset(&table->log[last], 0, sizeof table->log[last]);
}

/* ---- Changes ------------------------------------------------------------------------- */

/*
 * Follows simultaneous phases after the move of seat (or chance) from
 * before to after, table->version already counting it.  In such a phase
 * the seats' moves are hidden from each other and no seat's choices
 * depend on another's, so a seat's move posted with any version of the
 * phase is as good as one posted with the newest: table_play accepts it,
 * and seats voting at once do not refuse each other with 409s.  The phase
 * goes on while each move only takes its seat out of the actors; any
 * other change (the last vote resolving, chance, a new phase) starts
 * over.
 */
static void follow_phase(server_table *table, const gateau_state *before, int seat,
                         const gateau_state *after)
{
    bool goes_on = seat >= 0 && table->phase_start >= 0 && gateau_state_is_simultaneous(before) &&
                   gateau_state_is_simultaneous(after) &&
                   gateau_state_actors(after) == (gateau_state_actors(before) & ~(1u << seat));
    if (!goes_on) table->phase_start = gateau_state_is_simultaneous(after) ? table->version : -1;
    table->phase_continued = goes_on;
}

/* ---- Store failures: logged whole, told to clients as "storage unavailable" -------- */

/* The message a client gets when the store fails: the reason (which may
 * name the database's host and port) goes to the log only. */
#define STORAGE_UNAVAILABLE "storage unavailable"

static int64_t retry_give_up_ms = 60000;
/* A bot's budget (ms=N) above this is refused; several servers on one
 * database take over a table's bot or chance move left this long. */
static int max_bot_ms = 5000;
/* A search's iteration budget (iters=N) above this is refused: it is
 * not time, so --max-bot-ms alone would let iters=1000000000 hold a
 * worker for hours. */
static int max_bot_iters = SERVER_DEFAULT_BOT_ITERS;
static int64_t take_over_ms = 12000;

void table_configure(int64_t give_up_ms, int bot_ms, int bot_iters)
{
    retry_give_up_ms = give_up_ms > 0 ? give_up_ms : 60000;
    max_bot_ms = bot_ms > 0 ? bot_ms : 5000;
    max_bot_iters = bot_iters > 0 ? bot_iters : SERVER_DEFAULT_BOT_ITERS;
    take_over_ms = 2 * (int64_t)max_bot_ms + 2000;
}

/* The log's line for a store failure at table: the whole reason. */
static void log_store_failure(const server_table *table, const char *reason)
{
    server_log("table %s: %s", table->id, reason);
}

/* A write for table succeeded: the store works again. */
static void store_recovered(server_table *table)
{
    if (!table->retry_since && !table->broken[0]) return;
    if (table->broken[0]) server_log("table %s: stored again", table->id);
    table->retry_since = 0;
    table->retry_delay = 0;
    atomic_store(&table->retry_due, 0);
    if (table->broken[0]) {
        table->broken[0] = '\0';
        table_forget_snapshots(table);
    }
}

void table_store_failed(server_table *table)
{
    int64_t now = server_now();
    if (table->broken[0]) return;
    if (!table->retry_since) {
        table->retry_since = now;
        table->retry_delay = STORE_RETRY_FIRST_MS;
    } else {
        table->retry_delay = table->retry_delay * 2 > STORE_RETRY_MOST_MS ? STORE_RETRY_MOST_MS
                                                                         : table->retry_delay * 2;
    }
    if (now - table->retry_since < retry_give_up_ms) {
        atomic_store(&table->retry_due, now + table->retry_delay);
        return;
    }
    /* Given up: nobody retries it until a request does or the server
     * starts again; its snapshot says why. */
    atomic_store(&table->retry_due, 0);
    snprintf(table->broken, sizeof table->broken,
             "the store failed for %lld s: moves cannot be stored (" STORAGE_UNAVAILABLE ")",
             (long long)((now - table->retry_since) / 1000));
    server_log("table %s: broken: %s", table->id, table->broken);
    table_forget_snapshots(table);
    websocket_push(table);
}

bool table_retry_due(const server_table *table)
{
    int64_t due = atomic_load(&table->retry_due);
    return due && server_now() >= due;
}

/* Who made a move of seat (GATEAU_CHANCE or below: chance) for the
 * metrics: a note is a clock's stand-in's (workers.c), a bot seat or a
 * person's seat handed to one is moved by its bot, the rest by people. */
static metric_mover mover_of(const server_table *table, int seat, const char *note)
{
    if (seat < 0) return MOVER_CHANCE;
    if (note) return MOVER_CLOCK;
    const table_seat *moved = &table->seats[seat];
    return !moved->human || moved->zombie ? MOVER_BOT : MOVER_PERSON;
}

/* Stores the move just made (index = table->version) and logs it; on a
 * store failure the record goes back, the reason goes to the log, error
 * says "storage unavailable" and false is returned. */
static bool commit_move(server_table *table, const gateau_state *before, const char *note, char *error,
                        size_t error_size)
{
    int index = table->version;
    int seat = gateau_record_move_seat(table->record, index);
    store_move move = {.number = index, .seat = seat,
                       .line = gateau_record_move_text(table->record, index),
                       .clock_left = seat >= 0 ? table->seats[seat].clock_left : -1};
    char reason[512];
    if (table->store && !store_append_move(table->store, table->id, &move, reason, sizeof reason)) {
        gateau_record_truncate(table->record, index);
        log_store_failure(table, reason);
        snprintf(error, error_size, "%s", STORAGE_UNAVAILABLE);
        return false;
    }
    store_recovered(table);
    metrics_stored_move(mover_of(table, seat, note));
    log_move(table, before, index, note);
    table->version = index + 1;
    follow_phase(table, before, seat, gateau_record_state(table->record));
    table_forget_snapshots(table);
    return true;
}

static bool refused_by_another(server_table *table, int version, char *error, size_t error_size);

/* Stores the end of a game over in memory: false (logged) when the store
 * refuses.  A result already there (another process's) is as good. */
static bool store_end(server_table *table)
{
    if (table->finish_stored) return true;
    char *result, reason[512];
    if (table->ended[0]) {
        /* Ended before the game did (a seat forfeited): why, as the result. */
        json_t *why = json_pack("{s:s}", "ended", table->ended);
        result = json_dumps(why, JSON_COMPACT);
        json_decref(why);
    } else {
        result = gateau_record_result_json(table->record);
    }
    bool ok = !table->store || store_finish_table(table->store, table->id, result, reason,
                                                  sizeof reason);
    free(result);
    if (!ok && strstr(reason, "it is already over")) ok = true;
    if (!ok) log_store_failure(table, reason);
    else store_recovered(table);
    table->finish_stored = ok;
    return ok;
}

/*
 * After a change: chance moves that follow are played and stored, the
 * end is stored, the clock restarts, workers and subscribers hear of it.
 * False when the store refused one of these writes: the change before
 * stands (it is stored), and the rest is tried again later
 * (table_store_failed), so a table never waits for a mover nobody sends.
 */
static bool settle(server_table *table)
{
    const gateau_state *state = gateau_record_state(table->record);
    gateau_state *before = gateau_state_clone(state);
    bool ok = true;
    char error[512];
    while (ok && !table->over && gateau_state_is_chance(state) && !gateau_state_is_over(state)) {
        gateau_state_copy(before, state);
        int version = table->version;
        gateau_match_step(table->match, NULL, 0);
        ok = commit_move(table, before, NULL, error, sizeof error);
        /* Another process stored this chance move first (several servers
         * on one database): caught up with it, go on from there. */
        if (!ok) ok = refused_by_another(table, version, error, sizeof error);
        state = gateau_record_state(table->record);
    }
    gateau_state_free(before);
    if (ok && (gateau_state_is_over(state) || table->over)) {
        table->over = true;
        ok = store_end(table);
    }
    if (!ok) table_store_failed(table);
    /* A seat's move in a phase of hidden choices that goes on leaves the
     * others' turn (and their clocks) running from the phase's start. */
    if (!table->phase_continued) table->turn_started = server_now();
    workers_notice(table);
    websocket_push(table);
    return ok;
}

void table_forfeit(server_table *table, int seat, const char *reason)
{
    /* (the bot's reason names the seat: "seat 2 (ext:...) forfeits: ...") */
    if (reason && reason[0]) snprintf(table->ended, sizeof table->ended, "%s", reason);
    else snprintf(table->ended, sizeof table->ended, "seat %d forfeits", seat + 1);
    server_log("table %s: %s", table->id, table->ended);
    table->over = true;
    table_forget_snapshots(table);
    settle(table); /* stores the end (or retries it), tells the subscribers */
}

bool table_is_shared(const server_table *table)
{
    return table->store && store_is_shared(table->store);
}

bool table_take_over(server_table *table)
{
    if (!table_is_shared(table) || (table->over && table->finish_stored) || table->bot_queued ||
        server_now() - table->turn_started < take_over_ms)
        return false;
    const gateau_state *state = gateau_record_state(table->record);
    if (table->over || gateau_state_is_chance(state)) {
        settle(table); /* (a chance move another process stored first is caught up with) */
        return false;
    }
    return true;
}

/* Whether text starts with a bot setting, "word=" (word: letters): an
 * ext: spec's settings come before its command, which has none. */
static bool is_setting(const char *text, size_t length)
{
    size_t letters = 0;
    while (letters < length && text[letters] >= 'a' && text[letters] <= 'z') letters++;
    return letters > 0 && letters < length && text[letters] == '=';
}

bool table_check_budget(const char *spec, int most_ms, int most_iters, char *error,
                        size_t error_size)
{
    bool program = !strncmp(spec, "ext:", 4), timed = false;
    const char *setting = strchr(spec, ':');
    while (setting) {
        setting++;
        size_t length = strcspn(setting, ":");
        if (!is_setting(setting, length)) break; /* (an ext: bot's command) */
        long long value = atoll(strchr(setting, '=') + 1);
        if (!strncmp(setting, "ms=", 3)) {
            timed = true;
            if (value > most_ms) {
                snprintf(error, error_size, "the bot's budget ms=%lld is over this server's cap "
                         "of %d ms (--max-bot-ms)", value, most_ms);
                return false;
            }
        } else if (!program && !strncmp(setting, "iters=", 6) && value > most_iters) {
            snprintf(error, error_size, "the bot's budget iters=%lld is over this server's cap "
                     "of %d iterations (--max-bot-iters)", value, most_iters);
            return false;
        }
        setting = setting[length] ? setting + length : NULL;
    }
    /* A program without ms= has the protocol's default time per move. */
    if (program && !timed && SERVER_EXT_DEFAULT_MS > most_ms) {
        snprintf(error, error_size, "the ext: bot names no ms=, so its program may think %d ms "
                 "a move (the protocol's default), over this server's cap of %d ms "
                 "(--max-bot-ms): give it ms=%d or less", SERVER_EXT_DEFAULT_MS, most_ms, most_ms);
        return false;
    }
    return true;
}

/* A seat's bot spec within the server's caps: false with the reason. */
static bool budget_allowed(const char *spec, int number, char *error, size_t error_size)
{
    char reason[400];
    /* (an ext: spec the server does not run is refused as such, by set_seat) */
    if (!bot_allowed(spec, reason, sizeof reason)) return true;
    if (table_check_budget(spec, max_bot_ms, max_bot_iters, reason, sizeof reason)) return true;
    snprintf(error, error_size, "seat %d: %s", number, reason);
    return false;
}

void table_retry(server_table *table)
{
    /* Cleared first: a failure of this attempt sets the next one. */
    atomic_store(&table->retry_due, 0);
    settle(table);
}

/* The time seat used since its turn began comes off its clock; the
 * increment goes on.  A clock of so much a move starts each turn full.
 * After a move its stand-in made (timed_out), the seat's next move is
 * its own again: its clock has at least a tenth of the whole time (or
 * the increment, when larger), rather than nothing, which would have the
 * stand-in play every move after the first it missed. */
static void charge_clock(server_table *table, int seat, bool timed_out)
{
    table_seat *clocked = &table->seats[seat];
    if (clocked->clock_left < 0) return;
    if (table->clock_per_move) {
        clocked->clock_left = table->clock_total;
        return;
    }
    clocked->clock_left -= table_elapsed(table->turn_started);
    if (clocked->clock_left < 0) clocked->clock_left = 0;
    clocked->clock_left += table->clock_increment;
    int64_t grace = table->clock_total / 10 > table->clock_increment ? table->clock_total / 10
                                                                      : table->clock_increment;
    if (timed_out && clocked->clock_left < grace) clocked->clock_left = grace;
}

/* After the store refused a move: whether another process had stored
 * that move's number first (several servers on one database).  Then the
 * table has caught up with it, and the move is stale. */
static bool refused_by_another(server_table *table, int version, char *error, size_t error_size)
{
    if (!table->store || !store_is_shared(table->store)) return false;
    int before = table->version;
    char reason[256];
    if (!table_catch_up(table, reason, sizeof reason) || table->version == before) return false;
    snprintf(error, error_size, "version %d is stale: the table is at version %d", version,
             table->version);
    return true;
}

int table_play(server_table *table, int seat, int version, const char *text,
               const gateau_action *actions, int count, const char *note, char *error,
               size_t error_size)
{
    const gateau_state *state = gateau_record_state(table->record);
    if (table->over && table->finish_stored) {
        snprintf(error, error_size, "the game is over");
        return 409;
    }
    /* What a store failure left to do is tried now (a request is as good
     * a moment as any): while it cannot be, the store is unavailable. */
    if (table->retry_since || table->broken[0]) {
        if (table->broken[0]) {
            /* A broken table's players are back: another round of retries. */
            table->broken[0] = '\0';
            table->retry_since = server_now();
            table->retry_delay = STORE_RETRY_FIRST_MS;
            table_forget_snapshots(table);
        }
        settle(table);
        state = gateau_record_state(table->record);
        bool stuck = table->over ? !table->finish_stored : gateau_state_is_chance(state);
        if (stuck) {
            snprintf(error, error_size, "%s", STORAGE_UNAVAILABLE);
            return 503;
        }
    }
    if (table->over) {
        snprintf(error, error_size, "the game is over");
        return 409;
    }
    /* Another process may have stored moves this one has not heard of
     * yet: a client that saw them is ahead of us (several servers on one
     * database, docs/server.md). */
    if (version > table->version && table->store && store_is_shared(table->store)) {
        char reason[256];
        if (!table_catch_up(table, reason, sizeof reason))
            server_log("table %s: %s", table->id, reason);
        state = gateau_record_state(table->record);
        if (table->over) {
            snprintf(error, error_size, "the game is over");
            return 409;
        }
    }
    bool same_phase = table->phase_start >= 0 && version >= table->phase_start &&
                      version < table->version; /* (follow_phase) */
    if (version != table->version && !same_phase) {
        snprintf(error, error_size, "version %d is stale: the table is at version %d", version,
                 table->version);
        return 409;
    }
    if (!(gateau_state_actors(state) & (1u << seat))) {
        snprintf(error, error_size, "it is not seat %d's turn", seat + 1);
        return 409;
    }
    char reason[512];
    /* A move given as actions may come in any order (a page's clicks):
     * the engine puts them in its own. */
    gateau_action ordered[GATEAU_MAX_MOVE_ACTIONS];
    if (!text) {
        count = gateau_move_order(state, seat, actions, count, ordered, reason, sizeof reason);
        if (count < 0) {
            set_reason(error, error_size, "%s", reason);
            return 422;
        }
        actions = ordered;
    }
    gateau_state *before = gateau_state_clone(state);
    bool legal = text ? gateau_match_play(table->match, seat, text, reason, sizeof reason)
                      : gateau_match_play_actions(table->match, seat, actions, count, reason,
                                                  sizeof reason);
    if (!legal) {
        gateau_state_free(before);
        set_reason(error, error_size, "%s", reason);
        return 422;
    }
    int64_t clock_before = table->seats[seat].clock_left;
    int phase_before = table->phase_start, index = table->version;
    charge_clock(table, seat, note != NULL);
    if (!commit_move(table, before, note, error, error_size)) {
        table->seats[seat].clock_left = clock_before;
        gateau_state_free(before);
        return refused_by_another(table, version, error, error_size) ? 409 : 503;
    }
    /* (a note: the clock's stand-in moved; its own move counts again from 0) */
    table_seat *moved = &table->seats[seat];
    table->undo.valid = false;
    if (note) {
        moved->timeouts++;
    } else if (moved->human && !moved->zombie) {
        table_flow_remember(table, seat, index, before, clock_before, phase_before);
        moved->timeouts = 0;
    }
    gateau_state_free(before);
    /* The move is committed: its poster is told so (200) whatever befalls
     * what follows it (a chance move the store refuses is retried). */
    settle(table);
    return 0;
}

uint32_t table_bot_seats(const server_table *table)
{
    /* A table waiting for a retry (or broken) moves nothing meanwhile. */
    if (table->over || atomic_load(&table->retry_due) || table->broken[0]) return 0;
    const gateau_state *state = gateau_record_state(table->record);
    if (gateau_state_is_chance(state)) return 0;
    uint32_t actors = gateau_state_actors(state), bots = 0;
    for (int s = 0; s < table->players; s++) {
        const table_seat *seat = &table->seats[s];
        bool timed_out = seat->clock_left >= 0 &&
                         table_elapsed(table->turn_started) >= seat->clock_left;
        if ((actors & (1u << s)) && (!seat->human || seat->zombie || timed_out)) bots |= 1u << s;
    }
    return bots;
}

/* ---- Creating and restoring ------------------------------------------------------------ */

static void fill_store_table(const server_table *table, store_table *kept)
{
    memset(kept, 0, sizeof *kept);
    snprintf(kept->id, sizeof kept->id, "%s", table->id);
    snprintf(kept->game, sizeof kept->game, "%s",
             gateau_game_name(gateau_setup_game(table->setup)));
    kept->players = table->players;
    snprintf(kept->options, sizeof kept->options, "%s", gateau_setup_options_text(table->setup));
    kept->seed = table->seed;
    snprintf(kept->clock, sizeof kept->clock, "%s", table->clock_text);
    kept->created = table->created;
    memcpy(kept->creator_hash, table->creator_hash, sizeof kept->creator_hash);
    snprintf(kept->host, sizeof kept->host, "%s", table->host);
    for (int s = 0; s < table->players; s++) {
        const table_seat *seat = &table->seats[s];
        store_seat *out = &kept->seats[s];
        snprintf(out->spec, sizeof out->spec, "%s", seat->spec);
        snprintf(out->name, sizeof out->name, "%s", seat->name);
        out->has_token = seat->claimed;
        memcpy(out->token_hash, seat->token_hash, sizeof out->token_hash);
        out->zombie = seat->zombie;
    }
}

server_table *table_create(struct store *database, const gateau_game *game, int players,
                    const char *options, const char *seats[GATEAU_MAX_PLAYERS],
                    const char *names[GATEAU_MAX_PLAYERS], const char *host,
                    const char *clock, const uint64_t *seed,
                    char tokens[GATEAU_MAX_PLAYERS][SERVER_TOKEN_SIZE],
                    char creator[SERVER_TOKEN_SIZE], int *status, char *error, size_t error_size)
{
    *status = 422;
    int64_t clock_total = -1, clock_increment = 0;
    bool per_move = false;
    if (clock && clock[0] && !parse_clock(clock, &clock_total, &clock_increment, &per_move)) {
        set_reason(error, error_size, "clock: '%s' is not a clock such as 10m+20s or 30s/move "
                   "(up to 30 days)", clock);
        return NULL;
    }
    gateau_setup *setup = gateau_setup_new(game, players, options, decks_folder(), error,
                                           error_size);
    if (!setup) {
        decks_unpath(error);
        return NULL;
    }
    uint64_t fresh_seed;
    if (!seed && getrandom(&fresh_seed, sizeof fresh_seed, 0) != sizeof fresh_seed) {
        gateau_setup_free(setup);
        snprintf(error, error_size, "the system's random generator failed");
        return NULL;
    }
    server_table *table = table_new(setup, seed ? *seed : fresh_seed, NULL, error, error_size);
    if (!table) return NULL; /* (table_new freed the setup) */
    table->store = database;
    table->created = (int64_t)time(NULL);
    table->clock_total = clock_total;
    table->clock_increment = clock_increment;
    table->clock_per_move = per_move;
    if (clock) snprintf(table->clock_text, sizeof table->clock_text, "%s", clock);
    if (host) snprintf(table->host, sizeof table->host, "%s", host);
    bool ok = token_new_id(table->id) && token_new(creator);
    if (ok) token_hash(creator, table->creator_hash);
    for (int s = 0; ok && s < players; s++) {
        tokens[s][0] = '\0';
        ok = budget_allowed(seats[s], s + 1, error, error_size) &&
             set_seat(&table->seats[s], seats[s], s + 1, error, error_size);
        if (!ok) break;
        table->seats[s].clock_left = clock_total;
        if (names && names[s] && names[s][0]) {
            /* (the record's rules for names: commas and '#' become spaces) */
            gateau_record_set_name(table->record, s, names[s]);
            snprintf(table->seats[s].name, sizeof table->seats[s].name, "%s",
                     gateau_record_name(table->record, s));
        }
        if (!strcmp(seats[s], "human")) {
            ok = token_new(tokens[s]);
            token_hash(tokens[s], table->seats[s].token_hash);
            table->seats[s].claimed = true;
        }
    }
    store_table kept;
    if (ok) fill_store_table(table, &kept);
    char reason[512];
    if (ok && database && !store_create_table(database, &kept, reason, sizeof reason)) {
        log_store_failure(table, reason);
        snprintf(error, error_size, "%s", STORAGE_UNAVAILABLE);
        *status = 503;
        ok = false;
    }
    /* (its first chance move, if the store refuses it, is retried) */
    if (ok) settle(table);
    if (!ok) {
        table_free(table);
        return NULL;
    }
    return table;
}

server_table *table_restore(struct store *database, const store_table *kept, const store_move *moves,
                     int move_count, char *error, size_t error_size)
{
    char *text = store_record_text(kept, moves, move_count);
    char reason[512];
    int line;
    decks_fetch(kept->options); /* (PostgreSQL: another process may have kept it) */
    gateau_record *resumed = gateau_record_read(text, decks_folder(), reason, sizeof reason, &line);
    decks_unpath(reason);
    free(text);
    if (!resumed) {
        snprintf(error, error_size, "table %s: move %d: %s", kept->id, line > 0 ? line - 4 : 0,
                 reason);
        return NULL;
    }
    char options[STORE_OPTIONS_SIZE];
    snprintf(options, sizeof options, "%s", kept->options);
    gateau_setup *setup = gateau_setup_new(gateau_game_find(kept->game), kept->players,
                                           options, decks_folder(), error, error_size);
    server_table *table = setup ? table_new(setup, kept->seed, resumed, error, error_size) : NULL;
    if (!table) {
        gateau_record_free(resumed);
        return NULL;
    }
    table->store = database;
    snprintf(table->id, sizeof table->id, "%s", kept->id);
    table->created = kept->created;
    memcpy(table->creator_hash, kept->creator_hash, sizeof table->creator_hash);
    snprintf(table->host, sizeof table->host, "%s", kept->host);
    snprintf(table->rematch, sizeof table->rematch, "%s", kept->rematch);
    snprintf(table->clock_text, sizeof table->clock_text, "%s", kept->clock);
    if (kept->clock[0])
        parse_clock(kept->clock, &table->clock_total, &table->clock_increment,
                    &table->clock_per_move);
    bool ok = true;
    for (int s = 0; ok && s < kept->players; s++) {
        const store_seat *seat = &kept->seats[s];
        ok = set_seat(&table->seats[s], seat->spec, s + 1, error, error_size);
        snprintf(table->seats[s].name, sizeof table->seats[s].name, "%s", seat->name);
        if (seat->name[0]) gateau_record_set_name(table->record, s, seat->name);
        table->seats[s].claimed = seat->has_token;
        memcpy(table->seats[s].token_hash, seat->token_hash, STORE_HASH_SIZE);
        table->seats[s].zombie = seat->zombie;
        table->seats[s].clock_left = table->clock_total;
    }
    /* The log again, move by move, from a replay of the record. */
    gateau_state *before = gateau_state_new(table->setup);
    for (int m = 0; ok && m < move_count; m++) {
        int count, seat = gateau_record_move_seat(table->record, m);
        const gateau_action *actions = gateau_record_move_actions(table->record, m, &count);
        log_move(table, before, m, NULL);
        table->version = m + 1;
        if (seat >= 0 && moves[m].clock_left >= 0) table->seats[seat].clock_left = moves[m].clock_left;
        for (int a = 0; a < count; a++) gateau_state_apply_legal(before, seat, actions[a]);
    }
    /* (a phase under way counts from here: older versions are refused) */
    table->phase_start = gateau_state_is_simultaneous(before) ? table->version : -1;
    gateau_state_free(before);
    gateau_record_free(resumed);
    table->over = table->finish_stored = kept->over;
    if (kept->over) table_take_ending(table, kept);
    if (!ok) {
        table_free(table);
        return NULL;
    }
    return table;
}

void table_resume(server_table *table)
{
    settle(table);
}

/* ---- Catching up with other processes ------------------------------------------------------ */

typedef struct catch_up_context {
    server_table *table;
    bool changed;
    char *error;
    size_t error_size;
    bool failed;
} catch_up_context;

/* Takes the seats as stored: claimed, named, handed to a bot or back by
 * another process. */
static bool take_seats(server_table *table, const store_table *kept)
{
    bool changed = false;
    for (int s = 0; s < table->players; s++) {
        const store_seat *stored = &kept->seats[s];
        table_seat *seat = &table->seats[s];
        if (seat->claimed != stored->has_token ||
            memcmp(seat->token_hash, stored->token_hash, STORE_HASH_SIZE) != 0) {
            seat->claimed = stored->has_token;
            memcpy(seat->token_hash, stored->token_hash, STORE_HASH_SIZE);
            changed = true;
        }
        if (strcmp(seat->name, stored->name) != 0) {
            snprintf(seat->name, sizeof seat->name, "%s", stored->name);
            gateau_record_set_name(table->record, s, seat->name);
            changed = true;
        }
        if (seat->zombie != stored->zombie) {
            /* (the stand-in's spec is not stored: the default bot) */
            if (stored->zombie && !seat->bot) seat->bot = gateau_bot_new("heuristic", NULL, 0);
            seat->zombie = stored->zombie && seat->bot;
            changed = true;
        }
    }
    return changed;
}

/* Plays stored move m (beyond the table's version) as restore does: a
 * player's by its record line, chance by the match's own generator
 * (seeded by move, so it deals what the process that stored it dealt). */
static bool replay_stored(server_table *table, const store_move *move, char *error,
                          size_t error_size)
{
    const gateau_state *state = gateau_record_state(table->record);
    gateau_state *before = gateau_state_clone(state);
    int m = table->version;
    char reason[512] = "";
    bool played;
    if (move->seat == GATEAU_CHANCE) {
        played = gateau_state_is_chance(state) &&
                 gateau_match_step(table->match, reason, sizeof reason) != GATEAU_MATCH_FAILED &&
                 gateau_record_move_count(table->record) == m + 1 &&
                 !strcmp(gateau_record_move_text(table->record, m), move->line);
        if (!played && !reason[0]) snprintf(reason, sizeof reason, "chance differs");
    } else {
        played = move->seat >= 0 && move->seat < table->players &&
                 gateau_match_play(table->match, move->seat, move->line, reason, sizeof reason);
    }
    if (!played) {
        if (gateau_record_move_count(table->record) > m) gateau_record_truncate(table->record, m);
        gateau_state_free(before);
        snprintf(error, error_size, "table %s: stored move %d (%s): %s", table->id, m, move->line,
                 reason);
        return false;
    }
    if (move->seat >= 0 && move->clock_left >= 0)
        table->seats[move->seat].clock_left = move->clock_left;
    log_move(table, before, m, NULL);
    table->version = m + 1;
    follow_phase(table, before, move->seat, gateau_record_state(table->record));
    gateau_state_free(before);
    return true;
}

static bool catch_up_visit(void *argument, const store_table *kept, const store_move *moves,
                           int move_count)
{
    catch_up_context *context = argument;
    server_table *table = context->table;
    if (kept->players != table->players) return false;
    context->changed = take_seats(table, kept);
    if (strcmp(table->rematch, kept->rematch) != 0) { /* (made by another process) */
        snprintf(table->rematch, sizeof table->rematch, "%s", kept->rematch);
        context->changed = true;
    }
    while (table->version < move_count && !context->failed) {
        context->failed = !replay_stored(table, &moves[table->version], context->error,
                                         context->error_size);
        if (!context->failed) context->changed = true;
    }
    if (!table->over && (kept->over || gateau_state_is_over(gateau_record_state(table->record)))) {
        table->over = true;
        if (kept->over) table_take_ending(table, kept); /* (another process's forfeit, expiry) */
        context->changed = true;
    }
    if (kept->over) table->finish_stored = true;
    return false;
}

void table_take_ending(server_table *table, const store_table *kept)
{
    if (gateau_state_is_over(gateau_record_state(table->record))) return;
    json_t *result = json_loads(kept->result, 0, NULL);
    const char *why = json_string_value(json_object_get(result, "ended"));
    snprintf(table->ended, sizeof table->ended, "%s",
             why ? why : "ended before the game did (a seat forfeited)");
    json_decref(result);
}

bool table_catch_up(server_table *table, char *error, size_t error_size)
{
    if (!table->store) return true;
    catch_up_context context = {.table = table, .error = error, .error_size = error_size};
    if (!store_load_table(table->store, table->id, catch_up_visit, &context, error, error_size))
        return false;
    chat_catch_up(table); /* (a message is a change the store tells of too) */
    if (context.changed) {
        table_forget_snapshots(table);
        /* The process that stored a move moves the bots after it, and
         * plays its chance: here only the clock restarts and the
         * subscribers hear of it. */
        table->turn_started = server_now();
        websocket_push(table);
    }
    return !context.failed;
}

/* ---- Seats --------------------------------------------------------------------------------- */

int table_seat_of(const server_table *table, const char *token)
{
    if (!token || !token[0]) return -1;
    int found = -1;
    for (int s = 0; s < table->players; s++) /* every seat checked: no early exit to time */
        if (table->seats[s].claimed && token_matches(token, table->seats[s].token_hash)) found = s;
    return found;
}

static bool store_seat_now(server_table *table, int seat, char *error, size_t error_size)
{
    if (!table->store) return true;
    store_table kept;
    fill_store_table(table, &kept);
    char reason[512];
    if (store_update_seat(table->store, table->id, seat, &kept.seats[seat], reason, sizeof reason))
        return true;
    log_store_failure(table, reason);
    snprintf(error, error_size, "%s", STORAGE_UNAVAILABLE);
    return false;
}

int table_join(server_table *table, int seat, const char *name, char token[SERVER_TOKEN_SIZE],
               char *error, size_t error_size)
{
    if (seat < 0 || seat >= table->players) {
        snprintf(error, error_size, "there is no seat %d at this %d-player table", seat + 1,
                 table->players);
        return 422;
    }
    table_seat *joined = &table->seats[seat];
    if (table->over) { /* (ended before anyone came: a forfeit, an expiry) */
        snprintf(error, error_size, "the game is over");
        return 409;
    }
    if (strcmp(joined->spec, "open") != 0) {
        snprintf(error, error_size, "seat %d is not open", seat + 1);
        return 409;
    }
    if (joined->claimed) { /* (the loser of a race: the page says so and refreshes) */
        snprintf(error, error_size, "seat %d is not open any more: someone took that seat a "
                 "moment ago", seat + 1);
        return 409;
    }
    if (!token_new(token)) {
        snprintf(error, error_size, "the system's random generator failed");
        return 503;
    }
    table_seat saved = *joined;
    token_hash(token, joined->token_hash);
    joined->claimed = true;
    joined->absent_since = server_now();
    snprintf(joined->name, sizeof joined->name, "%s", name ? name : "");
    if (!store_seat_now(table, seat, error, error_size)) {
        *joined = saved;
        return 503;
    }
    gateau_record_set_name(table->record, seat, joined->name); /* the record names players */
    table_forget_snapshots(table);
    websocket_push(table);
    return 0;
}

int table_claim_invited(server_table *table, int seat, char token[SERVER_TOKEN_SIZE],
                        char *error, size_t error_size)
{
    table_seat *invited = &table->seats[seat];
    if (strcmp(invited->spec, "invited") != 0) {
        snprintf(error, error_size, "seat %d of the rematch is taken already (by this seat's "
                 "earlier acceptance: use the link it gave)", seat + 1);
        return 409;
    }
    if (!token_new(token)) {
        snprintf(error, error_size, "the system's random generator failed");
        return 503;
    }
    table_seat saved = *invited;
    token_hash(token, invited->token_hash);
    invited->claimed = true;
    snprintf(invited->spec, sizeof invited->spec, "human");
    if (!store_seat_now(table, seat, error, error_size)) {
        *invited = saved;
        return 503;
    }
    table_forget_snapshots(table);
    websocket_push(table);
    return 0;
}

int table_rename(server_table *table, int seat, const char *name, char *error,
                 size_t error_size)
{
    if (seat < 0 || seat >= table->players || !table->seats[seat].human) {
        snprintf(error, error_size, "only a person's seat is named");
        return 422;
    }
    table_seat *named = &table->seats[seat];
    char saved[STORE_NAME_SIZE];
    snprintf(saved, sizeof saved, "%s", named->name);
    /* (the record's rules for names: commas and '#' become spaces) */
    gateau_record_set_name(table->record, seat, name);
    snprintf(named->name, sizeof named->name, "%s", gateau_record_name(table->record, seat));
    if (!store_seat_now(table, seat, error, error_size)) {
        snprintf(named->name, sizeof named->name, "%s", saved);
        gateau_record_set_name(table->record, seat, saved[0] ? saved : NULL);
        return 503;
    }
    table_forget_snapshots(table);
    websocket_push(table);
    return 0;
}

int table_set_zombie(server_table *table, int seat, bool zombie, const char *bot_spec, char *error,
                     size_t error_size)
{
    if (seat < 0 || seat >= table->players || !table->seats[seat].human) {
        snprintf(error, error_size, "seat %d is not a person's seat", seat + 1);
        return 422;
    }
    table_seat *handed = &table->seats[seat];
    if (zombie && !handed->bot) {
        char reason[256];
        const char *spec = bot_spec ? bot_spec : "heuristic";
        if (!budget_allowed(spec, seat + 1, error, error_size)) return 422;
        handed->bot = bot_allowed(spec, reason, sizeof reason)
                          ? gateau_bot_new(spec, reason, sizeof reason) : NULL;
        if (!handed->bot) {
            snprintf(error, error_size, "bot: %s", reason);
            return 422;
        }
    }
    handed->zombie = zombie;
    if (!store_seat_now(table, seat, error, error_size)) {
        handed->zombie = !zombie;
        return 503;
    }
    /* (who handed it over and why: table_hand_over's to say, nobody's else) */
    handed->handed_by = -1;
    handed->handed_why = NULL;
    table_forget_snapshots(table);
    workers_notice(table);
    websocket_push(table);
    return 0;
}
