/*
 * analysis.c: what the server works out for a player beside the game
 * itself: a hint for a seat's move, and a finished game replayed position
 * by position (docs/server.md, "Hints" and "Replays").
 *
 * Both are pure: they take a state or a record and give JSON, and hold no
 * table's lock while they think.  A hint searches from the seat's own
 * information only (gateau_bot_analyse determinizes what the seat cannot
 * see), so it tells a player nothing the seat does not know.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server.h"

/* ---- Hints --------------------------------------------------------------------------- */

/* Hints search on the connection's own thread; at most this many at once,
 * so that asking for hints cannot take the cores from the tables' bots. */
static atomic_int hints_running;

char *analysis_hint(const gateau_state *state, int seat, int milliseconds, int most_at_once,
                    int *status, char *error, size_t error_size)
{
    if (atomic_fetch_add(&hints_running, 1) >= most_at_once) {
        atomic_fetch_sub(&hints_running, 1);
        *status = 503;
        snprintf(error, error_size, "the server is busy with other hints: ask again in a moment");
        return NULL;
    }
    char spec[64];
    snprintf(spec, sizeof spec, "ismcts:ms=%d", milliseconds);
    gateau_bot *bot = gateau_bot_new(spec, error, error_size);
    char *answer = NULL;
    if (bot) {
        /* Any seed will do: a hint is advice, not part of the game, and
         * its randomness reaches nothing the seat may not know. */
        gateau_rng rng;
        gateau_rng_seed(&rng, (uint64_t)time(NULL) ^ (uint64_t)(uintptr_t)&rng);
        gateau_bot_candidate candidates[5];
        int count = gateau_bot_analyse(bot, state, seat, &rng, candidates, 5);
        gateau_bot_free(bot);
        json_t *moves = json_array();
        for (int i = 0; i < count; i++) {
            const gateau_bot_candidate *c = &candidates[i];
            json_array_append_new(moves, json_pack("{s:s, s:i, s:f, s:f, s:i, s:b}", "move", c->move,
                                                   "action", (int)c->action, "win", c->win, "score",
                                                   c->score, "visits", c->visits, "exact", c->exact));
        }
        const gateau_game_type *type = gateau_game_type_of(gateau_setup_game(gateau_state_setup(state)));
        json_t *root = json_pack("{s:s, s:i, s:o}", "unit", type->score_unit, "ms", milliseconds,
                                 "moves", moves);
        answer = json_dumps(root, JSON_COMPACT);
        json_decref(root);
    } else {
        *status = 500;
    }
    atomic_fetch_sub(&hints_running, 1);
    return answer;
}

/* ---- Replays ------------------------------------------------------------------------- */

/* The view of viewer (a seat, GATEAU_OBSERVER, or every seat's as an
 * array for ANALYSIS_EVERYONE) written after a member name. */
static void write_views(FILE *out, const gateau_state *state, int viewer, int players)
{
    if (viewer != ANALYSIS_EVERYONE) {
        char *view = gateau_state_view_json(state, viewer);
        fprintf(out, ",\"view\":%s", view);
        free(view);
        return;
    }
    fputs(",\"views\":[", out);
    for (int seat = 0; seat < players; seat++) {
        char *view = gateau_state_view_json(state, seat);
        fprintf(out, "%s%s", seat ? "," : "", view);
        free(view);
    }
    fputc(']', out);
}

/* One step: the move that led here as the viewer may see it (its log
 * entry's members), then the position.  Everyone's replay shows each move
 * as the spectators saw it, and every seat's view after it. */
static void write_step(FILE *out, const gateau_record *record, int index, const gateau_state *before,
                       const gateau_state *after, int viewer, int players)
{
    fputs(index ? ",{" : "{", out);
    if (index == 0) {
        fputs("\"n\":null,\"seat\":null,\"text\":null,\"move\":null", out);
    } else {
        int count, seat = gateau_record_move_seat(record, index - 1);
        const gateau_action *actions = gateau_record_move_actions(record, index - 1, &count);
        int describe_for = viewer == ANALYSIS_EVERYONE ? GATEAU_OBSERVER : viewer;
        char *entry = table_describe_move(before, seat, actions, count,
                                          gateau_record_move_text(record, index - 1), index - 1, NULL,
                                          describe_for);
        /* (the entry is one JSON object: its members, without the braces) */
        size_t length = strlen(entry);
        fwrite(entry + 1, 1, length - 2, out);
        free(entry);
    }
    write_views(out, after, viewer, players);
    fputc('}', out);
}

char *analysis_replay(const gateau_record *record, int viewer)
{
    const gateau_setup *setup = gateau_record_setup(record);
    int players = gateau_setup_players(setup);
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (!out) return NULL;

    json_t *header = json_object();
    json_object_set_new(header, "game", json_string(gateau_game_name(gateau_setup_game(setup))));
    json_object_set_new(header, "players", json_integer(players));
    json_t *names = json_array();
    for (int seat = 0; seat < players; seat++)
        json_array_append_new(names, json_string(gateau_record_name(record, seat)));
    json_object_set_new(header, "names", names);
    const gateau_state *end = gateau_record_state(record);
    json_object_set_new(header, "over", json_boolean(gateau_state_is_over(end)));
    if (gateau_state_is_over(end)) {
        int scores[GATEAU_MAX_PLAYERS];
        gateau_state_scores(end, scores);
        json_t *list = json_array();
        for (int seat = 0; seat < players; seat++) json_array_append_new(list, json_integer(scores[seat]));
        json_object_set_new(header, "scores", list);
    }
    char *head = json_dumps(header, JSON_COMPACT);
    json_decref(header);
    fwrite(head, 1, strlen(head) - 1, out); /* (the object left open) */
    free(head);

    fputs(",\"steps\":[", out);
    gateau_state *state = gateau_state_new(setup), *before = gateau_state_new(setup);
    int moves = gateau_record_move_count(record);
    write_step(out, record, 0, state, state, viewer, players);
    for (int index = 0; index < moves; index++) {
        gateau_state_copy(before, state);
        int count, seat = gateau_record_move_seat(record, index);
        const gateau_action *actions = gateau_record_move_actions(record, index, &count);
        for (int a = 0; a < count; a++) gateau_state_apply_legal(state, seat, actions[a]);
        write_step(out, record, index + 1, before, state, viewer, players);
    }
    gateau_state_free(before);
    gateau_state_free(state);
    fputs("]}", out);
    fclose(out);
    return text;
}
