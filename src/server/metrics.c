/*
 * metrics.c: what GET /metrics tells (docs/server.md, "Operating it"), in
 * Prometheus' text format (version 0.0.4).
 *
 * Counters and gauges are atomics added to with relaxed order: the loop
 * and the request threads count without a lock and without waiting for
 * each other; a scrape reads each one on its own (a scrape is a sample,
 * not a transaction).  What is already counted elsewhere (tables in
 * memory, the bots' queue, the store's failures) is asked for when a
 * scrape comes.
 */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/server.h"

/* The move latency histogram's upper bounds, in microseconds: from half a
 * millisecond (a commit on a quiet disk) to 5 s (a store in trouble). */
static const int64_t latency_bounds[] = {500,    1000,   2500,   5000,    10000,   25000,  50000,
                                         100000, 250000, 500000, 1000000, 2500000, 5000000};
enum { LATENCY_BUCKETS = sizeof latency_bounds / sizeof *latency_bounds + 1 }; /* +Inf too */

static struct {
    atomic_long gauges[METRIC_GAUGES];
    atomic_uint_fast64_t moves;
    atomic_uint_fast64_t stored[MOVERS]; /* every move stored, by who made it */
    atomic_uint_fast64_t requests[6]; /* by status class: [1] 1xx ... [5] 5xx, [0] other */
    atomic_uint_fast64_t latency_buckets[LATENCY_BUCKETS]; /* not cumulative: one bucket each */
    atomic_uint_fast64_t latency_sum;                      /* microseconds */
} metrics;

void metrics_gauge_add(metric_gauge which, long delta)
{
    atomic_fetch_add_explicit(&metrics.gauges[which], delta, memory_order_relaxed);
}

void metrics_request(int status)
{
    int class = status >= 100 && status < 600 ? status / 100 : 0;
    atomic_fetch_add_explicit(&metrics.requests[class], 1, memory_order_relaxed);
}

void metrics_move(int64_t microseconds)
{
    if (microseconds < 0) microseconds = 0;
    int bucket = 0;
    while (bucket < LATENCY_BUCKETS - 1 && microseconds > latency_bounds[bucket]) bucket++;
    atomic_fetch_add_explicit(&metrics.latency_buckets[bucket], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&metrics.latency_sum, (uint64_t)microseconds, memory_order_relaxed);
    atomic_fetch_add_explicit(&metrics.moves, 1, memory_order_relaxed);
}

void metrics_stored_move(metric_mover by)
{
    atomic_fetch_add_explicit(&metrics.stored[by], 1, memory_order_relaxed);
}

/* ---- The scrape ----------------------------------------------------------------------------- */

typedef struct text {
    char *bytes;
    size_t length, capacity;
} text;

static void add(text *out, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void add(text *out, const char *format, ...)
{
    for (;;) {
        va_list arguments;
        va_start(arguments, format);
        size_t room = out->capacity - out->length;
        int written = vsnprintf(out->bytes + out->length, room, format, arguments);
        va_end(arguments);
        if (written < 0) return;
        if ((size_t)written < room) {
            out->length += (size_t)written;
            return;
        }
        out->capacity = 2 * out->capacity + (size_t)written;
        out->bytes = realloc(out->bytes, out->capacity);
        if (!out->bytes) abort();
    }
}

/* A metric's HELP and TYPE lines. */
static void describe(text *out, const char *name, const char *type, const char *help)
{
    add(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* A table busy now (a commit waiting for the database) is counted in
 * play without waiting for it: a scrape never waits for a store. */
static void count_in_play(server_table *table, void *context)
{
    if (pthread_mutex_trylock(&table->lock) != 0) {
        ++*(long *)context;
        return;
    }
    if (!table->over) ++*(long *)context;
    pthread_mutex_unlock(&table->lock);
}

static void add_latency(text *out)
{
    const char *name = "gateau_move_latency_seconds";
    describe(out, name, "histogram",
             "Time to store a client's move and push it to the table's WebSockets.");
    /* The count is the buckets' sum as read here, so that the +Inf bucket
     * and _count agree whatever moves land during the scrape. */
    uint64_t cumulative = 0;
    for (int b = 0; b < LATENCY_BUCKETS; b++) {
        cumulative += atomic_load_explicit(&metrics.latency_buckets[b], memory_order_relaxed);
        if (b < LATENCY_BUCKETS - 1)
            add(out, "%s_bucket{le=\"%g\"} %llu\n", name, (double)latency_bounds[b] / 1e6,
                (unsigned long long)cumulative);
        else
            add(out, "%s_bucket{le=\"+Inf\"} %llu\n", name, (unsigned long long)cumulative);
    }
    uint64_t sum = atomic_load_explicit(&metrics.latency_sum, memory_order_relaxed);
    add(out, "%s_sum %.6f\n%s_count %llu\n", name, (double)sum / 1e6, name,
        (unsigned long long)cumulative);
}

char *metrics_text(void)
{
    text out = {malloc(4096), 0, 4096};
    if (!out.bytes) abort();
    out.bytes[0] = '\0';
    describe(&out, "gateau_connections_open", "gauge", "Open connections (HTTP and WebSocket).");
    add(&out, "gateau_connections_open %ld\n", atomic_load(&metrics.gauges[METRIC_CONNECTIONS]));
    describe(&out, "gateau_websockets_open", "gauge", "Open WebSockets.");
    add(&out, "gateau_websockets_open %ld\n", atomic_load(&metrics.gauges[METRIC_WEBSOCKETS]));
    long in_play = 0;
    tables_each(count_in_play, &in_play);
    describe(&out, "gateau_tables_in_memory", "gauge",
             "Tables held in memory (unfinished ones, and finished ones still in use).");
    add(&out, "gateau_tables_in_memory %d\n", tables_in_memory());
    describe(&out, "gateau_tables_in_play", "gauge", "Unfinished tables in memory.");
    add(&out, "gateau_tables_in_play %ld\n", in_play);
    describe(&out, "gateau_moves_accepted_total", "counter",
             "Clients' moves accepted (stored and answered 200).");
    add(&out, "gateau_moves_accepted_total %llu\n",
        (unsigned long long)atomic_load(&metrics.moves));
    add_latency(&out);
    describe(&out, "gateau_moves_stored_total", "counter",
             "Moves stored by this process, by who made them: a person (through a request), "
             "a bot, a clock's stand-in, chance.");
    static const char *const movers[MOVERS] = {"person", "bot", "clock", "chance"};
    for (int m = 0; m < MOVERS; m++)
        add(&out, "gateau_moves_stored_total{by=\"%s\"} %llu\n", movers[m],
            (unsigned long long)atomic_load(&metrics.stored[m]));
    describe(&out, "gateau_store_errors_total", "counter", "Database calls that failed.");
    add(&out, "gateau_store_errors_total %llu\n", (unsigned long long)store_error_count());
    describe(&out, "gateau_bot_queue_length", "gauge",
             "Tables waiting for a bot thread (a bot or a clock's stand-in must move).");
    add(&out, "gateau_bot_queue_length %d\n", workers_queued());
    describe(&out, "gateau_requests_total", "counter",
             "Requests answered (WebSocket upgrades as 1xx), by the status' class.");
    static const char *const classes[] = {"other", "1xx", "2xx", "3xx", "4xx", "5xx"};
    for (int c = 1; c <= 6; c++)
        add(&out, "gateau_requests_total{class=\"%s\"} %llu\n", classes[c % 6],
            (unsigned long long)atomic_load(&metrics.requests[c % 6]));
    return out.bytes;
}

int64_t server_now_us(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000;
}
