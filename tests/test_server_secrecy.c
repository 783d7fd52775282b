/*
 * test_server_secrecy.c: a seat receives from the server nothing that
 * depends on what it cannot know.
 *
 * Tables are rebuilt from random games of every game and player count
 * (as a restart rebuilds them, without a store), and for each seat and
 * the spectators:
 *
 *   - the snapshot (everything but the log: view, legal actions, seats,
 *     whose turn) made from the true state and from states that differ
 *     only in what the viewer cannot know (gateau_state_determinize for
 *     the viewer) are the same bytes;
 *   - each log entry made from the position before its move, true or
 *     determinized for the viewer, is the same bytes whenever the same
 *     move is possible there and leaves the viewer seeing the same (a
 *     move that reveals what was hidden may say what it revealed).
 *
 * Those are every byte a seat's GET and WebSocket messages carry besides
 * the table's id and version.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/server.h"
#include "support.h"

/* A table rebuilt from the first `moves` moves of record. */
static server_table *table_of(const gateau_record *record, int moves)
{
    const gateau_setup *setup = gateau_record_setup(record);
    store_table kept = {.players = gateau_setup_players(setup)};
    snprintf(kept.id, sizeof kept.id, "secrecy");
    snprintf(kept.game, sizeof kept.game, "%s", gateau_game_name(gateau_setup_game(setup)));
    snprintf(kept.options, sizeof kept.options, "%s", gateau_setup_options_text(setup));
    for (int s = 0; s < kept.players; s++) snprintf(kept.seats[s].spec, STORE_SPEC_SIZE, "human");
    store_move *lines = calloc((size_t)moves + 1, sizeof *lines);
    for (int m = 0; m < moves; m++)
        lines[m] = (store_move){.number = m, .seat = gateau_record_move_seat(record, m),
                                .line = gateau_record_move_text(record, m), .clock_left = -1};
    char error[512];
    server_table *table = table_restore(NULL, &kept, lines, moves, error, sizeof error);
    cr_assert_not_null(table, "%s", error);
    free(lines);
    return table;
}

static void check_heads(server_table *table, gateau_rng *rng)
{
    const gateau_state *state = gateau_record_state(table->record);
    gateau_state *other = gateau_state_clone(state);
    for (int viewer = GATEAU_OBSERVER; viewer < table->players; viewer++) {
        char *truth = table_snapshot_head(table, state, viewer);
        for (int k = 0; k < 3; k++) {
            gateau_state_copy(other, state);
            gateau_state_determinize(other, viewer, rng);
            char *seen = table_snapshot_head(table, other, viewer);
            cr_assert_str_eq(seen, truth, "viewer %d, version %d", viewer, table->version);
            free(seen);
        }
        free(truth);
    }
    gateau_state_free(other);
}

/* Whether viewer sees the same after the move from either position.  A
 * move may reveal what was hidden (votes, pairs turned up, a domino
 * turning over): then the viewer learns it, and its entry may say so. */
static bool same_view_after(const gateau_state *before, const gateau_state *other, int seat,
                            const gateau_action *actions, int count, int viewer)
{
    gateau_state *after = gateau_state_clone(before), *other_after = gateau_state_clone(other);
    for (int a = 0; a < count; a++) {
        gateau_state_apply_legal(after, seat, actions[a]);
        gateau_state_apply_legal(other_after, seat, actions[a]);
    }
    char *view = gateau_state_view_json(after, viewer), *other_view = gateau_state_view_json(other_after, viewer);
    bool same = !strcmp(view, other_view);
    free(view), free(other_view);
    gateau_state_free(after), gateau_state_free(other_after);
    return same;
}

/* Each move's log entry, from the true position before it and from that
 * position determinized for each viewer other than the mover, when the
 * viewer sees the same after it either way. */
static int check_log(const gateau_record *record, gateau_rng *rng)
{
    const gateau_setup *setup = gateau_record_setup(record);
    int players = gateau_setup_players(setup), compared = 0;
    gateau_state *before = gateau_state_new(setup), *other = gateau_state_clone(before);
    for (int m = 0; m < gateau_record_move_count(record); m++) {
        int count, seat = gateau_record_move_seat(record, m);
        const gateau_action *actions = gateau_record_move_actions(record, m, &count);
        const char *notation = gateau_record_move_text(record, m);
        for (int viewer = GATEAU_OBSERVER; viewer < players; viewer++) {
            if (viewer == seat) continue;
            char *truth = table_describe_move(before, seat, actions, count, notation, m, NULL, viewer);
            gateau_state_copy(other, before);
            gateau_state_determinize(other, viewer, rng);
            if (gateau_move_check(other, seat, actions, count, NULL, 0) &&
                same_view_after(before, other, seat, actions, count, viewer)) {
                char *seen = table_describe_move(other, seat, actions, count, notation, m, NULL,
                                                 viewer);
                cr_assert_str_eq(seen, truth, "move %d (%s) for viewer %d:\n%s\n%s", m, notation,
                                 viewer, truth, seen);
                free(seen);
                compared++;
            }
            free(truth);
        }
        for (int a = 0; a < count; a++) gateau_state_apply_legal(before, seat, actions[a]);
    }
    gateau_state_free(before), gateau_state_free(other);
    return compared;
}

ParameterizedTestParameters(secrecy, every_byte_a_seat_receives)
{
    return support_all_game_cases();
}

ParameterizedTest(game_case *param, secrecy, every_byte_a_seat_receives, .timeout = 300)
{
    gateau_setup *setup = support_setup(param->game, param->players, NULL);
    gateau_rng rng;
    gateau_rng_seed(&rng, 0x5ec7e7 + (uint64_t)param->players);
    /* (GATEAU_PROPERTY_GAMES is lowered under the sanitizers.) */
    int games = support_property_games(2000) / 200 + 1, compared = 0;
    for (int g = 0; g < games; g++) {
        gateau_record *record = gateau_record_new(setup);
        support_play_out(record, &rng);
        int total = gateau_record_move_count(record);
        /* A few positions along the game, the end included. */
        for (int cut = 1; cut <= 4; cut++) {
            server_table *table = table_of(record, total * cut / 4);
            check_heads(table, &rng);
            table_free(table);
        }
        compared += check_log(record, &rng);
        gateau_record_free(record);
    }
    cr_assert_gt(compared, 0, "some moves were compared");
    gateau_setup_free(setup);
}
