/*
 * fuzz_request.c: what `gateau serve` reads from the network
 * (docs/server.md): request bodies, paths and query strings, whole HTTP
 * requests, WebSocket messages and frames (src/server/http.c,
 * websocket.c, and table.c and snapshot.c behind them).
 *
 * One server runs inside the fuzzer's process (server_start: a temporary
 * database, a free port, one bot thread), with a table of every game whose
 * seats are people with known tokens, and one with open seats to join.
 * Each input is sent over a socket of its own, as a client would, and the
 * answer is checked against the contract:
 *
 *   - it is a whole HTTP answer, with a status of the contract (200, 201,
 *     400, 403, 404, 405, 409, 413, 422, 429; and 411, 417, 426, 505 for
 *     what is not HTTP/1.x): any other 5xx is a finding;
 *   - a refusal is {"error": "<one line>"}, and changes nothing: the
 *     table is as it was (version, seats);
 *   - what succeeds did what it says: a move raised the version, a joined
 *     seat's token opens it, a created table is there, a token given
 *     opens a seat or is refused (never a spectator's view);
 *   - the server still answers (GET /api/games) after every input.
 *
 * Input: byte 0 the kind (modulo KIND_COUNT), byte 1 the table (modulo
 * TABLE_COUNT; the rest of that byte picks which legal move $MOVE is),
 * then the payload:
 *
 *   0 create    POST /api/tables with the payload as its body
 *   1 move      POST /api/tables/$ID/moves
 *   2 join      POST /api/tables/$ID/join
 *   3 zombie    POST /api/tables/$ID/zombie
 *   4 get       GET of the payload as the target ("/api/tables/$ID?token=$TOKEN")
 *   5 raw       the payload sent as it is (one or more whole requests)
 *   6 message   a WebSocket: the target, a newline, then one text message
 *   7 frames    a WebSocket: the target, a newline, then raw frames
 *
 * Placeholders in the payload become the table's own values, so that the
 * fuzzer reaches real moves: $ID, $CREATOR (the creator's token), $TOKEN
 * (the seat to move), $TOKEN1..$TOKEN6, $VERSION, $MOVE (a whole legal
 * move of the seat to move, in notation), $ACTIONS (the same move's
 * actions, "12,40"), $FIRST (its first action).  Every table starts from
 * the same deal (seed 1, as `gateau play --seed 1`): fuzz/make-corpus.sh
 * takes real first moves from there.  A table that an input changed (a
 * move, a join, a zombie) is replaced by a fresh one before the next
 * input; every RESTART_EVERY inputs the server restarts on a new database,
 * which frees the tables made so far.
 *
 * Tables created by inputs keep running: their bot seats may only be the
 * fast bots (random, heuristic), or the input is skipped, so that no bot
 * thinks for minutes on a spec such as ismcts:ms=100000 (bot specs are
 * fuzz_setup's).
 */
#define _GNU_SOURCE /* memmem, nftw */
#include <arpa/inet.h>
#include <civetweb.h>
#include <errno.h>
#include <ftw.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fuzz.h"
#include "server/server.h"

enum {
    KIND_CREATE,
    KIND_MOVE,
    KIND_JOIN,
    KIND_ZOMBIE,
    KIND_GET,
    KIND_RAW,
    KIND_MESSAGE,
    KIND_FRAMES,
    KIND_COUNT
};

enum {
    ANSWER_TIMEOUT_MS = 10000, /* an answer that takes longer is a hang */
    RESTART_EVERY = 5000,      /* inputs between restarts */
    TABLE_SEED = 1             /* every table's chance: the deal of `gateau play --seed 1` */
};

/* The tables every input may use: people's seats ("h", their tokens
 * known) and open seats ("o"). */
static const struct {
    const char *game;
    const char *seats;
} TABLES[] = {
    {"piece-o-cake", "hhh"}, {"maries-table", "hhh"}, {"mice-cake", "hh"},
    {"cake-master", "hh"},   {"piece-o-cake", "hoo"},
};
#define TABLE_COUNT ((int)(sizeof TABLES / sizeof TABLES[0]))

static const char CREATOR[] = "fuzzCreatorxxxxxxxxxxxxxxxxxxxxx";

static void seat_token(int seat, char token[SERVER_TOKEN_SIZE])
{
    snprintf(token, SERVER_TOKEN_SIZE, "fuzzSeat%dxxxxxxxxxxxxxxxxxxxxxxx", seat + 1);
}

static struct {
    char folder[64];           /* everything on disk: removed at exit */
    char db[128];
    server_options options;
    server *running;
    int port;
    int starts;                /* servers started */
    int inputs;                /* since the last start */
    unsigned made;             /* tables made: their ids */
    bool verbose;              /* GATEAU_FUZZ_VERBOSE=1: each answer on stderr */
    char ids[TABLE_COUNT][STORE_ID_SIZE];
    uint64_t signatures[TABLE_COUNT]; /* as made */
} fuzz;

/* ---- The tables ------------------------------------------------------------------- */

static uint64_t mix(uint64_t hash, uint64_t value) { return (hash ^ value) * 1099511628211u; }

/* What a request may change in a table, summed up (under its lock). */
static uint64_t table_signature(const server_table *table)
{
    uint64_t hash = mix(14695981039346656037u, (uint64_t)table->version);
    hash = mix(hash, table->over);
    for (int s = 0; s < table->players; s++) {
        const table_seat *seat = &table->seats[s];
        hash = mix(hash, (uint64_t)seat->claimed << 1 | seat->zombie);
        for (const char *c = seat->name; *c; c++) hash = mix(hash, (unsigned char)*c);
    }
    return hash;
}

/* The signature of the table with id now: 0 when there is none. */
static uint64_t signature_of(const char *id)
{
    server_table *table = tables_lock(id);
    if (!table) return 0;
    uint64_t signature = table_signature(table);
    table_unlock(table);
    return signature;
}

/* A fresh table `index`, as the store would restore it: known tokens and
 * seed, so that every input starts from the same position. */
static void make_table(int index)
{
    const char *seats = TABLES[index].seats;
    store_table kept = {0};
    snprintf(kept.id, sizeof kept.id, "fuzz%dt%07u", index, ++fuzz.made % 10000000);
    snprintf(kept.game, sizeof kept.game, "%s", TABLES[index].game);
    kept.players = (int)strlen(seats);
    kept.seed = TABLE_SEED;
    token_hash(CREATOR, kept.creator_hash);
    for (int s = 0; s < kept.players; s++) {
        snprintf(kept.seats[s].spec, sizeof kept.seats[s].spec, "%s",
                 seats[s] == 'h' ? "human" : "open");
        kept.seats[s].has_token = seats[s] == 'h';
        char token[SERVER_TOKEN_SIZE];
        seat_token(s, token);
        if (seats[s] == 'h') token_hash(token, kept.seats[s].token_hash);
    }
    char error[512];
    FUZZ_REQUIRE(store_create_table(tables_store(), &kept, error, sizeof error), "%s", error);
    server_table *table = table_restore(tables_store(), &kept, NULL, 0, error, sizeof error);
    FUZZ_REQUIRE(table != NULL, "%s", error);
    FUZZ_REQUIRE(table_resume(table, error, sizeof error), "%s", error); /* the deal */
    /* (Else no input would reach a move: the seeds' moves are for this.) */
    FUZZ_REQUIRE(gateau_state_next_seat(gateau_record_state(table->record)) >= 0,
                 "a fresh %s table waits for no person's move", kept.game);
    tables_add(table);
    snprintf(fuzz.ids[index], sizeof fuzz.ids[index], "%s", kept.id);
    fuzz.signatures[index] = signature_of(kept.id);
}

/* Replaces the tables that the last input changed. */
static void refresh_tables(void)
{
    for (int t = 0; t < TABLE_COUNT; t++)
        if (signature_of(fuzz.ids[t]) != fuzz.signatures[t]) make_table(t);
}

/* ---- The server --------------------------------------------------------------------- */

static int remove_entry(const char *path, const struct stat *status, int type, struct FTW *walk)
{
    (void)status, (void)type, (void)walk;
    remove(path);
    return 0;
}

static void remove_tree(const char *path) { nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS); }

static void start_server(void)
{
    snprintf(fuzz.db, sizeof fuzz.db, "%s/tables-%d", fuzz.folder, fuzz.starts++);
    mkdir(fuzz.db, 0700);
    strcat(fuzz.db, "/tables.db"); /* its decks go beside it, in tables.db.decks */
    fuzz.options = (server_options){.bind = "127.0.0.1", .port = 0, .db = fuzz.db,
                                    .bot_threads = 1, .connections = 16, .quiet = true};
    char error[512];
    fuzz.running = server_start(&fuzz.options, error, sizeof error);
    FUZZ_REQUIRE(fuzz.running != NULL, "the server does not start: %s", error);
    fuzz.port = server_port(fuzz.running);
    fuzz.inputs = 0;
    for (int t = 0; t < TABLE_COUNT; t++) make_table(t);
}

static void stop_server(void)
{
    if (!fuzz.running) return;
    server_stop(fuzz.running);
    fuzz.running = NULL;
    *strrchr(fuzz.db, '/') = '\0';
    remove_tree(fuzz.db);
}

static void at_exit(void)
{
    stop_server();
    remove_tree(fuzz.folder);
}

/* ---- Connections ---------------------------------------------------------------------- */

typedef struct connection {
    int socket;
    char *buffer; /* received, not yet taken */
    size_t length, capacity;
    bool may_be_head; /* requests were sent as they came: one may be HEAD */
} connection;

static void connection_open(connection *to)
{
    memset(to, 0, sizeof *to);
    to->socket = socket(AF_INET, SOCK_STREAM, 0);
    FUZZ_REQUIRE(to->socket >= 0, "socket: %s", strerror(errno));
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)fuzz.port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    FUZZ_REQUIRE(connect(to->socket, (struct sockaddr *)&address, sizeof address) == 0,
                 "the server takes no connection: %s", strerror(errno));
    int one = 1;
    setsockopt(to->socket, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

static void connection_close(connection *to)
{
    close(to->socket);
    free(to->buffer);
}

/* False when the server has closed the connection (or reset it: it may
 * close after an answer without reading all that was sent). */
static bool send_bytes(connection *to, const void *data, size_t length)
{
    const char *bytes = data;
    while (length) {
        ssize_t sent = send(to->socket, bytes, length, MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR) continue;
        if (sent <= 0) return false;
        bytes += sent;
        length -= (size_t)sent;
    }
    return true;
}

/* Receives more: false at the end of the stream.  No answer within
 * ANSWER_TIMEOUT_MS is a finding. */
static bool receive_more(connection *from)
{
    struct pollfd wait = {.fd = from->socket, .events = POLLIN};
    int ready;
    while ((ready = poll(&wait, 1, ANSWER_TIMEOUT_MS)) < 0 && errno == EINTR) {
    }
    FUZZ_REQUIRE(ready == 1, "no answer in %d ms (%zu bytes so far)", ANSWER_TIMEOUT_MS,
                 from->length);
    if (from->capacity - from->length < 4096) {
        from->capacity = from->capacity ? 2 * from->capacity : 16384;
        from->buffer = realloc(from->buffer, from->capacity);
        if (!from->buffer) abort();
    }
    ssize_t got = recv(from->socket, from->buffer + from->length, from->capacity - from->length, 0);
    if (got <= 0) return false; /* closed, or reset */
    from->length += (size_t)got;
    return true;
}

/* Drops the first count bytes received. */
static void take(connection *from, size_t count)
{
    memmove(from->buffer, from->buffer + count, from->length - count);
    from->length -= count;
}

/* ---- Answers ---------------------------------------------------------------------------- */

typedef struct answer {
    int status;
    bool ours;  /* written by http.c (its headers), not by civetweb itself */
    bool json;  /* application/json */
    bool close; /* Connection: close */
    bool head_only; /* an answer to HEAD: no body */
    char *body; /* NUL-terminated */
    size_t body_length;
} answer;

/* The value of header name in head (lines of "Name: value"), or NULL; its
 * length in *length. */
static const char *header_value(const char *head, const char *name, size_t *length)
{
    size_t name_length = strlen(name);
    for (const char *line = strstr(head, "\r\n"); line && line[2];
         line = strstr(line + 2, "\r\n")) {
        const char *start = line + 2;
        if (strncasecmp(start, name, name_length) || start[name_length] != ':') continue;
        start += name_length + 1;
        while (*start == ' ') start++;
        *length = strcspn(start, "\r");
        return start;
    }
    return NULL;
}

static bool header_is(const char *head, const char *name, const char *value)
{
    size_t length;
    const char *found = header_value(head, name, &length);
    return found && length == strlen(value) && !strncasecmp(found, value, length);
}

/* The status of an answer's head, or -1.  Ours say HTTP/1.1; civetweb's
 * own refusals echo the version the request gave, whatever it was (even
 * with spaces): their status is the last three-digit word of the line. */
static int status_of(const char *head, bool ours)
{
    int status = -1;
    if (strncmp(head, "HTTP/", 5) != 0) return -1;
    if (ours) return sscanf(head, "HTTP/1.1 %3d ", &status) == 1 ? status : -1;
    size_t line = strcspn(head, "\r\n");
    for (size_t i = 0; i + 4 < line; i++)
        if (head[i] == ' ' && isdigit((unsigned char)head[i + 1]) &&
            isdigit((unsigned char)head[i + 2]) && isdigit((unsigned char)head[i + 3]) &&
            head[i + 4] == ' ')
            status = atoi(head + i + 1);
    return status;
}

/* Whether the answer whose head was just taken is one to HEAD, which has
 * no body whatever its Content-Length: the stream ends, or the next
 * answer begins, right after the head. */
static bool answers_head(connection *from)
{
    while (from->length < 5)
        if (!receive_more(from)) return true;
    return !memcmp(from->buffer, "HTTP/", 5);
}

/* Reads the next answer: false when the connection ended before one
 * began.  An answer cut short is a finding. */
static bool read_answer(connection *from, answer *into)
{
    memset(into, 0, sizeof *into);
    char *end;
    while (!from->length || !(end = memmem(from->buffer, from->length, "\r\n\r\n", 4))) {
        if (!receive_more(from)) {
            FUZZ_REQUIRE(from->length == 0, "an answer cut short in its head: %.*s",
                         (int)from->length, from->buffer);
            return false;
        }
    }
    size_t head_length = (size_t)(end - from->buffer) + 4;
    char *head = strndup(from->buffer, head_length);
    if (!head) abort();
    into->ours = header_is(head, "Cache-Control", "no-store") &&
                 header_is(head, "X-Content-Type-Options", "nosniff");
    into->status = status_of(head, into->ours);
    FUZZ_REQUIRE(into->status >= 100 && into->status <= 599, "not an HTTP answer: %s", head);
    into->json = header_is(head, "Content-Type", "application/json");
    into->close = header_is(head, "Connection", "close");
    take(from, head_length);
    size_t length;
    const char *content_length = header_value(head, "Content-Length", &length);
    if (content_length) {
        char *after;
        unsigned long long declared = strtoull(content_length, &after, 10);
        FUZZ_REQUIRE(after == content_length + length && declared < (1u << 30),
                     "Content-Length: %.*s", (int)length, content_length);
        into->body_length = (size_t)declared;
        into->head_only = from->may_be_head && answers_head(from);
        if (into->head_only) into->body_length = 0;
        while (from->length < into->body_length)
            FUZZ_REQUIRE(receive_more(from), "an answer cut short: %zu of %zu bytes: %s",
                         from->length, into->body_length, head);
    } else if (into->status < 200) {
        into->body_length = 0; /* 100 Continue, 101 Switching Protocols */
    } else {
        /* Without a length, the body ends with the connection. */
        FUZZ_REQUIRE(!into->ours, "an answer without Content-Length: %s", head);
        while (receive_more(from)) {
        }
        into->body_length = from->length;
        into->close = true;
    }
    into->body = strndup(from->buffer, into->body_length);
    if (!into->body) abort();
    take(from, into->body_length);
    free(head);
    return true;
}

static bool documented_status(int status)
{
    /* (411, 417, 426 and 505: civetweb's refusals of what is not HTTP/1.x) */
    static const int statuses[] = {200, 201, 400, 403, 404, 405, 409, 411,
                                   413, 417, 422, 426, 429, 505};
    for (size_t i = 0; i < sizeof statuses / sizeof statuses[0]; i++)
        if (statuses[i] == status) return true;
    return false;
}

/* The promises every answer keeps: its body parsed when it is JSON (the
 * caller decrefs), NULL otherwise. */
static json_t *check_answer(const answer *got)
{
    FUZZ_REQUIRE(got->status < 500 || got->status == 505, "status %d: %s", got->status,
                 got->body);
    if (!got->ours) {
        /* The switch to a WebSocket, or civetweb's go-ahead for a body
         * (its refusals are answered by http.c). */
        FUZZ_REQUIRE(got->status == 101 || got->status == 100, "status %d from civetweb: %s",
                     got->status, got->body);
        return NULL;
    }
    FUZZ_REQUIRE(documented_status(got->status), "status %d is not in the contract: %s",
                 got->status, got->body);
    if (got->head_only) return NULL;
    if (!got->json) {
        FUZZ_REQUIRE(got->status == 200, "a refusal %d not in JSON: %s", got->status, got->body);
        return NULL; /* a record */
    }
    json_error_t error;
    json_t *value = json_loadb(got->body, got->body_length, 0, &error);
    FUZZ_REQUIRE(value != NULL, "status %d, not JSON (%s): %s", got->status, error.text,
                 got->body);
    if (got->status >= 400) {
        const char *reason = json_string_value(json_object_get(value, "error"));
        FUZZ_REQUIRE(json_is_object(value) && json_object_size(value) == 1 && reason,
                     "a refusal %d not as {\"error\": ...}: %s", got->status, got->body);
        fuzz_check_error(reason);
    }
    return value;
}

static void answer_free(answer *got) { free(got->body); }

/* With GATEAU_FUZZ_VERBOSE=1, what was asked and answered: to see that
 * seeds reach what they mean to. */
static void tell(const char *asked, const answer *got)
{
    if (fuzz.verbose)
        fprintf(stderr, "%.100s -> %d %.200s\n", asked, got->status, got->body ? got->body : "");
}

/* ---- Requests --------------------------------------------------------------------------- */

/* What the placeholders of an input stand for: table `index` now. */
typedef struct values {
    int index;
    char id[STORE_ID_SIZE];
    int seat;      /* the seat to move (-1: none) */
    int version;
    char *move;    /* a whole legal move of that seat, in notation ("" if none) */
    char actions[GATEAU_MAX_MOVE_ACTIONS * 12];
    char first[16];
    uint64_t signature;
} values;

/* A whole move of seat from state, choosing among legal actions by
 * choice: its notation (malloc'd), its actions in values. */
static void pick_move(const gateau_state *state, int seat, unsigned choice, values *into)
{
    gateau_action legal[GATEAU_MAX_ACTIONS], move[GATEAU_MAX_MOVE_ACTIONS];
    int count = 0;
    gateau_state *scratch = gateau_state_clone(state);
    do {
        int options = gateau_state_legal_actions(scratch, seat, legal);
        FUZZ_REQUIRE(options > 0, "seat %d may act but has no legal action", seat + 1);
        move[count] = legal[choice % (unsigned)options];
        choice /= (unsigned)options;
        gateau_state_apply_legal(scratch, seat, move[count++]);
    } while (gateau_state_in_move(scratch) && count < GATEAU_MAX_MOVE_ACTIONS);
    gateau_state_free(scratch);
    into->move = gateau_move_format(state, seat, move, count);
    size_t used = 0;
    for (int a = 0; a < count; a++)
        used += (size_t)snprintf(into->actions + used, sizeof into->actions - used, "%s%d",
                                 a ? "," : "", move[a]);
    snprintf(into->first, sizeof into->first, "%d", move[0]);
}

static void read_values(int index, unsigned choice, values *into)
{
    memset(into, 0, sizeof *into);
    into->index = index;
    snprintf(into->id, sizeof into->id, "%s", fuzz.ids[index]);
    server_table *table = tables_lock(into->id);
    FUZZ_REQUIRE(table != NULL, "table %s is gone", into->id);
    const gateau_state *state = gateau_record_state(table->record);
    into->version = table->version;
    into->signature = table_signature(table);
    into->seat = table->over ? -1 : gateau_state_next_seat(state);
    if (into->seat >= 0) pick_move(state, into->seat, choice, into);
    table_unlock(table);
    if (!into->move) into->move = strdup("");
    if (!into->move) abort();
}

/* The payload with its placeholders replaced (malloc'd, NUL added). */
static char *substitute(const uint8_t *data, size_t size, const values *with, size_t *length)
{
    char tokens[GATEAU_MAX_PLAYERS][SERVER_TOKEN_SIZE], version[16];
    for (int s = 0; s < GATEAU_MAX_PLAYERS; s++) seat_token(s, tokens[s]);
    snprintf(version, sizeof version, "%d", with->version);
    const struct {
        const char *name, *value;
    } names[] = {
        {"$ID", with->id},           {"$CREATOR", CREATOR},
        {"$TOKEN1", tokens[0]},      {"$TOKEN2", tokens[1]},
        {"$TOKEN3", tokens[2]},      {"$TOKEN4", tokens[3]},
        {"$TOKEN5", tokens[4]},      {"$TOKEN6", tokens[5]},
        {"$TOKEN", tokens[with->seat >= 0 ? with->seat : 0]},
        {"$VERSION", version},       {"$MOVE", with->move},
        {"$ACTIONS", with->actions}, {"$FIRST", with->first},
    };
    size_t capacity = size + 1, used = 0;
    char *text = malloc(capacity);
    if (!text) abort();
    for (size_t i = 0; i < size;) {
        const char *value = NULL;
        size_t skip = 1;
        for (size_t n = 0; data[i] == '$' && !value && n < sizeof names / sizeof names[0]; n++) {
            size_t name_length = strlen(names[n].name);
            if (size - i >= name_length && !memcmp(data + i, names[n].name, name_length))
                value = names[n].value, skip = name_length;
        }
        size_t value_length = value ? strlen(value) : 1;
        if (used + value_length + 1 > capacity) {
            capacity = 2 * capacity + value_length;
            text = realloc(text, capacity);
            if (!text) abort();
        }
        memcpy(text + used, value ? value : (const char *)data + i, value_length);
        used += value_length;
        i += skip;
    }
    text[used] = '\0';
    *length = used;
    return text;
}

/* A request target as a client would send it: bytes that may not stand
 * in one percent-encoded (the raw kind sends anything). */
static char *encode_target(const char *target, size_t length)
{
    char *encoded = malloc(3 * length + 2);
    if (!encoded) abort();
    size_t used = 0;
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)target[i];
        if (c <= ' ' || c >= 0x7f)
            used += (size_t)sprintf(encoded + used, "%%%02X", c);
        else
            encoded[used++] = (char)c;
    }
    encoded[used] = '\0';
    return encoded;
}

/* Whether a body would make a table with a slow bot: a seat, or a zombie's
 * bot, that is a bot other than random and heuristic. */
static bool slow_bot(const char *spec)
{
    if (!spec || !strcmp(spec, "human") || !strcmp(spec, "open")) return false;
    gateau_bot *bot = gateau_bot_new(spec, NULL, 0);
    if (!bot) return false; /* refused by the server */
    gateau_bot_free(bot);
    return strncmp(spec, "random", 6) != 0 && strncmp(spec, "heuristic", 9) != 0;
}

static bool names_slow_bot(const char *body, size_t length)
{
    json_t *value = json_loadb(body, length, JSON_REJECT_DUPLICATES, NULL);
    bool slow = slow_bot(json_string_value(json_object_get(value, "bot")));
    size_t i;
    json_t *seat;
    json_array_foreach(json_object_get(value, "seats"), i, seat) {
        slow = slow || slow_bot(json_string_value(seat));
    }
    json_decref(value);
    return slow;
}

/* The same for the raw kind, whose bodies may come in chunks: any text
 * that could name a slow bot, even in pieces or in JSON escapes. */
static bool may_name_slow_bot(const char *bytes, size_t length)
{
    static const char *const words[] = {"ismcts", "solver", "\\u", "chunked"};
    char *lower = malloc(length + 1);
    if (!lower) abort();
    for (size_t i = 0; i < length; i++) lower[i] = (char)tolower((unsigned char)bytes[i]);
    bool found = false;
    for (size_t w = 0; w < sizeof words / sizeof words[0] && !found; w++)
        found = memmem(lower, length, words[w], strlen(words[w])) != NULL;
    free(lower);
    return found;
}

/* The token given in a target's query ("" when none), as the server reads it. */
static void query_token(const char *target, char *token, size_t size)
{
    token[0] = '\0';
    const char *query = strchr(target, '?');
    if (query && mg_get_var(query + 1, strlen(query + 1), "token", token, size) < 0)
        token[0] = '\0';
}

/* ---- The kinds ---------------------------------------------------------------------------- */

/* After a request on a table of ours: a success did what it says, a
 * refusal changed nothing. */
static void check_effect(int kind, const values *before, const answer *got, json_t *body)
{
    uint64_t signature = signature_of(before->id);
    if (got->status >= 400 || kind == KIND_GET) {
        FUZZ_REQUIRE(signature == before->signature, "%d to a %s, yet table %s changed: %s",
                     got->status, kind == KIND_GET ? "GET" : "refusal", before->id, got->body);
        return;
    }
    if (kind == KIND_MOVE && got->status == 200) {
        json_int_t version = json_integer_value(json_object_get(body, "version"));
        FUZZ_REQUIRE(version > before->version, "a move from version %d answered %s",
                     before->version, got->body);
    } else if (kind == KIND_JOIN && got->status == 200) {
        json_int_t seat = json_integer_value(json_object_get(body, "seat"));
        const char *token = json_string_value(json_object_get(body, "token"));
        FUZZ_REQUIRE(token != NULL, "a join answered %s", got->body);
        server_table *table = tables_lock(before->id);
        int opened = table_seat_of(table, token);
        table_unlock(table);
        FUZZ_REQUIRE(opened + 1 == seat, "the token of a join opens seat %d: %s", opened + 1,
                     got->body);
    } else if (kind == KIND_CREATE && got->status == 201) {
        const char *id = json_string_value(json_object_get(body, "id"));
        FUZZ_REQUIRE(id && json_is_string(json_object_get(body, "creator")) &&
                         json_is_array(json_object_get(body, "seats")),
                     "a table created answered %s", got->body);
        server_table *table = tables_lock(id);
        FUZZ_REQUIRE(table != NULL, "table %s was created, and is not there", id);
        table_unlock(table);
    }
}

static void request_and_check(int kind, const char *method, const char *target,
                              size_t target_length, const char *body, size_t body_length,
                              const values *before)
{
    char *encoded = encode_target(target, target_length);
    size_t size = strlen(encoded) + body_length + 256;
    char *request = malloc(size);
    if (!request) abort();
    int head = snprintf(request, size, "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n", method,
                        encoded, fuzz.port);
    if (body)
        head += snprintf(request + head, size - (size_t)head,
                         "Content-Type: application/json\r\nContent-Length: %zu\r\n", body_length);
    head += snprintf(request + head, size - (size_t)head, "\r\n");
    if (body) memcpy(request + head, body, body_length);
    connection to;
    connection_open(&to);
    bool sent = send_bytes(&to, request, (size_t)head + (body ? body_length : 0));
    free(request);
    answer got;
    if (!read_answer(&to, &got)) {
        /* civetweb closes without a word a request for no path of its own
         * ("*", "http://elsewhere/"): nothing a route could answer. */
        FUZZ_REQUIRE(encoded[0] != '/', "no answer to %s %s (sent: %d)", method, encoded, sent);
        connection_close(&to);
        free(encoded);
        return;
    }
    tell(encoded, &got);
    json_t *value = check_answer(&got);
    FUZZ_REQUIRE(got.ours, "civetweb answered %d to %s %s: %s", got.status, method, encoded,
                 got.body);
    check_effect(kind, before, &got, value);
    if (kind == KIND_GET && got.status == 200 && json_object_get(value, "log")) {
        /* A snapshot: a token given opens a seat, or is refused. */
        char token[4096];
        query_token(encoded, token, sizeof token);
        FUZZ_REQUIRE(!token[0] || json_is_integer(json_object_get(value, "seat")),
                     "GET %s with a token answered a spectator's view", encoded);
    }
    json_decref(value);
    answer_free(&got);
    connection_close(&to);
    free(encoded);
}

/* The raw kind: the payload as it is, then the end of the stream; every
 * answer checked. */
static void raw_and_check(const char *bytes, size_t length, const values *before)
{
    connection to;
    connection_open(&to);
    to.may_be_head = memmem(bytes, length, "HEAD", 4) != NULL;
    send_bytes(&to, bytes, length);
    shutdown(to.socket, SHUT_WR);
    answer got;
    bool changed = false;
    while (read_answer(&to, &got)) {
        tell("(raw)", &got);
        json_decref(check_answer(&got));
        changed = changed || got.status == 200 || got.status == 201;
        bool upgraded = got.status == 101;
        answer_free(&got);
        if (upgraded) { /* frames follow */
            while (receive_more(&to)) take(&to, to.length);
            break;
        }
    }
    if (!changed)
        FUZZ_REQUIRE(signature_of(before->id) == before->signature,
                     "refused, yet table %s changed", before->id);
    connection_close(&to);
}

/* A masked WebSocket frame of opcode around payload (malloc'd). */
static char *websocket_frame(int opcode, const char *payload, size_t length, size_t *frame_length)
{
    char *frame = malloc(length + 14);
    if (!frame) abort();
    size_t used = 0;
    frame[used++] = (char)(0x80 | opcode);
    if (length < 126) {
        frame[used++] = (char)(0x80 | length);
    } else if (length < 65536) {
        frame[used++] = (char)(0x80 | 126);
        frame[used++] = (char)(length >> 8);
        frame[used++] = (char)length;
    } else {
        frame[used++] = (char)(0x80 | 127);
        for (int i = 7; i >= 0; i--) frame[used++] = (char)((uint64_t)length >> (8 * i));
    }
    static const char mask[4] = {0x12, 0x34, 0x56, 0x78};
    memcpy(frame + used, mask, 4);
    used += 4;
    for (size_t i = 0; i < length; i++) frame[used + i] = (char)(payload[i] ^ mask[i % 4]);
    *frame_length = used + length;
    return frame;
}

/* The first frame the server sends: its payload (malloc'd), or NULL when
 * the connection ended first. */
static char *read_frame(connection *from, int *opcode)
{
    while (from->length < 2)
        if (!receive_more(from)) return NULL;
    const uint8_t *frame = (const uint8_t *)from->buffer;
    *opcode = frame[0] & 0x0f;
    uint64_t length = frame[1] & 0x7f;
    size_t header = length == 126 ? 4 : length == 127 ? 10 : 2;
    while (from->length < header)
        if (!receive_more(from)) return NULL;
    frame = (const uint8_t *)from->buffer;
    if (header > 2)
        for (size_t i = 2, n = length = 0; i < header; i++, n++) length = length << 8 | frame[i];
    FUZZ_REQUIRE(length < (1u << 30), "a frame of %llu bytes", (unsigned long long)length);
    while (from->length < header + length)
        if (!receive_more(from)) return NULL;
    char *payload = strndup(from->buffer + header, (size_t)length);
    if (!payload) abort();
    take(from, header + (size_t)length);
    return payload;
}

/* The WebSocket kinds: the target, a newline, then one message (or raw
 * frames). */
static void websocket_and_check(const char *payload, size_t length, bool raw_frames,
                                const values *before)
{
    const char *newline = memchr(payload, '\n', length);
    size_t target_length = newline ? (size_t)(newline - payload) : length;
    char *target = encode_target(payload, target_length);
    const char *message = newline ? newline + 1 : payload + length;
    size_t message_length = (size_t)(payload + length - message);
    size_t size = strlen(target) + 256;
    char *request = malloc(size);
    if (!request) abort();
    int head = snprintf(request, size,
                        "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n"
                        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                        "Sec-WebSocket-Version: 13\r\n\r\n",
                        target, fuzz.port);
    connection to;
    connection_open(&to);
    send_bytes(&to, request, (size_t)head);
    free(request);
    answer got;
    if (read_answer(&to, &got)) { /* (a refused upgrade may get no answer at all) */
        tell(target, &got);
        json_decref(check_answer(&got));
        if (got.status == 101) {
            int opcode;
            char *first = read_frame(&to, &opcode);
            FUZZ_REQUIRE(first && opcode == 1, "no snapshot on a WebSocket opened at %s", target);
            json_t *snapshot = json_loads(first, 0, NULL);
            char token[4096];
            query_token(target, token, sizeof token);
            FUZZ_REQUIRE(json_is_integer(json_object_get(snapshot, "version")) &&
                             (!token[0] || json_is_integer(json_object_get(snapshot, "seat"))),
                         "the snapshot of a WebSocket opened at %s: %s", target, first);
            json_decref(snapshot);
            free(first);
            size_t frame_length = message_length;
            char *frame = raw_frames ? NULL
                                     : websocket_frame(1, message, message_length, &frame_length);
            send_bytes(&to, frame ? frame : message, frame_length);
            free(frame);
        }
        answer_free(&got);
    }
    shutdown(to.socket, SHUT_WR);
    while (receive_more(&to)) take(&to, to.length);
    connection_close(&to);
    FUZZ_REQUIRE(signature_of(before->id) == before->signature,
                 "a WebSocket changed table %s", before->id);
    free(target);
}

/* The server still serves: GET /api/games. */
static void check_alive(void)
{
    static const char request[] = "GET /api/games HTTP/1.1\r\nHost: fuzz\r\n\r\n";
    connection to;
    connection_open(&to);
    FUZZ_REQUIRE(send_bytes(&to, request, strlen(request)), "the server closed at once");
    answer got;
    FUZZ_REQUIRE(read_answer(&to, &got), "no answer to GET /api/games");
    json_t *games = check_answer(&got);
    FUZZ_REQUIRE(got.status == 200 && json_array_size(json_object_get(games, "games")) ==
                                          (size_t)gateau_game_count(),
                 "GET /api/games: %d %s", got.status, got.body);
    json_decref(games);
    answer_free(&got);
    connection_close(&to);
}

/* ---- libFuzzer -------------------------------------------------------------------------- */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *temporary = getenv("TMPDIR");
    snprintf(fuzz.folder, sizeof fuzz.folder, "%s/gateau-fuzz-request-XXXXXX",
             temporary && strlen(temporary) < 30 ? temporary : "/tmp");
    FUZZ_REQUIRE(mkdtemp(fuzz.folder) != NULL, "mkdtemp: %s", strerror(errno));
    atexit(at_exit);
    const char *verbose = getenv("GATEAU_FUZZ_VERBOSE");
    fuzz.verbose = verbose && !strcmp(verbose, "1");
    start_server();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    if (++fuzz.inputs > RESTART_EVERY) {
        stop_server();
        start_server();
    }
    refresh_tables();
    int kind = data[0] % KIND_COUNT;
    values before;
    read_values(data[1] % TABLE_COUNT, data[1] / TABLE_COUNT, &before);
    size_t length;
    char *payload = substitute(data + 2, size - 2, &before, &length);
    char target[128];
    static const char *const actions[] = {[KIND_MOVE] = "moves", [KIND_JOIN] = "join",
                                          [KIND_ZOMBIE] = "zombie"};
    switch (kind) {
    case KIND_CREATE:
        if (names_slow_bot(payload, length)) break;
        request_and_check(kind, "POST", "/api/tables", 11, payload, length, &before);
        break;
    case KIND_MOVE:
    case KIND_JOIN:
    case KIND_ZOMBIE:
        if (kind == KIND_ZOMBIE && names_slow_bot(payload, length)) break;
        snprintf(target, sizeof target, "/api/tables/%s/%s", before.id, actions[kind]);
        request_and_check(kind, "POST", target, strlen(target), payload, length, &before);
        break;
    case KIND_GET:
        request_and_check(kind, "GET", payload, length, NULL, 0, &before);
        break;
    case KIND_RAW:
        if (may_name_slow_bot(payload, length)) break;
        raw_and_check(payload, length, &before);
        break;
    default:
        websocket_and_check(payload, length, kind == KIND_FRAMES, &before);
        break;
    }
    check_alive();
    free(payload);
    free(before.move);
    return 0;
}
