/*
 * bench_server.c: `gateau serve` under load (docs/performance.md, "The
 * server under load"), and the kill -9 check of its durability.
 *
 *   gateau_bench_server [--tables N] [--think-ms A-B] [--seconds S] [--game G]
 *                       [--players P] [--threads T] [--http N] [--connections N]
 *                       [--addresses N | --one-address]
 *                       [--url http://127.0.0.1:PORT [--url ...]] [--gateau PATH] [--db FILE]
 *                       [--seed S] [--warm-moves N] [--setup-limit S] [--server-arg ARG ...]
 *   gateau_bench_server --durability [--rounds R] [--tables N] ...
 *
 * The three loads of the server's targets (the issue's scenarios):
 *
 *   --tables 1000 --think-ms 500-1500   1,000 tables, 4,000 WebSockets, players thinking
 *   --tables 4000 --think-ms 500-1500   4,000 tables, 16,000 WebSockets, players thinking
 *   --tables 1000 --think-ms 0          saturated: accepted moves per second, every
 *                                       seat's push sent
 *
 * It starts `gateau serve --port 0 --db FILE --quiet --connections N` on a
 * new database (or uses the server at --url; given twice, two servers on
 * one PostgreSQL database, event loop i playing on the (i mod 2)th), with
 * N at least 20,000 (--connections: by default every WebSocket and
 * pooled connection and a quarter more).  The limits per client address
 * keep their defaults (128 connections, 64 WebSockets, 100 requests a
 * second in bursts of 400, 30 tables a minute): the load comes from many
 * client addresses, as it would from many players, each connection
 * bound (bind() before connect()) to one of --addresses source
 * addresses, 127.0.0.2, 127.0.0.3, ... 127.0.0.254, then 127.0.1.2 ...
 * (all loopback).  By default enough of them that no address holds more
 * than 32 WebSockets nor more than 2 of the pooled connections (whose
 * requests go round them all), so no limit is reached: at least the 253
 * of 127.0.0.2-254.  --one-address sends everything from 127.0.0.1
 * instead and starts the server with `--address-connections 0
 * --address-websockets 0 --address-requests 0 --address-tables 0` (the
 * limits off).  It raises its own RLIMIT_NOFILE (which the server
 * inherits) to the hard limit, and past it when the load needs more and
 * it may (as root).
 *
 * It makes N tables of the game whose seats are all "human", and plays
 * every seat itself: one WebSocket per seat, and a pool of HTTP/1.1
 * keep-alive connections for the requests.  Tokens travel as the
 * contract says (docs/server.md): `Authorization: Bearer T` on requests,
 * and a WebSocket (`/api/tables/ID/ws`, no query) sends {"token": "T"}
 * as its first message.  A seat whose push says it is to move waits its
 * think time (uniform in A-B ms; 0: not at all), builds its move from the
 * server's legal actions alone (the push's first actions, then GET
 * .../legal?after= until the move is complete, as a client with no rules
 * would) and posts it.  Tables that end are replaced by new ones, so the
 * count stays the same.  A 429 is retried after a pause; a WebSocket
 * closed with 1013 (or 1001) reconnects after one; so does one closed
 * with any other code or without a close frame, but those are counted
 * and reported (in --durability they are a failure); a refused upgrade
 * other than 429 is a failure.
 *
 * With thinking, the first tables play their first moves (a random number
 * up to --warm-moves, 60 by default) without thinking before the window,
 * so that it sees games at every stage, ending and being replaced one by
 * one.  Measured over S seconds once every table is open: moves accepted
 * (200) per second; the latency of a move, from its POST being sent to
 * each other seat's first push of a later version than the one it was
 * posted at (3 pushes a move with 4 players; the same definition as
 * before the event loop); that every seat, the mover included, got a push
 * of every accepted move (after the window no seat moves, and the pushes
 * of the window's last moves are awaited up to 15 s: what never came is
 * "missing"); the server's peak memory (VmHWM, and VmRSS sampled every
 * 0.25 s) and CPU time (from /proc), the time its threads waited for a
 * core (schedstat: the host's share of a latency), and its busiest
 * thread's (the event loop); this program's own CPU time per move; the
 * host's load average.  A setup that takes longer than --setup-limit
 * (600 s) is given up: the report says how far it got.  --server-arg
 * passes one more argument to `gateau serve` (diagnostics, such as
 * --websocket-ping 0).  --latency-log FILE writes each latency of the
 * window as a line "SENT MS" (SENT: the POST's CLOCK_MONOTONIC seconds),
 * to see when a tail happens: the pings of 16,000 sockets at once were
 * found so.
 *
 * Memory per connection: the setup goes in steps, and the server's VmRSS
 * is read after each: started (no table, no connection); every table
 * made (and the pool's connections open); every WebSocket open and its
 * first snapshot received (no move played yet).  The report gives the
 * WebSockets' share (the last step's growth per WebSocket), and the whole
 * growth from the idle server to its peak (VmHWM) per open connection
 * (WebSockets and pooled ones; the tables' memory included).
 *
 * It is written in C with non-blocking sockets and epoll, one event loop
 * per thread (--threads, 1 by default), so that it costs little beside the
 * server on the same machine: its CPU time per move is in the report.
 *
 * --durability: the kill -9 test (tests/CMakeLists.txt).  The server is
 * killed (SIGKILL) at random moments, R times, and started again on the
 * same database; after each restart every seat checks, from its whole log
 * pushed again, that every move the server acknowledged (200) is there at
 * its number and by its seat, and that everything pushed before the kill
 * is unchanged.  Then every table is played to its end and every record
 * must pass `gateau replay`.  Exit status 0 when all holds.
 *
 * Traffic goes to the loopback address only.
 */
#define _GNU_SOURCE /* SOCK_NONBLOCK, memmem, PR_SET_PDEATHSIG */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum {
    MAX_SEATS = 6,
    MAX_ACTIONS = 256,        /* legal actions at one decision (GATEAU_MAX_ACTIONS) */
    MAX_MOVE_ACTIONS = 256,   /* actions in one move */
    WATCHES = 8,              /* moves of one table waiting for their pushes */
    HANDSHAKES_AT_ONCE = 64,  /* WebSocket upgrades in flight per loop */
    MAX_LOOPS = 8,
    MAX_SERVER_ARGS = 16,
    DRAIN_SECONDS = 15,       /* after the window: the last moves' pushes, at most this long */
    RETRY_MS = 50,            /* after a 429 */
    RECONNECT_MS = 250,       /* after a WebSocket closed with 1013 (try again later) */
    MIN_CONNECTIONS = 20000,  /* the server's --connections, at least */
    /* Source addresses by default: at most this many WebSockets, and pooled
     * connections, on one (half the server's default limits, and less). */
    WEBSOCKETS_PER_ADDRESS = 32,
    POOLED_PER_ADDRESS = 2,
    MIN_ADDRESSES = 253,      /* 127.0.0.2 - 127.0.0.254 */
    MAX_ADDRESSES = 253 * 256 /* 127.0.0.2 - 127.0.255.254 */
};

/* ---- Time ---------------------------------------------------------------------------- */

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double cpu_seconds(void)
{
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec * 1e-6 +
           (double)usage.ru_stime.tv_sec + (double)usage.ru_stime.tv_usec * 1e-6;
}

static void sleep_seconds(double seconds)
{
    if (seconds <= 0) return;
    struct timespec pause = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    while (nanosleep(&pause, &pause) != 0 && errno == EINTR) {
    }
}

static void *checked(void *pointer)
{
    if (!pointer) {
        fprintf(stderr, "gateau_bench_server: out of memory\n");
        exit(2);
    }
    return pointer;
}

/* ---- Options ----------------------------------------------------------------------------- */

typedef struct options {
    int tables;
    int think_min, think_max; /* milliseconds */
    double seconds;
    const char *game;
    int players;
    int threads;              /* event loops */
    int http;                 /* keep-alive connections per loop; 0: by the load */
    int connections;          /* the server's --connections; 0: by the load */
    int addresses;            /* source addresses; 0: by the load */
    bool one_address;         /* from 127.0.0.1 only, the server's limits per address off */
    int port;                 /* --url: a server that runs already */
    /* --url given twice: two servers on one database (PostgreSQL); event
     * loop i plays its tables on ports[i % 2], so each server gets half. */
    int ports[2], port_count;
    const char *gateau;       /* the gateau command */
    const char *db;           /* the database; NULL: a new one, removed after */
    uint64_t seed;
    bool durability;
    int rounds;
    int warm_moves;           /* the first tables start up to this far into their games */
    double setup_limit;       /* seconds the setup may take before the run is given up */
    /* --server-arg: more arguments for `gateau serve` (diagnostics, such
     * as --websocket-ping 0). */
    const char *server_args[MAX_SERVER_ARGS];
    int server_arg_count;
} options;

/* --latency-log: each measured latency, with the time its POST was sent. */
static FILE *latency_log;

static void usage(void)
{
    fprintf(stderr,
            "usage: gateau_bench_server [--tables N] [--think-ms A-B] [--seconds S] [--game G]\n"
            "         [--players P] [--threads T] [--http N] [--connections N]\n"
            "         [--addresses N | --one-address]\n"
            "         [--url http://127.0.0.1:PORT [--url ...]] [--gateau PATH] [--db FILE] [--seed S]\n"
            "         [--warm-moves N] [--setup-limit S] [--server-arg ARG ...]\n"
            "         [--latency-log FILE]\n"
            "       gateau_bench_server --durability [--rounds R] [--tables N] [--think-ms A-B]\n");
    exit(2);
}

static long number_argument(const char *flag, const char *text, long min, long max)
{
    char *end;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno || end == text || *end || value < min || value > max) {
        fprintf(stderr, "gateau_bench_server: %s: '%s' is not a whole number in %ld..%ld\n", flag,
                text, min, max);
        exit(2);
    }
    return value;
}

/* "A-B" or "A" milliseconds. */
static void think_argument(const char *text, options *chosen)
{
    int a, b, used = 0;
    if (sscanf(text, "%d-%d%n", &a, &b, &used) == 2 && !text[used] && a >= 0 && b >= a) {
        chosen->think_min = a, chosen->think_max = b;
    } else if (sscanf(text, "%d%n", &a, &used) == 1 && !text[used] && a >= 0) {
        chosen->think_min = chosen->think_max = a;
    } else {
        fprintf(stderr, "gateau_bench_server: --think-ms: '%s' is not A-B milliseconds "
                "(such as 500-1500, or 0)\n", text);
        exit(2);
    }
}

/* Only a server on this machine: the load goes to loopback, nowhere else. */
static int url_port(const char *url)
{
    const char *hosts[] = {"http://127.0.0.1:", "http://localhost:"};
    for (size_t i = 0; i < sizeof hosts / sizeof hosts[0]; i++) {
        size_t length = strlen(hosts[i]);
        if (!strncmp(url, hosts[i], length)) {
            char port[16];
            snprintf(port, sizeof port, "%.*s", (int)strcspn(url + length, "/"), url + length);
            return (int)number_argument("--url", port, 1, 65535);
        }
    }
    fprintf(stderr, "gateau_bench_server: --url: '%s' is not http://127.0.0.1:PORT (the load "
            "goes to this machine only)\n", url);
    exit(2);
}

static options parse_options(int argc, char **argv)
{
    options chosen = {.tables = 1000, .think_min = 500, .think_max = 1500, .seconds = 60,
                      .game = "maries-table", .players = 4, .threads = 1, .seed = 1,
                      .rounds = 10, .warm_moves = 60, .setup_limit = 600};
    bool tables_given = false, think_given = false;
    for (int i = 1; i < argc; i++) {
        const char *flag = argv[i];
        if (!strcmp(flag, "--durability")) {
            chosen.durability = true;
            continue;
        }
        if (!strcmp(flag, "--one-address")) {
            chosen.one_address = true;
            continue;
        }
        if (i + 1 >= argc) usage();
        const char *value = argv[++i];
        if (!strcmp(flag, "--tables")) {
            chosen.tables = (int)number_argument(flag, value, 1, 100000);
            tables_given = true;
        } else if (!strcmp(flag, "--think-ms")) {
            think_argument(value, &chosen);
            think_given = true;
        } else if (!strcmp(flag, "--seconds")) {
            char *end;
            chosen.seconds = strtod(value, &end);
            if (*end || end == value || !(chosen.seconds > 0)) {
                fprintf(stderr, "gateau_bench_server: --seconds: '%s' is not a duration\n", value);
                exit(2);
            }
        } else if (!strcmp(flag, "--game")) {
            chosen.game = value;
        } else if (!strcmp(flag, "--players")) {
            chosen.players = (int)number_argument(flag, value, 1, MAX_SEATS);
        } else if (!strcmp(flag, "--threads")) {
            chosen.threads = (int)number_argument(flag, value, 1, MAX_LOOPS);
        } else if (!strcmp(flag, "--http")) {
            chosen.http = (int)number_argument(flag, value, 1, 4096);
        } else if (!strcmp(flag, "--connections")) {
            chosen.connections = (int)number_argument(flag, value, 1, 1000000);
        } else if (!strcmp(flag, "--addresses")) {
            chosen.addresses = (int)number_argument(flag, value, 1, MAX_ADDRESSES);
        } else if (!strcmp(flag, "--url")) {
            if (chosen.port_count == 2) {
                fprintf(stderr, "gateau_bench_server: --url: at most two servers\n");
                exit(2);
            }
            chosen.port = chosen.ports[chosen.port_count++] = url_port(value);
            chosen.port = chosen.ports[0];
        } else if (!strcmp(flag, "--gateau")) {
            chosen.gateau = value;
        } else if (!strcmp(flag, "--db")) {
            chosen.db = value;
        } else if (!strcmp(flag, "--seed")) {
            chosen.seed = (uint64_t)number_argument(flag, value, 0, LONG_MAX);
        } else if (!strcmp(flag, "--latency-log")) {
            if (!(latency_log = fopen(value, "w"))) {
                fprintf(stderr, "gateau_bench_server: --latency-log: cannot write %s: %s\n", value,
                        strerror(errno));
                exit(2);
            }
        } else if (!strcmp(flag, "--warm-moves")) {
            chosen.warm_moves = (int)number_argument(flag, value, 0, 100000);
        } else if (!strcmp(flag, "--setup-limit")) {
            chosen.setup_limit = (double)number_argument(flag, value, 1, 86400);
        } else if (!strcmp(flag, "--server-arg")) {
            if (chosen.server_arg_count == MAX_SERVER_ARGS) {
                fprintf(stderr, "gateau_bench_server: --server-arg: at most %d\n", MAX_SERVER_ARGS);
                exit(2);
            }
            chosen.server_args[chosen.server_arg_count++] = value;
        } else if (!strcmp(flag, "--rounds")) {
            chosen.rounds = (int)number_argument(flag, value, 1, 1000);
        } else {
            usage();
        }
    }
    if (chosen.durability) {
        /* Small and quick by default: it runs in the test suite. */
        if (!tables_given) chosen.tables = 24;
        if (!think_given) chosen.think_min = 0, chosen.think_max = 5;
        chosen.threads = 1;
        if (chosen.port) {
            fprintf(stderr, "gateau_bench_server: --durability starts and kills its own server "
                    "(no --url)\n");
            exit(2);
        }
    }
    if (chosen.port_count == 2 && chosen.threads % 2) chosen.threads++; /* (a loop per server) */
    if (chosen.tables < chosen.threads) chosen.threads = chosen.tables;
    if (!chosen.http) {
        /* A connection per table (from 64 to 1024 per loop): the pool's
         * requests go round all of them, and so over many source
         * addresses, each far under the server's 100 requests a second
         * (saturated, some 20,000 requests a second in all). */
        int per_loop = chosen.tables / chosen.threads;
        chosen.http = per_loop < 64 ? 64 : per_loop > 1024 ? 1024 : per_loop;
    }
    int websockets = chosen.tables * chosen.players, pooled = chosen.http * chosen.threads;
    if (!chosen.connections) {
        int needed = websockets + pooled + 64;
        chosen.connections = needed + needed / 4;
        if (chosen.connections < MIN_CONNECTIONS) chosen.connections = MIN_CONNECTIONS;
    }
    if (chosen.one_address) {
        chosen.addresses = 1;
    } else if (!chosen.addresses) {
        int by_websockets = (websockets + WEBSOCKETS_PER_ADDRESS - 1) / WEBSOCKETS_PER_ADDRESS;
        int by_pool = (pooled + POOLED_PER_ADDRESS - 1) / POOLED_PER_ADDRESS;
        chosen.addresses = MIN_ADDRESSES;
        if (by_websockets > chosen.addresses) chosen.addresses = by_websockets;
        if (by_pool > chosen.addresses) chosen.addresses = by_pool;
        if (chosen.addresses > MAX_ADDRESSES) chosen.addresses = MAX_ADDRESSES;
    }
    return chosen;
}

/* ---- A little JSON reading -------------------------------------------------------------- */
/*
 * The server's answers are compact JSON; only a few fields matter here.
 * A scanner over the bytes costs far less than building a tree of every
 * push (the program measures a server, not itself).
 */

static const char *skip_space(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) p++;
    return p;
}

/* p at a '"': just past the closing one, or NULL. */
static const char *skip_string(const char *p, const char *end)
{
    for (p++; p < end; p++) {
        if (*p == '\\') p++;
        else if (*p == '"') return p + 1;
    }
    return NULL;
}

/* Past the value at p, or NULL. */
static const char *skip_value(const char *p, const char *end)
{
    p = skip_space(p, end);
    if (p >= end) return NULL;
    if (*p == '"') return skip_string(p, end);
    if (*p == '{' || *p == '[') {
        /* A table of the bytes that matter inside (most bytes of a push
         * are in its view, skipped here: one lookup a byte, not five
         * comparisons; this scan was a sixth of the program's time). */
        static const unsigned char structural[256] = {['"'] = 1, ['{'] = 2, ['['] = 2,
                                                      ['}'] = 3, [']'] = 3};
        int depth = 0;
        while (p < end) {
            switch (structural[(unsigned char)*p]) {
            case 0: p++; continue;
            case 1:
                if (!(p = skip_string(p, end))) return NULL;
                continue;
            case 2: depth++; break;
            default:
                if (--depth == 0) return p + 1;
            }
            p++;
        }
        return NULL;
    }
    const char *start = p;
    while (p < end && !strchr(",}] \t\r\n", *p)) p++;
    return p > start ? p : NULL;
}

/* Calls visit on each member of the object at p (keys without escapes, as
 * the server's are).  False when it is not an object. */
typedef void (*member_visitor)(void *context, const char *key, size_t key_length,
                               const char *value, const char *value_end);

static bool each_member(const char *p, const char *end, member_visitor visit, void *context)
{
    p = skip_space(p, end);
    if (p >= end || *p != '{') return false;
    p = skip_space(p + 1, end);
    if (p < end && *p == '}') return true;
    while (p < end) {
        if (*p != '"') return false;
        const char *key = p + 1, *after = skip_string(p, end);
        if (!after) return false;
        p = skip_space(after, end);
        if (p >= end || *p != ':') return false;
        const char *value = skip_space(p + 1, end), *value_end = skip_value(value, end);
        if (!value_end) return false;
        visit(context, key, (size_t)(after - 1 - key), value, value_end);
        p = skip_space(value_end, end);
        if (p < end && *p == '}') return true;
        if (p >= end || *p != ',') return false;
        p = skip_space(p + 1, end);
    }
    return false;
}

/* Calls visit on each item of the array at p. */
typedef void (*item_visitor)(void *context, const char *value, const char *value_end);

static bool each_item(const char *p, const char *end, item_visitor visit, void *context)
{
    p = skip_space(p, end);
    if (p >= end || *p != '[') return false;
    p = skip_space(p + 1, end);
    if (p < end && *p == ']') return true;
    while (p < end) {
        const char *value_end = skip_value(p, end);
        if (!value_end) return false;
        visit(context, p, value_end);
        p = skip_space(value_end, end);
        if (p < end && *p == ']') return true;
        if (p >= end || *p != ',') return false;
        p = skip_space(p + 1, end);
    }
    return false;
}

static bool key_is(const char *key, size_t length, const char *name)
{
    return strlen(name) == length && !memcmp(key, name, length);
}

/* A whole number; -1 for anything else (null included). */
static long json_number(const char *value, const char *end)
{
    long number = 0;
    if (value >= end || *value < '0' || *value > '9') return -1;
    for (; value < end && *value >= '0' && *value <= '9'; value++) number = number * 10 + *value - '0';
    return number;
}

/* A string without escapes into out (size bytes); false otherwise. */
static bool json_text(const char *value, const char *end, char *out, size_t size)
{
    if (end - value < 2 || *value != '"' || end[-1] != '"') return false;
    size_t length = (size_t)(end - value - 2);
    if (length >= size || memchr(value + 1, '\\', length)) return false;
    memcpy(out, value + 1, length);
    out[length] = '\0';
    return true;
}

/* One log entry's raw bytes, and its seat (-1 for chance). */
typedef struct log_entry {
    const char *start, *end;
    int seat;
} log_entry;

/* What a push (or an answer of the legal endpoint) says. */
typedef struct summary {
    int version;
    int move; /* a move's answer: the number the move was stored as (-1: none) */
    bool over, complete, has_legal;
    int legal[MAX_ACTIONS];
    bool legal_complete[MAX_ACTIONS]; /* the action ends the move ("complete": true) */
    int legal_count;
    int log_start;
    log_entry *log; /* when asked for (log_capacity > 0) */
    int log_count, log_capacity;
    bool log_truncated;
} summary;

static void read_legal_item(void *context, const char *value, const char *end);
static void read_log_item(void *context, const char *value, const char *end);

static void read_legal_member(void *context, const char *key, size_t length, const char *value,
                              const char *end)
{
    summary *read = context;
    if (key_is(key, length, "action") && read->legal_count < MAX_ACTIONS) {
        read->legal_complete[read->legal_count] = false;
        read->legal[read->legal_count++] = (int)json_number(value, end);
    } else if (key_is(key, length, "complete") && read->legal_count > 0) {
        read->legal_complete[read->legal_count - 1] = *value == 't';
    }
}

static void read_legal_item(void *context, const char *value, const char *end)
{
    each_member(value, end, read_legal_member, context);
}

static void read_entry_member(void *context, const char *key, size_t length, const char *value,
                              const char *end)
{
    log_entry *entry = context;
    if (key_is(key, length, "seat")) entry->seat = (int)json_number(value, end) - 1;
}

static void read_log_item(void *context, const char *value, const char *end)
{
    summary *read = context;
    if (read->log_count == read->log_capacity) {
        read->log_truncated = true;
        return;
    }
    log_entry *entry = &read->log[read->log_count++];
    entry->start = value, entry->end = end, entry->seat = -1;
    each_member(value, end, read_entry_member, entry);
}

static void read_member(void *context, const char *key, size_t length, const char *value,
                        const char *end)
{
    summary *read = context;
    if (key_is(key, length, "version")) {
        read->version = (int)json_number(value, end);
    } else if (key_is(key, length, "move") && *value != '{' && *value != 'n') {
        read->move = (int)json_number(value, end);
    } else if (key_is(key, length, "over")) {
        read->over = *value == 't';
    } else if (key_is(key, length, "complete")) {
        read->complete = *value == 't';
    } else if (key_is(key, length, "legal")) {
        read->has_legal = true;
        each_item(value, end, read_legal_item, read);
    } else if (key_is(key, length, "log_start")) {
        read->log_start = (int)json_number(value, end);
    } else if (key_is(key, length, "log") && read->log_capacity) {
        each_item(value, end, read_log_item, read);
    }
}

/* Reads text into read (whose log and log_capacity the caller sets, or
 * leaves 0): false when it is not a JSON object. */
static bool summarize(const char *text, size_t length, summary *read)
{
    read->version = -1;
    read->over = read->complete = read->has_legal = read->log_truncated = false;
    read->legal_count = read->log_start = read->log_count = 0;
    return each_member(text, text + length, read_member, read);
}

/* ---- Buffers ------------------------------------------------------------------------------ */

typedef struct buffer {
    char *data;
    size_t start, length, capacity; /* bytes [start, length) are pending */
} buffer;

static void buffer_reserve(buffer *b, size_t more)
{
    if (b->start && b->start == b->length) b->start = b->length = 0;
    if (b->length + more <= b->capacity) return;
    if (b->start) {
        memmove(b->data, b->data + b->start, b->length - b->start);
        b->length -= b->start;
        b->start = 0;
        if (b->length + more <= b->capacity) return;
    }
    size_t capacity = b->capacity ? b->capacity : 4096;
    while (capacity < b->length + more) capacity *= 2;
    b->data = checked(realloc(b->data, capacity));
    b->capacity = capacity;
}

static void buffer_append(buffer *b, const void *data, size_t length)
{
    buffer_reserve(b, length);
    memcpy(b->data + b->length, data, length);
    b->length += length;
}

static size_t buffer_pending(const buffer *b) { return b->length - b->start; }
static char *buffer_head(const buffer *b) { return b->data + b->start; }

/* ---- The load generator's state ------------------------------------------------------------ */

typedef struct loop loop;
typedef struct table table;
typedef struct seat seat;
typedef struct request request;

typedef enum { LINK_HTTP, LINK_WEBSOCKET } link_kind;

/* One connection to the server. */
typedef struct connection {
    loop *owner;
    link_kind kind;
    int fd;
    bool connected, upgraded, writing, dead;
    bool answered;         /* a WebSocket's upgrade was answered (refused) */
    buffer in, out;
    seat *seat;            /* a WebSocket's */
    request *current;      /* an HTTP connection's request in flight */
    int slot;              /* an HTTP connection's place in the pool */
    buffer message;        /* a WebSocket message's fragments so far */
    bool in_message;
    int close_code;        /* the server's close frame's (1005: none named), 0 before */
    int connect_error;     /* why it could not connect (errno) */
    struct connection *next_dead;
} connection;

typedef enum { ASK_CREATE, ASK_LEGAL, ASK_MOVE, ASK_RECORD } ask_kind;

/* Who a timer is for: a seat's think time (or a retry after 429), a
 * table's creation to try again, a seat's WebSocket to open again. */
typedef enum { TIMER_THINK, TIMER_CREATE, TIMER_RECONNECT } timer_kind;

struct request {
    request *next;
    ask_kind kind;
    table *table;
    unsigned generation;   /* the table's when asked: a later table ignores the answer */
    int seat;
    unsigned epoch;        /* the seat's when asked */
    char *text;
    size_t length;
    int watch;             /* a move's watch, or -1 */
    int version;           /* the version a move was posted at */
};

typedef enum { SEAT_WAITING, SEAT_THINKING, SEAT_BUILDING, SEAT_POSTING } seat_phase;

struct seat {
    table *table;
    int index;
    char token[64];
    connection *ws;
    bool queued_to_open;   /* waiting for a WebSocket upgrade slot */
    bool fresh;            /* its next push is a whole snapshot (a new connection) */
    bool over;
    int version;           /* the latest a push said */
    bool to_move;          /* that push had "legal" */
    int legal[MAX_ACTIONS];
    bool legal_complete[MAX_ACTIONS];
    int legal_count;
    seat_phase phase;
    unsigned epoch;        /* timers and answers from before a reset are ignored */
    int act_from;          /* moves only on pushes of this version or later */
    bool hurry;            /* a stale move: build again at once, no thinking */
    int move[MAX_MOVE_ACTIONS];
    int move_length;
    int build_version;     /* the version its move is being built at */
    /* --durability: every log entry pushed (raw JSON, by number), and the
     * numbers of the moves the server acknowledged. */
    char **seen;
    int seen_count, seen_capacity;
    int *acknowledged;
    int acknowledged_count, acknowledged_capacity;
};

/* A move posted and the other seats' pushes it waits for. */
typedef struct watch {
    bool used, accepted, measured;
    int seat, version;
    double sent;
    double arrived[MAX_SEATS]; /* 0: not yet */
} watch;

struct table {
    loop *owner;
    unsigned generation;
    /* The first tables play their first moves without thinking, up to a
     * version drawn at random, so that the measured window sees tables at
     * every point of their games (and ending one by one), not a thousand
     * tables in step that all end, and are all replaced, at once. */
    int warm_until;
    char id[32];
    bool exists;           /* the server answered 201 */
    bool creating;
    int seats_over;
    seat seats[MAX_SEATS];
    watch watches[WATCHES];
};

/* What one loop counted during the measured window. */
typedef struct counts {
    long accepted, stale, illegal, throttled, failed, legal_requests, posts, creates;
    long messages, message_bytes, tables_finished, unwatched, missing, refused_upgrades;
    long closed_1013, closed_other;   /* WebSockets the server closed (1013: try again) */
    long unanswered;                  /* posts of the window never answered */
    long closed_silently;             /* WebSockets that broke without a close frame */
    long closed_by_code[16];          /* closes by code, 1000-1015 */
    uint32_t *latencies; /* microseconds */
    size_t latency_count, latency_capacity;
} counts;

typedef struct timer {
    double due;
    timer_kind kind;
    seat *seat;            /* TIMER_THINK, TIMER_RECONNECT */
    table *table;
    unsigned epoch;        /* the seat's (TIMER_THINK), else the table's generation */
} timer;

struct loop {
    const options *chosen;
    int index;              /* among the loops */
    int first_table;        /* its first table's number among every loop's */
    int epoll;
    int port;
    uint64_t random;
    table *tables;
    int table_count;
    connection **pool;
    /* Pool slots free for a request, in the order they became free: a
     * ring, so that the load spreads over every connection (a stack would
     * send most requests down the same few, into the server's limit of
     * 200 a second per connection). */
    int *idle, idle_first, idle_count;
    request *queue, *queue_tail;
    seat **to_open;         /* seats waiting for a WebSocket upgrade slot */
    int to_open_count, to_open_capacity, to_open_next, handshakes;
    timer *timers;
    int timer_count, timer_capacity;
    connection *dead;             /* closed during this round of events, freed after it */
    bool replace;           /* a table that ends gets a new one */
    /* The setup's steps (the server's memory is read between them): the
     * tables are made first, their WebSockets opened once open_sockets,
     * and the seats move once playing.  (--durability: all at once.) */
    bool open_sockets, playing;
    atomic_int step;        /* the last step done: 1 tables made, 2 WebSockets open */
    _Atomic int *permit;    /* the main thread's: the step that may begin */
    long failures_told;     /* lines about lost WebSockets printed */
    bool server_down;       /* --durability: between a kill and the restart */
    counts counted;
    /* The window: moves are counted between window_start and window_end
     * (set by the main thread). */
    _Atomic double *window_start, *window_end;
    _Atomic bool *stop;
    atomic_bool ready;
    atomic_bool drained;    /* after the window: every measured move settled, or time ran out */
    /* Finished tables' ids (--durability replays their records). */
    char (*finished)[32];
    int finished_count, finished_capacity;
    long acknowledged_total, verified, violations, unknown_outcome;
};

static uint64_t next_random(loop *l)
{
    l->random ^= l->random << 13;
    l->random ^= l->random >> 7;
    l->random ^= l->random << 17;
    return l->random;
}

static bool in_window(const loop *l, double t)
{
    double start = atomic_load(l->window_start), end = atomic_load(l->window_end);
    return start > 0 && t >= start && (end <= 0 || t < end);
}

/* Counts an event of the measured window (not of the setup). */
/* The window is over (never in --durability, which has none). */
static bool window_over(const loop *l)
{
    double end = atomic_load(l->window_end);
    return !l->chosen->durability && end > 0 && now_seconds() >= end;
}

static void count_in_window(const loop *l, long *counter)
{
    if (in_window(l, now_seconds())) (*counter)++;
}

/* ---- Timers: a binary heap by due time -------------------------------------------------- */

static void timer_add(loop *l, timer_kind kind, seat *s, table *t, double due)
{
    if (l->timer_count == l->timer_capacity) {
        l->timer_capacity = l->timer_capacity ? 2 * l->timer_capacity : 1024;
        l->timers = checked(realloc(l->timers, sizeof *l->timers * (size_t)l->timer_capacity));
    }
    int i = l->timer_count++;
    while (i > 0 && l->timers[(i - 1) / 2].due > due) {
        l->timers[i] = l->timers[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    l->timers[i] = (timer){due, kind, s, t ? t : s->table,
                           kind == TIMER_THINK ? s->epoch : (t ? t : s->table)->generation};
}

static timer timer_pop(loop *l)
{
    timer top = l->timers[0], last = l->timers[--l->timer_count];
    int i = 0;
    for (;;) {
        int child = 2 * i + 1;
        if (child >= l->timer_count) break;
        if (child + 1 < l->timer_count && l->timers[child + 1].due < l->timers[child].due) child++;
        if (l->timers[child].due >= last.due) break;
        l->timers[i] = l->timers[child];
        i = child;
    }
    if (l->timer_count) l->timers[i] = last;
    return top;
}

/* ---- Connections ------------------------------------------------------------------------------ */

static void link_watch_writes(connection *k, bool on)
{
    if (k->writing == on) return;
    k->writing = on;
    struct epoll_event event = {.events = EPOLLIN | (on ? EPOLLOUT : 0), .data.ptr = k};
    epoll_ctl(k->owner->epoll, EPOLL_CTL_MOD, k->fd, &event);
}

/* The source address of connection number n (host order): 127.0.0.1 with
 * --one-address, else one of the spread, 127.0.(i / 253).(2 + i % 253)
 * for i = n mod --addresses. */
static uint32_t source_address(const options *chosen, long n)
{
    if (chosen->one_address || chosen->addresses < 1) return INADDR_LOOPBACK;
    uint32_t i = (uint32_t)(n % chosen->addresses);
    return 127u << 24 | (i / 253) << 8 | (2 + i % 253);
}

static connection *link_open(loop *l, link_kind kind, uint32_t source)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        fprintf(stderr, "gateau_bench_server: socket: %s\n", strerror(errno));
        exit(2);
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (source != INADDR_LOOPBACK) {
        /* The port is chosen at connect(), per destination: thousands of
         * connections from one address need no port of their own each. */
#ifdef IP_BIND_ADDRESS_NO_PORT
        setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
#endif
        struct sockaddr_in from = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(source)};
        if (bind(fd, (struct sockaddr *)&from, sizeof from) != 0) {
            char text[INET_ADDRSTRLEN];
            inet_ntop(AF_INET, &from.sin_addr, text, sizeof text);
            fprintf(stderr, "gateau_bench_server: cannot bind to %s: %s\n", text, strerror(errno));
            exit(2);
        }
    }
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)l->port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connection *k = checked(calloc(1, sizeof *k));
    k->owner = l, k->kind = kind, k->fd = fd, k->slot = -1;
    int status = connect(fd, (struct sockaddr *)&address, sizeof address);
    k->connected = status == 0;
    k->writing = !k->connected; /* the connection's end is told by EPOLLOUT */
    if (status != 0 && errno != EINPROGRESS) k->dead = true, k->connect_error = errno;
    struct epoll_event event = {.events = EPOLLIN | (k->writing ? EPOLLOUT : 0), .data.ptr = k};
    epoll_ctl(l->epoll, EPOLL_CTL_ADD, fd, &event);
    return k;
}

/* Closes k; its memory goes after this round of events (which may still
 * name it). */
static void link_close(connection *k)
{
    if (k->fd < 0) return;
    epoll_ctl(k->owner->epoll, EPOLL_CTL_DEL, k->fd, NULL);
    close(k->fd);
    k->fd = -1;
    k->dead = true;
    k->next_dead = k->owner->dead;
    k->owner->dead = k;
}

static void links_bury(loop *l)
{
    while (l->dead) {
        connection *k = l->dead;
        l->dead = k->next_dead;
        free(k->in.data);
        free(k->out.data);
        free(k->message.data);
        free(k);
    }
}

/* Sends what is pending: false when the connection failed. */
static bool link_flush(connection *k)
{
    while (k->connected && buffer_pending(&k->out)) {
        ssize_t sent = send(k->fd, buffer_head(&k->out), buffer_pending(&k->out), MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR) continue;
        if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        if (sent <= 0) return false;
        k->out.start += (size_t)sent;
    }
    if (k->connected) link_watch_writes(k, buffer_pending(&k->out) > 0);
    return true;
}

static void link_failed(connection *k);

static void link_send(connection *k, const char *data, size_t length)
{
    buffer_append(&k->out, data, length);
    if (k->connected && !link_flush(k)) link_failed(k);
}

/* ---- HTTP: the pool of keep-alive connections ------------------------------------------------ */

static void request_done(request *r, int status, const char *body, size_t length);

static void pool_send(loop *l, int slot, request *r)
{
    connection *k = l->pool[slot];
    if (!k) {
        k = l->pool[slot] = link_open(l, LINK_HTTP,
                                      source_address(l->chosen, (long)l->index * l->chosen->http + slot));
        k->slot = slot;
    }
    k->current = r;
    if (r->kind == ASK_MOVE && r->watch >= 0) {
        /* The latency runs from here: the POST is on its way. */
        watch *w = &r->table->watches[r->watch];
        w->sent = now_seconds();
        w->measured = in_window(l, w->sent);
        if (w->measured) l->counted.posts++;
    }
    if (k->dead) {
        link_failed(k);
        return;
    }
    link_send(k, r->text, r->length);
}

static void submit(loop *l, request *r)
{
    if (l->idle_count) {
        int slot = l->idle[l->idle_first];
        l->idle_first = (l->idle_first + 1) % l->chosen->http;
        l->idle_count--;
        pool_send(l, slot, r);
        return;
    }
    r->next = NULL;
    if (l->queue_tail) l->queue_tail->next = r;
    else l->queue = r;
    l->queue_tail = r;
}

/* A pool connection is free: the next request waiting, or idle. */
static void pool_free_slot(loop *l, int slot)
{
    request *r = l->queue;
    if (r && !l->server_down) {
        l->queue = r->next;
        if (!l->queue) l->queue_tail = NULL;
        pool_send(l, slot, r);
        return;
    }
    l->idle[(l->idle_first + l->idle_count++) % l->chosen->http] = slot;
}

/* A request; token (a seat's, or NULL) goes in `Authorization: Bearer`,
 * never in the URL (docs/server.md). */
static request *new_request(table *t, ask_kind kind, int seat_index, const char *method,
                            const char *path, const char *token, const char *body)
{
    request *r = checked(calloc(1, sizeof *r));
    r->kind = kind, r->table = t, r->generation = t->generation, r->seat = seat_index;
    r->epoch = seat_index >= 0 ? t->seats[seat_index].epoch : 0;
    r->watch = -1;
    size_t body_length = body ? strlen(body) : 0;
    size_t size = strlen(path) + body_length + (token ? strlen(token) : 0) + 200;
    r->text = checked(malloc(size));
    int length = snprintf(r->text, size, "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n", method, path,
                          t->owner->port);
    if (token)
        length += snprintf(r->text + length, size - (size_t)length,
                           "Authorization: Bearer %s\r\n", token);
    if (body)
        length += snprintf(r->text + length, size - (size_t)length,
                           "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
                           body_length, body);
    else
        length += snprintf(r->text + length, size - (size_t)length, "\r\n");
    r->length = (size_t)length;
    return r;
}

static void request_free(request *r)
{
    free(r->text);
    free(r);
}

/* A header's value (name with its colon), or NULL. */
static const char *header_find(const char *head, size_t length, const char *name)
{
    size_t name_length = strlen(name);
    for (const char *p = head; p + name_length < head + length; p++) {
        if (p[0] == '\n' && !strncasecmp(p + 1, name, name_length)) {
            p += 1 + name_length;
            while (*p == ' ' || *p == '\t') p++;
            return p;
        }
    }
    return NULL;
}

/* A header's value as a number, or -1. */
static long header_number(const char *head, size_t length, const char *name)
{
    const char *value = header_find(head, length, name);
    return value ? strtol(value, NULL, 10) : -1;
}

/* A chunked body (RFC 9112 7.1) at p: its bytes put together into out,
 * and the bytes it took in *used; 0 when it has not all come yet, -1 when
 * it is not chunked right. */
static int dechunk(const char *p, size_t available, buffer *out, size_t *used)
{
    size_t at = 0;
    out->start = out->length = 0;
    for (;;) {
        const char *line_end = memmem(p + at, available - at, "\r\n", 2);
        if (!line_end) return 0;
        char *digits_end;
        unsigned long size = strtoul(p + at, &digits_end, 16);
        if (digits_end == p + at) return -1;
        at = (size_t)(line_end - p) + 2;
        if (size == 0) {
            /* Trailers (none expected), then the empty line. */
            for (;;) {
                const char *end = memmem(p + at, available - at, "\r\n", 2);
                if (!end) return 0;
                bool empty = end == p + at;
                at = (size_t)(end - p) + 2;
                if (empty) {
                    *used = at;
                    return 1;
                }
            }
        }
        if (available - at < size + 2) return 0;
        buffer_append(out, p + at, size);
        at += size + 2;
    }
}

/* Answers complete in k's buffer go to their requests. */
static void http_readable(connection *k)
{
    loop *l = k->owner;
    while (k->current && buffer_pending(&k->in)) {
        char *head = buffer_head(&k->in);
        size_t pending = buffer_pending(&k->in);
        char *head_end = memmem(head, pending, "\r\n\r\n", 4);
        if (!head_end) return;
        size_t head_length = (size_t)(head_end - head) + 4;
        int status = -1;
        if (sscanf(head, "HTTP/1.%*d %d", &status) != 1) status = -1;
        long body_length = header_number(head, head_length, "Content-Length:");
        const char *encoding = header_find(head, head_length, "Transfer-Encoding:");
        const char *body = head + head_length;
        size_t taken;
        if (encoding && !strncasecmp(encoding, "chunked", 7)) {
            static _Thread_local buffer joined;
            int complete = dechunk(body, pending - head_length, &joined, &taken);
            if (complete == 0) return;
            if (complete < 0) {
                fprintf(stderr, "gateau_bench_server: an answer's chunks are not chunked right\n");
                exit(1);
            }
            buffer_append(&joined, "", 1);
            body = joined.data;
            body_length = (long)joined.length - 1;
            taken += head_length;
        } else if (body_length < 0) {
            link_failed(k); /* every answer of the server says its length */
            return;
        } else {
            if (pending < head_length + (size_t)body_length) return;
            taken = head_length + (size_t)body_length;
        }
        request *r = k->current;
        k->current = NULL;
        request_done(r, status, body, (size_t)body_length);
        request_free(r);
        k->in.start += taken;
        if (k->dead) return;
        pool_free_slot(l, k->slot);
    }
}

/* ---- WebSocket ------------------------------------------------------------------------------- */

static void seat_pushed(seat *s, const char *text, size_t length);
static void seat_lost(seat *s, int close_code);
static void open_next_websockets(loop *l);

/* A seat's place among every loop's seats: its WebSocket's source address. */
static long seat_number(const seat *s)
{
    const loop *l = s->table->owner;
    return ((long)l->first_table + (s->table - l->tables)) * l->chosen->players + s->index;
}

static void websocket_open(loop *l, seat *s)
{
    connection *k = s->ws = link_open(l, LINK_WEBSOCKET, source_address(l->chosen, seat_number(s)));
    k->seat = s;
    s->fresh = true;
    l->handshakes++;
    char request_text[512];
    int length = snprintf(request_text, sizeof request_text,
                          "GET /api/tables/%s/ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                          "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                          "Sec-WebSocket-Version: 13\r\n\r\n",
                          s->table->id, l->port);
    if (k->dead) link_failed(k);
    else link_send(k, request_text, (size_t)length);
}

/* A text message from the client: masked, as a client must. */
static void websocket_send_text(connection *k, const char *text, size_t length)
{
    uint8_t frame[14 + 256];
    if (length > 256) length = 256; /* (a hello: {"token": "..."}) */
    size_t used = 0;
    frame[used++] = 0x81;
    if (length < 126) {
        frame[used++] = (uint8_t)(0x80 | length);
    } else {
        frame[used++] = 0x80 | 126;
        frame[used++] = (uint8_t)(length >> 8);
        frame[used++] = (uint8_t)length;
    }
    static const uint8_t mask[4] = {0x37, 0xfa, 0x21, 0x3d};
    memcpy(frame + used, mask, 4);
    used += 4;
    for (size_t i = 0; i < length; i++) frame[used + i] = (uint8_t)text[i] ^ mask[i % 4];
    link_send(k, (const char *)frame, used + length);
}

/* The first message after the upgrade says who the client is. */
static void websocket_hello(connection *k)
{
    char hello[128];
    int length = snprintf(hello, sizeof hello, "{\"token\":\"%s\"}", k->seat->token);
    websocket_send_text(k, hello, (size_t)length);
}

/* Answers a ping with a pong (masked, as from a client). */
static void websocket_pong(connection *k, const uint8_t *payload, size_t length)
{
    uint8_t frame[2 + 4 + 125];
    if (length > 125) length = 125;
    frame[0] = 0x8a;
    frame[1] = (uint8_t)(0x80 | length);
    memset(frame + 2, 0, 4); /* a zero mask leaves the bytes as they are */
    memcpy(frame + 6, payload, length);
    link_send(k, (const char *)frame, 6 + length);
}

/* The upgrade's answer, then frames. */
static void websocket_readable(connection *k)
{
    loop *l = k->owner;
    if (!k->upgraded) {
        char *head = buffer_head(&k->in);
        char *head_end = memmem(head, buffer_pending(&k->in), "\r\n\r\n", 4);
        if (!head_end) return;
        l->handshakes--;
        if (strncmp(head, "HTTP/1.1 101", 12) != 0) {
            int status = -1;
            sscanf(head, "HTTP/1.%*d %d", &status);
            l->counted.refused_upgrades++;
            if (status != 429 && status != 503 && !l->server_down) {
                /* (429: the address's WebSockets are all open: again later) */
                fprintf(stderr, "gateau_bench_server: table %s seat %d: the upgrade was refused: "
                        "%.*s\n", k->seat ? k->seat->table->id : "?",
                        k->seat ? k->seat->index + 1 : 0, (int)strcspn(head, "\r\n"), head);
                exit(1);
            }
            k->answered = true; /* (the handshake is counted out) */
            k->close_code = -1;
            link_failed(k);
            return;
        }
        k->upgraded = true;
        k->in.start += (size_t)(head_end - head) + 4;
        websocket_hello(k);
        open_next_websockets(l);
    }
    while (!k->dead && buffer_pending(&k->in) >= 2) {
        const uint8_t *frame = (const uint8_t *)buffer_head(&k->in);
        size_t pending = buffer_pending(&k->in), header = 2;
        uint64_t length = frame[1] & 0x7f;
        if (length == 126) {
            if (pending < 4) return;
            length = (uint64_t)frame[2] << 8 | frame[3];
            header = 4;
        } else if (length == 127) {
            if (pending < 10) return;
            length = 0;
            for (int i = 0; i < 8; i++) length = length << 8 | frame[2 + i];
            header = 10;
        }
        if (frame[1] & 0x80) header += 4; /* a server does not mask; skip it if it did */
        if (pending < header + length) return;
        int opcode = frame[0] & 0x0f;
        bool fin = frame[0] & 0x80;
        const char *payload = (const char *)frame + header;
        k->in.start += header + length;
        if (opcode == 0x1 || opcode == 0x2 || opcode == 0x0) {
            /* A message, or a fragment of one. */
            if (opcode != 0x0 && fin) {
                if (k->seat) seat_pushed(k->seat, payload, (size_t)length);
                continue;
            }
            if (opcode != 0x0) k->message.start = k->message.length = 0;
            k->in_message = true;
            buffer_append(&k->message, payload, (size_t)length);
            if (fin) {
                k->in_message = false;
                if (k->seat)
                    seat_pushed(k->seat, buffer_head(&k->message), buffer_pending(&k->message));
                k->message.start = k->message.length = 0;
            }
        } else if (opcode == 0x9) {
            websocket_pong(k, (const uint8_t *)payload, (size_t)length);
        } else if (opcode == 0x8) {
            k->close_code = length >= 2 ? (uint8_t)payload[0] << 8 | (uint8_t)payload[1] : 1005;
            link_failed(k);
            return;
        }
    }
}

/* Upgrades waiting for a slot (a burst of thousands would overflow the
 * server's accept queue). */
static void open_next_websockets(loop *l)
{
    while (!l->server_down && l->handshakes < HANDSHAKES_AT_ONCE &&
           l->to_open_next < l->to_open_count) {
        seat *s = l->to_open[l->to_open_next++];
        s->queued_to_open = false;
        if (s->table->exists && !s->ws && !s->over) websocket_open(l, s);
    }
    if (l->to_open_next == l->to_open_count) l->to_open_next = l->to_open_count = 0;
}

static void queue_websocket(loop *l, seat *s)
{
    if (s->queued_to_open) return;
    if (l->to_open_count == l->to_open_capacity) {
        l->to_open_capacity = l->to_open_capacity ? 2 * l->to_open_capacity : 1024;
        l->to_open = checked(realloc(l->to_open, sizeof *l->to_open * (size_t)l->to_open_capacity));
    }
    l->to_open[l->to_open_count++] = s;
    s->queued_to_open = true;
    open_next_websockets(l);
}

/* A connection broke (or the server closed it). */
static void link_failed(connection *k)
{
    if (k->fd < 0) return;
    loop *l = k->owner;
    if (!k->connected && !l->server_down) {
        fprintf(stderr, "gateau_bench_server: cannot connect to the server on port %d: %s\n",
                l->port, k->connect_error ? strerror(k->connect_error) : "closed at once");
        exit(1);
    }
    link_close(k);
    if (k->kind == LINK_WEBSOCKET) {
        if (!k->upgraded && !k->answered) l->handshakes--;
        if (k->seat && k->seat->ws == k) seat_lost(k->seat, k->close_code);
        open_next_websockets(l);
        return;
    }
    l->pool[k->slot] = NULL;
    request *r = k->current;
    k->current = NULL;
    if (!r) return; /* an idle connection: its slot is among the idle ones */
    request_done(r, -1, "", 0);
    request_free(r);
    pool_free_slot(l, k->slot);
}

static void link_event(connection *k, uint32_t events)
{
    if (k->dead) return;
    if (!k->connected && (events & (EPOLLOUT | EPOLLERR | EPOLLHUP))) {
        int error = 0;
        socklen_t size = sizeof error;
        getsockopt(k->fd, SOL_SOCKET, SO_ERROR, &error, &size);
        if (error) {
            k->connect_error = error;
            link_failed(k);
            return;
        }
        k->connected = true;
    }
    if ((events & EPOLLOUT) && !link_flush(k)) {
        link_failed(k);
        return;
    }
    if (!(events & (EPOLLIN | EPOLLHUP | EPOLLERR))) return;
    bool closed = false;
    for (;;) {
        buffer_reserve(&k->in, 65536);
        size_t room = k->in.capacity - k->in.length;
        ssize_t got = recv(k->fd, k->in.data + k->in.length, room, 0);
        if (got > 0) {
            k->in.length += (size_t)got;
            if ((size_t)got < room) break; /* drained */
            continue;
        }
        if (got < 0 && errno == EINTR) continue;
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        closed = true; /* end of stream, or reset */
        break;
    }
    if (k->kind == LINK_HTTP) http_readable(k);
    else websocket_readable(k);
    if (closed && !k->dead) link_failed(k);
}

/* ---- Tables --------------------------------------------------------------------------------- */

static void table_create(table *t);

static void counts_latency(counts *c, double seconds)
{
    if (c->latency_count == c->latency_capacity) {
        c->latency_capacity = c->latency_capacity ? 2 * c->latency_capacity : 65536;
        c->latencies = checked(realloc(c->latencies, sizeof *c->latencies * c->latency_capacity));
    }
    double micro = seconds * 1e6;
    c->latencies[c->latency_count++] = micro < 0 ? 0 : micro > 4e9 ? 4000000000u : (uint32_t)micro;
}

/* A watched move that every seat has seen (the mover too): its
 * latencies count (the other seats'). */
static void watch_settle(table *t, watch *w)
{
    if (!w->accepted) return;
    loop *l = t->owner;
    for (int s = 0; s < l->chosen->players; s++)
        if (!w->arrived[s]) return;
    if (w->measured)
        for (int s = 0; s < l->chosen->players; s++)
            if (s != w->seat) {
                counts_latency(&l->counted, w->arrived[s] - w->sent);
                if (latency_log) /* (one fprintf at a time: glibc locks the stream) */
                    fprintf(latency_log, "%.4f %.3f\n", w->sent, (w->arrived[s] - w->sent) * 1e3);
            }
    w->used = false;
}

static int watch_new(table *t, int seat_index, int version)
{
    for (int i = 0; i < WATCHES; i++) {
        watch *w = &t->watches[i];
        if (w->used) continue;
        memset(w, 0, sizeof *w);
        w->used = true, w->seat = seat_index, w->version = version;
        return i;
    }
    t->owner->counted.unwatched++;
    return -1;
}

/* A push to seat s says version: the watched moves before it have
 * reached s. */
static void watches_see(table *t, int seat_index, int version, double when)
{
    for (int i = 0; i < WATCHES; i++) {
        watch *w = &t->watches[i];
        if (!w->used || w->arrived[seat_index] || version <= w->version) continue;
        w->arrived[seat_index] = when;
        watch_settle(t, w);
    }
}

static void remember_finished(loop *l, const char *id)
{
    if (l->finished_count == l->finished_capacity) {
        l->finished_capacity = l->finished_capacity ? 2 * l->finished_capacity : 256;
        l->finished = checked(realloc(l->finished, sizeof *l->finished * (size_t)l->finished_capacity));
    }
    snprintf(l->finished[l->finished_count++], sizeof l->finished[0], "%s", id);
}

static void seat_reset(seat *s, bool forget_everything)
{
    s->epoch++;
    s->phase = SEAT_WAITING;
    s->to_move = s->hurry = false;
    s->act_from = 0;
    s->version = -1;
    if (!forget_everything) return;
    for (int n = 0; n < s->seen_count; n++) {
        free(s->seen[n]);
        s->seen[n] = NULL;
    }
    s->seen_count = 0;
    s->acknowledged_count = 0;
    s->over = false;
}

/* Every seat has seen the end: the table goes (and another comes). */
static void table_finished(table *t)
{
    loop *l = t->owner;
    for (int s = 0; s < l->chosen->players; s++) {
        seat *closing = &t->seats[s];
        if (closing->ws) {
            closing->ws->seat = NULL;
            link_close(closing->ws);
            closing->ws = NULL;
        }
    }
    for (int i = 0; i < WATCHES; i++) {
        if (t->watches[i].used && t->watches[i].accepted && t->watches[i].measured)
            l->counted.missing++;
        t->watches[i].used = false;
    }
    if (in_window(l, now_seconds())) l->counted.tables_finished++;
    if (l->chosen->durability) remember_finished(l, t->id);
    t->exists = false;
    if (l->replace) table_create(t);
}

static void table_create(table *t)
{
    loop *l = t->owner;
    t->generation++;
    t->warm_until = t->generation == 1 && l->chosen->think_max > 0 && !l->chosen->durability
                        ? (int)(next_random(l) % (uint64_t)(l->chosen->warm_moves + 1))
                        : 0;
    t->exists = false;
    t->creating = true;
    t->seats_over = 0;
    t->id[0] = '\0';
    for (int s = 0; s < l->chosen->players; s++) seat_reset(&t->seats[s], true);
    char body[512];
    int used = snprintf(body, sizeof body, "{\"game\":\"%s\",\"players\":%d,\"seats\":[",
                        l->chosen->game, l->chosen->players);
    for (int s = 0; s < l->chosen->players; s++)
        used += snprintf(body + used, sizeof body - (size_t)used, "%s\"human\"", s ? "," : "");
    snprintf(body + used, sizeof body - (size_t)used, "]}");
    submit(l, new_request(t, ASK_CREATE, -1, "POST", "/api/tables", NULL, body));
}

static void read_token_member(void *context, const char *key, size_t length, const char *value,
                              const char *end)
{
    long *seat_number = context;
    if (key_is(key, length, "seat")) seat_number[0] = json_number(value, end);
}

typedef struct created_reading {
    table *table;
    int tokens;
} created_reading;

static void read_token_item(void *context, const char *value, const char *end)
{
    created_reading *reading = context;
    long number = -1;
    each_member(value, end, read_token_member, &number);
    if (number < 1 || number > reading->table->owner->chosen->players) return;
    /* The token: the member named "token". */
    const char *p = strstr(value, "\"token\":\"");
    if (!p || p > end) return;
    p += strlen("\"token\":");
    const char *close = skip_string(p, end);
    if (close && json_text(p, close, reading->table->seats[number - 1].token,
                           sizeof reading->table->seats[0].token))
        reading->tokens++;
}

static void read_created_member(void *context, const char *key, size_t length,
                                const char *value, const char *end)
{
    created_reading *reading = context;
    if (key_is(key, length, "id")) json_text(value, end, reading->table->id, sizeof reading->table->id);
    else if (key_is(key, length, "seats")) each_item(value, end, read_token_item, reading);
}

static void table_created(table *t, int status, const char *body, size_t length)
{
    loop *l = t->owner;
    t->creating = false;
    if (status == -1 && l->server_down) return; /* created again after the restart */
    created_reading reading = {t, 0};
    if (status == 429 || status == -1) {
        /* Throttled, or the connection closed under the request: again
         * shortly (a table the server made meanwhile is left alone). */
        count_in_window(l, status == 429 ? &l->counted.throttled : &l->counted.failed);
        timer_add(l, TIMER_CREATE, NULL, t, now_seconds() + RETRY_MS / 1000.0);
        return;
    }
    if (status != 201 || !each_member(body, body + length, read_created_member, &reading) ||
        !t->id[0] || reading.tokens != l->chosen->players) {
        fprintf(stderr, "gateau_bench_server: POST /api/tables: %d %.*s\n", status,
                (int)(length > 300 ? 300 : length), body);
        exit(1);
    }
    t->exists = true;
    if (in_window(l, now_seconds())) l->counted.creates++;
    if (l->open_sockets)
        for (int s = 0; s < l->chosen->players; s++) queue_websocket(l, &t->seats[s]);
}

/* ---- Seats: the simulated players --------------------------------------------------------- */

static void seat_build(seat *s);

static int think_ms(loop *l)
{
    const options *chosen = l->chosen;
    int span = chosen->think_max - chosen->think_min;
    return chosen->think_min + (span ? (int)(next_random(l) % (uint64_t)(span + 1)) : 0);
}

/* What the seat does next, from its latest push. */
static void seat_consider(seat *s)
{
    loop *l = s->table->owner;
    if (!l->playing) return; /* (the setup's WebSockets step) */
    if (window_over(l)) { /* no more moves: the last ones' pushes are awaited */
        if (s->phase == SEAT_THINKING) {
            s->phase = SEAT_WAITING;
            s->epoch++;
        }
        return;
    }
    if (s->over || !s->to_move || s->version < s->act_from) {
        if (s->phase == SEAT_THINKING) {
            s->phase = SEAT_WAITING;
            s->epoch++; /* its timer is void */
        }
        return;
    }
    if (s->phase != SEAT_WAITING) return;
    int pause = s->hurry || s->version < s->table->warm_until ? 0 : think_ms(l);
    s->hurry = false;
    if (pause == 0) {
        seat_build(s);
        return;
    }
    s->phase = SEAT_THINKING;
    timer_add(l, TIMER_THINK, s, NULL, now_seconds() + pause / 1000.0);
}

static void ask_legal(seat *s)
{
    table *t = s->table;
    char path[2048];
    int used = snprintf(path, sizeof path, "/api/tables/%s/legal?after=", t->id);
    for (int i = 0; i < s->move_length && used < (int)sizeof path - 16; i++)
        used += snprintf(path + used, sizeof path - (size_t)used, "%s%d", i ? "," : "", s->move[i]);
    submit(t->owner, new_request(t, ASK_LEGAL, s->index, "GET", path, s->token, NULL));
    if (in_window(t->owner, now_seconds())) t->owner->counted.legal_requests++;
}

static void seat_post(seat *s);

/* Starts the move: one of the push's legal first actions at random,
 * posted at once when it is a whole move ("complete": true). */
static void seat_build(seat *s)
{
    loop *l = s->table->owner;
    if (!s->to_move || !s->legal_count) {
        s->phase = SEAT_WAITING;
        return;
    }
    s->phase = SEAT_BUILDING;
    s->build_version = s->version;
    s->move_length = 0;
    int pick = (int)(next_random(l) % (uint64_t)s->legal_count);
    s->move[s->move_length++] = s->legal[pick];
    if (s->legal_complete[pick]) seat_post(s);
    else ask_legal(s);
}

static void seat_post(seat *s)
{
    table *t = s->table;
    char body[4096];
    int used = snprintf(body, sizeof body, "{\"version\":%d,\"move\":[", s->version);
    for (int i = 0; i < s->move_length && used < (int)sizeof body - 16; i++)
        used += snprintf(body + used, sizeof body - (size_t)used, "%s%d", i ? "," : "", s->move[i]);
    snprintf(body + used, sizeof body - (size_t)used, "]}");
    char path[128];
    snprintf(path, sizeof path, "/api/tables/%s/moves", t->id);
    request *r = new_request(t, ASK_MOVE, s->index, "POST", path, s->token, body);
    r->version = s->version;
    r->watch = watch_new(t, s->index, s->version);
    s->phase = SEAT_POSTING;
    submit(t->owner, r);
}

/* The legal endpoint's answer: the move goes on, or is whole. */
static void seat_legal_answer(seat *s, int status, const char *body, size_t length)
{
    loop *l = s->table->owner;
    summary read = {0};
    if (status == 429) {
        count_in_window(l, &l->counted.throttled);
        s->phase = SEAT_THINKING; /* builds again when the timer is due */
        timer_add(l, TIMER_THINK, s, NULL, now_seconds() + RETRY_MS / 1000.0);
        return;
    }
    if (status != 200 || !summarize(body, length, &read)) {
        /* The table changed under the move (409, 422): build again from
         * the next push. */
        if (status != 409 && status != 422 && status != -1) {
            count_in_window(l, &l->counted.failed);
            fprintf(stderr, "gateau_bench_server: GET legal: %d %.*s\n", status, (int)length, body);
        }
        s->phase = SEAT_WAITING;
        s->hurry = true;
        s->act_from = status == -1 ? 0 : s->build_version + 1;
        if (!l->server_down) seat_consider(s);
        return;
    }
    if (read.complete) {
        seat_post(s);
        return;
    }
    if (!read.legal_count || s->move_length == MAX_MOVE_ACTIONS) {
        fprintf(stderr, "gateau_bench_server: table %s: an incomplete move with nothing legal\n",
                s->table->id);
        exit(1);
    }
    int pick = (int)(next_random(l) % (uint64_t)read.legal_count);
    s->move[s->move_length++] = read.legal[pick];
    if (read.legal_complete[pick]) seat_post(s);
    else ask_legal(s);
}

static void acknowledge(seat *s, int number)
{
    if (s->acknowledged_count == s->acknowledged_capacity) {
        s->acknowledged_capacity = s->acknowledged_capacity ? 2 * s->acknowledged_capacity : 64;
        s->acknowledged = checked(realloc(s->acknowledged, sizeof *s->acknowledged *
                                                               (size_t)s->acknowledged_capacity));
    }
    s->acknowledged[s->acknowledged_count++] = number;
    s->table->owner->acknowledged_total++;
}

static void seat_move_answer(seat *s, request *r, int status, const char *body, size_t length)
{
    table *t = s->table;
    loop *l = t->owner;
    watch *w = r->watch >= 0 ? &t->watches[r->watch] : NULL;
    if (status == 200) {
        summary read = {.move = -1};
        summarize(body, length, &read);
        if (in_window(l, now_seconds())) l->counted.accepted++;
        if (w) {
            w->accepted = true;
            watch_settle(t, w);
        }
        /* (a vote may be stored after others of its phase: the answer
         * says where) */
        if (l->chosen->durability) acknowledge(s, read.move >= 0 ? read.move : r->version);
        s->phase = SEAT_WAITING;
        s->act_from = read.version > r->version ? read.version : r->version + 1;
        seat_consider(s);
        return;
    }
    if (w) w->used = false;
    if (status == -1) {
        /* The connection broke with the move in flight: played or not,
         * the pushes will tell.  (--durability: the server was killed.) */
        l->unknown_outcome++;
        s->phase = SEAT_WAITING;
        s->hurry = true;
        s->act_from = 0;
        if (!l->server_down) seat_consider(s);
        return;
    }
    if (status == 429) {
        /* Throttled: the move is built again a little later. */
        count_in_window(l, &l->counted.throttled);
        s->phase = SEAT_THINKING;
        timer_add(l, TIMER_THINK, s, NULL, now_seconds() + RETRY_MS / 1000.0);
        return;
    }
    if (status == 409) {
        count_in_window(l, &l->counted.stale);
    } else {
        count_in_window(l, &l->counted.illegal);
        fprintf(stderr, "gateau_bench_server: POST move: %d %.*s\n", status, (int)length, body);
    }
    /* Someone moved first: move again (at once) on the push that says so. */
    s->phase = SEAT_WAITING;
    s->hurry = true;
    s->act_from = r->version + 1;
    seat_consider(s);
}

static void request_done(request *r, int status, const char *body, size_t length)
{
    table *t = r->table;
    if (r->generation != t->generation) return; /* for a table replaced since */
    if (r->kind == ASK_CREATE) {
        table_created(t, status, body, length);
        return;
    }
    if (r->kind == ASK_RECORD) return;
    seat *s = &t->seats[r->seat];
    if (r->epoch != s->epoch) return;
    if (r->kind == ASK_LEGAL) seat_legal_answer(s, status, body, length);
    else seat_move_answer(s, r, status, body, length);
}

/* --durability: after a restart, the whole log pushed again must hold
 * every move acknowledged before, and everything pushed before, as it
 * was. */
static void check_restored(seat *s, const summary *read)
{
    loop *l = s->table->owner;
    const char *id = s->table->id;
    if (read->log_start != 0 || read->log_truncated) {
        fprintf(stderr, "FAIL table %s seat %d: a new connection's push starts at log entry %d\n",
                id, s->index + 1, read->log_start);
        l->violations++;
        return;
    }
    for (int i = 0; i < s->acknowledged_count; i++) {
        int number = s->acknowledged[i];
        if (read->version <= number || number >= read->log_count) {
            fprintf(stderr, "FAIL table %s seat %d: move %d was acknowledged, but after the "
                    "restart the table is at version %d\n", id, s->index + 1, number,
                    read->version);
            l->violations++;
        } else if (read->log[number].seat != s->index) {
            fprintf(stderr, "FAIL table %s seat %d: move %d was acknowledged, but after the "
                    "restart it is seat %d's\n", id, s->index + 1, number,
                    read->log[number].seat + 1);
            l->violations++;
        } else {
            l->verified++;
        }
    }
    for (int n = 0; n < s->seen_count && n < read->log_count; n++) {
        const log_entry *entry = &read->log[n];
        size_t length = (size_t)(entry->end - entry->start);
        if (s->seen[n] && (strlen(s->seen[n]) != length || memcmp(s->seen[n], entry->start, length))) {
            fprintf(stderr, "FAIL table %s seat %d: log entry %d changed across the restart:\n"
                    "  before: %s\n  after:  %.*s\n", id, s->index + 1, n, s->seen[n],
                    (int)length, entry->start);
            l->violations++;
        }
    }
    if (s->seen_count > read->log_count) {
        fprintf(stderr, "FAIL table %s seat %d: %d log entries were pushed before the restart, "
                "%d after\n", id, s->index + 1, s->seen_count, read->log_count);
        l->violations++;
    }
}

/* --durability: keeps what was pushed, by move number. */
static void remember_log(seat *s, const summary *read)
{
    for (int i = 0; i < read->log_count; i++) {
        int n = read->log_start + i;
        if (n >= s->seen_capacity) {
            int capacity = s->seen_capacity ? 2 * s->seen_capacity : 128;
            while (capacity <= n) capacity *= 2;
            s->seen = checked(realloc(s->seen, sizeof *s->seen * (size_t)capacity));
            memset(s->seen + s->seen_capacity, 0, sizeof *s->seen * (size_t)(capacity - s->seen_capacity));
            s->seen_capacity = capacity;
        }
        const log_entry *entry = &read->log[i];
        size_t length = (size_t)(entry->end - entry->start);
        free(s->seen[n]);
        s->seen[n] = checked(malloc(length + 1));
        memcpy(s->seen[n], entry->start, length);
        s->seen[n][length] = '\0';
        if (n >= s->seen_count) s->seen_count = n + 1;
    }
}

static void seat_pushed(seat *s, const char *text, size_t length)
{
    table *t = s->table;
    loop *l = t->owner;
    double now = now_seconds();
    static _Thread_local log_entry entries[4096];
    summary read = {0};
    if (l->chosen->durability) read.log = entries, read.log_capacity = 4096;
    if (!summarize(text, length, &read) || read.version < 0) {
        fprintf(stderr, "gateau_bench_server: a push that is not a snapshot: %.*s\n",
                (int)(length > 200 ? 200 : length), text);
        exit(1);
    }
    if (in_window(l, now)) {
        l->counted.messages++;
        l->counted.message_bytes += (long)length;
    }
    if (l->chosen->durability) {
        if (s->fresh) check_restored(s, &read);
        remember_log(s, &read);
    }
    s->fresh = false;
    watches_see(t, s->index, read.version, now);
    if (read.version >= s->version) {
        s->version = read.version;
        s->to_move = read.has_legal;
        s->legal_count = read.legal_count;
        memcpy(s->legal, read.legal, sizeof *s->legal * (size_t)read.legal_count);
        memcpy(s->legal_complete, read.legal_complete,
               sizeof *s->legal_complete * (size_t)read.legal_count);
    }
    if (read.over && !s->over) {
        s->over = true;
        if (++t->seats_over == l->chosen->players) {
            table_finished(t);
            return;
        }
    }
    seat_consider(s);
}

/* The seat's WebSocket broke (in --durability, the server was killed),
 * or the server closed it (close_code; 0: without a close frame, -1: the
 * upgrade was refused with 429).  1013 (try again later), 1001 (going
 * away) and a refused upgrade reconnect after a pause; other codes mean
 * the client (this program) broke the contract, or the server did. */
static void seat_lost(seat *s, int close_code)
{
    loop *l = s->table->owner;
    s->ws = NULL;
    if (l->server_down) return;
    if (close_code == 1013) l->counted.closed_1013++;
    else if (close_code > 0) l->counted.closed_other++;
    else if (close_code == 0) l->counted.closed_silently++;
    if (close_code >= 1000 && close_code < 1016) l->counted.closed_by_code[close_code - 1000]++;
    bool unexpected = close_code > 0 && close_code != 1013 && close_code != 1001;
    if (unexpected && l->chosen->durability) {
        fprintf(stderr, "gateau_bench_server: table %s seat %d: the server closed the WebSocket "
                "with %d\n", s->table->id, s->index + 1, close_code);
        exit(1);
    }
    if (s->over) return;
    /* Under load, another code (1008: the first message came late, when
     * the server's loop falls seconds behind) is counted and reported, and
     * the seat reconnects as after 1013, so that the run goes on. */
    if (l->failures_told++ < 10)
        fprintf(stderr, "gateau_bench_server: table %s seat %d: the WebSocket closed (%s%d); "
                "again in %d ms\n", s->table->id, s->index + 1,
                close_code == 1013 ? "try again later, " : close_code == 1001 ? "going away, "
                : close_code < 0 ? "the upgrade was refused with 429, " : close_code == 0
                ? "no close frame, " : "UNEXPECTED, ", close_code, RECONNECT_MS);
    /* (Its next push is a whole snapshot: whatever it was doing goes on.) */
    timer_add(l, TIMER_RECONNECT, s, NULL, now_seconds() + RECONNECT_MS / 1000.0);
}

/* ---- The event loop ------------------------------------------------------------------------ */

static void loop_init(loop *l, const options *chosen, int index, int first_table, int port,
                      int table_count, uint64_t seed, _Atomic double *window_start,
                      _Atomic double *window_end, _Atomic bool *stop, _Atomic int *permit)
{
    memset(l, 0, sizeof *l);
    l->chosen = chosen;
    l->index = index, l->first_table = first_table;
    l->permit = permit;
    /* --durability: no steps. */
    l->open_sockets = l->playing = chosen->durability;
    l->port = port;
    l->random = seed * 0x9e3779b97f4a7c15ull + 1;
    l->epoll = epoll_create1(EPOLL_CLOEXEC);
    l->table_count = table_count;
    l->tables = checked(calloc((size_t)table_count, sizeof *l->tables));
    l->pool = checked(calloc((size_t)chosen->http, sizeof *l->pool));
    l->idle = checked(calloc((size_t)chosen->http, sizeof *l->idle));
    for (int i = 0; i < chosen->http; i++) l->idle[l->idle_count++] = i;
    l->replace = true;
    l->window_start = window_start, l->window_end = window_end, l->stop = stop;
    for (int i = 0; i < table_count; i++) {
        table *t = &l->tables[i];
        t->owner = l;
        for (int s = 0; s < chosen->players; s++) t->seats[s].table = t, t->seats[s].index = s;
    }
}

static bool all_created(const loop *l)
{
    for (int i = 0; i < l->table_count; i++)
        if (!l->tables[i].exists) return false;
    return true;
}

/* The main thread lets the next step of the setup begin: once it has
 * read the server's memory after step k, it sets its permit to k. */
static bool permitted(const loop *l)
{
    return atomic_load(l->permit) >= atomic_load(&((loop *)l)->step);
}

/* Every move posted in the window has its answer, and every accepted
 * one its pushes. */
static bool all_settled(const loop *l)
{
    for (int i = 0; i < l->table_count; i++)
        for (int w = 0; w < WATCHES; w++)
            if (l->tables[i].watches[w].used && l->tables[i].watches[w].measured) return false;
    return true;
}

static bool all_open(const loop *l)
{
    for (int i = 0; i < l->table_count; i++) {
        const table *t = &l->tables[i];
        if (!t->exists) return false;
        for (int s = 0; s < l->chosen->players; s++)
            if (!t->seats[s].over && (!t->seats[s].ws || t->seats[s].fresh)) return false;
    }
    return true;
}

/* Every table open and past its warm-up moves (or replaced). */
static bool all_warm(const loop *l)
{
    if (!all_open(l)) return false;
    for (int i = 0; i < l->table_count; i++) {
        const table *t = &l->tables[i];
        if (t->generation > 1) continue;
        int version = 0;
        for (int s = 0; s < l->chosen->players; s++)
            if (t->seats[s].version > version) version = t->seats[s].version;
        if (version < t->warm_until) return false;
    }
    return true;
}

static bool all_over(const loop *l)
{
    for (int i = 0; i < l->table_count; i++)
        if (l->tables[i].exists || l->tables[i].creating) return false;
    return true;
}

/* One round: the timers due, then the sockets ready (waiting at most
 * until deadline). */
static void loop_once(loop *l, double deadline)
{
    double now = now_seconds();
    while (l->timer_count && l->timers[0].due <= now) {
        timer due = timer_pop(l);
        seat *s = due.seat;
        table *t = due.table;
        if (due.kind == TIMER_THINK && due.epoch == s->epoch && s->phase == SEAT_THINKING)
            seat_build(s);
        else if (due.kind == TIMER_CREATE && due.epoch == t->generation && !t->exists &&
                 !l->server_down)
            table_create(t);
        else if (due.kind == TIMER_RECONNECT && due.epoch == t->generation && t->exists &&
                 !s->ws && !s->over && !l->server_down)
            queue_websocket(l, s);
    }
    double wake = deadline;
    if (l->timer_count && l->timers[0].due < wake) wake = l->timers[0].due;
    /* (At most 100 ms: the main thread's permits and stop are seen soon;
     * clamped as a double, since a deadline of 1e300 overflows an int.) */
    double wait_ms = wake <= now ? 0 : (wake - now) * 1000.0 + 1;
    int timeout = wait_ms > 100 ? 100 : (int)wait_ms;
    struct epoll_event events[256];
    int ready = epoll_wait(l->epoll, events, 256, timeout);
    for (int i = 0; i < ready; i++) link_event(events[i].data.ptr, events[i].events);
    links_bury(l);
}

static void loop_run(loop *l, double deadline, bool (*done)(const loop *))
{
    while (now_seconds() < deadline && !atomic_load(l->stop) && !(done && done(l)))
        loop_once(l, deadline);
}

/* ---- The server ---------------------------------------------------------------------------- */

typedef struct server_process {
    pid_t pid;
    int port;
    char folder[PATH_MAX]; /* the new database's, removed after */
    char db[PATH_MAX + 16];
} server_process;

/* The gateau command beside this program (both are in the build folder). */
static const char *default_gateau(char *path, size_t size)
{
    char self[PATH_MAX - 16];
    ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
    if (length <= 0) return "gateau";
    self[length] = '\0';
    char *slash = strrchr(self, '/');
    if (!slash) return "gateau";
    *slash = '\0';
    snprintf(path, size, "%s/gateau", self);
    return path;
}

/* Starts `gateau serve` on db: false with a reason. */
static bool server_launch(server_process *server, const options *chosen, const char *gateau)
{
    int out[2];
    if (pipe(out) != 0) return false;
    char connections[16];
    snprintf(connections, sizeof connections, "%d", chosen->connections);
    /* --one-address: the limits per address off (everything comes from
     * 127.0.0.1); else their defaults (the load comes from many addresses). */
    const char *arguments[32 + MAX_SERVER_ARGS] = {gateau, "serve", "--port", "0", "--db", server->db, "--quiet",
                                 "--connections", connections};
    int count = 9;
    if (chosen->one_address) {
        static const char *const off[] = {"--address-connections", "--address-websockets",
                                          "--address-requests", "--address-tables"};
        for (int i = 0; i < 4; i++) arguments[count++] = off[i], arguments[count++] = "0";
    }
    for (int i = 0; i < chosen->server_arg_count; i++) arguments[count++] = chosen->server_args[i];
    arguments[count] = NULL;
    pid_t pid = fork();
    if (pid < 0) return false;
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* never left behind */
        dup2(out[1], STDOUT_FILENO);
        close(out[0]);
        close(out[1]);
        execv(gateau, (char *const *)arguments);
        fprintf(stderr, "gateau_bench_server: cannot run %s: %s\n", gateau, strerror(errno));
        _exit(127);
    }
    close(out[1]);
    FILE *lines = fdopen(out[0], "r");
    char line[1024];
    server->pid = pid;
    server->port = 0;
    while (fgets(line, sizeof line, lines)) {
        const char *url = strstr(line, "http://127.0.0.1:");
        if (url) {
            server->port = atoi(url + strlen("http://127.0.0.1:"));
            break;
        }
    }
    fclose(lines); /* the server ignores SIGPIPE: what it prints later is lost, harmlessly */
    if (server->port <= 0) {
        fprintf(stderr, "gateau_bench_server: %s serve did not start\n", gateau);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        return false;
    }
    return true;
}

static void server_new_database(server_process *server, const options *chosen)
{
    if (chosen->db) {
        snprintf(server->db, sizeof server->db, "%s", chosen->db);
        return;
    }
    /* On disk beside the build (a tmpfs /tmp would measure memory, not a
     * disk), unless TMPDIR says otherwise. */
    const char *base = getenv("TMPDIR");
    snprintf(server->folder, sizeof server->folder, "%s/gateau-bench-server-XXXXXX",
             base && base[0] ? base : ".");
    if (!mkdtemp(server->folder)) {
        fprintf(stderr, "gateau_bench_server: cannot make a folder %s: %s\n", server->folder,
                strerror(errno));
        exit(2);
    }
    snprintf(server->db, sizeof server->db, "%s/gateau.db", server->folder);
}

static void server_remove_database(server_process *server)
{
    if (!server->folder[0]) return;
    char command[PATH_MAX + 32];
    snprintf(command, sizeof command, "rm -rf '%s'", server->folder);
    if (system(command) != 0) fprintf(stderr, "gateau_bench_server: cannot remove %s\n", server->folder);
}

static void server_stop(server_process *server, int signal_number)
{
    if (server->pid <= 0) return;
    kill(server->pid, signal_number);
    waitpid(server->pid, NULL, 0);
    server->pid = 0;
}

/* Memory and CPU time of the server's process. */
typedef struct process_figures {
    long rss_kb, hwm_kb;
    double cpu;
    int threads;
    double waited; /* seconds its threads were runnable but not running */
    double busiest_ran, busiest_waited; /* its busiest thread: shares of the window */
} process_figures;

/* Each thread's time running and waiting for a core (schedstat), to
 * find the busiest (the server's event loop, when it is the bottleneck). */
typedef struct thread_times {
    int count;
    struct { int tid; double ran, waited; } of[512];
} thread_times;

static void threads_read(pid_t pid, thread_times *out)
{
    out->count = 0;
    if (pid <= 0) return;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *tasks = opendir(path);
    if (!tasks) return;
    struct dirent *task;
    while ((task = readdir(tasks)) != NULL && out->count < 512) {
        if (task->d_name[0] == '.') continue;
        char file[300];
        snprintf(file, sizeof file, "/proc/%d/task/%s/schedstat", (int)pid, task->d_name);
        FILE *stat = fopen(file, "r");
        if (!stat) continue;
        unsigned long long running, waiting;
        if (fscanf(stat, "%llu %llu", &running, &waiting) == 2) {
            out->of[out->count].tid = atoi(task->d_name);
            out->of[out->count].ran = (double)running * 1e-9;
            out->of[out->count].waited = (double)waiting * 1e-9;
            out->count++;
        }
        fclose(stat);
    }
    closedir(tasks);
}

/* The thread that ran most between two readings: its share of the time
 * running, and waiting for a core. */
static void threads_busiest(const thread_times *before, const thread_times *after,
                            double seconds, double *ran, double *waited)
{
    *ran = *waited = 0;
    for (int i = 0; i < after->count; i++) {
        double ran_before = 0, waited_before = 0;
        for (int j = 0; j < before->count; j++)
            if (before->of[j].tid == after->of[i].tid) {
                ran_before = before->of[j].ran, waited_before = before->of[j].waited;
                break;
            }
        double r = after->of[i].ran - ran_before;
        if (r > *ran) *ran = r, *waited = after->of[i].waited - waited_before;
    }
    *ran /= seconds, *waited /= seconds;
}

/* The time pid's threads spent waiting for a core (schedstat): how much
 * of a latency is the machine's, not the server's. */
static double process_waited(pid_t pid)
{
    static thread_times threads;
    threads_read(pid, &threads);
    double waited = 0;
    for (int i = 0; i < threads.count; i++) waited += threads.of[i].waited;
    return waited;
}

static process_figures process_read(pid_t pid)
{
    process_figures figures = {0};
    if (pid <= 0) return figures;
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *status = fopen(path, "r");
    if (status) {
        while (fgets(line, sizeof line, status)) {
            sscanf(line, "VmRSS: %ld", &figures.rss_kb);
            sscanf(line, "VmHWM: %ld", &figures.hwm_kb);
            sscanf(line, "Threads: %d", &figures.threads);
        }
        fclose(status);
    }
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *stat = fopen(path, "r");
    if (stat) {
        char text[2048];
        size_t length = fread(text, 1, sizeof text - 1, stat);
        text[length] = '\0';
        fclose(stat);
        const char *after = strrchr(text, ')'); /* the name may hold spaces */
        unsigned long user = 0, system_time = 0;
        if (after && sscanf(after + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
                            &user, &system_time) == 2)
            figures.cpu = (double)(user + system_time) / (double)sysconf(_SC_CLK_TCK);
    }
    return figures;
}

/* ---- The load benchmark -------------------------------------------------------------------- */

/* The setup in steps, the server's memory read by the main thread in
 * between: the tables (and the pool's connections), then every seat's
 * WebSocket and first snapshot, then the warm-up moves; then the load
 * until told to stop. */
static void *loop_thread(void *argument)
{
    loop *l = argument;
    for (int i = 0; i < l->table_count; i++) table_create(&l->tables[i]);
    loop_run(l, 1e300, all_created);
    atomic_store(&l->step, 1);
    loop_run(l, 1e300, permitted);
    l->open_sockets = true;
    for (int i = 0; i < l->table_count; i++)
        for (int s = 0; s < l->chosen->players; s++) queue_websocket(l, &l->tables[i].seats[s]);
    loop_run(l, 1e300, all_open);
    atomic_store(&l->step, 2);
    loop_run(l, 1e300, permitted);
    l->playing = true;
    for (int i = 0; i < l->table_count; i++)
        for (int s = 0; s < l->chosen->players; s++) seat_consider(&l->tables[i].seats[s]);
    loop_run(l, 1e300, all_warm);
    atomic_store(&l->ready, true);
    /* The window; then no new move, and every move of the window waits
     * for its pushes (at most DRAIN_SECONDS): what never came is missing. */
    loop_run(l, 1e300, window_over);
    loop_run(l, now_seconds() + DRAIN_SECONDS, all_settled);
    atomic_store(&l->drained, true);
    loop_run(l, 1e300, NULL);
    return NULL;
}

/* Waits until every loop has done step (3: is ready to measure), or
 * stop, or the deadline: false then. */
static bool loops_wait_step(loop *loops, int count, int step, double deadline)
{
    for (int i = 0; i < count; i++)
        while ((step == 3 ? !atomic_load(&loops[i].ready) : atomic_load(&loops[i].step) < step) &&
               !atomic_load(loops[i].stop)) {
            if (now_seconds() > deadline) return false;
            sleep_seconds(0.01);
        }
    return true;
}


static int compare_latency(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static double percentile_ms(const uint32_t *sorted, size_t count, double fraction)
{
    if (!count) return 0;
    size_t index = (size_t)(fraction * (double)(count - 1) + 0.5);
    return sorted[index] / 1000.0;
}

/* Adds b's counts into a. */
static void counts_merge(counts *a, const counts *b)
{
    a->accepted += b->accepted, a->stale += b->stale, a->illegal += b->illegal;
    a->throttled += b->throttled, a->failed += b->failed;
    a->legal_requests += b->legal_requests, a->posts += b->posts, a->creates += b->creates;
    a->messages += b->messages, a->message_bytes += b->message_bytes;
    a->tables_finished += b->tables_finished, a->unwatched += b->unwatched;
    a->missing += b->missing, a->refused_upgrades += b->refused_upgrades;
    a->closed_1013 += b->closed_1013, a->closed_other += b->closed_other;
    a->unanswered += b->unanswered, a->closed_silently += b->closed_silently;
    for (int i = 0; i < 16; i++) a->closed_by_code[i] += b->closed_by_code[i];
    for (size_t i = 0; i < b->latency_count; i++) counts_latency(a, b->latencies[i] / 1e6);
}

/* Accepted moves still waiting for a push at the end, sent long enough
 * before it to have had it: updates that never came. */
/* After the drain: the window's accepted moves whose pushes never all
 * came (missing), and its posts never answered. */
static void missing_at_end(loop *l)
{
    for (int i = 0; i < l->table_count; i++)
        for (int w = 0; w < WATCHES; w++) {
            const watch *watched = &l->tables[i].watches[w];
            if (!watched->used || !watched->measured) continue;
            if (watched->accepted) l->counted.missing++;
            else l->counted.unanswered++;
        }
}

/* The server's VmRSS at the setup's steps (docs at the top). */
typedef struct memory_steps {
    long idle_kb;       /* started: no table, no connection */
    long tables_kb;     /* every table made, the pool's connections open */
    long websockets_kb; /* every WebSocket open, its first snapshot received */
    long peak_kb;       /* the window's peak */
    int pooled;         /* the pool's connections open at the tables' step */
} memory_steps;

/* The close codes other than 1013, when any came (during setup too). */
static void print_close_codes(const counts *total)
{
    bool any = false;
    for (int i = 0; i < 16; i++) {
        if (i == 13 || !total->closed_by_code[i]) continue;
        printf("%s%ld with %d", any ? ", " : "                    closed: ",
               total->closed_by_code[i], 1000 + i);
        any = true;
    }
    if (any) printf("\n");
}

static void print_report(const options *chosen, const server_process *server, counts *total,
                         double setup_seconds, double seconds, double drain_seconds,
                         double generator_cpu, double generator_waited,
                         const process_figures *server_before,
                         const process_figures *server_after, const memory_steps *memory,
                         const char *load_before, const char *load_after)
{
    long peak_rss_kb = memory->peak_kb;
    qsort(total->latencies, total->latency_count, sizeof *total->latencies, compare_latency);
    const uint32_t *sorted = total->latencies;
    size_t n = total->latency_count;
    double moves_per_second = (double)total->accepted / seconds;
    double p99 = percentile_ms(sorted, n, 0.99);
    bool saturated = chosen->think_max == 0;
    printf("gateau_bench_server: %s, %d players, %d tables (%d WebSockets), think %d-%d ms, "
           "%.0f s measured\n", chosen->game, chosen->players, chosen->tables,
           chosen->tables * chosen->players, chosen->think_min, chosen->think_max, seconds);
    printf("  load generator: %d event loop%s, %d keep-alive HTTP connections; server "
           "--connections %d%s\n", chosen->threads, chosen->threads > 1 ? "s" : "",
           chosen->http * chosen->threads, chosen->connections,
           chosen->port ? " (--url: the server's own)" : "");
    if (chosen->one_address)
        printf("                    everything from 127.0.0.1, the server's limits per address "
               "off (--address-connections 0 --address-websockets 0 --address-requests 0 "
               "--address-tables 0)\n");
    if (!chosen->one_address) {
        char last[INET_ADDRSTRLEN];
        struct in_addr address = {htonl(source_address(chosen, chosen->addresses - 1))};
        inet_ntop(AF_INET, &address, last, sizeof last);
        int most_websockets = (chosen->tables * chosen->players + chosen->addresses - 1) /
                              chosen->addresses;
        int most_pooled = (chosen->http * chosen->threads + chosen->addresses - 1) / chosen->addresses;
        printf("                    from %d source addresses (127.0.0.2 to %s): at most %d "
               "WebSockets and %d pooled connections each; the server's limits per address "
               "%s\n", chosen->addresses, last, most_websockets, most_pooled,
               chosen->port ? "its own" : "at their defaults");
    }
    printf("  setup: every table made, every WebSocket open%s in %.1f s\n",
           chosen->think_max > 0 ? " and the first moves played without thinking" : "",
           setup_seconds);
    printf("  moves accepted:   %ld (%.0f per second); %ld stale (409, someone moved first), "
           "%ld refused otherwise, %ld throttled (429), %ld failed\n", total->accepted,
           moves_per_second, total->stale, total->illegal, total->throttled, total->failed);
    printf("  requests:         %.2f GET legal and %.2f POST per accepted move; %ld tables "
           "finished and replaced\n",
           total->accepted ? (double)total->legal_requests / (double)total->accepted : 0,
           total->accepted ? (double)total->posts / (double)total->accepted : 0,
           total->tables_finished);
    printf("  pushes received:  %ld (%.0f per second, %.0f bytes on average)\n", total->messages,
           (double)total->messages / seconds,
           total->messages ? (double)total->message_bytes / (double)total->messages : 0);
    printf("  latency, a move's POST sent -> each other seat's first push of a later version "
           "(%zu pushes):\n", n);
    printf("                    p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, p99.9 %.2f ms, max %.2f ms\n",
           percentile_ms(sorted, n, 0.5), percentile_ms(sorted, n, 0.9), p99,
           percentile_ms(sorted, n, 0.999), n ? sorted[n - 1] / 1000.0 : 0);
    printf("  pushes missing:   %ld (accepted moves of the window some seat, the mover included, "
           "never heard of, %.1f s after the window); %ld posts unanswered%s\n",
           total->missing, drain_seconds, total->unanswered,
           total->unwatched ? " (some moves unwatched)" : "");
    printf("  WebSockets:       since the start, %ld closed by the server with 1013 (try again "
           "later), %ld with another code, %ld without a close frame; %ld upgrades refused (429)\n",
           total->closed_1013, total->closed_other, total->closed_silently,
           total->refused_upgrades);
    print_close_codes(total);
    if (server->pid > 0) {
        double server_cpu = server_after->cpu - server_before->cpu;
        int websockets = chosen->tables * chosen->players;
        int connections = websockets + memory->pooled;
        printf("  server memory:    VmHWM (peak RSS) %.1f MB, VmRSS peak of the window %.1f MB; "
               "%d threads (MB: 2^20 bytes)\n", server_after->hwm_kb / 1024.0,
               peak_rss_kb / 1024.0, server_after->threads);
        printf("                    VmRSS started %.1f MB; %d tables made and %d pooled "
               "connections open %.1f MB; %d WebSockets open %.1f MB\n",
               memory->idle_kb / 1024.0, chosen->tables, memory->pooled,
               memory->tables_kb / 1024.0, websockets, memory->websockets_kb / 1024.0);
        printf("  memory per connection: %.1f KB per WebSocket (its step's growth); %.1f KB per "
               "open connection (VmHWM minus started, over %d connections; tables included)\n",
               (double)(memory->websockets_kb - memory->tables_kb) / websockets,
               (double)(server_after->hwm_kb - memory->idle_kb) / connections, connections);
        printf("  server CPU:       %.2f cores, %.1f us per accepted move; its threads waited "
               "%.1f us per move for a core\n", server_cpu / seconds,
               total->accepted ? server_cpu * 1e6 / (double)total->accepted : 0,
               total->accepted ? (server_after->waited - server_before->waited) * 1e6 /
                                     (double)total->accepted : 0);
        printf("                    its busiest thread ran %.0f%% of the window (%.0f us per "
               "accepted move) and waited %.0f%% of it for a core\n", 100 * server_after->busiest_ran,
               total->accepted ? server_after->busiest_ran * seconds * 1e6 / (double)total->accepted
                               : 0,
               100 * server_after->busiest_waited);
    } else {
        printf("  server memory and CPU: not measured (--url: not our child)\n");
    }
    printf("  generator CPU:    %.2f cores, %.1f us per accepted move; its threads waited %.1f us "
           "per move for a core\n", generator_cpu / seconds,
           total->accepted ? generator_cpu * 1e6 / (double)total->accepted : 0,
           total->accepted ? generator_waited * 1e6 / (double)total->accepted : 0);
    printf("  host load average (1, 5, 15 min): %s before the setup, %s after the window\n",
           load_before, load_after);
    /* The targets (issue 24): 4,000 WebSockets thinking, p99 < 5 ms and
     * under 100 MB; 16,000, p99 < 20 ms and under 300 MB; saturated,
     * 10,000 accepted moves a second with every seat's push sent. */
    if (saturated) {
        printf("  target: >= 10000 accepted moves/s with every seat's push sent: %s\n",
               moves_per_second >= 10000 && total->missing == 0 && total->unanswered == 0
                   ? "met" : "MISSED");
    } else {
        bool small = chosen->tables * chosen->players <= 4000;
        double p99_target = small ? 5 : 20;
        long memory_target_kb = (small ? 100 : 300) * 1024L;
        printf("  target: p99 < %.0f ms: %s", p99_target, p99 < p99_target ? "met" : "MISSED");
        if (server->pid > 0)
            printf("; server memory (VmHWM) < %ld MB: %s", memory_target_kb / 1024,
                   server_after->hwm_kb < memory_target_kb ? "met" : "MISSED");
        printf("; every seat's push sent: %s\n",
               total->missing == 0 && total->unanswered == 0 ? "yes" : "NO");
    }
}

/* /proc/loadavg's first three figures. */
static void load_average(char *out, size_t size)
{
    snprintf(out, size, "?");
    FILE *file = fopen("/proc/loadavg", "r");
    if (!file) return;
    double one, five, fifteen;
    if (fscanf(file, "%lf %lf %lf", &one, &five, &fifteen) == 3)
        snprintf(out, size, "%.2f %.2f %.2f", one, five, fifteen);
    fclose(file);
}

/* The setup did not end in time: how far it got (the loops stopped). */
static void print_setup_failure(const options *chosen, loop *loops, const server_process *server,
                                double seconds, const memory_steps *memory)
{
    int tables = 0, open = 0;
    counts total = {0};
    for (int i = 0; i < chosen->threads; i++) {
        const loop *l = &loops[i];
        for (int t = 0; t < l->table_count; t++) {
            tables += l->tables[t].exists;
            for (int s = 0; s < chosen->players; s++)
                open += l->tables[t].seats[s].ws && !l->tables[t].seats[s].fresh;
        }
        counts_merge(&total, &loops[i].counted);
    }
    process_figures now = process_read(server->pid);
    printf("gateau_bench_server: %s, %d players, %d tables (%d WebSockets), think %d-%d ms\n",
           chosen->game, chosen->players, chosen->tables, chosen->tables * chosen->players,
           chosen->think_min, chosen->think_max);
    printf("  SETUP NOT DONE in %.0f s (--setup-limit): %d of %d tables made, %d of %d "
           "WebSockets open with their first snapshot\n", seconds, tables, chosen->tables, open,
           chosen->tables * chosen->players);
    printf("  WebSockets:       %ld closed by the server with 1013, %ld with another code, %ld "
           "without a close frame; %ld upgrades refused\n", total.closed_1013, total.closed_other,
           total.closed_silently, total.refused_upgrades);
    print_close_codes(&total);
    if (server->pid > 0)
        printf("  server memory:    VmRSS %.1f MB, VmHWM %.1f MB (started %.1f MB); %d threads\n",
               now.rss_kb / 1024.0, now.hwm_kb / 1024.0, memory->idle_kb / 1024.0, now.threads);
}

static int run_benchmark(const options *chosen, const char *gateau)
{
    server_process server = {0};
    if (chosen->port) {
        server.port = chosen->port;
    } else {
        server_new_database(&server, chosen);
        if (!server_launch(&server, chosen, gateau)) return 2;
    }
    static _Atomic double window_start, window_end;
    static _Atomic bool stop;
    static _Atomic int permit;
    loop *loops = checked(calloc((size_t)chosen->threads, sizeof *loops));
    pthread_t threads[MAX_LOOPS];
    double setup_began = now_seconds();
    char load_before[64];
    load_average(load_before, sizeof load_before);
    /* The server's memory as it starts: a moment to settle first. */
    sleep_seconds(server.pid > 0 ? 0.5 : 0);
    memory_steps memory = {.idle_kb = process_read(server.pid).rss_kb};
    int first_table = 0;
    for (int i = 0; i < chosen->threads; i++) {
        int share = chosen->tables / chosen->threads + (i < chosen->tables % chosen->threads);
        int port = chosen->port_count == 2 ? chosen->ports[i % 2] : server.port;
        loop_init(&loops[i], chosen, i, first_table, port, share, chosen->seed + (uint64_t)i,
                  &window_start, &window_end, &stop, &permit);
        first_table += share;
        pthread_create(&threads[i], NULL, loop_thread, &loops[i]);
    }
    double setup_deadline = setup_began + chosen->setup_limit;
    bool set_up = loops_wait_step(loops, chosen->threads, 1, setup_deadline);
    sleep_seconds(server.pid > 0 ? 0.5 : 0);
    memory.tables_kb = process_read(server.pid).rss_kb;
    for (int i = 0; i < chosen->threads; i++)
        for (int slot = 0; slot < chosen->http; slot++) memory.pooled += loops[i].pool[slot] != NULL;
    atomic_store(&permit, 1);
    set_up = set_up && loops_wait_step(loops, chosen->threads, 2, setup_deadline);
    sleep_seconds(server.pid > 0 ? 0.5 : 0);
    memory.websockets_kb = process_read(server.pid).rss_kb;
    atomic_store(&permit, 2);
    set_up = set_up && loops_wait_step(loops, chosen->threads, 3, setup_deadline);
    double setup_seconds = now_seconds() - setup_began;
    if (!set_up) {
        atomic_store(&stop, true);
        for (int i = 0; i < chosen->threads; i++) pthread_join(threads[i], NULL);
        print_setup_failure(chosen, loops, &server, setup_seconds, &memory);
        server_stop(&server, SIGTERM);
        server_remove_database(&server);
        return 1;
    }
    process_figures before = process_read(server.pid), after;
    before.waited = process_waited(server.pid);
    static thread_times threads_before, threads_after;
    threads_read(server.pid, &threads_before);
    long peak_rss = before.rss_kb;
    double cpu_before = cpu_seconds(), start = now_seconds();
    double generator_waited = process_waited(getpid());
    atomic_store(&window_start, start);
    while (now_seconds() < start + chosen->seconds) {
        sleep_seconds(0.25);
        process_figures sample = process_read(server.pid);
        if (sample.rss_kb > peak_rss) peak_rss = sample.rss_kb;
    }
    double end = now_seconds();
    atomic_store(&window_end, end);
    after = process_read(server.pid);
    after.waited = process_waited(server.pid);
    threads_read(server.pid, &threads_after);
    threads_busiest(&threads_before, &threads_after, now_seconds() - start, &after.busiest_ran,
                    &after.busiest_waited);
    if (after.rss_kb > peak_rss) peak_rss = after.rss_kb;
    double generator_cpu = cpu_seconds() - cpu_before;
    generator_waited = process_waited(getpid()) - generator_waited;
    /* The last moves' pushes (the loops post no more), then stop. */
    double drain_began = now_seconds();
    for (int i = 0; i < chosen->threads; i++)
        while (!atomic_load(&loops[i].drained) && now_seconds() < drain_began + DRAIN_SECONDS + 5)
            sleep_seconds(0.01);
    double drain_seconds = now_seconds() - drain_began;
    atomic_store(&stop, true);
    counts total = {0};
    for (int i = 0; i < chosen->threads; i++) {
        pthread_join(threads[i], NULL);
        missing_at_end(&loops[i]);
        counts_merge(&total, &loops[i].counted);
    }
    memory.peak_kb = peak_rss;
    char load_after[64];
    load_average(load_after, sizeof load_after);
    print_report(chosen, &server, &total, setup_seconds, end - start, drain_seconds,
                 generator_cpu, generator_waited, &before, &after, &memory, load_before,
                 load_after);
    server_stop(&server, SIGTERM);
    server_remove_database(&server);
    return 0;
}

/* ---- The kill -9 test ------------------------------------------------------------------------- */

/* Drops every connection and request (the server is gone) and resets
 * every seat: what they knew may be older than what the server kept. */
static void loop_server_died(loop *l)
{
    l->server_down = true;
    for (int i = 0; i < l->chosen->http; i++)
        if (l->pool[i]) link_failed(l->pool[i]);
    while (l->queue) {
        request *r = l->queue;
        l->queue = r->next;
        request_done(r, -1, "", 0);
        request_free(r);
    }
    l->queue_tail = NULL;
    l->to_open_count = l->to_open_next = 0;
    for (int i = 0; i < l->table_count; i++) {
        table *t = &l->tables[i];
        for (int w = 0; w < WATCHES; w++) t->watches[w].used = false;
        for (int s = 0; s < l->chosen->players; s++) {
            seat *reset = &t->seats[s];
            reset->queued_to_open = false;
            if (reset->ws) {
                reset->ws->seat = NULL;
                link_failed(reset->ws);
                reset->ws = NULL;
            }
            seat_reset(reset, false);
        }
    }
    l->handshakes = 0;
    l->timer_count = 0;
    links_bury(l);
}

/* The server is back on port: every table's seats connect again (and
 * check what they see); tables whose creation was lost are made anew. */
static void loop_server_back(loop *l, int port)
{
    l->server_down = false;
    l->port = port;
    for (int i = 0; i < l->table_count; i++) {
        table *t = &l->tables[i];
        if (t->exists) {
            for (int s = 0; s < l->chosen->players; s++)
                queue_websocket(l, &t->seats[s]);
        } else if (!t->creating) {
            table_create(t);
        }
    }
}

/* Every finished table's record must pass `gateau replay`. */
static long replay_records(loop *l, const char *gateau, const char *folder)
{
    long failures = 0;
    for (int i = 0; i < l->finished_count; i++) {
        const char *id = l->finished[i];
        char path[256], command[PATH_MAX * 2 + 300], file[PATH_MAX + 64];
        snprintf(path, sizeof path, "/api/tables/%s/record", id);
        snprintf(file, sizeof file, "%s/%s.txt", folder, id);
        /* A blocking GET: simple, and these are few. */
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)l->port)};
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        buffer answer = {0};
        if (connect(fd, (struct sockaddr *)&address, sizeof address) == 0) {
            char text[512];
            int length = snprintf(text, sizeof text, "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                                  "Connection: close\r\n\r\n", path, l->port);
            if (send(fd, text, (size_t)length, MSG_NOSIGNAL) == length) {
                ssize_t got;
                do {
                    buffer_reserve(&answer, 65536);
                    got = recv(fd, answer.data + answer.length, answer.capacity - answer.length, 0);
                    if (got > 0) answer.length += (size_t)got;
                } while (got > 0);
            }
        }
        close(fd);
        buffer_append(&answer, "", 1);
        const char *body = answer.data ? strstr(answer.data, "\r\n\r\n") : NULL;
        if (!answer.data || strncmp(answer.data, "HTTP/1.1 200", 12) != 0 || !body) {
            fprintf(stderr, "FAIL table %s: GET record: %.200s\n", id, answer.data ? answer.data : "");
            failures++;
            free(answer.data);
            continue;
        }
        FILE *out = fopen(file, "w");
        if (!out) {
            fprintf(stderr, "gateau_bench_server: cannot write %s\n", file);
            exit(2);
        }
        fputs(body + 4, out);
        fclose(out);
        free(answer.data);
        snprintf(command, sizeof command, "'%s' replay '%s' >/dev/null", gateau, file);
        int status = system(command);
        if (status != 0) {
            fprintf(stderr, "FAIL table %s: `gateau replay` refuses its record (%s)\n", id, file);
            failures++;
        }
    }
    return failures;
}

static int run_durability(const options *chosen, const char *gateau)
{
    server_process server = {0};
    server_new_database(&server, chosen);
    if (!server_launch(&server, chosen, gateau)) return 2;
    static _Atomic double window_start, window_end;
    static _Atomic bool stop;
    atomic_store(&window_start, now_seconds());
    static _Atomic int permit;
    static loop l; /* (static: what it holds stays reachable, for LeakSanitizer) */
    loop_init(&l, chosen, 0, 0, server.port, chosen->tables, chosen->seed, &window_start,
              &window_end, &stop, &permit);
    srand((unsigned)chosen->seed);
    double began = now_seconds();
    for (int i = 0; i < l.table_count; i++) table_create(&l.tables[i]);
    long acknowledged_before = 0, failures = 0;
    for (int round = 1; round <= chosen->rounds; round++) {
        /* Play for a random while, then kill -9 whatever is in flight. */
        double play = 0.2 + 0.8 * (rand() / (double)RAND_MAX);
        double round_began = now_seconds();
        loop_run(&l, round_began + play, NULL);
        /* On a busy machine the first tables may not have moved yet (a
         * fresh server, its tables restored): play on, 0.1 s at a time,
         * until one move of the round is acknowledged, or 30 s have gone
         * (then the round tested nothing, which fails below). */
        while (l.acknowledged_total == acknowledged_before && now_seconds() - round_began < 30)
            loop_run(&l, now_seconds() + 0.1, NULL);
        play = now_seconds() - round_began;
        server_stop(&server, SIGKILL);
        long in_round = l.acknowledged_total - acknowledged_before;
        acknowledged_before = l.acknowledged_total;
        printf("round %d: killed after %.2f s; %ld moves acknowledged in the round\n", round, play,
               in_round);
        if (in_round == 0) {
            fprintf(stderr, "FAIL round %d: no move was acknowledged: nothing was tested\n", round);
            failures++;
        }
        loop_server_died(&l);
        if (!server_launch(&server, chosen, gateau)) return 2;
        loop_server_back(&l, server.port);
        /* The checks run on each seat's first push after the restart. */
        loop_run(&l, now_seconds() + 20, all_open);
        if (!all_open(&l)) {
            fprintf(stderr, "FAIL round %d: the tables were not all open again within 20 s of "
                    "the restart\n", round);
            failures++;
            break;
        }
    }
    /* The end: no new tables; every one is played out. */
    l.replace = false;
    double ending = now_seconds();
    loop_run(&l, now_seconds() + 30, all_over);
    printf("every table played to its end in %.1f s\n", now_seconds() - ending);
    if (!all_over(&l)) {
        fprintf(stderr, "FAIL some tables did not reach their end within 30 s\n");
        failures++;
    }
    char folder[PATH_MAX + 16];
    snprintf(folder, sizeof folder, "%s", server.folder[0] ? server.folder : ".");
    long replay_failures = replay_records(&l, gateau, folder);
    failures += replay_failures + l.violations;
    printf("%ld moves acknowledged, %ld checks after %d restarts, %ld moves in flight at a kill; "
           "%d tables played to their end, their records replayed: %ld refused\n",
           l.acknowledged_total, l.verified, chosen->rounds, l.unknown_outcome, l.finished_count,
           replay_failures);
    printf("%.1f s in all\n", now_seconds() - began);
    server_stop(&server, SIGTERM);
    if (failures == 0) server_remove_database(&server);
    else fprintf(stderr, "the database is kept: %s\n", server.db);
    printf("%ld passed, %ld failed\n", l.verified, failures);
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    options chosen = parse_options(argc, argv);
    char gateau_path[PATH_MAX];
    const char *gateau = chosen.gateau ? chosen.gateau
                                       : default_gateau(gateau_path, sizeof gateau_path);
    /* Thousands of sockets here and in the server (which inherits this):
     * the hard limit, or more when the load needs it and we may (root). */
    struct rlimit files;
    rlim_t needed = (rlim_t)chosen.tables * (rlim_t)chosen.players +
                    (rlim_t)chosen.http * (rlim_t)chosen.threads + 1024;
    if ((rlim_t)chosen.connections + 256 > needed && !chosen.port)
        needed = (rlim_t)chosen.connections + 256; /* (the server may open that many) */
    if (getrlimit(RLIMIT_NOFILE, &files) == 0) {
        if (files.rlim_max != RLIM_INFINITY && files.rlim_max < needed) {
            struct rlimit more = {needed, needed};
            if (setrlimit(RLIMIT_NOFILE, &more) == 0) files = more;
        }
        if (files.rlim_cur < files.rlim_max) {
            files.rlim_cur = files.rlim_max;
            setrlimit(RLIMIT_NOFILE, &files);
        }
        getrlimit(RLIMIT_NOFILE, &files);
        rlim_t sockets = (rlim_t)chosen.tables * (rlim_t)chosen.players +
                         (rlim_t)chosen.http * (rlim_t)chosen.threads + 64;
        if (files.rlim_cur != RLIM_INFINITY && files.rlim_cur < sockets)
            fprintf(stderr, "gateau_bench_server: warning: %llu open files allowed, and the load "
                    "needs %llu sockets (ulimit -Hn)\n", (unsigned long long)files.rlim_cur,
                    (unsigned long long)sockets);
    }
    signal(SIGPIPE, SIG_IGN);
    setvbuf(stdout, NULL, _IOLBF, 0);
    return chosen.durability ? run_durability(&chosen, gateau) : run_benchmark(&chosen, gateau);
}
