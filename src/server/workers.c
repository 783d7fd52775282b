/*
 * workers.c: bots think on a pool of threads, so that a searching bot
 * never holds up a request or another table; a clock thread notices seats
 * whose time ran out.
 *
 * A table waits in the queue at most once (table->bot_queued), so one
 * worker at a time moves its bots and a bot object is never used by two
 * threads.  A worker thinks on a copy of the state without the table's
 * lock, then plays the move only if the table has not changed meanwhile
 * (a person moved in a simultaneous phase, say); otherwise it thinks
 * again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include "server/server.h"

enum { WORKERS_MAX = 64, CLOCK_TICK_MS = 100 };

static struct {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    server_table **queue; /* a ring */
    int head, count, capacity;
    bool stopping;
    pthread_t threads[WORKERS_MAX];
    int thread_count;
    pthread_t clock_thread;
} workers = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER};

void workers_notice(server_table *table)
{
    if (table->bot_queued || !table_bot_seats(table)) return;
    table->bot_queued = true;
    table_hold(table); /* the queue's, let go when the worker is done */
    pthread_mutex_lock(&workers.lock);
    if (workers.count == workers.capacity) {
        int capacity = workers.capacity ? 2 * workers.capacity : 256;
        server_table **grown = malloc(sizeof *grown * (size_t)capacity);
        if (!grown) abort();
        for (int i = 0; i < workers.count; i++)
            grown[i] = workers.queue[(workers.head + i) % workers.capacity];
        free(workers.queue);
        workers.queue = grown;
        workers.head = 0;
        workers.capacity = capacity;
    }
    workers.queue[(workers.head + workers.count++) % workers.capacity] = table;
    pthread_cond_signal(&workers.wake);
    pthread_mutex_unlock(&workers.lock);
}

static void sleep_ms(int milliseconds)
{
    struct timespec pause = {milliseconds / 1000, (long)(milliseconds % 1000) * 1000000};
    nanosleep(&pause, NULL);
}

static server_table *next_table(void)
{
    pthread_mutex_lock(&workers.lock);
    while (!workers.count && !workers.stopping) pthread_cond_wait(&workers.wake, &workers.lock);
    server_table *table = NULL;
    if (!workers.stopping) {
        table = workers.queue[workers.head];
        workers.head = (workers.head + 1) % workers.capacity;
        workers.count--;
    }
    pthread_mutex_unlock(&workers.lock);
    return table;
}

/* The bot that moves for seat now: its own, or for a person's seat whose
 * time ran out, a heuristic stand-in (the note says so). */
static gateau_bot *bot_for(table_seat *seat, int number, char *note, size_t note_size)
{
    note[0] = '\0';
    if (seat->human && !seat->zombie)
        snprintf(note, note_size, "seat %d's time ran out: heuristic moved for it", number);
    if (!seat->bot) seat->bot = gateau_bot_new("heuristic", NULL, 0);
    return seat->bot;
}

/* Moves the table's bots until none must move: the table is locked on
 * entry and on return. */
static void move_bots(server_table *table)
{
    uint32_t seats;
    while ((seats = table_bot_seats(table)) != 0) {
        int seat = __builtin_ctz(seats);
        char note[128];
        gateau_bot *bot = bot_for(&table->seats[seat], seat + 1, note, sizeof note);
        int version = table->version;
        gateau_state *state = gateau_state_clone(gateau_record_state(table->record));
        pthread_mutex_unlock(&table->lock);

        gateau_rng rng; /* from (seed, move number): a restart thinks the same */
        gateau_rng_seed_stream(&rng, table->seed, UINT64_MAX - (uint64_t)version);
        gateau_action actions[GATEAU_MAX_MOVE_ACTIONS];
        int count = gateau_bot_choose_actions(bot, state, seat, &rng, actions);
        gateau_state_free(state);

        pthread_mutex_lock(&table->lock);
        if (count <= 0 || table->version != version) continue; /* changed meanwhile: again */
        char error[512];
        int status = table_play(table, seat, version, NULL, actions, count,
                                note[0] ? note : NULL, error, sizeof error);
        if (status == 503) {
            /* The store refused: nothing was played; try again later
             * rather than spin. */
            fprintf(stderr, "gateau serve: table %s: %s\n", table->id, error);
            pthread_mutex_unlock(&table->lock);
            sleep_ms(1000);
            pthread_mutex_lock(&table->lock);
        }
    }
}

static void *worker_main(void *unused)
{
    (void)unused;
    server_table *table;
    while ((table = next_table()) != NULL) {
        pthread_mutex_lock(&table->lock);
        move_bots(table);
        table->bot_queued = false;
        table_unlock(table); /* and the queue's reference */
    }
    return NULL;
}

/* ---- Clocks ---------------------------------------------------------------------------- */

static void check_clock(server_table *table, void *unused)
{
    (void)unused;
    if (table->clock_total < 0) return;
    pthread_mutex_lock(&table->lock);
    workers_notice(table);
    pthread_mutex_unlock(&table->lock);
}

static void *clock_main(void *unused)
{
    (void)unused;
    for (;;) {
        pthread_mutex_lock(&workers.lock);
        bool stopping = workers.stopping;
        pthread_mutex_unlock(&workers.lock);
        if (stopping) return NULL;
        sleep_ms(CLOCK_TICK_MS);
        tables_each(check_clock, NULL);
    }
}

bool workers_start(int threads)
{
    if (threads < 1) threads = 1;
    if (threads > WORKERS_MAX) threads = WORKERS_MAX;
    for (int i = 0; i < threads; i++) {
        if (pthread_create(&workers.threads[i], NULL, worker_main, NULL) != 0) return false;
        workers.thread_count++;
    }
    return pthread_create(&workers.clock_thread, NULL, clock_main, NULL) == 0;
}

void workers_stop(void)
{
    pthread_mutex_lock(&workers.lock);
    workers.stopping = true;
    pthread_cond_broadcast(&workers.wake);
    pthread_mutex_unlock(&workers.lock);
    for (int i = 0; i < workers.thread_count; i++) pthread_join(workers.threads[i], NULL);
    pthread_join(workers.clock_thread, NULL);
    /* As before workers_start, so that a process may run a server again
     * (tests, fuzz targets): an empty queue, no threads, not stopping. */
    free(workers.queue);
    workers.queue = NULL;
    workers.head = workers.count = workers.capacity = 0;
    workers.thread_count = 0;
    workers.stopping = false;
}

int workers_queued(void)
{
    pthread_mutex_lock(&workers.lock);
    int count = workers.count;
    pthread_mutex_unlock(&workers.lock);
    return count;
}
