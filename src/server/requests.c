/*
 * requests.c: the request threads.
 *
 * The loop (loop.c) never waits: not for a table's lock, which a move
 * holds while the store commits it, nor for a file.  So what needs either
 * runs here, on a few threads: the loop hands an exchange over, a thread
 * answers it (http.c, files.c, websocket.c) and hands it back with
 * loop_answered.  The queue of exchanges is bounded (the loop answers
 * 503 past it); tasks (a subscriber leaving its table) are not refused,
 * since each connection makes at most one.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "server/server.h"

typedef struct task {
    void (*run)(void *context);
    void *context;
    struct task *next;
} task;

static struct {
    pthread_mutex_t lock;
    pthread_cond_t ready;
    http_exchange *first, *last;
    int queued, capacity;
    task *first_task, *last_task;
    bool stopping;
    pthread_t *threads;
    int thread_count;
} requests = {.lock = PTHREAD_MUTEX_INITIALIZER, .ready = PTHREAD_COND_INITIALIZER};

static void answer(http_exchange *exchange)
{
    if (exchange->websocket_hello && !server_ready()) { /* tables not restored yet */
        exchange->close_code = 1013;
        snprintf(exchange->close_reason, sizeof exchange->close_reason,
                 "the server is starting: reconnect");
    } else if (exchange->websocket_hello) {
        websocket_hello(exchange);
    } else {
        http_answer(exchange);
    }
    loop_answered(exchange);
}

static void *serve(void *unused)
{
    (void)unused;
    server_thread_below_loop("gateau-request");
    pthread_mutex_lock(&requests.lock);
    for (;;) {
        if (requests.first_task) {
            task *next = requests.first_task;
            if (!(requests.first_task = next->next)) requests.last_task = NULL;
            pthread_mutex_unlock(&requests.lock);
            next->run(next->context);
            free(next);
            pthread_mutex_lock(&requests.lock);
        } else if (requests.first) {
            http_exchange *next = requests.first;
            if (!(requests.first = next->next)) requests.last = NULL;
            requests.queued--;
            pthread_mutex_unlock(&requests.lock);
            next->next = NULL;
            answer(next);
            pthread_mutex_lock(&requests.lock);
        } else if (requests.stopping) {
            break;
        } else {
            pthread_cond_wait(&requests.ready, &requests.lock);
        }
    }
    pthread_mutex_unlock(&requests.lock);
    return NULL;
}

bool requests_start(int threads, int queue_size)
{
    requests.stopping = false;
    requests.capacity = queue_size;
    requests.threads = calloc((size_t)threads, sizeof *requests.threads);
    if (!requests.threads) return false;
    for (int i = 0; i < threads; i++) {
        if (pthread_create(&requests.threads[i], NULL, serve, NULL) != 0) break;
        requests.thread_count++;
    }
    return requests.thread_count == threads;
}

bool requests_submit(http_exchange *exchange)
{
    pthread_mutex_lock(&requests.lock);
    bool room = requests.queued < requests.capacity && !requests.stopping;
    if (room) {
        exchange->next = NULL;
        if (requests.last) requests.last->next = exchange;
        else requests.first = exchange;
        requests.last = exchange;
        requests.queued++;
        pthread_cond_signal(&requests.ready);
    }
    pthread_mutex_unlock(&requests.lock);
    return room;
}

bool requests_submit_task(void (*run)(void *context), void *context)
{
    if (!requests.threads) { /* stopped (the loop's last closes): at once, here */
        run(context);
        return true;
    }
    task *made = malloc(sizeof *made);
    if (!made) abort();
    *made = (task){.run = run, .context = context};
    pthread_mutex_lock(&requests.lock);
    if (requests.last_task) requests.last_task->next = made;
    else requests.first_task = made;
    requests.last_task = made;
    pthread_cond_signal(&requests.ready);
    pthread_mutex_unlock(&requests.lock);
    return true;
}

void requests_stop(void)
{
    pthread_mutex_lock(&requests.lock);
    requests.stopping = true;
    pthread_cond_broadcast(&requests.ready);
    pthread_mutex_unlock(&requests.lock);
    for (int i = 0; i < requests.thread_count; i++) pthread_join(requests.threads[i], NULL);
    free(requests.threads);
    requests.threads = NULL;
    requests.thread_count = 0;
}
