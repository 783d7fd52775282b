/*
 * snapshot.c: what one viewer receives of a table (docs/server.md, "What a
 * seat sees"): the seat's own view, legal actions and log, never more.
 *
 * Everything here is built from the engine's per-seat outputs
 * (gateau_state_view_json, gateau_move_describe, gateau_move_visible,
 * gateau_record_text_for), never from the state itself, so that a seat's
 * bytes cannot depend on what the seat cannot know.  The part before the
 * log is cached per viewer for the subscribers of one push (websocket.c
 * frees it after); the log entries were made once when their move was
 * played (table.c).
 *
 * The caller holds table->lock.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/server.h"

char *json_quote(const char *text)
{
    size_t length = strlen(text);
    char *out = malloc(6 * length + 3), *at = out;
    if (!out) abort();
    *at++ = '"';
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        switch (*c) {
        case '"': *at++ = '\\', *at++ = '"'; break;
        case '\\': *at++ = '\\', *at++ = '\\'; break;
        case '\b': *at++ = '\\', *at++ = 'b'; break;
        case '\f': *at++ = '\\', *at++ = 'f'; break;
        case '\n': *at++ = '\\', *at++ = 'n'; break;
        case '\r': *at++ = '\\', *at++ = 'r'; break;
        case '\t': *at++ = '\\', *at++ = 't'; break;
        default:
            if (*c < 0x20) at += sprintf(at, "\\u%04X", *c);
            else *at++ = (char)*c;
        }
    }
    *at++ = '"';
    *at = '\0';
    return out;
}

/* A growing string. */
typedef struct text_builder {
    char *text;
    size_t length, capacity;
} text_builder;

static void builder_add(text_builder *builder, const char *text, size_t length)
{
    if (builder->length + length + 1 > builder->capacity) {
        while (builder->length + length + 1 > builder->capacity)
            builder->capacity = builder->capacity ? 2 * builder->capacity : 256;
        builder->text = realloc(builder->text, builder->capacity);
        if (!builder->text) abort();
    }
    memcpy(builder->text + builder->length, text, length);
    builder->length += length;
    builder->text[builder->length] = '\0';
}

static void builder_print(text_builder *builder, const char *text)
{
    builder_add(builder, text, strlen(text));
}

/* The parts that may join chosen[0 .. count) (in any order) in a move of
 * seat, as [{"action","name"}...] (gateau_move_choices): those that make
 * a whole move with chosen say "complete": true, so that a client posts
 * it without asking GET .../legal?after= whether the move is whole (that
 * question was more than half of all requests).  NULL with the reason
 * when chosen is part of no legal move; *complete: whether chosen is a
 * whole move already.  Written straight, not through a jansson tree. */
static char *legal_json(const gateau_state *state, int seat, const gateau_action *chosen,
                        int count, bool *complete, char *error, size_t error_size)
{
    gateau_action choices[GATEAU_MAX_ACTIONS], more[GATEAU_MAX_MOVE_ACTIONS];
    gateau_action ordered[GATEAU_MAX_MOVE_ACTIONS];
    int found = gateau_move_choices(state, seat, chosen, count, choices, complete, error,
                                    error_size);
    if (found < 0) return NULL;
    text_builder out = {0};
    builder_print(&out, "[");
    if (count) memcpy(more, chosen, (size_t)count * sizeof *more);
    for (int i = 0; i < found; i++) {
        char *name = gateau_action_name(state, seat, choices[i]), *quoted = json_quote(name);
        char head[48];
        snprintf(head, sizeof head, "%s{\"action\":%d,\"name\":", i ? "," : "", (int)choices[i]);
        builder_print(&out, head);
        builder_print(&out, quoted);
        more[count] = choices[i];
        int n = gateau_move_order(state, seat, more, count + 1, ordered, NULL, 0);
        bool whole = n > 0 && gateau_move_check(state, seat, ordered, n, NULL, 0);
        builder_print(&out, whole ? ",\"complete\":true}" : "}");
        free(quoted);
        free(name);
    }
    builder_print(&out, "]");
    return out.text;
}

static json_t *seats_json(const server_table *table)
{
    json_t *seats = json_array();
    for (int s = 0; s < table->players; s++) {
        const table_seat *seat = &table->seats[s];
        json_t *item = json_object();
        json_object_set_new(item, "seat", json_integer(s + 1));
        json_object_set_new(item, "player", json_string(seat->human ? "human" : "bot"));
        if (!seat->human) json_object_set_new(item, "bot", json_string(seat->spec));
        json_object_set_new(item, "open", json_boolean(seat->human && !seat->claimed));
        json_object_set_new(item, "name", json_string(gateau_record_name(table->record, s)));
        if (seat->name[0]) json_object_set_new(item, "name", json_string(seat->name));
        json_object_set_new(item, "connected", json_boolean(seat->connections > 0));
        json_object_set_new(item, "zombie", json_boolean(seat->zombie));
        json_object_set_new(item, "clock", seat->clock_left >= 0 ? json_integer(seat->clock_left)
                                                                 : json_null());
        json_array_append_new(seats, item);
    }
    return seats;
}

/* A JSON value as compact text, its reference taken. */
static char *dump(json_t *value)
{
    char *text = json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY);
    json_decref(value);
    if (!text) abort();
    return text;
}

/* The members that are the same for every viewer, once per change:
 * before "seat" (id ... version), after it (over, seats, to_move), and
 * the scores at the end. */
static void build_shared(server_table *table, uint32_t actors)
{
    const gateau_state *state = gateau_record_state(table->record);
    char front[256];
    char *id = dump(json_string(table->id));
    snprintf(front, sizeof front, "\"id\":%s,\"game\":\"%s\",\"players\":%d,\"version\":%d", id,
             gateau_game_name(gateau_setup_game(table->setup)), table->players, table->version);
    free(id);
    table->shared_front = strdup(front);
    json_t *to_move = json_array();
    for (int s = 0; s < table->players; s++)
        if (actors & (1u << s)) json_array_append_new(to_move, json_integer(s + 1));
    char *seats = dump(seats_json(table)), *moving = dump(to_move);
    /* A table the store failed for too long says why (table_store_failed). */
    char *broken = table->broken[0] ? dump(json_string(table->broken))
                   : table->ended[0] ? dump(json_string(table->ended)) : NULL;
    size_t size = strlen(seats) + strlen(moving) + (broken ? strlen(broken) : 0) + 64;
    table->shared_middle = malloc(size);
    if (!table->shared_front || !table->shared_middle) abort();
    snprintf(table->shared_middle, size, "\"over\":%s,%s%s%s\"seats\":%s,\"to_move\":%s",
             table->over ? "true" : "false", !broken ? "" : table->broken[0] ? "\"broken\":" : "\"ended\":", broken ? broken : "",
             broken ? "," : "", seats, moving);
    free(broken);
    free(seats);
    free(moving);
    table->shared_scores = strdup("");
    if (table->over) {
        int scores[GATEAU_MAX_PLAYERS];
        gateau_state_scores(state, scores);
        uint32_t winners = gateau_state_winners(state);
        json_t *list = json_array(), *won = json_array();
        for (int s = 0; s < table->players; s++) {
            json_array_append_new(list, json_integer(scores[s]));
            if (winners >> s & 1) json_array_append_new(won, json_integer(s + 1));
        }
        /* The winners after the game's tiebreaks: equal scores need not
         * share the win. */
        char *text = dump(list), *won_text = dump(won);
        free(table->shared_scores);
        table->shared_scores = malloc(strlen(text) + strlen(won_text) + 32);
        if (table->shared_scores)
            sprintf(table->shared_scores, ",\"scores\":%s,\"winners\":%s", text, won_text);
        free(text);
        free(won_text);
    }
    if (!table->shared_scores) abort();
}

void table_forget_snapshots(server_table *table)
{
    for (int v = 0; v <= GATEAU_MAX_PLAYERS; v++) {
        free(table->snapshot[v]);
        table->snapshot[v] = NULL;
    }
    free(table->shared_front);
    free(table->shared_middle);
    free(table->shared_scores);
    table->shared_front = table->shared_middle = table->shared_scores = NULL;
}

/* Everything but the log, for viewer: the shared members, the seat, the
 * engine's view and the seat's legal actions.  The view is spliced in as
 * the text the engine returns (one compact JSON object): parsing it into
 * a tree only to print it again was the larger part of every push, and
 * so was building the members every viewer shares once per viewer. */
char *table_snapshot_head(server_table *table, const gateau_state *state, int viewer)
{
    uint32_t actors = table->over || gateau_state_is_chance(state) ? 0 : gateau_state_actors(state);
    if (!table->shared_front) build_shared(table, actors);
    char seat[32] = "null";
    if (viewer >= 0) snprintf(seat, sizeof seat, "%d", viewer + 1);
    bool whole;
    char *legal = viewer >= 0 && (actors & (1u << viewer))
                      ? legal_json(state, viewer, NULL, 0, &whole, NULL, 0)
                      : NULL;
    char *view = gateau_state_view_json(state, viewer);
    size_t view_length = strlen(view);
    bool object = view_length >= 2 && view[0] == '{' && view[view_length - 1] == '}';
    size_t size = strlen(table->shared_front) + strlen(table->shared_middle) + view_length +
                  (legal ? strlen(legal) : 0) + strlen(table->shared_scores) + 64;
    char *text = malloc(size);
    if (!text) abort();
    snprintf(text, size, "{%s,\"seat\":%s,%s,\"view\":%s%s%s%s}", table->shared_front, seat,
             table->shared_middle, object ? view : "null", legal ? ",\"legal\":" : "",
             legal ? legal : "", table->shared_scores);
    free(legal);
    free(view);
    return text;
}

char *table_snapshot_from(server_table *table, int viewer, int log_from)
{
    int index = table_viewer_index(table, viewer);
    if (!table->snapshot[index])
        table->snapshot[index] = table_snapshot_head(table, gateau_record_state(table->record),
                                                     viewer);
    const char *head = table->snapshot[index];
    if (log_from < 0 || log_from > table->version) log_from = 0;
    size_t length = strlen(head) + 64;
    for (int m = log_from; m < table->version; m++) length += strlen(table->log[m].json[index]) + 1;
    char *text = malloc(length);
    if (!text) abort();
    size_t used = strlen(head) - 1; /* the head without its closing brace */
    memcpy(text, head, used);
    used += (size_t)snprintf(text + used, length - used, ",\"log_start\":%d,\"log\":[", log_from);
    for (int m = log_from; m < table->version; m++) {
        if (m > log_from) text[used++] = ',';
        size_t entry = strlen(table->log[m].json[index]);
        memcpy(text + used, table->log[m].json[index], entry);
        used += entry;
    }
    memcpy(text + used, "]}", 3);
    return text;
}

char *table_legal_after(server_table *table, int seat, const gateau_action *after, int count,
                        char *error, size_t error_size)
{
    const gateau_state *state = gateau_record_state(table->record);
    if (table->over || !(gateau_state_actors(state) & (1u << seat))) {
        snprintf(error, error_size, "it is not seat %d's turn", seat + 1);
        return NULL;
    }
    /* The parts come in any order: the engine puts them in its own. */
    gateau_action ordered[GATEAU_MAX_MOVE_ACTIONS];
    char reason[256];
    int n = gateau_move_order(state, seat, after, count, ordered, reason, sizeof reason);
    bool complete = false;
    char *legal = n < 0 ? NULL
                        : legal_json(state, seat, after, count, &complete, reason, sizeof reason);
    if (!legal) {
        snprintf(error, error_size, "after: %s", reason);
        return NULL;
    }
    text_builder out = {0};
    builder_print(&out, "{\"legal\":");
    builder_print(&out, legal);
    builder_print(&out, complete ? ",\"complete\":true,\"move\":[" : ",\"complete\":false,\"move\":[");
    for (int i = 0; i < n; i++) {
        char number[16];
        snprintf(number, sizeof number, "%s%d", i ? "," : "", (int)ordered[i]);
        builder_print(&out, number);
    }
    builder_print(&out, "]}");
    free(legal);
    return out.text;
}

char *table_record_for(server_table *table, int viewer)
{
    return table->over ? gateau_record_text(table->record)
                       : gateau_record_text_for(table->record, viewer);
}
