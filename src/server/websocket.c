/*
 * websocket.c: the pushes.  A client opens /api/tables/ID/ws and says in
 * its first message who it is ({"token": T} for a seat, {} for a
 * spectator); it receives the table as GET returns it, then after every
 * change the same JSON with only the log entries it has not had yet
 * ("log_start" says from where).  Who is connected is part of what
 * everybody sees (presence).
 *
 * A push never writes to a socket.  It is made under the table's lock and
 * queued in each subscriber's outbox, which the loop (loop.c) empties
 * into the socket as fast as the client reads.  The outbox is bounded
 * (SERVER_OUTBOX_MESSAGES, SERVER_OUTBOX_BYTES): a client that falls
 * further behind is closed with 1013 and starts again from a fresh
 * snapshot when it reconnects, so a slow client costs only itself.
 *
 * A subscriber is shared by three holders, each with a reference: its
 * table (from the first message until it leaves), its connection (until
 * the loop sees it close), and the loop's wake list (while it is there).
 * The outbox and the flags have a lock of their own, held only for a few
 * pointer moves: the loop never waits for a table's lock.
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/server.h"

typedef push_message outbox_message;

struct subscriber {
    server_table *table; /* held until it leaves */
    int seat;            /* a seat, or GATEAU_OBSERVER */
    int sent_log;        /* log entries this client has (under the table's lock) */
    _Atomic int references;
    pthread_mutex_t lock; /* the outbox and the flags */
    outbox_message outbox[SERVER_OUTBOX_MESSAGES];
    int first, count;
    size_t bytes;
    bool behind; /* fell behind: to be closed with 1013 */
    bool gone;   /* its connection closed: pushes are dropped */
    bool woken;  /* in the loop's wake list */
    struct loop_connection *connection; /* the loop's own */
};

static const server_options *websocket_options;

void websocket_configure(const server_options *options) { websocket_options = options; }

static void empty_outbox(subscriber *to)
{
    for (; to->count; to->count--, to->first = (to->first + 1) % SERVER_OUTBOX_MESSAGES)
        free(to->outbox[to->first].data);
    to->bytes = 0;
}

void subscriber_release(subscriber *to)
{
    if (atomic_fetch_sub(&to->references, 1) != 1) return;
    empty_outbox(to);
    pthread_mutex_destroy(&to->lock);
    free(to);
}

/* Under to->lock: asks the loop to write (once until it has). */
static void wake(subscriber *to)
{
    if (to->woken) return;
    to->woken = true;
    atomic_fetch_add(&to->references, 1);
    loop_wake(to);
}

/* Queues a push for to, which takes data (SERVER_WRITE_ROOM bytes, then
 * the text's length bytes): past the bound, it fell behind. */
static void enqueue(subscriber *to, char *data, size_t length)
{
    pthread_mutex_lock(&to->lock);
    if (to->gone || to->behind) {
        pthread_mutex_unlock(&to->lock);
        free(data);
        return;
    }
    /* One message always fits, however large (a first snapshot of a long
     * game): the bound is on what waits behind it. */
    if (to->count == SERVER_OUTBOX_MESSAGES ||
        (to->count && to->bytes + length > SERVER_OUTBOX_BYTES)) {
        to->behind = true;
        empty_outbox(to);
        free(data);
    } else {
        int at = (to->first + to->count) % SERVER_OUTBOX_MESSAGES;
        to->outbox[at] = (outbox_message){data, length};
        to->count++;
        to->bytes += length;
    }
    wake(to);
    pthread_mutex_unlock(&to->lock);
}

/* Queues what the subscriber has not had (under the table's lock). */
static void send_to(server_table *table, subscriber *to)
{
    pthread_mutex_lock(&to->lock);
    bool dropped = to->gone || to->behind;
    pthread_mutex_unlock(&to->lock);
    if (dropped) return;
    size_t length;
    char *message = table_snapshot_message(table, to->seat, to->sent_log, SERVER_WRITE_ROOM,
                                           &length);
    enqueue(to, message, length);
    to->sent_log = table->version;
}

void websocket_push(server_table *table)
{
    for (int i = 0; i < table->subscriber_count; i++) send_to(table, table->subscribers[i]);
    /* The viewers' snapshots served this push's subscribers; kept, they
     * would hold some 12 KB a table until its next change for the rare
     * GET in between (4,000 tables: 48 MB). */
    table_forget_snapshots(table);
}

void websocket_push_text(server_table *table, const char *text)
{
    size_t length = strlen(text);
    for (int i = 0; i < table->subscriber_count; i++) {
        char *data = malloc(SERVER_WRITE_ROOM + length);
        if (!data) abort();
        memcpy(data + SERVER_WRITE_ROOM, text, length);
        enqueue(table->subscribers[i], data, length);
    }
}

/* The chat's last messages, after the first snapshot, when there are
 * any (none when the store cannot read them: the page still plays). */
static void send_chat_history(server_table *table, subscriber *to)
{
    char *history = chat_history(table);
    if (!history || strstr(history, "{\"chat\":[]")) {
        free(history);
        return;
    }
    size_t length = strlen(history);
    char *data = malloc(SERVER_WRITE_ROOM + length);
    if (!data) abort();
    memcpy(data + SERVER_WRITE_ROOM, history, length);
    free(history);
    enqueue(to, data, length);
}

/* Presence changed: everybody's snapshot says who is connected. */
static void presence_changed(server_table *table)
{
    table_forget_snapshots(table);
    websocket_push(table);
}

static void refuse(http_exchange *exchange, int code, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static void refuse(http_exchange *exchange, int code, const char *format, ...)
{
    char raw[256];
    va_list args;
    va_start(args, format);
    vsnprintf(raw, sizeof raw, format, args);
    va_end(args);
    exchange->close_code = code;
    /* A close frame's reason is at most 123 bytes of UTF-8: what a client
     * sent (a table id in a path) may be any bytes, and a cut may fall in
     * a character, so the reason is ASCII, other bytes written \xNN. */
    char ascii[sizeof raw * 4];
    size_t used = 0;
    for (const unsigned char *c = (const unsigned char *)raw; *c && used + 5 < sizeof ascii; c++) {
        if (*c < 0x80) ascii[used++] = (char)*c;
        else used += (size_t)snprintf(ascii + used, sizeof ascii - used, "\\x%02x", *c);
    }
    ascii[used] = '\0';
    one_line(ascii, exchange->close_reason, sizeof exchange->close_reason);
}

/* The token of a first message ({"token": T} or {}): NULL for a
 * spectator; false when the message is neither. */
static bool hello_token(const char *text, size_t length, char *token, size_t size,
                        bool *spectator)
{
    json_error_t error;
    json_t *hello = json_loadb(text, length, JSON_REJECT_DUPLICATES, &error);
    bool ok = json_is_object(hello) && json_object_size(hello) <= 1;
    json_t *value = ok ? json_object_get(hello, "token") : NULL;
    if (ok && json_object_size(hello) == 1 && !json_is_string(value)) ok = false;
    *spectator = ok && !value;
    if (ok && value) {
        const char *given = json_string_value(value);
        ok = strlen(given) < size;
        if (ok) snprintf(token, size, "%s", given);
    }
    json_decref(hello);
    return ok;
}

void websocket_hello(http_exchange *exchange)
{
    char token[128] = "";
    bool spectator;
    /* The nesting is bounded before any parse, as for bodies. */
    int depth = 0, deepest = 0;
    bool in_string = false;
    for (size_t i = 0; i < exchange->body_length; i++) {
        char c = exchange->body[i];
        if (in_string) {
            if (c == '\\') i++;
            else if (c == '"') in_string = false;
        } else if (c == '"') in_string = true;
        else if (c == '[' || c == '{') deepest = ++depth > deepest ? depth : deepest;
        else if (c == ']' || c == '}') depth--;
    }
    if (deepest > SERVER_MAX_DEPTH ||
        !hello_token(exchange->body, exchange->body_length, token, sizeof token, &spectator)) {
        refuse(exchange, 1008, "the first message must be {\"token\": \"<a seat's token>\"} or {}");
        return;
    }
    server_table *table = tables_lock(exchange->table_id);
    if (!table) {
        refuse(exchange, 1008, "no table %.30s", exchange->table_id);
        return;
    }
    int seat = spectator ? GATEAU_OBSERVER : table_seat_of(table, token);
    if (!spectator && seat < 0) {
        table_unlock(table);
        refuse(exchange, 1008, "the token opens no seat of this table");
        return;
    }
    if (seat >= 0 && table->seats[seat].connections >= SERVER_SEAT_SOCKETS) {
        table_unlock(table);
        refuse(exchange, 1013, "seat %d has %d sockets open already", seat + 1,
               SERVER_SEAT_SOCKETS);
        return;
    }
    int most = websocket_options->spectators;
    if (seat < 0 && most && table->spectator_count >= most) {
        table_unlock(table);
        refuse(exchange, 1013, "the table's %d spectators' sockets are all taken", most);
        return;
    }
    if (table->subscriber_count == table->subscriber_capacity) {
        int capacity = table->subscriber_capacity ? 2 * table->subscriber_capacity : 4;
        subscriber **grown = realloc(table->subscribers, (size_t)capacity * sizeof *grown);
        if (!grown) abort();
        table->subscribers = grown;
        table->subscriber_capacity = capacity;
    }
    subscriber *joining = calloc(1, sizeof *joining);
    if (!joining) abort();
    joining->table = table;
    joining->seat = seat;
    atomic_init(&joining->references, 2); /* the table's and the connection's */
    pthread_mutex_init(&joining->lock, NULL);
    table->subscribers[table->subscriber_count++] = joining;
    if (seat < 0) table->spectator_count++;
    else table->seats[seat].connections++;
    if (seat >= 0 && table->seats[seat].connections == 1)
        presence_changed(table); /* the newcomer gets its first message too */
    else
        send_to(table, joining);
    send_chat_history(table, joining);
    exchange->subscribed = joining;
    /* The subscriber keeps the table's reference until it leaves. */
    pthread_mutex_unlock(&table->lock);
}

/* On a request thread: the subscriber leaves its table. */
static void leave(void *context)
{
    subscriber *leaving = context;
    server_table *table = leaving->table;
    pthread_mutex_lock(&table->lock);
    for (int i = 0; i < table->subscriber_count; i++) {
        if (table->subscribers[i] != leaving) continue;
        table->subscribers[i] = table->subscribers[--table->subscriber_count];
        if (leaving->seat < 0) table->spectator_count--;
        else if (--table->seats[leaving->seat].connections == 0) {
            table->seats[leaving->seat].absent_since = server_now(); /* (hand-overs) */
            presence_changed(table);
        }
        break;
    }
    table_unlock(table); /* and the subscriber's reference */
    subscriber_release(leaving); /* the table's */
    subscriber_release(leaving); /* the connection's */
}

void websocket_gone(subscriber *leaving)
{
    pthread_mutex_lock(&leaving->lock);
    leaving->gone = true;
    leaving->connection = NULL;
    empty_outbox(leaving);
    pthread_mutex_unlock(&leaving->lock);
    requests_submit_task(leave, leaving);
}

struct loop_connection *subscriber_connection(subscriber *to) { return to->connection; }

void subscriber_set_connection(subscriber *to, struct loop_connection *connection)
{
    to->connection = connection;
}

int subscriber_take(subscriber *to, push_message *taken, int most, size_t room, bool *more,
                    int *close_code)
{
    pthread_mutex_lock(&to->lock);
    int count = 0;
    size_t used = 0;
    *close_code = to->behind ? 1013 : 0;
    while (!to->behind && to->count && count < most) {
        outbox_message *next = &to->outbox[to->first];
        size_t framed = next->length + SERVER_FRAME_HEAD;
        if (count && used + framed > room) break; /* (the first goes whatever its size) */
        used += framed;
        taken[count++] = *next;
        to->bytes -= next->length;
        to->first = (to->first + 1) % SERVER_OUTBOX_MESSAGES;
        to->count--;
    }
    *more = to->count > 0;
    pthread_mutex_unlock(&to->lock);
    return count;
}

bool subscriber_woken(subscriber *to)
{
    pthread_mutex_lock(&to->lock);
    to->woken = false;
    bool behind = to->behind;
    pthread_mutex_unlock(&to->lock);
    return behind;
}
