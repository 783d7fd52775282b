/*
 * bot.h: computer players.
 *
 * A bot never sees the true state.  gateau_bot_choose() and
 * gateau_bot_analyse() hand the bot's strategy a private copy of the state
 * that went through gateau_state_determinize() for the bot's seat:
 * everything the seat cannot know has been resampled, so a strategy cannot
 * cheat even by accident.  A strategy receives (determinized state, seat,
 * rng, budget); searching strategies determinize copies of that state
 * again, which for the same seat keeps the distribution.
 *
 * Bot specs (see docs/bots.md):
 *
 *   random                    uniform over the legal actions of each decision
 *                             (per decision, not per complete move)
 *   heuristic                 the game's rule-of-thumb player (random for a
 *                             game that has none yet: the name says so)
 *   ismcts[:iters=N|:ms=N][:threads=T][:rollout=random|heuristic][:c=X]
 *                             information-set Monte Carlo tree search
 *   solver                    heuristic, then exact play where the game
 *                             can be solved (piece o' Cake's last cake)
 *
 * A bot is not thread-safe: one bot per thread (ismcts:threads=T runs its
 * own threads inside one call).
 */
#ifndef GATEAU_BOT_H
#define GATEAU_BOT_H

#include "gateau/gateau.h"

typedef struct gateau_bot gateau_bot;

/* spec: a bot name with optional ":key=value" parameters ("ismcts:ms=50").
 * NULL with a one-line reason for an unknown bot or parameter. */
gateau_bot *gateau_bot_new(const char *spec, char *error, size_t error_size);
void gateau_bot_free(gateau_bot *bot);
/* The spec as given; "heuristic" for a game without a heuristic player of
 * its own reads "heuristic (random for GAME)" once the bot has played it. */
const char *gateau_bot_name(const gateau_bot *bot);

/* The bot's next action for seat, which must be able to act in state.  A
 * move of several actions is asked for action by action (while
 * gateau_state_in_move()); a searching bot plans the whole move when it
 * starts and keeps to that plan while the seat's view matches it. */
gateau_action gateau_bot_choose(gateau_bot *bot, const gateau_state *state, int seat,
                                gateau_rng *rng);

/* One candidate move at the root of an analysis. */
typedef struct gateau_bot_candidate {
    gateau_action action;  /* the first action of the move */
    char move[256];        /* the complete move in the game's notation: the
                              principal line of the search from that first
                              action, completed by the game's heuristic
                              where the tree stops before the move ends */
    int visits;            /* simulations through it (0 for exact values) */
    double win;            /* estimated win chance (win share, ties split) */
    double score;          /* estimated mean final score of the seat */
    bool exact;            /* values from an exact solution, not estimates */
} gateau_bot_candidate;

/*
 * Analyses the decision of seat in state from the seat's information only
 * and writes up to max candidates, best first; returns how many.  An
 * ismcts bot searches with its budget; a solver bot in a position it can
 * solve gives exact values; other bots (random, heuristic) search with the
 * default ismcts budget.  The values are for the seat: win chance and mean
 * final score.
 */
int gateau_bot_analyse(gateau_bot *bot, const gateau_state *state, int seat, gateau_rng *rng,
                       gateau_bot_candidate *results, int max);

/* The names of the bots there are, for help texts: "random, ...". */
const char *gateau_bot_names(void);

#endif
