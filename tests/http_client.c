/* http_client.c: see http_client.h. */
#define _GNU_SOURCE /* memmem, strcasestr, strdup, strndup */
#include "http_client.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

/* A connection to 127.0.0.1:port from source (a loopback address such as
 * "127.0.0.2"; NULL: whichever), or -1. */
static int connect_from(const char *source, int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct sockaddr_in local = {.sin_family = AF_INET};
    if ((source && (inet_pton(AF_INET, source, &local.sin_addr) != 1 ||
                    bind(fd, (struct sockaddr *)&local, sizeof local) != 0)) ||
        connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        close(fd);
        return -1;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

static int connect_local(int port) { return connect_from(NULL, port); }

static bool send_all(int fd, const char *data, size_t length)
{
    while (length) {
        ssize_t sent = send(fd, data, length, MSG_NOSIGNAL);
        if (sent <= 0) {
            if (sent < 0 && errno == EINTR) continue;
            return false;
        }
        data += sent;
        length -= (size_t)sent;
    }
    return true;
}

/* ---- Reading an answer ------------------------------------------------------------- */

/* What was read from a connection so far. */
typedef struct reader {
    int fd;
    char *data;
    size_t used, capacity;
    bool ended; /* the server closed (or went silent past the timeout) */
    int silence_ms; /* once something came, how long a silence ends it (0: the timeout) */
} reader;

/* Reads once more: false when nothing more will come. */
static bool read_more(reader *from)
{
    if (from->ended) return false;
    if (from->capacity - from->used < 4096) {
        from->capacity = from->capacity ? from->capacity * 2 : 16384;
        from->data = realloc(from->data, from->capacity);
    }
    struct pollfd wait = {.fd = from->fd, .events = POLLIN};
    int ready;
    int timeout = from->used && from->silence_ms ? from->silence_ms : HTTP_CLIENT_TIMEOUT_MS;
    while ((ready = poll(&wait, 1, timeout)) < 0 && errno == EINTR) {
    }
    ssize_t got = 0;
    if (ready > 0)
        while ((got = recv(from->fd, from->data + from->used, from->capacity - from->used - 1,
                           0)) < 0 && errno == EINTR) {
        }
    if (got <= 0) {
        from->ended = true;
        return false;
    }
    from->used += (size_t)got;
    from->data[from->used] = '\0';
    return true;
}

/* Until at least need bytes are read: false when they never come. */
static bool read_until(reader *from, size_t need)
{
    while (from->used < need)
        if (!read_more(from)) return false;
    return true;
}

/* The offset of the next "\r\n" at or after start (reading on as
 * needed), or -1. */
static long find_line_end(reader *from, size_t start)
{
    for (;;) {
        if (from->used >= start + 2) {
            const char *found = memmem(from->data + start, from->used - start, "\r\n", 2);
            if (found) return found - from->data;
        }
        if (!read_more(from)) return -1;
    }
}

/* The value of header name in head (which ends with "\r\n\r\n"), copied
 * to value; false when it is absent. */
static bool header_value(const char *head, const char *name, char *value, size_t size)
{
    size_t name_length = strlen(name);
    for (const char *line = strstr(head, "\r\n"); line && line[2] != '\r';
         line = strstr(line + 2, "\r\n")) {
        const char *start = line + 2;
        if (strncasecmp(start, name, name_length) || start[name_length] != ':') continue;
        start += name_length + 1;
        while (*start == ' ' || *start == '\t') start++;
        size_t length = strcspn(start, "\r\n");
        while (length && (start[length - 1] == ' ' || start[length - 1] == '\t')) length--;
        snprintf(value, size, "%.*s", (int)length, start);
        return true;
    }
    return false;
}

/* Reads one answer (to a request made with method) from fd: its status
 * (-1 when there was no answer) and its body (malloc'd). */
static int read_answer(int fd, const char *method, char **body)
{
    reader from = {.fd = fd};
    long head_end = -1;
    for (;;) {
        if (from.used >= 4) {
            const char *found = memmem(from.data, from.used, "\r\n\r\n", 4);
            if (found) {
                head_end = found - from.data + 4;
                break;
            }
        }
        if (!read_more(&from)) break;
    }
    int status = -1;
    if (head_end < 0) {
        *body = strdup("");
        free(from.data);
        return status;
    }
    char *head = strndup(from.data, (size_t)head_end);
    if (sscanf(head, "HTTP/1.%*d %d", &status) != 1) status = -1;
    char value[128];
    size_t start = (size_t)head_end;
    bool none = !strcmp(method, "HEAD") || (status >= 100 && status < 200) || status == 204 ||
                status == 304;
    if (none) {
        *body = strdup("");
    } else if (header_value(head, "Transfer-Encoding", value, sizeof value) &&
               strcasestr(value, "chunked")) {
        size_t out_used = 0, at = start;
        char *out = malloc(1);
        for (;;) {
            long line_end = find_line_end(&from, at);
            if (line_end < 0) break;
            unsigned long size = strtoul(from.data + at, NULL, 16);
            at = (size_t)line_end + 2;
            if (size == 0 || !read_until(&from, at + size + 2)) break;
            out = realloc(out, out_used + size + 1);
            memcpy(out + out_used, from.data + at, size);
            out_used += size;
            at += size + 2;
        }
        out[out_used] = '\0';
        *body = out;
    } else if (header_value(head, "Content-Length", value, sizeof value)) {
        size_t length = strtoul(value, NULL, 10);
        read_until(&from, start + length);
        size_t have = from.used - start < length ? from.used - start : length;
        *body = strndup(from.data + start, have);
    } else {
        while (read_more(&from)) {
        }
        *body = strndup(from.data + start, from.used - start);
    }
    free(head);
    free(from.data);
    return status;
}

/* ---- Requests ---------------------------------------------------------------------- */

/* Whether headers ("Name: value\r\n"...) name the header name. */
static bool names_header(const char *headers, const char *name)
{
    size_t length = strlen(name);
    for (const char *line = headers; line && *line;) {
        if (!strncasecmp(line, name, length) && line[length] == ':') return true;
        line = strstr(line, "\r\n");
        if (line) line += 2;
    }
    return false;
}

int http_request_as(int port, const char *method, const char *path, const char *body,
                    const char *token, const char *extra_headers, char **response_body)
{
    *response_body = NULL;
    if (!extra_headers) extra_headers = "";
    int fd = connect_local(port);
    if (fd < 0) {
        *response_body = strdup("");
        return -1;
    }
    size_t body_length = body ? strlen(body) : 0;
    size_t size = strlen(method) + strlen(path) + strlen(extra_headers) +
                  (token ? strlen(token) : 0) + 512;
    char *request = malloc(size);
    int length = snprintf(request, size, "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                          "Connection: close\r\n", method, path, port);
    if (token)
        length += snprintf(request + length, size - (size_t)length,
                           "Authorization: Bearer %s\r\n", token);
    if (body && !names_header(extra_headers, "Content-Type"))
        length += snprintf(request + length, size - (size_t)length,
                           "Content-Type: application/json\r\n");
    if ((body || !strcmp(method, "POST")) && !names_header(extra_headers, "Content-Length"))
        length += snprintf(request + length, size - (size_t)length, "Content-Length: %zu\r\n",
                           body_length);
    length += snprintf(request + length, size - (size_t)length, "%s\r\n", extra_headers);
    bool ok = send_all(fd, request, (size_t)length) && send_all(fd, body ? body : "", body_length);
    free(request);
    /* (A server may answer before it has read all of a body it refuses.) */
    (void)ok;
    int status = read_answer(fd, method, response_body);
    close(fd);
    return status;
}

int http_request(int port, const char *method, const char *path, const char *body,
                 const char *extra_headers, char **response_body)
{
    return http_request_as(port, method, path, body, NULL, extra_headers, response_body);
}

char *http_raw(int port, const char *request, size_t length)
{
    return http_raw_from(NULL, port, request, length);
}

char *http_raw_from(const char *source, int port, const char *request, size_t length)
{
    int fd = connect_from(source, port);
    if (fd < 0) return NULL;
    send_all(fd, request, length); /* (the server may close before it has read it all) */
    /* The stream is not half-closed: the server ends a connection as soon
     * as it reads its end, answered or not (docs/server.md, "Limits").  So
     * what came is complete once the server closes, or once it has been
     * silent for a moment after answering (a kept-alive connection). */
    reader from = {.fd = fd, .silence_ms = 400};
    while (read_more(&from)) {
    }
    close(fd);
    if (!from.data) return strdup("");
    from.data[from.used] = '\0';
    return from.data;
}

/* ---- WebSocket ------------------------------------------------------------------ */

bool ws_open(ws_client *client, int port, const char *path, const char *origin)
{
    memset(client, 0, sizeof *client);
    client->status = -1;
    client->socket = connect_local(port);
    if (client->socket < 0) return false;
    char request[8192], origin_line[600] = "";
    if (origin) snprintf(origin_line, sizeof origin_line, "Origin: %s\r\n", origin);
    int length = snprintf(request, sizeof request,
                          "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n"
                          "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                          "Sec-WebSocket-Version: 13\r\n%s\r\n",
                          path, port, origin_line);
    if (length < 0 || (size_t)length >= sizeof request ||
        !send_all(client->socket, request, (size_t)length)) {
        ws_close(client);
        return false;
    }
    /* Read the answer's head byte by byte: what follows is frames. */
    char head[8192];
    size_t used = 0;
    while (used + 1 < sizeof head) {
        struct pollfd wait = {.fd = client->socket, .events = POLLIN};
        if (poll(&wait, 1, HTTP_CLIENT_TIMEOUT_MS) <= 0) break;
        ssize_t got = recv(client->socket, head + used, 1, 0);
        if (got <= 0) break;
        used++;
        if (used >= 4 && !memcmp(head + used - 4, "\r\n\r\n", 4)) break;
    }
    head[used] = '\0';
    if (sscanf(head, "HTTP/1.%*d %d", &client->status) != 1) client->status = -1;
    if (client->status != 101) {
        /* The refusal's body, as far as it fits. */
        char value[64];
        size_t want = sizeof client->refusal - 1, have = 0;
        if (header_value(head, "Content-Length", value, sizeof value) &&
            strtoul(value, NULL, 10) < want)
            want = strtoul(value, NULL, 10);
        while (have < want) {
            struct pollfd wait = {.fd = client->socket, .events = POLLIN};
            if (poll(&wait, 1, 5000) <= 0) break;
            ssize_t got = recv(client->socket, client->refusal + have, want - have, 0);
            if (got <= 0) break;
            have += (size_t)got;
        }
        client->refusal[have] = '\0';
        ws_close(client);
        return false;
    }
    return true;
}

bool ws_hello(ws_client *client, const char *token)
{
    if (!token) return ws_send(client, "{}", 2);
    size_t size = strlen(token) + 32;
    char *hello = malloc(size);
    /* (Tokens are URL-safe characters: nothing to escape.) */
    int length = snprintf(hello, size, "{\"token\":\"%s\"}", token);
    bool ok = ws_send(client, hello, (size_t)length);
    free(hello);
    return ok;
}

bool ws_open_as(ws_client *client, int port, const char *path, const char *origin,
                const char *token)
{
    return ws_open(client, port, path, origin) && ws_hello(client, token);
}

/* Waits until at least need bytes are buffered. */
static bool fill(ws_client *client, size_t need, int timeout_ms)
{
    while (client->length < need) {
        if (client->socket < 0) return false;
        struct pollfd wait = {.fd = client->socket, .events = POLLIN};
        if (poll(&wait, 1, timeout_ms) <= 0) return false;
        if (client->capacity - client->length < 65536) {
            client->capacity = client->capacity ? client->capacity * 2 : 131072;
            client->buffer = realloc(client->buffer, client->capacity);
        }
        ssize_t got = recv(client->socket, client->buffer + client->length,
                           client->capacity - client->length, 0);
        if (got <= 0) {
            if (!client->close_code) client->close_code = -1; /* ended without a close frame */
            return false;
        }
        client->length += (size_t)got;
    }
    return true;
}

char *ws_read(ws_client *client, int timeout_ms)
{
    for (;;) {
        if (!fill(client, 2, timeout_ms)) return NULL;
        const uint8_t *frame = (const uint8_t *)client->buffer;
        bool fin = frame[0] & 0x80;
        int opcode = frame[0] & 0x0f;
        bool masked = frame[1] & 0x80;
        uint64_t length = frame[1] & 0x7f;
        size_t header = 2;
        if (length == 126) {
            if (!fill(client, 4, timeout_ms)) return NULL;
            frame = (const uint8_t *)client->buffer;
            length = (uint64_t)frame[2] << 8 | frame[3];
            header = 4;
        } else if (length == 127) {
            if (!fill(client, 10, timeout_ms)) return NULL;
            frame = (const uint8_t *)client->buffer;
            length = 0;
            for (int i = 0; i < 8; i++) length = length << 8 | frame[2 + i];
            header = 10;
        }
        if (masked || length > (1u << 30)) { /* a server never masks */
            client->close_code = -1;
            return NULL;
        }
        if (!fill(client, header + length, timeout_ms)) return NULL;
        const char *payload = client->buffer + header;
        if (opcode == 0x8) { /* close: its code, echoed back */
            client->close_code = length >= 2 ? ((uint8_t)payload[0] << 8 | (uint8_t)payload[1])
                                             : 1005;
            size_t reason = length > 2 ? length - 2 : 0;
            if (reason >= sizeof client->close_reason) reason = sizeof client->close_reason - 1;
            memcpy(client->close_reason, payload + 2, reason);
            client->close_reason[reason] = '\0';
            char code[2] = {0, 0};
            if (length >= 2) memcpy(code, payload, 2);
            ws_send_frame(client, 0x8, true, code, length >= 2 ? 2 : 0);
            shutdown(client->socket, SHUT_WR);
            client->length = 0;
            return NULL;
        }
        if (opcode == 0x9) { /* ping: pong */
            char *copy = malloc(length + 1);
            memcpy(copy, payload, length);
            ws_send_frame(client, 0xA, true, copy, length);
            free(copy);
        } else if (opcode == 0x1 || opcode == 0x0) {
            client->partial = realloc(client->partial, client->partial_length + length + 1);
            memcpy(client->partial + client->partial_length, payload, length);
            client->partial_length += length;
            client->partial[client->partial_length] = '\0';
        }
        memmove(client->buffer, client->buffer + header + length,
                client->length - header - length);
        client->length -= header + length;
        if ((opcode == 0x1 || opcode == 0x0) && fin) {
            char *message = client->partial;
            client->partial = NULL;
            client->partial_length = 0;
            return message;
        }
    }
}

bool ws_send_frame(ws_client *client, int opcode, bool fin, const char *payload, size_t length)
{
    if (client->socket < 0) return false;
    uint8_t header[14];
    size_t used = 0;
    header[used++] = (uint8_t)((fin ? 0x80 : 0) | (opcode & 0x0f));
    if (length < 126) {
        header[used++] = (uint8_t)(0x80 | length);
    } else if (length < 65536) {
        header[used++] = 0x80 | 126;
        header[used++] = (uint8_t)(length >> 8);
        header[used++] = (uint8_t)length;
    } else {
        header[used++] = 0x80 | 127;
        for (int i = 7; i >= 0; i--) header[used++] = (uint8_t)((uint64_t)length >> (8 * i));
    }
    const uint8_t mask[4] = {0x12, 0x34, 0x56, 0x78};
    memcpy(header + used, mask, 4);
    used += 4;
    char *masked = malloc(length + 1);
    for (size_t i = 0; i < length; i++) masked[i] = (char)(payload[i] ^ mask[i % 4]);
    bool ok = send_all(client->socket, (const char *)header, used) &&
              send_all(client->socket, masked, length);
    free(masked);
    return ok;
}

bool ws_send(ws_client *client, const char *text, size_t length)
{
    return ws_send_frame(client, 0x1, true, text, length);
}

void ws_close(ws_client *client)
{
    if (client->socket >= 0) close(client->socket);
    client->socket = -1;
    free(client->buffer);
    client->buffer = NULL;
    client->length = client->capacity = 0;
    free(client->partial);
    client->partial = NULL;
    client->partial_length = 0;
}
