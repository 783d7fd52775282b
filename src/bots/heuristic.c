/*
 * heuristic.c: which games have bot support of their own (heuristic
 * players, rollout policies, exact solvers), found by the game's name.
 * A game missing here gets random play where a heuristic is asked for.
 */
#include <string.h>

#include "bots/bots.h"

extern const bot_game bot_piece_o_cake;

static const bot_game *const games[] = {
    &bot_piece_o_cake,
};

const bot_game *bot_game_find(const gateau_state *state)
{
    const char *name = gateau_game_name(gateau_setup_game(gateau_state_setup(state)));
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++)
        if (!strcmp(games[i]->name, name)) return games[i];
    return NULL;
}
