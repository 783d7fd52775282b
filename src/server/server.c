/*
 * server.c: starting and stopping `gateau serve`.
 *
 * Order matters: the store opens and every unfinished table is restored
 * before the first connection is accepted; on SIGINT or SIGTERM the
 * connections close first, then the bots finish their thoughts, then the
 * tables and the store go.  Nothing is lost by stopping at any point in
 * between: every acknowledged move is already committed.
 */
#define _GNU_SOURCE /* pthread_setattr_default_np */
#include <civetweb.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "server/server.h"

/* civetweb serves each connection on a thread of its own, and a
 * WebSocket keeps its thread: thousands of them at 8 MiB of stack each
 * would reserve gigabytes.  Our handlers need little. */
enum { SERVER_THREAD_STACK = 256 * 1024 };

static int log_message(const struct mg_connection *connection, const char *message)
{
    (void)connection;
    fprintf(stderr, "gateau serve: %s\n", message);
    return 1;
}

static struct mg_context *start_http(const server_options *options, char *error,
                                     size_t error_size)
{
    char ports[300], threads[16];
    snprintf(ports, sizeof ports, "%s:%d", options->bind, options->port);
    snprintf(threads, sizeof threads, "%d", options->connections);
    const char *settings[32];
    int n = 0;
    settings[n++] = "listening_ports", settings[n++] = ports;
    settings[n++] = "num_threads", settings[n++] = threads;
    settings[n++] = "enable_keep_alive", settings[n++] = "yes";
    settings[n++] = "keep_alive_timeout_ms", settings[n++] = "30000";
    settings[n++] = "request_timeout_ms", settings[n++] = "30000";
    settings[n++] = "tcp_nodelay", settings[n++] = "1";
    settings[n++] = "enable_directory_listing", settings[n++] = "no";
    settings[n++] = "listen_backlog", settings[n++] = "1024";
    settings[n++] = "connection_queue", settings[n++] = "1024";
    if (options->web) settings[n++] = "document_root", settings[n++] = options->web;
    settings[n] = NULL;
    struct mg_callbacks callbacks = {.log_message = log_message};
    http_configure(options, &callbacks);
    struct mg_init_data init = {.callbacks = &callbacks, .configuration_options = settings};
    struct mg_error_data failure = {.text = error, .text_buffer_size = error_size};
    struct mg_context *context = mg_start2(&init, &failure);
    return context;
}

/* Everything a running server holds. */
struct server {
    store *database;
    struct mg_context *context;
    bool workers;
    int port;
};

server *server_start(const server_options *options, char *error, size_t error_size)
{
    server *running = calloc(1, sizeof *running);
    if (!running) abort();
    table_allow_ext_bots(options->ext_bots);
    running->database = store_open(options->db, error, error_size);
    if (!running->database) {
        free(running);
        return NULL;
    }
    signal(SIGPIPE, SIG_IGN); /* a client gone mid-answer is not our death */
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, SERVER_THREAD_STACK);
    pthread_setattr_default_np(&attributes);
    pthread_attr_destroy(&attributes);
    bool ok = tables_init(running->database, error, error_size);
    /* Several servers on one database: the others' changes (a SQLite
     * file has no others, and this does nothing). */
    if (ok) ok = store_watch(running->database, tables_notice, NULL, error, error_size);
    if (ok && !(running->workers = workers_start(options->bot_threads))) {
        snprintf(error, error_size, "cannot start the bots' threads");
        ok = false;
    }
    char reason[256] = "";
    if (ok && !(running->context = start_http(options, reason, sizeof reason))) {
        snprintf(error, error_size, "cannot listen on %s:%d: %s", options->bind, options->port,
                 reason[0] ? reason : "civetweb failed to start");
        ok = false;
    }
    if (!ok) {
        server_stop(running);
        return NULL;
    }
    http_register(running->context);
    websocket_register(running->context, options);
    struct mg_server_port port;
    running->port = mg_get_server_ports(running->context, 1, &port) == 1 ? port.port
                                                                          : options->port;
    return running;
}

int server_port(const server *running) { return running->port; }

void server_stop(server *running)
{
    if (!running) return;
    if (running->context) mg_stop(running->context);
    if (running->workers) workers_stop();
    /* The store first: its listener (store_watch) may be catching a
     * table up. */
    store_close(running->database);
    tables_shutdown();
    free(running);
}

int server_run(const server_options *options)
{
    /* Signals are taken by sigwait below, not by whichever thread: blocked
     * before any thread starts, so that every thread inherits the mask. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    char error[512];
    server *running = server_start(options, error, sizeof error);
    if (!running) {
        fprintf(stderr, "gateau: serve: %s\n", error);
        return 1;
    }
    printf("gateau serve: http://%s:%d/ (database %s)\n", options->bind, server_port(running),
           options->db);
    fflush(stdout);
    int signal_number;
    sigwait(&stop, &signal_number);
    printf("gateau serve: stopping (%s)\n", signal_number == SIGINT ? "SIGINT" : "SIGTERM");
    server_stop(running);
    return 0;
}
