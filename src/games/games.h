/*
 * games.h: the rule tables of the games (internal to libgateau), for the
 * list in src/games.c.  Each game's own header (src/games/<game>/) holds
 * the rest of what its files and its bots share.
 */
#ifndef GATEAU_GAMES_H
#define GATEAU_GAMES_H

#include "gateau/gateau.h"

extern const gateau_game piece_o_cake_game;
extern const gateau_game maries_table_game;
extern const gateau_game mice_cake_game;
extern const gateau_game cake_master_game;

#endif
