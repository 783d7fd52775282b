/*
 * workers.c: bots think on a pool of threads, so that a searching bot
 * never holds up a request or another table; a clock thread notices seats
 * whose time ran out.
 *
 * A table waits in the queue at most once (table->bot_queued), so one
 * worker at a time moves its bots and a bot object is never used by two
 * threads.  A worker makes one move, then puts the table back at the end
 * of the queue: tables of slow bots share the workers with the others.  A worker thinks on a copy of the state without the table's
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
    if (table->bot_queued || !(table_bot_seats(table) || table_retry_due(table))) return;
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

static bool stopping_now(void)
{
    pthread_mutex_lock(&workers.lock);
    bool stopping = workers.stopping;
    pthread_mutex_unlock(&workers.lock);
    return stopping;
}

/* Makes one bot's move at the table, if a bot must move: the table is
 * locked on entry and on return.  One move, not the game: the table then
 * goes back to the end of the queue, so that a table of slow bots takes
 * its turn with the others instead of holding a worker to its end. */
static void move_one_bot(server_table *table)
{
    uint32_t seats = table_bot_seats(table);
    if (!seats) return;
    int seat = __builtin_ctz(seats);
    char note[128];
    gateau_bot *bot = bot_for(&table->seats[seat], seat + 1, note, sizeof note);
    int version = table->version, takebacks = table->takebacks;
    gateau_state *state = gateau_state_clone(gateau_record_state(table->record));
    pthread_mutex_unlock(&table->lock);

    gateau_rng rng; /* from (seed, move number): a restart thinks the same */
    gateau_rng_seed_stream(&rng, table->seed, UINT64_MAX - (uint64_t)version);
    if (gateau_bot_observes(bot)) { /* a program (ext:): its failure lines say where */
        char label[96];
        snprintf(label, sizeof label, "table %s, move %d", table->id, version + 1);
        gateau_bot_set_label(bot, label);
    }
    gateau_action actions[GATEAU_MAX_MOVE_ACTIONS];
    int count = gateau_bot_choose_actions(bot, state, seat, &rng, actions);
    gateau_state_free(state);

    pthread_mutex_lock(&table->lock);
    /* A search cut short by the server's stop is not played: the next
     * start thinks again. */
    if (stopping_now()) return;
    if (count < 0) {
        /* An ext: program failed with onerror=forfeit: its seat forfeits
         * and the table ends (docs/protocol.md), rather than asking again. */
        table_forfeit(table, seat, gateau_bot_failure(bot));
        return;
    }
    /* changed meanwhile (a take-back too, which may bring the version back): again */
    if (count == 0 || table->version != version || table->takebacks != takebacks) return;
    char error[512];
    int status = table_play(table, seat, version, NULL, actions, count, note[0] ? note : NULL,
                            error, sizeof error);
    /* The store refused (the reason is logged): nothing was played; the
     * move is tried again after a pause (table_store_failed). */
    if (status == 503) table_store_failed(table);
}

static void *worker_main(void *unused)
{
    (void)unused;
    server_thread_below_loop("gateau-bot");
    server_table *table;
    while ((table = next_table()) != NULL) {
        pthread_mutex_lock(&table->lock);
        if (table_retry_due(table)) table_retry(table);
        move_one_bot(table);
        table->bot_queued = false;
        if (!stopping_now()) workers_notice(table); /* back in the queue, at its end */
        table_unlock(table); /* and the queue's reference */
    }
    return NULL;
}

/* ---- Clocks ---------------------------------------------------------------------------- */

/* Each tick: a table whose clock runs, or whose store retry is due, or
 * (several servers on one database) whose bot or chance move nobody has
 * made for a while (the process that should have may be dead). */
static void check_clock(server_table *table, void *unused)
{
    (void)unused;
    bool clocked = table->clock_total >= 0, retry = table_retry_due(table);
    if (!clocked && !retry && !table_is_shared(table)) return;
    pthread_mutex_lock(&table->lock);
    if (clocked || retry || table_take_over(table)) workers_notice(table);
    pthread_mutex_unlock(&table->lock);
}

static void *clock_main(void *unused)
{
    (void)unused;
    server_thread_name("gateau-clock");
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
    /* Searches under way stop at once (a bot's budget may be seconds). */
    gateau_bot_interrupt(true);
    for (int i = 0; i < workers.thread_count; i++) pthread_join(workers.threads[i], NULL);
    pthread_join(workers.clock_thread, NULL);
    /* As before workers_start, so that a process may run a server again
     * (tests, fuzz targets): an empty queue, no threads, not stopping. */
    free(workers.queue);
    workers.queue = NULL;
    workers.head = workers.count = workers.capacity = 0;
    /* The threads are gone and with them what they held of the queue. */
    workers.thread_count = 0;
    workers.stopping = false;
    gateau_bot_interrupt(false);
}

int workers_queued(void)
{
    pthread_mutex_lock(&workers.lock);
    int count = workers.count;
    pthread_mutex_unlock(&workers.lock);
    return count;
}
