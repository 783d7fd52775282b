/* http_client.c: see http_client.h. */
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
#include <sys/socket.h>
#include <unistd.h>

static int connect_local(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        close(fd);
        return -1;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

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

int http_request(int port, const char *method, const char *path, const char *body,
                 const char *extra_headers, char **response_body)
{
    *response_body = NULL;
    int fd = connect_local(port);
    if (fd < 0) return -1;
    size_t body_length = body ? strlen(body) : 0;
    size_t size = strlen(path) + strlen(extra_headers ? extra_headers : "") + body_length + 256;
    char *request = malloc(size);
    int length = snprintf(request, size,
                          "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n"
                          "Content-Type: application/json\r\nContent-Length: %zu\r\n%s\r\n",
                          method, path, port, body_length, extra_headers ? extra_headers : "");
    bool ok = send_all(fd, request, (size_t)length) && send_all(fd, body ? body : "", body_length);
    free(request);
    size_t used = 0, capacity = 8192;
    char *response = malloc(capacity);
    ssize_t got;
    while (ok && (got = recv(fd, response + used, capacity - used - 1, 0)) > 0) {
        used += (size_t)got;
        if (capacity - used < 2) response = realloc(response, capacity *= 2);
    }
    close(fd);
    response[used] = '\0';
    int status = -1;
    if (ok && sscanf(response, "HTTP/1.%*d %d", &status) != 1) status = -1;
    const char *start = strstr(response, "\r\n\r\n");
    *response_body = strdup(start ? start + 4 : "");
    free(response);
    return status;
}

char *http_raw(int port, const char *request, size_t length)
{
    int fd = connect_local(port);
    if (fd < 0) return NULL;
    send_all(fd, request, length); /* (the server may close before it has read it all) */
    shutdown(fd, SHUT_WR);
    size_t used = 0, capacity = 8192;
    char *answer = malloc(capacity);
    ssize_t got;
    while ((got = recv(fd, answer + used, capacity - used - 1, 0)) > 0) {
        used += (size_t)got;
        if (capacity - used < 2) answer = realloc(answer, capacity *= 2);
    }
    close(fd);
    answer[used] = '\0';
    return answer;
}

/* ---- WebSocket ------------------------------------------------------------------ */

bool ws_open(ws_client *client, int port, const char *path, const char *origin)
{
    memset(client, 0, sizeof *client);
    client->socket = connect_local(port);
    if (client->socket < 0) return false;
    char request[2048], origin_line[600] = "";
    if (origin) snprintf(origin_line, sizeof origin_line, "Origin: %s\r\n", origin);
    int length = snprintf(request, sizeof request,
                          "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n"
                          "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                          "Sec-WebSocket-Version: 13\r\n%s\r\n",
                          path, port, origin_line);
    if (!send_all(client->socket, request, (size_t)length)) return false;
    /* Read the answer's head byte by byte: what follows is frames. */
    char head[4096];
    size_t used = 0;
    while (used + 1 < sizeof head) {
        ssize_t got = recv(client->socket, head + used, 1, 0);
        if (got <= 0) break;
        used++;
        if (used >= 4 && !memcmp(head + used - 4, "\r\n\r\n", 4)) break;
    }
    head[used] = '\0';
    if (strncmp(head, "HTTP/1.1 101", 12) != 0) {
        close(client->socket);
        client->socket = -1;
        return false;
    }
    return true;
}

/* Waits until at least need bytes are buffered. */
static bool fill(ws_client *client, size_t need, int timeout_ms)
{
    while (client->length < need) {
        struct pollfd wait = {.fd = client->socket, .events = POLLIN};
        if (poll(&wait, 1, timeout_ms) <= 0) return false;
        if (client->capacity - client->length < 65536) {
            client->capacity = client->capacity ? client->capacity * 2 : 131072;
            client->buffer = realloc(client->buffer, client->capacity);
        }
        ssize_t got = recv(client->socket, client->buffer + client->length,
                           client->capacity - client->length, 0);
        if (got <= 0) return false;
        client->length += (size_t)got;
    }
    return true;
}

char *ws_read(ws_client *client, int timeout_ms)
{
    for (;;) {
        if (!fill(client, 2, timeout_ms)) return NULL;
        const uint8_t *frame = (const uint8_t *)client->buffer;
        int opcode = frame[0] & 0x0f;
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
        if (!fill(client, header + length, timeout_ms)) return NULL;
        char *message = malloc(length + 1);
        memcpy(message, client->buffer + header, length);
        message[length] = '\0';
        memmove(client->buffer, client->buffer + header + length,
                client->length - header - length);
        client->length -= header + length;
        if (opcode == 0x8) {
            free(message);
            return NULL; /* closed */
        }
        if (opcode == 0x1) return message;
        free(message); /* pings, pongs */
    }
}

bool ws_send(ws_client *client, const char *text, size_t length)
{
    uint8_t header[14];
    size_t used = 0;
    header[used++] = 0x81;
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
    for (size_t i = 0; i < length; i++) masked[i] = (char)(text[i] ^ mask[i % 4]);
    bool ok = send_all(client->socket, (const char *)header, used) &&
              send_all(client->socket, masked, length);
    free(masked);
    return ok;
}

void ws_close(ws_client *client)
{
    if (client->socket >= 0) close(client->socket);
    client->socket = -1;
    free(client->buffer);
    client->buffer = NULL;
}
