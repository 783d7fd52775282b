/*
 * http.c: the routes of `gateau serve` (docs/server.md, "The contract"),
 * on a request thread (requests.c).  The loop (loop.c) has read the
 * request and refused what it could by itself (limits, Host, Origin,
 * methods, tokens in URLs, bodies that are not JSON or too large); here
 * it is checked further and answered, the table changed in table.c under
 * the table's lock.
 *
 * Every refusal is a 4xx with {"error": "<one line>"}; the state is
 * unchanged on every error.  Request bodies are JSON objects of known
 * fields with the right types: anything else is refused by name.  Tokens
 * come in the Authorization header, never in the URL.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/server.h"

static const server_options *http_options;

/* ---- Answers ---------------------------------------------------------------------- */

/*
 * text on one line of printable characters: a control character becomes
 * its C escape ("\n", "\x01").  Paths, field names and values from a
 * request are quoted in reasons and the log: a decoded "%0A" must not
 * split a reason, or forge a line of the log.
 */
void one_line(const char *text, char *out, size_t size)
{
    size_t used = 0;
    for (const unsigned char *c = (const unsigned char *)text; *c && used + 5 < size; c++) {
        if (*c >= 0x20 && *c != 0x7f) out[used++] = (char)*c;
        else if (*c == '\n') out[used++] = '\\', out[used++] = 'n';
        else if (*c == '\r') out[used++] = '\\', out[used++] = 'r';
        else if (*c == '\t') out[used++] = '\\', out[used++] = 't';
        else used += (size_t)snprintf(out + used, size - used, "\\x%02x", *c);
    }
    out[used] = '\0';
}

void exchange_answer(http_exchange *exchange, int status, const char *type, const char *body)
{
    free(exchange->answer);
    exchange->status = status;
    exchange->type = type;
    exchange->answer_length = strlen(body);
    exchange->answer = malloc(exchange->answer_length + 1);
    if (!exchange->answer) abort();
    memcpy(exchange->answer, body, exchange->answer_length + 1);
}

void exchange_error(http_exchange *exchange, int status, const char *format, ...)
{
    char raw[600], reason[2400];
    va_list args;
    va_start(args, format);
    vsnprintf(raw, sizeof raw, format, args);
    va_end(args);
    one_line(raw, reason, sizeof reason);
    json_t *body = json_pack("{s:s}", "error", reason);
    if (!body) body = json_pack("{s:s}", "error", "the reason is not valid text");
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    exchange_answer(exchange, status, "application/json", text);
    free(text);
}

static int send_text(http_exchange *exchange, int status, const char *type, const char *body)
{
    exchange_answer(exchange, status, type, body);
    return status;
}

static int send_json(http_exchange *exchange, int status, const char *json)
{
    return send_text(exchange, status, "application/json", json);
}

static int send_error(http_exchange *exchange, int status, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static int send_error(http_exchange *exchange, int status, const char *format, ...)
{
    char reason[600];
    va_list args;
    va_start(args, format);
    vsnprintf(reason, sizeof reason, format, args);
    va_end(args);
    exchange_error(exchange, status, "%s", reason);
    return status;
}

/* ---- Requests --------------------------------------------------------------------------- */

/* How deep text's arrays and objects nest (strings skipped): counted
 * before any parse, since jansson's parser recurses once per level and a
 * body of brackets would reach the thread's stack limit. */
int json_nesting(const char *text, size_t length)
{
    int depth = 0, deepest = 0;
    bool in_string = false;
    for (size_t i = 0; i < length; i++) {
        char c = text[i];
        if (in_string) {
            if (c == '\\') i++;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > deepest) deepest = depth;
        } else if (c == ']' || c == '}') {
            depth--;
        }
    }
    return deepest;
}

/* The body (the loop read it, within SERVER_MAX_BODY) as a JSON object:
 * NULL after answering 400. */
static json_t *read_body(http_exchange *connection)
{
    if (json_nesting(connection->body, connection->body_length) > SERVER_MAX_DEPTH) {
        send_error(connection, 400, "the body nests deeper than %d levels", SERVER_MAX_DEPTH);
        return NULL;
    }
    json_error_t error;
    json_t *value = json_loadb(connection->body, connection->body_length, JSON_REJECT_DUPLICATES,
                               &error);
    if (!value) {
        send_error(connection, 400, "the body is not JSON: %s (line %d, column %d)", error.text,
                   error.line, error.column);
        return NULL;
    }
    if (!json_is_object(value)) {
        json_decref(value);
        send_error(connection, 400, "the body must be a JSON object");
        return NULL;
    }
    return value;
}

/* Refuses fields not in allowed (space-separated): false after a 400. */
static bool known_fields(http_exchange *connection, json_t *body, const char *allowed)
{
    const char *key;
    json_t *value;
    json_object_foreach(body, key, value) {
        size_t length = strlen(key);
        bool found = false;
        for (const char *p = allowed; *p && !found;) {
            size_t item = strcspn(p, " ");
            found = item == length && !strncmp(p, key, length);
            p += item + (p[item] == ' ');
        }
        if (!found) {
            send_error(connection, 400, "unknown field '%.60s' (fields: %s)", key,
                       allowed[0] ? allowed : "none");
            return false;
        }
    }
    return true;
}

/* A field that must be a string (required or not): false after a 400. */
static bool string_field(http_exchange *connection, json_t *body, const char *name,
                         bool required, const char **out)
{
    json_t *value = json_object_get(body, name);
    *out = NULL;
    if (!value && !required) return true;
    if (!json_is_string(value)) {
        send_error(connection, 400, "'%s' must be a string%s", name, value ? "" : " (missing)");
        return false;
    }
    *out = json_string_value(value);
    return true;
}

/* A field that must be a whole number in [min, max]. */
static bool integer_field(http_exchange *connection, json_t *body, const char *name,
                          bool required, long long min, long long max, long long *out)
{
    json_t *value = json_object_get(body, name);
    if (!value && !required) return true;
    if (!json_is_integer(value) || json_integer_value(value) < min ||
        json_integer_value(value) > max) {
        send_error(connection, 400, "'%s' must be a whole number from %lld to %lld", name, min,
                   max);
        return false;
    }
    *out = json_integer_value(value);
    return true;
}

/* A query variable (the loop decoded it), or "" when absent: false when
 * it is longer than out holds, which no list or number is. */
static bool query_variable(const http_exchange *connection, const char *name, char *out,
                           size_t size)
{
    out[0] = '\0';
    size_t length = strlen(name);
    for (const char *p = connection->query; *p;) {
        size_t item = strcspn(p, "&");
        if (item > length && p[length] == '=' && !strncmp(p, name, length)) {
            size_t value = item - length - 1;
            if (value >= size) return false;
            memcpy(out, p + length + 1, value);
            out[value] = '\0';
            return true;
        }
        p += item + (p[item] == '&');
    }
    return true;
}

enum { NO_SEAT = -2 }; /* a token that opens no seat (GATEAU_OBSERVER is -1) */

/* The seat the request's token opens (under the lock): GATEAU_OBSERVER
 * without a token, NO_SEAT for a token that opens none. */
static int seat_of_request(const server_table *table, const http_exchange *connection)
{
    if (!connection->token[0]) return GATEAU_OBSERVER;
    int seat = table_seat_of(table, connection->token);
    return seat >= 0 ? seat : NO_SEAT;
}

/* log_from=N: N, 0 when absent; -1 for anything but a whole number. */
static int query_log_from(const http_exchange *connection)
{
    char text[16];
    if (!query_variable(connection, "log_from", text, sizeof text)) return -1;
    if (!text[0]) return 0;
    size_t digits = strspn(text, "0123456789");
    return digits == strlen(text) && digits <= 9 ? atoi(text) : -1;
}

/* "3,17,4" -> actions: count, or -1 for anything else. */
static int parse_actions(const char *text, gateau_action actions[GATEAU_MAX_MOVE_ACTIONS])
{
    int count = 0;
    if (!*text) return 0;
    for (const char *p = text;;) {
        char *end;
        errno = 0;
        long value = strtol(p, &end, 10);
        if (end == p || errno || value < 0 || value > INT_MAX || count == GATEAU_MAX_MOVE_ACTIONS ||
            (*end && *end != ','))
            return -1;
        actions[count++] = (gateau_action)value;
        if (!*end) return count;
        p = end + 1;
    }
}

/* ---- Tables -------------------------------------------------------------------------------- */

/* options {"rounds": 2} (and "deck": content) as "rounds=2 deck=HASH.deck":
 * false after a 4xx.  A client names no files; its deck is kept by its
 * hash (decks.c) once the engine reads it. */
static bool options_text(http_exchange *connection, const gateau_game *game, int players,
                         json_t *options, const char *deck, char *out, size_t size)
{
    out[0] = '\0';
    size_t used = 0;
    if (options && !json_is_object(options)) {
        send_error(connection, 400, "'options' must be an object such as {\"rounds\": 2}");
        return false;
    }
    const char *key;
    json_t *value;
    json_object_foreach(options, key, value) {
        const gateau_option_info *info = NULL;
        for (int o = 0; o < gateau_game_option_count(game); o++)
            if (!strcmp(gateau_game_option(game, o)->name, key)) info = gateau_game_option(game, o);
        if (!info) {
            send_error(connection, 422, "%s has no option '%.60s'", gateau_game_name(game), key);
            return false;
        }
        if (info->is_path) {
            send_error(connection, 422, "option %s: a client names no files; send the content "
                       "as \"%s\"", key, key);
            return false;
        }
        if (!json_is_integer(value)) {
            send_error(connection, 400, "option %s must be a whole number", key);
            return false;
        }
        used += (size_t)snprintf(out + used, size - used, "%s%s=%lld", used ? " " : "", key,
                                 (long long)json_integer_value(value));
        if (used >= size) {
            send_error(connection, 400, "too many options");
            return false;
        }
    }
    if (deck) {
        char name[DECKS_NAME_SIZE], error[512];
        int status;
        if (strlen(deck) > DECKS_MAX_SIZE) {
            send_error(connection, 413, "the deck is over 64 KiB");
            return false;
        }
        if (!decks_keep(game, players, out, deck, name, &status, error, sizeof error)) {
            send_error(connection, status, "%s", error);
            return false;
        }
        int needed = snprintf(out + used, size - used, "%sdeck=%s", used ? " " : "", name);
        if (needed < 0 || (size_t)needed >= size - used) {
            send_error(connection, 400, "too many options");
            return false;
        }
    }
    return true;
}

/* The creation's answer: the table's id, the creator's token and one
 * token per "human" seat; the table joins the others. */
static int send_created(http_exchange *connection, server_table *table, int players,
                        char tokens[GATEAU_MAX_PLAYERS][SERVER_TOKEN_SIZE],
                        const char *creator)
{
    json_t *answer = json_object();
    json_object_set_new(answer, "id", json_string(table->id));
    json_object_set_new(answer, "creator", json_string(creator));
    json_t *list = json_array();
    for (int s = 0; s < players; s++) {
        if (!tokens[s][0]) continue;
        json_array_append_new(list, json_pack("{s:i,s:s}", "seat", s + 1, "token", tokens[s]));
    }
    json_object_set_new(answer, "seats", list);
    tables_add(table);
    char *text = json_dumps(answer, JSON_COMPACT);
    json_decref(answer);
    int status = send_json(connection, 201, text);
    free(text);
    return status;
}

/* {"lesson": "GAME"}: the game's "Learn to play" table (lessons.c), with
 * nothing else to choose: its seats, options and seed are the lesson's. */
static int create_lesson(http_exchange *connection, json_t *body)
{
    const char *game_name;
    if (!known_fields(connection, body, "lesson") ||
        !string_field(connection, body, "lesson", true, &game_name))
        return 400;
    const server_lesson *lesson = lesson_find(game_name);
    const gateau_game *game = lesson ? gateau_game_find(lesson->game) : NULL;
    if (!game) return send_error(connection, 422, "no lesson for '%.60s' (lessons: "
                                 "piece-o-cake, maries-table, cake-master, mice-cake)", game_name);
    char tokens[GATEAU_MAX_PLAYERS][SERVER_TOKEN_SIZE], creator[SERVER_TOKEN_SIZE], error[512];
    int refusal;
    const char *specs[GATEAU_MAX_PLAYERS] = {0};
    memcpy(specs, lesson->seats, sizeof specs);
    server_table *table = table_create(tables_store(), game, lesson->players, lesson->options,
                                       specs, NULL, NULL, NULL, &lesson->seed, tokens, creator,
                                       &refusal, error, sizeof error);
    if (!table) return send_error(connection, refusal, "%s", error);
    return send_created(connection, table, lesson->players, tokens, creator);
}

static int create_table(http_exchange *connection)
{
    json_t *body = read_body(connection);
    if (!body) return 400;
    if (json_object_get(body, "lesson")) {
        int answered = create_lesson(connection, body);
        json_decref(body);
        return answered;
    }
    int status = 400;
    const char *game_name, *clock, *deck, *host;
    long long players = 0;
    json_t *seats = json_object_get(body, "seats");
    char reason[256];
    if (!known_fields(connection, body, "game players options seats names host clock deck") ||
        !string_field(connection, body, "game", true, &game_name) ||
        !string_field(connection, body, "host", false, &host) ||
        !string_field(connection, body, "clock", false, &clock) ||
        !string_field(connection, body, "deck", false, &deck) ||
        !integer_field(connection, body, "players", false, 1, GATEAU_MAX_PLAYERS, &players))
        goto done;
    const gateau_game *game = gateau_game_find(game_name);
    if (!game) {
        status = send_error(connection, 422, "unknown game '%.60s'", game_name);
        goto done;
    }
    if (!json_is_array(seats)) {
        status = send_error(connection, 400, "'seats' must be a list such as [\"human\", "
                            "\"heuristic\"]");
        goto done;
    }
    if (!players) players = (long long)json_array_size(seats);
    /* Without "players" the list's length says how many; it must still fit a table. */
    if (players < 1 || players > GATEAU_MAX_PLAYERS) {
        status = send_error(connection, 422, "'seats' lists %zu seats; a table seats 1 to %d",
                            json_array_size(seats), GATEAU_MAX_PLAYERS);
        goto done;
    }
    if ((long long)json_array_size(seats) != players) {
        status = send_error(connection, 422, "'seats' lists %zu seats for %lld players",
                            json_array_size(seats), players);
        goto done;
    }
    const char *specs[GATEAU_MAX_PLAYERS] = {0};
    for (long long s = 0; s < players; s++) {
        specs[s] = json_string_value(json_array_get(seats, (size_t)s));
        /* ("invited" is a rematch's seat: rematch.c makes those) */
        if (!specs[s] || !specs[s][0] || strlen(specs[s]) >= STORE_SPEC_SIZE ||
            !strcmp(specs[s], "invited")) {
            status = send_error(connection, 400, "seat %lld must be \"human\", \"open\" or a bot "
                                "spec", s + 1);
            goto done;
        }
    }
    /* names: optional, one per seat, a string or null. */
    const char *names[GATEAU_MAX_PLAYERS] = {0};
    json_t *name_list = json_object_get(body, "names");
    if (name_list && (!json_is_array(name_list) || (long long)json_array_size(name_list) != players)) {
        status = send_error(connection, 400, "'names' must list one name (or null) per seat");
        goto done;
    }
    for (long long s = 0; name_list && s < players; s++) {
        json_t *name = json_array_get(name_list, (size_t)s);
        if (json_is_null(name)) continue;
        names[s] = json_string_value(name);
        char what[32];
        snprintf(what, sizeof what, "name %lld", s + 1);
        if (!names[s]) {
            status = send_error(connection, 400, "name %lld must be a string or null", s + 1);
            goto done;
        }
        if (!name_check(names[s], what, reason, sizeof reason)) {
            status = send_error(connection, 400, "%s", reason);
            goto done;
        }
    }
    if (host && !name_check(host, "'host'", reason, sizeof reason)) {
        status = send_error(connection, 400, "%s", reason);
        goto done;
    }
    char options[STORE_OPTIONS_SIZE];
    if (!options_text(connection, game, (int)players, json_object_get(body, "options"), deck,
                      options, sizeof options)) {
        status = 400;
        goto done;
    }
    char tokens[GATEAU_MAX_PLAYERS][SERVER_TOKEN_SIZE], creator[SERVER_TOKEN_SIZE], error[512];
    int refusal;
    server_table *table = table_create(tables_store(), game, (int)players, options, specs, names,
                                       host, clock, NULL, tokens, creator, &refusal, error,
                                       sizeof error);
    if (!table) {
        status = send_error(connection, refusal, "%s", error);
        goto done;
    }
    status = send_created(connection, table, (int)players, tokens, creator);
done:
    json_decref(body);
    return status;
}

/* GET /api/tables/ID[?log_from=N], a seat's token in Authorization or none */
static int get_table(http_exchange *connection, server_table *table)
{
    int seat = seat_of_request(table, connection);
    if (seat == NO_SEAT) return send_error(connection, 403, "the token opens no seat of this table");
    int log_from = query_log_from(connection);
    if (log_from < 0) return send_error(connection, 400, "log_from: a number of log entries");
    char *text = table_snapshot_from(table, seat, log_from);
    int status = send_json(connection, 200, text);
    free(text);
    return status;
}

static int get_legal(http_exchange *connection, server_table *table)
{
    char after_text[1024];
    int seat = seat_of_request(table, connection);
    if (seat < 0) return send_error(connection, 403, "the token opens no seat of this table");
    gateau_action after[GATEAU_MAX_MOVE_ACTIONS];
    int count = query_variable(connection, "after", after_text, sizeof after_text)
                    ? parse_actions(after_text, after)
                    : -1;
    if (count < 0)
        return send_error(connection, 400, "after: a list of action numbers such as 3,17");
    char error[512];
    char *text = table_legal_after(table, seat, after, count, error, sizeof error);
    if (!text) return send_error(connection, 422, "%s", error);
    int status = send_json(connection, 200, text);
    free(text);
    return status;
}

static int post_move(http_exchange *connection, server_table *table, json_t *body)
{
    const char *text = NULL;
    long long version;
    json_t *move = json_object_get(body, "move");
    if (json_object_get(body, "token"))
        return send_error(connection, 400, "the token goes in the header 'Authorization: Bearer "
                          "<token>', not in the body");
    if (!known_fields(connection, body, "version move") ||
        !integer_field(connection, body, "version", true, 0, INT_MAX, &version))
        return 400;
    int seat = seat_of_request(table, connection);
    if (seat < 0) return send_error(connection, 403, "the token opens no seat of this table");
    gateau_action actions[GATEAU_MAX_MOVE_ACTIONS];
    int count = 0;
    if (json_is_string(move)) {
        text = json_string_value(move);
    } else if (json_is_array(move) && json_array_size(move) > 0 &&
               json_array_size(move) <= GATEAU_MAX_MOVE_ACTIONS) {
        size_t i;
        json_t *item;
        json_array_foreach(move, i, item) {
            if (!json_is_integer(item) || json_integer_value(item) < 0 ||
                json_integer_value(item) > INT_MAX)
                return send_error(connection, 400, "move: action %zu is not an action number",
                                  i + 1);
            actions[count++] = (gateau_action)json_integer_value(item);
        }
    } else {
        return send_error(connection, 400, "'move' must be the move's notation or a list of "
                          "action numbers");
    }
    char error[512];
    int number = table->version; /* (the move is stored as the table's next) */
    int64_t started = server_now_us();
    int status = table_play(table, seat, (int)version, text, actions, count, NULL, error,
                            sizeof error);
    if (status) return send_error(connection, status, "%s", error);
    metrics_move(server_now_us() - started);
    char answer[64];
    snprintf(answer, sizeof answer, "{\"version\":%d,\"move\":%d}", table->version, number);
    return send_json(connection, 200, answer);
}

static int post_join(http_exchange *connection, server_table *table, json_t *body)
{
    long long seat;
    const char *name;
    if (!known_fields(connection, body, "seat name") ||
        !integer_field(connection, body, "seat", true, 1, GATEAU_MAX_PLAYERS, &seat) ||
        !string_field(connection, body, "name", false, &name))
        return 400;
    char token[SERVER_TOKEN_SIZE], error[256];
    if (name && !name_check(name, "'name'", error, sizeof error))
        return send_error(connection, 400, "%s", error);
    int status = table_join(table, (int)seat - 1, name, token, error, sizeof error);
    if (status) return send_error(connection, status, "%s", error);
    char answer[128];
    snprintf(answer, sizeof answer, "{\"seat\":%lld,\"token\":\"%s\"}", seat, token);
    return send_json(connection, 200, answer);
}

/* POST /api/tables/ID/name {"name"}, the seat's token in Authorization */
static int post_name(http_exchange *connection, server_table *table, json_t *body)
{
    const char *name;
    char error[256];
    if (!known_fields(connection, body, "name") ||
        !string_field(connection, body, "name", true, &name))
        return 400;
    if (!name_check(name, "'name'", error, sizeof error))
        return send_error(connection, 400, "%s", error);
    int seat = seat_of_request(table, connection);
    if (seat < 0) return send_error(connection, 403, "a name is a seat's: the token opens no seat "
                                    "of this table");
    int status = table_rename(table, seat, name, error, sizeof error);
    if (status) return send_error(connection, status, "%s", error);
    return send_json(connection, 200, "{}");
}

/* POST /api/tables/ID/chat {"text", "name" (a spectator's)}, a seat's
 * token in Authorization or none (a spectator) */
static int post_chat(http_exchange *connection, server_table *table, json_t *body)
{
    const char *text, *name;
    if (!known_fields(connection, body, "text name") ||
        !string_field(connection, body, "text", true, &text) ||
        !string_field(connection, body, "name", false, &name))
        return 400;
    int seat = seat_of_request(table, connection);
    if (seat == NO_SEAT) return send_error(connection, 403, "the token opens no seat of this table");
    if (seat >= 0 && name)
        return send_error(connection, 400, "a seat posts under its seat's name: 'name' is for "
                          "spectators (rename the seat with POST /name)");
    char error[256];
    int retry_after;
    int status = chat_post(table, seat, connection->client, name, text, &retry_after, error,
                           sizeof error);
    if (status == 429) {
        char header[48];
        snprintf(header, sizeof header, "Retry-After: %d\r\n", retry_after);
        strcat(connection->headers, header);
    }
    if (status) return send_error(connection, status, "%s", error);
    return send_json(connection, 200, "{}");
}

/* GET /api/tables/ID/chat: the last messages, for anybody who may watch. */
static int get_chat(http_exchange *connection, server_table *table)
{
    if (seat_of_request(table, connection) == NO_SEAT)
        return send_error(connection, 403, "the token opens no seat of this table");
    char *text = chat_history(table);
    if (!text) return send_error(connection, 503, "storage unavailable");
    int status = send_json(connection, 200, text);
    free(text);
    return status;
}

/* POST /api/tables/ID/rematch, the seat's token in Authorization: takes
 * the tables' locks itself (the finished table's, then the rematch's). */
static int post_rematch(http_exchange *connection, const char *id)
{
    json_t *body = read_body(connection);
    if (!body) return 400;
    bool known = known_fields(connection, body, "");
    json_decref(body);
    if (!known) return 400;
    char error[256];
    int status;
    char *answer = rematch_accept(id, connection->token, &status, error, sizeof error);
    if (!answer) return send_error(connection, status, "%s", error);
    status = send_json(connection, 200, answer);
    free(answer);
    return status;
}

/* POST /api/tables/ID/zombie {"seat","zombie","bot"?}, the creator's token
 * in Authorization */
static int post_zombie(http_exchange *connection, server_table *table, json_t *body)
{
    const char *creator = connection->token, *bot;
    long long seat;
    json_t *zombie = json_object_get(body, "zombie");
    if (json_object_get(body, "creator"))
        return send_error(connection, 400, "the creator's token goes in the header "
                          "'Authorization: Bearer <token>', not in the body");
    if (!known_fields(connection, body, "seat zombie bot") ||
        !string_field(connection, body, "bot", false, &bot) ||
        !integer_field(connection, body, "seat", true, 1, GATEAU_MAX_PLAYERS, &seat))
        return 400;
    if (!json_is_boolean(zombie)) return send_error(connection, 400, "'zombie' must be true or false");
    if (!creator[0] || !token_matches(creator, table->creator_hash))
        return send_error(connection, 403, "only the table's creator hands seats over");
    /* Even the creator hands over only a seat whose player is not here:
     * a person at the table (a WebSocket open) keeps his seat. */
    int index = (int)seat - 1;
    if (json_is_true(zombie) && index < table->players && table->seats[index].human &&
        !table->seats[index].zombie && table->seats[index].connections > 0)
        return send_error(connection, 409, "seat %d's player is here (connected): a seat goes to "
                          "a bot only once its player has left", index + 1);
    char error[256];
    int status = table_set_zombie(table, index, json_is_true(zombie), bot, error, sizeof error);
    if (status) return send_error(connection, status, "%s", error);
    return send_json(connection, 200, "{}");
}

/* POST /api/tables/ID/takeback {}, the seat's token in Authorization:
 * its last move goes, if nobody could have learned from it (table_flow.c). */
static int post_take_back(http_exchange *connection, server_table *table, json_t *body)
{
    if (!known_fields(connection, body, "")) return 400;
    int seat = seat_of_request(table, connection);
    if (seat < 0) return send_error(connection, 403, "the token opens no seat of this table");
    char error[256];
    int status = table_take_back(table, seat, error, sizeof error);
    if (status) return send_error(connection, status, "%s", error);
    char answer[32];
    snprintf(answer, sizeof answer, "{\"version\":%d}", table->version);
    return send_json(connection, 200, answer);
}

/* POST /api/tables/ID/handover {"seat", "back"?}, a seat's token in
 * Authorization: another seat's player, away or out of time, goes to a
 * bot; with "back": true, one's own seat comes back (table_flow.c). */
static int post_hand_over(http_exchange *connection, server_table *table, json_t *body)
{
    long long seat;
    json_t *back = json_object_get(body, "back");
    if (!known_fields(connection, body, "seat back") ||
        !integer_field(connection, body, "seat", true, 1, GATEAU_MAX_PLAYERS, &seat))
        return 400;
    if (back && !json_is_boolean(back))
        return send_error(connection, 400, "'back' must be true or false");
    int by = seat_of_request(table, connection);
    if (by < 0) return send_error(connection, 403, "the token opens no seat of this table");
    char error[256];
    int status = table_hand_over(table, by, (int)seat - 1, json_is_true(back), error,
                                 sizeof error);
    if (status) return send_error(connection, status, "%s", error);
    return send_json(connection, 200, "{}");
}

static int get_record(http_exchange *connection, server_table *table)
{
    int seat = seat_of_request(table, connection);
    if (seat == NO_SEAT) return send_error(connection, 403, "the token opens no seat of this table");
    if (!table->over && seat < 0)
        return send_error(connection, 403, "the record is public when the game is over; a seat "
                          "may fetch its own with its token");
    char *text = table_record_for(table, seat);
    int status = send_text(connection, 200, "text/plain; charset=utf-8", text);
    free(text);
    return status;
}

/* GET /api/tables/ID/hint[?ms=N], the seat's token in Authorization: searched on this connection's
 * thread from a copy of the state, the table's lock released, so that the
 * table goes on while the hint thinks. */
static int get_hint(http_exchange *connection, const char *id)
{
    char ms_text[16];
    long milliseconds = 1000;
    if (query_variable(connection, "ms", ms_text, sizeof ms_text) && ms_text[0]) {
        char *end;
        milliseconds = strtol(ms_text, &end, 10);
        if (*end || milliseconds < 10 || milliseconds > 5000)
            return send_error(connection, 400, "ms: a search time from 10 to 5000 milliseconds");
    }
    server_table *table = tables_lock(id);
    if (!table) return send_error(connection, 404, "no table %.30s", id);
    int seat = connection->token[0] ? seat_of_request(table, connection) : -1;
    if (seat < 0) {
        table_unlock(table);
        return send_error(connection, 403, "a hint is for a seat: the token opens no seat of this table");
    }
    const gateau_state *now = gateau_match_state(table->match);
    if (table->over || !(gateau_state_actors(now) >> seat & 1)) {
        table_unlock(table);
        return send_error(connection, 409, "a hint is for a seat to move, and this one is not");
    }
    gateau_state *state = gateau_state_clone(now);
    table_unlock(table);
    char error[256];
    int status = 200;
    char *answer = analysis_hint(state, seat, (int)milliseconds, http_options->bot_threads > 0 ? http_options->bot_threads : 1, &status,
                                 error, sizeof error);
    gateau_state_free(state);
    if (!answer) return send_error(connection, status, "%s", error);
    status = send_json(connection, 200, answer);
    free(answer);
    return status;
}

/* The viewer a replay's "seat" names: 0 the spectators, a seat, or "all"
 * (everyone's); false when it names none of them. */
static bool replay_viewer(const char *text, int players, int *viewer)
{
    if (!strcmp(text, "all")) {
        *viewer = ANALYSIS_EVERYONE;
        return true;
    }
    char *end;
    long seat = strtol(text, &end, 10);
    if (!text[0] || *end || seat < 0 || seat > players) return false;
    *viewer = seat == 0 ? GATEAU_OBSERVER : (int)seat - 1;
    return true;
}

/* GET /api/tables/ID/replay?seat=N|all: a finished game, position by position. */
static int get_replay(http_exchange *connection, server_table *table)
{
    if (!table->over)
        return send_error(connection, 403, "a table is replayed once its game is over");
    char seat_text[16] = "0";
    int viewer;
    if (!query_variable(connection, "seat", seat_text, sizeof seat_text) ||
        !replay_viewer(seat_text[0] ? seat_text : "0", table->players, &viewer))
        return send_error(connection, 400, "seat: 0 (a spectator), a seat, or all");
    char *text = analysis_replay(table->record, viewer);
    int status = text ? send_json(connection, 200, text) : send_error(connection, 500, "out of memory");
    free(text);
    return status;
}

/* Whether every deck text names is a deck kept by its hash
 * ("deck=HASH.deck", as the server's own records name them): any other
 * would be a file of the server's that a client names. */
static bool decks_by_hash_only(const char *text)
{
    for (const char *at = strstr(text, "deck="); at; at = strstr(at + 5, "deck=")) {
        char name[DECKS_NAME_SIZE + 1];
        size_t length = strcspn(at + 5, " \t\r\n");
        if (!decks_folder() || length >= sizeof name) return false;
        snprintf(name, sizeof name, "%.*s", (int)length, at + 5);
        if (!decks_is_hash_name(name)) return false;
    }
    return true;
}

/* POST /api/replay {"record": TEXT, "seat": N|"all"}: a record from a
 * file, position by position.  A record that names a file (a deck) is
 * refused: clients name no files; a deck the server keeps, named by its
 * hash as the server's records name it, is read from the decks' folder. */
static int post_replay(http_exchange *connection)
{
    json_t *body = read_body(connection);
    if (!body) return 400;
    const char *text;
    json_t *seat = json_object_get(body, "seat");
    int status;
    if (!known_fields(connection, body, "record seat") ||
        !string_field(connection, body, "record", true, &text)) {
        status = 400;
        goto done;
    }
    if (!decks_by_hash_only(text)) {
        status = send_error(connection, 422, "a record that names a deck file is replayed with "
                            "`gateau replay`, not here");
        goto done;
    }
    char error[512];
    int line = 0;
    decks_fetch(text);
    gateau_record *record = gateau_record_read(text, decks_folder(), error, sizeof error, &line);
    decks_unpath(error);
    if (!record) {
        status = line ? send_error(connection, 422, "record line %d: %s", line, error)
                      : send_error(connection, 422, "record: %s", error);
        goto done;
    }
    int players = gateau_setup_players(gateau_record_setup(record)), viewer;
    char seat_text[16] = "0";
    if (json_is_integer(seat))
        snprintf(seat_text, sizeof seat_text, "%lld", (long long)json_integer_value(seat));
    else if (json_is_string(seat))
        snprintf(seat_text, sizeof seat_text, "%s", json_string_value(seat));
    if ((seat && !json_is_integer(seat) && !json_is_string(seat)) ||
        !replay_viewer(seat_text, players, &viewer)) {
        status = send_error(connection, 400, "seat: 0 (a spectator), a seat, or \"all\"");
    } else {
        char *answer = analysis_replay(record, viewer);
        status = answer ? send_json(connection, 200, answer) : send_error(connection, 500, "out of memory");
        free(answer);
    }
    gateau_record_free(record);
done:
    json_decref(body);
    return status;
}

/* ---- Reviews (reviews.c) ------------------------------------------------------------------ */

/* What a reviews_* call gave: JSON for 200 and 202, else its reason. */
static int send_review_answer(http_exchange *connection, int status, char *answer)
{
    if (status == 503 || status == 429) strcat(connection->headers, "Retry-After: 60\r\n");
    status = status == 200 || status == 202 ? send_json(connection, status, answer)
                                            : send_error(connection, status, "%s", answer);
    free(answer);
    return status;
}

/* GET and POST /api/tables/ID/review: a finished table's review, asked
 * for (POST: queued, or the one kept) or followed (GET).  Handled without
 * the table's lock held, as reviews.c wants: it is taken only to check
 * that the game is over and to copy its record. */
static int table_review(http_exchange *connection, bool post, const char *id)
{
    if (post) {
        json_t *body = read_body(connection);
        if (!body) return 400;
        size_t fields = json_is_object(body) ? json_object_size(body) : 1;
        json_decref(body);
        if (fields) return send_error(connection, 400, "asking for a review takes no fields: send {}");
    }
    server_table *table = tables_lock(id);
    if (!table) return send_error(connection, 404, "no table %.30s", id);
    if (!table->over) {
        table_unlock(table);
        return send_error(connection, 403, "a table is reviewed once its game is over");
    }
    char *record = post ? gateau_record_text(table->record) : NULL;
    table_unlock(table);
    char *answer;
    int status = post ? reviews_ask_table(id, record, connection->client, &answer)
                      : reviews_table_status(id, &answer);
    free(record);
    return send_review_answer(connection, status, answer);
}

/* POST /api/review {"record": TEXT}: a client's record queued for review
 * (202 with the review's id); GET /api/reviews/ID follows it. */
static int post_review(http_exchange *connection)
{
    json_t *body = read_body(connection);
    if (!body) return 400;
    const char *text;
    int status;
    if (!known_fields(connection, body, "record") ||
        !string_field(connection, body, "record", true, &text)) {
        json_decref(body);
        return 400;
    }
    char error[512];
    int line = 0;
    gateau_record *record = NULL;
    if (!decks_by_hash_only(text)) {
        status = send_error(connection, 422, "a record that names a deck file is reviewed with "
                            "`gateau review`, not here");
    } else {
        decks_fetch(text);
        record = gateau_record_read(text, decks_folder(), error, sizeof error, &line);
        decks_unpath(error);
        if (!record) {
            status = line ? send_error(connection, 422, "record line %d: %s", line, error)
                          : send_error(connection, 422, "record: %s", error);
        } else {
            char *answer;
            int asked = reviews_ask_upload(text, connection->client, &answer);
            status = send_review_answer(connection, asked, answer);
        }
    }
    gateau_record_free(record);
    json_decref(body);
    return status;
}

/* /api/reviews/ID: an upload's review. */
static int get_upload_review(http_exchange *connection, const char *path)
{
    const char *id = path + strlen("/api/reviews/");
    if (!id[0] || strlen(id) >= STORE_ID_SIZE || strchr(id, '/'))
        return send_error(connection, 404, "no review %.40s", id);
    char *answer;
    int status = reviews_upload_status(id, &answer);
    return send_review_answer(connection, status, answer);
}

/* GET /api/tables[?limit=N&after=CURSOR]: a page of the lobby. */
static int get_lobby(http_exchange *connection)
{
    char limit_text[16], after[64];
    long limit = LOBBY_PAGE;
    if (!query_variable(connection, "limit", limit_text, sizeof limit_text)) limit = -1;
    else if (limit_text[0]) {
        char *end;
        limit = strspn(limit_text, "0123456789") == strlen(limit_text) ?
                    strtol(limit_text, &end, 10) : -1;
    }
    if (limit < 1 || limit > LOBBY_MAX_PAGE)
        return send_error(connection, 400, "limit: a number of tables from 1 to %d",
                          LOBBY_MAX_PAGE);
    char *lobby = query_variable(connection, "after", after, sizeof after)
                      ? tables_lobby((int)limit, after)
                      : NULL;
    if (!lobby)
        return send_error(connection, 400, "after: the 'next' cursor of a page of the lobby");
    int status = send_json(connection, 200, lobby);
    free(lobby);
    return status;
}

static int list_games(http_exchange *connection)
{
    json_t *list = json_array();
    for (int g = 0; g < gateau_game_count(); g++) {
        const gateau_game *game = gateau_game_at(g);
        json_t *options = json_array();
        for (int o = 0; o < gateau_game_option_count(game); o++) {
            const gateau_option_info *info = gateau_game_option(game, o);
            json_array_append_new(options, json_pack("{s:s,s:s,s:b,s:i,s:i,s:i}", "name",
                                                     info->name, "help", info->help, "file",
                                                     info->is_path, "default",
                                                     info->default_value, "min", info->min_value,
                                                     "max", info->max_value));
        }
        json_array_append_new(list, json_pack("{s:s,s:s,s:i,s:i,s:o}", "game",
                                              gateau_game_name(game), "title",
                                              gateau_game_title(game), "min_players",
                                              gateau_game_min_players(game), "max_players",
                                              gateau_game_max_players(game), "options", options));
    }
    json_t *answer = json_pack("{s:o,s:s}", "games", list, "bots", gateau_bot_names());
    char *text = json_dumps(answer, JSON_COMPACT);
    json_decref(answer);
    int status = send_json(connection, 200, text);
    free(text);
    return status;
}

/* ---- Routing -------------------------------------------------------------------------------- */

/* /api/tables/ID[/ACTION]: ID and ACTION ("" when none); false otherwise. */
static bool split_table_path(const char *path, char id[STORE_ID_SIZE], char action[16])
{
    const char *prefix = "/api/tables/";
    if (strncmp(path, prefix, strlen(prefix)) != 0) return false;
    const char *start = path + strlen(prefix);
    size_t length = strcspn(start, "/");
    if (length == 0 || length >= STORE_ID_SIZE) return false;
    memcpy(id, start, length);
    id[length] = '\0';
    const char *rest = start + length;
    if (!*rest) {
        action[0] = '\0';
        return true;
    }
    rest++;
    if (strlen(rest) >= 16 || strchr(rest, '/')) return false;
    strcpy(action, rest);
    return true;
}

static int table_route(http_exchange *connection, bool post, const char *id,
                       const char *action)
{
    if (!post && !strcmp(action, "hint")) return get_hint(connection, id);
    if (!strcmp(action, "review")) return table_review(connection, post, id);
    if (post && !strcmp(action, "rematch")) return post_rematch(connection, id);
    json_t *body = NULL;
    if (post && !(body = read_body(connection))) return 400;
    server_table *table = tables_lock(id);
    int status;
    if (!table) {
        status = send_error(connection, 404, "no table %.30s", id);
    } else if (!post && !action[0]) {
        status = get_table(connection, table);
    } else if (!post && !strcmp(action, "legal")) {
        status = get_legal(connection, table);
    } else if (!post && !strcmp(action, "record")) {
        status = get_record(connection, table);
    } else if (!post && !strcmp(action, "replay")) {
        status = get_replay(connection, table);
    } else if (post && !strcmp(action, "moves")) {
        status = post_move(connection, table, body);
    } else if (post && !strcmp(action, "join")) {
        status = post_join(connection, table, body);
    } else if (post && !strcmp(action, "zombie")) {
        status = post_zombie(connection, table, body);
    } else if (post && !strcmp(action, "name")) {
        status = post_name(connection, table, body);
    } else if (post && !strcmp(action, "chat")) {
        status = post_chat(connection, table, body);
    } else if (!post && !strcmp(action, "chat")) {
        status = get_chat(connection, table);
    } else if (post && !strcmp(action, "takeback")) {
        status = post_take_back(connection, table, body);
    } else if (post && !strcmp(action, "handover")) {
        status = post_hand_over(connection, table, body);
    } else if (!post && (!strcmp(action, "moves") || !strcmp(action, "join") ||
                         !strcmp(action, "zombie") || !strcmp(action, "name") ||
                         !strcmp(action, "rematch") || !strcmp(action, "takeback") ||
                         !strcmp(action, "handover"))) {
        status = send_error(connection, 405, "%s takes POST only", connection->path);
        strcat(connection->headers, "Allow: POST\r\n");
    } else if (post && (!action[0] || !strcmp(action, "legal") || !strcmp(action, "record") ||
                        !strcmp(action, "replay") || !strcmp(action, "hint"))) {
        status = send_error(connection, 405, "%s takes GET and HEAD only", connection->path);
        strcat(connection->headers, "Allow: GET, HEAD\r\n");
    } else {
        status = send_error(connection, 404, "no %s %.100s", connection->method,
                            connection->path);
    }
    if (table) table_unlock(table);
    json_decref(body);
    return status;
}

static int api_answer(http_exchange *connection)
{
    const char *method = connection->method, *path = connection->path;
    bool post = !strcmp(method, "POST"), get = !post; /* (HEAD is GET without the body) */
    char id[STORE_ID_SIZE], action[16];
    if (!strcmp(path, "/api/tables")) {
        if (post) return create_table(connection);
        return get_lobby(connection);
    }
    if (!strcmp(path, "/api/games") && get) return list_games(connection);
    if (!strcmp(path, "/api/replay") && post) return post_replay(connection);
    if (!strcmp(path, "/api/review")) {
        if (post) return post_review(connection);
        strcat(connection->headers, "Allow: POST\r\n");
        return send_error(connection, 405, "/api/review takes POST only");
    }
    if (!strncmp(path, "/api/reviews/", 13)) {
        if (!post) return get_upload_review(connection, path);
        strcat(connection->headers, "Allow: GET, HEAD\r\n");
        return send_error(connection, 405, "%.100s takes GET and HEAD only", path);
    }
    if (split_table_path(path, id, action)) return table_route(connection, post, id, action);
    return send_error(connection, 404, "no %s %.100s", method, path);
}

/* GET /healthz: whether the database answers now.  The reason of a
 * failure goes to the log; the client learns only that the database is
 * unreachable (no host, no port, no password). */
static int get_health(http_exchange *connection)
{
    if (!server_ready())
        return send_json(connection, 503, "{\"ok\":false,\"error\":\"starting: restoring tables\"}");
    char error[512];
    if (!store_check(tables_store(), error, sizeof error)) {
        server_log("/healthz: %s", error);
        return send_json(connection, 503,
                         "{\"ok\":false,\"error\":\"the database is unreachable\"}");
    }
    return send_json(connection, 200, "{\"ok\":true}");
}

static int get_metrics(http_exchange *connection)
{
    char *text = metrics_text();
    send_text(connection, 200, "text/plain; version=0.0.4; charset=utf-8", text);
    free(text);
    return 200;
}

/* The routes for operators, answered whether the server is ready or not
 * (a load balancer asks while tables are restored): false for others. */
static bool operator_route(http_exchange *connection)
{
    const char *path = connection->path;
    bool post = !strcmp(connection->method, "POST");
    if (strcmp(path, "/healthz") && strcmp(path, "/metrics")) return false;
    if (post) {
        send_error(connection, 405, "POST is for /api/ routes, not %s", path);
        strcat(connection->headers, "Allow: GET, HEAD\r\n");
    } else if (!strcmp(path, "/healthz")) {
        get_health(connection);
    } else {
        get_metrics(connection);
    }
    return true;
}

void http_answer(http_exchange *connection)
{
    const char *path = connection->path;
    if (operator_route(connection)) return;
    if (!server_ready()) {
        send_error(connection, 503, "the server is starting (restoring its tables): try again");
        strcat(connection->headers, "Retry-After: 1\r\n");
        return;
    }
    if (!strncmp(path, "/api/", 5) || !strcmp(path, "/api")) {
        api_answer(connection);
        return;
    }
    if (!strcmp(connection->method, "POST")) {
        send_error(connection, 405, "POST is for /api/ routes, not %.100s", path);
        strcat(connection->headers, "Allow: GET, HEAD\r\n");
        return;
    }
    files_answer(http_options->web, connection);
}

void http_configure(const server_options *options) { http_options = options; }
