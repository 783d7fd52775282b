/*
 * server.c: starting and stopping `gateau serve`.
 *
 * Order matters: the store opens, then the port is bound (a second
 * server on the same port fails at once, before restoring anything),
 * then every unfinished table is restored while requests are answered
 * 503 (but /healthz and /metrics); on SIGINT or SIGTERM the
 * connections close first (WebSockets with 1001), then the request
 * threads and the bots finish what they do, then the tables and the
 * store go.  Nothing is lost by stopping at any point in
 * between: every acknowledged move is already committed.
 */
#define _GNU_SOURCE /* pthread_setattr_default_np */
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server/server.h"

/* The threads (request threads, bots, the loop) need little stack: a
 * body's nesting is bounded before any recursive parse. */
enum { SERVER_THREAD_STACK = 256 * 1024 };

/* Everything a running server holds. */
struct server {
    store *database;
    server_options options; /* a copy: the parts keep pointers to it */
    bool workers, requests, loop, expiry, reviews;
    int port;
};

/* Whether the tables are restored: requests wait for it (server_ready). */
static atomic_bool ready;

bool server_ready(void) { return atomic_load(&ready); }

server *server_start(const server_options *options, char *error, size_t error_size)
{
    server *running = calloc(1, sizeof *running);
    if (!running) abort();
    running->options = *options;
    options = &running->options;
    table_allow_ext_bots(options->ext_bots);
    table_configure((int64_t)options->store_retry * 1000, options->max_bot_ms,
                    options->max_bot_iters);
    running->database = store_open(options->db, error, error_size);
    if (!running->database) {
        free(running);
        return NULL;
    }
    if (store_warning(running->database))
        server_log("%s", store_warning(running->database));
    signal(SIGPIPE, SIG_IGN); /* a client gone mid-answer is not our death */
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, SERVER_THREAD_STACK);
    pthread_setattr_default_np(&attributes);
    pthread_attr_destroy(&attributes);
    http_configure(options);
    browser_configure(options);
    addresses_configure(options);
    websocket_configure(options);
    atomic_store(&ready, false);
    /* (before the first request) */
    bool ok = decks_open(options->db, error, error_size);
    if (ok && !(running->requests = requests_start(SERVER_REQUEST_THREADS, SERVER_REQUEST_QUEUE))) {
        snprintf(error, error_size, "cannot start the request threads");
        ok = false;
    }
    if (ok) ok = running->loop = loop_start(options, error, error_size);
    /* Expired tables go before the others are restored: no replay for
     * them. */
    if (ok) expiry_sweep(running->database, options->expire_days);
    if (ok) ok = tables_init(running->database, error, error_size);
    if (ok && !(running->expiry = expiry_start(running->database, options->expire_days))) {
        snprintf(error, error_size, "cannot start the expiry's thread");
        ok = false;
    }
    /* Several servers on one database: the others' changes (a SQLite
     * file has no others, and this does nothing). */
    if (ok) ok = store_watch(running->database, tables_notice, NULL, error, error_size);
    if (ok && !(running->workers = workers_start(options->bot_threads))) {
        snprintf(error, error_size, "cannot start the bots' threads");
        ok = false;
    }
    if (ok && !(running->reviews = reviews_start(running->database, options->review_threads,
                                                 options->review_queue, options->review_iters))) {
        snprintf(error, error_size, "cannot start the reviews' threads");
        ok = false;
    }
    if (!ok) {
        server_stop(running);
        return NULL;
    }
    running->port = loop_port();
    atomic_store(&ready, true);
    return running;
}

int server_port(const server *running) { return running->port; }

void server_stop(server *running)
{
    if (!running) return;
    /* The sockets first (their subscribers leave on the request
     * threads), then the request threads (what they still hold is
     * answered to nobody), then the bots. */
    if (running->loop) loop_stop();
    if (running->requests) requests_stop();
    loop_forget();
    if (running->reviews) reviews_stop(); /* (before the bots: each interrupts the searches) */
    if (running->workers) workers_stop();
    if (running->expiry) expiry_stop();
    /* The store first: its listener (store_watch) may be catching a
     * table up. */
    store_close(running->database);
    tables_shutdown();
    decks_close();
    atomic_store(&ready, false); /* (after the drain: its last requests are answered as usual) */
    free(running);
}

bool server_check_bind(const char *address, char *error, size_t error_size)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_NUMERICHOST | AI_PASSIVE};
    struct addrinfo *found = NULL;
    bool good = address && getaddrinfo(address, "0", &hints, &found) == 0 && found;
    if (!good) snprintf(error, error_size, "--bind '%s' is not an IP address", address ? address : "");
    if (found) freeaddrinfo(found);
    return good;
}

void server_thread_name(const char *name)
{
    pthread_setname_np(pthread_self(), name);
}

/*
 * The loop is every client's way in and out.  On a busy host it waits for
 * a core more than it runs out of work (saturated, it waited a third of
 * the time while the request threads ran): the threads that work for it
 * run SERVER_HELPER_NICENESS steps nicer, so the scheduler gives it the
 * core first and they take what it leaves.  (Linux keeps a nice value per
 * thread; a thread may always make itself nicer.)  3-4% more moves a
 * second saturated (docs/performance.md).
 */
void server_thread_below_loop(const char *name)
{
    pid_t self = gettid();
    errno = 0;
    int now = getpriority(PRIO_PROCESS, (id_t)self);
    if (errno == 0) (void)setpriority(PRIO_PROCESS, (id_t)self, now + SERVER_HELPER_NICENESS);
    server_thread_name(name); /* (after: a thread seen by its name is already nicer) */
}

/* SIGHUP: the log opened again (logrotate moved it); the server goes on. */
static void reopen_log(void)
{
    char error[512];
    if (!request_log_reopen(error, sizeof error)) fprintf(stderr, "gateau: serve: %s\n", error);
}

int server_run(const server_options *options)
{
    /* Signals are taken by sigwait below, not by whichever thread: blocked
     * before any thread starts, so that every thread inherits the mask. */
    sigset_t taken;
    sigemptyset(&taken);
    sigaddset(&taken, SIGINT);
    sigaddset(&taken, SIGTERM);
    sigaddset(&taken, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &taken, NULL);
    char error[512], database[1024];
    if (!request_log_open(options->log, error, sizeof error)) {
        fprintf(stderr, "gateau: serve: %s\n", error);
        return 1;
    }
    server *running = server_start(options, error, sizeof error);
    if (!running) {
        fprintf(stderr, "gateau: serve: %s\n", error);
        request_log_close();
        return 1;
    }
    /* An IPv6 address goes in brackets in a URL; the password never shows. */
    bool six = strchr(options->bind, ':') != NULL;
    store_path_shown(options->db, database, sizeof database);
    printf("gateau serve: http://%s%s%s:%d/ (database %s)\n", six ? "[" : "", options->bind,
           six ? "]" : "", server_port(running), database);
    fflush(stdout);
    int signal_number;
    while (sigwait(&taken, &signal_number) == 0 && signal_number == SIGHUP) reopen_log();
    printf("gateau serve: stopping (%s)\n", signal_number == SIGINT ? "SIGINT" : "SIGTERM");
    fflush(stdout);
    server_stop(running);
    request_log_close();
    return 0;
}
