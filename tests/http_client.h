/*
 * http_client.h: a small blocking HTTP/1.1 and WebSocket client over
 * plain sockets, for the server's tests and its load benchmark: a client
 * that shares no code with the server it checks.
 */
#ifndef GATEAU_HTTP_CLIENT_H
#define GATEAU_HTTP_CLIENT_H

#include <stdbool.h>
#include <stddef.h>

/* How long a client waits for the server to say anything before it gives
 * up on an answer (milliseconds). */
enum { HTTP_CLIENT_TIMEOUT_MS = 30000 };

/* One request on a fresh connection (Connection: close).  Returns the
 * status (-1 when the connection failed); *body receives the body
 * (malloc'd, NUL-terminated; chunked bodies decoded).  extra_headers: ""
 * (or NULL) or "Name: value\r\n"...  A request with a body says
 * `Content-Type: application/json` unless extra_headers name a
 * Content-Type of their own. */
int http_request(int port, const char *method, const char *path, const char *body,
                 const char *extra_headers, char **response_body);

/* The same with `Authorization: Bearer token` (token NULL: none), the
 * way a seat's (or a table creator's) token travels (docs/server.md). */
int http_request_as(int port, const char *method, const char *path, const char *body,
                    const char *token, const char *extra_headers, char **response_body);

/* Sends request (any bytes) on a fresh connection: everything the server
 * answered until it closed or fell silent for 400 ms after answering
 * (malloc'd, NUL-terminated).  NULL when the connection failed. */
char *http_raw(int port, const char *request, size_t length);
/* The same from the loopback address source ("127.0.0.2" ...): another
 * client, as the server's limits per address count them. */
char *http_raw_from(const char *source, int port, const char *request, size_t length);

/* A WebSocket client connection. */
typedef struct ws_client {
    int socket;
    char *buffer; /* bytes read but not yet returned */
    size_t length, capacity;
    /* The status of the answer to the upgrade (101 when accepted, -1 when
     * there was none), and the start of a refusal's body. */
    int status;
    char refusal[512];
    /* The code of the close frame the server sent (1005 when it named
     * none), 0 while none has come; -1 when the connection ended without
     * one (or a frame could not be read). */
    int close_code;
    char close_reason[124]; /* the close frame's reason, as it came */
    char *partial; /* the fragments of a message read so far */
    size_t partial_length;
} ws_client;

/* Opens ws://127.0.0.1:port/path (origin NULL: no Origin header).  False
 * when the upgrade is refused (client->status and client->refusal say
 * how).  The server waits for the first message (ws_hello). */
bool ws_open(ws_client *client, int port, const char *path, const char *origin);
/* Sends the first message: {"token": token} for a seat, {} for a
 * spectator (token NULL). */
bool ws_hello(ws_client *client, const char *token);
/* ws_open then ws_hello. */
bool ws_open_as(ws_client *client, int port, const char *path, const char *origin,
                const char *token);
/* The next text message (malloc'd; fragments put together), waiting up
 * to timeout_ms; NULL on timeout or close (client->close_code says
 * which).  Pings are answered with pongs meanwhile. */
char *ws_read(ws_client *client, int timeout_ms);
/* Sends a text message (masked, as a client must). */
bool ws_send(ws_client *client, const char *text, size_t length);
/* Sends any frame: opcode, fin, and the payload (masked). */
bool ws_send_frame(ws_client *client, int opcode, bool fin, const char *payload, size_t length);
/* Closes the connection (freeing the buffer); also after a failed ws_open. */
void ws_close(ws_client *client);

#endif
