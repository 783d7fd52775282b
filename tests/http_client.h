/*
 * http_client.h: a small blocking HTTP/1.1 and WebSocket client over
 * plain sockets, for the server's tests and its load benchmark: a client
 * that shares no code with the server it checks.
 */
#ifndef GATEAU_HTTP_CLIENT_H
#define GATEAU_HTTP_CLIENT_H

#include <stdbool.h>
#include <stddef.h>

/* One request on a fresh connection (Connection: close).  Returns the
 * status (-1 when the connection failed); *body receives the body
 * (malloc'd, NUL-terminated).  extra_headers: "" or "Name: value\r\n"... */
int http_request(int port, const char *method, const char *path, const char *body,
                 const char *extra_headers, char **response_body);

/* Sends request (any bytes) on a fresh connection, then ends the
 * stream: everything the server answered until it closed (malloc'd,
 * NUL-terminated).  NULL when the connection failed. */
char *http_raw(int port, const char *request, size_t length);

/* A WebSocket client connection. */
typedef struct ws_client {
    int socket;
    char *buffer; /* bytes read but not yet returned */
    size_t length, capacity;
} ws_client;

/* Opens ws://127.0.0.1:port/path (origin NULL: no Origin header).  False
 * when the upgrade is refused. */
bool ws_open(ws_client *client, int port, const char *path, const char *origin);
/* The next text message (malloc'd), waiting up to timeout_ms; NULL on
 * timeout or close. */
char *ws_read(ws_client *client, int timeout_ms);
/* Sends a text message (masked, as a client must). */
bool ws_send(ws_client *client, const char *text, size_t length);
void ws_close(ws_client *client);

#endif
