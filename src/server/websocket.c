/*
 * websocket.c: the pushes.  A client that opens /api/tables/ID/ws (with
 * ?token=T for a seat, without for a spectator) receives the table as GET
 * returns it at once, then after every change the same JSON with only the
 * log entries it has not had yet ("log_start" says from where).  Who is
 * connected is part of what everybody sees (presence).
 *
 * Subscribers are added, removed and written to under the table's lock,
 * so a push never writes to a connection that is going away.  Clients have
 * nothing to say but pings: a message over SERVER_MAX_MESSAGE closes the
 * connection.
 */
#define _GNU_SOURCE /* pthread_getattr_np */
#include <civetweb.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "server/server.h"

struct subscriber {
    struct mg_connection *connection;
    server_table *table;
    int seat;     /* a seat, or GATEAU_OBSERVER */
    int sent_log; /* log entries this client has */
};

static const server_options *websocket_options;

/* "/api/tables/ID/ws" -> ID; false for anything else. */
static bool table_id_of(const char *uri, char id[STORE_ID_SIZE])
{
    const char *prefix = "/api/tables/";
    if (strncmp(uri, prefix, strlen(prefix)) != 0) return false;
    const char *start = uri + strlen(prefix);
    size_t length = strcspn(start, "/");
    if (length == 0 || length >= STORE_ID_SIZE || strcmp(start + length, "/ws") != 0) return false;
    memcpy(id, start, length);
    id[length] = '\0';
    return true;
}

/* The Origin of a browser's upgrade must be the server's own (or one
 * allowed by --origin), so that another site's page cannot open a seat
 * with a token it stole into its own URL.  Programs send no Origin. */
static bool origin_allowed(const struct mg_connection *connection)
{
    const char *origin = mg_get_header(connection, "Origin");
    if (!origin) return true;
    const char *host = mg_get_header(connection, "Host");
    char own[300];
    snprintf(own, sizeof own, "http://%s", host ? host : "");
    if (host && !strcmp(origin, own)) return true;
    snprintf(own, sizeof own, "https://%s", host ? host : "");
    if (host && !strcmp(origin, own)) return true;
    const char *allowed = websocket_options->origins;
    size_t length = strlen(origin);
    for (const char *p = allowed; p && *p;) {
        size_t item = strcspn(p, ",");
        if (item == length && !strncmp(p, origin, length)) return true;
        p += item + (p[item] == ',');
    }
    return false;
}

/* The table (locked and held: table_unlock it) and the seat (or
 * GATEAU_OBSERVER) an upgrade asks for: false, with nothing held, for a
 * path, an origin or a token that opens nothing, or a table whose sockets
 * are all taken. */
static bool subscription_of(const struct mg_connection *connection, server_table **table,
                            int *seat)
{
    const struct mg_request_info *request = mg_get_request_info(connection);
    char id[STORE_ID_SIZE], token[128];
    if (!table_id_of(request->local_uri, id) || !origin_allowed(connection)) return false;
    int length = request->query_string ? mg_get_var(request->query_string,
                                                    strlen(request->query_string), "token", token,
                                                    sizeof token)
                                       : -1;
    if (length == -2) return false; /* a token too long to be one: refused, not a spectator */
    if (length < 0) token[0] = '\0';
    if (!(*table = tables_lock(id))) return false;
    *seat = token[0] ? table_seat_of(*table, token) : GATEAU_OBSERVER;
    bool full = (*table)->subscriber_count == SERVER_MAX_SUBSCRIBERS;
    if (!(token[0] && *seat < 0) && !full) return true;
    table_unlock(*table);
    return false;
}

/*
 * Accepts or refuses an upgrade.  Nothing is allocated here: civetweb may
 * still fail its handshake after this (with no close handler to follow),
 * which it does for a Sec-WebSocket-Key too long for its buffer, with a
 * 500; a key is 24 characters (RFC 6455), any other is refused here.
 */
static int on_connect(const struct mg_connection *connection, void *unused)
{
    (void)unused;
    const char *key = mg_get_header(connection, "Sec-WebSocket-Key");
    server_table *table;
    int seat;
    if (!key || strlen(key) != 24 || !subscription_of(connection, &table, &seat)) return 1;
    table_unlock(table);
    return 0;
}

/* Writes one text frame with a single write: mg_websocket_write writes
 * the header and the payload apart, two system calls and two packets
 * per push.  The connection's lock keeps civetweb's own frames (a close)
 * from coming between. */
static void write_frame(struct mg_connection *connection, const char *message, size_t length)
{
    unsigned char header[10];
    size_t header_length;
    header[0] = 0x80 | MG_WEBSOCKET_OPCODE_TEXT; /* FIN: one frame */
    if (length < 126) {
        header[1] = (unsigned char)length;
        header_length = 2;
    } else if (length <= 0xffff) {
        header[1] = 126;
        header[2] = (unsigned char)(length >> 8);
        header[3] = (unsigned char)length;
        header_length = 4;
    } else {
        header[1] = 127;
        for (int i = 0; i < 8; i++) header[2 + i] = (unsigned char)((uint64_t)length >> (56 - 8 * i));
        header_length = 10;
    }
    char *frame = malloc(header_length + length);
    if (!frame) abort();
    memcpy(frame, header, header_length);
    memcpy(frame + header_length, message, length);
    mg_lock_connection(connection);
    mg_write(connection, frame, header_length + length);
    mg_unlock_connection(connection);
    free(frame);
}

/* Sends one subscriber what it has not had (under the table's lock). */
static void send_to(server_table *table, subscriber *to)
{
    char *message = table_snapshot_from(table, to->seat, to->sent_log);
    write_frame(to->connection, message, strlen(message));
    free(message);
    to->sent_log = table->version;
}

void websocket_push(server_table *table)
{
    for (int i = 0; i < table->subscriber_count; i++) send_to(table, table->subscribers[i]);
}

/* Presence changed: everybody's snapshot says who is connected. */
static void presence_changed(server_table *table)
{
    table_forget_snapshots(table);
    websocket_push(table);
}

/*
 * A WebSocket keeps its civetweb thread for as long as it is open, and
 * from now on that thread only waits for pings: the stack pages below
 * this frame that the upgrade and the first snapshot touched would stay
 * resident for hours.  Everything below the current frame is dead, so it
 * goes back to the kernel (a page touched again comes back as zeros); a
 * page of margin is kept below the stack pointer.  (civetweb's own frames
 * above this one are about 24 KB deep: this saves about 4 KB a socket,
 * 16 MB at 4,000 sockets.)
 */
static void release_stack_below_here(void)
{
    pthread_attr_t attributes;
    void *low;
    size_t size;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return;
    bool known = pthread_attr_getstack(&attributes, &low, &size) == 0;
    pthread_attr_destroy(&attributes);
    if (!known) return;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), here = (uintptr_t)&attributes;
    uintptr_t start = ((uintptr_t)low + page - 1) & ~(page - 1);
    uintptr_t end = (here - page) & ~(page - 1);
    if (end > start) madvise((void *)start, end - start, MADV_DONTNEED);
}

/* The subscriber keeps the table's reference until it closes. */
static void on_ready(struct mg_connection *connection, void *unused)
{
    (void)unused;
    server_table *table;
    int seat;
    if (!subscription_of(connection, &table, &seat)) return; /* (filled up since on_connect) */
    subscriber *joining = calloc(1, sizeof *joining);
    if (!joining) abort();
    joining->connection = connection;
    joining->table = table;
    joining->seat = seat;
    mg_set_user_connection_data(connection, joining);
    table->subscribers[table->subscriber_count++] = joining;
    if (joining->seat >= 0) table->seats[joining->seat].connections++;
    if (joining->seat >= 0 && table->seats[joining->seat].connections == 1)
        presence_changed(table); /* the newcomer gets its first message too */
    else
        send_to(table, joining);
    pthread_mutex_unlock(&table->lock);
    release_stack_below_here();
}

static int on_data(struct mg_connection *connection, int bits, char *data, size_t length,
                   void *unused)
{
    (void)connection, (void)data, (void)unused;
    int opcode = bits & 0x0f;
    if (opcode == MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE) return 0;
    return length <= SERVER_MAX_MESSAGE; /* pings and small talk only */
}

static void on_close(const struct mg_connection *connection, void *unused)
{
    (void)unused;
    subscriber *leaving = mg_get_user_connection_data(connection);
    if (!leaving) return;
    server_table *table = leaving->table;
    pthread_mutex_lock(&table->lock);
    for (int i = 0; i < table->subscriber_count; i++) {
        if (table->subscribers[i] != leaving) continue;
        table->subscribers[i] = table->subscribers[--table->subscriber_count];
        if (leaving->seat >= 0 && --table->seats[leaving->seat].connections == 0)
            presence_changed(table);
        break;
    }
    table_unlock(table); /* and the subscriber's reference */
    free(leaving);
}

void websocket_register(struct mg_context *context, const server_options *options)
{
    websocket_options = options;
    mg_set_websocket_handler(context, "/api/tables/*/ws", on_connect, on_ready, on_data,
                             on_close, NULL);
}
