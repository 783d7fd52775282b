/*
 * fit_mice_cake_estimate.c: where the numbers of Mice Cake's search
 * estimate come from (src/bots/search_mice_cake.c).  Not a test: it
 * measures and prints.
 *
 *   gateau_fit_mice_cake_estimate [GAMES [SEED]]    (default 100000 games, seed 7)
 *
 * It plays heuristic against heuristic and, at every round start, sets
 * the game's final margin (yellow's pips less blue's) against what the
 * search sees there:
 *
 * - the spread: yellow's estimated lead is m = (pips - 2 x mice sitting
 *   out) less blue's.  The root mean square of (final margin - m) by bins
 *   of x = the root of the sum of the squared pips on the grid, and the
 *   least-squares line sd = a x + b through the bins (at their mean x,
 *   weighted by their counts);
 * - the steal potential: the least-squares fit of the final margin on the
 *   pips, the mice sitting out and, for a face-up double-blank d pieces
 *   from a seat's end, the best piece in the other's stash (as yellow's
 *   feature at d, less blue's).  The weights by d are STEAL_WEIGHT.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bots/bots.h"
#include "bots/mice_cake_bots.h"
#include "games/mice_cake/mice_cake.h"
#include "gateau/gateau.h"
#include "gateau/rng.h"

#define EXHAUSTION_COST MICE_CAKE_EXHAUSTION_COST
#define BIN_WIDTH 5
#define BINS 10 /* x is at most sqrt(1260) = 35.5 */
#define MAX_ROUNDS 512

enum { FEATURES = 2 + MC_ROWS }; /* pips, mice sitting out, steal potential by distance */

typedef struct round_start {
    double estimate; /* yellow's estimated lead */
    double x;        /* root of the sum of the squared pips on the grid */
    double feature[FEATURES];
} round_start;

/* Yellow's steal potential less blue's, by distance to the double-blank,
 * measured as the search measures it. */
static void steal_features(const mc_state *g, double *feature)
{
    int column, distance[MC_SEATS];
    if (!mice_cake_double_blank(g, &column, distance)) return;
    feature[distance[0]] += mice_cake_best_piece(g->stash[1]);
    feature[distance[1]] -= mice_cake_best_piece(g->stash[0]);
}

static round_start measure(const mc_state *g)
{
    double worth[MC_SEATS], squares = 0;
    round_start start = {0};
    for (int s = 0; s < MC_SEATS; s++) {
        int tired = mc_tired_count(g, s);
        worth[s] = mc_stash_pips(g->stash[s]) - EXHAUSTION_COST * tired;
        double sign = s == 0 ? 1 : -1;
        start.feature[0] += sign * mc_stash_pips(g->stash[s]);
        start.feature[1] += sign * tired;
    }
    steal_features(g, start.feature + 2);
    for (int r = 0; r < MC_ROWS; r++)
        for (int c = 0; c < MC_COLUMNS; c++)
            if (g->grid[r][c] != MC_NO_PIECE) squares += mc_pips(g->grid[r][c]) * mc_pips(g->grid[r][c]);
    start.estimate = worth[0] - worth[1];
    start.x = sqrt(squares);
    return start;
}

/* Gauss-Jordan elimination with partial pivoting; false if singular. */
static bool solve(double m[FEATURES][FEATURES + 1], double *x)
{
    for (int i = 0; i < FEATURES; i++) {
        int pivot = i;
        for (int r = i + 1; r < FEATURES; r++)
            if (fabs(m[r][i]) > fabs(m[pivot][i])) pivot = r;
        if (fabs(m[pivot][i]) < 1e-9) return false;
        for (int k = 0; k <= FEATURES; k++) {
            double swap = m[i][k];
            m[i][k] = m[pivot][k];
            m[pivot][k] = swap;
        }
        for (int r = 0; r < FEATURES; r++) {
            if (r == i) continue;
            double factor = m[r][i] / m[i][i];
            for (int k = i; k <= FEATURES; k++) m[r][k] -= factor * m[i][k];
        }
    }
    for (int i = 0; i < FEATURES; i++) x[i] = m[i][FEATURES] / m[i][i];
    return true;
}

static bool at_round_start(const gateau_state *state, const mc_state *g)
{
    return g->phase == MC_PHASE_ASSIGN && !gateau_state_in_move(state) && !g->assigned[0] &&
           !g->assigned[1] && !g->plans[0].placed && !g->plans[1].placed;
}

int main(int argc, char **argv)
{
    long games = argc > 1 ? atol(argv[1]) : 100000;
    unsigned long long seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 7;
    char error[256];
    gateau_setup *setup =
        gateau_setup_new(gateau_game_find("mice-cake"), 2, "", NULL, error, sizeof error);
    if (!setup || games <= 0) {
        fprintf(stderr, "fit_mice_cake_estimate: %s\n", setup ? "GAMES must be positive" : error);
        return 1;
    }
    gateau_state *state = gateau_state_new(setup);
    const bot_game *bots = bot_game_find(state);
    gateau_rng rng;
    gateau_rng_seed(&rng, seed);
    double sum_squares[BINS] = {0}, sum_x[BINS] = {0};
    long count[BINS] = {0};
    static round_start starts[MAX_ROUNDS];
    double normal[FEATURES][FEATURES + 1] = {{0}}; /* the least squares' normal equations */
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
            const double *f = starts[i].feature;
            for (int j = 0; j < FEATURES; j++) {
                for (int k = 0; k < FEATURES; k++) normal[j][k] += f[j] * f[k];
                normal[j][FEATURES] += f[j] * (scores[0] - scores[1]);
            }
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

    double weight[FEATURES];
    if (!solve(normal, weight)) {
        printf("steal potential: too few games to fit\n");
        return 0;
    }
    printf("final margin = %.3f x pips %+.3f x mice sitting out\n"
           "  + steal potential, weight by distance 0..6:",
           weight[0], weight[1]);
    for (int d = 0; d < MC_ROWS; d++) printf(" %.3f", weight[2 + d]);
    printf("\n");
    return 0;
}
