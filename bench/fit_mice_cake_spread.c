/*
 * fit_mice_cake_spread.c: where the spread of Mice Cake's end estimate
 * comes from.  Not a test: it measures and prints.
 *
 *   gateau_fit_mice_cake_spread [GAMES [SEED]]     (default 20000 games, seed 7)
 *
 * The search's playout (src/bots/heuristic_mice_cake.c, mc_playout)
 * stops at the start of the next round and estimates the end: yellow
 * leads by m = (pips - 2 x mice sitting out) less blue's, and wins with
 * probability Phi(m / sd), sd growing with the pips still on the grid.
 * This plays heuristic against heuristic and, at every round start, sets
 * the game's final margin against that estimate.  It prints the root mean
 * square of the difference by bins of x = the root of the sum of the
 * squared pips on the grid, then the least-squares line sd = a x + b
 * through the bins (at their mean x, weighted by their counts): the line
 * the playout uses.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bots/bots.h"
#include "games/mice_cake.h"
#include "gateau/gateau.h"
#include "gateau/rng.h"

#define EXHAUSTION_COST 2.0 /* the heuristic's price of a mouse sitting out */
#define BIN_WIDTH 5
#define BINS 10 /* x is at most sqrt(1260) = 35.5 */
#define MAX_ROUNDS 512

typedef struct round_start {
    double estimate; /* yellow's estimated lead */
    double x;        /* root of the sum of the squared pips on the grid */
} round_start;

static round_start measure(const mc_state *g)
{
    double worth[MC_SEATS], squares = 0;
    for (int s = 0; s < MC_SEATS; s++) {
        int tired = 0;
        for (int c = 0; c < MC_COLUMNS; c++) tired += g->tired[s][c];
        worth[s] = mc_stash_pips(g->stash[s]) - EXHAUSTION_COST * tired;
    }
    for (int r = 0; r < MC_ROWS; r++)
        for (int c = 0; c < MC_COLUMNS; c++)
            if (g->grid[r][c] != MC_NO_PIECE) squares += mc_pips(g->grid[r][c]) * mc_pips(g->grid[r][c]);
    return (round_start){worth[0] - worth[1], sqrt(squares)};
}

static bool at_round_start(const gateau_state *state, const mc_state *g)
{
    return g->phase == MC_PHASE_ASSIGN && !gateau_state_in_move(state) && !g->assigned[0] &&
           !g->assigned[1] && !g->plans[0].placed && !g->plans[1].placed;
}

int main(int argc, char **argv)
{
    long games = argc > 1 ? atol(argv[1]) : 20000;
    unsigned long long seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 7;
    char error[256];
    gateau_setup *setup =
        gateau_setup_new(gateau_game_find("mice-cake"), 2, "", NULL, error, sizeof error);
    if (!setup || games <= 0) {
        fprintf(stderr, "fit_mice_cake_spread: %s\n", setup ? "GAMES must be positive" : error);
        return 1;
    }
    gateau_state *state = gateau_state_new(setup);
    const bot_game *bots = bot_game_find(state);
    gateau_rng rng;
    gateau_rng_seed(&rng, seed);
    double sum_squares[BINS] = {0}, sum_x[BINS] = {0};
    long count[BINS] = {0};
    static round_start starts[MAX_ROUNDS];
    for (long game = 0; game < games; game++) {
        gateau_state_free(state);
        state = gateau_state_new(setup);
        int rounds = 0, last_round = 0;
        while (!gateau_state_is_over(state)) {
            if (gateau_state_is_chance(state)) {
                gateau_state_apply_legal(state, GATEAU_CHANCE, gateau_state_sample_chance(state, &rng));
                continue;
            }
            const mc_state *g = GAME_STATE_CONST(mc_state, state);
            if (g->round != last_round && at_round_start(state, g) && rounds < MAX_ROUNDS) {
                last_round = g->round;
                starts[rounds++] = measure(g);
            }
            int seat = gateau_state_next_seat(state);
            gateau_state_apply_legal(state, seat, bots->heuristic(state, seat, &rng));
        }
        int scores[GATEAU_MAX_PLAYERS];
        gateau_state_scores(state, scores);
        for (int i = 0; i < rounds; i++) {
            int bin = (int)(starts[i].x / BIN_WIDTH);
            if (bin >= BINS) bin = BINS - 1;
            double off = (scores[0] - scores[1]) - starts[i].estimate;
            sum_squares[bin] += off * off;
            sum_x[bin] += starts[i].x;
            count[bin]++;
        }
    }
    gateau_state_free(state);
    gateau_setup_free(setup);

    /* Weighted least squares of the bins' spread on their mean x. */
    double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    printf("%d-pip bins of x  round starts  spread\n", BIN_WIDTH);
    for (int b = 0; b < BINS; b++) {
        if (!count[b]) continue;
        double x = sum_x[b] / (double)count[b], spread = sqrt(sum_squares[b] / (double)count[b]);
        printf("%5d..%-5d  %12ld  %6.2f\n", b * BIN_WIDTH, (b + 1) * BIN_WIDTH, count[b], spread);
        double w = (double)count[b];
        n += w;
        sx += w * x;
        sy += w * spread;
        sxx += w * x * x;
        sxy += w * x * spread;
    }
    double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx), base = (sy - slope * sx) / n;
    printf("%ld games, seed %llu: sd = %.3f x + %.3f\n", games, seed, slope, base);
    return 0;
}
