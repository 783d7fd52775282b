/*
 * statistics.c: what an arena's results say (gateau/arena.h).
 *
 * Everything is accumulated in game order, so the same games give the
 * same numbers to the last bit.
 */
#include <math.h>
#include <string.h>

#include "gateau/arena.h"

gateau_interval gateau_wilson_interval(double successes, double trials, double z)
{
    gateau_interval interval = {0.0, 1.0};
    if (trials <= 0) return interval;
    double p = successes / trials;
    if (p < 0) p = 0;
    if (p > 1) p = 1;
    double z2 = z * z;
    double denominator = 1 + z2 / trials;
    double center = (p + z2 / (2 * trials)) / denominator;
    double half = z / denominator * sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials));
    interval.low = center - half;
    interval.high = center + half;
    /* Exactly 0 and 1 at the ends, not a rounding error either side. */
    if (interval.low < 0 || p == 0) interval.low = 0;
    if (interval.high > 1 || p == 1) interval.high = 1;
    return interval;
}

gateau_interval gateau_normal_interval(double mean, double sd, long n, double z)
{
    double half = n > 0 ? z * sd / sqrt((double)n) : INFINITY;
    return (gateau_interval){mean - half, mean + half};
}

void gateau_mean_sd(const double *values, long n, double *mean, double *sd)
{
    double sum = 0;
    for (long i = 0; i < n; i++) sum += values[i];
    double m = n > 0 ? sum / (double)n : 0;
    double squares = 0;
    for (long i = 0; i < n; i++) squares += (values[i] - m) * (values[i] - m);
    *mean = m;
    *sd = n > 1 ? sqrt(squares / (double)(n - 1)) : 0;
}

int gateau_bradley_terry(int count, const double *wins, double prior, double *strength)
{
    enum { MAX_ITERATIONS = 100000 };
    const double tolerance = 1e-12;
    if (count <= 0) return 0;
    double total_wins[64] = {0}, next[64];
    if (count > 64) count = 64;
    for (int i = 0; i < count; i++) {
        strength[i] = 1;
        for (int j = 0; j < count; j++)
            if (j != i) total_wins[i] += wins[i * count + j] + prior / 2;
    }
    for (int iteration = 1; iteration <= MAX_ITERATIONS; iteration++) {
        /* Hunter's MM step: p_i = W_i / sum_j n_ij / (p_i + p_j). */
        for (int i = 0; i < count; i++) {
            double denominator = 0;
            for (int j = 0; j < count; j++) {
                if (j == i) continue;
                double games = wins[i * count + j] + wins[j * count + i] + prior;
                if (games > 0) denominator += games / (strength[i] + strength[j]);
            }
            next[i] = denominator > 0 ? total_wins[i] / denominator : strength[i];
        }
        /* Scale to arithmetic mean 1 while iterating (a strength may tend
         * to 0), to geometric mean 1 at the end. */
        double sum = 0;
        for (int i = 0; i < count; i++) sum += next[i];
        double change = 0;
        for (int i = 0; i < count; i++) {
            next[i] = sum > 0 ? next[i] * count / sum : 1;
            double relative = fabs(next[i] - strength[i]) / (strength[i] > 0 ? strength[i] : 1);
            if (relative > change) change = relative;
            strength[i] = next[i];
        }
        if (change < tolerance) {
            double log_sum = 0;
            bool positive = true;
            for (int i = 0; i < count; i++) {
                if (strength[i] > 0) log_sum += log(strength[i]);
                else positive = false;
            }
            if (positive) {
                double scale = exp(-log_sum / count);
                for (int i = 0; i < count; i++) strength[i] *= scale;
            }
            return iteration;
        }
    }
    return -1;
}

/* Running mean and variance (Welford), in the order values come. */
typedef struct accumulator {
    long n;
    double mean, m2;
    double min, max;
} accumulator;

static void accumulate(accumulator *a, double x)
{
    if (a->n == 0 || x < a->min) a->min = x;
    if (a->n == 0 || x > a->max) a->max = x;
    a->n++;
    double delta = x - a->mean;
    a->mean += delta / (double)a->n;
    a->m2 += delta * (x - a->mean);
}

static double accumulated_sd(const accumulator *a)
{
    return a->n > 1 ? sqrt(a->m2 / (double)(a->n - 1)) : 0;
}

/* 1 when seat s is placed above seat t, 0.5 for a tie, 0 below. */
static double placed_above(const gateau_arena_game *game, int s, int t)
{
    bool s_won = game->winners >> s & 1, t_won = game->winners >> t & 1;
    if (s_won != t_won) return s_won ? 1 : 0;
    if (s_won) return 0.5; /* a shared win */
    if (game->scores[s] != game->scores[t]) return game->scores[s] > game->scores[t] ? 1 : 0;
    return 0.5;
}

void gateau_arena_statistics(const gateau_arena_game *games, long count, int players,
                             const char *const *specs, gateau_arena_stats *stats)
{
    memset(stats, 0, sizeof *stats);
    if (count < 0) count = 0;
    if (players < 1) players = 1;
    if (players > GATEAU_MAX_PLAYERS) players = GATEAU_MAX_PLAYERS;
    stats->games = count;
    stats->players = players;

    /* Distinct bots, in order of first listing. */
    for (int k = 0; k < players; k++) {
        stats->has_programs |= !strncmp(specs[k], "ext:", 4);
        int d = 0;
        while (d < stats->bot_count && strcmp(stats->bots[d].spec, specs[k]) != 0) d++;
        if (d == stats->bot_count) stats->bots[stats->bot_count++].spec = specs[k];
        stats->bots[d].listed++;
        stats->bot_of_listed[k] = d;
    }
    int bots = stats->bot_count;

    accumulator bot_scores[GATEAU_MAX_PLAYERS] = {0}, seat_scores[GATEAU_MAX_PLAYERS] = {0};
    accumulator moves = {0};
    double bot_wins[GATEAU_MAX_PLAYERS] = {0}, seat_wins[GATEAU_MAX_PLAYERS] = {0};
    for (long g = 0; g < count; g++) {
        const gateau_arena_game *game = &games[g];
        int winner_count = __builtin_popcount(game->winners);
        double game_bot_wins[GATEAU_MAX_PLAYERS] = {0};
        int seat_bot[GATEAU_MAX_PLAYERS];
        for (int s = 0; s < players; s++) {
            int listed = game->bot_at_seat[s];
            int d = listed >= 0 && listed < players ? stats->bot_of_listed[listed] : 0;
            seat_bot[s] = d;
            double share = game->winners >> s & 1 ? 1.0 / winner_count : 0.0;
            seat_wins[s] += share;
            game_bot_wins[d] += share;
            accumulate(&seat_scores[s], game->scores[s]);
            accumulate(&bot_scores[d], game->scores[s]);
            stats->bots[d].failures += game->failures[s];
            stats->bots[d].fallbacks += game->fallbacks[s];
            stats->seats[s].failures += game->failures[s];
            stats->seats[s].fallbacks += game->fallbacks[s];
        }
        for (int d = 0; d < bots; d++) bot_wins[d] += game_bot_wins[d] / stats->bots[d].listed;
        for (int s = 0; s < players; s++)
            for (int t = s + 1; t < players; t++) {
                if (seat_bot[s] == seat_bot[t]) continue;
                double above = placed_above(game, s, t);
                stats->pairwise[seat_bot[s]][seat_bot[t]] += above;
                stats->pairwise[seat_bot[t]][seat_bot[s]] += 1 - above;
            }
        accumulate(&moves, game->moves);
    }

    for (int d = 0; d < bots; d++) {
        gateau_arena_bot_stats *bot = &stats->bots[d];
        bot->win_share = count ? bot_wins[d] / (double)count : 0;
        bot->win_interval = gateau_wilson_interval(bot_wins[d], (double)count, GATEAU_Z95);
        bot->score_mean = bot_scores[d].mean;
        bot->score_sd = accumulated_sd(&bot_scores[d]);
        bot->score_min = (int)bot_scores[d].min;
        bot->score_max = (int)bot_scores[d].max;
    }
    for (int s = 0; s < players; s++) {
        gateau_arena_seat_stats *seat = &stats->seats[s];
        seat->win_share = count ? seat_wins[s] / (double)count : 0;
        seat->win_interval = gateau_wilson_interval(seat_wins[s], (double)count, GATEAU_Z95);
        seat->score_mean = seat_scores[s].mean;
        seat->score_sd = accumulated_sd(&seat_scores[s]);
    }
    for (int i = 0; i < bots; i++)
        for (int j = 0; j < bots; j++) {
            if (i == j) continue;
            /* Each meeting adds 1 to the two cells together (1 + 0 or a
             * tie's 1/2 + 1/2), so their sum is a whole number. */
            double met = stats->pairwise[i][j] + stats->pairwise[j][i];
            stats->meetings[i][j] = lround(met);
            stats->pairwise_share[i][j] = met > 0 ? stats->pairwise[i][j] / met : 0;
        }
    stats->moves_mean = moves.mean;
    stats->moves_sd = accumulated_sd(&moves);
    stats->moves_min = (int)moves.min;
    stats->moves_max = (int)moves.max;

    if (bots >= 3 && count > 0) {
        double table[GATEAU_MAX_PLAYERS * GATEAU_MAX_PLAYERS];
        for (int i = 0; i < bots; i++)
            for (int j = 0; j < bots; j++) table[i * bots + j] = stats->pairwise[i][j];
        double strength[GATEAU_MAX_PLAYERS];
        stats->rating_iterations = gateau_bradley_terry(bots, table, 1.0, strength);
        stats->has_ratings = true;
        for (int d = 0; d < bots; d++) {
            stats->bots[d].strength = strength[d];
            stats->bots[d].rating = 400 * log10(strength[d]);
        }
    }
}
