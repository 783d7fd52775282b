/*
 * result.c: where a record's game stands, as JSON (gateau/record.h; the
 * format is documented in docs/arena.md, "Report formats"), the same for
 * `gateau replay --json` and any other host.
 */
#include "gateau/record.h"

#include <jansson.h>
#include <stdlib.h>

char *gateau_record_result_json(const gateau_record *record)
{
    const gateau_state *state = gateau_record_state(record);
    const gateau_setup *setup = gateau_record_setup(record);
    int players = gateau_setup_players(setup);
    int scores[GATEAU_MAX_PLAYERS];
    gateau_state_scores(state, scores);
    uint32_t winners = gateau_state_winners(state);
    json_t *score_list = json_array(), *winner_list = json_array();
    for (int s = 0; s < players; s++) {
        json_array_append_new(score_list, json_integer(scores[s]));
        if (winners & (1u << s)) json_array_append_new(winner_list, json_integer(s + 1));
    }
    json_t *out = json_pack("{s:s, s:i, s:b, s:o, s:o, s:i}", "game",
                            gateau_game_name(gateau_setup_game(setup)), "players", players,
                            "terminal", gateau_state_is_over(state), "scores", score_list,
                            "winners", winner_list, "moves", gateau_record_move_count(record));
    char *text = json_dumps(out, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(out);
    if (!text) abort();
    return text;
}
