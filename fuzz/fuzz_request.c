/*
 * fuzz_request.c: what `gateau serve` reads from the network
 * (docs/server.md): request heads, bodies, paths and query strings,
 * whole HTTP requests, WebSocket first messages, messages and frames
 * (src/server/loop.c, requests.c, http.c, files.c, browser.c,
 * websocket.c, and table.c and snapshot.c behind them), through
 * libwebsockets as a client's bytes reach it.
 *
 * One server runs inside the fuzzer's process (server_start on 127.0.0.1,
 * port 0, a temporary database, one bot thread, SERVER_DEFAULT_LIMITS but
 * the requests a second and tables a minute of one address, which are
 * off: every input comes from 127.0.0.1, hundreds a second), with a web
 * root of its own and a table of every game whose seats are people with
 * known tokens, and one with open seats to join.  Each input is sent as
 * raw bytes over a loopback connection of its own, as a client would, and
 * every answer is read with a deadline (ANSWER_TIMEOUT_MS: none of these
 * requests takes longer, so a later answer is a hang) and checked:
 *
 *   - it is a well-formed HTTP/1.x answer, or a close: a status line with
 *     a status of the contract and its reason phrase, header lines the
 *     server (or libwebsockets) writes with values it makes (nothing of
 *     the request is ever copied into a head: no header injection, no
 *     CORS header, since the server has no --origin), its length said;
 *     any other status (a 5xx but a hint's 503) is a finding.  A close
 *     without a word only where libwebsockets does so by itself
 *     (libwebsockets_closes, docs/fuzzing.md);
 *   - a refusal (4xx) is {"error": "<one line>"} on one line, and changes
 *     nothing: the table is as it was (version, seats, names); a 429 says
 *     Retry-After, a 405 Allow.  The one other refusal is libwebsockets'
 *     own 403 page (LWS_403_PAGE: a method it does not know, a target
 *     that is no path or has a bad %-escape, an Upgrade it does not take);
 *   - what succeeds did what it says: a move raised the version, a joined
 *     seat's token opens it, a created table is there; a token given
 *     (`Authorization`) opens its seat or is refused, never a spectator's
 *     view or another seat's;
 *   - a query that names token= is refused; a body whose Content-Type is
 *     not JSON is never taken, nor one nested deeper than 32;
 *   - no answer holds a file beside the web root or a dot file in it
 *     (symbolic links, paths out of it);
 *   - a WebSocket's first message {"token": T} opens T's seat, {} a
 *     spectator's view, and anything else is closed (1008; 1009 over
 *     4 KiB; 1007, or a bare close, when it is not UTF-8), never answered
 *     with a snapshot; the server closes with the codes of the contract
 *     only, its reasons in UTF-8, its frames unmasked and well-formed;
 *   - the server, ASan, UBSan and LeakSanitizer find nothing, and the
 *     server still answers GET /api/games after every input.
 *
 * Input: byte 0 the kind (modulo KIND_COUNT), byte 1 the table (modulo
 * TABLE_COUNT; the rest of that byte picks which legal move $MOVE is),
 * then the payload:
 *
 *   0 create    POST /api/tables
 *   1 move      POST /api/tables/$ID/moves
 *   2 join      POST /api/tables/$ID/join
 *   3 zombie    POST /api/tables/$ID/zombie
 *   4 get       GET TARGET: the payload's first line is the target, its
 *               other lines header lines ("/api/tables/$ID\n
 *               Authorization: Bearer $TOKEN")
 *   5 raw       the payload sent as it is (one or more whole requests,
 *               pipelined or cut short, an upgrade and frames), then the
 *               end of the stream
 *   6 message   a WebSocket: the target, a newline, its first message
 *               (the hello, {"token":"$TOKEN"} or {}), and after another
 *               newline one more text message
 *   7 frames    a WebSocket: the target, a newline, then raw frames (the
 *               hello among them, or not)
 *   8 replay    POST /api/replay
 *
 * The bodies of the POST kinds may follow header lines: a payload with
 * an empty line ("\n\n") has header lines before it and the body after
 * ("Authorization: Bearer $TOKEN\n\n{\"version\":$VERSION,...}"); one
 * without is all body.  Header lines are sent as given, each ended with
 * CR LF, after the harness's own Host, Content-Type: application/json
 * (each left out when the input gives its own) and Content-Length; lines
 * libwebsockets would wait on (well_formed) are left out: heads of any
 * form are the raw kind's.
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
 * fuzz_setup's); so is a hint that may search longer than 100 ms.
 */
#define _GNU_SOURCE /* memmem, nftw, strndup */
#include <arpa/inet.h>
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
#include <sys/stat.h>
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
    KIND_REPLAY,
    KIND_COUNT
};

enum {
    /* An answer that takes longer is a hang: every request the harness
     * makes is whole, and is answered in milliseconds.  (Shorter than the
     * server's own cut of a slow head, 5 s: a head the server waits on
     * shows as a hang, not as a close.) */
    ANSWER_TIMEOUT_MS = 4000,
    /* The raw kind waits this long for a POST's answer to begin before it
     * ends the stream (which libwebsockets takes as the client gone). */
    RAW_GRACE_MS = 20,
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
    char web[96];              /* the web root, in folder */
    char db[128];
    server_options options;
    server *running;
    int port;
    int starts;                /* servers started */
    int inputs;                /* since the last start */
    unsigned made;             /* tables made: their ids */
    bool verbose;              /* GATEAU_FUZZ_VERBOSE=1: each answer on stderr */
    bool names_files;          /* the input holds SECRET's or HIDDEN's words */
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
    table_resume(table); /* the deal */
    FUZZ_REQUIRE(!table->retry_since, "table %s: the store refused its deal", kept.id);
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

/* What must never be served: a file beside the web root (reached
 * through a symbolic link or a path out of it), and a dot file in it.
 * Their control character never comes back in JSON (escaped) nor in a
 * reason (quoted): only a file has it as it is.  (libFuzzer learns the
 * words it is compared with: an input that holds them is not judged.) */
static const char SECRET[] = "gateau-fuzz\001secret: outside the web root";
static const char HIDDEN[] = "gateau-fuzz\001hidden: a dot file";

static void write_file(const char *folder, const char *name, const char *text)
{
    char path[192];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    FILE *file = fopen(path, "w");
    FUZZ_REQUIRE(file != NULL, "%s: %s", path, strerror(errno));
    fputs(text, file);
    fclose(file);
}

/* The web root the server serves: a few files of each type, a folder
 * with its index.html, a dot file, and symbolic links to a file and a
 * folder outside it (docs/server.md: regular files only, nothing outside
 * the root, no names starting with '.'). */
static void make_web_root(void)
{
    snprintf(fuzz.web, sizeof fuzz.web, "%s/web", fuzz.folder);
    char sub[128], target[128], link[128];
    FUZZ_REQUIRE(mkdir(fuzz.web, 0700) == 0, "mkdir %s: %s", fuzz.web, strerror(errno));
    snprintf(sub, sizeof sub, "%s/sub", fuzz.web);
    FUZZ_REQUIRE(mkdir(sub, 0700) == 0, "mkdir %s: %s", sub, strerror(errno));
    write_file(fuzz.folder, "secret.txt", SECRET);
    write_file(fuzz.web, "index.html", "<!doctype html><title>fuzz</title>\n");
    write_file(fuzz.web, "app.js", "export const fuzz = 1;\n");
    write_file(fuzz.web, "data.json", "{\"file\": true}\n");
    write_file(fuzz.web, ".hidden", HIDDEN);
    write_file(sub, "index.html", "<p>sub</p>\n");
    write_file(sub, "notes.txt", "notes\n");
    snprintf(target, sizeof target, "%s/secret.txt", fuzz.folder);
    snprintf(link, sizeof link, "%s/link.txt", fuzz.web);
    FUZZ_REQUIRE(symlink(target, link) == 0, "symlink %s: %s", link, strerror(errno));
    snprintf(link, sizeof link, "%s/up", fuzz.web);
    FUZZ_REQUIRE(symlink(fuzz.folder, link) == 0, "symlink %s: %s", link, strerror(errno));
}

static void start_server(void)
{
    snprintf(fuzz.db, sizeof fuzz.db, "%s/tables-%d", fuzz.folder, fuzz.starts++);
    mkdir(fuzz.db, 0700);
    strcat(fuzz.db, "/tables.db"); /* its decks go beside it, in tables.db.decks */
    fuzz.options = (server_options){.bind = "127.0.0.1", .port = 0, .db = fuzz.db,
                                    .web = fuzz.web, .bot_threads = 1, .quiet = true,
                                    SERVER_DEFAULT_LIMITS};
    /* Every input comes from 127.0.0.1, thousands a minute: the requests
     * a second and the tables a minute of one address are not limited
     * (the tests check the limits; the connections and WebSockets of one
     * address keep theirs, since every input closes its own). */
    fuzz.options.address_requests = 0;
    fuzz.options.address_tables = 0;
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
    bool may_cut;     /* the client ended the stream: an answer's body may be cut */
} connection;

static void connection_open(connection *to)
{
    memset(to, 0, sizeof *to);
    to->socket = socket(AF_INET, SOCK_STREAM, 0);
    FUZZ_REQUIRE(to->socket >= 0, "socket: %s", strerror(errno));
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)fuzz.port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int connected = connect(to->socket, (struct sockaddr *)&address, sizeof address);
    if (connected < 0 && errno == EINTR) {
        /* (libFuzzer's timer signal: the connection goes on meanwhile.) */
        struct pollfd wait = {.fd = to->socket, .events = POLLOUT};
        int error = 0;
        socklen_t size = sizeof error;
        while (poll(&wait, 1, ANSWER_TIMEOUT_MS) < 0 && errno == EINTR) {
        }
        connected = getsockopt(to->socket, SOL_SOCKET, SO_ERROR, &error, &size) == 0 && !error
                        ? 0 : -1;
        errno = error;
    }
    FUZZ_REQUIRE(connected == 0, "the server takes no connection: %s", strerror(errno));
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
    ssize_t got;
    while ((got = recv(from->socket, from->buffer + from->length, from->capacity - from->length,
                       0)) < 0 && errno == EINTR) {
    }
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

typedef struct answer {
    int status;
    bool json;          /* Content-Type: application/json */
    bool head_only;     /* an answer to HEAD: no body */
    bool cut;           /* the connection ended inside its body (the raw kind only) */
    bool retry_after, allow; /* those headers are there */
    bool libwebsockets; /* libwebsockets' own answer (its "server:" header), not the server's */
    char *body;         /* NUL-terminated */
    size_t body_length;
} answer;

/* The reason phrase of each status an answer may have: the server's
 * (src/server/loop.c) and libwebsockets' own (101, 403). */
static const struct {
    int status;
    const char *reason;
} REASONS[] = {
    {100, "Continue"},          {101, "Switching Protocols"},
    {200, "OK"},                {201, "Created"},
    {204, "No Content"},        {304, "Not Modified"},
    {400, "Bad Request"},       {403, "Forbidden"},
    {404, "Not Found"},         {405, "Method Not Allowed"},
    {409, "Conflict"},          {411, "Length Required"},
    {413, "Payload Too Large"}, {415, "Unsupported Media Type"},
    {422, "Unprocessable Entity"}, {429, "Too Many Requests"},
    {431, "Request Header Fields Too Large"}, {503, "Service Unavailable"},
    {505, "HTTP Version Not Supported"},
};

/* The Content-Types answers may have: the server's (files.c, http.c; the
 * second is /metrics', Prometheus' text format) and that of
 * libwebsockets' own refusal. */
static const char *const TYPES[] = {
    "application/json", "text/plain; version=0.0.4; charset=utf-8",
    "text/plain; charset=utf-8", "text/html; charset=utf-8",
    "text/javascript; charset=utf-8", "text/css; charset=utf-8", "image/svg+xml", "image/png",
    "image/jpeg", "image/x-icon", "font/woff2", "application/manifest+json",
    "application/octet-stream", "text/html"};

/* The page libwebsockets answers by itself with a 403 to what it cannot
 * parse as a request it knows (a method it does not know, a request line
 * without a path, an Upgrade other than websocket): docs/fuzzing.md. */
static const char LWS_403_PAGE[] =
    "<html><head><meta charset=utf-8 http-equiv=\"Content-Language\" content=\"en\"/>"
    "<link rel=\"stylesheet\" type=\"text/css\" href=\"/error.css\"/></head>"
    "<body><h1>403</h1></body></html>";

static bool is_digits(const char *text, size_t length)
{
    if (!length || length > 12) return false;
    for (size_t i = 0; i < length; i++)
        if (!isdigit((unsigned char)text[i])) return false;
    return true;
}

static bool value_is(const char *value, size_t length, const char *expected)
{
    return length == strlen(expected) && !strncasecmp(value, expected, length);
}

/* Whether a header line of an answer is one the server (or libwebsockets)
 * writes, with a value it makes: nothing a request says is ever copied
 * into an answer's head (header injection). */
static bool header_allowed(const char *name, size_t name_length, const char *value,
                           size_t length)
{
#define NAMED(text) (name_length == sizeof text - 1 && !strncasecmp(name, text, name_length))
    if (NAMED("Content-Length") || NAMED("Retry-After")) return is_digits(value, length);
    if (NAMED("Content-Type")) {
        for (size_t i = 0; i < sizeof TYPES / sizeof TYPES[0]; i++)
            if (value_is(value, length, TYPES[i])) return true;
        return false;
    }
    if (NAMED("Cache-Control"))
        return value_is(value, length, "no-store") || value_is(value, length, "no-cache");
    if (NAMED("X-Content-Type-Options")) return value_is(value, length, "nosniff");
    if (NAMED("Connection"))
        return value_is(value, length, "close") || value_is(value, length, "Upgrade") ||
               value_is(value, length, "keep-alive");
    if (NAMED("Allow"))
        return value_is(value, length, "GET, HEAD, POST") || value_is(value, length, "GET, HEAD") ||
               value_is(value, length, "POST");
    if (NAMED("Upgrade")) return value_is(value, length, "websocket");
    if (NAMED("server")) return value_is(value, length, "gateau");
    if (NAMED("ETag")) { /* "size-mtime", both in hex (files.c) */
        size_t hex = length >= 2 ? strspn(value + 1, "0123456789abcdef-") : 0;
        return length >= 5 && value[0] == '"' && value[length - 1] == '"' && hex == length - 2;
    }
    if (NAMED("Sec-WebSocket-Accept")) /* base64 of a SHA-1 */
        return length == 28 && strspn(value, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                             "0123456789+/") == 27 && value[27] == '=';
    /* (No Access-Control-* nor Vary: the server has no --origin, and sends
     * CORS headers to none.) */
    return false;
#undef NAMED
}

/* An answer's head (its status line and header lines, up to the empty
 * line): "HTTP/1.x NNN Reason" with the reason of its status, then
 * "Name: value" lines that header_allowed; every line ended by CR LF,
 * printable ASCII only.  Its status, and what it says, into into. */
static void check_head(const char *head, size_t length, answer *into)
{
    for (size_t i = 0; i < length; i++) {
        bool line_end = head[i] == '\r' && head[i + 1] == '\n';
        FUZZ_REQUIRE((head[i] >= 0x20 && head[i] < 0x7f) || line_end,
                     "an answer's head with byte %#x at %zu: %.*s", (unsigned char)head[i], i,
                     (int)length, head);
        i += line_end;
    }
    const char *line_end = strstr(head, "\r\n");
    int status = 0;
    char space = 0;
    FUZZ_REQUIRE((!strncmp(head, "HTTP/1.1 ", 9) || !strncmp(head, "HTTP/1.0 ", 9)) &&
                     sscanf(head + 9, "%3d%c", &status, &space) == 2 && space == ' ' &&
                     isdigit((unsigned char)head[9]) && isdigit((unsigned char)head[10]),
                 "not an HTTP/1.x status line: %.*s", (int)length, head);
    const char *reason = head + 13;
    bool known = false;
    for (size_t i = 0; i < sizeof REASONS / sizeof REASONS[0]; i++)
        if (REASONS[i].status == status) {
            known = true;
            FUZZ_REQUIRE(value_is(reason, (size_t)(line_end - reason), REASONS[i].reason),
                         "status %d with the reason '%.*s'", status, (int)(line_end - reason),
                         reason);
        }
    FUZZ_REQUIRE(known, "status %d is not in the contract: %.*s", status, (int)length, head);
    into->status = status;
    int lengths = 0;
    for (const char *line = line_end + 2; line < head + length - 2;) {
        const char *end = strstr(line, "\r\n");
        const char *colon = memchr(line, ':', (size_t)(end - line));
        FUZZ_REQUIRE(colon && colon > line && colon[1] == ' ', "a header line '%.*s' in %.*s",
                     (int)(end - line), line, (int)length, head);
        size_t name_length = (size_t)(colon - line);
        const char *value = colon + 2;
        size_t value_length = (size_t)(end - value);
        FUZZ_REQUIRE(header_allowed(line, name_length, value, value_length),
                     "a header the server does not write: '%.*s' in %.*s", (int)(end - line),
                     line, (int)length, head);
#define NAMED(text) (name_length == sizeof text - 1 && !strncasecmp(line, text, name_length))
        if (NAMED("Content-Length")) lengths++;
        if (NAMED("Content-Type")) into->json = value_is(value, value_length, "application/json");
        if (NAMED("Retry-After")) into->retry_after = true;
        if (NAMED("Allow")) into->allow = true;
        if (NAMED("server")) into->libwebsockets = true;
#undef NAMED
        line = end + 2;
    }
    FUZZ_REQUIRE(lengths <= 1, "an answer with %d Content-Length: %.*s", lengths, (int)length, head);
    FUZZ_REQUIRE(lengths == 1 || status < 200 || status == 204 || status == 304,
                 "an answer without Content-Length: %.*s", (int)length, head);
}

/* length bytes, NUL-terminated (malloc'd): they may hold NULs of their own. */
static char *copy_bytes(const char *bytes, size_t length)
{
    char *copy = malloc(length + 1);
    if (!copy) abort();
    memcpy(copy, bytes, length);
    copy[length] = '\0';
    return copy;
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
 * began (a close).  An answer cut short (but in the raw kind's body),
 * or whose head check_head refuses, is a finding. */
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
    char *head = copy_bytes(from->buffer, head_length);
    check_head(head, head_length, into);
    take(from, head_length);
    size_t length;
    const char *content_length = header_value(head, "Content-Length", &length);
    if (into->status < 200 || into->status == 204 || into->status == 304) {
        into->body_length = 0; /* 100 Continue, 101 Switching Protocols, 204, 304 */
    } else if (from->may_be_head && answers_head(from)) {
        into->head_only = true; /* an answer to HEAD */
    } else {
        into->body_length = (size_t)strtoull(content_length, NULL, 10);
        FUZZ_REQUIRE(into->body_length < (1u << 30), "Content-Length: %.*s", (int)length,
                     content_length);
        while (from->length < into->body_length) {
            if (receive_more(from)) continue;
            FUZZ_REQUIRE(from->may_cut, "an answer cut short: %zu of %zu bytes: %s",
                         from->length, into->body_length, head);
            into->cut = true;
            into->body_length = from->length;
        }
    }
    into->body = copy_bytes(from->buffer, into->body_length);
    take(from, into->body_length);
    free(head);
    FUZZ_REQUIRE(fuzz.names_files ||
                     (!memmem(into->body, into->body_length, SECRET, sizeof SECRET - 1) &&
                      !memmem(into->body, into->body_length, HIDDEN, sizeof HIDDEN - 1)),
                 "a file outside the web root, or a dot file, was served: %s", into->body);
    return true;
}

static bool documented_status(int status, bool hint)
{
    static const int statuses[] = {100, 101, 200, 201, 204, 304, 400, 403, 404,
                                   405, 409, 411, 413, 415, 422, 429, 431, 505};
    if (status == 503) return hint; /* every hint thread busy (docs/server.md, "Hints") */
    for (size_t i = 0; i < sizeof statuses / sizeof statuses[0]; i++)
        if (statuses[i] == status) return true;
    return false;
}

/* The promises every answer keeps: its body parsed when it is JSON (the
 * caller decrefs), NULL otherwise.  hint: the request may have been for a
 * hint (which may answer 503). */
static json_t *check_answer(const answer *got, bool hint)
{
    if (got->libwebsockets) {
        /* libwebsockets' own refusal (docs/fuzzing.md). */
        FUZZ_REQUIRE(got->status == 403 && (got->head_only || got->cut ||
                                            !strcmp(got->body, LWS_403_PAGE)),
                     "libwebsockets answered %d by itself: %s", got->status, got->body);
        return NULL;
    }
    FUZZ_REQUIRE(documented_status(got->status, hint), "status %d is not in the contract: %s",
                 got->status, got->body ? got->body : "");
    if (got->status == 429)
        FUZZ_REQUIRE(got->retry_after, "a 429 without Retry-After: %s", got->body);
    if (got->status == 405) FUZZ_REQUIRE(got->allow, "a 405 without Allow: %s", got->body);
    if (got->status < 200 || got->status == 204 || got->status == 304 || got->head_only ||
        got->cut)
        return NULL;
    if (!got->json) {
        /* A record (text), a file of the web root. */
        FUZZ_REQUIRE(got->status == 200, "a refusal %d not in JSON: %s", got->status, got->body);
        return NULL;
    }
    json_error_t error;
    json_t *value = json_loadb(got->body, got->body_length, 0, &error);
    FUZZ_REQUIRE(value != NULL, "status %d, not JSON (%s): %s", got->status, error.text,
                 got->body);
    if (got->status >= 400) {
        const char *reason = json_string_value(json_object_get(value, "error"));
        FUZZ_REQUIRE(json_is_object(value) && json_object_size(value) == 1 && reason,
                     "a refusal %d not as {\"error\": ...}: %s", got->status, got->body);
        FUZZ_REQUIRE(!memchr(got->body, '\n', got->body_length) &&
                         !memchr(got->body, '\r', got->body_length),
                     "a refusal %d not on one line: %s", got->status, got->body);
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

static char *url_decode(const char *text, size_t length, size_t *decoded_length);

/* Whether a GET's target asks for a hint that may search longer than
 * 100 ms (the default is 1000, and up to 5000 may be asked): such an
 * input is skipped, since the answer would come after the deadline. */
static bool slow_hint(const char *target, size_t length)
{
    char *decoded = url_decode(target, length, NULL);
    bool slow = false;
    if (strstr(decoded, "hint")) {
        const char *query = strchr(decoded, '?');
        slow = true;
        for (const char *at = query; at && (at = strstr(at, "ms="));) {
            bool item = at[-1] == '?' || at[-1] == '&';
            at += 3;
            if (!item) continue;
            size_t digits = strspn(at, "0123456789");
            slow = !digits || digits > 3 || atoi(at) > 100 || (at[digits] && at[digits] != '&');
            if (slow) break;
        }
    }
    free(decoded);
    return slow;
}

/* The same for the raw kind, whose bodies may come in chunks: any text
 * that could name a slow bot, even in pieces or in JSON escapes, or ask
 * for a hint. */
static bool may_name_slow_bot(const char *bytes, size_t length)
{
    static const char *const words[] = {"ismcts", "solver", "\\u", "hint"};
    char *lower = url_decode(bytes, length, &length);
    for (size_t i = 0; i < length; i++) lower[i] = (char)tolower((unsigned char)lower[i]);
    bool found = false;
    for (size_t w = 0; w < sizeof words / sizeof words[0] && !found; w++)
        found = memmem(lower, length, words[w], strlen(words[w])) != NULL;
    free(lower);
    return found;
}

/* ---- What an input says ------------------------------------------------------------- */

/* text with its %XX decoded, as a server reads a query ('+' stays):
 * malloc'd, NUL-terminated; its length in *decoded_length (unless NULL). */
static char *url_decode(const char *text, size_t length, size_t *decoded_length)
{
    char *decoded = malloc(length + 1);
    if (!decoded) abort();
    size_t used = 0;
    for (size_t i = 0; i < length; i++) {
        if (text[i] == '%' && i + 2 < length + 0 && isxdigit((unsigned char)text[i + 1]) &&
            isxdigit((unsigned char)text[i + 2])) {
            char digits[3] = {text[i + 1], text[i + 2], '\0'};
            decoded[used++] = (char)strtol(digits, NULL, 16);
            i += 2;
        } else {
            decoded[used++] = text[i];
        }
    }
    decoded[used] = '\0';
    if (decoded_length) *decoded_length = used;
    return decoded;
}

/* Whether target's query names `name=` (its name decoded). */
static bool query_names(const char *target, const char *name)
{
    const char *query = strchr(target, '?');
    if (!query) return false;
    for (const char *item = query + 1;;) {
        size_t item_length = strcspn(item, "&");
        const char *equals = memchr(item, '=', item_length);
        if (equals) {
            char *decoded = url_decode(item, (size_t)(equals - item), NULL);
            bool named = !strcmp(decoded, name);
            free(decoded);
            if (named) return true;
        }
        if (!item[item_length]) return false;
        item += item_length + 1;
    }
}

/* The header lines an input gives (docs at the top), and what they say. */
typedef struct extra_headers {
    char *text;              /* each line ended with CR LF (malloc'd) */
    size_t length;
    bool host;               /* a Host of its own */
    int content_types;       /* Content-Type lines */
    bool content_type_json;  /* the (one) Content-Type says application/json */
    int authorizations;      /* Authorization lines with something in them */
    char *bearer;            /* the (one) Authorization's Bearer token, or NULL */
    bool upgrade;            /* an Upgrade line: libwebsockets' own business */
} extra_headers;

/* The header names libwebsockets 4.1 knows (its lextable-strings.h).  It
 * refuses a head with a name that is the beginning of one of them ("Ho",
 * "Auth", "X-A": its lexer finds no way on), waiting for the head's
 * timeout (5 s) unless the stream ends.  The request methods and the
 * HTTP/2 preface are in the same table ("get ", "pri * http/2.0"), so a
 * header line named "GET" or "POST" is one of those too (a finding of
 * the brief run on 2026-11-28: GET /api/games with "POST: ..." hung). */
static const char *const LWS_NAMES[] = {
    "get ", "post ", "options ", "put ", "patch ", "delete ", "connect ", "head ",
    "pri * http/2.0", ":authority", ":method", ":path", ":scheme", ":status", "host", "connection", "upgrade", "origin", "sec-websocket-draft", "sec-websocket-extensions",
    "sec-websocket-key1", "sec-websocket-key2", "sec-websocket-protocol", "sec-websocket-accept",
    "sec-websocket-nonce", "http2-settings", "accept", "access-control-request-headers",
    "if-modified-since", "if-none-match", "accept-encoding", "accept-language", "pragma",
    "cache-control", "authorization", "cookie", "content-length", "content-type", "date",
    "range", "referer", "sec-websocket-key", "sec-websocket-version", "sec-websocket-origin",
    "accept-charset", "accept-ranges", "access-control-allow-origin", "age", "allow",
    "content-disposition", "content-encoding", "content-language", "content-location",
    "content-range", "etag", "expect", "expires", "from", "if-match", "if-range",
    "if-unmodified-since", "last-modified", "link", "location", "max-forwards",
    "proxy-authenticate", "proxy-authorization", "refresh", "retry-after", "server",
    "set-cookie", "strict-transport-security", "transfer-encoding", "user-agent", "vary", "via",
    "www-authenticate", "x-real-ip", "x-forwarded-for", "te", "replay-nonce", "x-auth-token"};

/* Whether line is a well-formed header line (RFC 9112 5) that
 * libwebsockets reads: a token (not the beginning of a name it knows), a
 * colon, and a value of visible characters, spaces and tabs. */
static bool well_formed(const char *line, size_t length)
{
    static const char token[] = "!#$%&'*+-.^_`|~0123456789"
                                "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    size_t name = 0;
    while (name < length && line[name] && strchr(token, line[name])) name++;
    if (!name || name == length || line[name] != ':') return false;
    for (size_t i = 0; i < sizeof LWS_NAMES / sizeof LWS_NAMES[0]; i++)
        if (name < strlen(LWS_NAMES[i]) && !strncasecmp(line, LWS_NAMES[i], name)) return false;
    for (size_t i = name + 1; i < length; i++) {
        unsigned char c = (unsigned char)line[i];
        if ((c < 0x20 && c != '\t') || c == 0x7f || c >= 0x80) return false;
    }
    return true;
}

/* Whether line (length bytes) is the header name: its value then. */
static const char *header_line_value(const char *line, size_t length, const char *name,
                                     size_t *value_length)
{
    size_t name_length = strlen(name);
    if (length <= name_length || strncasecmp(line, name, name_length) || line[name_length] != ':')
        return NULL;
    const char *value = line + name_length + 1, *end = line + length;
    while (value < end && (*value == ' ' || *value == '\t')) value++;
    while (end > value && (end[-1] == ' ' || end[-1] == '\t')) end--;
    *value_length = (size_t)(end - value);
    return value;
}

/* Reads the lines of text ('\n' between them; a CR before it dropped).
 * Content-Length and Transfer-Encoding are left out: the harness says
 * the body's length; and so are lines that are not well-formed, for
 * which libwebsockets waits until it cuts the head (5 s): heads of any
 * form are the raw kind's, which ends its stream (and libwebsockets then
 * closes at once). */
static void parse_headers(const char *text, size_t length, extra_headers *into)
{
    memset(into, 0, sizeof *into);
    into->text = malloc(2 * length + 3);
    if (!into->text) abort();
    for (size_t at = 0; at < length;) {
        const char *line = text + at, *newline = memchr(line, '\n', length - at);
        size_t line_length = newline ? (size_t)(newline - line) : length - at;
        at += line_length + 1;
        if (line_length && line[line_length - 1] == '\r') line_length--;
        if (!line_length || !well_formed(line, line_length)) continue;
        size_t value_length;
        const char *value;
        if (header_line_value(line, line_length, "Upgrade", &value_length)) into->upgrade = true;
        if (header_line_value(line, line_length, "Content-Length", &value_length) ||
            header_line_value(line, line_length, "Transfer-Encoding", &value_length))
            continue;
        if (header_line_value(line, line_length, "Host", &value_length)) into->host = true;
        if ((value = header_line_value(line, line_length, "Content-Type", &value_length))) {
            into->content_types++;
            static const char json[] = "application/json";
            size_t json_length = sizeof json - 1;
            into->content_type_json = value_length >= json_length &&
                                      !strncasecmp(value, json, json_length) &&
                                      (value_length == json_length || value[json_length] == ';' ||
                                       value[json_length] == ' ');
        }
        if ((value = header_line_value(line, line_length, "Authorization", &value_length)) &&
            value_length) {
            into->authorizations++;
            free(into->bearer);
            into->bearer = NULL;
            if (value_length > 7 && !strncasecmp(value, "Bearer ", 7)) {
                size_t skip = 7;
                while (skip < value_length && value[skip] == ' ') skip++;
                into->bearer = strndup(value + skip, value_length - skip);
                if (!into->bearer) abort();
            }
        }
        memcpy(into->text + into->length, line, line_length);
        into->length += line_length;
        memcpy(into->text + into->length, "\r\n", 2);
        into->length += 2;
    }
    into->text[into->length] = '\0';
}

static void headers_free(extra_headers *headers)
{
    free(headers->text);
    free(headers->bearer);
}

/* ---- The kinds ---------------------------------------------------------------------------- */

/* Whether libwebsockets may close, without a word, the connection of a
 * request with this target and a head of this length (docs/fuzzing.md):
 * a head over its limit (8 KiB: no 431), a target that is no path (it
 * answers "*" or an absolute URI with its own 403, a few others with a
 * close), one with a NUL in it (%00 after any character but '/'), or one
 * in about 90 pieces or more ('&' and ';' cut it: its table of a head's
 * pieces is full). */
static bool libwebsockets_closes(const char *target, size_t head_length)
{
    int items = 0;
    for (const char *c = target; *c; c++) items += *c == '&' || *c == ';';
    return head_length > SERVER_MAX_HEAD || target[0] != '/' || strstr(target, "%00") ||
           items >= 80;
}

/* After a request on a table of ours: a success did what it says, a
 * refusal changed nothing. */
static void check_effect(int kind, const values *before, const answer *got, json_t *body)
{
    uint64_t signature = signature_of(before->id);
    if (got->status >= 400 || kind == KIND_GET || kind == KIND_REPLAY) {
        FUZZ_REQUIRE(signature == before->signature, "%d to a %s, yet table %s changed: %s",
                     got->status, got->status >= 400 ? "refusal" : "GET or a replay", before->id,
                     got->body);
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

/* The seat (0-based) token opens at table id, or -1 (none, or no such
 * table). */
static int seat_opened(const char *id, const char *token)
{
    server_table *table = id ? tables_lock(id) : NULL;
    if (!table) return -1;
    int seat = table_seat_of(table, token);
    table_unlock(table);
    return seat;
}

/* A snapshot answered to a request that gave a token: the token's seat. */
static void check_snapshot_seat(const char *asked, const extra_headers *headers, json_t *snapshot,
                                const char *text)
{
    if (!headers->authorizations || !json_object_get(snapshot, "log")) return;
    json_t *seat = json_object_get(snapshot, "seat");
    FUZZ_REQUIRE(json_is_integer(seat), "%s with a token answered a spectator's view: %s", asked,
                 text);
    if (headers->authorizations == 1 && headers->bearer) {
        int opened = seat_opened(json_string_value(json_object_get(snapshot, "id")),
                                 headers->bearer);
        FUZZ_REQUIRE(opened + 1 == json_integer_value(seat),
                     "%s: the token opens seat %d, and the view is seat %d's", asked, opened + 1,
                     (int)json_integer_value(seat));
    }
}

/* kind's request: method on target, with the input's header lines, and
 * its body (POST). */
static void request_and_check(int kind, const char *method, const char *target,
                              size_t target_length, const extra_headers *headers,
                              const char *body, size_t body_length, const values *before)
{
    char *encoded = encode_target(target, target_length);
    size_t size = strlen(encoded) + headers->length + body_length + 256;
    char *request = malloc(size);
    if (!request) abort();
    int head = snprintf(request, size, "%s %s HTTP/1.1\r\n", method, encoded);
    if (!headers->host)
        head += snprintf(request + head, size - (size_t)head, "Host: 127.0.0.1:%d\r\n", fuzz.port);
    if (body && !headers->content_types)
        head += snprintf(request + head, size - (size_t)head, "Content-Type: application/json\r\n");
    if (body)
        head += snprintf(request + head, size - (size_t)head, "Content-Length: %zu\r\n", body_length);
    memcpy(request + head, headers->text, headers->length);
    head += (int)headers->length;
    head += snprintf(request + head, size - (size_t)head, "\r\n");
    if (body) memcpy(request + head, body, body_length);
    connection to;
    connection_open(&to);
    bool sent = send_bytes(&to, request, (size_t)head + (body ? body_length : 0));
    free(request);
    answer got;
    bool answered;
    while ((answered = read_answer(&to, &got)) && got.status == 100) answer_free(&got);
    if (!answered) {
        /* A close without a word: only from libwebsockets, to an Upgrade
         * it does not take (h2c, a WebSocket's without its headers), or to
         * a head it cannot hold. */
        FUZZ_REQUIRE(headers->upgrade || libwebsockets_closes(encoded, (size_t)head),
                     "no answer to %s %s (sent: %d)", method, encoded, sent);
        connection_close(&to);
        free(encoded);
        return;
    }
    tell(encoded, &got);
    json_t *value = check_answer(&got, strstr(encoded, "hint") != NULL);
    /* A token in the query is refused (400, unless the head is refused
     * for another reason first, as a foreign Host). */
    if (query_names(encoded, "token"))
        FUZZ_REQUIRE(got.status >= 400, "a token in the query of %s %s answered %d: %s", method,
                     encoded, got.status, got.body ? got.body : "");
    if (body) {
        /* Bodies the server must not take: not JSON, or too deep. */
        bool taken = (got.status >= 200 && got.status < 300) || got.status == 409 ||
                     got.status == 422;
        if (headers->content_types == 1 && !headers->content_type_json)
            FUZZ_REQUIRE(!taken, "a body sent as another Content-Type than JSON answered %d: %s",
                         got.status, got.body);
        if (json_nesting(body, body_length) > SERVER_MAX_DEPTH)
            FUZZ_REQUIRE(!taken, "a body nested %d deep answered %d: %s", json_nesting(body, body_length),
                         got.status, got.body);
    }
    check_effect(kind, before, &got, value);
    if (kind == KIND_GET && got.status == 200)
        check_snapshot_seat(encoded, headers, value, got.body);
    json_decref(value);
    answer_free(&got);
    connection_close(&to);
    free(encoded);
}

/* The raw kind: the payload as it is, then the end of the stream; every
 * answer checked.  libwebsockets closes a connection when its client ends
 * the stream, without the answers still with a request thread (or the
 * rest of one being written): so bytes with a POST wait RAW_GRACE_MS for
 * an answer to begin (a move's, a commit's) before the stream ends.  A
 * POST may still have been played unanswered: only bytes without one
 * must leave the table as it was (a GET, an upgrade and its frames change
 * nothing that the signature sums up). */
static void raw_and_check(const char *bytes, size_t length, const values *before)
{
    connection to;
    connection_open(&to);
    to.may_be_head = memmem(bytes, length, "HEAD", 4) != NULL;
    to.may_cut = true;
    send_bytes(&to, bytes, length);
    if (memmem(bytes, length, "POST", 4)) {
        struct pollfd wait = {.fd = to.socket, .events = POLLIN};
        while (poll(&wait, 1, RAW_GRACE_MS) < 0 && errno == EINTR) {
        }
    }
    shutdown(to.socket, SHUT_WR);
    answer got;
    while (read_answer(&to, &got)) {
        tell("(raw)", &got);
        json_decref(check_answer(&got, false));
        bool upgraded = got.status == 101;
        answer_free(&got);
        if (upgraded) { /* frames follow */
            while (receive_more(&to)) take(&to, to.length);
            break;
        }
    }
    if (!memmem(bytes, length, "POST", 4))
        FUZZ_REQUIRE(signature_of(before->id) == before->signature,
                     "no POST, yet table %s changed", before->id);
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

/* Whether text is UTF-8 (RFC 3629: no overlong forms, no surrogates,
 * nothing past U+10FFFF). */
static bool valid_utf8(const char *text, size_t length)
{
    const unsigned char *at = (const unsigned char *)text, *end = at + length;
    while (at < end) {
        unsigned c = *at++;
        int more = c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2
                 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
        if (more < 0 || end - at < more) return false;
        unsigned low = 0x80, high = 0xbf; /* the range of the second byte */
        if (c == 0xe0) low = 0xa0;
        if (c == 0xed) high = 0x9f;
        if (c == 0xf0) low = 0x90;
        if (c == 0xf4) high = 0x8f;
        for (int i = 0; i < more; i++, at++)
            if (*at < (i ? 0x80 : low) || *at > (i ? 0xbf : high)) return false;
    }
    return true;
}

/* The next message the server sends (its fragments put together; a
 * control frame is a message of its own): its payload (malloc'd,
 * NUL-terminated), or NULL when the connection ended first. */
static char *read_message(connection *from, int *opcode, size_t *length)
{
    char *message = NULL;
    size_t used = 0;
    int first = -1;
    for (;;) {
        while (from->length < 2)
            if (!receive_more(from)) goto ended;
        const uint8_t *frame = (const uint8_t *)from->buffer;
        FUZZ_REQUIRE(!(frame[1] & 0x80), "a masked frame from the server");
        uint64_t size = frame[1] & 0x7f;
        size_t header = size == 126 ? 4 : size == 127 ? 10 : 2;
        while (from->length < header)
            if (!receive_more(from)) goto ended;
        frame = (const uint8_t *)from->buffer;
        if (header > 2) {
            size = 0;
            for (size_t i = 2; i < header; i++) size = size << 8 | frame[i];
        }
        FUZZ_REQUIRE(size < (1u << 30), "a frame of %llu bytes", (unsigned long long)size);
        while (from->length < header + size)
            if (!receive_more(from)) goto ended;
        frame = (const uint8_t *)from->buffer;
        int code = frame[0] & 0x0f;
        bool fin = frame[0] & 0x80;
        FUZZ_REQUIRE((frame[0] & 0x70) == 0, "a frame from the server with RSV bits: %#x", frame[0]);
        if (code >= 0x8) { /* a control frame, between fragments or not */
            FUZZ_REQUIRE(fin && size <= 125, "a control frame fragmented or of %llu bytes",
                         (unsigned long long)size);
            /* A close: a code, and a reason in UTF-8 (RFC 6455 5.5.1; a
             * browser fails the connection, 1006, on any other). */
            if (code == 0x8)
                FUZZ_REQUIRE(size != 1 && (size < 2 || valid_utf8(from->buffer + header + 2,
                                                                   (size_t)size - 2)),
                             "a close frame of %llu bytes, its reason not in UTF-8: %.*s",
                             (unsigned long long)size, (int)size, from->buffer + header);
            char *control = malloc((size_t)size + 1);
            if (!control) abort();
            memcpy(control, from->buffer + header, (size_t)size);
            control[size] = '\0';
            take(from, header + (size_t)size);
            free(message);
            *opcode = code;
            *length = (size_t)size;
            return control;
        }
        FUZZ_REQUIRE(code == 0x1 || code == 0x2 || code == 0x0, "a frame of opcode %d", code);
        FUZZ_REQUIRE((first < 0) == (code != 0), "a %s frame %s a message",
                     code ? "new message's" : "continuation", code ? "inside" : "outside");
        if (first < 0) first = code;
        message = realloc(message, used + (size_t)size + 1);
        if (!message) abort();
        memcpy(message + used, from->buffer + header, (size_t)size);
        used += (size_t)size;
        message[used] = '\0';
        take(from, header + (size_t)size);
        if (fin) {
            *opcode = first;
            *length = used;
            return message;
        }
    }
ended:
    free(message);
    return NULL;
}

/* The close codes the contract gives the server (docs/server.md,
 * "WebSocket"), and 1005 (a close frame without one). */
static bool documented_close(int code)
{
    static const int codes[] = {1001, 1002, 1005, 1007, 1008, 1009, 1013};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (codes[i] == code) return true;
    return false;
}

/* The close codes in the frames a client sent (what the server may echo
 * back): the frames read as far as they are whole. */
static int client_close_codes(const char *bytes, size_t length, int codes[], int most)
{
    int count = 0;
    size_t at = 0;
    while (at + 2 <= length && count < most) {
        const uint8_t *frame = (const uint8_t *)bytes + at;
        uint64_t size = frame[1] & 0x7f;
        size_t header = 2 + (size == 126 ? 2 : size == 127 ? 8 : 0) + (frame[1] & 0x80 ? 4 : 0);
        if (at + header > length) break;
        if (size >= 126) {
            size_t digits = size == 126 ? 2 : 8;
            size = 0;
            for (size_t i = 0; i < digits; i++) size = size << 8 | frame[2 + i];
        }
        if (size > length - at - header) break;
        if ((frame[0] & 0x0f) == 0x8) {
            const uint8_t *mask = frame[1] & 0x80 ? frame + header - 4 : NULL;
            uint8_t high = 0, low = 0;
            if (size >= 2) {
                high = frame[header] ^ (mask ? mask[0] : 0);
                low = frame[header + 1] ^ (mask ? mask[1] : 0);
            }
            codes[count++] = size >= 2 ? high << 8 | low : 1000;
        }
        at += header + (size_t)size;
    }
    return count;
}

/* What a first message is to the server: a seat's (its token opens seat
 * *seat of table id), a spectator's, or neither. */
typedef enum { HELLO_SEAT, HELLO_SPECTATOR, HELLO_REFUSED, HELLO_UNCLEAR } hello_kind;

static hello_kind classify_hello(const char *hello, size_t length, const char *id, int *seat)
{
    if (length > SERVER_MAX_MESSAGE) return HELLO_REFUSED;
    json_t *value = json_loadb(hello, length, JSON_REJECT_DUPLICATES, NULL);
    if (!value) {
        /* Names given twice: whether the first or the last counts is the
         * parser's. */
        json_t *loose = json_loadb(hello, length, 0, NULL);
        json_decref(loose);
        return loose ? HELLO_UNCLEAR : HELLO_REFUSED;
    }
    hello_kind kind = HELLO_REFUSED;
    const char *token = json_string_value(json_object_get(value, "token"));
    if (json_is_object(value) && json_object_size(value) == 0) {
        kind = HELLO_SPECTATOR;
    } else if (json_is_object(value) && json_object_size(value) == 1 && token &&
               strlen(token) == json_string_length(json_object_get(value, "token"))) {
        *seat = seat_opened(id, token);
        if (*seat >= 0) kind = HELLO_SEAT;
    }
    json_decref(value);
    return kind;
}

/* A text message from the server: a snapshot or a push (a JSON object
 * with its version): parsed (the caller decrefs). */
static json_t *check_pushed(const char *text, size_t length, const char *target)
{
    json_t *pushed = json_loadb(text, length, 0, NULL);
    FUZZ_REQUIRE(json_is_integer(json_object_get(pushed, "version")),
                 "a WebSocket opened at %s sent %s", target, text);
    return pushed;
}

/* The WebSocket kinds: the target, a newline, then the first message
 * and one more (or raw frames). */
static void websocket_and_check(const char *payload, size_t length, bool raw_frames,
                                const values *before)
{
    const char *newline = memchr(payload, '\n', length);
    size_t target_length = newline ? (size_t)(newline - payload) : length;
    char *target = encode_target(payload, target_length);
    const char *rest = newline ? newline + 1 : payload + length;
    size_t rest_length = (size_t)(payload + length - rest);
    const char *hello = rest, *more = NULL;
    size_t hello_length = rest_length, more_length = 0;
    if (!raw_frames) {
        const char *second = memchr(rest, '\n', rest_length);
        if (second) {
            hello_length = (size_t)(second - rest);
            more = second + 1;
            more_length = (size_t)(rest + rest_length - more);
        }
    }
    char ours[STORE_ID_SIZE + 32];
    snprintf(ours, sizeof ours, "/api/tables/%s/ws", before->id);
    bool our_table = !strcmp(target, ours);
    int client_codes[16], client_code_count = 0;
    if (raw_frames) client_code_count = client_close_codes(rest, rest_length, client_codes, 16);
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
    bool upgraded = false;
    if (!read_answer(&to, &got)) {
        /* A close without a word: only to a head libwebsockets cannot
         * hold. */
        FUZZ_REQUIRE(libwebsockets_closes(target, (size_t)head), "no answer to the upgrade at %s",
                     target);
    } else {
        tell(target, &got);
        json_decref(check_answer(&got, false));
        if (query_names(target, "token")) /* (400, unless refused first for another reason) */
            FUZZ_REQUIRE(got.status >= 400, "an upgrade at %s answered %d", target, got.status);
        if (our_table)
            FUZZ_REQUIRE(got.status == 101, "the upgrade at %s answered %d: %s", target,
                         got.status, got.body ? got.body : "");
        upgraded = got.status == 101;
        answer_free(&got);
    }
    if (upgraded && raw_frames) {
        send_bytes(&to, rest, rest_length);
    } else if (upgraded) {
        size_t frame_length;
        char *frame = websocket_frame(1, hello, hello_length, &frame_length);
        send_bytes(&to, frame, frame_length);
        free(frame);
        int seat = -1, opcode = 0;
        hello_kind kind = classify_hello(hello, hello_length, before->id, &seat);
        size_t first_length;
        char *first;
        do { /* (pongs and pings aside) */
            first = read_message(&to, &opcode, &first_length);
        } while (first && (opcode == 0x9 || opcode == 0xa) && (free(first), true));
        int code = !first ? 0 : opcode != 0x8 ? -1 : first_length >= 2
                   ? (uint8_t)first[0] << 8 | (uint8_t)first[1] : 1005;
        if (first && opcode == 0x1) {
            /* A snapshot: for a hello that is one of the two, for its seat
             * (of the table the snapshot is of). */
            json_t *snapshot = check_pushed(first, first_length, target);
            json_t *seen = json_object_get(snapshot, "seat");
            const char *id = json_string_value(json_object_get(snapshot, "id"));
            FUZZ_REQUIRE(id && (!our_table || !strcmp(id, before->id)),
                         "the snapshot at %s is of table %s", target, id ? id : "(none)");
            if (!our_table) kind = classify_hello(hello, hello_length, id, &seat);
            FUZZ_REQUIRE(kind != HELLO_REFUSED, "a snapshot at %s for the first message %.*s",
                         target, (int)hello_length, hello);
            if (kind == HELLO_SEAT)
                FUZZ_REQUIRE(json_is_integer(seen) && json_integer_value(seen) == seat + 1,
                             "the first message %.*s (seat %d) got the snapshot %.200s",
                             (int)hello_length, hello, seat + 1, first);
            if (kind == HELLO_SPECTATOR)
                FUZZ_REQUIRE(!json_is_integer(seen), "{} got a seat's snapshot at %s", target);
            json_decref(snapshot);
            if (more) {
                frame = websocket_frame(1, more, more_length, &frame_length);
                send_bytes(&to, frame, frame_length);
                free(frame);
            }
        } else {
            /* Closed: for a first message that is neither of the two, with
             * 1009 when it is too long; 1013 may close any.  (A message
             * not in UTF-8 is closed with 1007, or, when libwebsockets finds
             * more of it in the next piece it reads, without a word.) */
            bool text = valid_utf8(hello, hello_length);
            FUZZ_REQUIRE(code > 0 || (!first && !text), "the first message %.*s at %s: %s",
                         (int)hello_length, hello, target,
                         !first ? "the connection ended without a close frame"
                                : "a binary message");
            FUZZ_REQUIRE(!first || documented_close(code), "closed with %d at %s", code, target);
            if (our_table && (kind == HELLO_SEAT || kind == HELLO_SPECTATOR))
                FUZZ_REQUIRE(code == 1013, "the first message %.*s (%s) was closed with %d",
                             (int)hello_length, hello, kind == HELLO_SEAT ? "a seat" : "a spectator",
                             code);
            if (hello_length > SERVER_MAX_MESSAGE && first)
                FUZZ_REQUIRE(code == 1009 || code == 1013 || (code == 1007 && !text),
                             "a first message of %zu bytes was closed with %d", hello_length, code);
        }
        free(first);
    }
    shutdown(to.socket, SHUT_WR);
    if (upgraded) {
        /* The rest: pushes, and the close's code. */
        int opcode;
        size_t message_length;
        char *message;
        while ((message = read_message(&to, &opcode, &message_length))) {
            if (opcode == 0x1) {
                json_decref(check_pushed(message, message_length, target));
            } else if (opcode == 0x8) {
                int code = message_length >= 2
                               ? (uint8_t)message[0] << 8 | (uint8_t)message[1] : 1005;
                bool echoed = false;
                for (int i = 0; i < client_code_count; i++)
                    echoed = echoed || code == client_codes[i] || code == 1000;
                FUZZ_REQUIRE(documented_close(code) || echoed,
                             "closed with %d at %s (the client's close codes: %d of them)", code,
                             target, client_code_count);
            } else {
                FUZZ_REQUIRE(opcode == 0x9 || opcode == 0xa, "a message of opcode %d at %s",
                             opcode, target);
            }
            free(message);
        }
    }
    while (receive_more(&to)) take(&to, to.length);
    connection_close(&to);
    FUZZ_REQUIRE(signature_of(before->id) == before->signature,
                 "a WebSocket changed table %s", before->id);
    free(target);
}

/* The server still serves: GET /api/games. */
static void check_alive(void)
{
    static const char request[] = "GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    connection to;
    connection_open(&to);
    FUZZ_REQUIRE(send_bytes(&to, request, strlen(request)), "the server closed at once");
    answer got;
    FUZZ_REQUIRE(read_answer(&to, &got), "no answer to GET /api/games");
    json_t *games = check_answer(&got, false);
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
    make_web_root();
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
    fuzz.names_files = memmem(payload, length, "gateau-fuzz", 11) != NULL;
    char target[128];
    static const char *const actions[] = {[KIND_MOVE] = "moves", [KIND_JOIN] = "join",
                                          [KIND_ZOMBIE] = "zombie"};
    extra_headers headers = {0};
    const char *body = payload;
    size_t body_length = length;
    if (kind <= KIND_ZOMBIE || kind == KIND_REPLAY) {
        /* Header lines, an empty line, the body; or all body. */
        const char *blank = memmem(payload, length, "\n\n", 2);
        if (blank) {
            body = blank + 2;
            body_length = (size_t)(payload + length - body);
        }
        parse_headers(payload, blank ? (size_t)(blank - payload) : 0, &headers);
    } else if (kind == KIND_GET) {
        /* The target, then header lines. */
        const char *newline = memchr(payload, '\n', length);
        body_length = newline ? (size_t)(newline - payload) : length;
        parse_headers(newline ? newline + 1 : payload + length,
                      newline ? (size_t)(payload + length - newline - 1) : 0, &headers);
    }
    switch (kind) {
    case KIND_REPLAY:
        request_and_check(kind, "POST", "/api/replay", 11, &headers, body, body_length, &before);
        break;
    case KIND_CREATE:
        if (names_slow_bot(body, body_length)) break;
        request_and_check(kind, "POST", "/api/tables", 11, &headers, body, body_length, &before);
        break;
    case KIND_MOVE:
    case KIND_JOIN:
    case KIND_ZOMBIE:
        if (kind == KIND_ZOMBIE && names_slow_bot(body, body_length)) break;
        snprintf(target, sizeof target, "/api/tables/%s/%s", before.id, actions[kind]);
        request_and_check(kind, "POST", target, strlen(target), &headers, body, body_length,
                          &before);
        break;
    case KIND_GET:
        if (slow_hint(payload, body_length)) break;
        request_and_check(kind, "GET", payload, body_length, &headers, NULL, 0, &before);
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
    headers_free(&headers);
    free(payload);
    free(before.move);
    return 0;
}
