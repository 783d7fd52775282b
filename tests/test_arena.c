/*
 * test_arena.c: the arena (gateau/arena.h) and `gateau arena`.
 *
 * - statistics against known values: textbook confidence intervals,
 *   Bradley-Terry on a table built from known strengths, synthetic arenas
 *   (a fair coin, a rigged bot that always wins, shared wins, a bot on
 *   several seats, a strict ranking of three bots);
 * - the seat rotation is balanced;
 * - determinism: 1, 2 and 3 threads give identical games and identical
 *   JSON; an interrupted arena is a prefix of the full one;
 * - records written by the arena replay to the reported results;
 * - the command's outputs (JSON, CSV, plots) and its errors.
 */
#include <math.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gateau/arena.h"
#include "support.h"

/* ---- helpers ---------------------------------------------------------------- */

TestSuite(arena, .init = support_temp_setup, .fini = support_temp_teardown, .timeout = 600);

static char *read_whole(const char *path)
{
    FILE *file = fopen(path, "rb");
    cr_assert_not_null(file, "%s exists", path);
    size_t size = 0, capacity = 4096;
    char *buffer = malloc(capacity);
    size_t got;
    while ((got = fread(buffer + size, 1, capacity - size - 1, file)) > 0) {
        size += got;
        if (capacity - size < 2) buffer = realloc(buffer, capacity *= 2);
    }
    buffer[size] = '\0';
    fclose(file);
    return buffer;
}

#define expect_near(actual, expected, tolerance, ...)                                     \
    cr_expect(fabs((double)(actual) - (double)(expected)) <= (tolerance), __VA_ARGS__)

/* An arena that must be accepted, run to the end. */
static gateau_arena *run_arena(const gateau_setup *setup, const char *const *bots, long games,
                               int threads, uint64_t seed, bool keep_records,
                               const char *record_dir)
{
    char error[512] = "";
    gateau_arena_config config = {.setup = setup, .bots = bots, .games = games,
                                  .threads = threads, .seed = seed,
                                  .keep_records = keep_records, .record_dir = record_dir};
    gateau_arena *arena = gateau_arena_new(&config, error, sizeof error);
    cr_assert_not_null(arena, "arena refused: %s", error);
    bool ok = gateau_arena_run(arena, error, sizeof error);
    cr_assert(ok, "arena failed: %s", error);
    cr_assert_eq(gateau_arena_finished(arena), games);
    cr_assert(!gateau_arena_interrupted(arena));
    return arena;
}

/* The same game, field by field (the record text too when both have one). */
static void expect_same_game(const gateau_arena_game *a, const gateau_arena_game *b,
                             int players, long g)
{
    cr_expect_eq(a->done, b->done, "game %ld done", g);
    for (int s = 0; s < players; s++) {
        cr_expect_eq(a->bot_at_seat[s], b->bot_at_seat[s], "game %ld seat %d bot", g, s);
        cr_expect_eq(a->scores[s], b->scores[s], "game %ld seat %d score", g, s);
    }
    cr_expect_eq(a->winners, b->winners, "game %ld winners", g);
    cr_expect_eq(a->moves, b->moves, "game %ld moves", g);
    cr_expect_eq(a->actions, b->actions, "game %ld actions", g);
    if (a->record && b->record) cr_expect_str_eq(a->record, b->record, "game %ld record", g);
}

/* A synthetic game: the k-th listed bot at seat (k + g) mod players. */
static gateau_arena_game synthetic_game(long g, int players)
{
    gateau_arena_game game = {.done = true, .moves = 10};
    for (int k = 0; k < players; k++)
        game.bot_at_seat[gateau_arena_seat_of(k, g, players)] = (int8_t)k;
    return game;
}

/* The seat of listed bot k in a synthetic game. */
static int seat_of_listed(const gateau_arena_game *game, int players, int k)
{
    for (int s = 0; s < players; s++)
        if (game->bot_at_seat[s] == k) return s;
    cr_assert_fail("listed bot %d sits nowhere", k);
    return -1;
}

/* ---- confidence intervals ------------------------------------------------------- */

Test(arena, wilson_textbook_cases)
{
    /* 50 of 100: 0.5 +- 0.0962 (Wilson 1927; Newcombe 1998, method 3). */
    gateau_interval half = gateau_wilson_interval(50, 100, GATEAU_Z95);
    expect_near(half.low, 0.40383, 1e-4, "50/100 low %f", half.low);
    expect_near(half.high, 0.59617, 1e-4, "50/100 high %f", half.high);
    /* 0 of 10: [0, 0.2775], unlike the normal interval, which collapses. */
    gateau_interval none = gateau_wilson_interval(0, 10, GATEAU_Z95);
    cr_expect_eq(none.low, 0.0);
    expect_near(none.high, 0.27753, 1e-4, "0/10 high %f", none.high);
    /* 10 of 10 mirrors it. */
    gateau_interval all = gateau_wilson_interval(10, 10, GATEAU_Z95);
    expect_near(all.low, 0.72247, 1e-4, "10/10 low %f", all.low);
    cr_expect_eq(all.high, 1.0);
    /* 81 of 263 (Newcombe 1998, example): 0.2553 to 0.3662. */
    gateau_interval newcombe = gateau_wilson_interval(81, 263, GATEAU_Z95);
    expect_near(newcombe.low, 0.2553, 1e-4, "81/263 low %f", newcombe.low);
    expect_near(newcombe.high, 0.3662, 1e-4, "81/263 high %f", newcombe.high);
    /* No trials: no knowledge. */
    gateau_interval empty = gateau_wilson_interval(0, 0, GATEAU_Z95);
    cr_expect_eq(empty.low, 0.0);
    cr_expect_eq(empty.high, 1.0);
}

Test(arena, normal_interval_and_sample_sd)
{
    /* The classic sample 2 4 4 4 5 5 7 9: mean 5, sample sd sqrt(32/7). */
    const double values[] = {2, 4, 4, 4, 5, 5, 7, 9};
    double mean, sd;
    gateau_mean_sd(values, 8, &mean, &sd);
    expect_near(mean, 5.0, 1e-12, "mean %f", mean);
    expect_near(sd, sqrt(32.0 / 7.0), 1e-12, "sd %f", sd);
    gateau_interval interval = gateau_normal_interval(mean, sd, 8, GATEAU_Z95);
    expect_near(interval.low, 3.51839, 1e-4, "low %f", interval.low);
    expect_near(interval.high, 6.48161, 1e-4, "high %f", interval.high);
    gateau_mean_sd(values, 1, &mean, &sd);
    cr_expect_eq(sd, 0.0, "one value has no spread");
}

/* ---- Bradley-Terry ----------------------------------------------------------------- */

Test(arena, bradley_terry_recovers_known_strengths)
{
    /* Wins in exact proportion to strengths 1 : 2 : 4 : 8 make those
     * strengths the maximum-likelihood answer. */
    const double truth[4] = {1, 2, 4, 8};
    const double games[4][4] = {{0, 100, 60, 30}, {100, 0, 90, 50}, {60, 90, 0, 120},
                                {30, 50, 120, 0}};
    double wins[16];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            wins[i * 4 + j] = i == j ? 0 : games[i][j] * truth[i] / (truth[i] + truth[j]);
    double strength[4];
    int iterations = gateau_bradley_terry(4, wins, 0, strength);
    cr_assert_gt(iterations, 0, "converges");
    double geometric = pow(1 * 2 * 4 * 8, 0.25);
    for (int i = 0; i < 4; i++)
        expect_near(strength[i], truth[i] / geometric, 1e-6, "strength %d: %f", i, strength[i]);
    double log_sum = 0;
    for (int i = 0; i < 4; i++) log_sum += log(strength[i]);
    expect_near(log_sum, 0, 1e-9, "geometric mean 1");
}

Test(arena, bradley_terry_two_players_is_the_odds)
{
    /* Two players: the strength ratio is the win ratio, 30 : 10. */
    const double wins[4] = {0, 30, 10, 0};
    double strength[2];
    cr_assert_gt(gateau_bradley_terry(2, wins, 0, strength), 0);
    expect_near(strength[0] / strength[1], 3.0, 1e-9, "ratio %f", strength[0] / strength[1]);
    expect_near(strength[0] * strength[1], 1.0, 1e-9, "geometric mean 1");
}

Test(arena, bradley_terry_prior_keeps_a_winless_player_finite)
{
    /* c never wins: plain maximum likelihood sends it to 0; one virtual
     * draw per pair keeps it finite and last. */
    const double wins[9] = {0, 6, 10, 4, 0, 10, 0, 0, 0};
    double strength[3];
    cr_assert_gt(gateau_bradley_terry(3, wins, 1.0, strength), 0);
    for (int i = 0; i < 3; i++) cr_expect(isfinite(strength[i]) && strength[i] > 0);
    cr_expect_gt(strength[0], strength[1]);
    cr_expect_gt(strength[1], strength[2]);
}

/* ---- statistics on synthetic arenas ----------------------------------------------- */

Test(arena, fair_coin_arena)
{
    enum { GAMES = 4000 };
    const char *specs[2] = {"heads", "tails"};
    gateau_arena_game *games = calloc(GAMES, sizeof *games);
    gateau_rng rng;
    gateau_rng_seed(&rng, 2024);
    for (long g = 0; g < GAMES; g++) {
        games[g] = synthetic_game(g, 2);
        int winner = (int)gateau_rng_below(&rng, 2); /* a fair coin picks the seat */
        games[g].winners = 1u << winner;
        games[g].scores[winner] = 1;
    }
    gateau_arena_stats stats;
    gateau_arena_statistics(games, GAMES, 2, specs, &stats);
    cr_assert_eq(stats.bot_count, 2);
    for (int d = 0; d < 2; d++) {
        const gateau_arena_bot_stats *bot = &stats.bots[d];
        expect_near(bot->win_share, 0.5, 0.03, "%s wins %f", bot->spec, bot->win_share);
        cr_expect(bot->win_interval.low < 0.5 && 0.5 < bot->win_interval.high,
                  "%s: [%f, %f] holds 0.5", bot->spec, bot->win_interval.low,
                  bot->win_interval.high);
        cr_expect_lt(bot->win_interval.high - bot->win_interval.low, 0.04, "n=4000 is narrow");
    }
    expect_near(stats.bots[0].win_share + stats.bots[1].win_share, 1.0, 1e-12, "shares sum to 1");
    for (int s = 0; s < 2; s++)
        cr_expect(stats.seats[s].win_interval.low < 0.5 && 0.5 < stats.seats[s].win_interval.high);
    cr_expect(!stats.has_ratings, "two bots: no ratings");
    free(games);
}

Test(arena, rigged_bot_always_wins)
{
    enum { GAMES = 300 };
    const char *specs[3] = {"fair", "rigged", "fair"};
    gateau_arena_game *games = calloc(GAMES, sizeof *games);
    for (long g = 0; g < GAMES; g++) {
        games[g] = synthetic_game(g, 3);
        int rigged = seat_of_listed(&games[g], 3, 1);
        games[g].winners = 1u << rigged;
        for (int s = 0; s < 3; s++) games[g].scores[s] = s == rigged ? 50 : 10 + s;
        games[g].moves = 20 + (int)(g % 3);
    }
    gateau_arena_stats stats;
    gateau_arena_statistics(games, GAMES, 3, specs, &stats);
    cr_assert_eq(stats.bot_count, 2, "the same spec twice is one bot");
    cr_expect_str_eq(stats.bots[0].spec, "fair");
    cr_expect_eq(stats.bots[0].listed, 2);
    cr_expect_eq(stats.bot_of_listed[2], 0);
    const gateau_arena_bot_stats *rigged = &stats.bots[1], *fair = &stats.bots[0];
    cr_expect_eq(rigged->win_share, 1.0);
    cr_expect_eq(rigged->win_interval.high, 1.0);
    expect_near(rigged->win_interval.low, 0.98735, 1e-4, "Wilson 300/300 low %f",
                rigged->win_interval.low);
    cr_expect_eq(fair->win_share, 0.0);
    cr_expect_eq(fair->win_interval.low, 0.0);
    cr_expect_eq(rigged->score_mean, 50.0);
    cr_expect_eq(rigged->score_sd, 0.0);
    cr_expect_eq(rigged->score_min, 50);
    /* Seats: the rotation spreads the rigged bot evenly: 1/3 each exactly. */
    for (int s = 0; s < 3; s++)
        expect_near(stats.seats[s].win_share, 1.0 / 3, 1e-12, "seat %d", s + 1);
    /* Pairwise: rigged placed above a fair seat twice a game. */
    cr_expect_eq(stats.pairwise[1][0], 2.0 * GAMES);
    cr_expect_eq(stats.pairwise[0][1], 0.0);
    cr_expect_eq(stats.meetings[1][0], 2L * GAMES, "fair holds two seats: two meetings a game");
    cr_expect_eq(stats.meetings[0][1], 2L * GAMES);
    cr_expect_eq(stats.pairwise_share[1][0], 1.0);
    cr_expect_eq(stats.pairwise_share[0][1], 0.0);
    expect_near(stats.moves_mean, 21.0, 1e-12, "moves mean");
    cr_expect_eq(stats.moves_min, 20);
    cr_expect_eq(stats.moves_max, 22);
    expect_near(stats.moves_sd, sqrt(2.0 / 3 * GAMES / (GAMES - 1)), 1e-9, "moves sd %f",
                stats.moves_sd);
    free(games);
}

Test(arena, shared_wins_split)
{
    /* Every game: seats 1 and 2 share the win, seat 3 loses. */
    enum { GAMES = 30 };
    const char *specs[3] = {"a", "b", "c"};
    gateau_arena_game games[GAMES];
    for (long g = 0; g < GAMES; g++) {
        games[g] = synthetic_game(g, 3);
        games[g].winners = 0x3;
        games[g].scores[0] = games[g].scores[1] = 7;
        games[g].scores[2] = 3;
    }
    gateau_arena_stats stats;
    gateau_arena_statistics(games, GAMES, 3, specs, &stats);
    expect_near(stats.seats[0].win_share, 0.5, 1e-12, "seat 1 gets half");
    expect_near(stats.seats[1].win_share, 0.5, 1e-12, "seat 2 gets half");
    cr_expect_eq(stats.seats[2].win_share, 0.0);
    double total = 0;
    for (int d = 0; d < 3; d++) {
        expect_near(stats.bots[d].win_share, 1.0 / 3, 1e-12, "rotated: a third each");
        total += stats.bots[d].win_share;
    }
    expect_near(total, 1.0, 1e-12, "shares sum to 1");
    cr_expect(stats.has_ratings, "three bots: ratings");
    for (int d = 0; d < 3; d++) expect_near(stats.bots[d].rating, 0, 1e-6, "equal ratings");
}

Test(arena, ratings_follow_a_strict_ranking)
{
    /* a always first, b second, c third, whatever the seats. */
    enum { GAMES = 60 };
    const char *specs[3] = {"c", "a", "b"};
    gateau_arena_game games[GAMES];
    for (long g = 0; g < GAMES; g++) {
        games[g] = synthetic_game(g, 3);
        int seat_c = seat_of_listed(&games[g], 3, 0), seat_a = seat_of_listed(&games[g], 3, 1),
            seat_b = seat_of_listed(&games[g], 3, 2);
        games[g].winners = 1u << seat_a;
        games[g].scores[seat_a] = 30;
        games[g].scores[seat_b] = 20;
        games[g].scores[seat_c] = 10;
    }
    gateau_arena_stats stats;
    gateau_arena_statistics(games, GAMES, 3, specs, &stats);
    cr_assert(stats.has_ratings);
    cr_expect_gt(stats.rating_iterations, 0);
    const gateau_arena_bot_stats *c = &stats.bots[0], *a = &stats.bots[1], *b = &stats.bots[2];
    cr_expect_gt(a->rating, b->rating);
    cr_expect_gt(b->rating, c->rating);
    expect_near(a->rating + b->rating + c->rating, 0, 1e-9, "mean 0");
    /* Symmetric table (60 wins each step, one virtual draw per pair): b
     * sits in the middle at exactly 0. */
    expect_near(b->rating, 0, 1e-6, "b at 0: %f", b->rating);
    cr_expect_eq(stats.pairwise[2][0], (double)GAMES, "b above c in every game");
    cr_expect_eq(stats.pairwise[0][2], 0.0);
}

/* The pairwise shares are the counts over the meetings: a wins 13 of 20
 * games, shares 3 and loses 4, so a placed above b 13 + 3/2 times. */
Test(arena, pairwise_shares_come_from_the_counts)
{
    enum { GAMES = 20 };
    const char *specs[2] = {"a", "b"};
    gateau_arena_game games[GAMES];
    for (long g = 0; g < GAMES; g++) {
        games[g] = synthetic_game(g, 2);
        int seat_a = seat_of_listed(&games[g], 2, 0);
        games[g].winners = g < 13 ? 1u << seat_a : g < 16 ? 0x3 : 1u << (1 - seat_a);
    }
    gateau_arena_stats stats;
    gateau_arena_statistics(games, GAMES, 2, specs, &stats);
    cr_expect_eq(stats.pairwise[0][1], 14.5);
    cr_expect_eq(stats.pairwise[1][0], 5.5);
    cr_expect_eq(stats.meetings[0][1], (long)GAMES);
    cr_expect_eq(stats.meetings[1][0], (long)GAMES);
    expect_near(stats.pairwise_share[0][1], 14.5 / 20, 1e-15, "a over b %f",
                stats.pairwise_share[0][1]);
    expect_near(stats.pairwise_share[1][0], 5.5 / 20, 1e-15, "b over a %f",
                stats.pairwise_share[1][0]);
    cr_expect_eq(stats.meetings[0][0], 0L, "no meetings with itself");
    cr_expect_eq(stats.pairwise_share[0][0], 0.0);

    /* Three seats, a on two: a and b meet twice a game, once per seat of a;
     * here a's first listed seat is always placed first, b second, a's
     * other seat last. */
    const char *three[3] = {"a", "b", "a"};
    gateau_arena_game trio[GAMES];
    for (long g = 0; g < GAMES; g++) {
        trio[g] = synthetic_game(g, 3);
        int first = seat_of_listed(&trio[g], 3, 0), second = seat_of_listed(&trio[g], 3, 1),
            last = seat_of_listed(&trio[g], 3, 2);
        trio[g].winners = 1u << first;
        trio[g].scores[first] = 30;
        trio[g].scores[second] = 20;
        trio[g].scores[last] = 10;
    }
    gateau_arena_statistics(trio, GAMES, 3, three, &stats);
    cr_assert_eq(stats.bot_count, 2);
    cr_expect_eq(stats.meetings[0][1], 2L * GAMES);
    cr_expect_eq(stats.pairwise[0][1], (double)GAMES);
    cr_expect_eq(stats.pairwise_share[0][1], 0.5, "a above b in half the meetings");
    cr_expect_eq(stats.pairwise_share[1][0], 0.5);
}

/* ---- the rotation --------------------------------------------------------------------- */

Test(arena, seat_rotation_is_balanced)
{
    for (int players = 2; players <= GATEAU_MAX_PLAYERS; players++) {
        int count[GATEAU_MAX_PLAYERS][GATEAU_MAX_PLAYERS] = {{0}};
        long games = 5L * players;
        for (long g = 0; g < games; g++) {
            bool taken[GATEAU_MAX_PLAYERS] = {false};
            for (int k = 0; k < players; k++) {
                int seat = gateau_arena_seat_of(k, g, players);
                cr_assert(seat >= 0 && seat < players);
                cr_assert(!taken[seat], "one bot per seat");
                taken[seat] = true;
                count[k][seat]++;
            }
        }
        for (int k = 0; k < players; k++)
            for (int s = 0; s < players; s++) cr_expect_eq(count[k][s], 5);
        cr_expect_eq(gateau_arena_seat_of(0, 0, players), 0, "game 1 uses the listed order");
        cr_expect_eq(gateau_arena_seat_of(0, 1, players), 1, "then everyone moves on one seat");
    }
}

/* ---- determinism ------------------------------------------------------------------ */

Test(arena, same_games_for_any_thread_count)
{
    const char *bots[3] = {"random", "random", "random"};
    gateau_setup *setup = support_setup("piece-o-cake", 3, NULL);
    enum { GAMES = 300 };
    gateau_arena *one = run_arena(setup, bots, GAMES, 1, 77, true, NULL);
    gateau_arena *two = run_arena(setup, bots, GAMES, 2, 77, true, NULL);
    gateau_arena *three = run_arena(setup, bots, GAMES, 3, 77, false, NULL);
    const gateau_arena_game *a = gateau_arena_games(one), *b = gateau_arena_games(two),
                            *c = gateau_arena_games(three);
    for (long g = 0; g < GAMES; g++) {
        cr_assert(a[g].done);
        cr_assert_not_null(a[g].record);
        expect_same_game(&a[g], &b[g], 3, g);
        expect_same_game(&a[g], &c[g], 3, g);
        cr_expect_null(c[g].record, "no record unless asked");
    }
    /* Another seed plays other games. */
    gateau_arena *other = run_arena(setup, bots, GAMES, 2, 78, false, NULL);
    int differ = 0;
    for (long g = 0; g < GAMES; g++)
        differ += memcmp(gateau_arena_games(other)[g].scores, a[g].scores, sizeof a[g].scores) != 0;
    cr_expect_gt(differ, GAMES / 2, "seed 78 differs from seed 77");
    gateau_arena_free(one);
    gateau_arena_free(two);
    gateau_arena_free(three);
    gateau_arena_free(other);
    gateau_setup_free(setup);
}

/* Whichever other bots exist (they are added beside random): same games
 * for any thread count, so none keeps anything from game to game or from
 * the scheduling. */
Test(arena, other_bots_are_deterministic_too)
{
    const char *wanted[] = {"heuristic", "heuristic:random=0.3", "ismcts:iters=20", "solver"};
    const char *bots[4] = {"random", "random", "random", "random"};
    int found = 0;
    for (int i = 0; i < 4; i++) {
        gateau_bot *bot = gateau_bot_new(wanted[i], NULL, 0);
        if (!bot) continue;
        gateau_bot_free(bot);
        bots[found++] = wanted[i];
    }
    if (!found) cr_skip_test("no bot but random yet");
    gateau_setup *setup = support_setup("piece-o-cake", 4, NULL);
    gateau_arena *one = run_arena(setup, bots, 6, 1, 5, true, NULL);
    gateau_arena *two = run_arena(setup, bots, 6, 2, 5, true, NULL);
    for (long g = 0; g < 6; g++)
        expect_same_game(&gateau_arena_games(one)[g], &gateau_arena_games(two)[g], 4, g);
    gateau_arena_free(one);
    gateau_arena_free(two);
    gateau_setup_free(setup);
}

Test(arena, every_game_and_player_count_runs)
{
    for (int i = 0; i < gateau_game_count(); i++) {
        const gateau_game *game = gateau_game_at(i);
        for (int p = gateau_game_min_players(game); p <= gateau_game_max_players(game); p++) {
            char error[512] = "";
            gateau_setup *setup = gateau_setup_new(game, p, NULL, NULL, error, sizeof error);
            if (!setup) continue; /* a game that needs an option (a deck file) */
            const char *bots[GATEAU_MAX_PLAYERS];
            for (int s = 0; s < p; s++) bots[s] = "random";
            gateau_arena *x = run_arena(setup, bots, 2L * p, 1, 5, false, NULL);
            gateau_arena *y = run_arena(setup, bots, 2L * p, 2, 5, false, NULL);
            for (long g = 0; g < 2L * p; g++) {
                const gateau_arena_game *r = &gateau_arena_games(x)[g];
                expect_same_game(r, &gateau_arena_games(y)[g], p, g);
                cr_expect_neq(r->winners, 0u, "%s/%d game %ld has a winner",
                              gateau_game_name(game), p, g);
                cr_expect_gt(r->moves, 0);
            }
            gateau_arena_free(x);
            gateau_arena_free(y);
            gateau_setup_free(setup);
        }
    }
}

/* Stops the arena the first time it reports progress; context points to
 * the arena (known only once it is made). */
static void stop_at_once(long finished, long total, double seconds, void *context)
{
    (void)finished, (void)total, (void)seconds;
    gateau_arena_stop(*(gateau_arena **)context);
}

Test(arena, stop_keeps_a_prefix_of_the_full_run)
{
    const char *bots[2] = {"random", "random"};
    gateau_setup *setup = support_setup("piece-o-cake", 2, NULL);
    enum { GAMES = 1000000 }; /* far more than the first progress report sees */
    char error[512] = "";
    gateau_arena *arena = NULL;
    gateau_arena_config config = {.setup = setup, .bots = bots, .games = GAMES, .threads = 2,
                                  .seed = 9, .progress = stop_at_once,
                                  .progress_context = &arena};
    arena = gateau_arena_new(&config, error, sizeof error);
    cr_assert_not_null(arena, "%s", error);
    cr_assert(gateau_arena_run(arena, error, sizeof error), "%s", error);
    cr_assert(gateau_arena_interrupted(arena));
    long finished = gateau_arena_finished(arena);
    cr_assert_lt(finished, GAMES);
    const gateau_arena_game *games = gateau_arena_games(arena);
    for (long g = 0; g < finished; g++) cr_assert(games[g].done);
    for (long g = finished; g < GAMES; g++) cr_assert(!games[g].done, "game %ld dropped", g);
    /* The prefix is what an arena of just those games plays. */
    long check = finished < 400 ? finished : 400;
    if (check > 0) {
        gateau_arena *full = run_arena(setup, bots, check, 1, 9, false, NULL);
        for (long g = 0; g < check; g++) expect_same_game(&games[g], &gateau_arena_games(full)[g], 2, g);
        gateau_arena_free(full);
    }
    gateau_arena_free(arena);
    gateau_setup_free(setup);
}

Test(arena, arena_refuses_bad_configurations)
{
    gateau_setup *setup = support_setup("piece-o-cake", 3, NULL);
    const char *good[3] = {"random", "random", "random"};
    const char *unknown[3] = {"random", "nobody", "random"};
    char error[512];
    gateau_arena_config config = {.setup = setup, .bots = unknown, .games = 10, .threads = 1};
    cr_expect_null(gateau_arena_new(&config, error, sizeof error));
    cr_expect(strstr(error, "seat 2") && strstr(error, "nobody"), "%s", error);
    config.bots = good;
    config.games = 0;
    cr_expect_null(gateau_arena_new(&config, error, sizeof error));
    cr_expect(strstr(error, "positive"), "%s", error);
    config.games = 10;
    config.threads = 0;
    cr_expect_null(gateau_arena_new(&config, error, sizeof error));
    cr_expect(strstr(error, "threads"), "%s", error);
    config.threads = 2;
    gateau_arena *arena = gateau_arena_new(&config, error, sizeof error);
    cr_assert_not_null(arena, "%s", error);
    cr_assert(gateau_arena_run(arena, error, sizeof error));
    cr_expect(!gateau_arena_run(arena, error, sizeof error), "an arena runs once");
    gateau_arena_free(arena);
    gateau_setup_free(setup);
}

/* ---- records ----------------------------------------------------------------------- */

Test(arena, records_replay_to_the_reported_results)
{
    const char *bots[4] = {"random", "random", "random", "random"};
    gateau_setup *setup = support_setup("piece-o-cake", 4, "rounds=2");
    enum { GAMES = 24 };
    const char *dir = support_temp_path("records");
    cr_assert_eq(mkdir(dir, 0777), 0);
    gateau_arena *arena = run_arena(setup, bots, GAMES, 2, 31, true, dir);
    const gateau_arena_game *games = gateau_arena_games(arena);
    for (long g = 0; g < GAMES; g++) {
        char path[512];
        snprintf(path, sizeof path, "%s/game-%06ld.txt", dir, g + 1);
        char error[512] = "";
        int line = 0;
        gateau_record *record = gateau_record_read_file(path, error, sizeof error, &line);
        cr_assert_not_null(record, "%s:%d: %s", path, line, error);
        const gateau_state *state = gateau_record_state(record);
        cr_expect(gateau_state_is_over(state), "game %ld is complete", g + 1);
        int scores[GATEAU_MAX_PLAYERS];
        gateau_state_scores(state, scores);
        for (int s = 0; s < 4; s++) cr_expect_eq(scores[s], games[g].scores[s]);
        cr_expect_eq(gateau_state_winners(state), games[g].winners);
        cr_expect_eq(gateau_record_move_count(record), games[g].moves);
        cr_expect_str_eq(gateau_setup_options_text(gateau_record_setup(record)), "rounds=2");
        cr_expect_str_eq(gateau_record_name(record, 0), "random");
        char *file_text = read_whole(path);
        cr_expect_str_eq(file_text, games[g].record, "the file is the kept record");
        free(file_text);
        gateau_record_free(record);
    }
    char extra[512];
    snprintf(extra, sizeof extra, "%s/game-%06d.txt", dir, GAMES + 1);
    cr_expect_neq(access(extra, F_OK), 0, "no more records than games");
    gateau_arena_free(arena);
    gateau_setup_free(setup);
}

/* ---- the command ---------------------------------------------------------------------- */

static json_t *load_json(const char *path)
{
    json_error_t error;
    json_t *json = json_load_file(path, 0, &error);
    cr_assert_not_null(json, "%s: %s", path, error.text);
    return json;
}

Test(arena, command_json_is_the_same_for_any_thread_count)
{
    char *texts[3];
    for (int t = 1; t <= 3; t++) {
        char name[32];
        snprintf(name, sizeof name, "t%d.json", t);
        free(support_run_expect(0, "arena piece-o-cake --players 3 --seats random,random,random "
                                   "--games 90 --seed 12 --threads %d --json %s", t,
                                support_temp_path(name)));
        texts[t - 1] = read_whole(support_temp_path(name));
    }
    cr_expect_str_eq(texts[0], texts[1], "1 and 2 threads");
    cr_expect_str_eq(texts[0], texts[2], "1 and 3 threads");
    for (int t = 0; t < 3; t++) free(texts[t]);
}

/* A host that ran an arena itself gets the command's --json and --csv bytes
 * from the library (gateau_arena_json, gateau_arena_csv). */
Test(arena, library_reports_are_the_command_files)
{
    const char *json_path = support_temp_path("cli.json"), *csv_path = support_temp_path("cli.csv");
    free(support_run_expect(0, "arena piece-o-cake --players 3 "
                               "--seats heuristic,random,ismcts:iters=20 --games 12 --seed 7 "
                               "--threads 2 --json %s --csv %s", json_path, csv_path));
    char error[512];
    gateau_setup *setup = gateau_setup_new(gateau_game_find("piece-o-cake"), 3, "", NULL, error,
                                           sizeof error);
    cr_assert_not_null(setup, "%s", error);
    const char *bots[3] = {"heuristic", "random", "ismcts:iters=20"};
    gateau_arena_config config = {.setup = setup, .bots = bots, .games = 12, .threads = 1,
                                  .seed = 7};
    gateau_arena *arena = gateau_arena_new(&config, error, sizeof error);
    cr_assert_not_null(arena, "%s", error);
    cr_assert(gateau_arena_run(arena, error, sizeof error), "%s", error);
    char *json = gateau_arena_json(arena, &config), *csv = gateau_arena_csv(arena, &config);
    char *expected_json = read_whole(json_path), *expected_csv = read_whole(csv_path);
    cr_expect_str_eq(json, expected_json);
    cr_expect_str_eq(csv, expected_csv);
    cr_expect(strstr(json, "\"ratings\""), "three bots: ratings");
    free(json), free(csv), free(expected_json), free(expected_csv);
    gateau_arena_free(arena);
    gateau_setup_free(setup);
}

Test(arena, command_report_json_csv_and_records)
{
    const char *json_path = support_temp_path("out.json"), *csv_path = support_temp_path("out.csv"),
               *dir = support_temp_path("games");
    char *out = support_run_expect(0, "arena piece-o-cake --players 2 --seats random,random "
                                      "--games 40 --seed 3 --threads 2 --json %s --csv %s "
                                      "--records %s",
                                   json_path, csv_path, dir);
    cr_expect(strstr(out, "win share"), "%s", out);
    cr_expect(strstr(out, "95% interval"), "%s", out);
    cr_expect(strstr(out, "Seats"), "%s", out);
    cr_expect(strstr(out, "Game length"), "%s", out);
    cr_expect(strstr(out, "one bot"), "a shared spec is explained:\n%s", out);
    cr_expect(!strstr(out, "ETA"), "no progress bar off a terminal:\n%s", out);
    free(out);

    json_t *report = load_json(json_path);
    cr_expect_eq(json_integer_value(json_object_get(report, "games")), 40);
    cr_expect(json_is_false(json_object_get(report, "interrupted")));
    json_t *bot = json_array_get(json_object_get(report, "bots"), 0);
    cr_expect_str_eq(json_string_value(json_object_get(bot, "bot")), "random");
    cr_expect_eq(json_integer_value(json_object_get(bot, "seats")), 2);
    double win_share = json_real_value(json_object_get(bot, "win_share"));
    expect_near(win_share, 0.5, 1e-12, "one bot on both seats gets 1/2");
    cr_expect_eq(json_array_size(json_object_get(report, "seats")), 2);

    /* The CSV holds the same numbers. */
    char *csv = read_whole(csv_path);
    cr_expect(!strncmp(csv, "section,subject,statistic,value\n", 32), "%s", csv);
    const char *row = strstr(csv, "bot,\"random\",win_share,");
    cr_assert_not_null(row, "%s", csv);
    expect_near(strtod(row + strlen("bot,\"random\",win_share,"), NULL), win_share, 1e-15,
                "CSV and JSON agree");
    double seat_share = json_real_value(
        json_object_get(json_array_get(json_object_get(report, "seats"), 1), "win_share"));
    row = strstr(csv, "seat,2,win_share,");
    cr_assert_not_null(row);
    expect_near(strtod(row + strlen("seat,2,win_share,"), NULL), seat_share, 1e-15, "seat 2");
    free(csv);
    json_decref(report);

    /* Every game's record replays with `gateau replay`. */
    for (int g = 1; g <= 40; g += 13) {
        char path[512];
        snprintf(path, sizeof path, "%s/game-%06d.txt", dir, g);
        char *replayed = support_run_expect(0, "replay %s --json", path);
        json_t *result = json_loads(replayed, 0, NULL);
        cr_assert_not_null(result, "%s", replayed);
        cr_expect(json_is_true(json_object_get(result, "terminal")));
        json_decref(result);
        free(replayed);
    }
}

Test(arena, command_ratings_with_three_bots_and_plots)
{
    /* Three distinct specs need three bots; `random` is the only one sure
     * to exist, so ratings are checked on synthetic games above and here
     * only the plots and the table of one bot are drawn. */
    const char *png = support_temp_path("plot.png"), *svg = support_temp_path("plot.SVG");
    free(support_run_expect(0, "arena piece-o-cake --players 3 --seats random,random,random "
                               "--games 30 "
                               "--seed 1 --threads 1 --plot %s", png));
    free(support_run_expect(0, "arena piece-o-cake --players 3 --seats random,random,random "
                               "--games 30 "
                               "--seed 1 --threads 1 --plot %s", svg));
    char *image = read_whole(png);
    cr_expect(!memcmp(image, "\x89PNG\r\n\x1a\n", 8), "a PNG file");
    free(image);
    char *vector = read_whole(svg);
    cr_expect(strstr(vector, "<svg"), "an SVG file");
    free(vector);
}

/* The pairwise lines of a report, "A  over  B  P%  (X of N)", against the
 * JSON's counts: X how often A placed above B, N their meetings, and P the
 * percentage X / N rounded to a tenth.  Returns the lines checked. */
static int expect_pairwise_lines(const char *out, json_t *report)
{
    const char *section =
        strstr(out, "\nPairwise: how often the first bot placed above the second");
    cr_assert_not_null(section, "a pairwise section:\n%s", out);
    json_t *bots = json_object_get(report, "bots");
    int lines = 0;
    for (const char *line = strchr(section + 1, '\n') + 1; !strncmp(line, "  ", 2);
         line = strchr(line, '\n') + 1) {
        char first[64], second[64];
        double percent, placings;
        long meetings;
        if (sscanf(line, " %63s over %63s %lf%% (%lf of %ld)", first, second, &percent,
                   &placings, &meetings) != 5)
            break; /* the note under the lines */
        json_t *bot = NULL;
        for (size_t d = 0; d < json_array_size(bots); d++) {
            json_t *candidate = json_array_get(bots, d);
            if (!strcmp(json_string_value(json_object_get(candidate, "bot")), first)) bot = candidate;
        }
        cr_assert_not_null(bot, "%s is a bot of the report", first);
        double counted = json_real_value(json_object_get(json_object_get(bot, "placed_above"), second));
        json_int_t met = json_integer_value(json_object_get(json_object_get(bot, "meetings"), second));
        double share =
            json_real_value(json_object_get(json_object_get(bot, "placed_above_share"), second));
        expect_near(placings, counted, 1e-9, "%s over %s: %g placings, JSON %g", first, second,
                    placings, counted);
        cr_expect_eq(meetings, (long)met, "%s over %s: %ld meetings, JSON %lld", first, second,
                     meetings, (long long)met);
        cr_expect_gt(meetings, 0);
        expect_near(percent, round(1000.0 * counted / (double)met) / 10, 1e-9,
                    "%s over %s: %.1f%% is %g of %lld", first, second, percent, counted,
                    (long long)met);
        expect_near(share, counted / (double)met, 1e-12, "the JSON's share is its counts'");
        lines++;
    }
    return lines;
}

Test(arena, command_pairwise_shares_match_the_counts)
{
    /* Three bots, each on one seat: one meeting per pair and game. */
    const char *json_path = support_temp_path("pairs.json");
    char *out = support_run_expect(0, "arena piece-o-cake --players 3 --seats heuristic,random,"
                                      "ismcts:iters=20 --games 30 --seed 7 --threads 2 --json %s",
                                   json_path);
    json_t *report = load_json(json_path);
    cr_expect_eq(expect_pairwise_lines(out, report), 3, "one line per pair:\n%s", out);
    cr_expect(strstr(out, " of 30)"), "out of 30 games:\n%s", out);
    cr_expect(!strstr(out, "meets another"), "no note when every pair meets once a game");
    /* The pairwise section fits in 80 columns. */
    const char *pairwise = strstr(out, "\nPairwise"), *ratings = strstr(out, "\nRatings");
    cr_assert(pairwise && ratings);
    for (const char *line = pairwise + 1; line < ratings; line = strchr(line, '\n') + 1) {
        size_t length = (size_t)(strchr(line, '\n') - line);
        cr_expect_leq(length, 80, "a line of %zu columns: %.*s", length, (int)length, line);
    }
    json_decref(report);
    free(out);

    /* random on two seats: it meets heuristic twice a game, and the report
     * says why the count is not the games. */
    out = support_run_expect(0, "arena piece-o-cake --players 3 --seats random,heuristic,random "
                                "--games 24 --seed 5 --threads 2 --json %s", json_path);
    report = load_json(json_path);
    cr_expect_eq(expect_pairwise_lines(out, report), 1, "%s", out);
    cr_expect(strstr(out, " of 48)"), "2 x 24 meetings:\n%s", out);
    cr_expect(strstr(out, "meets another once per game"), "%s", out);
    json_decref(report);
    free(out);

    /* The CSV has the same shares and meetings. */
    const char *csv_path = support_temp_path("pairs.csv");
    free(support_run_expect(0, "arena piece-o-cake --players 2 --seats heuristic,random --games 10 "
                               "--seed 1 --threads 1 --csv %s --json %s", csv_path, json_path));
    report = load_json(json_path);
    json_t *heuristic = json_array_get(json_object_get(report, "bots"), 0);
    char *csv = read_whole(csv_path);
    const char *key = "bot,\"heuristic\",placed_above_share:random,";
    const char *row = strstr(csv, key);
    cr_assert_not_null(row, "%s", csv);
    json_t *shares = json_object_get(heuristic, "placed_above_share");
    double share = json_real_value(json_object_get(shares, "random"));
    expect_near(strtod(row + strlen(key), NULL), share, 1e-15, "CSV and JSON shares agree");
    row = strstr(csv, "bot,\"random\",meetings:heuristic,10\n");
    cr_expect_not_null(row, "10 meetings in 10 games:\n%s", csv);
    free(csv);
    json_decref(report);
}

/* The numbers after `key` in an SVG's description. */
static double described(const char *svg, const char *key)
{
    const char *at = strstr(svg, key);
    cr_assert_not_null(at, "'%s' in the plot's description", key);
    return strtod(at + strlen(key), NULL);
}

/* The plot states what it draws in the SVG's <desc>: the mean scores as
 * labelled, and axes that hold the data with little room to spare. */
Test(arena, command_plot_labels_the_means_and_fits_its_axes)
{
    /* Mice Cake's scores lie far from 0 (about 20 to 150), so an axis
     * that kept 0 in view would show. */
    enum { GAMES = 200 };
    const char *json_path = support_temp_path("plot.json");
    const char *svg_path = support_temp_path("plot.svg");
    free(support_run_expect(0, "arena mice-cake --players 2 --seats heuristic,random --games %d "
                               "--seed 2 --threads 2 --json %s --plot %s", GAMES, json_path,
                               svg_path));
    json_t *report = load_json(json_path);
    char *svg = read_whole(svg_path);
    cr_expect(strstr(svg, "<title>Mice Cake, 2 players, 200 games</title>"), "the title");
    const char *description = strstr(svg, "<desc>");
    cr_assert_not_null(description, "a description");

    /* Each bot's mean score, labelled with one decimal. */
    json_t *bots = json_object_get(report, "bots");
    int low = 0, high = 0;
    for (size_t d = 0; d < json_array_size(bots); d++) {
        json_t *bot = json_array_get(bots, d);
        char label[128];
        snprintf(label, sizeof label, "%s %.1f", json_string_value(json_object_get(bot, "bot")),
                 json_real_value(json_object_get(bot, "score_mean")));
        const char *means = strstr(description, "Mean score (dashed lines, labelled):");
        cr_assert_not_null(means, "%s", description);
        cr_expect(strstr(means, label) && strstr(means, label) < strchr(means, '\n'),
                  "the mean label '%s' in: %.200s", label, means);
        int bot_low = (int)json_integer_value(json_object_get(bot, "score_min")),
            bot_high = (int)json_integer_value(json_object_get(bot, "score_max"));
        if (d == 0 || bot_low < low) low = bot_low;
        if (d == 0 || bot_high > high) high = bot_high;
    }
    cr_assert_gt(low, 5, "scores away from 0 (lowest %d)", low);

    /* The score axis: from under the lowest score to over the highest, by
     * at most a bin and a few percent of the span. */
    double from = described(description, "score axis from "),
           to = described(strstr(description, "score axis from "), " to ");
    double width = described(description, "per bin of ");
    double span = to - from;
    cr_expect_leq(from, low - 0.5, "axis from %g, lowest score %d", from, low);
    cr_expect_geq(to, high + 0.5, "axis to %g, highest score %d", to, high);
    cr_expect_geq(from, low - width - 0.04 * span, "axis from %g: too low for %d", from, low);
    cr_expect_leq(to, high + width + 0.04 * span, "axis to %g: too high for %d", to, high);
    /* Bins that smooth: over the data, at most 4 cbrt(n) of them for the
     * n = 200 scores of a bot (Rice's rule gives 2 cbrt(n), Freedman and
     * Diaconis's about as many for a bell), and at least 6. */
    double bins = (high - low + 1) / width;
    cr_expect(bins >= 6 && bins <= 4 * cbrt(GAMES), "%g bins of %g points", bins, width);
    double peak = described(description, "share axis from 0 to ");
    cr_expect(peak > 0 && peak < 0.5, "the share axis ends at %g, near the tallest bin", peak);

    /* The win share axes hold every interval and the fair share, and not
     * much more (7% room each side). */
    const char *panels[2] = {"Win share per bot", "Win share per seat"};
    for (int i = 0; i < 2; i++) {
        const char *panel = strstr(description, panels[i]);
        cr_assert_not_null(panel, "%s", description);
        double fair = described(panel, "fair share ");
        double axis_from = described(panel, "axis from ");
        double axis_to = described(strstr(panel, "axis from "), " to ");
        double lowest = fair, highest = fair;
        for (const char *at = strchr(panel, '['); at && at < strchr(panel, '\n');
             at = strchr(at + 1, '[')) {
            double interval_low, interval_high;
            cr_assert_eq(sscanf(at, "[%lf, %lf]", &interval_low, &interval_high), 2);
            lowest = fmin(lowest, interval_low);
            highest = fmax(highest, interval_high);
        }
        cr_expect(axis_from < lowest && axis_to > highest, "%s: axis %g to %g holds %g to %g",
                  panels[i], axis_from, axis_to, lowest, highest);
        cr_expect_leq(axis_to - axis_from, 1.15 * (highest - lowest) + 1e-9,
                      "%s: axis %g to %g for %g to %g", panels[i], axis_from, axis_to, lowest,
                      highest);
    }
    free(svg);
    json_decref(report);
}

/* Marie's Table scores mostly lie five points apart: bins of single points
 * would draw a comb, so the bins hold whole steps of five. */
Test(arena, command_plot_bins_follow_the_scores_step)
{
    const char *svg_path = support_temp_path("step.svg");
    free(support_run_expect(0, "arena maries-table --players 4 --seats random,random,random,random "
                               "--games 60 --seed 2 --threads 2 --plot %s", svg_path));
    char *svg = read_whole(svg_path);
    double width = described(svg, "per bin of ");
    cr_expect(width >= 5 && fmod(width, 5) == 0, "bins of %g points", width);
    cr_expect(strstr(svg, "(most scores lie 5 apart)"), "the step is found");
    free(svg);
}

Test(arena, command_errors)
{
    struct {
        const char *arguments;
        int status;
        const char *fragment;
    } cases[] = {
        {"arena piece-o-cake --players 3 --seats random,nobody,random --games 5", 1,
         "unknown bot 'nobody'"},
        {"arena piece-o-cake --players 3 --seats random,random --games 5", 2,
         "names 2 seats for 3 players"},
        {"arena piece-o-cake --players 2 --seats random,random --games 0", 2, "--games"},
        {"arena piece-o-cake --players 2 --seats random,random --games -4", 2, "--games"},
        {"arena piece-o-cake --players 2 --seats random,random", 2, "--games"},
        {"arena piece-o-cake --players 2 --seats random,random --games 5 --threads 0", 2,
         "--threads"},
        {"arena piece-o-cake --players 2 --seats random,random --games 5 --threads many", 2,
         "--threads"},
        {"arena no-such-game --players 2 --seats random,random --games 5", 1, "unknown game"},
        {"arena piece-o-cake --players 7 --seats random,random,random,random,random,random,"
         "random --games 5", 2, "more than 6 seats"},
        {"arena piece-o-cake --players 6 --seats random,random,random,random,random,random "
         "--games 5", 1, "players"},
        {"arena mice-cake --players 3 --seats random,random,random --games 5", 1, "players"},
        {"arena piece-o-cake --players 2 --seats random,random --games 5 --options nope=1", 1,
         "nope"},
        {"arena piece-o-cake --players 2 --seats random,random --games 5 --json "
         "/nonexistent/dir/out.json", 1, "cannot write"},
        {"arena piece-o-cake --players 2 --seats random,random --games 5 --csv "
         "/nonexistent/dir/out.csv", 1, "cannot write"},
        {"arena piece-o-cake --players 2 --seats random,random --games 5 --plot "
         "/nonexistent/dir/out.png", 1, "cannot write"},
        {"arena piece-o-cake --players 2 --seats random,random --games 5 --plot out.pdf", 1,
         ".png or .svg"},
        {"arena piece-o-cake --players 2 --seats random,random --games 5 --records "
         "/nonexistent/dir/games", 1, "cannot create"},
        {"arena piece-o-cake --players 2 --seats random,random --games 5 --bogus 1", 2,
         "unknown option"},
        {"arena piece-o-cake --players 2 --seats random,random --games 5 --json", 2,
         "needs a value"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        support_expect_error(cases[i].arguments, cases[i].status, cases[i].fragment);
}

Test(arena, command_ctrl_c_reports_the_games_so_far)
{
    const char *binary = getenv("GATEAU_BINARY");
    cr_assert_not_null(binary);
    const char *json_path = support_temp_path("stopped.json"), *out_path = support_temp_path("stopped.txt");
    char command[2048];
    /* A long arena, interrupted after a second. */
    snprintf(command, sizeof command,
             "%s arena piece-o-cake --players 2 --seats random,random --games 1000000 "
             "--seed 4 --threads 2 --json %s > %s 2>&1 & pid=$!; sleep 1; kill -INT $pid; "
             "wait $pid",
             binary, json_path, out_path);
    int status = system(command);
    cr_assert(WIFEXITED(status));
    cr_expect_eq(WEXITSTATUS(status), 130, "interrupted: status 130");
    char *out = read_whole(out_path);
    cr_expect(strstr(out, "Interrupted: the report covers games 1 to "), "%s", out);
    cr_expect(strstr(out, "Seats"), "the report follows:\n%s", out);
    free(out);
    json_t *report = load_json(json_path);
    cr_expect(json_is_true(json_object_get(report, "interrupted")));
    json_int_t games = json_integer_value(json_object_get(report, "games"));
    cr_expect(games > 0 && games < 1000000, "%lld games", (long long)games);
    json_decref(report);
}
