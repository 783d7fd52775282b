/*
 * arena.c: many games between bots on several threads (gateau/arena.h).
 *
 * Workers take the next game number with one atomic increment and write
 * the game's result into its own slot of a preallocated array; nothing
 * else is shared while games run.  Each game is a match (gateau/match.h)
 * with its bots made anew, and every random number of game g comes
 * from streams of (seed, g), so the results do not depend on which thread
 * played which game.
 */
#include "gateau/arena.h"

#include <errno.h>
#include <stdalign.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gateau/match.h"
#include "gateau/record.h"

#include "arena/arena_text.h"

/* One worker's count of finished games, on its own cache line so that the
 * progress reader never slows the workers down. */
typedef struct arena_counter {
    alignas(64) atomic_long value;
} arena_counter;

typedef struct arena_worker {
    gateau_arena *arena;
    pthread_t thread;
    arena_counter *finished;
} arena_worker;

struct gateau_arena {
    const gateau_setup *setup;
    int players;
    char *bots[GATEAU_MAX_PLAYERS];
    long games;
    int threads;
    uint64_t seed;
    bool keep_records;
    char *record_dir;
    gateau_arena_progress_fn progress;
    void *progress_context;
    gateau_arena_game_fn on_game;
    void *on_game_context;
    bool sharded;     /* a shard of a run (config.shards > 0) */
    long first, count; /* the arena's own games: first .. first + count - 1 */
    long resumed;     /* games given by gateau_arena_resume_game */

    gateau_arena_game *results; /* the own games, results[g - first] */

    atomic_long next_game;
    atomic_bool stop_requested; /* gateau_arena_stop */
    atomic_bool halt;           /* stop requested or a game failed */
    bool ran;
    bool interrupted;
    long finished;
    double seconds;

    pthread_mutex_t lock; /* for the error and the done-workers count only */
    pthread_mutex_t on_game_lock; /* one on_game call at a time */
    pthread_cond_t workers_done;
    int workers_running;
    char error[1024];
    bool failed;
};

int gateau_arena_seat_of(int listed, long game, int players)
{
    return (int)(((long)listed + game % players) % players);
}

void gateau_arena_shard_range(long games, int shard, int shards, long *first, long *count)
{
    if (shards < 1 || shard < 1 || shard > shards || games < 0) {
        *first = 0;
        *count = shards < 1 && games > 0 ? games : 0;
        return;
    }
    /* games = quotient * shards + remainder: the first remainder shards
     * take one game more.  (No product of games and shards: no overflow.) */
    long quotient = games / shards, remainder = games % shards, index = shard - 1;
    *first = index * quotient + (index < remainder ? index : remainder);
    *count = quotient + (index < remainder ? 1 : 0);
}

static char *copy_text(const char *text)
{
    char *copy = strdup(text);
    if (!copy) abort();
    return copy;
}

gateau_arena *gateau_arena_new(const gateau_arena_config *config, char *error,
                               size_t error_size)
{
    if (!config->setup) {
        arena_error(error, error_size, "the arena needs a setup");
        return NULL;
    }
    int players = gateau_setup_players(config->setup);
    if (!config->bots) {
        arena_error(error, error_size, "the arena needs %d bots", players);
        return NULL;
    }
    for (int k = 0; k < players; k++) {
        if (!config->bots[k]) {
            arena_error(error, error_size, "the arena needs %d bots", players);
            return NULL;
        }
        char reason[256];
        gateau_bot *bot = gateau_bot_new(config->bots[k], reason, sizeof reason);
        if (!bot) {
            arena_error(error, error_size, "seat %d: %s", k + 1, reason);
            return NULL;
        }
        gateau_bot_free(bot);
    }
    if (config->games <= 0) {
        arena_error(error, error_size, "the number of games must be positive, not %ld",
                  config->games);
        return NULL;
    }
    if (config->threads < 1 || config->threads > GATEAU_ARENA_MAX_THREADS) {
        arena_error(error, error_size, "threads must be 1 to %d, not %d",
                  GATEAU_ARENA_MAX_THREADS, config->threads);
        return NULL;
    }
    long first = 0, count = config->games;
    if (config->shards != 0) {
        if (config->shards < 1 || config->shards > config->games) {
            arena_error(error, error_size, "shards must be 1 to the %ld games, not %d",
                        config->games, config->shards);
            return NULL;
        }
        if (config->shard < 1 || config->shard > config->shards) {
            arena_error(error, error_size, "the shard must be 1 to %d, not %d", config->shards,
                        config->shard);
            return NULL;
        }
        gateau_arena_shard_range(config->games, config->shard, config->shards, &first, &count);
    }
    if ((unsigned long)count > SIZE_MAX / sizeof(gateau_arena_game)) {
        arena_error(error, error_size, "%ld games are too many to hold in memory", count);
        return NULL;
    }
    gateau_arena_game *results = calloc((size_t)count, sizeof *results);
    if (!results) {
        arena_error(error, error_size, "%ld games are too many to hold in memory", count);
        return NULL;
    }
    gateau_arena *arena = calloc(1, sizeof *arena);
    if (!arena) abort();
    arena->setup = config->setup;
    arena->players = players;
    for (int k = 0; k < players; k++) arena->bots[k] = copy_text(config->bots[k]);
    arena->games = config->games;
    arena->threads = config->threads;
    arena->seed = config->seed;
    arena->keep_records = config->keep_records;
    arena->record_dir = config->record_dir ? copy_text(config->record_dir) : NULL;
    arena->progress = config->progress;
    arena->progress_context = config->progress_context;
    arena->on_game = config->on_game;
    arena->on_game_context = config->on_game_context;
    arena->sharded = config->shards != 0;
    arena->first = first;
    arena->count = count;
    arena->results = results;
    atomic_init(&arena->next_game, 0);
    atomic_init(&arena->stop_requested, false);
    atomic_init(&arena->halt, false);
    pthread_mutex_init(&arena->lock, NULL);
    pthread_mutex_init(&arena->on_game_lock, NULL);
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&arena->workers_done, &attributes);
    pthread_condattr_destroy(&attributes);
    return arena;
}

void gateau_arena_free(gateau_arena *arena)
{
    if (!arena) return;
    for (long i = 0; i < arena->count; i++) free(arena->results[i].record);
    free(arena->results);
    for (int k = 0; k < arena->players; k++) free(arena->bots[k]);
    free(arena->record_dir);
    pthread_mutex_destroy(&arena->lock);
    pthread_mutex_destroy(&arena->on_game_lock);
    pthread_cond_destroy(&arena->workers_done);
    free(arena);
}

void gateau_arena_stop(gateau_arena *arena)
{
    atomic_store(&arena->stop_requested, true);
    atomic_store(&arena->halt, true);
}

bool gateau_arena_interrupted(const gateau_arena *arena) { return arena->interrupted; }
long gateau_arena_finished(const gateau_arena *arena) { return arena->finished; }
const gateau_arena_game *gateau_arena_games(const gateau_arena *arena) { return arena->results; }
long gateau_arena_first_game(const gateau_arena *arena) { return arena->first; }
long gateau_arena_game_count(const gateau_arena *arena) { return arena->count; }

bool gateau_arena_resume_game(gateau_arena *arena, long game, const gateau_arena_game *result,
                              char *error, size_t error_size)
{
    if (arena->ran) {
        arena_error(error, error_size, "this arena has already run");
        return false;
    }
    if (game < arena->first || game >= arena->first + arena->count) {
        arena_error(error, error_size, "game %ld is not one of this arena's, %ld to %ld",
                    game + 1, arena->first + 1, arena->first + arena->count);
        return false;
    }
    gateau_arena_game *slot = &arena->results[game - arena->first];
    if (slot->done) {
        arena_error(error, error_size, "game %ld was given twice", game + 1);
        return false;
    }
    *slot = *result;
    slot->record = NULL;
    for (int k = 0; k < arena->players; k++)
        slot->bot_at_seat[gateau_arena_seat_of(k, game, arena->players)] = (int8_t)k;
    slot->done = true;
    arena->resumed++;
    return true;
}
double gateau_arena_seconds(const gateau_arena *arena) { return arena->seconds; }

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Records the first failure and stops everything. */
static void fail(gateau_arena *arena, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
static void fail(gateau_arena *arena, const char *format, ...)
{
    pthread_mutex_lock(&arena->lock);
    if (!arena->failed) {
        va_list args;
        va_start(args, format);
        vsnprintf(arena->error, sizeof arena->error, format, args);
        va_end(args);
        arena->failed = true;
    }
    pthread_mutex_unlock(&arena->lock);
    atomic_store(&arena->halt, true);
}

static void record_path(const gateau_arena *arena, long game, char *path, size_t size)
{
    snprintf(path, size, "%s/game-%06ld.txt", arena->record_dir, game + 1);
}

/* Writes game's record where it belongs; false (after failing the arena)
 * if it cannot. */
static bool keep_record(gateau_arena *arena, long game, gateau_record *record,
                        gateau_arena_game *out)
{
    char *body = gateau_record_text(record);
    size_t size = strlen(body) + 128;
    char *text = malloc(size);
    if (!text) abort();
    snprintf(text, size, "# gateau arena: game %ld of %ld, seed %llu\n%s", game + 1,
             arena->games, (unsigned long long)arena->seed, body);
    free(body);
    bool ok = true;
    if (arena->record_dir) {
        char path[4096];
        record_path(arena, game, path, sizeof path);
        FILE *file = fopen(path, "w");
        bool failed = !file || fputs(text, file) < 0;
        if (file && fclose(file) != 0) failed = true;
        if (failed) {
            fail(arena, "cannot write %s: %s", path, strerror(errno));
            ok = false;
        }
    }
    if (ok && arena->keep_records) out->record = text;
    else free(text);
    return ok;
}

/* A record's names are the bot specs (commas and '#' would not read back). */
static void seat_name(const gateau_arena *arena, int listed, char *name, size_t size)
{
    snprintf(name, size, "%s", arena->bots[listed]);
    for (char *c = name; *c; c++)
        if (*c == ',' || *c == '#' || *c == '\n') *c = '_';
}

/* The bots that are programs (ext:) say the game and the move in their
 * failure lines; the others are not asked (a label costs a format). */
static void label_programs(gateau_match *match, int players, long g)
{
    char label[64];
    bool made = false;
    for (int s = 0; s < players; s++) {
        gateau_bot *bot = gateau_match_bot(match, s);
        if (!bot || !gateau_bot_observes(bot)) continue;
        if (!made)
            snprintf(label, sizeof label, "game %ld, move %d", g + 1, gateau_match_moves(match) + 1);
        made = true;
        gateau_bot_set_label(bot, label);
    }
}

/* How each seat's program fared (ext: bots; 0 for the others). */
static void count_failures(gateau_match *match, int players, gateau_arena_game *out)
{
    for (int s = 0; s < players; s++) {
        int failures, fallbacks;
        gateau_bot_failures(gateau_match_bot(match, s), &failures, &fallbacks);
        out->failures[s] = (uint16_t)(failures < UINT16_MAX ? failures : UINT16_MAX);
        out->fallbacks[s] = (uint16_t)(fallbacks < UINT16_MAX ? fallbacks : UINT16_MAX);
    }
}

/* Plays game g into out.  false when it was abandoned (stop or failure). */
static bool play_game(gateau_arena *arena, long g, gateau_arena_game *out)
{
    int players = arena->players;
    gateau_rng bot_rngs[GATEAU_MAX_PLAYERS], chance;
    gateau_rng_seed_stream(&chance, arena->seed, (uint64_t)g * 8);
    gateau_match_config config = {
        .setup = arena->setup,
        .chance = &chance,
        .keep_record = arena->keep_records || arena->record_dir,
    };
    char names[GATEAU_MAX_PLAYERS][256];
    for (int k = 0; k < players; k++) {
        int seat = gateau_arena_seat_of(k, g, players);
        out->bot_at_seat[seat] = (int8_t)k;
    }
    for (int s = 0; s < players; s++) {
        gateau_rng_seed_stream(&bot_rngs[s], arena->seed, (uint64_t)g * 8 + 1 + (uint64_t)s);
        seat_name(arena, out->bot_at_seat[s], names[s], sizeof names[s]);
        config.seats[s] = (gateau_match_seat){.bot = arena->bots[out->bot_at_seat[s]],
                                              .rng = &bot_rngs[s], .name = names[s]};
    }
    char reason[768];
    gateau_match *match = gateau_match_new(&config, reason, sizeof reason);
    if (!match) {
        fail(arena, "%s", reason);
        return false;
    }
    bool ok = true, programs = false;
    for (int s = 0; s < players; s++)
        programs |= gateau_match_bot(match, s) && gateau_bot_observes(gateau_match_bot(match, s));
    gateau_match_status status = GATEAU_MATCH_PLAYING;
    while (status == GATEAU_MATCH_PLAYING) {
        if (atomic_load_explicit(&arena->halt, memory_order_relaxed)) {
            ok = false;
            break;
        }
        if (programs) label_programs(match, players, g);
        status = gateau_match_step(match, reason, sizeof reason);
    }
    if (ok && status == GATEAU_MATCH_FAILED) {
        /* An ext: seat forfeited, or its program could not start: the
         * run stops, with the games finished before. */
        fail(arena, "game %ld, move %d: %s", g + 1, gateau_match_moves(match) + 1, reason);
        ok = false;
    }
    count_failures(match, players, out);
    if (ok) {
        const gateau_state *state = gateau_match_state(match);
        gateau_state_scores(state, out->scores);
        out->winners = gateau_state_winners(state);
        out->moves = gateau_match_moves(match);
        out->actions = gateau_match_actions(match);
        if (gateau_match_record(match)) ok = keep_record(arena, g, gateau_match_record(match), out);
    }
    gateau_match_free(match);
    return ok;
}

/* Gives a finished game to on_game, one call at a time; false (after
 * failing the arena) when it refuses. */
static bool hand_over(gateau_arena *arena, long g, const gateau_arena_game *result)
{
    char reason[256] = "";
    pthread_mutex_lock(&arena->on_game_lock);
    bool ok = arena->on_game(g, result, arena->on_game_context, reason, sizeof reason);
    pthread_mutex_unlock(&arena->on_game_lock);
    if (!ok) fail(arena, "%s", reason[0] ? reason : "a finished game was refused");
    return ok;
}

static void *worker_main(void *argument)
{
    arena_worker *worker = argument;
    gateau_arena *arena = worker->arena;
    long finished = 0;
    for (;;) {
        if (atomic_load_explicit(&arena->halt, memory_order_relaxed)) break;
        long index = atomic_fetch_add_explicit(&arena->next_game, 1, memory_order_relaxed);
        if (index >= arena->count) break;
        gateau_arena_game *result = &arena->results[index];
        if (result->done) continue; /* played before (gateau_arena_resume_game) */
        long g = arena->first + index;
        if (!play_game(arena, g, result)) break;
        result->done = true; /* read by the runner after the join */
        if (arena->on_game && !hand_over(arena, g, result)) break;
        atomic_store_explicit(&worker->finished->value, ++finished, memory_order_relaxed);
    }
    pthread_mutex_lock(&arena->lock);
    arena->workers_running--;
    pthread_cond_signal(&arena->workers_done);
    pthread_mutex_unlock(&arena->lock);
    return NULL;
}

static long finished_so_far(const gateau_arena *arena, const arena_worker *workers)
{
    long total = 0;
    for (int t = 0; t < arena->threads; t++)
        total += atomic_load_explicit(&workers[t].finished->value, memory_order_relaxed);
    return total;
}

/* Waits for the workers, reporting progress about ten times a second. */
static void wait_with_progress(gateau_arena *arena, const arena_worker *workers, double begin)
{
    pthread_mutex_lock(&arena->lock);
    while (arena->workers_running > 0) {
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_nsec += 100 * 1000 * 1000;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&arena->workers_done, &arena->lock, &until);
        if (arena->workers_running == 0) break;
        pthread_mutex_unlock(&arena->lock);
        arena->progress(finished_so_far(arena, workers), arena->count - arena->resumed,
                        now_seconds() - begin, arena->progress_context);
        pthread_mutex_lock(&arena->lock);
    }
    pthread_mutex_unlock(&arena->lock);
}

bool gateau_arena_run(gateau_arena *arena, char *error, size_t error_size)
{
    if (arena->ran) {
        arena_error(error, error_size, "this arena has already run");
        return false;
    }
    arena->ran = true;
    int threads = arena->threads;
    long to_play = arena->count - arena->resumed;
    if ((long)threads > to_play) threads = (int)(to_play > 0 ? to_play : 1);
    arena->threads = threads;
    arena_worker *workers = calloc((size_t)threads, sizeof *workers);
    arena_counter *counters = aligned_alloc(64, sizeof(arena_counter) * (size_t)threads);
    if (!workers || !counters) abort();
    double begin = now_seconds();
    arena->workers_running = threads;
    int started = 0;
    /* Every counter is set before any thread starts: the progress reader
     * reads them all, also those of threads that could not start. */
    for (int t = 0; t < threads; t++) {
        atomic_init(&counters[t].value, 0);
        workers[t].arena = arena;
        workers[t].finished = &counters[t];
    }
    for (int t = 0; t < threads; t++) {
        int failure = pthread_create(&workers[t].thread, NULL, worker_main, &workers[t]);
        if (failure != 0) { /* (pthread_create returns its error; errno is not set) */
            fail(arena, "cannot start thread %d: %s", t + 1, strerror(failure));
            pthread_mutex_lock(&arena->lock);
            arena->workers_running -= threads - t;
            pthread_mutex_unlock(&arena->lock);
            break;
        }
        started++;
    }
    if (arena->progress) wait_with_progress(arena, workers, begin);
    for (int t = 0; t < started; t++) {
        pthread_join(workers[t].thread, NULL);
    }
    arena->seconds = now_seconds() - begin;
    if (arena->progress)
        arena->progress(finished_so_far(arena, workers), arena->count - arena->resumed,
                        arena->seconds, arena->progress_context);
    free(workers);
    free(counters);

    if (arena->sharded || arena->resumed) {
        /* A shard keeps every game that finished: its part file has them. */
        long done = 0;
        for (long i = 0; i < arena->count; i++) done += arena->results[i].done;
        arena->finished = done;
        arena->interrupted = done < arena->count && atomic_load(&arena->stop_requested);
        if (arena->failed) {
            arena_error(error, error_size, "%s", arena->error);
            return false;
        }
        return true;
    }
    /* The results are the games finished from game 0 on; games finished
     * past a gap (an interruption) are dropped, records included. */
    long prefix = 0;
    while (prefix < arena->games && arena->results[prefix].done) prefix++;
    for (long g = prefix; g < arena->games; g++) {
        gateau_arena_game *game = &arena->results[g];
        if (!game->done) continue;
        game->done = false;
        free(game->record);
        game->record = NULL;
        if (arena->record_dir) {
            char path[4096];
            record_path(arena, g, path, sizeof path);
            unlink(path);
        }
    }
    arena->finished = prefix;
    arena->interrupted = prefix < arena->games && atomic_load(&arena->stop_requested);
    if (arena->failed) {
        arena_error(error, error_size, "%s", arena->error);
        return false;
    }
    return true;
}
