/*
 * score_worth.c: what a unit of final score is worth in win chance.
 *
 * Where a seat's win chance is saturated, the review judges the score a
 * move gave away (judge.c), and needs it in the win chance's unit to use
 * the same thresholds.  The rate is the one at which a point changes the
 * win chance between equal players: a seat wins when its final margin
 * over the best of the others is positive, so a point more wins about as
 * often more as the margin's density at 0.  The margins were measured in
 * games between ismcts:iters=1000 bots (40 games for each game and player
 * count, seed 2026: bench/review_margins.py; docs/review.md gives the
 * figures) and their density at 0 is taken from a normal law of the same
 * mean and spread.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "review/review.h"

#define SQRT_TWO_PI 2.5066282746310002

/* The final margin over the best other seat, between equal players. */
typedef struct margin_law {
    const char *game;
    int players;
    double mean, deviation; /* in the game's unit */
} margin_law;

static const margin_law MARGINS[] = {
    {"piece-o-cake", 2, 0.00, 32.62}, {"piece-o-cake", 3, -5.83, 14.24},
    {"piece-o-cake", 4, -7.31, 12.47}, {"piece-o-cake", 5, -6.50, 8.73},
    {"maries-table", 3, -1.87, 4.43}, {"maries-table", 4, -2.99, 5.04},
    {"maries-table", 5, -3.49, 4.92}, {"mice-cake", 2, 0.00, 26.07},
    {"cake-master", 2, 0.00, 3.06},   {"cake-master", 3, -0.94, 2.23},
    {"cake-master", 4, -1.18, 1.81},  {"cake-master", 5, -1.39, 1.73},
    {"cake-master", 6, -1.35, 1.44},
};

double review_score_worth(const gateau_game *game, int players)
{
    const margin_law *nearest = NULL;
    const char *name = gateau_game_name(game);
    for (size_t i = 0; i < sizeof MARGINS / sizeof MARGINS[0]; i++) {
        const margin_law *law = &MARGINS[i];
        if (strcmp(law->game, name) != 0) continue;
        /* A player count not measured takes the nearest one's. */
        if (!nearest || abs(law->players - players) < abs(nearest->players - players))
            nearest = law;
    }
    if (!nearest) return 0; /* a game not measured: its score is never judged */
    double z = nearest->mean / nearest->deviation;
    return exp(-0.5 * z * z) / (nearest->deviation * SQRT_TWO_PI);
}
