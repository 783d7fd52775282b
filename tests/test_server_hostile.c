/*
 * test_server_hostile.c: `gateau serve` under hostile clients
 * (docs/server.md, "The contract", "WebSocket" and "Limits").
 *
 * Each test starts the server as a child process (served.h), attacks it
 * from loopback addresses other than 127.0.0.1 (127.0.0.2, 127.0.0.3, ...:
 * the whole of 127/8 is the machine's own) and checks two things:
 *
 *   1. the attack gets the refusal docs/server.md promises;
 *   2. the server stays alive and answers a normal client from 127.0.0.1,
 *      on a connection of its own, about as fast as it did before the
 *      attack in the same test: the median of 20 GET /api/games under
 *      attack is at most 20 times the unloaded one plus 50 ms (a ratio,
 *      never an absolute time alone: the sanitizer build is slower).
 *
 * The clients are written here on raw sockets (they must be able to do
 * what no polite client does: send bad frames, never read, drip a head
 * byte by byte); every read and write has a deadline, so that no test can
 * hang, and the suite has a timeout besides.  Limits are set low through
 * the server's flags to keep every test short.
 */
#define _GNU_SOURCE /* strcasestr, memmem */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "served.h"
#include "server/server.h"
#include "support.h"

#ifndef IP_BIND_ADDRESS_NO_PORT
#define IP_BIND_ADDRESS_NO_PORT 24
#endif

TestSuite(hostile, .init = support_temp_setup, .fini = support_temp_teardown, .timeout = 120);

/* The normal client's address; attackers use 127.0.0.2 and up. */
#define NORMAL "127.0.0.1"
/* A request to the server must be answered within this (the sanitizer
 * build included); nothing waits longer than its deadline. */
#define ANSWER_MS 5000

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1000.0 + (double)t.tv_nsec / 1e6;
}

static void sleep_ms(int milliseconds)
{
    struct timespec t = {.tv_sec = milliseconds / 1000,
                         .tv_nsec = (long)(milliseconds % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {
    }
}

/* The n-th attacker address: 127.0.0.(2 + n). */
static const char *attacker(int n)
{
    static _Thread_local char addresses[8][20];
    static _Thread_local int next;
    char *address = addresses[next++ % 8];
    snprintf(address, sizeof addresses[0], "127.0.0.%d", 2 + n);
    return address;
}

/* ---- Sockets ------------------------------------------------------------------------ */

/* A TCP connection to the server from source (an address of 127/8),
 * with timeouts on every blocking call; receive_buffer > 0 sets SO_RCVBUF
 * before the connection (so that the window the server sees is small).
 * -1 when it cannot be made. */
static int connect_from(const char *source, int port, int receive_buffer)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int one = 1;
    setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (receive_buffer > 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
    struct timeval limit = {.tv_sec = ANSWER_MS / 1000};
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
    struct sockaddr_in local = {.sin_family = AF_INET};
    inet_pton(AF_INET, source, &local.sin_addr);
    struct sockaddr_in remote = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr);
    if (bind(fd, (struct sockaddr *)&local, sizeof local) != 0 ||
        connect(fd, (struct sockaddr *)&remote, sizeof remote) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static bool send_all(int fd, const void *data, size_t length)
{
    const char *at = data;
    while (length) {
        ssize_t sent = send(fd, at, length, MSG_NOSIGNAL);
        if (sent <= 0) {
            if (sent < 0 && errno == EINTR) continue;
            return false;
        }
        at += sent;
        length -= (size_t)sent;
    }
    return true;
}

/* Whether the server has ended the stream (EOF or a reset), waiting up to
 * timeout_ms; what it sent meanwhile is read and dropped. */
static bool stream_ends(int fd, int timeout_ms)
{
    double deadline = now_ms() + timeout_ms;
    char sink[4096];
    for (;;) {
        int left = (int)(deadline - now_ms());
        struct pollfd wait = {.fd = fd, .events = POLLIN};
        int ready = poll(&wait, 1, left > 0 ? left : 0);
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) return false;
        ssize_t got = recv(fd, sink, sizeof sink, MSG_DONTWAIT);
        if (got == 0) return true;
        if (got < 0 && errno != EINTR && errno != EAGAIN) return true;
    }
}

/* ---- HTTP --------------------------------------------------------------------------- */

typedef struct answer {
    int status;   /* -1: no answer */
    char *text;   /* what was read: head and body (malloc'd, NUL-terminated) */
    size_t length;
    size_t head;  /* the head's length, its blank line included (0: no whole head) */
    char *body;   /* after the head, dechunked (malloc'd, NUL-terminated) */
    bool ended;   /* the server ended the stream */
} answer;

static void answer_free(answer *a)
{
    free(a->text);
    free(a->body);
    memset(a, 0, sizeof *a);
}

/* A header of the answer's head (case-insensitive name): its value, in
 * value (empty and false when absent). */
static bool header_of(const answer *a, const char *name, char *value, size_t size)
{
    value[0] = '\0';
    if (!a->head) return false;
    size_t name_length = strlen(name);
    const char *line = strstr(a->text, "\r\n");
    while (line && line < a->text + a->head) {
        line += 2;
        if (!strncasecmp(line, name, name_length) && line[name_length] == ':') {
            const char *start = line + name_length + 1;
            while (*start == ' ' || *start == '\t') start++;
            const char *end = strstr(start, "\r\n");
            size_t length = end ? (size_t)(end - start) : strlen(start);
            if (length >= size) length = size - 1;
            memcpy(value, start, length);
            value[length] = '\0';
            return true;
        }
        line = strstr(line, "\r\n");
    }
    return false;
}

/* The body of a chunked answer, decoded (as much of it as is there). */
static char *dechunk(const char *from, size_t length)
{
    char *out = malloc(length + 1);
    size_t used = 0;
    const char *at = from, *end = from + length;
    while (at < end) {
        char *after;
        unsigned long size = strtoul(at, &after, 16);
        const char *line_end = memmem(at, (size_t)(end - at), "\r\n", 2);
        if (!line_end || size == 0) break;
        at = line_end + 2;
        if (size > (size_t)(end - at)) size = (size_t)(end - at);
        memcpy(out + used, at, size);
        used += size;
        at += size + 2;
    }
    out[used] = '\0';
    return out;
}

/* Reads an answer from fd until it is whole (its Content-Length, or the
 * end of the stream), the stream ends, or timeout_ms pass.  upgrade: stop
 * at the end of the head when it is a 101 (what follows is WebSocket). */
static answer read_answer(int fd, int timeout_ms)
{
    answer a = {.status = -1};
    size_t capacity = 16384;
    a.text = malloc(capacity);
    a.text[0] = '\0';
    double deadline = now_ms() + timeout_ms;
    long content_length = -1;
    bool chunked = false;
    for (;;) {
        if (!a.head) {
            char *blank = strstr(a.text, "\r\n\r\n");
            if (blank) {
                a.head = (size_t)(blank - a.text) + 4;
                if (!strncmp(a.text, "HTTP/1.", 7) && strlen(a.text) > 12)
                    a.status = atoi(a.text + 9);
                char value[64];
                if (header_of(&a, "Content-Length", value, sizeof value))
                    content_length = atol(value);
                if (header_of(&a, "Transfer-Encoding", value, sizeof value))
                    chunked = strcasestr(value, "chunked") != NULL;
                if (a.status == 101 || a.status == 204 || a.status == 304) content_length = 0;
            }
        }
        if (a.head && content_length >= 0 && a.length >= a.head + (size_t)content_length) break;
        if (a.head && chunked && memmem(a.text + a.head, a.length - a.head, "\r\n0\r\n\r\n", 7))
            break;
        if (a.head && chunked && a.length - a.head >= 5 && !strncmp(a.text + a.head, "0\r\n\r\n", 5))
            break;
        int left = (int)(deadline - now_ms());
        if (left <= 0) break;
        struct pollfd wait = {.fd = fd, .events = POLLIN};
        int ready = poll(&wait, 1, left);
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) break;
        if (capacity - a.length < 8192) {
            capacity *= 2;
            a.text = realloc(a.text, capacity);
        }
        ssize_t got = recv(fd, a.text + a.length, capacity - a.length - 1, MSG_DONTWAIT);
        if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN)) {
            a.ended = true;
            break;
        }
        if (got > 0) {
            a.length += (size_t)got;
            a.text[a.length] = '\0';
        }
    }
    if (!a.head && a.length && a.status < 0 && !strncmp(a.text, "HTTP/1.", 7) && a.length > 12)
        a.status = atoi(a.text + 9);
    size_t at = a.head ? a.head : a.length;
    if (a.head && a.status == 101) a.body = strdup("");
    else if (chunked) a.body = dechunk(a.text + at, a.length - at);
    else a.body = strndup(a.text + at, a.length - at);
    return a;
}

/* Sends request (any bytes) from source on a fresh connection and reads
 * the answer. */
static answer http_raw_from(const char *source, int port, const char *request, size_t length)
{
    int fd = connect_from(source, port, 0);
    if (fd < 0) {
        answer none = {.status = -1, .text = strdup(""), .body = strdup("")};
        return none;
    }
    send_all(fd, request, length); /* the server may answer (and close) before the end */
    answer a = read_answer(fd, ANSWER_MS);
    close(fd);
    return a;
}

/* A request from source: method, path, extra headers ("" or "Name:
 * value\r\n"...), a body with its Content-Type (type NULL: none; body
 * NULL: none).  host NULL: "127.0.0.1:PORT". */
static answer http_from(const char *source, int port, const char *method, const char *path,
                        const char *host, const char *headers, const char *type,
                        const char *body, size_t body_length)
{
    char host_line[128];
    if (host) snprintf(host_line, sizeof host_line, "%s", host);
    else snprintf(host_line, sizeof host_line, "127.0.0.1:%d", port);
    size_t size = strlen(path) + strlen(headers) + body_length + 512;
    char *request = malloc(size);
    int used = snprintf(request, size, "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n%s",
                        method, path, host_line, headers);
    if (type) used += snprintf(request + used, size - (size_t)used, "Content-Type: %s\r\n", type);
    if (body) used += snprintf(request + used, size - (size_t)used, "Content-Length: %zu\r\n",
                               body_length);
    used += snprintf(request + used, size - (size_t)used, "\r\n");
    if (body) {
        memcpy(request + used, body, body_length);
        used += (int)body_length;
    }
    answer a = http_raw_from(source, port, request, (size_t)used);
    free(request);
    return a;
}

/* A JSON POST from source. */
static answer post_json(const char *source, int port, const char *path, const char *headers,
                        const char *body)
{
    return http_from(source, port, "POST", path, NULL, headers, "application/json", body,
                     strlen(body));
}

static answer get_from(const char *source, int port, const char *path, const char *headers)
{
    return http_from(source, port, "GET", path, NULL, headers, NULL, NULL, 0);
}

/* The refusal's reason ({"error": "..."}): malloc'd, or NULL when the
 * body is not such an object. */
static char *reason_of(const answer *a)
{
    json_t *value = json_loads(a->body ? a->body : "", 0, NULL);
    const char *text = json_string_value(json_object_get(value, "error"));
    char *reason = text ? strdup(text) : NULL;
    json_decref(value);
    return reason;
}

/* The answer's status must be expected and its reason mention fragment
 * (NULL: any reason, but a JSON one). */
static void expect_refusal(answer *a, int expected, const char *fragment, const char *what)
{
    cr_assert_eq(a->status, expected, "%s: %d, not %d: %s", what, a->status, expected, a->text);
    char *reason = reason_of(a);
    cr_assert_not_null(reason, "%s: a JSON refusal {\"error\": ...}: %s", what, a->text);
    if (fragment)
        cr_assert(strcasestr(reason, fragment), "%s: the reason '%s' should mention '%s'", what,
                  reason, fragment);
    free(reason);
}

/* ---- The normal client -------------------------------------------------------------- */

/* One GET /api/games from 127.0.0.1: its milliseconds (it must answer 200). */
static double timed_games(int port)
{
    double start = now_ms();
    answer a = get_from(NORMAL, port, "/api/games", "");
    double took = now_ms() - start;
    cr_assert_eq(a.status, 200, "the normal client is answered: %d %s", a.status, a.text);
    answer_free(&a);
    return took;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of 20 GET /api/games from the normal client. */
static double games_p50(int port)
{
    double times[20];
    for (int i = 0; i < 20; i++) times[i] = timed_games(port);
    qsort(times, 20, sizeof times[0], by_value);
    return (times[9] + times[10]) / 2;
}

/* The normal client is served as fast under the attack as without it
 * (the ratio above). */
static void expect_fast(int port, double unloaded, const char *attack)
{
    double loaded = games_p50(port);
    cr_assert(loaded <= 20 * unloaded + 50,
              "%s: the normal client waits %.1f ms (median), %.1f ms unloaded", attack, loaded,
              unloaded);
}

/* ---- The server --------------------------------------------------------------------- */

static served start(const char *name, const char *const *extra)
{
    return served_start_with(support_temp_path(name), extra);
}

static void expect_running(const served *running)
{
    int status;
    cr_assert_eq(waitpid(running->pid, &status, WNOHANG), 0, "the server died (status %d)",
                 status);
}

/* SIGTERM: the server stops cleanly (status 0, which the sanitizer build
 * turns into a failure on a leak), within 15 s. */
static void stop(served *running)
{
    expect_running(running);
    kill(running->pid, SIGTERM);
    int status = 0;
    double deadline = now_ms() + 15000;
    pid_t done;
    while ((done = waitpid(running->pid, &status, WNOHANG)) == 0 && now_ms() < deadline)
        sleep_ms(20);
    if (done == 0) {
        kill(running->pid, SIGKILL);
        waitpid(running->pid, &status, 0);
        cr_assert_fail("the server did not stop within 15 s of SIGTERM");
    }
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "the server stops cleanly (status %d)", status);
}

typedef served_table table;

/* A table made by the normal client (body: the creation request). */
static table create_table(int port, const char *body)
{
    answer a = post_json(NORMAL, port, "/api/tables", "", body);
    cr_assert_eq(a.status, 201, "POST /api/tables %s: %d %s", body, a.status, a.text);
    json_t *value = served_parse(a.body);
    table made = served_table_from(value);
    json_decref(value);
    answer_free(&a);
    cr_assert(made.id[0], "a table id");
    return made;
}

/* A table of Mice Cake with two seats for people (the attacks' target). */
static table two_seats(int port)
{
    return create_table(port, "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"human\"]}");
}

/* ---- WebSocket ---------------------------------------------------------------------- */

typedef struct wsock {
    int fd;          /* -1: none */
    char *pending;   /* bytes read but not yet returned as frames */
    size_t have, capacity;
    bool ended;      /* the server ended the stream */
} wsock;

/* The upgrade of path from source (host NULL: "127.0.0.1:PORT"; headers:
 * "" or more lines); receive_buffer as connect_from.  The answer to the
 * upgrade; when it is 101, socket is open (else its fd is -1). */
static answer ws_upgrade(wsock *socket_, const char *source, int port, const char *path,
                         const char *host, const char *headers, int receive_buffer)
{
    memset(socket_, 0, sizeof *socket_);
    socket_->fd = connect_from(source, port, receive_buffer);
    if (socket_->fd < 0) {
        answer none = {.status = -1, .text = strdup(""), .body = strdup("")};
        return none;
    }
    char host_line[128], request[2048];
    if (host) snprintf(host_line, sizeof host_line, "%s", host);
    else snprintf(host_line, sizeof host_line, "127.0.0.1:%d", port);
    int length = snprintf(request, sizeof request,
                          "GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\n"
                          "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                          "Sec-WebSocket-Version: 13\r\n%s\r\n",
                          path, host_line, headers);
    send_all(socket_->fd, request, (size_t)length);
    answer a = read_answer(socket_->fd, ANSWER_MS);
    if (a.status == 101) {
        /* What followed the head already is WebSocket. */
        socket_->capacity = 65536 + a.length;
        socket_->pending = malloc(socket_->capacity);
        socket_->have = a.length - a.head;
        memcpy(socket_->pending, a.text + a.head, socket_->have);
    } else {
        close(socket_->fd);
        socket_->fd = -1;
    }
    return a;
}

/* A spectator's or a seat's socket on a table from source: false when the
 * upgrade is not a 101. */
static bool ws_open(wsock *socket_, const char *source, int port, const char *table_id,
                    int receive_buffer)
{
    char path[128];
    snprintf(path, sizeof path, "/api/tables/%s/ws", table_id);
    answer a = ws_upgrade(socket_, source, port, path, NULL, "", receive_buffer);
    bool open = a.status == 101;
    answer_free(&a);
    return open;
}

static void ws_free(wsock *socket_)
{
    if (socket_->fd >= 0) close(socket_->fd);
    free(socket_->pending);
    memset(socket_, 0, sizeof *socket_);
    socket_->fd = -1;
}

/* Sends one frame as given: fin, the RSV bits (0 to 7), the opcode, the
 * payload, masked or not (a client must mask). */
static bool ws_frame(wsock *socket_, bool fin, int rsv, int opcode, const void *payload,
                     size_t length, bool masked)
{
    unsigned char *frame = malloc(length + 14);
    size_t at = 0;
    frame[at++] = (unsigned char)((fin ? 0x80 : 0) | (rsv & 7) << 4 | (opcode & 0x0f));
    unsigned char mask_bit = masked ? 0x80 : 0;
    if (length < 126) {
        frame[at++] = (unsigned char)(mask_bit | length);
    } else if (length < 65536) {
        frame[at++] = mask_bit | 126;
        frame[at++] = (unsigned char)(length >> 8);
        frame[at++] = (unsigned char)length;
    } else {
        frame[at++] = mask_bit | 127;
        for (int shift = 56; shift >= 0; shift -= 8)
            frame[at++] = (unsigned char)((uint64_t)length >> shift);
    }
    static const unsigned char key[4] = {0x37, 0xfa, 0x21, 0x3d};
    if (masked) {
        memcpy(frame + at, key, 4);
        at += 4;
    }
    const unsigned char *bytes = payload;
    for (size_t i = 0; i < length; i++) frame[at + i] = masked ? bytes[i] ^ key[i % 4] : bytes[i];
    bool sent = send_all(socket_->fd, frame, at + length);
    free(frame);
    return sent;
}

static bool ws_text(wsock *socket_, const char *text)
{
    return ws_frame(socket_, true, 0, 1, text, strlen(text), true);
}

/* The next frame from the server: 1 (its opcode and payload, malloc'd and
 * NUL-terminated; payload may be NULL to drop it), 0 when the stream ended
 * first, -1 when none came within timeout_ms. */
static int ws_next(wsock *socket_, int timeout_ms, int *opcode, char **payload, size_t *length)
{
    double deadline = now_ms() + timeout_ms;
    for (;;) {
        if (socket_->have >= 2) {
            const unsigned char *p = (const unsigned char *)socket_->pending;
            size_t need = 2;
            uint64_t size = p[1] & 0x7f;
            bool whole_length = true;
            if (size == 126) {
                need = 4;
                if (socket_->have >= 4) size = (uint64_t)p[2] << 8 | p[3];
                else whole_length = false;
            } else if (size == 127) {
                need = 10;
                if (socket_->have >= 10) {
                    size = 0;
                    for (int i = 2; i < 10; i++) size = size << 8 | p[i];
                } else {
                    whole_length = false;
                }
            }
            bool masked = p[1] & 0x80;
            if (masked) need += 4;
            if (whole_length && size > (64u << 20)) { /* nonsense: take it for the end */
                socket_->ended = true;
                return 0;
            }
            if (whole_length && socket_->have >= need + size) {
                *opcode = p[0] & 0x0f;
                if (length) *length = (size_t)size;
                if (payload) {
                    *payload = malloc((size_t)size + 1);
                    for (size_t i = 0; i < size; i++)
                        (*payload)[i] = (char)(masked ? p[need + i] ^ p[need - 4 + i % 4]
                                                      : p[need + i]);
                    (*payload)[size] = '\0';
                }
                size_t used = need + (size_t)size;
                memmove(socket_->pending, socket_->pending + used, socket_->have - used);
                socket_->have -= used;
                return 1;
            }
        }
        if (socket_->ended || socket_->fd < 0) return 0;
        int left = (int)(deadline - now_ms());
        struct pollfd wait = {.fd = socket_->fd, .events = POLLIN};
        int ready = poll(&wait, 1, left > 0 ? left : 0);
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) return -1;
        if (socket_->capacity - socket_->have < 65536) {
            socket_->capacity = socket_->capacity * 2 + 65536;
            socket_->pending = realloc(socket_->pending, socket_->capacity);
        }
        ssize_t got = recv(socket_->fd, socket_->pending + socket_->have,
                           socket_->capacity - socket_->have, MSG_DONTWAIT);
        if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN)) {
            socket_->ended = true;
            continue; /* frames already whole are still returned */
        }
        if (got > 0) socket_->have += (size_t)got;
    }
}

/* The next text message (frames of other kinds are skipped; a close frame
 * or the end of the stream stop it): malloc'd, or NULL. */
static char *ws_message(wsock *socket_, int timeout_ms)
{
    double deadline = now_ms() + timeout_ms;
    for (;;) {
        int opcode, left = (int)(deadline - now_ms());
        char *payload;
        int got = ws_next(socket_, left > 0 ? left : 0, &opcode, &payload, NULL);
        if (got != 1) return NULL;
        if (opcode == 1) return payload;
        free(payload);
        if (opcode == 8) {
            /* Put nothing back: the close is what the caller learns from NULL. */
            return NULL;
        }
    }
}

/* How a socket ends: the code of the server's close frame (1005 when it
 * has none), 0 when the stream ended without one, -1 when neither came
 * within timeout_ms.  Text frames before are skipped (counted in texts).
 * After a close frame, the close is answered, as a client does, and
 * socket->ended says whether the stream then ended (within 5 s). */
static int ws_outcome(wsock *socket_, int timeout_ms, int *texts)
{
    double deadline = now_ms() + timeout_ms;
    for (;;) {
        int opcode, left = (int)(deadline - now_ms());
        char *payload;
        size_t length;
        int got = ws_next(socket_, left > 0 ? left : 0, &opcode, &payload, &length);
        if (got == 0) return 0;
        if (got < 0) return -1;
        if (opcode == 8) {
            int code = length >= 2 ? ((unsigned char)payload[0] << 8 | (unsigned char)payload[1])
                                   : 1005;
            free(payload);
            unsigned char reply[2] = {(unsigned char)(code >> 8), (unsigned char)code};
            ws_frame(socket_, true, 0, 8, reply, code == 1005 ? 0 : 2, true);
            if (!socket_->ended) socket_->ended = stream_ends(socket_->fd, 5000);
            return code;
        }
        if (opcode == 1 && texts) ++*texts;
        free(payload);
    }
}

/* Closes a socket as a polite client does: a close frame, then the
 * server's answer or the end (a short wait). */
static void ws_goodbye(wsock *socket_, int timeout_ms)
{
    if (socket_->fd < 0) return;
    unsigned char code[2] = {1000 >> 8, 1000 & 0xff};
    if (ws_frame(socket_, true, 0, 8, code, 2, true)) stream_ends(socket_->fd, timeout_ms);
    ws_free(socket_);
}

/* The snapshot's JSON, parsed from a message (the test fails otherwise). */
static json_t *parse_snapshot(const char *message)
{
    json_t *value = served_parse(message);
    cr_assert(json_is_object(value) && json_object_get(value, "version"),
              "a snapshot: %s", message);
    return value;
}

/* ---- The attacks -------------------------------------------------------------------- */

/* 100,000 nested brackets as the JSON body of every POST route: 400
 * naming the nesting (checked before the body is parsed), while the
 * normal client is served as fast as before. */
#define BRACKETS 100000

typedef struct nesting_attack {
    int port;
    const table *target;
    atomic_bool stop;
    int sent;
    int wrong;            /* answers other than a 400 naming the nesting */
    char first_wrong[512];
} nesting_attack;

static void nesting_route(int index, const table *target, char *path, size_t size,
                          char *headers, size_t headers_size)
{
    headers[0] = '\0';
    switch (index) {
    case 0:
        snprintf(path, size, "/api/tables");
        break;
    case 1:
        snprintf(path, size, "/api/replay");
        break;
    case 2:
        snprintf(path, size, "/api/tables/%s/moves", target->id);
        snprintf(headers, headers_size, "Authorization: Bearer %s\r\n", target->tokens[0]);
        break;
    case 3:
        snprintf(path, size, "/api/tables/%s/join", target->id);
        break;
    default:
        snprintf(path, size, "/api/tables/%s/zombie", target->id);
        snprintf(headers, headers_size, "Authorization: Bearer %s\r\n", target->creator);
        break;
    }
}

static void *nesting_loop(void *context)
{
    nesting_attack *attack = context;
    char *brackets = malloc(BRACKETS + 1);
    memset(brackets, '[', BRACKETS);
    brackets[BRACKETS] = '\0';
    /* Every route at least once, then again until told to stop (at most
     * 60 requests: the per-address request limit is not what this tests). */
    for (int i = 0; i < 60 && (i < 5 || !atomic_load(&attack->stop)); i++) {
        char path[128], headers[160];
        nesting_route(i % 5, attack->target, path, sizeof path, headers, sizeof headers);
        answer a = post_json(attacker(i % 4), attack->port, path, headers, brackets);
        attack->sent++;
        char *reason = reason_of(&a);
        bool right = a.status == 400 && reason &&
                     (strcasestr(reason, "nest") || strcasestr(reason, "deep"));
        if (!right && attack->wrong++ == 0)
            snprintf(attack->first_wrong, sizeof attack->first_wrong, "POST %s: %d %.300s", path,
                     a.status, a.text);
        free(reason);
        answer_free(&a);
    }
    free(brackets);
    return NULL;
}

Test(hostile, deeply_nested_bodies_are_refused)
{
    served running = start("nesting.db", NULL);
    double unloaded = games_p50(running.port);
    table target = create_table(running.port, "{\"game\":\"mice-cake\",\"seats\":[\"human\","
                                              "\"open\"]}");
    char table_path[128];
    snprintf(table_path, sizeof table_path, "/api/tables/%s", target.id);
    answer before = get_from(NORMAL, running.port, table_path, "");
    cr_assert_eq(before.status, 200, "%s", before.text);
    json_t *first = served_parse(before.body);
    json_int_t version_before = json_integer_value(json_object_get(first, "version"));
    json_decref(first);
    answer_free(&before);
    nesting_attack attack = {.port = running.port, .target = &target};
    pthread_t thread;
    cr_assert_eq(pthread_create(&thread, NULL, nesting_loop, &attack), 0);
    sleep_ms(20);
    double loaded = games_p50(running.port);
    atomic_store(&attack.stop, true);
    pthread_join(thread, NULL);
    cr_assert_geq(attack.sent, 5);
    cr_assert_eq(attack.wrong, 0,
                 "%d of %d nested bodies were not refused with 400 naming the nesting; the "
                 "first: %s",
                 attack.wrong, attack.sent, attack.first_wrong);
    cr_assert(loaded <= 20 * unloaded + 50,
              "nested bodies: the normal client waits %.1f ms (median), %.1f ms unloaded",
              loaded, unloaded);

    /* Each route once more, from the test itself, for the exact message;
     * and a nesting just over the limit is refused as well. */
    char over[80];
    memset(over, '[', 33);
    memset(over + 33, ']', 33);
    over[66] = '\0';
    for (int route = 0; route < 5; route++) {
        char path[128], headers[160];
        nesting_route(route, &target, path, sizeof path, headers, sizeof headers);
        answer a = post_json(attacker(route), running.port, path, headers, over);
        expect_refusal(&a, 400, NULL, path);
        answer_free(&a);
    }
    /* Brackets beyond the body limit (128 KiB): 413. */
    size_t beyond = 130 * 1024;
    char *huge = malloc(beyond + 1);
    memset(huge, '[', beyond);
    huge[beyond] = '\0';
    answer too_big = post_json(attacker(0), running.port, "/api/tables", "", huge);
    free(huge);
    expect_refusal(&too_big, 413, NULL, "130 KiB of brackets");
    answer_free(&too_big);
    /* Nothing was changed: seat 2 is still open. */
    char path[128];
    snprintf(path, sizeof path, "/api/tables/%s", target.id);
    answer a = get_from(NORMAL, running.port, path, "");
    cr_assert_eq(a.status, 200, "%s", a.text);
    json_t *snapshot = served_parse(a.body);
    cr_assert(json_is_true(json_object_get(json_array_get(json_object_get(snapshot, "seats"), 1),
                                           "open")),
              "seat 2 is still open: %s", a.body);
    cr_assert_eq(json_integer_value(json_object_get(snapshot, "version")), version_before,
                 "no move was played: %s", a.body);
    json_decref(snapshot);
    answer_free(&a);
    stop(&running);
}

/* A body that is not declared JSON: 415 (a form of another site cannot
 * post one). */
Test(hostile, bodies_not_declared_json_are_refused)
{
    served running = start("types.db", NULL);
    double unloaded = games_p50(running.port);
    const char *body = "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"human\"]}";
    const char *types[] = {"text/plain", "text/plain;charset=UTF-8",
                           "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                           NULL};
    for (int i = 0; types[i]; i++) {
        answer a = http_from(attacker(i), running.port, "POST", "/api/tables", NULL, "", types[i],
                             body, strlen(body));
        char what[128];
        snprintf(what, sizeof what, "POST /api/tables as %s", types[i]);
        expect_refusal(&a, 415, NULL, what);
        answer_free(&a);
    }
    /* No Content-Type at all. */
    answer a = http_from(attacker(5), running.port, "POST", "/api/tables", NULL, "", NULL, body,
                         strlen(body));
    expect_refusal(&a, 415, NULL, "POST /api/tables without a Content-Type");
    answer_free(&a);
    /* No table was made by any of them. */
    a = get_from(NORMAL, running.port, "/api/tables", "");
    cr_assert_eq(a.status, 200, "%s", a.text);
    json_t *lobby = served_parse(a.body);
    cr_assert(json_is_array(json_object_get(lobby, "tables")), "%s", a.body);
    cr_assert_eq(json_array_size(json_object_get(lobby, "tables")), 0,
                 "no table was made: %s", a.body);
    json_decref(lobby);
    answer_free(&a);
    expect_fast(running.port, unloaded, "bodies of other types");
    stop(&running);
}

/* A token in a URL's query: 400 naming the Authorization header, on every
 * route that takes a token, and on the WebSocket's path. */
Test(hostile, tokens_in_urls_are_refused)
{
    served running = start("query-tokens.db", NULL);
    double unloaded = games_p50(running.port);
    table target = two_seats(running.port);
    const char *routes[] = {"", "/legal", "/hint", "/record", NULL};
    char path[512];
    for (int i = 0; routes[i]; i++) {
        snprintf(path, sizeof path, "/api/tables/%s%s?token=%s", target.id, routes[i],
                 target.tokens[0]);
        answer a = get_from(attacker(i), running.port, path, "");
        expect_refusal(&a, 400, "Authorization", path);
        answer_free(&a);
        /* Also after other parameters, and with the header given too. */
        snprintf(path, sizeof path, "/api/tables/%s%s?log_from=0&after=&ms=50&token=%s",
                 target.id, routes[i], target.tokens[0]);
        char headers[128];
        snprintf(headers, sizeof headers, "Authorization: Bearer %s\r\n", target.tokens[0]);
        a = get_from(attacker(i), running.port, path, headers);
        expect_refusal(&a, 400, "Authorization", path);
        answer_free(&a);
    }
    snprintf(path, sizeof path, "/api/tables/%s/ws?token=%s", target.id, target.tokens[0]);
    wsock socket_;
    answer a = ws_upgrade(&socket_, attacker(6), running.port, path, NULL, "", 0);
    cr_assert_neq(a.status, 101, "the upgrade with ?token= is refused: %s", a.text);
    expect_refusal(&a, 400, "Authorization", path);
    answer_free(&a);
    ws_free(&socket_);
    /* The header is what works. */
    snprintf(path, sizeof path, "/api/tables/%s", target.id);
    char headers[128];
    snprintf(headers, sizeof headers, "Authorization: Bearer %s\r\n", target.tokens[0]);
    a = get_from(NORMAL, running.port, path, headers);
    cr_assert_eq(a.status, 200, "%s", a.text);
    json_t *snapshot = served_parse(a.body);
    cr_assert_eq(json_integer_value(json_object_get(snapshot, "seat")), 1, "%s", a.body);
    json_decref(snapshot);
    answer_free(&a);
    expect_fast(running.port, unloaded, "tokens in URLs");
    stop(&running);
}

/* A subscriber that never reads while its table changes fast: the
 * server closes it (its outbox is bounded: 64 pushes or 1 MiB, 1013),
 * while the table's other subscriber keeps receiving pushes and the
 * normal client stays fast.  The changes are presence: seat 2's socket
 * opened and closed again and again (each open and close is pushed). */
typedef struct churn {
    int port;
    const table *target;
    wsock *spectator;       /* the reading subscriber, drained after every change */
    atomic_bool stop;
    atomic_int toggles;
    atomic_int spectator_pushes;
    atomic_bool spectator_lost;
    int failures;
    char failure[256];
} churn;

static void drain_spectator(churn *work)
{
    int opcode, got;
    char *payload;
    while ((got = ws_next(work->spectator, 0, &opcode, &payload, NULL)) == 1) {
        if (opcode == 1) atomic_fetch_add(&work->spectator_pushes, 1);
        free(payload);
        if (opcode == 8) atomic_store(&work->spectator_lost, true);
    }
    if (got == 0) atomic_store(&work->spectator_lost, true);
}

static void *churn_loop(void *context)
{
    churn *work = context;
    char hello[128];
    snprintf(hello, sizeof hello, "{\"token\":\"%s\"}", work->target->tokens[1]);
    double deadline = now_ms() + 60000;
    while (!atomic_load(&work->stop) && now_ms() < deadline && work->failures < 20) {
        wsock seat;
        if (!ws_open(&seat, attacker(2), work->port, work->target->id, 0)) {
            if (work->failures++ == 0) snprintf(work->failure, sizeof work->failure,
                                                "seat 2's upgrade refused");
            ws_free(&seat);
            sleep_ms(50);
            continue;
        }
        ws_text(&seat, hello);
        char *first = ws_message(&seat, ANSWER_MS);
        if (!first && work->failures++ == 0)
            snprintf(work->failure, sizeof work->failure, "seat 2 got no snapshot");
        free(first);
        ws_goodbye(&seat, 1000);
        atomic_fetch_add(&work->toggles, 1);
        drain_spectator(work);
    }
    return NULL;
}

/* Whether seat (1-based) is connected, as the normal client sees it. */
static bool seat_connected(int port, const table *target, int seat)
{
    char path[128];
    snprintf(path, sizeof path, "/api/tables/%s", target->id);
    answer a = get_from(NORMAL, port, path, "");
    cr_assert_eq(a.status, 200, "%s", a.text);
    json_t *snapshot = served_parse(a.body);
    json_t *flag = json_object_get(json_array_get(json_object_get(snapshot, "seats"),
                                                  (size_t)seat - 1), "connected");
    cr_assert(json_is_boolean(flag), "seats say \"connected\": %s", a.body);
    bool connected = json_is_true(flag);
    json_decref(snapshot);
    answer_free(&a);
    return connected;
}

Test(hostile, a_subscriber_that_never_reads_is_closed)
{
    /* (The churn makes hundreds of upgrades a second from one address:
     * the request limit is not what this tests.) */
    const char *extra[] = {"--address-requests", "0", NULL};
    served running = start("slow.db", extra);
    double unloaded = games_p50(running.port);
    table target = two_seats(running.port);

    /* The slow one: seat 1, a small receive buffer, its hello, then
     * nothing read ever again. */
    wsock slow;
    cr_assert(ws_open(&slow, attacker(0), running.port, target.id, 4096));
    char hello[128];
    snprintf(hello, sizeof hello, "{\"token\":\"%s\"}", target.tokens[0]);
    cr_assert(ws_text(&slow, hello));
    /* A spectator that reads. */
    wsock spectator;
    cr_assert(ws_open(&spectator, attacker(1), running.port, target.id, 0));
    cr_assert(ws_text(&spectator, "{}"));
    char *first = ws_message(&spectator, ANSWER_MS);
    cr_assert_not_null(first, "the spectator's snapshot");
    json_decref(parse_snapshot(first));
    free(first);
    double connected_by = now_ms() + ANSWER_MS;
    while (!seat_connected(running.port, &target, 1) && now_ms() < connected_by) sleep_ms(20);
    cr_assert(seat_connected(running.port, &target, 1), "the slow seat is connected");

    churn work = {.port = running.port, .target = &target, .spectator = &spectator};
    pthread_t thread;
    cr_assert_eq(pthread_create(&thread, NULL, churn_loop, &work), 0);
    sleep_ms(50);
    double loaded = games_p50(running.port);

    /* The server lets the slow seat go: its presence goes. */
    double began = now_ms(), deadline = began + 30000;
    bool closed = false;
    while (!closed && now_ms() < deadline && !atomic_load(&work.spectator_lost)) {
        closed = !seat_connected(running.port, &target, 1);
        if (!closed) sleep_ms(100);
    }
    int toggles_then = atomic_load(&work.toggles), pushes_then =
                                                       atomic_load(&work.spectator_pushes);
    /* The spectator goes on receiving after it. */
    double after = now_ms() + 5000;
    while (atomic_load(&work.spectator_pushes) < pushes_then + 6 && now_ms() < after &&
           !atomic_load(&work.spectator_lost))
        sleep_ms(20);
    atomic_store(&work.stop, true);
    pthread_join(thread, NULL);
    int pushes = atomic_load(&work.spectator_pushes);
    cr_assert_eq(work.failures, 0, "the churning seat: %s", work.failure);
    cr_assert_not(atomic_load(&work.spectator_lost),
                  "the reading spectator was closed (after %d pushes)", pushes);
    cr_assert(closed,
              "the never-reading seat is still connected after %d presence changes (%d pushes "
              "to the spectator) and %.0f ms",
              2 * atomic_load(&work.toggles), pushes, now_ms() - began);
    cr_assert_gt(pushes_then, 64, "the spectator received every change meanwhile (%d pushes)",
                 pushes_then);
    cr_assert_geq(pushes, pushes_then + 6,
                  "the spectator keeps receiving pushes after the slow seat was closed (%d, then "
                  "%d)",
                  pushes_then, pushes);
    cr_assert(loaded <= 20 * unloaded + 50,
              "a never-reading subscriber: the normal client waits %.1f ms (median), %.1f ms "
              "unloaded",
              loaded, unloaded);

    /* What the slow socket finally reads: the pushes it held, then the end
     * (or a close frame saying 1013, or 1008). */
    int texts = 0;
    int outcome = ws_outcome(&slow, 10000, &texts);
    cr_assert(outcome == 0 || outcome == 1013 || outcome == 1008,
              "the never-reading socket ends (%s %d) after %d pushes",
              outcome < 0 ? "no end within 10 s" : "close code", outcome, texts);
    if (outcome > 0) cr_assert(slow.ended, "the stream ends after the close frame");
    cr_log_info("never-reading socket: closed after %d toggles, %d pushes read back, outcome %d",
                toggles_then, texts, outcome);
    ws_free(&slow);
    ws_goodbye(&spectator, 1000);
    stop(&running);
}

/* More spectators than a table takes, from several addresses: the first
 * --spectators get their snapshot, the rest are closed with 1013; the
 * seats' own sockets never compete with them (8 a seat). */
#define SPECTATORS_LIMIT 50
#define SPECTATORS 200

Test(hostile, spectators_beyond_the_limit_do_not_crowd_out_seats)
{
    const char *extra[] = {"--spectators", "50", NULL};
    served running = start("spectators.db", extra);
    double unloaded = games_p50(running.port);
    table target = create_table(running.port, "{\"game\":\"maries-table\",\"seats\":[\"human\","
                                              "\"human\",\"human\",\"human\"]}");
    static wsock watchers[SPECTATORS];
    int refused_upgrades = 0;
    for (int i = 0; i < SPECTATORS; i++) {
        /* 50 an address: under the per-address WebSocket limit (64). */
        if (!ws_open(&watchers[i], attacker(i / 50), running.port, target.id, 0)) {
            refused_upgrades++;
            continue;
        }
        ws_text(&watchers[i], "{}");
    }
    cr_assert_eq(refused_upgrades, 0, "every spectator's upgrade is accepted (%d refused)",
                 refused_upgrades);
    int snapshots = 0, closed_1013 = 0, other = 0, other_code = 0;
    double deadline = now_ms() + 20000;
    for (int i = 0; i < SPECTATORS; i++) {
        int left = (int)(deadline - now_ms());
        char *message = NULL;
        int opcode = 0;
        size_t length = 0;
        int got = ws_next(&watchers[i], left > 0 ? left : 0, &opcode, &message, &length);
        if (got == 1 && opcode == 1 && strstr(message, "\"version\"")) {
            snapshots++;
        } else if (got == 1 && opcode == 8) {
            int code = length >= 2 ? (unsigned char)message[0] << 8 | (unsigned char)message[1]
                                   : 1005;
            if (code == 1013) closed_1013++;
            else other++, other_code = code;
        } else {
            other++, other_code = got == 0 ? 0 : -1;
        }
        free(message);
    }
    cr_assert_eq(snapshots, SPECTATORS_LIMIT,
                 "%d spectators got a snapshot (limit %d); %d closed with 1013, %d otherwise "
                 "(last: %d)",
                 snapshots, SPECTATORS_LIMIT, closed_1013, other, other_code);
    cr_assert_eq(closed_1013, SPECTATORS - SPECTATORS_LIMIT,
                 "the spectators over the limit are closed with 1013 (%d; %d otherwise, last %d)",
                 closed_1013, other, other_code);
    expect_fast(running.port, unloaded, "200 spectators");

    /* Every seat connects with its token (8 sockets each): every one of
     * them gets its snapshot. */
    static wsock seats[4][SERVER_SEAT_SOCKETS];
    for (int seat = 0; seat < 4; seat++) {
        char hello[128];
        snprintf(hello, sizeof hello, "{\"token\":\"%s\"}", target.tokens[seat]);
        for (int k = 0; k < SERVER_SEAT_SOCKETS; k++) {
            cr_assert(ws_open(&seats[seat][k], attacker(5), running.port, target.id, 0),
                      "seat %d's socket %d is upgraded", seat + 1, k + 1);
            cr_assert(ws_text(&seats[seat][k], hello));
        }
    }
    for (int seat = 0; seat < 4; seat++)
        for (int k = 0; k < SERVER_SEAT_SOCKETS; k++) {
            char *message = ws_message(&seats[seat][k], ANSWER_MS);
            cr_assert_not_null(message, "seat %d's socket %d gets its snapshot beside %d "
                               "spectators", seat + 1, k + 1, SPECTATORS_LIMIT);
            json_t *snapshot = parse_snapshot(message);
            cr_assert_eq(json_integer_value(json_object_get(snapshot, "seat")), seat + 1,
                         "%s", message);
            json_decref(snapshot);
            free(message);
        }
    /* A ninth socket of one seat: 1013. */
    wsock ninth;
    cr_assert(ws_open(&ninth, attacker(5), running.port, target.id, 0));
    char hello[128];
    snprintf(hello, sizeof hello, "{\"token\":\"%s\"}", target.tokens[0]);
    ws_text(&ninth, hello);
    int texts = 0, code = ws_outcome(&ninth, ANSWER_MS, &texts);
    cr_assert_eq(code, 1013, "a seat's ninth socket is closed with 1013 (got %d after %d "
                 "messages)", code, texts);
    ws_free(&ninth);
    for (int i = 0; i < SPECTATORS; i++) ws_free(&watchers[i]);
    for (int seat = 0; seat < 4; seat++)
        for (int k = 0; k < SERVER_SEAT_SOCKETS; k++) ws_free(&seats[seat][k]);
    stop(&running);
}

/* Twice the per-address connection limit from one address: the extra
 * connections are closed at once; another address and the normal client
 * are served meanwhile. */
#define ADDRESS_CONNECTIONS 16

Test(hostile, connections_beyond_the_address_limit_are_closed)
{
    const char *extra[] = {"--address-connections", "16", NULL};
    served running = start("connections.db", extra);
    double unloaded = games_p50(running.port);
    int fds[2 * ADDRESS_CONNECTIONS];
    for (int i = 0; i < 2 * ADDRESS_CONNECTIONS; i++) {
        fds[i] = connect_from(attacker(0), running.port, 0);
        cr_assert_geq(fds[i], 0, "connection %d is made (the kernel accepts it)", i + 1);
    }
    /* Within 2 s, exactly the extra ones are closed. */
    bool closed[2 * ADDRESS_CONNECTIONS] = {0};
    int closed_count = 0;
    double deadline = now_ms() + 2000;
    while (closed_count < ADDRESS_CONNECTIONS && now_ms() < deadline) {
        struct pollfd waits[2 * ADDRESS_CONNECTIONS];
        for (int i = 0; i < 2 * ADDRESS_CONNECTIONS; i++)
            waits[i] = (struct pollfd){.fd = closed[i] ? -1 : fds[i], .events = POLLIN};
        int left = (int)(deadline - now_ms());
        if (poll(waits, 2 * ADDRESS_CONNECTIONS, left > 0 ? left : 0) <= 0) continue;
        for (int i = 0; i < 2 * ADDRESS_CONNECTIONS; i++)
            if (!closed[i] && waits[i].revents && stream_ends(fds[i], 0)) {
                closed[i] = true;
                closed_count++;
            }
    }
    cr_assert_eq(closed_count, ADDRESS_CONNECTIONS,
                 "of %d connections from one address (limit %d), %d were closed within 2 s",
                 2 * ADDRESS_CONNECTIONS, ADDRESS_CONNECTIONS, closed_count);
    /* The normal client, and another attacker address, are served. */
    expect_fast(running.port, unloaded, "connections over the address limit");
    answer a = get_from(attacker(1), running.port, "/api/games", "");
    cr_assert_eq(a.status, 200, "another address is served: %d", a.status);
    answer_free(&a);
    /* The held ones still count: one more from that address is closed too. */
    int more = connect_from(attacker(0), running.port, 0);
    cr_assert_geq(more, 0);
    cr_assert(stream_ends(more, 2000), "one more connection from the full address is closed");
    close(more);
    /* Once they are closed, the address is served again. */
    for (int i = 0; i < 2 * ADDRESS_CONNECTIONS; i++) close(fds[i]);
    int status = -1;
    deadline = now_ms() + 3000;
    while (status != 200 && now_ms() < deadline) {
        a = get_from(attacker(0), running.port, "/api/games", "");
        status = a.status;
        answer_free(&a);
        if (status != 200) sleep_ms(50);
    }
    cr_assert_eq(status, 200, "the address is served again once its connections close");
    stop(&running);
}

/* Slowloris: hundreds of connections from several addresses sending a
 * request's head one byte a second.  The server cuts them within its head
 * timeout (5 s; allowed: 3 times that), serving the normal client
 * meanwhile. */
#define SLOW_CONNECTIONS 300

typedef struct slowloris {
    int port;
    int fds[SLOW_CONNECTIONS];
    double opened, closed_at[SLOW_CONNECTIONS]; /* 0: still open */
    atomic_int open;
    int sent_bytes;
} slowloris;

static void *slowloris_loop(void *context)
{
    slowloris *attack = context;
    static const char head[] = "GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
                               "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    double deadline = attack->opened + 3000.0 * SERVER_HEAD_SECONDS + 1000;
    for (int second = 0; atomic_load(&attack->open) > 0 && now_ms() < deadline; second++) {
        char byte = head[second < (int)sizeof head - 1 ? second : (int)sizeof head - 2];
        for (int i = 0; i < SLOW_CONNECTIONS; i++)
            if (attack->fds[i] >= 0 && !attack->closed_at[i]) {
                send(attack->fds[i], &byte, 1, MSG_NOSIGNAL | MSG_DONTWAIT);
                attack->sent_bytes++;
            }
        /* A second of watching for closes. */
        double next = now_ms() + 1000;
        while (now_ms() < next && atomic_load(&attack->open) > 0) {
            struct pollfd waits[SLOW_CONNECTIONS];
            for (int i = 0; i < SLOW_CONNECTIONS; i++)
                waits[i] = (struct pollfd){
                    .fd = attack->fds[i] >= 0 && !attack->closed_at[i] ? attack->fds[i] : -1,
                    .events = POLLIN};
            int left = (int)(next - now_ms());
            if (poll(waits, SLOW_CONNECTIONS, left > 0 ? left : 0) <= 0) continue;
            for (int i = 0; i < SLOW_CONNECTIONS; i++)
                if (waits[i].fd >= 0 && waits[i].revents && stream_ends(attack->fds[i], 0)) {
                    attack->closed_at[i] = now_ms();
                    atomic_fetch_sub(&attack->open, 1);
                }
        }
    }
    return NULL;
}

Test(hostile, slowloris_heads_are_cut)
{
    served running = start("slowloris.db", NULL);
    double unloaded = games_p50(running.port);
    static slowloris attack;
    memset(&attack, 0, sizeof attack);
    attack.port = running.port;
    attack.opened = now_ms();
    int made = 0;
    for (int i = 0; i < SLOW_CONNECTIONS; i++) {
        /* 30 an address: under the per-address connection limit (128). */
        attack.fds[i] = connect_from(attacker(i / 30), running.port, 0);
        made += attack.fds[i] >= 0;
    }
    cr_assert_eq(made, SLOW_CONNECTIONS, "the connections are made (%d)", made);
    atomic_store(&attack.open, SLOW_CONNECTIONS);
    pthread_t thread;
    cr_assert_eq(pthread_create(&thread, NULL, slowloris_loop, &attack), 0);
    sleep_ms(1500);
    double loaded = games_p50(running.port);
    /* Again later, while the last of them are cut. */
    sleep_ms(2000);
    double later = games_p50(running.port);
    pthread_join(thread, NULL);
    int still_open = 0;
    double last = 0;
    for (int i = 0; i < SLOW_CONNECTIONS; i++) {
        if (!attack.closed_at[i]) still_open++;
        else if (attack.closed_at[i] - attack.opened > last) last = attack.closed_at[i] - attack.opened;
    }
    for (int i = 0; i < SLOW_CONNECTIONS; i++) close(attack.fds[i]);
    cr_assert_eq(still_open, 0,
                 "%d of %d slow heads are still open %d s after they began (the head timeout "
                 "is %d s)",
                 still_open, SLOW_CONNECTIONS, 3 * SERVER_HEAD_SECONDS, SERVER_HEAD_SECONDS);
    cr_log_info("slowloris: the last slow head was cut after %.0f ms", last);
    cr_assert(loaded <= 20 * unloaded + 50 && later <= 20 * unloaded + 50,
              "slowloris: the normal client waits %.1f then %.1f ms (median), %.1f ms unloaded",
              loaded, later, unloaded);
    stop(&running);
}

/* Keep-alive connections that asked once and fell silent: closed after
 * --keep-alive seconds (here 1); one that goes on asking is kept.  (The
 * loop times them itself, not libwebsockets: loop.c, time_out.) */
#define IDLE_KEEP_ALIVE 100

Test(hostile, idle_keep_alive_connections_are_closed)
{
    const char *extra[] = {"--keep-alive", "1", NULL};
    served running = start("keep-alive.db", extra);
    double unloaded = games_p50(running.port);
    static const char request[] = "GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    int fds[IDLE_KEEP_ALIVE];
    for (int i = 0; i < IDLE_KEEP_ALIVE; i++) {
        fds[i] = connect_from(attacker(i / 50), running.port, 0);
        cr_assert_geq(fds[i], 0, "idle connection %d is made", i + 1);
        cr_assert(send_all(fds[i], request, sizeof request - 1));
        answer a = read_answer(fds[i], 5000);
        cr_assert_eq(a.status, 200, "idle connection %d: its one answer: %s", i + 1, a.text);
        cr_assert_not(a.ended, "idle connection %d is kept alive after its answer", i + 1);
        answer_free(&a);
    }
    /* The busy one asks every 200 ms for 3 s: three idle times. */
    int busy = connect_from(attacker(2), running.port, 0);
    cr_assert_geq(busy, 0);
    for (double until = now_ms() + 3000; now_ms() < until;) {
        cr_assert(send_all(busy, request, sizeof request - 1));
        answer a = read_answer(busy, 5000);
        cr_assert_eq(a.status, 200, "the busy keep-alive connection is answered: %s", a.text);
        cr_assert_not(a.ended, "a keep-alive connection that goes on asking stays open");
        answer_free(&a);
        sleep_ms(200);
    }
    expect_fast(running.port, unloaded, "idle keep-alive connections");
    /* By then (3 s, the sweep runs every second) the idle ones are gone. */
    for (int i = 0; i < IDLE_KEEP_ALIVE; i++) {
        cr_assert(stream_ends(fds[i], 2000),
                  "idle keep-alive connection %d is still open 3 s after its answer (1 s allowed)",
                  i + 1);
        close(fds[i]);
    }
    close(busy);
    stop(&running);
}

/* A client that asks to close after its request (Connection: close, or
 * HTTP/1.0 without keep-alive) gets its answer, saying so, and the close
 * at once; one that keeps alive is answered on the same connection again.
 * (The loop writes a keep-alive answer as soon as it comes back from its
 * request thread, and a closing one only when the socket is writable,
 * where the close can follow it: a closing answer written the first way
 * once left its connection open, counted against its address, until a
 * timer closed it.) */
Test(hostile, a_client_that_asks_to_close_is_closed_after_its_answer)
{
    const char *extra[] = {"--address-connections", "4", NULL};
    served running = start("closing.db", extra);
    static const char *const closing[] = {
        "GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
        "GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Keep-Alive, CLOSE\r\n\r\n",
        "GET /api/games HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n"};
    /* Three times the address's limit, one after another: each must be
     * gone before the next would be over it. */
    for (int i = 0; i < 12; i++) {
        const char *request = closing[i % 3];
        int fd = connect_from(attacker(0), running.port, 0);
        cr_assert_geq(fd, 0);
        cr_assert(send_all(fd, request, strlen(request)));
        answer a = read_answer(fd, ANSWER_MS);
        cr_assert_eq(a.status, 200, "request %d (%.40s...): %s", i + 1, request, a.text);
        char value[64];
        cr_assert(header_of(&a, "Connection", value, sizeof value) && !strcasecmp(value, "close"),
                  "request %d: the answer says 'Connection: close': %s", i + 1, a.text);
        cr_assert(a.ended || stream_ends(fd, ANSWER_MS), "request %d: the server closes", i + 1);
        answer_free(&a);
        close(fd);
    }
    static const char *const keeping[] = {
        "GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        "GET /api/games HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n"};
    for (int k = 0; k < 2; k++) {
        int fd = connect_from(attacker(1), running.port, 0);
        cr_assert_geq(fd, 0);
        for (int i = 0; i < 3; i++) {
            cr_assert(send_all(fd, keeping[k], strlen(keeping[k])));
            answer a = read_answer(fd, ANSWER_MS);
            cr_assert_eq(a.status, 200, "keep-alive %d, request %d: %s", k + 1, i + 1, a.text);
            cr_assert_not(a.ended, "keep-alive %d, request %d: the connection stays", k + 1, i + 1);
            answer_free(&a);
        }
        close(fd);
    }
    stop(&running);
}

/* WebSockets that never say who they are: closed with 1008 once their
 * hello is late (10 s); one that said hello is kept. */
#define IDLE_SOCKETS 20

Test(hostile, websockets_without_a_hello_are_closed)
{
    served running = start("idle.db", NULL);
    double unloaded = games_p50(running.port);
    table target = two_seats(running.port);
    wsock idle[IDLE_SOCKETS];
    double opened = now_ms();
    for (int i = 0; i < IDLE_SOCKETS; i++)
        cr_assert(ws_open(&idle[i], attacker(i % 2), running.port, target.id, 0),
                  "idle socket %d is upgraded", i + 1);
    wsock polite;
    cr_assert(ws_open(&polite, attacker(3), running.port, target.id, 0));
    cr_assert(ws_text(&polite, "{}"));
    char *first = ws_message(&polite, ANSWER_MS);
    cr_assert_not_null(first);
    free(first);
    expect_fast(running.port, unloaded, "idle WebSockets");
    /* Their ends, within 1.5 times the hello's timeout. */
    double deadline = opened + 1500.0 * SERVER_HELLO_SECONDS;
    int codes[IDLE_SOCKETS];
    double last = 0, earliest = 1e18;
    for (int i = 0; i < IDLE_SOCKETS; i++) {
        int left = (int)(deadline - now_ms());
        codes[i] = ws_outcome(&idle[i], left > 0 ? left : 0, NULL);
        double at = now_ms() - opened;
        if (codes[i] >= 0 && at > last) last = at;
        if (codes[i] >= 0 && at < earliest) earliest = at;
    }
    for (int i = 0; i < IDLE_SOCKETS; i++) {
        cr_assert_neq(codes[i], -1, "idle socket %d is still open after %.0f s", i + 1,
                      1.5 * SERVER_HELLO_SECONDS);
        cr_assert_eq(codes[i], 1008, "idle socket %d: closed with %d, not 1008 (0: no close "
                     "frame)", i + 1, codes[i]);
        cr_assert(idle[i].ended, "idle socket %d: the stream ends after its close", i + 1);
    }
    cr_log_info("idle WebSockets: closed between %.0f and %.0f ms", earliest, last);
    /* The spectator that said hello is still there. */
    int texts = 0;
    cr_assert_eq(ws_outcome(&polite, 0, &texts), -1,
                 "a socket that sent its hello is not closed with the idle ones");
    for (int i = 0; i < IDLE_SOCKETS; i++) ws_free(&idle[i]);
    ws_goodbye(&polite, 1000);
    stop(&running);
}

/* WebSockets that said hello, then fell silent (a phone that lost its
 * network): pinged after --websocket-ping seconds of quiet, closed when
 * no answer comes within as long again.  One that answers its pings
 * stays open.  More fall silent at once than one sweep pings (200): the
 * rest are pinged at the next sweeps, and none is left open. */
#define SILENT_SOCKETS 250
Test(hostile, silent_websockets_are_pinged_then_closed)
{
    const char *extra[] = {"--websocket-ping", "1", "--spectators", "300", NULL};
    served running = start("silent.db", extra);
    double unloaded = games_p50(running.port);
    table target = two_seats(running.port);
    wsock silent[SILENT_SOCKETS], answering;
    for (int i = 0; i < SILENT_SOCKETS; i++) {
        /* (50 an address: under its 64 WebSockets) */
        cr_assert(ws_open(&silent[i], attacker(i % 5), running.port, target.id, 0),
                  "silent socket %d is upgraded", i + 1);
        cr_assert(ws_text(&silent[i], "{}"));
    }
    cr_assert(ws_open(&answering, attacker(5), running.port, target.id, 0));
    cr_assert(ws_text(&answering, "{}"));
    expect_fast(running.port, unloaded, "silent WebSockets");
    /* For 5 s (five pings' worth), the answering socket answers. */
    int pings = 0;
    for (double until = now_ms() + 5000; now_ms() < until;) {
        int opcode, left = (int)(until - now_ms());
        char *payload;
        size_t length;
        int got = ws_next(&answering, left > 0 ? left : 0, &opcode, &payload, &length);
        if (got != 1) break;
        cr_assert(opcode == 1 || opcode == 9, "the answering socket got opcode %d", opcode);
        if (opcode == 9) {
            pings++;
            cr_assert(ws_frame(&answering, true, 0, 10, payload, length, true));
        }
        free(payload);
    }
    cr_assert(!answering.ended, "a socket that answers its pings stays open");
    cr_assert_geq(pings, 2, "pinged when quiet: %d pings in 5 s", pings);
    /* By then the silent ones were closed (their close frames, if any,
     * and the end of their streams are already waiting). */
    for (int i = 0; i < SILENT_SOCKETS; i++) {
        int code = ws_outcome(&silent[i], 2000, NULL);
        cr_assert_neq(code, -1, "silent socket %d is still open after 5 s", i + 1);
        ws_free(&silent[i]);
    }
    expect_fast(running.port, unloaded, "silent WebSockets closed");
    ws_goodbye(&answering, 1000);
    stop(&running);
}

/* Messages and frames against the limits and RFC 6455: the close code
 * docs/server.md names when the server sends one, and in every case the
 * end of the connection; the server stays alive. */
typedef enum frame_attack {
    OVERSIZED,
    FRAGMENTS_OVERSIZED,
    RESERVED_OPCODE,
    RSV1_WITHOUT_EXTENSION,
    LONG_CONTROL_FRAME,
    FRAGMENTED_CONTROL_FRAME,
    STRAY_CONTINUATION,
    INVALID_UTF8,
    UNMASKED,
    FRAME_ATTACKS
} frame_attack;

static const char *const frame_attack_names[FRAME_ATTACKS] = {
    "a 5 KiB text message",
    "fragments of 5 KiB in all",
    "reserved opcode 3",
    "RSV1 set without extensions",
    "a ping of 126 bytes",
    "a fragmented ping",
    "a continuation with nothing to continue",
    "invalid UTF-8 in a text frame",
    "an unmasked frame",
};
static const int frame_attack_codes[FRAME_ATTACKS] = {1009, 1009, 1002, 1002, 1002,
                                                      1002, 1002, 1007, 1002};

static void send_attack(wsock *socket_, frame_attack kind)
{
    char big[5 * 1024];
    memset(big, 'x', sizeof big);
    big[0] = '"';
    big[sizeof big - 1] = '"';
    switch (kind) {
    case OVERSIZED:
        ws_frame(socket_, true, 0, 1, big, sizeof big, true);
        break;
    case FRAGMENTS_OVERSIZED: /* each under 4 KiB */
        ws_frame(socket_, false, 0, 1, big, 2048, true);
        ws_frame(socket_, false, 0, 0, big + 2048, 2048, true);
        ws_frame(socket_, true, 0, 0, big + 4096, sizeof big - 4096, true);
        break;
    case RESERVED_OPCODE:
        ws_frame(socket_, true, 0, 3, "{}", 2, true);
        break;
    case RSV1_WITHOUT_EXTENSION:
        ws_frame(socket_, true, 4, 1, "{}", 2, true);
        break;
    case LONG_CONTROL_FRAME:
        ws_frame(socket_, true, 0, 9, big, 126, true);
        break;
    case FRAGMENTED_CONTROL_FRAME:
        ws_frame(socket_, false, 0, 9, "ab", 2, true);
        break;
    case STRAY_CONTINUATION:
        ws_frame(socket_, true, 0, 0, "{}", 2, true);
        break;
    case INVALID_UTF8:
        ws_frame(socket_, true, 0, 1, "{\"a\":\"\xff\xfe\xc3\x28\"}", 12, true);
        break;
    case UNMASKED:
        ws_frame(socket_, true, 0, 1, "{\"a\":1}", 7, false);
        break;
    default:
        break;
    }
}

Test(hostile, bad_frames_and_messages_close_the_socket)
{
    served running = start("frames.db", NULL);
    double unloaded = games_p50(running.port);
    table target = two_seats(running.port);
    char report[2048] = "";
    for (int kind = 0; kind < FRAME_ATTACKS; kind++) {
        const char *name = frame_attack_names[kind];
        wsock socket_;
        cr_assert(ws_open(&socket_, attacker(kind % 4), running.port, target.id, 0), "%s", name);
        cr_assert(ws_text(&socket_, "{}"));
        char *first = ws_message(&socket_, ANSWER_MS);
        cr_assert_not_null(first, "%s: the spectator's snapshot first", name);
        free(first);
        send_attack(&socket_, (frame_attack)kind);
        int texts = 0, code = ws_outcome(&socket_, ANSWER_MS, &texts);
        bool ended = code == 0 || (code > 0 && socket_.ended);
        size_t used = strlen(report);
        snprintf(report + used, sizeof report - used, "%s: %d%s; ", name, code,
                 ended ? "" : " (not ended)");
        if (kind == UNMASKED) {
            /* RFC 6455 5.1 has a server close on an unmasked frame;
             * libwebsockets 4.1 unmasks only what is masked and takes the
             * rest as it is (docs/server.md, "Deviations").  What matters
             * here: the server lives on, and when it closes, it says why. */
            if (!ended) cr_log_info("%s: taken as it is (libwebsockets 4.1)", name);
            if (code > 0)
                cr_assert_eq(code, frame_attack_codes[kind], "%s: closed with %d, not %d", name,
                             code, frame_attack_codes[kind]);
        } else {
            cr_assert(ended, "%s: the connection ends (outcome %d: %s)", name, code,
                      code < 0 ? "still open after 5 s" : "a close frame, then no end");
            if (code > 0)
                cr_assert_eq(code, frame_attack_codes[kind], "%s: closed with %d, not %d", name,
                             code, frame_attack_codes[kind]);
        }
        ws_free(&socket_);
        expect_running(&running);
    }
    cr_log_info("frames: %s", report);
    /* A message of exactly 4 KiB is not too big (it is a bad hello). */
    wsock socket_;
    cr_assert(ws_open(&socket_, attacker(5), running.port, target.id, 0));
    char message[4096];
    memset(message, ' ', sizeof message);
    message[0] = '{';
    message[sizeof message - 1] = '}';
    ws_frame(&socket_, true, 0, 1, message, sizeof message, true);
    char *first = ws_message(&socket_, ANSWER_MS);
    cr_assert_not_null(first, "a hello of exactly 4 KiB ({} and spaces) is taken");
    free(first);
    ws_goodbye(&socket_, 1000);
    expect_fast(running.port, unloaded, "bad frames");
    stop(&running);
}

/* CORS: another site's preflight gets 405 and no CORS header, its POST
 * 403, its WebSocket 403; an origin given with --origin gets 204 and its
 * CORS headers. */
static answer preflight(int port, const char *source, const char *origin)
{
    char headers[256];
    snprintf(headers, sizeof headers,
             "Origin: %s\r\nAccess-Control-Request-Method: POST\r\n"
             "Access-Control-Request-Headers: content-type, authorization\r\n",
             origin);
    return http_from(source, port, "OPTIONS", "/api/tables", NULL, headers, NULL, NULL, 0);
}

Test(hostile, other_origins_get_no_cors)
{
    const char *extra[] = {"--origin", "https://friend.example", NULL};
    served running = start("cors.db", extra);
    double unloaded = games_p50(running.port);
    char value[256];
    const char *body = "{\"game\":\"mice-cake\",\"seats\":[\"human\",\"human\"]}";

    answer a = preflight(running.port, attacker(0), "https://evil.example");
    cr_assert_eq(a.status, 405, "another site's preflight: %d %s", a.status, a.text);
    cr_assert_not(header_of(&a, "Access-Control-Allow-Origin", value, sizeof value),
                  "no CORS header for another site: %s", value);
    answer_free(&a);

    a = post_json(attacker(0), running.port, "/api/tables", "Origin: https://evil.example\r\n",
                  body);
    expect_refusal(&a, 403, NULL, "another site's POST");
    cr_assert_not(header_of(&a, "Access-Control-Allow-Origin", value, sizeof value), "%s", value);
    answer_free(&a);
    /* Its GET is answered (a page may link to us), without CORS headers. */
    a = get_from(attacker(0), running.port, "/api/games", "Origin: https://evil.example\r\n");
    cr_assert_eq(a.status, 200, "%s", a.text);
    cr_assert_not(header_of(&a, "Access-Control-Allow-Origin", value, sizeof value), "%s", value);
    answer_free(&a);
    /* "null" (a sandboxed page, a file) is another site too. */
    a = post_json(attacker(0), running.port, "/api/tables", "Origin: null\r\n", body);
    expect_refusal(&a, 403, NULL, "a POST from Origin: null");
    answer_free(&a);
    /* A look-alike of the friend is another site. */
    a = post_json(attacker(0), running.port, "/api/tables",
                  "Origin: https://friend.example.evil.example\r\n", body);
    expect_refusal(&a, 403, NULL, "a POST from a look-alike origin");
    answer_free(&a);

    table target = create_table(running.port, body);
    char path[128];
    snprintf(path, sizeof path, "/api/tables/%s/ws", target.id);
    wsock socket_;
    a = ws_upgrade(&socket_, attacker(1), running.port, path, NULL,
                   "Origin: https://evil.example\r\n", 0);
    cr_assert_eq(a.status, 403, "another site's WebSocket: %d %s", a.status, a.text);
    answer_free(&a);
    ws_free(&socket_);

    /* The friend: 204 and its CORS headers, for the preflight and the POST. */
    a = preflight(running.port, attacker(2), "https://friend.example");
    cr_assert_eq(a.status, 204, "the friend's preflight: %d %s", a.status, a.text);
    cr_assert(header_of(&a, "Access-Control-Allow-Origin", value, sizeof value), "%s", a.text);
    cr_assert_str_eq(value, "https://friend.example");
    cr_expect(header_of(&a, "Vary", value, sizeof value) && strcasestr(value, "Origin"),
              "Vary: Origin with the CORS headers: %s", a.text);
    answer_free(&a);
    a = post_json(attacker(2), running.port, "/api/tables", "Origin: https://friend.example\r\n",
                  body);
    cr_assert_eq(a.status, 201, "the friend's POST: %d %s", a.status, a.text);
    cr_assert(header_of(&a, "Access-Control-Allow-Origin", value, sizeof value), "%s", a.text);
    cr_assert_str_eq(value, "https://friend.example");
    answer_free(&a);
    a = ws_upgrade(&socket_, attacker(2), running.port, path, NULL,
                   "Origin: https://friend.example\r\n", 0);
    cr_assert_eq(a.status, 101, "the friend's WebSocket: %d %s", a.status, a.text);
    answer_free(&a);
    ws_free(&socket_);
    /* The server's own origin may POST. */
    char own[128];
    snprintf(own, sizeof own, "Origin: http://127.0.0.1:%d\r\n", running.port);
    a = post_json(NORMAL, running.port, "/api/tables", own, body);
    cr_assert_eq(a.status, 201, "the server's own origin: %d %s", a.status, a.text);
    answer_free(&a);
    expect_fast(running.port, unloaded, "CORS");
    stop(&running);
}

Test(hostile, without_origins_no_cors_at_all)
{
    served running = start("no-cors.db", NULL);
    double unloaded = games_p50(running.port);
    char value[256];
    const char *origins[] = {"https://evil.example", "https://friend.example", NULL};
    for (int i = 0; origins[i]; i++) {
        answer a = preflight(running.port, attacker(i), origins[i]);
        cr_assert_eq(a.status, 405, "%s's preflight: %d %s", origins[i], a.status, a.text);
        cr_assert_not(header_of(&a, "Access-Control-Allow-Origin", value, sizeof value),
                      "no CORS header without --origin: %s", value);
        char allow[128];
        cr_assert(header_of(&a, "Allow", allow, sizeof allow), "405 with Allow: %s", a.text);
        answer_free(&a);
    }
    expect_fast(running.port, unloaded, "preflights");
    stop(&running);
}

/* DNS rebinding: a Host the server does not answer to is refused (403,
 * and no WebSocket); its own address and localhost, with the port, are
 * fine. */
Test(hostile, rebinding_hosts_are_refused)
{
    served running = start("hosts.db", NULL);
    double unloaded = games_p50(running.port);
    table target = two_seats(running.port);
    char path[128], host[64];
    snprintf(path, sizeof path, "/api/tables/%s/ws", target.id);
    /* (Names; a port is added to those after the first.) */
    const char *bad_hosts[] = {"evil.example", "evil.example", "localhost.evil.example",
                               "127.0.0.1.evil.example", "[::1].evil.example", NULL};
    for (int i = 0; bad_hosts[i]; i++) {
        if (i == 0) snprintf(host, sizeof host, "%s", bad_hosts[i]);
        else snprintf(host, sizeof host, "%s:%d", bad_hosts[i], running.port);
        answer a = http_from(attacker(i), running.port, "GET", "/api/games", host, "", NULL, NULL,
                             0);
        char what[128];
        snprintf(what, sizeof what, "GET /api/games with Host: %s", host);
        expect_refusal(&a, 403, NULL, what);
        answer_free(&a);
        wsock socket_;
        a = ws_upgrade(&socket_, attacker(i), running.port, path, host, "", 0);
        cr_assert_eq(a.status, 403, "a WebSocket with Host: %s: %d %s", host, a.status, a.text);
        answer_free(&a);
        ws_free(&socket_);
    }
    const char *good_hosts[] = {"127.0.0.1", "localhost", NULL};
    for (int i = 0; good_hosts[i]; i++) {
        snprintf(host, sizeof host, "%s:%d", good_hosts[i], running.port);
        answer a = http_from(NORMAL, running.port, "GET", "/api/games", host, "", NULL, NULL, 0);
        cr_assert_eq(a.status, 200, "Host: %s: %d %s", host, a.status, a.text);
        answer_free(&a);
        wsock socket_;
        a = ws_upgrade(&socket_, NORMAL, running.port, path, host, "", 0);
        cr_assert_eq(a.status, 101, "a WebSocket with Host: %s: %d %s", host, a.status, a.text);
        answer_free(&a);
        cr_assert(ws_text(&socket_, "{}"));
        char *first = ws_message(&socket_, ANSWER_MS);
        cr_assert_not_null(first, "Host: %s: the snapshot", host);
        free(first);
        ws_goodbye(&socket_, 1000);
    }
    expect_fast(running.port, unloaded, "rebinding hosts");
    stop(&running);
}

/* Methods other than GET, HEAD and POST: 405 with Allow, on every kind of
 * path (never 207 from WebDAV, never 401 from an authentication). */
Test(hostile, other_methods_are_refused)
{
    served running = start("methods.db", NULL);
    double unloaded = games_p50(running.port);
    table target = two_seats(running.port);
    char table_path[128], moves_path[128], ws_path[128];
    snprintf(table_path, sizeof table_path, "/api/tables/%s", target.id);
    snprintf(moves_path, sizeof moves_path, "/api/tables/%s/moves", target.id);
    snprintf(ws_path, sizeof ws_path, "/api/tables/%s/ws", target.id);
    const char *methods[] = {"PROPFIND", "PUT", "DELETE", "PATCH", "MKCOL", "TRACE", NULL};
    const char *paths[] = {"/", "/index.html", "/nothing-here", "/api/games", "/api/tables",
                           table_path, moves_path, ws_path, "/api/nothing", NULL};
    int tried = 0;
    for (int m = 0; methods[m]; m++)
        for (int p = 0; paths[p]; p++) {
            const char *headers = !strcmp(methods[m], "PROPFIND")
                                      ? "Depth: 1\r\nAuthorization: Basic YWRtaW46YWRtaW4=\r\n"
                                      : "";
            const char *body = !strcmp(methods[m], "PUT") ? "{\"a\":1}" : NULL;
            answer a = http_from(attacker(tried % 4), running.port, methods[m], paths[p], NULL,
                                 headers, body ? "application/json" : NULL, body,
                                 body ? strlen(body) : 0);
            tried++;
            /* Methods libwebsockets does not know it refuses itself, with
             * its own 403 (docs/server.md, "Limits"): never WebDAV. */
            bool unknown = !strcmp(methods[m], "PROPFIND") || !strcmp(methods[m], "MKCOL") ||
                           !strcmp(methods[m], "TRACE");
            if (unknown) {
                cr_assert_eq(a.status, 403, "%s %s: %d, not 403: %s", methods[m], paths[p],
                             a.status, a.text);
                answer_free(&a);
                continue;
            }
            cr_assert_eq(a.status, 405, "%s %s: %d, not 405: %s", methods[m], paths[p], a.status,
                         a.text);
            char allow[128];
            cr_assert(header_of(&a, "Allow", allow, sizeof allow), "%s %s: 405 with Allow: %s",
                      methods[m], paths[p], a.text);
            answer_free(&a);
        }
    /* Nothing changed: the table is there. */
    answer a = get_from(NORMAL, running.port, table_path, "");
    cr_assert_eq(a.status, 200, "%s", a.text);
    answer_free(&a);
    expect_fast(running.port, unloaded, "other methods");
    stop(&running);
}

/* The web root serves its regular files only: no symbolic link (to a
 * file outside or inside), nothing outside it however the path is
 * written, no name starting with '.'. */
static void make_link(const char *target, const char *link)
{
    cr_assert_eq(symlink(target, link), 0, "symlink %s -> %s", link, target);
}

Test(hostile, the_web_root_serves_its_own_files_only)
{
    char web[1024];
    snprintf(web, sizeof web, "%s", support_temp_path("web"));
    cr_assert_eq(mkdir(web, 0755), 0, "mkdir %s", web);
    char file[1200];
    snprintf(file, sizeof file, "%s/index.html", web);
    support_write_file(file, "<!doctype html><title>hostile web root</title>\n");
    snprintf(file, sizeof file, "%s/hello.txt", web);
    support_write_file(file, "hello from the web root\n");
    snprintf(file, sizeof file, "%s/.secret", web);
    support_write_file(file, "a dotfile\n");
    snprintf(file, sizeof file, "%s/sub", web);
    cr_assert_eq(mkdir(file, 0755), 0);
    snprintf(file, sizeof file, "%s/sub/inner.txt", web);
    support_write_file(file, "inner file\n");
    snprintf(file, sizeof file, "%s/passwd", web);
    make_link("/etc/passwd", file);
    snprintf(file, sizeof file, "%s/etc", web);
    make_link("/etc", file);
    snprintf(file, sizeof file, "%s/link-inside.txt", web);
    make_link("hello.txt", file);
    snprintf(file, sizeof file, "%s/sub/up", web);
    make_link("..", file);

    char *passwd = support_read_file("/etc/passwd");
    char secret[64];
    snprintf(secret, sizeof secret, "%.*s", (int)strcspn(passwd, "\n"), passwd);
    free(passwd);
    cr_assert(strlen(secret) > 4, "/etc/passwd has a first line");

    const char *extra[] = {"--web", web, NULL};
    served running = start("web.db", extra);
    double unloaded = games_p50(running.port);

    answer a = get_from(NORMAL, running.port, "/hello.txt", "");
    cr_assert_eq(a.status, 200, "a regular file is served: %d %s", a.status, a.text);
    cr_assert_str_eq(a.body, "hello from the web root\n");
    answer_free(&a);
    a = get_from(NORMAL, running.port, "/sub/inner.txt", "");
    cr_assert_eq(a.status, 200, "a file in a folder is served: %d %s", a.status, a.text);
    answer_free(&a);
    a = get_from(NORMAL, running.port, "/", "");
    cr_assert_eq(a.status, 200, "/ is index.html: %d %s", a.status, a.text);
    cr_assert(strstr(a.body, "hostile web root"), "%s", a.body);
    answer_free(&a);

    /* Refused with 404: links, dotfiles. */
    const char *not_found[] = {"/passwd", "/etc/passwd", "/link-inside.txt", "/.secret",
                               "/sub/up/hello.txt", "/sub/up/passwd", "/%2esecret", NULL};
    for (int i = 0; not_found[i]; i++) {
        a = get_from(attacker(i % 4), running.port, not_found[i], "");
        cr_assert_eq(a.status, 404, "GET %s: %d, not 404: %s", not_found[i], a.status, a.text);
        cr_assert_null(strstr(a.text, secret), "GET %s served /etc/passwd", not_found[i]);
        cr_assert_null(strstr(a.text, "a dotfile"), "GET %s served the dotfile", not_found[i]);
        answer_free(&a);
    }
    /* Out of the root however the path says it: 404 or 400, never the
     * file (libwebsockets ends the connection on a path with %00, -1). */
    const char *outside[] = {"/../etc/passwd", "/../../../../etc/passwd", "/%2e%2e/etc/passwd",
                             "/%2E%2E/%2E%2E/%2e%2e/etc/passwd", "/..%2fetc%2fpasswd",
                             "/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd", "/sub/../../etc/passwd",
                             "/sub/%2e%2e/%2e%2e/etc/passwd", "/./.././etc/passwd",
                             "/..%5c..%5cetc%5cpasswd", "/%252e%252e/etc/passwd",
                             "/hello.txt%00/../../etc/passwd", "//etc/passwd",
                             "/%2fetc%2fpasswd", "/.%2e/etc/passwd", NULL};
    for (int i = 0; outside[i]; i++) {
        a = get_from(attacker(i % 4), running.port, outside[i], "");
        bool nul = strstr(outside[i], "%00") != NULL;
        cr_assert(a.status == 404 || a.status == 400 || (nul && a.status == -1),
                  "GET %s: %d, not 404 or 400: %s", outside[i], a.status, a.text);
        cr_assert_null(strstr(a.text, secret), "GET %s served /etc/passwd", outside[i]);
        answer_free(&a);
    }
    expect_fast(running.port, unloaded, "paths out of the web root");
    stop(&running);
}
