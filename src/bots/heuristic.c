/*
 * heuristic.c: which games have bot support of their own (heuristic
 * players, rollout policies, exact solvers), found by the game's name.
 * A game missing here gets random play where a heuristic is asked for.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "bots/bots.h"

extern const bot_game bot_piece_o_cake;
extern const bot_game bot_mice_cake;
extern const bot_game bot_maries_table;
extern const bot_game bot_cake_master;

static const bot_game *const games[] = {
    &bot_piece_o_cake,
    &bot_mice_cake,
    &bot_maries_table,
    &bot_cake_master,
};

const bot_game *bot_game_find(const gateau_state *state)
{
    const char *name = gateau_game_name(gateau_setup_game(gateau_state_setup(state)));
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++)
        if (!strcmp(games[i]->name, name)) return games[i];
    return NULL;
}

struct json_t *bot_view(const gateau_state *state, int seat)
{
    char *text = gateau_state_view_json(state, seat);
    json_t *view = json_loads(text, 0, NULL);
    free(text);
    if (!view) abort(); /* the engine writes valid JSON */
    return view;
}

gateau_action bot_find_action(const gateau_state *state, int seat, const char *name)
{
    gateau_action actions[GATEAU_MAX_ACTIONS];
    int count = gateau_state_legal_actions(state, seat, actions);
    for (int i = 0; i < count; i++) {
        char *text = gateau_action_name(state, seat, actions[i]);
        bool match = !strcmp(text, name);
        free(text);
        if (match) return actions[i];
    }
    return -1;
}
