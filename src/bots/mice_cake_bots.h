/*
 * mice_cake_bots.h: what Mice Cake's heuristic (heuristic_mice_cake.c)
 * and its search leaf (search_mice_cake.c) share.
 */
#ifndef GATEAU_MICE_CAKE_BOTS_H
#define GATEAU_MICE_CAKE_BOTS_H

#include "core/engine.h"
#include "games/mice_cake/mice_cake.h"

/* The heuristic's price of a mouse exhausted, in pips: it sits out the
 * next round. */
#define MICE_CAKE_EXHAUSTION_COST 2.0

/* The odds of m mice rolling against a piece, from all 6^m dice. */
typedef struct mice_cake_odds {
    double success;   /* the sum reaches the pips and nobody is exhausted */
    double exhausted; /* expected mice exhausted */
    double success_at[MC_MAX_SUM + 1];    /* success with this dice sum */
    double failure[MC_MAX_EXHAUSTED + 1]; /* failure with 0, 1, 2 mice exhausted */
} mice_cake_odds;

/* mice 1..4, piece 0..27; the table is filled once, thread-safely. */
const mice_cake_odds *mice_cake_attempt_odds(int mice, int piece);

/* A face-up double-blank on the grid: its column and each seat's
 * distance to it (the pieces between it and the seat's end); false when
 * there is none.  What the steal potential is measured by. */
bool mice_cake_double_blank(const mc_state *g, int *column, int distance[MC_SEATS]);

/* Pips of the best piece in a stash, 0 when it is empty. */
int mice_cake_best_piece(uint32_t stash);

/* At the start of a round's rolls: each seat's expected change of worth
 * (pips won or stolen, less MICE_CAKE_EXHAUSTION_COST a mouse exhausted)
 * and the variance of yellow's margin change.  False anywhere else. */
bool mice_cake_round_dice(const gateau_state *state, double gain[MC_SEATS], double *variance);

/* The search's leaf at the start of a round's rolls (bot_game's
 * chance_values): each seat's expected worth and win share, the dice
 * worked out.  False anywhere else. */
bool mice_cake_round_values(const gateau_state *state, double share[], double score[]);

#endif
