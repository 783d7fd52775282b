/*
 * bench_bots.c: how fast the bots are.  Not a test: it measures and prints.
 *
 *   gateau_bench_bots [--game NAME] [--players N] [--seconds S] [--spec SPEC]
 *                     [--solver GAMES]
 *
 * Times are CPU time of the measuring thread (CLOCK_THREAD_CPUTIME_ID),
 * so a busy machine slows the measurement down less than wall time would.
 *
 * For every game and player count:
 * - ISMCTS iterations per second on one thread, searched from the first
 *   decision after the deal (for piece o' Cake: the first cut), with
 *   random and with heuristic rollouts;
 * - milliseconds per move of `ismcts` at its default budget and
 *   microseconds per decision of `heuristic`, over whole games (a move of
 *   several actions counts once);
 * - with --solver G, for piece o' Cake: the exact solver on the last cakes
 *   of G heuristic games per player count: time to solve from the cut
 *   (best move only) and from the first choice.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bots/bots.h"
#include "games/piece_o_cake/piece_o_cake.h"
#include "gateau/bot.h"
#include "gateau/gateau.h"

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Advances state until a seat (not chance) decides, chance from rng. */
static void skip_chance(gateau_state *state, gateau_rng *rng)
{
    while (!gateau_state_is_over(state) && gateau_state_is_chance(state))
        gateau_state_apply_legal(state, GATEAU_CHANCE, gateau_state_sample_chance(state, rng));
}

/* Iterations per second of spec (an ismcts spec with an iteration budget)
 * from the first decision of a few deals. */
static double iterations_per_second(const gateau_setup *setup, const char *spec, long iterations,
                                    double seconds)
{
    char error[256];
    gateau_bot *bot = gateau_bot_new(spec, error, sizeof error);
    if (!bot) {
        fprintf(stderr, "%s\n", error);
        exit(2);
    }
    gateau_rng rng;
    gateau_rng_seed(&rng, 7);
    long done = 0;
    double start = now_seconds(), elapsed = 0;
    for (int deal = 0; elapsed < seconds; deal++) {
        gateau_state *state = gateau_state_new(setup);
        skip_chance(state, &rng);
        int seat = gateau_state_next_seat(state);
        gateau_bot_candidate candidate;
        gateau_bot_analyse(bot, state, seat, &rng, &candidate, 1);
        done += iterations;
        gateau_state_free(state);
        elapsed = now_seconds() - start;
    }
    gateau_bot_free(bot);
    return done / elapsed;
}

/* Plays whole games with spec at every seat; time per move and per
 * decision of the bot. */
static void time_games(const gateau_setup *setup, const char *spec, double seconds,
                       double *ms_per_move, double *us_per_decision, long *moves_out)
{
    char error[256];
    int players = gateau_setup_players(setup);
    gateau_bot *bots[GATEAU_MAX_PLAYERS];
    for (int s = 0; s < players; s++) bots[s] = gateau_bot_new(spec, error, sizeof error);
    gateau_rng rng;
    gateau_rng_seed(&rng, 11);
    long moves = 0, decisions = 0;
    double spent = 0, start = now_seconds();
    while (now_seconds() - start < seconds || moves == 0) {
        gateau_state *state = gateau_state_new(setup);
        while (!gateau_state_is_over(state)) {
            if (gateau_state_is_chance(state)) {
                gateau_state_apply_legal(state, GATEAU_CHANCE, gateau_state_sample_chance(state, &rng));
                continue;
            }
            int seat = gateau_state_next_seat(state);
            gateau_bot_move move;
            double t0 = now_seconds();
            gateau_bot_choose_move(bots[seat], state, seat, &rng, &move);
            spent += now_seconds() - t0;
            moves++;
            decisions += move.count;
            for (int i = 0; i < move.count; i++)
                gateau_state_apply_legal(state, seat, move.actions[i]);
        }
        gateau_state_free(state);
    }
    for (int s = 0; s < players; s++) gateau_bot_free(bots[s]);
    *ms_per_move = spent * 1e3 / moves;
    *us_per_decision = spent * 1e6 / decisions;
    *moves_out = moves;
}

/* The solver on last cakes reached by heuristic play. */
static void time_solver(int players, int games)
{
    gateau_setup *setup = gateau_setup_new(gateau_game_find("piece-o-cake"), players, NULL, NULL,
                                           NULL, 0);
    gateau_bot *heuristic = gateau_bot_new("heuristic", NULL, 0);
    gateau_rng rng;
    gateau_rng_seed(&rng, 99);
    static bot_exact_candidate candidates[GATEAU_MAX_ACTIONS];
    double cut_total = 0, cut_max = 0, choice_total = 0, choice_max = 0;
    int cuts = 0, choices = 0;
    for (int g = 0; g < games; g++) {
        gateau_state *state = gateau_state_new(setup);
        const bot_game *game = bot_game_find(state);
        bool cut_done = false, choice_done = false;
        while (!gateau_state_is_over(state)) {
            if (gateau_state_is_chance(state)) {
                gateau_state_apply_legal(state, GATEAU_CHANCE, gateau_state_sample_chance(state, &rng));
                continue;
            }
            const poc_state *poc = GAME_STATE_CONST(poc_state, state);
            int seat = gateau_state_next_seat(state), count, best;
            bool last = poc->cake == POC_CAKES - 1;
            if (last && poc->phase == POC_PHASE_CUT && !cut_done) {
                cut_done = true;
                double t0 = now_seconds();
                if (game->solve(state, seat, 0, false, candidates, &count, &best)) {
                    double t = now_seconds() - t0;
                    cut_total += t;
                    cut_max = t > cut_max ? t : cut_max;
                    cuts++;
                }
            }
            if (last && poc->phase == POC_PHASE_CHOOSE && !choice_done) {
                choice_done = true;
                double t0 = now_seconds();
                if (game->solve(state, seat, 0, false, candidates, &count, &best)) {
                    double t = now_seconds() - t0;
                    choice_total += t;
                    choice_max = t > choice_max ? t : choice_max;
                    choices++;
                }
            }
            gateau_bot_move move;
            gateau_bot_choose_move(heuristic, state, seat, &rng, &move);
            for (int i = 0; i < move.count; i++)
                gateau_state_apply_legal(state, seat, move.actions[i]);
        }
        gateau_state_free(state);
    }
    printf("piece-o-cake %d players: last cut solved in %.1f ms mean, %.1f ms max (%d cakes); "
           "first choice %.2f ms mean, %.2f ms max\n",
           players, cut_total * 1e3 / (cuts ? cuts : 1), cut_max * 1e3, cuts,
           choice_total * 1e3 / (choices ? choices : 1), choice_max * 1e3);
    fflush(stdout);
    gateau_bot_free(heuristic);
    gateau_setup_free(setup);
}

int main(int argc, char **argv)
{
    const char *only = NULL;
    int only_players = 0;
    double seconds = 2.0;
    const char *spec = "ismcts";
    int solver_games = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--game") && i + 1 < argc) only = argv[++i];
        else if (!strcmp(argv[i], "--players") && i + 1 < argc) only_players = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--spec") && i + 1 < argc) spec = argv[++i];
        else if (!strcmp(argv[i], "--solver") && i + 1 < argc) solver_games = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: gateau_bench_bots [--game NAME] [--players N] [--seconds S] "
                            "[--spec SPEC] [--solver GAMES]\n");
            return 2;
        }
    }
    if (solver_games) {
        for (int p = 2; p <= 5; p++)
            if (!only_players || p == only_players) time_solver(p, solver_games);
        return 0;
    }
    printf("CPU time of one thread; ismcts from the first decision after the deal; ms/move of "
           "%s and us/decision of heuristic over whole games\n", spec);
    printf("%-14s %7s %14s %14s %12s %12s\n", "game", "players", "iters/s rand", "iters/s heur",
           "ms/move", "heur us/dec");
    for (int g = 0; g < gateau_game_count(); g++) {
        const gateau_game *game = gateau_game_at(g);
        if (only && strcmp(only, gateau_game_name(game)) != 0) continue;
        for (int p = gateau_game_min_players(game); p <= gateau_game_max_players(game); p++) {
            if (only_players && p != only_players) continue;
            gateau_setup *setup = gateau_setup_new(game, p, NULL, NULL, NULL, 0);
            if (!setup) continue;
            double random_rate = iterations_per_second(setup, "ismcts:iters=20000:rollout=random",
                                                       20000, seconds);
            double heuristic_rate = iterations_per_second(
                setup, "ismcts:iters=20000:rollout=heuristic", 20000, seconds);
            double ms_move, us_decision, heuristic_ms, heuristic_us;
            long moves, heuristic_moves;
            time_games(setup, spec, seconds, &ms_move, &us_decision, &moves);
            time_games(setup, "heuristic", seconds / 4, &heuristic_ms, &heuristic_us,
                       &heuristic_moves);
            printf("%-14s %7d %14.0f %14.0f %12.1f %12.1f\n", gateau_game_name(game), p,
                   random_rate, heuristic_rate, ms_move, heuristic_us);
            fflush(stdout);
            gateau_setup_free(setup);
        }
    }
    return 0;
}
