/*
 * loop.c: every socket of `gateau serve`, on one thread, with
 * libwebsockets.
 *
 * The loop reads requests and WebSocket messages and writes answers and
 * pushes; it never waits.  A request that needs a table's lock or a file
 * goes to a request thread (requests.c) and comes back answered through
 * loop_answered; a push is queued in its subscriber's outbox
 * (websocket.c) and announced through loop_wake.  Both wake the loop with
 * lws_cancel_service, the one libwebsockets call that other threads may
 * make.  So a client that reads slowly, or never, fills only its own
 * outbox and its own socket, and no table waits for it.
 *
 * What the loop refuses by itself, before any other thread is involved
 * (docs/server.md, "The contract" and "Limits"): connections over the
 * limits, requests over an address's rate, a Host that names another
 * server, a foreign Origin, methods other than GET, HEAD and POST, tokens
 * in URLs, bodies without Content-Type: application/json or over the
 * limit.  libwebsockets itself cuts slow heads and bodies, answers pings
 * and closes on frames against RFC 6455; the loop pings quiet WebSockets
 * and closes idle connections itself (time_out).
 *
 * libwebsockets runs on libev's loop (epoll): its own loop polls every
 * socket at every turn, which cost a quarter of the server's time with
 * thousands of connections (docs/performance.md, "The server under load").
 *
 * Each connection has a loop_connection (lws's "opaque user data"), made
 * when it is accepted (the filter counts it, then libwebsockets makes the
 * connection) and freed when libwebsockets destroys it.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ev.h>
#include <libwebsockets.h>
#include <malloc.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "server/server.h"

_Static_assert(LWS_PRE <= SERVER_WRITE_ROOM, "room before a WebSocket message");

enum {
    LOOP_WRITE_CHUNK = 64 * 1024, /* an answer is written in pieces of at most this */
    LOOP_HEADER_POOL = 4096,      /* requests whose heads are read at once */
    LOOP_BEHIND_SECONDS = 2,      /* for a client fallen behind to take its close */
    LOOP_DRAIN_MS = 3000,         /* for every WebSocket to take its 1001 when stopping */
    LOOP_SWEEP_MS = 100,          /* between two looks at the timeouts (sweep) */
    /* The most WebSockets pinged at one sweep: sockets opened together
     * (a restart's reconnections, the bench's setup) fall quiet together,
     * and 16,000 pings written and their pongs read in one turn of the
     * loop held every push for 0.3 s.  2,000 a second spreads them. */
    LOOP_PINGS_PER_SWEEP = 200,
    LOOP_SWEEPS_PER_ADDRESS_SWEEP = 600, /* a minute */
    /* The most one send() may take: without it, libwebsockets sends no
     * more than the receive buffer's size at once (512 bytes here) and
     * keeps the rest for the next turn of the loop. */
    LOOP_SEND_SIZE = LOOP_WRITE_CHUNK + 4096
};

struct loop_connection {
    struct lws *wsi;
    client_address *address;          /* the peer's */
    client_address *websocket_client; /* whose WebSockets count this one (when one) */
    http_exchange *exchange;          /* being read, with a request thread, or written */
    bool websocket;
    subscriber *subscriber;
    char *message;                    /* the first message, fragments put together (malloc'd
                                         until it is read: later ones are only counted) */
    size_t message_length;
    bool hello_sent;                  /* its first message went to a request thread */
    int64_t hello_deadline;           /* ms, while waiting for the first message */
    int close_code;                   /* to close with, at the next write */
    char close_reason[124];
    struct loop_connection *previous, *next; /* waiting for a first message */
    /* In one of the loop's lists by time, oldest first (see time_out):
     * an open WebSocket by when its client was last heard from, or an idle
     * keep-alive connection by when its last answer went. */
    struct connection_list *list;
    int64_t since;     /* ms */
    int64_t pinged_at; /* ms, when pinged since last heard from; 0: not */
    bool ping_due;
    bool closing_behind; /* fell behind: closed within LOOP_BEHIND_SECONDS */
    bool peer_closing;   /* its client sent a close frame: no more pushes */
    struct loop_connection *older, *newer;
};

struct connection_list {
    struct loop_connection *oldest, *newest;
};

static struct {
    const server_options *options;
    struct lws_context *context;       /* NULL once it goes (under lock) */
    struct lws_context *vhost_context; /* the same, for the loop's own use */
    struct ev_loop *events;            /* libev's loop (epoll) that libwebsockets runs on */
    struct lws_vhost *vhost;
    pthread_t thread;
    bool running;
    atomic_bool stopping;
    int port;
    int open_connections;
    client_address *accepted; /* between the filter and the new connection */
    struct loop_connection *waiting_hello; /* a list, oldest first */
    struct connection_list websockets; /* open WebSockets, by when last heard from */
    struct connection_list idle;       /* idle keep-alive connections, by since when */
    lws_sorted_usec_list_t sweep;
    int sweeps;
    lws_sorted_usec_list_t drain; /* stopping: until every WebSocket took its 1001 */
    int64_t drain_deadline;       /* ms; 0 while not stopping */
    int in_flight;                /* exchanges with the request threads */
    /* What other threads hand the loop, under lock. */
    pthread_mutex_t lock;
    http_exchange *answered;
    bool wake_pending; /* woken since it last took what was handed back */
    subscriber **woken;
    int woken_count, woken_capacity;
    unsigned char chunk[LWS_PRE + LOOP_WRITE_CHUNK];
} loop = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* ---- From other threads ---------------------------------------------------------------------- */

/* Under loop.lock: the context is not destroyed meanwhile.  Once until
 * the loop takes what it was woken for: each wake-up is a write to a pipe
 * and a turn of the loop, and one turn takes everything handed back. */
static void wake_loop(void)
{
    if (loop.wake_pending || !loop.context) return;
    loop.wake_pending = true;
    lws_cancel_service(loop.context);
}

void loop_answered(http_exchange *exchange)
{
    pthread_mutex_lock(&loop.lock);
    exchange->next = loop.answered;
    loop.answered = exchange;
    wake_loop();
    pthread_mutex_unlock(&loop.lock);
}

void loop_wake(subscriber *to)
{
    pthread_mutex_lock(&loop.lock);
    if (loop.woken_count == loop.woken_capacity) {
        int capacity = loop.woken_capacity ? 2 * loop.woken_capacity : 256;
        subscriber **grown = realloc(loop.woken, (size_t)capacity * sizeof *grown);
        if (!grown) abort();
        loop.woken = grown;
        loop.woken_capacity = capacity;
    }
    loop.woken[loop.woken_count++] = to;
    wake_loop();
    pthread_mutex_unlock(&loop.lock);
}

/* ---- Exchanges ----------------------------------------------------------------------------- */

void exchange_free(http_exchange *exchange)
{
    if (!exchange) return;
    free(exchange->body);
    free(exchange->answer);
    free(exchange->head);
    free(exchange);
}

static client_address *client_of(struct loop_connection *connection);

static http_exchange *exchange_new(struct loop_connection *connection)
{
    http_exchange *made = calloc(1, sizeof *made);
    if (!made) abort();
    made->connection = connection;
    made->started = server_now_us();
    snprintf(made->client, sizeof made->client, "%s", addresses_text(client_of(connection)));
    return made;
}

/* ---- Answers ----------------------------------------------------------------------------- */

static const char *status_text(int status)
{
    switch (status) {
    case 200: return "OK";
    case 201: return "Created";
    case 204: return "No Content";
    case 304: return "Not Modified";
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 409: return "Conflict";
    case 411: return "Length Required";
    case 413: return "Payload Too Large";
    case 415: return "Unsupported Media Type";
    case 422: return "Unprocessable Entity";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Unknown";
    }
}

static void log_answer(const http_exchange *exchange)
{
    metrics_request(exchange->status);
    if (loop.options->quiet) return;
    /* The path only: never a query or a header. */
    char method[32], path[2048], client[80];
    one_line(exchange->method[0] ? exchange->method : "-", method, sizeof method);
    one_line(exchange->path[0] ? exchange->path : "-", path, sizeof path);
    one_line(exchange->client, client, sizeof client);
    request_log_answer(client, method, path, exchange->status,
                       server_now_us() - exchange->started);
}

/* The answer's head, once: the status line and the headers. */
static void make_head(http_exchange *exchange)
{
    bool head_only = !strcmp(exchange->method, "HEAD");
    bool bodyless = exchange->status == 204 || exchange->status == 304;
    char text[2048];
    int length = snprintf(text, sizeof text,
                          "HTTP/1.1 %d %s\r\n%s%s%s%sContent-Length: %zu\r\n"
                          "X-Content-Type-Options: nosniff\r\n%s%s\r\n",
                          exchange->status, status_text(exchange->status),
                          exchange->type ? "Content-Type: " : "",
                          exchange->type ? exchange->type : "", exchange->type ? "\r\n" : "",
                          strstr(exchange->headers, "Cache-Control:") ? "" : "Cache-Control: no-store\r\n",
                          bodyless ? 0 : exchange->answer_length, exchange->headers,
                          exchange->close_after ? "Connection: close\r\n" : "");
    if (length < 0 || (size_t)length >= sizeof text) length = 0;
    exchange->head = malloc((size_t)length + 1);
    if (!exchange->head) abort();
    memcpy(exchange->head, text, (size_t)length);
    exchange->head_length = (size_t)length;
    /* An answer to HEAD has no body (its length is the one GET would have). */
    if (head_only || bodyless) exchange->answer_length = 0;
    log_answer(exchange);
}

/*
 * Timeouts without libwebsockets' timers.  Its timers are one list sorted
 * by due time, and an insertion (lws_dll2_add_sorted) walks it from the
 * head: a ping timer per WebSocket (its retry policy) and an idle timer
 * per keep-alive connection (set by lws_http_transaction_completed) put
 * thousands in it, all walked at every request.  So WebSockets and idle
 * keep-alive connections are kept here instead, each list in order of
 * time (a connection heard from goes to the end), and the sweep looks
 * only at their fronts, ten times a second (time_out).  What libwebsockets
 * still times (a head, a body) lasts only while a request is read.
 */
static void list_unlink(struct loop_connection *connection)
{
    struct connection_list *list = connection->list;
    if (!list) return;
    if (connection->older) connection->older->newer = connection->newer;
    else list->oldest = connection->newer;
    if (connection->newer) connection->newer->older = connection->older;
    else list->newest = connection->older;
    connection->older = connection->newer = NULL;
    connection->list = NULL;
}

static void list_append(struct connection_list *list, struct loop_connection *connection)
{
    list_unlink(connection);
    connection->list = list;
    connection->since = server_now();
    connection->older = list->newest;
    connection->newer = NULL;
    if (list->newest) list->newest->newer = connection;
    else list->oldest = connection;
    list->newest = connection;
}

/* A WebSocket's client was heard from (a frame, a pong). */
static void heard_from(struct loop_connection *connection)
{
    connection->pinged_at = 0;
    list_append(&loop.websockets, connection);
}

/* From the sweep: pings the WebSockets quiet for websocket_ping seconds,
 * closes those that stayed quiet as long again after their ping, and the
 * keep-alive connections idle for keep_alive seconds. */
static void time_out(int64_t now)
{
    int64_t ping_ms = (int64_t)loop.options->websocket_ping * 1000;
    int pings = 0;
    /* (The pinged sockets are the front of the quiet ones: one heard from
     * goes to the end.  So stopping at the first unpinged one once the
     * sweep's pings are spent leaves no due timeout behind it.) */
    for (struct loop_connection *at = loop.websockets.oldest, *next;
         ping_ms > 0 && at && at->since + ping_ms <= now; at = next) {
        next = at->newer;
        if (!at->pinged_at) {
            if (pings++ == LOOP_PINGS_PER_SWEEP) break;
            at->pinged_at = now;
            at->ping_due = true;
            lws_callback_on_writable(at->wsi);
        } else if (at->pinged_at + ping_ms <= now) {
            list_unlink(at);
            lws_set_timeout(at->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
        }
    }
    for (struct loop_connection *at = loop.idle.oldest, *next;
         at && at->since + (int64_t)loop.options->keep_alive * 1000 <= now; at = next) {
        next = at->newer;
        list_unlink(at);
        lws_set_timeout(at->wsi, PENDING_TIMEOUT_HTTP_KEEPALIVE_IDLE, LWS_TO_KILL_ASYNC);
    }
}

/* Writes the next piece of the answer: -1 to close the connection. */
static int write_answer(struct loop_connection *connection)
{
    http_exchange *exchange = connection->exchange;
    if (!exchange || exchange->in_flight || exchange->after_body || !exchange->status) return 0;
    if (!exchange->head) make_head(exchange);
    size_t total = exchange->head_length + exchange->answer_length, used = 0;
    unsigned char *out = loop.chunk + LWS_PRE;
    while (exchange->written + used < total && used < LOOP_WRITE_CHUNK) {
        size_t at = exchange->written + used, take;
        const char *from;
        if (at < exchange->head_length) {
            from = exchange->head + at;
            take = exchange->head_length - at;
        } else {
            from = exchange->answer + (at - exchange->head_length);
            take = total - at;
        }
        if (take > LOOP_WRITE_CHUNK - used) take = LOOP_WRITE_CHUNK - used;
        memcpy(out + used, from, take);
        used += take;
    }
    if (used && lws_write(connection->wsi, out, used, LWS_WRITE_HTTP) < (int)used) return -1;
    exchange->written += used;
    /* Complete once libwebsockets has sent it all: else it would complete
     * the transaction itself later, with its own idle timer. */
    if (exchange->written < total || lws_partial_buffered(connection->wsi)) {
        lws_callback_on_writable(connection->wsi);
        return 0;
    }
    bool close = exchange->close_after;
    connection->exchange = NULL;
    exchange_free(exchange);
    if (close) return -1;
    if (lws_http_transaction_completed(connection->wsi)) return -1;
    /* Idle: timed here, not by libwebsockets (see list_unlink). */
    lws_set_timeout(connection->wsi, NO_PENDING_TIMEOUT, 0);
    list_append(&loop.idle, connection);
    return 0;
}

/* Answers from the loop itself (a refusal): written when writable. */
static int answer_now(struct loop_connection *connection, int status, const char *headers,
                      const char *format, ...) __attribute__((format(printf, 4, 5)));
static int answer_now(struct loop_connection *connection, int status, const char *headers,
                      const char *format, ...)
{
    char reason[600];
    va_list args;
    va_start(args, format);
    vsnprintf(reason, sizeof reason, format, args);
    va_end(args);
    http_exchange *exchange = connection->exchange;
    exchange_error(exchange, status, "%s", reason);
    size_t used = strlen(exchange->headers);
    snprintf(exchange->headers + used, sizeof exchange->headers - used, "%s", headers);
    lws_callback_on_writable(connection->wsi);
    return 0;
}

/* ---- Reading a request ------------------------------------------------------------------- */

/* A header into out ("" when absent): false when longer than out holds. */
static bool header(struct lws *wsi, enum lws_token_indexes which, char *out, size_t size)
{
    out[0] = '\0';
    int length = lws_hdr_total_length(wsi, which);
    if (length <= 0) return true;
    if ((size_t)length >= size) return false;
    return lws_hdr_copy(wsi, out, (int)size, which) >= 0;
}

/* The query's items, decoded, joined with '&': false when too long. */
static bool read_query(struct lws *wsi, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    char item[1024];
    for (int i = 0; lws_hdr_copy_fragment(wsi, item, sizeof item, WSI_TOKEN_HTTP_URI_ARGS, i) >= 0; i++) {
        int written = snprintf(out + used, size - used, "%s%s", used ? "&" : "", item);
        if (written < 0 || (size_t)written >= size - used) return false;
        used += (size_t)written;
    }
    return lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_URI_ARGS) < (int)size;
}

/* Whether the query names a token ("token=..." as any item). */
static bool query_has_token(const char *query)
{
    for (const char *p = query; *p;) {
        if (!strncmp(p, "token=", 6) || !strcmp(p, "token")) return true;
        const char *next = strchr(p, '&');
        if (!next) break;
        p = next + 1;
    }
    return false;
}

static const char *method_of(struct lws *wsi)
{
    static const struct {
        enum lws_token_indexes token;
        const char *name;
    } methods[] = {{WSI_TOKEN_GET_URI, "GET"},       {WSI_TOKEN_POST_URI, "POST"},
                   {WSI_TOKEN_HEAD_URI, "HEAD"},     {WSI_TOKEN_OPTIONS_URI, "OPTIONS"},
                   {WSI_TOKEN_PUT_URI, "PUT"},       {WSI_TOKEN_PATCH_URI, "PATCH"},
                   {WSI_TOKEN_DELETE_URI, "DELETE"}, {WSI_TOKEN_CONNECT, "CONNECT"}};
    for (size_t i = 0; i < sizeof methods / sizeof *methods; i++)
        if (lws_hdr_total_length(wsi, methods[i].token) > 0) return methods[i].name;
    return "?";
}

/* The client a request comes from: its peer, or, from a trusted proxy,
 * the last address its X-Forwarded-For names. */
static client_address *client_of(struct loop_connection *connection)
{
    if (!addresses_trusted(addresses_text(connection->address))) return connection->address;
    char forwarded[512];
    if (!header(connection->wsi, WSI_TOKEN_X_FORWARDED_FOR, forwarded, sizeof forwarded) ||
        !forwarded[0])
        return connection->address;
    char *last = strrchr(forwarded, ',');
    last = last ? last + 1 : forwarded;
    while (*last == ' ' || *last == '\t') last++;
    size_t length = strlen(last);
    while (length && (last[length - 1] == ' ' || last[length - 1] == '\t')) last[--length] = '\0';
    /* Only an address counts (the log and the limits per address take
     * it): anything else names no client, and the proxy is the client. */
    unsigned char bytes[sizeof(struct in6_addr)];
    bool address = inet_pton(AF_INET, last, bytes) == 1 || inet_pton(AF_INET6, last, bytes) == 1;
    client_address *client = address ? addresses_find(last) : NULL;
    return client ? client : connection->address;
}

/* Hands the exchange to a request thread (503 when they are all busy). */
static int submit(struct loop_connection *connection)
{
    http_exchange *exchange = connection->exchange;
    exchange->in_flight = true;
    if (requests_submit(exchange)) {
        loop.in_flight++;
        return 0;
    }
    exchange->in_flight = false;
    return answer_now(connection, 503, "Retry-After: 1\r\n", "the server is busy: try again");
}

/* The request line's version: HTTP/1.1 or HTTP/1.0 and nothing after it
 * (libwebsockets takes the rest of the line as the version).  0 when it
 * is one of those, else the status to refuse with.  (libwebsockets leaves
 * it empty when the line has none, and when the path holds an encoded
 * line break: it then cuts the path there and drops the query, token=
 * and all, so such a request is refused too.) */
static int version_refused(struct lws *wsi, char *version, size_t size)
{
    if (!header(wsi, WSI_TOKEN_HTTP, version, size)) return 400;
    if (!strcmp(version, "HTTP/1.1") || !strcmp(version, "HTTP/1.0")) return 0;
    bool numbered = strlen(version) == 8 && !strncmp(version, "HTTP/", 5) &&
                    strchr("0123456789", version[5]) && version[6] == '.' &&
                    strchr("0123456789", version[7]);
    return numbered && version[5] && version[7] ? 505 : 400;
}

/* Whether a comma-separated header value holds token (any case). */
static bool has_token(const char *value, const char *token)
{
    size_t length = strlen(token);
    for (const char *at = value; *at;) {
        while (*at == ' ' || *at == '\t' || *at == ',') at++;
        const char *end = at;
        while (*end && *end != ',') end++;
        const char *last = end;
        while (last > at && (last[-1] == ' ' || last[-1] == '\t')) last--;
        if ((size_t)(last - at) == length && !strncasecmp(at, token, length)) return true;
        at = end;
    }
    return false;
}

/* Whether the client closes after this request (RFC 9112 9.3): it says
 * "Connection: close", or speaks HTTP/1.0 without asking to keep alive.
 * (A Connection header too long to read counts as close: the answer
 * then only takes the slower way, answer_handed_back.) */
static bool client_closes(struct lws *wsi, const char *version)
{
    char value[128];
    if (!header(wsi, WSI_TOKEN_CONNECTION, value, sizeof value)) return true;
    if (has_token(value, "close")) return true;
    return !strcmp(version, "HTTP/1.0") && !has_token(value, "keep-alive");
}

/* The checks every request passes, in the loop (docs/server.md): 0 to go
 * on, 1 when it was refused (the refusal is on its way). */
static int refused_at_once(struct loop_connection *connection, bool upgrade)
{
    struct lws *wsi = connection->wsi;
    http_exchange *exchange = connection->exchange;
    client_address *client = client_of(connection);
    char host[256], authorization[160], retry[48], version[32];
    int refusal = version_refused(wsi, version, sizeof version);
    if (refusal) {
        exchange->close_after = true;
        if (refusal == 505)
            return !answer_now(connection, 505, "", "%s is not spoken here: HTTP/1.1 is", version);
        char quoted[64];
        one_line(version, quoted, sizeof quoted);
        if (!quoted[0])
            return !answer_now(connection, 400, "", "the request line has no 'HTTP/1.1' after "
                               "its path (or the path holds an encoded line break)");
        return !answer_now(connection, 400, "", "the request line ends with '%s', not 'HTTP/1.1'",
                           quoted);
    }
    /* Its answer then says so, and closes (write_answer). */
    if (!upgrade && client_closes(wsi, version)) exchange->close_after = true;
    int wait = addresses_request(client);
    if (wait) {
        snprintf(retry, sizeof retry, "Retry-After: %d\r\n", wait);
        return !answer_now(connection, 429, retry, "too many requests from %s: slow down",
                           addresses_text(client));
    }
    /* A body's length is its Content-Length alone: with Transfer-Encoding
     * too, a proxy in front might see another body (request smuggling). */
    if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) > 0) {
        exchange->close_after = true;
        return !answer_now(connection, 400, "", "Transfer-Encoding is not taken: a body says "
                           "its length with Content-Length");
    }
    if (!header(wsi, WSI_TOKEN_HOST, host, sizeof host) ||
        (host[0] && !browser_host_allowed(host)))
        return !answer_now(connection, 403, "", "Host '%.100s' is not a name this server "
                           "answers to (see --host)", host);
    if (!header(wsi, WSI_TOKEN_ORIGIN, exchange->origin, sizeof exchange->origin))
        return !answer_now(connection, 400, "", "the Origin header is too long");
    browser_cors_headers(exchange->origin, exchange->headers, sizeof exchange->headers);
    const char *method = exchange->method;
    if (!strcmp(method, "OPTIONS") && browser_cors_origin(exchange->origin)) {
        size_t used = strlen(exchange->headers);
        snprintf(exchange->headers + used, sizeof exchange->headers - used,
                 "Access-Control-Allow-Methods: GET, HEAD, POST\r\n"
                 "Access-Control-Allow-Headers: Authorization, Content-Type\r\n"
                 "Access-Control-Max-Age: 600\r\n");
        exchange->status = 204;
        lws_callback_on_writable(wsi);
        return 1;
    }
    if (strcmp(method, "GET") && strcmp(method, "HEAD") && strcmp(method, "POST"))
        return !answer_now(connection, 405, "Allow: GET, HEAD, POST\r\n",
                           "%s is not allowed: GET, HEAD and POST are", method);
    if (!read_query(wsi, exchange->query, sizeof exchange->query))
        return !answer_now(connection, 400, "", "the query is too long");
    if (query_has_token(exchange->query))
        return !answer_now(connection, 400, "", "a token goes in the header 'Authorization: "
                           "Bearer <token>' (or a WebSocket's first message), never in the URL");
    if (!header(wsi, WSI_TOKEN_HTTP_AUTHORIZATION, authorization, sizeof authorization))
        return !answer_now(connection, 400, "", "the Authorization header is too long");
    if (authorization[0]) {
        if (strncasecmp(authorization, "Bearer ", 7) || !authorization[7] ||
            strlen(authorization + 7) >= sizeof exchange->token)
            return !answer_now(connection, 400, "", "Authorization: a token as 'Bearer <token>'");
        memcpy(exchange->token, authorization + 7, strlen(authorization + 7) + 1);
    }
    if ((upgrade || !strcmp(method, "POST")) && !browser_origin_allowed(exchange->origin, host))
        return !answer_now(connection, 403, "", "a page of %.100s may not use this server "
                           "(see --origin)", exchange->origin);
    return 0;
}

static int http_body_done(struct loop_connection *connection);

/*
 * A POST's head: checks what it says about its body.  A body too long, or
 * of no stated length, is not read: the refusal closes the connection.
 * Any other refusal (its type, the rate of tables) waits for the body to
 * be read: closing a connection with unread bytes resets it, and the
 * reset may destroy the answer on its way.
 */
static int post_begins(struct loop_connection *connection)
{
    struct lws *wsi = connection->wsi;
    http_exchange *exchange = connection->exchange;
    char type[128], length_text[32];
    if (!header(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH, length_text, sizeof length_text) ||
        !length_text[0] || strspn(length_text, "0123456789") != strlen(length_text)) {
        exchange->close_after = true;
        return answer_now(connection, 411, "", "a POST says its body's length (Content-Length)");
    }
    long long length = atoll(length_text);
    if (strlen(length_text) > 12 || length > SERVER_MAX_BODY) {
        exchange->close_after = true;
        return answer_now(connection, 413, "", "the body is over %d bytes", SERVER_MAX_BODY);
    }
    exchange->body_capacity = (size_t)length + 1;
    exchange->body = malloc(exchange->body_capacity);
    if (!exchange->body) abort();
    exchange->body[0] = '\0';
    int wait = 0;
    if (!header(wsi, WSI_TOKEN_HTTP_CONTENT_TYPE, type, sizeof type) ||
        strncasecmp(type, "application/json", 16) || (type[16] && type[16] != ';' && type[16] != ' ')) {
        exchange_error(exchange, 415, "a body is JSON, sent with 'Content-Type: application/json'");
    } else if (!strcmp(exchange->path, "/api/tables") &&
               (wait = addresses_create_table(client_of(connection)))) {
        exchange_error(exchange, 429, "too many tables made from %s: wait %d s",
                       addresses_text(client_of(connection)), wait);
        snprintf(exchange->headers + strlen(exchange->headers),
                 sizeof exchange->headers - strlen(exchange->headers), "Retry-After: %d\r\n", wait);
    }
    if (exchange->status) exchange->after_body = true;
    /* The body follows (LWS_CALLBACK_HTTP_BODY), then its completion:
     * libwebsockets says so of an empty body too (Content-Length: 0). */
    return 0;
}

static int http_begins(struct loop_connection *connection, const char *path, size_t length)
{
    list_unlink(connection); /* not idle */
    /* A request pipelined behind one that a request thread still has (after
     * an empty POST, libwebsockets reads on): the connection closes, and
     * that exchange is freed once answered. */
    if (connection->exchange && connection->exchange->in_flight) return -1;
    exchange_free(connection->exchange);
    http_exchange *exchange = connection->exchange = exchange_new(connection);
    snprintf(exchange->method, sizeof exchange->method, "%s", method_of(connection->wsi));
    snprintf(exchange->path, sizeof exchange->path, "%.*s", (int)length, path);
    if (length >= sizeof exchange->path) {
        exchange->close_after = true;
        return answer_now(connection, 400, "", "the path is too long");
    }
    if (refused_at_once(connection, false)) return 0;
    if (!strcmp(exchange->method, "POST")) return post_begins(connection);
    header(connection->wsi, WSI_TOKEN_HTTP_IF_NONE_MATCH, exchange->if_none_match,
           sizeof exchange->if_none_match);
    return submit(connection);
}

static int http_body(struct loop_connection *connection, const char *data, size_t length)
{
    http_exchange *exchange = connection->exchange;
    if (!exchange || !exchange->body || (exchange->status && !exchange->after_body)) return 0;
    if (!length) return 0; /* (an empty body: data is NULL) */
    if (exchange->body_length + length >= exchange->body_capacity) {
        exchange->after_body = false;
        exchange->close_after = true;
        return answer_now(connection, 413, "", "the body is longer than it said");
    }
    memcpy(exchange->body + exchange->body_length, data, length);
    exchange->body_length += length;
    exchange->body[exchange->body_length] = '\0';
    return 0;
}

static int http_body_done(struct loop_connection *connection)
{
    http_exchange *exchange = connection->exchange;
    if (!exchange) return 0;
    /* libwebsockets 4.1 says a request is complete again each time it looks
     * at bytes that came after it (pipelined requests) before its answer
     * completes the transaction; and when the request itself came
     * pipelined with a body, again and again without returning (having
     * given it the first bytes of its own head as its body).  A connection
     * that pipelines is closed at the second time (RFC 9112 9.3.2 lets a
     * server close it; browsers do not pipeline). */
    if (exchange->completions++) return -1;
    if (!exchange->body || (exchange->status && !exchange->after_body)) return 0;
    /* The answer may take a while (a table's lock, a commit): no cut. */
    lws_set_timeout(connection->wsi, NO_PENDING_TIMEOUT, 0);
    if (exchange->after_body) { /* refused: the refusal goes now */
        exchange->after_body = false;
        lws_callback_on_writable(connection->wsi);
        return 0;
    }
    return submit(connection);
}

/* ---- WebSockets -------------------------------------------------------------------------- */

/* "/api/tables/ID/ws" -> ID; false for anything else. */
static bool socket_table(const char *path, char id[STORE_ID_SIZE])
{
    const char *prefix = "/api/tables/";
    if (strncmp(path, prefix, strlen(prefix)) != 0) return false;
    const char *start = path + strlen(prefix);
    size_t length = strcspn(start, "/");
    if (length == 0 || length >= STORE_ID_SIZE || strcmp(start + length, "/ws") != 0) return false;
    memcpy(id, start, length);
    id[length] = '\0';
    return true;
}

/* An upgrade, refused here with an HTTP answer (1) or let through (0). */
static int upgrade_begins(struct loop_connection *connection)
{
    list_unlink(connection); /* not idle */
    struct lws *wsi = connection->wsi;
    exchange_free(connection->exchange);
    http_exchange *exchange = connection->exchange = exchange_new(connection);
    snprintf(exchange->method, sizeof exchange->method, "GET");
    bool fits = header(wsi, WSI_TOKEN_GET_URI, exchange->path, sizeof exchange->path);
    int refused = 0;
    if (!fits) refused = !answer_now(connection, 404, "", "no such WebSocket");
    else refused = refused_at_once(connection, true);
    if (!refused && !socket_table(exchange->path, exchange->table_id))
        refused = !answer_now(connection, 404, "", "no WebSocket at %.100s", exchange->path);
    client_address *client = client_of(connection);
    if (!refused && !addresses_open_websocket(client))
        refused = !answer_now(connection, 429, "Retry-After: 10\r\n", "%s has as many "
                              "WebSockets open as it may", addresses_text(client));
    if (refused) {
        /* libwebsockets wants the refusal written before it goes on. */
        make_head(exchange);
        size_t length = exchange->head_length + exchange->answer_length;
        unsigned char *out = loop.chunk + LWS_PRE;
        if (length > LOOP_WRITE_CHUNK) length = LOOP_WRITE_CHUNK;
        memcpy(out, exchange->head, exchange->head_length);
        memcpy(out + exchange->head_length, exchange->answer, length - exchange->head_length);
        lws_write(wsi, out, length, LWS_WRITE_HTTP_HEADERS);
        connection->exchange = NULL;
        exchange_free(exchange);
        return 1;
    }
    connection->websocket_client = client;
    return 0;
}

static void wait_for_hello(struct loop_connection *connection)
{
    connection->hello_deadline = server_now() + SERVER_HELLO_SECONDS * 1000;
    connection->previous = NULL;
    connection->next = loop.waiting_hello;
    if (loop.waiting_hello) loop.waiting_hello->previous = connection;
    loop.waiting_hello = connection;
}

static void hello_came(struct loop_connection *connection)
{
    if (!connection->hello_deadline) return;
    if (connection->previous) connection->previous->next = connection->next;
    else loop.waiting_hello = connection->next;
    if (connection->next) connection->next->previous = connection->previous;
    connection->previous = connection->next = NULL;
    connection->hello_deadline = 0;
}

static void close_socket(struct loop_connection *connection, int code, const char *reason)
{
    if (connection->close_code) return;
    connection->close_code = code;
    snprintf(connection->close_reason, sizeof connection->close_reason, "%s", reason);
    lws_callback_on_writable(connection->wsi);
}

static int websocket_received(struct loop_connection *connection, const char *data, size_t length)
{
    struct lws *wsi = connection->wsi;
    if (connection->close_code) return 0;
    if (lws_is_first_fragment(wsi)) connection->message_length = 0;
    if (connection->message_length + length > SERVER_MAX_MESSAGE) {
        const char *reason = "a message is at most 4096 bytes";
        lws_close_reason(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, (unsigned char *)reason,
                         strlen(reason));
        return -1;
    }
    if (!connection->hello_sent) {
        if (!connection->message && !(connection->message = malloc(SERVER_MAX_MESSAGE + 1)))
            abort();
        memcpy(connection->message + connection->message_length, data, length);
    }
    connection->message_length += length;
    if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi)) return 0;
    if (connection->hello_sent) return 0; /* nothing to say after the first message */
    connection->hello_sent = true;
    hello_came(connection);
    http_exchange *exchange = exchange_new(connection);
    exchange->websocket_hello = true;
    snprintf(exchange->table_id, sizeof exchange->table_id, "%s", connection->exchange
             ? connection->exchange->table_id : "");
    /* The message becomes the exchange's body. */
    exchange->body = connection->message;
    exchange->body[connection->message_length] = '\0';
    exchange->body_length = connection->message_length;
    connection->message = NULL;
    exchange_free(connection->exchange);
    connection->exchange = exchange;
    exchange->in_flight = true;
    if (!requests_submit(exchange)) {
        exchange->in_flight = false;
        close_socket(connection, 1013, "the server is busy: try again");
        return 0;
    }
    loop.in_flight++;
    return 0;
}

/* A WebSocket text frame's head for length bytes (server to client: no
 * mask) at out: its size. */
static size_t frame_head(unsigned char *out, size_t length)
{
    out[0] = 0x81; /* FIN, text */
    if (length < 126) {
        out[1] = (unsigned char)length;
        return 2;
    }
    if (length < 65536) {
        out[1] = 126;
        out[2] = (unsigned char)(length >> 8);
        out[3] = (unsigned char)length;
        return 4;
    }
    out[1] = 127;
    for (int i = 0; i < 8; i++) out[2 + i] = (unsigned char)(length >> (56 - 8 * i));
    return 10;
}

static void close_behind(struct loop_connection *connection);

/*
 * Writes the pushes waiting in the subscriber's outbox: those that fit in
 * the loop's chunk together go in one send, each in a frame of its own
 * (framed here: libwebsockets writes one frame a send).  A push larger
 * than the chunk goes alone, framed by libwebsockets.  What the socket
 * does not take, libwebsockets keeps and writes first when it can
 * (lws_issue_raw), and asks for LWS_CALLBACK_SERVER_WRITEABLE; pushes
 * still waiting wait for that too.  writable: called for
 * LWS_CALLBACK_SERVER_WRITEABLE (else from the wake-up, where a close
 * cannot be written yet).  -1: close the connection.
 */
static int write_pushes(struct loop_connection *connection, bool writable)
{
    struct lws *wsi = connection->wsi;
    push_message taken[SERVER_OUTBOX_MESSAGES];
    bool more;
    int code;
    int count = subscriber_take(connection->subscriber, taken, SERVER_OUTBOX_MESSAGES,
                                LOOP_WRITE_CHUNK, &more, &code);
    if (code && !writable) { /* (it fell behind since it was woken) */
        close_behind(connection);
        return 0;
    }
    if (code) {
        const char *reason = "fell behind: reconnect for a fresh snapshot";
        lws_close_reason(wsi, (enum lws_close_status)code, (unsigned char *)reason, strlen(reason));
        return -1;
    }
    if (!count) return 0;
    bool failed;
    if (count == 1 && taken[0].length + SERVER_FRAME_HEAD > LOOP_WRITE_CHUNK) {
        failed = lws_write(wsi, (unsigned char *)taken[0].data + SERVER_WRITE_ROOM,
                           taken[0].length, LWS_WRITE_TEXT) < (int)taken[0].length;
    } else {
        unsigned char *out = loop.chunk + LWS_PRE;
        size_t used = 0;
        for (int i = 0; i < count; i++) {
            used += frame_head(out + used, taken[i].length);
            memcpy(out + used, taken[i].data + SERVER_WRITE_ROOM, taken[i].length);
            used += taken[i].length;
        }
        failed = lws_write(wsi, out, used, LWS_WRITE_RAW) < (int)used;
    }
    for (int i = 0; i < count; i++) free(taken[i].data);
    if (failed) return -1;
    if (more || lws_partial_buffered(wsi)) lws_callback_on_writable(wsi);
    return 0;
}

/* Whether the loop may write a subscriber's pushes now, outside
 * LWS_CALLBACK_SERVER_WRITEABLE: nothing of an earlier write is held back
 * (so nothing is reordered, and libwebsockets holds at most one send's
 * remainder),
 * and no close or ping is due (those are written when writable). */
static bool can_write_now(const struct loop_connection *connection)
{
    return connection->subscriber && !connection->close_code && !connection->ping_due &&
           !connection->peer_closing && !lws_partial_buffered(connection->wsi);
}

/*
 * A subscriber has pushes: written at once when the socket can take
 * them, which spares a turn of the loop and two epoll_ctl calls a push
 * (arming the socket for writing, then disarming it); else when it is
 * writable.
 */
static void pushes_waiting(struct loop_connection *connection)
{
    if (!can_write_now(connection)) {
        lws_callback_on_writable(connection->wsi);
        return;
    }
    /* (a failed send: the socket is gone, and libwebsockets closes it) */
    if (write_pushes(connection, false) < 0)
        lws_set_timeout(connection->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

static int websocket_writable(struct loop_connection *connection)
{
    struct lws *wsi = connection->wsi;
    if (connection->close_code) {
        lws_close_reason(wsi, (enum lws_close_status)connection->close_code,
                         (unsigned char *)connection->close_reason,
                         strlen(connection->close_reason));
        return -1;
    }
    if (connection->ping_due) { /* one write per callback: the pushes next time */
        connection->ping_due = false;
        /* (with a payload: libwebsockets does not report an empty pong) */
        unsigned char ping[LWS_PRE + 4] = {[LWS_PRE] = 'p', 'i', 'n', 'g'};
        if (lws_write(wsi, ping + LWS_PRE, 4, LWS_WRITE_PING) < 4) return -1;
        if (connection->subscriber) lws_callback_on_writable(wsi);
        return 0;
    }
    if (!connection->subscriber || connection->peer_closing) return 0;
    return write_pushes(connection, true);
}

/* A subscriber fell behind: its close (1013) is written when its socket
 * can take it; a client that never reads never lets it, and goes anyway. */
static void close_behind(struct loop_connection *connection)
{
    lws_callback_on_writable(connection->wsi);
    if (connection->closing_behind) return;
    connection->closing_behind = true;
    lws_set_timeout(connection->wsi, PENDING_TIMEOUT_USER_OK, LOOP_BEHIND_SECONDS);
}

/* ---- Connections ----------------------------------------------------------------------------- */

static int accept_connection(const struct lws_filter_network_conn_args *accepted)
{
    if (loop.accepted) { /* the last one accepted never became a connection */
        addresses_disconnect(loop.accepted);
        loop.open_connections--;
        metrics_gauge_add(METRIC_CONNECTIONS, -1);
        loop.accepted = NULL;
    }
    if (loop.options->connections && loop.open_connections >= loop.options->connections) return 1;
    if (atomic_load(&loop.stopping)) return 1; /* draining: nobody new */
    char text[INET6_ADDRSTRLEN] = "?";
    const struct sockaddr_storage *peer = &accepted->cli_addr;
    if (peer->ss_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)peer)->sin_addr, text, sizeof text);
    else if (peer->ss_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)peer)->sin6_addr, text, sizeof text);
    client_address *address = addresses_find(text);
    if (!address) return 1;
    /* A proxy carries everybody's connections: it is not limited. */
    if (!addresses_connect(address, !addresses_trusted(text))) return 1;
    loop.open_connections++;
    metrics_gauge_add(METRIC_CONNECTIONS, 1);
    loop.accepted = address;
    return 0;
}

static void connection_made(struct lws *wsi)
{
    if (!loop.accepted) return; /* libwebsockets' own (the listener, its pipe) */
    struct loop_connection *made = calloc(1, sizeof *made);
    if (!made) abort();
    made->wsi = wsi;
    made->address = loop.accepted;
    loop.accepted = NULL;
    lws_set_opaque_user_data(wsi, made);
}

static void connection_gone(struct lws *wsi)
{
    struct loop_connection *gone = lws_get_opaque_user_data(wsi);
    if (!gone) return;
    lws_set_opaque_user_data(wsi, NULL);
    hello_came(gone);
    list_unlink(gone);
    if (gone->websocket_client) addresses_close_websocket(gone->websocket_client);
    if (gone->subscriber) websocket_gone(gone->subscriber);
    if (gone->exchange) {
        if (gone->exchange->in_flight) gone->exchange->connection = NULL; /* freed when answered */
        else exchange_free(gone->exchange);
    }
    addresses_disconnect(gone->address);
    loop.open_connections--;
    metrics_gauge_add(METRIC_CONNECTIONS, -1);
    if (gone->websocket) metrics_gauge_add(METRIC_WEBSOCKETS, -1);
    free(gone->message);
    free(gone);
}

/*
 * A request thread's answer: written at once when the socket can take it,
 * as pushes are (pushes_waiting), which spares a turn of the loop and two
 * epoll_ctl calls an answer (arming the socket for writing, then
 * disarming it).  An answer that closes its connection, or one behind an
 * earlier write still held back, waits for LWS_CALLBACK_HTTP_WRITEABLE,
 * where a close can be returned.
 */
static void answer_handed_back(struct loop_connection *connection)
{
    /* (the answered exchange is the connection's: no other begins while a
     * request thread has one, http_begins) */
    if (connection->exchange->close_after || lws_partial_buffered(connection->wsi)) {
        lws_callback_on_writable(connection->wsi);
        return;
    }
    /* (-1: a failed send, or a transaction libwebsockets will not keep
     * alive: the connection goes, as it would from the callback) */
    if (write_answer(connection) < 0)
        lws_set_timeout(connection->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

/* What the request threads handed back. */
static void take_handed_back(void)
{
    pthread_mutex_lock(&loop.lock);
    loop.wake_pending = false;
    http_exchange *answered = loop.answered;
    loop.answered = NULL;
    int woken_count = loop.woken_count;
    subscriber **woken = loop.woken;
    loop.woken = NULL;
    loop.woken_count = loop.woken_capacity = 0;
    pthread_mutex_unlock(&loop.lock);
    while (answered) {
        http_exchange *exchange = answered;
        answered = exchange->next;
        exchange->in_flight = false;
        loop.in_flight--;
        struct loop_connection *connection = exchange->connection;
        if (!connection) { /* it closed meanwhile */
            if (exchange->subscribed) websocket_gone(exchange->subscribed);
            exchange_free(exchange);
            continue;
        }
        if (exchange->websocket_hello) {
            connection->exchange = NULL;
            if (exchange->subscribed) {
                connection->subscriber = exchange->subscribed;
                subscriber_set_connection(exchange->subscribed, connection);
                pushes_waiting(connection);
            } else {
                close_socket(connection, exchange->close_code, exchange->close_reason);
            }
            exchange_free(exchange);
            continue;
        }
        answer_handed_back(connection);
    }
    for (int i = 0; i < woken_count; i++) {
        bool behind = subscriber_woken(woken[i]);
        struct loop_connection *connection = subscriber_connection(woken[i]);
        if (connection && !behind) {
            pushes_waiting(connection);
        } else if (connection) {
            close_behind(connection);
        }
        subscriber_release(woken[i]);
    }
    free(woken);
}

/* Stopping: the loop ends once every WebSocket has taken its close
 * (1001) and the request threads have handed back every request they
 * had (a move being committed gets its answer; it is written within
 * the next turn), or when LOOP_DRAIN_MS have passed (a client that never
 * reads). */
static void drain(lws_sorted_usec_list_t *timer)
{
    bool drained = !loop.websockets.oldest && !loop.in_flight;
    if (drained || server_now() >= loop.drain_deadline) {
        ev_break(loop.events, EVBREAK_ALL);
        return;
    }
    lws_sul_schedule(loop.vhost_context, 0, timer, drain, 20 * LWS_US_PER_MS);
}

/* SIGTERM (loop_stop): every WebSocket is told the server is going away,
 * with a close frame its client can act on (reconnect to another
 * server), rather than a connection cut. */
static void begin_drain(void)
{
    if (loop.drain_deadline) return;
    loop.drain_deadline = server_now() + LOOP_DRAIN_MS;
    for (struct loop_connection *at = loop.websockets.oldest; at; at = at->newer)
        close_socket(at, 1001, "the server is stopping");
    drain(&loop.drain);
}

/* Ten times a second: first messages that did not come, quiet and idle
 * connections; now and then, the addresses nobody uses any more.
 *
 * The sweep also keeps every other timer on time, and so goes on while
 * the loop drains.  libwebsockets 4.1 on libev sets its one libev timer
 * to the next of its timers without stopping it first, which libev
 * ignores while that timer is armed: a timer scheduled sooner than the
 * armed one (the drain's 20 ms) waits for it.  With the sweep running
 * that is at most LOOP_SWEEP_MS; without it the armed one might be 30 s
 * away, and SIGTERM waited that long (a drain scheduled just after the
 * last sweep).  When stopping, the sweep begins the drain itself, in
 * case the wake-up that begins it came before the sweep saw the flag. */
static void sweep(lws_sorted_usec_list_t *timer)
{
    lws_sul_schedule(loop.vhost_context, 0, timer, sweep, LOOP_SWEEP_MS * LWS_US_PER_MS);
    if (atomic_load(&loop.stopping)) {
        begin_drain();
        return;
    }
    int64_t now = server_now();
    for (struct loop_connection *at = loop.waiting_hello, *next; at; at = next) {
        next = at->next;
        if (at->hello_deadline > now) continue;
        hello_came(at);
        char reason[64];
        snprintf(reason, sizeof reason, "no first message within %d s", SERVER_HELLO_SECONDS);
        close_socket(at, 1008, reason);
    }
    time_out(now);
    if (++loop.sweeps % LOOP_SWEEPS_PER_ADDRESS_SWEEP == 0) addresses_sweep();
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t length)
{
    struct loop_connection *connection = wsi ? lws_get_opaque_user_data(wsi) : NULL;
    switch (reason) {
    case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
        return accept_connection(user); /* (in: the descriptor) */
    case LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED:
        connection_made(wsi);
        return 0;
    case LWS_CALLBACK_WSI_DESTROY:
        connection_gone(wsi);
        return 0;
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        take_handed_back();
        if (atomic_load(&loop.stopping) && loop.events) begin_drain();
        return 0;
    case LWS_CALLBACK_HTTP:
        return connection ? http_begins(connection, in, length) : -1;
    case LWS_CALLBACK_HTTP_BODY:
        return connection ? http_body(connection, in, length) : -1;
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
        return connection ? http_body_done(connection) : -1;
    case LWS_CALLBACK_HTTP_WRITEABLE:
        return connection ? write_answer(connection) : -1;
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
        if (!connection || strcasecmp(in, "websocket")) return -1;
        return upgrade_begins(connection);
    case LWS_CALLBACK_ESTABLISHED:
        if (!connection) return -1;
        connection->websocket = true;
        metrics_gauge_add(METRIC_WEBSOCKETS, 1);
        if (connection->exchange) {
            connection->exchange->status = 101;
            log_answer(connection->exchange);
            connection->exchange->status = 0;
        }
        wait_for_hello(connection);
        heard_from(connection);
        return 0;
    case LWS_CALLBACK_RECEIVE:
        if (connection) heard_from(connection);
        return connection ? websocket_received(connection, in, length) : -1;
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        if (connection) connection->peer_closing = true;
        return 0; /* (libwebsockets answers the close) */
    case LWS_CALLBACK_RECEIVE_PONG:
        if (connection) heard_from(connection);
        return 0;
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return connection ? websocket_writable(connection) : -1;
    case LWS_CALLBACK_RAW_ADOPT:
        /* libwebsockets makes a CONNECT's connection a raw socket, with
         * no timeout: closed at once. */
        return -1;
    case LWS_CALLBACK_HTTP_FILE_COMPLETION:
    case LWS_CALLBACK_CLOSED_HTTP:
    case LWS_CALLBACK_CLOSED:
        return 0;
    default:
        return lws_callback_http_dummy(wsi, reason, user, in, length);
    }
}

static const struct lws_protocols protocols[] = {
    /* One protocol for HTTP and WebSockets: a client names none.  Clients
     * send one short message, so the receive buffer is small (it is
     * allocated for every WebSocket); what is sent at once is not
     * (LOOP_SEND_SIZE). */
    {"gateau", callback, 0, 512, 0, NULL, LOOP_SEND_SIZE},
    {NULL, NULL, 0, 0, 0, NULL, 0}};

/* No ping timers of libwebsockets' (see list_unlink): a policy of zeros,
 * since without one it would use its default (pings every 300 s). */
static const lws_retry_bo_t no_validity_timers = {.secs_since_valid_ping = 0,
                                                  .secs_since_valid_hangup = 0};

static void *run(void *unused)
{
    (void)unused;
    server_thread_name("gateau-loop");
    /* libev's epoll instead of libwebsockets' own poll(), which looks at
     * every socket at every turn. */
    if (!atomic_load(&loop.stopping)) ev_run(loop.events, 0);
    /* Every connection closes (WebSockets with 1001), in this thread;
     * other threads stop waking the loop first. */
    pthread_mutex_lock(&loop.lock);
    struct lws_context *context = loop.context;
    loop.context = NULL;
    pthread_mutex_unlock(&loop.lock);
    lws_context_destroy(context);
    ev_loop_destroy(loop.events);
    loop.events = NULL;
    return NULL;
}

/* libwebsockets' errors, on one line each, in the request log. */
static void log_library(int level, const char *line)
{
    (void)level;
    if (loop.options && loop.options->quiet) return;
    char text[512];
    one_line(line, text, sizeof text);
    size_t length = strlen(text);
    while (length >= 2 && !strcmp(text + length - 2, "\\n")) text[length -= 2] = '\0';
    char logged[600];
    snprintf(logged, sizeof logged, "gateau: serve: libwebsockets: %s", text);
    request_log_text(logged);
}

/*
 * Whether bind:port can be listened on, tried before libwebsockets tries:
 * its own failure says why only in its log (and leaks a little).  Empty
 * error when it can.
 */
static bool can_listen(const char *bind_address, int port, char *error, size_t error_size)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_NUMERICHOST | AI_PASSIVE};
    struct addrinfo *found = NULL;
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    if (getaddrinfo(bind_address, service, &hints, &found) != 0 || !found) {
        snprintf(error, error_size, "cannot listen on '%s': not an IP address (--bind)",
                 bind_address);
        return false;
    }
    int fd = socket(found->ai_family, SOCK_STREAM, 0), yes = 1;
    bool bound = fd >= 0 && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes) == 0 &&
                 bind(fd, found->ai_addr, found->ai_addrlen) == 0;
    if (!bound)
        snprintf(error, error_size, "cannot listen on %s:%d: %s", bind_address, port,
                 strerror(errno));
    if (fd >= 0) close(fd);
    freeaddrinfo(found);
    return bound;
}

bool loop_start(const server_options *options, char *error, size_t error_size)
{
    if (!can_listen(options->bind, options->port, error, error_size)) return false;
    loop.options = options;
    atomic_store(&loop.stopping, false);
#ifdef M_ARENA_MAX
    /* glibc gives each thread that allocates at once an arena of its own
     * (up to 8 a core) and keeps what is freed in each: with 16 request
     * threads building pushes, megabytes idle in arenas.  Four arenas
     * for two cores' worth of threads running at once (set before the
     * request threads allocate anything). */
    mallopt(M_ARENA_MAX, 4);
#endif
    loop.drain_deadline = 0;
    lws_set_log_level(LLL_ERR, log_library);
    /* Enough descriptors for every connection allowed.  libwebsockets
     * sizes its table of connections by this limit and finds a socket's
     * connection by indexing it with the descriptor; a limit of its own
     * below it (fd_limit_per_thread, set here once) made it search the
     * whole table, 20,000 entries, at every event.  Above 10 million it
     * would take 2,560: the limit stays under that. */
    struct rlimit files;
    enum { MOST_DESCRIPTORS = 1 << 20 };
    if (getrlimit(RLIMIT_NOFILE, &files) == 0 &&
        (files.rlim_cur < files.rlim_max || files.rlim_cur > MOST_DESCRIPTORS)) {
        files.rlim_cur = files.rlim_max < MOST_DESCRIPTORS ? files.rlim_max : MOST_DESCRIPTORS;
        setrlimit(RLIMIT_NOFILE, &files);
    }
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    loop.events = ev_loop_new(EVBACKEND_EPOLL | EVFLAG_NOENV);
    if (!loop.events) {
        snprintf(error, error_size, "cannot make an event loop (epoll)");
        return false;
    }
    static void *foreign[1];
    foreign[0] = loop.events;
    info.foreign_loops = foreign;
    info.options |= LWS_SERVER_OPTION_LIBEV;
    info.port = options->port;
    info.iface = options->bind;
    info.protocols = protocols;
    info.options |= LWS_SERVER_OPTION_VALIDATE_UTF8 | LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND |
                   LWS_SERVER_OPTION_DISABLE_IPV6 * (strchr(options->bind, ':') == NULL);
    info.count_threads = 1;
    info.max_http_header_data = SERVER_MAX_HEAD;
    info.max_http_header_pool = LOOP_HEADER_POOL;
    info.timeout_secs = SERVER_BODY_SECONDS;       /* a body, once its head came */
    info.timeout_secs_ah_idle = SERVER_HEAD_SECONDS; /* a head, from its first byte */
    /* Idle keep-alive connections are timed here (loop.idle), and the
     * timer libwebsockets sets after each answer is cleared at once
     * (write_answer).  It is inserted in libwebsockets' sorted list of
     * timers all the same, behind every timer due sooner: a second (its
     * least) puts it near the list's head, where --keep-alive's 30 s
     * walked the whole list, cache miss by cache miss, at every answer. */
    info.keepalive_timeout = 1;
    info.retry_and_idle_policy = &no_validity_timers;
    info.server_string = "gateau";
    info.pt_serv_buf_size = 16 * 1024;
    loop.context = lws_create_context(&info);
    if (!loop.context) {
        ev_loop_destroy(loop.events);
        loop.events = NULL;
        /* (The port was free a moment ago: can_listen.) */
        snprintf(error, error_size, "cannot start libwebsockets on libev for %s:%d (is "
                 "libwebsockets-evlib-ev installed?)", options->bind, options->port);
        return false;
    }
    loop.vhost_context = loop.context;
    loop.vhost = lws_get_vhost_by_name(loop.context, "default");
    loop.port = loop.vhost ? lws_get_vhost_listen_port(loop.vhost) : options->port;
    /* A server started again in this process: the timer still names the
     * list of the context destroyed at the last stop, which scheduling
     * would unlink it from (writing into freed memory). */
    memset(&loop.sweep, 0, sizeof loop.sweep);
    memset(&loop.drain, 0, sizeof loop.drain); /* (the same, for the last stop's drain) */
    lws_sul_schedule(loop.context, 0, &loop.sweep, sweep, LOOP_SWEEP_MS * LWS_US_PER_MS);
    if (pthread_create(&loop.thread, NULL, run, NULL) != 0) {
        lws_context_destroy(loop.context);
        loop.context = NULL;
        snprintf(error, error_size, "cannot start the loop's thread");
        return false;
    }
    loop.running = true;
    return true;
}

int loop_port(void) { return loop.port; }

void loop_stop(void)
{
    if (!loop.running) return;
    atomic_store(&loop.stopping, true);
    lws_cancel_service(loop.context);
    pthread_join(loop.thread, NULL);
    loop.running = false;
}

/* After the request threads stopped: what they answered for nobody. */
void loop_forget(void)
{
    take_handed_back();
    addresses_free_all();
    loop.waiting_hello = NULL;
    loop.websockets = loop.idle = (struct connection_list){NULL, NULL};
    loop.accepted = NULL;
    metrics_gauge_add(METRIC_CONNECTIONS, -loop.open_connections); /* (none, normally) */
    loop.open_connections = 0;
    loop.in_flight = 0;
}
