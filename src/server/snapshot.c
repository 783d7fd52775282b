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

/* A growing string. */
typedef struct text_builder {
    char *text;
    size_t length, capacity;
} text_builder;

/* Room for extra more bytes and the NUL. */
static void builder_reserve(text_builder *builder, size_t extra)
{
    if (builder->length + extra + 1 <= builder->capacity) return;
    while (builder->length + extra + 1 > builder->capacity)
        builder->capacity = builder->capacity ? 2 * builder->capacity : 256;
    builder->text = realloc(builder->text, builder->capacity);
    if (!builder->text) abort();
}

static void builder_add(text_builder *builder, const char *text, size_t length)
{
    builder_reserve(builder, length);
    memcpy(builder->text + builder->length, text, length);
    builder->length += length;
    builder->text[builder->length] = '\0';
}

static void builder_print(text_builder *builder, const char *text)
{
    builder_add(builder, text, strlen(text));
}

/* text as a JSON string, quotes included, at the builder's end: escaped
 * as jansson's compact output escapes it (the quote, the backslash and
 * control characters; at most 6 bytes a byte). */
static void builder_quote(text_builder *builder, const char *text)
{
    builder_reserve(builder, 6 * strlen(text) + 2);
    char *at = builder->text + builder->length;
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
    builder->length = (size_t)(at - builder->text);
}

char *json_quote(const char *text)
{
    text_builder quoted = {0};
    builder_quote(&quoted, text);
    return quoted.text;
}

/* The parts that may join chosen[0 .. count) (in any order) in a move of
 * seat, as [{"action","name"}...] (gateau_move_choices), appended to out:
 * those that make a whole move with chosen say "complete": true, so that
 * a client posts it without asking GET .../legal?after= whether the move
 * is whole (that question was more than half of all requests).  false
 * with the reason when chosen is part of no legal move (out unchanged);
 * *complete: whether chosen is a whole move already.  Written straight,
 * not through a jansson tree. */
static bool add_legal(text_builder *out, const gateau_state *state, int seat,
                      const gateau_action *chosen, int count, bool *complete, char *error,
                      size_t error_size)
{
    gateau_action choices[GATEAU_MAX_ACTIONS], more[GATEAU_MAX_MOVE_ACTIONS];
    gateau_action ordered[GATEAU_MAX_MOVE_ACTIONS];
    int found = gateau_move_choices(state, seat, chosen, count, choices, complete, error,
                                    error_size);
    if (found < 0) return false;
    builder_add(out, "[", 1);
    if (count) memcpy(more, chosen, (size_t)count * sizeof *more);
    for (int i = 0; i < found; i++) {
        char *name = gateau_action_name(state, seat, choices[i]);
        char head[48];
        int length = snprintf(head, sizeof head, "%s{\"action\":%d,\"name\":", i ? "," : "",
                              (int)choices[i]);
        builder_add(out, head, (size_t)length);
        builder_quote(out, name);
        more[count] = choices[i];
        int n = gateau_move_order(state, seat, more, count + 1, ordered, NULL, 0);
        bool whole = n > 0 && gateau_move_check(state, seat, ordered, n, NULL, 0);
        if (whole) builder_print(out, ",\"complete\":true}");
        else builder_add(out, "}", 1);
        free(name);
    }
    builder_add(out, "]", 1);
    return true;
}

static char *legal_json(const gateau_state *state, int seat, const gateau_action *chosen,
                        int count, bool *complete, char *error, size_t error_size)
{
    text_builder out = {0};
    if (!add_legal(&out, state, seat, chosen, count, complete, error, error_size)) {
        free(out.text);
        return NULL;
    }
    return out.text;
}

/* A seat's clock misses in a row, and who handed it to a bot and why
 * (its player's page says so when he comes back: table_flow.c). */
static void add_flow(text_builder *out, const table_seat *seat)
{
    char text[160];
    int length = snprintf(text, sizeof text, ",\"timeouts\":%d", seat->timeouts);
    builder_add(out, text, (size_t)length);
    if (seat->zombie && seat->handed_by >= 0 && seat->handed_why) {
        length = snprintf(text, sizeof text, ",\"handed\":{\"by\":%d,\"why\":\"%s\",\"away_ms\":%lld}",
                          seat->handed_by + 1, seat->handed_why, (long long)seat->handed_away);
        builder_add(out, text, (size_t)length);
    }
}

/* The seats, as jansson's compact dump of [{"seat", "player", "bot" (a
 * bot's), "open", "name", "connected", "zombie", "clock"}...] would
 * write them: written straight, once per change, where the tree cost
 * more than the rest of the members every viewer shares. */
static void add_seats(text_builder *out, const server_table *table)
{
    builder_add(out, "[", 1);
    for (int s = 0; s < table->players; s++) {
        const table_seat *seat = &table->seats[s];
        char number[48];
        int length = snprintf(number, sizeof number, "%s{\"seat\":%d,\"player\":", s ? "," : "",
                              s + 1);
        builder_add(out, number, (size_t)length);
        builder_print(out, seat->human ? "\"human\"" : "\"bot\"");
        if (!seat->human) {
            builder_print(out, ",\"bot\":");
            builder_quote(out, seat->spec);
        }
        builder_print(out, seat->human && !seat->claimed ? ",\"open\":true" : ",\"open\":false");
        /* (a rematch's seat waiting for its person: open to him alone) */
        if (!strcmp(seat->spec, "invited")) builder_print(out, ",\"invited\":true");
        builder_print(out, ",\"name\":");
        builder_quote(out, seat->name[0] ? seat->name : gateau_record_name(table->record, s));
        builder_print(out, seat->connections > 0 ? ",\"connected\":true" : ",\"connected\":false");
        builder_print(out, seat->zombie ? ",\"zombie\":true" : ",\"zombie\":false");
        add_flow(out, seat);
        if (seat->clock_left >= 0) {
            length = snprintf(number, sizeof number, ",\"clock\":%lld}",
                              (long long)seat->clock_left);
            builder_add(out, number, (size_t)length);
        } else {
            builder_print(out, ",\"clock\":null}");
        }
    }
    builder_add(out, "]", 1);
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
    text_builder front = {0}, middle = {0};
    builder_print(&front, "\"id\":");
    builder_quote(&front, table->id);
    char rest[160];
    int length = snprintf(rest, sizeof rest, ",\"game\":\"%s\",\"players\":%d,\"version\":%d",
                          gateau_game_name(gateau_setup_game(table->setup)), table->players,
                          table->version);
    builder_add(&front, rest, (size_t)length);
    table->shared_front = front.text;
    builder_print(&middle, table->over ? "\"over\":true," : "\"over\":false,");
    /* A table the store failed for too long says why (table_store_failed). */
    if (table->broken[0] || table->ended[0]) {
        builder_print(&middle, table->broken[0] ? "\"broken\":" : "\"ended\":");
        builder_quote(&middle, table->broken[0] ? table->broken : table->ended);
        builder_add(&middle, ",", 1);
    }
    /* The people: who made the table, and the rematch once there is one. */
    builder_print(&middle, "\"host\":");
    if (table->host[0]) builder_quote(&middle, table->host);
    else builder_print(&middle, "null");
    builder_print(&middle, ",\"rematch\":");
    if (table->rematch[0]) builder_quote(&middle, table->rematch);
    else builder_print(&middle, "null");
    builder_add(&middle, ",", 1);
    if (table->clock_total >= 0) {
        /* The clock's rules, for the page's time bar (per move: each turn
         * starts full). */
        length = snprintf(rest, sizeof rest,
                          "\"clock\":{\"total\":%lld,\"increment\":%lld,\"per_move\":%s",
                          (long long)table->clock_total, (long long)table->clock_increment,
                          table->clock_per_move ? "true" : "false");
        builder_add(&middle, rest, (size_t)length);
        /* (a test server's faster clock, GATEAU_TEST_TIME_SCALE: its
         * pages count down as fast) */
        length = table_time_scale() == 1
                     ? snprintf(rest, sizeof rest, "},")
                     : snprintf(rest, sizeof rest, ",\"time_scale\":%lld},",
                                (long long)table_time_scale());
        builder_add(&middle, rest, (size_t)length);
    }
    builder_print(&middle, "\"seats\":");
    add_seats(&middle, table);
    builder_print(&middle, ",\"to_move\":[");
    bool first = true;
    for (int s = 0; s < table->players; s++) {
        if (!(actors & (1u << s))) continue;
        length = snprintf(rest, sizeof rest, "%s%d", first ? "" : ",", s + 1);
        builder_add(&middle, rest, (size_t)length);
        first = false;
    }
    builder_add(&middle, "]", 1);
    table->shared_middle = middle.text;
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
        table->shared_scores = malloc(strlen(text) + strlen(won_text) + 128);
        if (table->shared_scores) {
            int at = sprintf(table->shared_scores, ",\"scores\":%s,\"winners\":%s", text, won_text);
            /* How its review stands, when one was asked for (reviews.c). */
            int done, total;
            review_state review = reviews_progress(table->id, &done, &total);
            if (review != REVIEW_NONE)
                sprintf(table->shared_scores + at,
                        ",\"review\":{\"state\":\"%s\",\"done\":%d,\"total\":%d}",
                        review_state_name(review), done, total);
        }
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
    char *view = gateau_state_view_json(state, viewer);
    size_t view_length = strlen(view);
    bool object = view_length >= 2 && view[0] == '{' && view[view_length - 1] == '}';
    /* One buffer, sized for all but the legal actions (which rarely
     * outgrow the slack). */
    text_builder out = {0};
    builder_reserve(&out, strlen(table->shared_front) + strlen(table->shared_middle) +
                              view_length + strlen(table->shared_scores) + 1024);
    builder_add(&out, "{", 1);
    builder_print(&out, table->shared_front);
    char seat[32];
    int length = viewer >= 0 ? snprintf(seat, sizeof seat, ",\"seat\":%d,", viewer + 1)
                             : snprintf(seat, sizeof seat, ",\"seat\":null,");
    builder_add(&out, seat, (size_t)length);
    builder_print(&out, table->shared_middle);
    builder_print(&out, ",\"view\":");
    if (object) builder_add(&out, view, view_length);
    else builder_print(&out, "null");
    free(view);
    if (viewer >= 0 && (actors & (1u << viewer))) {
        builder_print(&out, ",\"legal\":");
        bool whole;
        if (!add_legal(&out, state, viewer, NULL, 0, &whole, NULL, 0)) builder_print(&out, "[]");
    }
    builder_print(&out, table->shared_scores);
    builder_add(&out, "}", 1);
    return out.text;
}

char *table_snapshot_message(server_table *table, int viewer, int log_from, size_t room,
                             size_t *length)
{
    int index = table_viewer_index(table, viewer);
    if (!table->snapshot[index]) {
        table->snapshot[index] = table_snapshot_head(table, gateau_record_state(table->record),
                                                     viewer);
        table->snapshot_length[index] = strlen(table->snapshot[index]);
    }
    const char *head = table->snapshot[index];
    size_t head_length = table->snapshot_length[index];
    if (log_from < 0 || log_from > table->version) log_from = 0;
    size_t size = room + head_length + 128; /* (turn_ms, log_start) */
    for (int m = log_from; m < table->version; m++) size += strlen(table->log[m].json[index]) + 1;
    char *data = malloc(size);
    if (!data) abort();
    char *text = data + room;
    size_t used = head_length - 1; /* the head without its closing brace */
    memcpy(text, head, used);
    /* How long the turn has run (the clocks' seats' "clock" is what they
     * had when it began): made now, not cached, so that a page that opens
     * mid-turn shows the time truly left. */
    if (table->clock_total >= 0 && !table->over)
        used += (size_t)snprintf(text + used, size - room - used, ",\"turn_ms\":%lld",
                                 (long long)table_elapsed(table->turn_started));
    used += (size_t)snprintf(text + used, size - room - used, ",\"log_start\":%d,\"log\":[",
                             log_from);
    for (int m = log_from; m < table->version; m++) {
        if (m > log_from) text[used++] = ',';
        size_t entry = strlen(table->log[m].json[index]);
        memcpy(text + used, table->log[m].json[index], entry);
        used += entry;
    }
    memcpy(text + used, "]}", 3);
    *length = used + 2;
    return data;
}

char *table_snapshot_from(server_table *table, int viewer, int log_from)
{
    size_t length;
    return table_snapshot_message(table, viewer, log_from, 0, &length);
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
