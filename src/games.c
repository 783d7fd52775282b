/*
 * games.c: the games gateau plays, each with its bot support, in the order
 * `gateau games` lists them.  The one place that names them all (as Lua's
 * linit.c lists its libraries): the core finds games only through this
 * list, and a new game is one line here once its folder and bots exist.
 */
#include "bots/bots.h"
#include "core/engine.h"
#include "games/games.h"

const registry_entry registry_games[] = {
    {&piece_o_cake_game, &piece_o_cake_bots},
    {&maries_table_game, &maries_table_bots},
    {&mice_cake_game, &mice_cake_bots},
    {&cake_master_game, &cake_master_bots},
};

const int registry_game_count = (int)(sizeof registry_games / sizeof registry_games[0]);
