/*
 * test_core.c: the engine core through the public API: the random
 * generator, the registry, setups and their options, states (who acts,
 * refusals), which lines a viewer may read, and records (reading,
 * writing, undo, resume); and, inside the library, the JSON writer of the
 * views.
 *
 * The game-specific rules are tested in each game's own file; here
 * piece-o-cake only serves as the registered game the core runs.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/engine.h"     /* a game table without move_visible */
#include "core/json_write.h" /* internal: the views' JSON writer */
#include "support.h"

/* A valid piece-o-cake deal: every variety's slices in a row. */
#define DEAL "deal PPPAAAARRRRRBBBBBBBKKKKKKKKGGGGGGGGGSSSSSSSSSSCCCCCCCCCCC"

static const gateau_game *poc(void)
{
    const gateau_game *game = gateau_game_find("piece-o-cake");
    cr_assert_not_null(game, "piece-o-cake is registered");
    return game;
}

/* gateau_setup_new that must fail: returns the error text (static). */
static const char *setup_error(int players, const char *options)
{
    static char error[512];
    strcpy(error, "");
    gateau_setup *setup = gateau_setup_new(poc(), players, options, NULL, error, sizeof error);
    cr_assert_null(setup, "setup with %d players and options '%s' should be refused", players,
                   options ? options : "(null)");
    cr_assert(error[0], "a refused setup says why");
    cr_assert_null(strchr(error, '\n'), "the reason is one line: '%s'", error);
    return error;
}

static void expect_contains(const char *text, const char *fragment)
{
    cr_expect_not_null(strstr(text, fragment), "'%s' should mention '%s'", text, fragment);
}

/* gateau_record_read that must fail: returns the line, error into error. */
static int read_refused(const char *text, char *error, size_t size)
{
    int line = -1;
    error[0] = '\0';
    gateau_record *record = gateau_record_read(text, NULL, error, size, &line);
    cr_assert_null(record, "record should be refused:\n%s", text);
    cr_assert(error[0], "a refused record says why");
    cr_assert_null(strchr(error, '\n'), "the reason is one line: '%s'", error);
    return line;
}

static bool same_state(const gateau_state *a, const gateau_state *b)
{
    size_t size = gateau_state_size(gateau_state_setup(a));
    return gateau_state_setup(a) == gateau_state_setup(b) && memcmp(a, b, size) == 0;
}

static char *observer_view(const gateau_state *state)
{
    return gateau_state_view_json(state, GATEAU_OBSERVER);
}

/* Plays random legal actions until `moves` moves are complete (or the
 * game ends). */
static void play_moves(gateau_record *record, int moves, gateau_rng *rng)
{
    const gateau_state *state = gateau_record_state(record);
    gateau_action actions[GATEAU_MAX_ACTIONS];
    while (gateau_record_move_count(record) < moves && !gateau_state_is_over(state)) {
        if (gateau_state_is_chance(state)) {
            gateau_record_play_chance(record, rng);
            continue;
        }
        int seat = gateau_state_next_seat(state);
        int count = gateau_state_legal_actions(state, seat, actions);
        cr_assert_gt(count, 0);
        char error[256] = "";
        cr_assert(gateau_record_play(record, seat, actions[gateau_rng_below(rng, (uint32_t)count)],
                                     error, sizeof error),
                  "legal action refused: %s", error);
    }
}

/* ==== rng ================================================================= */

/* The reference values come from an independent implementation of
 * splitmix64 seeding + xoshiro256** (the published algorithms). */
Test(rng, first_outputs_are_pinned)
{
    static const struct {
        uint64_t seed;
        uint64_t first[4];
    } cases[] = {
        {0, {0x99ec5f36cb75f2b4ULL, 0xbf6e1f784956452aULL, 0x1a5f849d4933e6e0ULL,
             0x6aa594f1262d2d2cULL}},
        {1, {0xb3f2af6d0fc710c5ULL, 0x853b559647364ceaULL, 0x92f89756082a4514ULL,
             0x642e1c7bc266a3a7ULL}},
        {12345, {0xbe6a36374160d49bULL, 0x214aaa0637a688c6ULL, 0xf69d16de9954d388ULL,
                 0x0c60048c4e96e033ULL}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        gateau_rng rng;
        gateau_rng_seed(&rng, cases[c].seed);
        for (int i = 0; i < 4; i++) {
            uint64_t got = gateau_rng_next(&rng);
            cr_expect_eq(got, cases[c].first[i], "seed %llu output %d: %016llx, expected %016llx",
                         (unsigned long long)cases[c].seed, i, (unsigned long long)got,
                         (unsigned long long)cases[c].first[i]);
        }
    }
}

Test(rng, same_seed_same_sequence)
{
    gateau_rng a, b;
    gateau_rng_seed(&a, 987654321);
    gateau_rng_seed(&b, 987654321);
    for (int i = 0; i < 10000; i++) cr_assert_eq(gateau_rng_next(&a), gateau_rng_next(&b));
    for (int i = 0; i < 1000; i++)
        cr_assert_eq(gateau_rng_below(&a, 1000 + (uint32_t)i),
                     gateau_rng_below(&b, 1000 + (uint32_t)i));
    /* Reseeding starts over. */
    gateau_rng_seed(&a, 42);
    uint64_t first = gateau_rng_next(&a);
    gateau_rng_seed(&a, 42);
    cr_assert_eq(gateau_rng_next(&a), first);
    /* A copy of a generator continues identically (the state is the struct). */
    gateau_rng copy = a;
    for (int i = 0; i < 100; i++) cr_assert_eq(gateau_rng_next(&a), gateau_rng_next(&copy));
}

Test(rng, different_seeds_differ)
{
    gateau_rng a, b;
    gateau_rng_seed(&a, 1);
    gateau_rng_seed(&b, 2);
    int same = 0;
    for (int i = 0; i < 1000; i++) same += gateau_rng_next(&a) == gateau_rng_next(&b);
    cr_assert_eq(same, 0);
}

Test(rng, streams_differ)
{
    /* Neighbouring streams of one seed, and a stream against the plain seed. */
    enum { STREAMS = 64, DRAWS = 16 };
    uint64_t first[STREAMS][DRAWS];
    for (int s = 0; s < STREAMS; s++) {
        gateau_rng rng;
        gateau_rng_seed_stream(&rng, 7, (uint64_t)s);
        for (int i = 0; i < DRAWS; i++) first[s][i] = gateau_rng_next(&rng);
    }
    for (int s = 0; s < STREAMS; s++)
        for (int t = s + 1; t < STREAMS; t++)
            for (int i = 0; i < DRAWS; i++)
                cr_assert_neq(first[s][i], first[t][i], "streams %d and %d share output %d", s,
                              t, i);
    gateau_rng plain;
    gateau_rng_seed(&plain, 7);
    cr_assert_neq(gateau_rng_next(&plain), first[0][0], "stream 0 is not the plain seed");
    /* (seed, stream) and (stream, seed) are different generators too. */
    gateau_rng a, b;
    gateau_rng_seed_stream(&a, 3, 5);
    gateau_rng_seed_stream(&b, 5, 3);
    cr_assert_neq(gateau_rng_next(&a), gateau_rng_next(&b));
    /* Streams are deterministic. */
    gateau_rng again;
    gateau_rng_seed_stream(&again, 7, 9);
    cr_assert_eq(gateau_rng_next(&again), first[9][0]);
}

Test(rng, below_stays_in_range)
{
    static const uint32_t bounds[] = {1,          2,          3,          5,
                                      7,          10,         11,         57,
                                      100,        1000,       65536,      65537,
                                      0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe,
                                      0xffffffff};
    gateau_rng rng;
    gateau_rng_seed(&rng, 2024);
    for (size_t b = 0; b < sizeof bounds / sizeof bounds[0]; b++) {
        uint32_t largest = 0;
        for (int i = 0; i < 20000; i++) {
            uint32_t value = gateau_rng_below(&rng, bounds[b]);
            cr_assert_lt(value, bounds[b], "below(%u) gave %u", bounds[b], value);
            if (value > largest) largest = value;
        }
        if (bounds[b] == 1) cr_assert_eq(largest, 0);
        /* Large bounds reach their upper half. */
        if (bounds[b] >= 2) cr_assert_geq(largest, bounds[b] / 2, "below(%u) never reached the "
                                          "upper half", bounds[b]);
    }
}

static double chi_square_below(uint32_t bound, int draws, uint64_t seed)
{
    gateau_rng rng;
    gateau_rng_seed(&rng, seed);
    int counts[64] = {0};
    cr_assert_leq(bound, 64);
    for (int i = 0; i < draws; i++) counts[gateau_rng_below(&rng, bound)]++;
    double expected = (double)draws / bound, chi = 0;
    for (uint32_t k = 0; k < bound; k++) {
        cr_assert_gt(counts[k], 0, "value %u of below(%u) never drawn", k, bound);
        chi += (counts[k] - expected) * (counts[k] - expected) / expected;
    }
    return chi;
}

Test(rng, below_is_roughly_uniform)
{
    /* 60,000 draws; the bounds are generous: for k-1 degrees of freedom
     * the chi-square stays far below these except with a chance well under
     * one in a million. */
    static const struct {
        uint32_t bound;
        double limit;
    } cases[] = {{2, 30}, {3, 35}, {6, 45}, {7, 48}, {10, 55}, {11, 57}, {57, 140}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        double chi = chi_square_below(cases[c].bound, 60000, 77 + c);
        cr_expect_lt(chi, cases[c].limit, "below(%u): chi-square %.1f", cases[c].bound, chi);
    }
}

Test(rng, unit_in_range_and_mean)
{
    gateau_rng rng;
    gateau_rng_seed(&rng, 5);
    double sum = 0;
    for (int i = 0; i < 60000; i++) {
        double u = gateau_rng_unit(&rng);
        cr_assert(u >= 0.0 && u < 1.0, "unit() gave %f", u);
        sum += u;
    }
    cr_expect(fabs(sum / 60000 - 0.5) < 0.01, "mean %f", sum / 60000);
}

/* ==== registry ============================================================= */

Test(registry, find_by_name)
{
    const gateau_game *game = gateau_game_find("piece-o-cake");
    cr_assert_not_null(game);
    cr_assert_str_eq(gateau_game_name(game), "piece-o-cake");
    cr_assert_str_eq(gateau_game_title(game), "piece o' Cake");
    cr_assert(strlen(gateau_game_summary(game)) > 100, "a summary of the rules");
    cr_assert_eq(gateau_game_min_players(game), 2);
    cr_assert_eq(gateau_game_max_players(game), 5);
    cr_assert_eq(gateau_game_option_count(game), 1);
    const gateau_option_info *rounds = gateau_game_option(game, 0);
    cr_assert_not_null(rounds);
    cr_assert_str_eq(rounds->name, "rounds");
    cr_assert_eq(rounds->default_value, 1);
    cr_assert_eq(rounds->min_value, 1);
    cr_assert(!rounds->is_path);
    cr_assert_null(gateau_game_option(game, 1));
    cr_assert_null(gateau_game_option(game, -1));
}

Test(registry, unknown_name_is_null)
{
    cr_assert_null(gateau_game_find("nosuch"));
    cr_assert_null(gateau_game_find(""));
    cr_assert_null(gateau_game_find(NULL));
    cr_assert_null(gateau_game_find("Piece-O-Cake"), "names are case-sensitive");
    cr_assert_null(gateau_game_find("piece o' Cake"), "the title is not the name");
    cr_assert_null(gateau_game_find("piece-o-cake "));
    cr_assert_null(gateau_game_find("piece"));
}

Test(registry, counts_and_listing)
{
    int count = gateau_game_count();
    cr_assert_geq(count, 1);
    cr_assert_leq(count, 64);
    bool found = false;
    for (int i = 0; i < count; i++) {
        const gateau_game *game = gateau_game_at(i);
        cr_assert_not_null(game, "game %d of %d", i, count);
        const char *name = gateau_game_name(game);
        cr_assert_eq(gateau_game_find(name), game, "%s finds itself", name);
        found |= strcmp(name, "piece-o-cake") == 0;
        int min = gateau_game_min_players(game), max = gateau_game_max_players(game);
        cr_assert(min >= 1 && min <= max && max <= GATEAU_MAX_PLAYERS, "%s: %d-%d players",
                  name, min, max);
        cr_assert_leq(gateau_game_option_count(game), GATEAU_MAX_OPTIONS);
        for (int o = 0; o < gateau_game_option_count(game); o++) {
            const gateau_option_info *option = gateau_game_option(game, o);
            cr_assert_not_null(option);
            if (!option->is_path)
                cr_assert(option->min_value <= option->default_value &&
                              option->default_value <= option->max_value,
                          "%s option %s default in range", name, option->name);
        }
        for (int j = 0; j < i; j++)
            cr_assert_str_neq(gateau_game_name(gateau_game_at(j)), name, "names are unique");
    }
    cr_assert(found, "piece-o-cake is listed");
    cr_assert_null(gateau_game_at(-1));
    cr_assert_null(gateau_game_at(count));
}

/* ==== setups ============================================================== */

Test(setup, defaults)
{
    char error[256] = "";
    gateau_setup *setup = gateau_setup_new(poc(), 3, NULL, NULL, error, sizeof error);
    cr_assert_not_null(setup, "%s", error);
    cr_assert_eq(gateau_setup_game(setup), poc());
    cr_assert_eq(gateau_setup_players(setup), 3);
    cr_assert_eq(gateau_setup_option(setup, "rounds"), 1);
    cr_assert_str_eq(gateau_setup_options_text(setup), "");
    gateau_setup_free(setup);
    setup = gateau_setup_new(poc(), 2, "", NULL, error, sizeof error);
    cr_assert_not_null(setup, "%s", error);
    cr_assert_eq(gateau_setup_option(setup, "rounds"), 1);
    cr_assert_str_eq(gateau_setup_options_text(setup), "");
    gateau_setup_free(setup);
    /* Every player count of the range. */
    for (int p = 2; p <= 5; p++) gateau_setup_free(support_setup("piece-o-cake", p, NULL));
}

Test(setup, rounds_option)
{
    gateau_setup *setup = support_setup("piece-o-cake", 4, "rounds=3");
    cr_assert_eq(gateau_setup_option(setup, "rounds"), 3);
    cr_assert_str_eq(gateau_setup_options_text(setup), "rounds=3");
    gateau_setup_free(setup);
    setup = support_setup("piece-o-cake", 2, "rounds=20");
    cr_assert_eq(gateau_setup_option(setup, "rounds"), 20);
    gateau_setup_free(setup);
}

Test(setup, unknown_option_names_it_and_lists_the_known)
{
    const char *error = setup_error(3, "colour=3");
    expect_contains(error, "colour");
    expect_contains(error, "rounds");
    error = setup_error(3, "rounds=2 turbo=1");
    expect_contains(error, "turbo");
    expect_contains(error, "rounds");
}

Test(setup, repeated_option)
{
    const char *error = setup_error(3, "rounds=2 rounds=3");
    expect_contains(error, "rounds");
    expect_contains(error, "twice");
    setup_error(3, "rounds=2 rounds=2");
}

Test(setup, out_of_range_value)
{
    const char *error = setup_error(3, "rounds=0");
    expect_contains(error, "rounds");
    expect_contains(error, "1");
    expect_contains(error, "20");
    setup_error(3, "rounds=21");
    setup_error(3, "rounds=99999999999999999999");
}

Test(setup, non_numeric_value)
{
    expect_contains(setup_error(3, "rounds=two"), "rounds");
    setup_error(3, "rounds=-1");
    setup_error(3, "rounds=+2");
    setup_error(3, "rounds=2x");
    setup_error(3, "rounds=2.0");
    setup_error(3, "rounds=0x2");
}

Test(setup, leading_zero_refused)
{
    expect_contains(setup_error(3, "rounds=03"), "rounds");
    setup_error(3, "rounds=00");
}

Test(setup, not_key_value)
{
    const char *error = setup_error(3, "rounds");
    expect_contains(error, "rounds");
    expect_contains(error, "key=value");
    setup_error(3, "=3");
    setup_error(3, "rounds=");
    setup_error(3, "rounds = 3");
}

Test(setup, wrong_player_counts_name_the_range)
{
    static const int counts[] = {-1, 0, 1, 6, 7, 100};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        const char *error = setup_error(counts[i], NULL);
        expect_contains(error, "2");
        expect_contains(error, "5");
        expect_contains(error, "piece-o-cake");
    }
    expect_contains(setup_error(6, NULL), "2 to 5");
}

Test(setup, no_game)
{
    char error[256] = "";
    cr_assert_null(gateau_setup_new(NULL, 2, NULL, NULL, error, sizeof error));
    cr_assert(error[0]);
    /* A NULL error buffer is allowed. */
    cr_assert_null(gateau_setup_new(poc(), 9, NULL, NULL, NULL, 0));
    cr_assert_null(gateau_setup_new(poc(), 2, "bad=1", NULL, NULL, 0));
}

Test(setup, options_text_is_canonical)
{
    gateau_setup *setup = support_setup("piece-o-cake", 3, "   rounds=2  ");
    cr_assert_str_eq(gateau_setup_options_text(setup), "rounds=2");
    gateau_setup_free(setup);
    setup = support_setup("piece-o-cake", 3, "\trounds=4\n");
    cr_assert_str_eq(gateau_setup_options_text(setup), "rounds=4");
    gateau_setup_free(setup);
    /* A default given explicitly is kept (it was given). */
    setup = support_setup("piece-o-cake", 3, "rounds=1");
    cr_assert_str_eq(gateau_setup_options_text(setup), "rounds=1");
    cr_assert_eq(gateau_setup_option(setup, "rounds"), 1);
    /* An unknown option name reads as 0. */
    cr_assert_eq(gateau_setup_option(setup, "nosuch"), 0);
    gateau_setup_free(setup);
}

/* ==== states ============================================================== */

Test(state, new_clone_copy_are_independent)
{
    gateau_setup *setup = support_setup("piece-o-cake", 3, NULL);
    gateau_state *state = gateau_state_new(setup);
    cr_assert_eq(gateau_state_setup(state), setup);
    cr_assert_eq(gateau_state_players(state), 3);
    gateau_state *fresh = gateau_state_new(setup);
    cr_assert(same_state(state, fresh), "two new states are equal");
    gateau_state *clone = gateau_state_clone(state);
    cr_assert(same_state(state, clone));

    gateau_rng rng;
    gateau_rng_seed(&rng, 11);
    /* Change the clone: the original stays as it was. */
    for (int i = 0; i < 60 && !gateau_state_is_over(clone); i++) {
        if (gateau_state_is_chance(clone)) {
            gateau_state_apply_legal(clone, GATEAU_CHANCE, gateau_state_sample_chance(clone, &rng));
        } else {
            gateau_action actions[GATEAU_MAX_ACTIONS];
            int seat = gateau_state_next_seat(clone);
            int count = gateau_state_legal_actions(clone, seat, actions);
            gateau_state_apply_legal(clone, seat, actions[gateau_rng_below(&rng, (uint32_t)count)]);
        }
    }
    cr_assert(!same_state(state, clone), "the clone moved on");
    cr_assert(same_state(state, fresh), "the original did not");
    char *a = observer_view(state), *b = observer_view(fresh), *c = observer_view(clone);
    cr_assert_str_eq(a, b);
    cr_assert_str_neq(a, c);

    /* Copy over: dst becomes src; later changes to src leave dst alone. */
    gateau_state_copy(state, clone);
    cr_assert(same_state(state, clone));
    char *copied = observer_view(state);
    cr_assert_str_eq(copied, c);
    gateau_action actions[GATEAU_MAX_ACTIONS];
    if (!gateau_state_is_chance(clone) && !gateau_state_is_over(clone)) {
        int seat = gateau_state_next_seat(clone);
        gateau_state_legal_actions(clone, seat, actions);
        gateau_state_apply_legal(clone, seat, actions[0]);
    } else if (gateau_state_is_chance(clone)) {
        gateau_state_apply_legal(clone, GATEAU_CHANCE, gateau_state_sample_chance(clone, &rng));
    }
    char *after = observer_view(state);
    cr_assert_str_eq(after, copied, "the copy is independent of its source");
    free(a), free(b), free(c), free(copied), free(after);
    gateau_state_free(state);
    gateau_state_free(fresh);
    gateau_state_free(clone);
    gateau_setup_free(setup);
}

Test(state, size)
{
    gateau_setup *a = support_setup("piece-o-cake", 2, NULL);
    gateau_setup *b = support_setup("piece-o-cake", 5, "rounds=3");
    size_t size = gateau_state_size(a);
    cr_assert_gt(size, sizeof(void *));
    cr_assert_lt(size, 1 << 20, "a state is small: %zu bytes", size);
    cr_assert_eq(gateau_state_size(a), size, "the size is stable");
    cr_assert_gt(gateau_state_size(b), sizeof(void *));
    /* Clones and copies are exactly that many bytes of one block. */
    gateau_state *state = gateau_state_new(b);
    gateau_state *clone = gateau_state_clone(state);
    cr_assert_eq(memcmp(state, clone, gateau_state_size(b)), 0);
    gateau_state_free(clone);
    gateau_state_free(state);
    gateau_setup_free(a);
    gateau_setup_free(b);
}

static void check_who_acts(const gateau_state *state)
{
    int holds = gateau_state_is_over(state) + gateau_state_is_chance(state) +
                (gateau_state_actors(state) != 0);
    cr_assert_eq(holds, 1, "exactly one of over (%d), chance (%d), actors (%x)",
                 gateau_state_is_over(state), gateau_state_is_chance(state),
                 gateau_state_actors(state));
    uint32_t actors = gateau_state_actors(state);
    int players = gateau_state_players(state);
    cr_assert_eq(actors >> players, 0u, "actors are seats of the game");
    int next = gateau_state_next_seat(state);
    if (actors) cr_assert_eq(next, __builtin_ctz(actors));
    else cr_assert_eq(next, -1);
    gateau_action actions[GATEAU_MAX_ACTIONS];
    double probabilities[GATEAU_MAX_ACTIONS];
    for (int s = 0; s < players; s++) {
        int count = gateau_state_legal_actions(state, s, actions);
        if (actors & (1u << s)) cr_assert_gt(count, 0, "seat %d acts and has actions", s + 1);
        else cr_assert_eq(count, 0, "seat %d does not act, so has no actions", s + 1);
    }
    cr_assert_eq(gateau_state_legal_actions(state, -1, actions), 0);
    cr_assert_eq(gateau_state_legal_actions(state, players, actions), 0);
    int outcomes = gateau_state_chance_outcomes(state, actions, probabilities);
    if (gateau_state_is_chance(state)) {
        cr_assert_gt(outcomes, 0);
        double sum = 0;
        for (int i = 0; i < outcomes; i++) sum += probabilities[i];
        cr_assert(fabs(sum - 1.0) < 1e-9, "chance probabilities sum to 1 (%f)", sum);
    } else {
        cr_assert_eq(outcomes, 0);
    }
    if (gateau_state_is_over(state)) cr_assert_neq(gateau_state_winners(state), 0u);
    else cr_assert_eq(gateau_state_winners(state), 0u, "no winners while the game runs");
}

Test(state, who_acts_invariants)
{
    for (int players = 2; players <= 5; players++) {
        gateau_setup *setup = support_setup("piece-o-cake", players, players == 3 ? "rounds=2" : NULL);
        for (uint64_t game = 0; game < 5; game++) {
            gateau_rng rng;
            gateau_rng_seed_stream(&rng, 99, game);
            gateau_state *state = gateau_state_new(setup);
            check_who_acts(state);
            int steps = 0;
            while (!gateau_state_is_over(state)) {
                cr_assert_lt(++steps, 100000);
                if (gateau_state_is_chance(state)) {
                    gateau_state_apply_legal(state, GATEAU_CHANCE,
                                             gateau_state_sample_chance(state, &rng));
                } else {
                    gateau_action actions[GATEAU_MAX_ACTIONS];
                    int seat = gateau_state_next_seat(state);
                    int count = gateau_state_legal_actions(state, seat, actions);
                    char error[256] = "";
                    cr_assert(gateau_state_apply(state, seat,
                                                 actions[gateau_rng_below(&rng, (uint32_t)count)],
                                                 error, sizeof error),
                              "%s", error);
                }
                check_who_acts(state);
            }
            gateau_state_free(state);
        }
        gateau_setup_free(setup);
    }
}

/* A state right after the deal: seat 1 cuts. */
static gateau_state *after_deal(const gateau_setup *setup, gateau_rng *rng)
{
    gateau_state *state = gateau_state_new(setup);
    while (gateau_state_is_chance(state))
        gateau_state_apply_legal(state, GATEAU_CHANCE, gateau_state_sample_chance(state, rng));
    cr_assert_eq(gateau_state_next_seat(state), 0, "seat 1 serves first");
    return state;
}

/* Applies (seat, action), which must be refused with a reason containing
 * fragment and leave the state unchanged. */
static void expect_apply_refused(gateau_state *state, int seat, gateau_action action,
                                 const char *fragment)
{
    gateau_state *before = gateau_state_clone(state);
    char error[256] = "";
    cr_assert(!gateau_state_apply(state, seat, action, error, sizeof error),
              "seat %d action %d should be refused", seat, action);
    cr_assert(error[0], "a refusal says why");
    expect_contains(error, fragment);
    cr_assert(same_state(state, before), "a refused action changes nothing");
    /* Without an error buffer too. */
    cr_assert(!gateau_state_apply(state, seat, action, NULL, 0));
    cr_assert(same_state(state, before));
    gateau_state_free(before);
}

Test(state, apply_by_a_seat_not_to_act_is_refused)
{
    gateau_setup *setup = support_setup("piece-o-cake", 3, NULL);
    gateau_rng rng;
    gateau_rng_seed(&rng, 3);
    gateau_state *state = after_deal(setup, &rng);
    gateau_action actions[GATEAU_MAX_ACTIONS];
    int count = gateau_state_legal_actions(state, 0, actions);
    cr_assert_gt(count, 0);
    for (int i = 0; i < count; i++) {
        expect_apply_refused(state, 1, actions[i], "seat 2");
        expect_apply_refused(state, 2, actions[i], "seat 1 is to act");
    }
    /* Seats that do not exist. */
    expect_apply_refused(state, 3, actions[0], "seat 4");
    expect_apply_refused(state, 7, actions[0], "seat");
    expect_apply_refused(state, -5, actions[0], "seat");
    /* And an action nobody has. */
    expect_apply_refused(state, 0, actions[count - 1] + 1000, "not legal");
    gateau_state_free(state);
    gateau_setup_free(setup);
}

Test(state, chance_action_when_a_seat_acts_is_refused)
{
    gateau_setup *setup = support_setup("piece-o-cake", 2, NULL);
    gateau_rng rng;
    gateau_rng_seed(&rng, 4);
    gateau_state *state = after_deal(setup, &rng);
    /* Whatever a chance outcome looks like, and a seat's own action. */
    gateau_state *fresh = gateau_state_new(setup);
    gateau_action outcomes[GATEAU_MAX_ACTIONS];
    double probabilities[GATEAU_MAX_ACTIONS];
    int count = gateau_state_chance_outcomes(fresh, outcomes, probabilities);
    cr_assert_gt(count, 0);
    for (int i = 0; i < count; i++) expect_apply_refused(state, GATEAU_CHANCE, outcomes[i], "chance");
    gateau_action actions[GATEAU_MAX_ACTIONS];
    gateau_state_legal_actions(state, 0, actions);
    expect_apply_refused(state, GATEAU_CHANCE, actions[0], "seat 1");
    /* The other way round: a seat's action while chance is to act. */
    expect_apply_refused(fresh, 0, outcomes[0], "chance");
    expect_apply_refused(fresh, 1, actions[0], "chance");
    gateau_state_free(fresh);
    gateau_state_free(state);
    gateau_setup_free(setup);
}

Test(state, apply_after_game_over_is_refused)
{
    gateau_setup *setup = support_setup("piece-o-cake", 2, NULL);
    gateau_record *record = gateau_record_new(setup);
    gateau_rng rng;
    gateau_rng_seed(&rng, 5);
    support_play_out(record, &rng);
    gateau_state *state = gateau_state_clone(gateau_record_state(record));
    cr_assert(gateau_state_is_over(state));
    for (gateau_action a = -3; a < 512; a++) {
        expect_apply_refused(state, 0, a, "over");
        expect_apply_refused(state, 1, a, "over");
        expect_apply_refused(state, GATEAU_CHANCE, a, "over");
    }
    gateau_action actions[GATEAU_MAX_ACTIONS];
    cr_assert_eq(gateau_state_legal_actions(state, 0, actions), 0);
    cr_assert_eq(gateau_state_legal_actions(state, 1, actions), 0);
    /* Parsing a move is refused the same way. */
    char error[256] = "";
    cr_assert_eq(gateau_move_parse(state, 0, "pass", actions, error, sizeof error), -1);
    expect_contains(error, "over");
    /* And a record will not take another move. */
    char *text = gateau_record_text(record);
    cr_assert(!gateau_record_play_move(record, 0, "pass", error, sizeof error));
    cr_assert(!gateau_record_play(record, 0, 0, error, sizeof error));
    char *again = gateau_record_text(record);
    cr_assert_str_eq(text, again);
    free(text);
    free(again);
    gateau_state_free(state);
    gateau_record_free(record);
    gateau_setup_free(setup);
}

/* ==== which lines a viewer may read (gateau_move_visible) ==================== */

/* A 3-player piece-o-cake record after its deal and the first cut. */
static gateau_record *dealt_and_cut(const gateau_setup *setup)
{
    gateau_record *record = gateau_record_new(setup);
    support_play(record, GATEAU_CHANCE, DEAL);
    support_play(record, 0, "cut 1-3 4-7 8-11");
    return record;
}

/* The state before move index, and the move (for gateau_move_visible). */
static gateau_state *before_move(const gateau_record *record, int index, int *seat,
                                 const gateau_action **actions, int *count)
{
    gateau_state *state = gateau_state_new(gateau_record_setup(record));
    for (int m = 0; m < index; m++) {
        int n, s = gateau_record_move_seat(record, m);
        const gateau_action *a = gateau_record_move_actions(record, m, &n);
        for (int i = 0; i < n; i++) cr_assert(gateau_state_apply(state, s, a[i], NULL, 0));
    }
    *seat = gateau_record_move_seat(record, index);
    *actions = gateau_record_move_actions(record, index, count);
    return state;
}

Test(visibility, arguments)
{
    gateau_setup *setup = support_setup("piece-o-cake", 3, NULL);
    gateau_record *record = dealt_and_cut(setup);
    int seat, count;
    const gateau_action *actions;
    /* Any number that is no seat views as an observer. */
    gateau_state *before = before_move(record, 0, &seat, &actions, &count);
    cr_assert_eq(seat, GATEAU_CHANCE);
    for (int viewer = -5; viewer < 9; viewer++)
        cr_assert(!gateau_move_visible(before, seat, actions, count, viewer), "viewer %d", viewer);
    gateau_state_free(before);
    before = before_move(record, 1, &seat, &actions, &count);
    cr_assert_eq(seat, 0);
    for (int viewer = -5; viewer < 9; viewer++)
        cr_assert(gateau_move_visible(before, seat, actions, count, viewer), "viewer %d", viewer);
    /* No move, or a seat that is neither a seat nor chance: nothing to see. */
    cr_assert(!gateau_move_visible(before, seat, actions, 0, 1));
    cr_assert(!gateau_move_visible(before, seat, NULL, count, 1));
    cr_assert(!gateau_move_visible(before, 3, actions, count, 1));
    cr_assert(!gateau_move_visible(before, -1, actions, count, -1), "GATEAU_OBSERVER never moves");
    cr_assert(!gateau_move_visible(before, 40, actions, count, 40));
    gateau_state_free(before);
    gateau_record_free(record);
    gateau_setup_free(setup);
}

/* A game without move_visible (here piece-o-cake's table without it, and
 * without its commentary) shows a move to its mover only, chance to
 * nobody, and its default commentary follows suit. */
Test(visibility, default_is_the_mover_only)
{
    gateau_game bare = *poc();
    bare.move_visible = NULL;
    bare.describe_move = NULL;
    char error[256] = "";
    gateau_setup *setup = gateau_setup_new(&bare, 3, NULL, NULL, error, sizeof error);
    cr_assert_not_null(setup, "%s", error);
    gateau_record *record = dealt_and_cut(setup);
    cr_assert_str_eq(support_visible_moves(record, GATEAU_OBSERVER), "--");
    cr_assert_str_eq(support_visible_moves(record, 0), "-v");
    cr_assert_str_eq(support_visible_moves(record, 1), "--");
    int seat, count;
    const gateau_action *actions;
    gateau_state *before = before_move(record, 1, &seat, &actions, &count);
    char *told = gateau_move_describe(before, seat, actions, count, 1);
    cr_assert_str_eq(told, "seat 1 has moved");
    free(told);
    told = gateau_move_describe(before, seat, actions, count, 0);
    cr_assert_str_eq(told, "seat 1: cut 1-3 4-7 8-11");
    free(told);
    char *text = gateau_record_text_for(record, 2);
    cr_assert_str_eq(text, "game: piece-o-cake\nplayers: 3\n---\n# chance (hidden)\n"
                           "# seat 1 moved (hidden)\n");
    free(text);
    gateau_state_free(before);
    gateau_record_free(record);
    gateau_setup_free(setup);
}

/* A viewer's record: the header as written, its comment left out (it may
 * hold the seed). */
Test(visibility, record_for_a_viewer)
{
    gateau_setup *setup = support_setup("piece-o-cake", 3, "rounds=2");
    gateau_record *record = dealt_and_cut(setup);
    gateau_record_set_comment(record, "seed: 7");
    gateau_record_set_name(record, 2, "Cy");
    char *text = gateau_record_text_for(record, 1);
    cr_assert_str_eq(text, "game: piece-o-cake\nplayers: 3\noptions: rounds=2\n"
                           "names: Seat 1, Seat 2, Cy\n---\n# chance (hidden)\n"
                           "cut 1-3 4-7 8-11\n");
    free(text);
    char *full = gateau_record_text(record);
    cr_assert_not_null(strstr(full, "# seed: 7\n"), "the full record keeps it: %s", full);
    free(full);
    gateau_record_free(record);
    /* A record with no move yet is its header. */
    record = gateau_record_new(setup);
    text = gateau_record_text_for(record, GATEAU_OBSERVER);
    cr_assert_str_eq(text, "game: piece-o-cake\nplayers: 3\noptions: rounds=2\n---\n");
    free(text);
    gateau_record_free(record);
    gateau_setup_free(setup);
}

/* ==== records: reading ======================================================= */

Test(record, header_lines_in_any_order)
{
    static const char *const texts[] = {
        "game: piece-o-cake\nplayers: 3\noptions: rounds=2\nnames: Ann, Bob, Cy\n---\n",
        "players: 3\ngame: piece-o-cake\nnames: Ann, Bob, Cy\noptions: rounds=2\n---\n",
        "names: Ann, Bob, Cy\noptions: rounds=2\nplayers: 3\ngame: piece-o-cake\n---\n",
        "options: rounds=2\nnames: Ann,Bob,Cy\ngame:piece-o-cake\nplayers:3\n---",
    };
    char *first = NULL;
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        gateau_record *record = support_read(texts[i]);
        const gateau_setup *setup = gateau_record_setup(record);
        cr_assert_str_eq(gateau_game_name(gateau_setup_game(setup)), "piece-o-cake");
        cr_assert_eq(gateau_setup_players(setup), 3);
        cr_assert_eq(gateau_setup_option(setup, "rounds"), 2);
        cr_assert_str_eq(gateau_record_name(record, 0), "Ann");
        cr_assert_str_eq(gateau_record_name(record, 1), "Bob");
        cr_assert_str_eq(gateau_record_name(record, 2), "Cy");
        cr_assert_eq(gateau_record_move_count(record), 0);
        cr_assert(gateau_state_is_chance(gateau_record_state(record)));
        char *text = gateau_record_text(record);
        if (!first) first = text;
        else {
            cr_assert_str_eq(text, first, "the written header is canonical");
            free(text);
        }
        gateau_record_free(record);
    }
    cr_assert_str_eq(first, "game: piece-o-cake\nplayers: 3\noptions: rounds=2\n"
                            "names: Ann, Bob, Cy\n---\n");
    free(first);
}

Test(record, comments_and_blank_lines_are_ignored)
{
    const char *text = "# a game of piece o' Cake\n"
                       "\n"
                       "   \n"
                       "game: piece-o-cake   # the registry name\n"
                       "\t\n"
                       "players: 2 # two\n"
                       "# between\n"
                       "--- # start\n"
                       "\n"
                       DEAL "   # the shuffle\n"
                       "# a cut follows\n"
                       "  cut 1-11  \n"
                       "\n"
                       "pass#no space before the comment\n"
                       "# the end\n";
    gateau_record *record = support_read(text);
    cr_assert_eq(gateau_record_move_count(record), 3);
    cr_assert_str_eq(gateau_record_move_text(record, 1), "cut 1-11");
    cr_assert_str_eq(gateau_record_move_text(record, 2), "pass");
    cr_assert_eq(gateau_record_move_seat(record, 0), GATEAU_CHANCE);
    cr_assert_eq(gateau_record_move_seat(record, 1), 0);
    cr_assert_eq(gateau_record_move_seat(record, 2), 1);
    char *written = gateau_record_text(record);
    /* The header's whole-line comments are kept (the header comment). */
    cr_assert_str_eq(gateau_record_comment(record), "a game of piece o' Cake\nbetween");
    cr_assert_str_eq(written, "# a game of piece o' Cake\n# between\ngame: piece-o-cake\n"
                              "players: 2\n---\n" DEAL "\ncut 1-11\npass\n");
    free(written);
    gateau_record_free(record);
    /* Windows line ends read the same. */
    record = support_read("game: piece-o-cake\r\nplayers: 2\r\n---\r\n" DEAL "\r\ncut 1-11\r\n");
    cr_assert_eq(gateau_record_move_count(record), 2);
    gateau_record_free(record);
}

Test(record, names_exactly_n_non_empty)
{
    gateau_record *record = support_read("game: piece-o-cake\nplayers: 2\nnames:  Ann Lee ,Bob\n---\n");
    cr_assert_str_eq(gateau_record_name(record, 0), "Ann Lee");
    cr_assert_str_eq(gateau_record_name(record, 1), "Bob");
    cr_assert_str_eq(gateau_record_name(record, 2), "?");
    char *text = gateau_record_text(record);
    expect_contains(text, "names: Ann Lee, Bob\n");
    free(text);
    gateau_record_free(record);

    /* Without names: the defaults, and no names line is written. */
    record = support_read("game: piece-o-cake\nplayers: 2\n---\n");
    cr_assert_str_eq(gateau_record_name(record, 0), "Seat 1");
    cr_assert_str_eq(gateau_record_name(record, 1), "Seat 2");
    text = gateau_record_text(record);
    cr_assert_null(strstr(text, "names"));
    free(text);
    gateau_record_free(record);

    char error[512];
    static const char *const bad[] = {
        "names: Ann",              "names: Ann, Bob, Cy", "names: Ann, ",
        "names: , Bob",            "names: Ann,,Bob",     "names:",
        "names: Ann, Bob, Cy, Di",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text_bad[256];
        snprintf(text_bad, sizeof text_bad, "game: piece-o-cake\nplayers: 2\n%s\n---\n", bad[i]);
        int line = read_refused(text_bad, error, sizeof error);
        expect_contains(error, "names");
        cr_expect(line == 3 || line == 4, "'%s': line %d", bad[i], line);
    }
}

/* A name set through the API survives a write and a read as it was kept. */
Test(record, names_from_the_api_round_trip)
{
    gateau_record *record = support_read("game: piece-o-cake\nplayers: 3\n---\n");
    gateau_record_set_name(record, 0, "  Ann, the #1\n");
    gateau_record_set_name(record, 1, ",#");
    gateau_record_set_name(record, 2, "Cy");
    cr_assert_str_eq(gateau_record_name(record, 0), "Ann  the  1");
    cr_assert_str_eq(gateau_record_name(record, 1), "Seat 2");
    char *text = gateau_record_text(record);
    gateau_record *again = support_read(text);
    for (int seat = 0; seat < 3; seat++)
        cr_expect_str_eq(gateau_record_name(again, seat), gateau_record_name(record, seat),
                         "seat %d", seat + 1);
    free(text);
    gateau_record_free(again);
    gateau_record_free(record);
}

Test(record, header_comment_from_the_api_round_trips)
{
    gateau_setup *setup = support_setup("piece-o-cake", 2, NULL);
    gateau_record *record = gateau_record_new(setup);
    cr_assert_str_eq(gateau_record_comment(record), "");
    /* Control characters cannot reach a terminal through it; the lines
     * stay lines, a last line end is dropped. */
    gateau_record_set_comment(record, "gateau play --seed 3\n\n\033[2Jx\ty\n");
    cr_assert_str_eq(gateau_record_comment(record), "gateau play --seed 3\n\n [2Jx y");
    char *text = gateau_record_text(record);
    cr_assert_str_eq(text, "# gateau play --seed 3\n#\n#  [2Jx y\ngame: piece-o-cake\n"
                           "players: 2\n---\n");
    gateau_record *again = support_read(text);
    cr_assert_str_eq(gateau_record_comment(again), "gateau play --seed 3\n\n [2Jx y");
    /* A control character at a line's end becomes no trailing space: the
     * reader trims line ends (found by fuzz/fuzz_record.c). */
    gateau_record_set_comment(again, "--seed \022\nx \n \t\n");
    cr_assert_str_eq(gateau_record_comment(again), "--seed\nx");
    gateau_record_set_comment(again, " \001\n");
    cr_assert_str_eq(gateau_record_comment(again), "");
    gateau_record_set_comment(again, "");
    char *bare = gateau_record_text(again);
    cr_assert_str_eq(bare, "game: piece-o-cake\nplayers: 2\n---\n");
    free(text), free(bare);
    gateau_record_free(again);
    gateau_record_free(record);
    gateau_setup_free(setup);
}

/* A name that starts with a character that becomes a space (a control
 * character, ',' or '#' through the API) is trimmed after the change, so
 * that it is written as it reads back (found by fuzz/fuzz_record.c). */
Test(record, names_trimmed_after_their_characters_become_spaces)
{
    gateau_record *record = support_read("game: mice-cake\nplayers: 2\n"
                                         "names:\x1d,\x1d" "3\n---\n");
    cr_assert_str_eq(gateau_record_name(record, 0), "Seat 1");
    cr_assert_str_eq(gateau_record_name(record, 1), "3");
    gateau_record_set_name(record, 0, "\x01\tAnn\x7f");
    cr_assert_str_eq(gateau_record_name(record, 0), "Ann");
    gateau_record_set_name(record, 1, "#,Bob");
    cr_assert_str_eq(gateau_record_name(record, 1), "Bob");
    char *text = gateau_record_text(record);
    expect_contains(text, "names: Ann, Bob\n");
    gateau_record *again = support_read(text);
    char *again_text = gateau_record_text(again);
    cr_expect_str_eq(again_text, text);
    free(again_text);
    gateau_record_free(again);
    free(text);
    gateau_record_free(record);
}

Test(record, unknown_and_repeated_header_keys)
{
    char error[512];
    int line = read_refused("game: piece-o-cake\nplayers: 2\nseed: 7\n---\n", error, sizeof error);
    cr_expect_eq(line, 3);
    expect_contains(error, "seed");
    line = read_refused("game: piece-o-cake\n\n# c\nplayers: 2\nplayers: 2\n---\n", error,
                        sizeof error);
    cr_expect_eq(line, 5);
    expect_contains(error, "players");
    line = read_refused("game: piece-o-cake\nplayers: 2\ngame: piece-o-cake\n---\n", error,
                        sizeof error);
    cr_expect_eq(line, 3);
    expect_contains(error, "game");
    line = read_refused("game: piece-o-cake\noptions: rounds=2\nplayers: 2\noptions: rounds=2\n---\n",
                        error, sizeof error);
    cr_expect_eq(line, 4);
    expect_contains(error, "options");
    line = read_refused("game: piece-o-cake\nnames: A, B\nplayers: 2\nnames: A, B\n---\n", error,
                        sizeof error);
    cr_expect_eq(line, 4);
    expect_contains(error, "names");
    /* Keys are exact. */
    line = read_refused("Game: piece-o-cake\nplayers: 2\n---\n", error, sizeof error);
    cr_expect_eq(line, 1);
    /* Not a header line at all. */
    line = read_refused("game: piece-o-cake\nplayers 2\n---\n", error, sizeof error);
    cr_expect_eq(line, 2);
    line = read_refused("game: piece-o-cake\nplayers: two\n---\n", error, sizeof error);
    cr_expect_eq(line, 2);
    expect_contains(error, "two");
    line = read_refused("game: piece-o-cake\nplayers: 02\n---\n", error, sizeof error);
    cr_expect_eq(line, 2);
}

Test(record, missing_game_or_players)
{
    char error[512];
    int line = read_refused("players: 2\n---\n" DEAL "\n", error, sizeof error);
    expect_contains(error, "game");
    cr_expect(line == 2 || line == 0, "blamed on the --- line (or none): %d", line);
    line = read_refused("# c\ngame: piece-o-cake\n\n---\n", error, sizeof error);
    expect_contains(error, "players");
    cr_expect(line == 4 || line == 0, "blamed on the --- line (or none): %d", line);
    line = read_refused("---\n", error, sizeof error);
    cr_expect(line == 1 || line == 0, "%d", line);
    line = read_refused("game: \nplayers: 2\n---\n", error, sizeof error);
    cr_expect_neq(line, -1);
}

Test(record, missing_separator)
{
    char error[512];
    int line = read_refused("game: piece-o-cake\nplayers: 2\n", error, sizeof error);
    expect_contains(error, "---");
    cr_expect_eq(line, 0, "no line is to blame");
    line = read_refused("", error, sizeof error);
    cr_expect_eq(line, 0);
    /* A move where the header should end. */
    line = read_refused("game: piece-o-cake\nplayers: 2\n" DEAL "\n", error, sizeof error);
    cr_expect_eq(line, 3);
    /* "----" or "- - -" is not the separator. */
    line = read_refused("game: piece-o-cake\nplayers: 2\n----\n", error, sizeof error);
    cr_expect_eq(line, 3);
}

/* A header value that is wrong in itself (an unknown game, a player count
 * outside the game's range, bad options, a wrong names list) is blamed on
 * the header line that holds it, not on '---' where the setup is built. */
Test(record, header_value_errors_blame_their_own_line)
{
    char error[512];
    int line = read_refused("game: nosuch\nplayers: 2\n---\n", error, sizeof error);
    expect_contains(error, "nosuch");
    cr_expect_eq(line, 1, "unknown game blamed on line %d, expected 1", line);
    line = read_refused("game: piece-o-cake\nplayers: 7\n---\n", error, sizeof error);
    expect_contains(error, "2 to 5");
    cr_expect_eq(line, 2, "bad player count blamed on line %d, expected 2", line);
    line = read_refused("game: piece-o-cake\noptions: rounds=0\nplayers: 2\n---\n", error,
                        sizeof error);
    expect_contains(error, "rounds");
    cr_expect_eq(line, 2, "bad option blamed on line %d, expected 2", line);
    line = read_refused("names: Ann\ngame: piece-o-cake\nplayers: 2\n---\n", error, sizeof error);
    expect_contains(error, "names");
    cr_expect_eq(line, 1, "bad names blamed on line %d, expected 1", line);
}

Test(record, bad_header_values_are_refused)
{
    char error[512];
    read_refused("game: nosuch\nplayers: 2\n---\n", error, sizeof error);
    expect_contains(error, "unknown game");
    read_refused("game: piece-o-cake\nplayers: 1\n---\n", error, sizeof error);
    expect_contains(error, "2 to 5");
    read_refused("game: piece-o-cake\nplayers: 6\n---\n", error, sizeof error);
    expect_contains(error, "2 to 5");
    read_refused("game: piece-o-cake\nplayers: 0\n---\n", error, sizeof error);
    read_refused("game: piece-o-cake\nplayers: 2\noptions: rounds=03\n---\n", error, sizeof error);
    expect_contains(error, "rounds");
    read_refused("game: piece-o-cake\nplayers: 2\noptions: speed=3\n---\n", error, sizeof error);
    expect_contains(error, "speed");
}

Test(record, a_game_is_named_by_its_registry_name_only)
{
    gateau_record *record = support_read("game: piece-o-cake\nplayers: 2\n---\n");
    gateau_record_free(record);
    static const char *const names[] = {"piece o' Cake", "Piece-O-Cake", "piece_o_cake",
                                        "pieceocake",    "piece-o-cake-2", "PIECE-O-CAKE"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char text[256], error[512];
        snprintf(text, sizeof text, "game: %s\nplayers: 2\n---\n", names[i]);
        read_refused(text, error, sizeof error);
        expect_contains(error, "unknown game");
    }
}

Test(record, seat_prefix_optional_and_must_name_the_seat_to_act)
{
    /* 2 players: seat 1 cuts, then seat 2, 1, 2, 1 choose. */
    gateau_record *record = support_read("game: piece-o-cake\nplayers: 2\n---\n" DEAL "\n"
                                         "1: cut 1-11\n"
                                         "2:pass\n"
                                         "pass\n"
                                         "2 : pass\n"
                                         "1:   pass\n");
    cr_assert_eq(gateau_record_move_count(record), 6);
    cr_assert_eq(gateau_state_next_seat(gateau_record_state(record)), 1, "seat 2 serves cake 2");
    char *text = gateau_record_text(record);
    /* Writers prefix only simultaneous moves. */
    cr_assert_str_eq(text, "game: piece-o-cake\nplayers: 2\n---\n" DEAL
                           "\ncut 1-11\npass\npass\npass\npass\n");
    free(text);
    gateau_record_free(record);

    char error[512];
    int line = read_refused("game: piece-o-cake\nplayers: 2\n---\n" DEAL "\n2: cut 1-11\n", error,
                            sizeof error);
    cr_expect_eq(line, 5);
    expect_contains(error, "seat 1");
    line = read_refused("game: piece-o-cake\nplayers: 2\n---\n" DEAL "\ncut 1-11\n1: pass\n",
                        error, sizeof error);
    cr_expect_eq(line, 6);
    expect_contains(error, "seat 2");
    /* A seat the game does not have. */
    line = read_refused("game: piece-o-cake\nplayers: 2\n---\n" DEAL "\n3: cut 1-11\n", error,
                        sizeof error);
    cr_expect_eq(line, 5);
    line = read_refused("game: piece-o-cake\nplayers: 2\n---\n" DEAL "\n0: cut 1-11\n", error,
                        sizeof error);
    cr_expect_eq(line, 5);
    line = read_refused("game: piece-o-cake\nplayers: 2\n---\n" DEAL "\n01: cut 1-11\n", error,
                        sizeof error);
    cr_expect_eq(line, 5);
}

Test(record, chance_move_never_has_a_prefix)
{
    char error[512];
    int line = read_refused("game: piece-o-cake\nplayers: 2\n---\n1: " DEAL "\n", error,
                            sizeof error);
    cr_expect_eq(line, 4);
    expect_contains(error, "chance");
    /* Also at the start of a later round. */
    gateau_setup *setup = support_setup("piece-o-cake", 2, "rounds=2");
    gateau_record *record = gateau_record_new(setup);
    gateau_rng rng;
    gateau_rng_seed(&rng, 8);
    const gateau_state *state = gateau_record_state(record);
    play_moves(record, 2, &rng);
    while (!gateau_state_is_chance(state)) play_moves(record, gateau_record_move_count(record) + 1, &rng);
    char *text = gateau_record_text(record);
    int lines = 0;
    for (const char *p = text; *p; p++) lines += *p == '\n';
    size_t length = strlen(text);
    char *bad = malloc(length + 200);
    snprintf(bad, length + 200, "%s1: " DEAL "\n", text);
    line = read_refused(bad, error, sizeof error);
    cr_expect_eq(line, lines + 1);
    expect_contains(error, "chance");
    free(bad);
    free(text);
    gateau_record_free(record);
    gateau_setup_free(setup);
}

Test(record, error_lines_are_physical_one_based_lines)
{
    const char *text = "# comment\n"         /* 1 */
                       "\n"                  /* 2 */
                       "players: 2  # two\n" /* 3 */
                       "game: piece-o-cake\n" /* 4 */
                       "   \n"               /* 5 */
                       "---\n"               /* 6 */
                       "# the deal\n"        /* 7 */
                       DEAL "\n"             /* 8 */
                       "\n"                  /* 9 */
                       "cut 1-11 # all\n"    /* 10 */
                       "# hmm\n"             /* 11 */
                       "take 1-11 ccc\n"     /* 12: too few letters */
                       "pass\n";             /* 13 */
    char error[512];
    int line = read_refused(text, error, sizeof error);
    cr_expect_eq(line, 12);
    expect_contains(error, "take 1-11 ccc");
    /* The same with Windows line ends and no final line end. */
    const char *crlf = "# comment\r\n\r\nplayers: 2\r\ngame: piece-o-cake\r\n\r\n---\r\n"
                       DEAL "\r\ncut 1-11\r\ncut 1-11";
    line = read_refused(crlf, error, sizeof error);
    cr_expect_eq(line, 9);
    /* The first illegal line is reported, not a later one. */
    line = read_refused("game: piece-o-cake\nplayers: 2\n---\n" DEAL "\ncut 1-12\nbogus\n", error,
                        sizeof error);
    cr_expect_eq(line, 5);
    expect_contains(error, "1-12");
    /* A bad deal is line 4; a move after the end is its own line. */
    line = read_refused("game: piece-o-cake\nplayers: 2\n---\ndeal PPPP\n", error, sizeof error);
    cr_expect_eq(line, 4);
}

Test(record, moves_after_the_end_are_refused)
{
    gateau_setup *setup = support_setup("piece-o-cake", 2, NULL);
    gateau_record *record = gateau_record_new(setup);
    gateau_rng rng;
    gateau_rng_seed(&rng, 12);
    support_play_out(record, &rng);
    char *text = gateau_record_text(record);
    int lines = 0;
    for (const char *p = text; *p; p++) lines += *p == '\n';
    size_t length = strlen(text);
    char *more = malloc(length + 16);
    snprintf(more, length + 16, "%spass\n", text);
    char error[512];
    int line = read_refused(more, error, sizeof error);
    cr_expect_eq(line, lines + 1);
    expect_contains(error, "over");
    free(more);
    free(text);
    gateau_record_free(record);
    gateau_setup_free(setup);
}

/* ==== records: writing, undo, resume ========================================= */

static void check_write_read_write(const char *game, int players, const char *options,
                                   uint64_t seed, bool named)
{
    gateau_setup *setup = support_setup(game, players, options);
    gateau_record *record = gateau_record_new(setup);
    if (named)
        for (int s = 0; s < players; s++) {
            char name[32];
            snprintf(name, sizeof name, "Player %c", 'A' + s);
            gateau_record_set_name(record, s, name);
        }
    gateau_rng rng;
    gateau_rng_seed(&rng, seed);
    support_play_out(record, &rng);
    char *text = gateau_record_text(record);
    gateau_record *copy = support_read(text);
    char *again = gateau_record_text(copy);
    cr_assert_str_eq(text, again, "write, read, write");
    cr_assert_eq(gateau_record_move_count(copy), gateau_record_move_count(record));
    for (int m = 0; m < gateau_record_move_count(record); m++) {
        cr_assert_str_eq(gateau_record_move_text(copy, m), gateau_record_move_text(record, m));
        cr_assert_eq(gateau_record_move_seat(copy, m), gateau_record_move_seat(record, m));
        int na, nb;
        const gateau_action *a = gateau_record_move_actions(record, m, &na);
        const gateau_action *b = gateau_record_move_actions(copy, m, &nb);
        cr_assert_eq(na, nb);
        cr_assert_eq(memcmp(a, b, sizeof *a * (size_t)na), 0);
    }
    const gateau_state *sa = gateau_record_state(record), *sb = gateau_record_state(copy);
    cr_assert(gateau_state_is_over(sb));
    int scores_a[GATEAU_MAX_PLAYERS], scores_b[GATEAU_MAX_PLAYERS];
    gateau_state_scores(sa, scores_a);
    gateau_state_scores(sb, scores_b);
    cr_assert_eq(memcmp(scores_a, scores_b, sizeof scores_a), 0);
    cr_assert_eq(gateau_state_winners(sa), gateau_state_winners(sb));
    char *va = observer_view(sa), *vb = observer_view(sb);
    cr_assert_str_eq(va, vb);
    free(va), free(vb), free(text), free(again);
    gateau_record_free(copy);
    gateau_record_free(record);
    gateau_setup_free(setup);
}

Test(record, write_read_write_is_identity)
{
    for (int players = 2; players <= 5; players++)
        for (uint64_t seed = 0; seed < 4; seed++)
            check_write_read_write("piece-o-cake", players, seed == 3 ? "rounds=3" : NULL,
                                   100 * (uint64_t)players + seed, seed % 2 == 1);
}

Test(record, move_accessors)
{
    gateau_record *record = support_read("game: piece-o-cake\nplayers: 3\n---\n" DEAL "\n"
                                         "cut 1-3 4-7 8-11\ntake 4-7 ecce\n");
    cr_assert_eq(gateau_record_move_count(record), 3);
    cr_assert_str_eq(gateau_record_move_text(record, 0), DEAL);
    cr_assert_str_eq(gateau_record_move_text(record, 2), "take 4-7 ecce");
    cr_assert_eq(gateau_record_move_seat(record, 0), GATEAU_CHANCE);
    cr_assert_eq(gateau_record_move_seat(record, 1), 0);
    cr_assert_eq(gateau_record_move_seat(record, 2), 1);
    /* The actions of the moves, applied in order to a new state, give the
     * record's position; each move's actions format to its text. */
    const gateau_setup *setup = gateau_record_setup(record);
    gateau_state *state = gateau_state_new(setup);
    for (int m = 0; m < 3; m++) {
        int count = -1, seat = gateau_record_move_seat(record, m);
        const gateau_action *actions = gateau_record_move_actions(record, m, &count);
        cr_assert_not_null(actions);
        cr_assert_gt(count, 0);
        char *text = gateau_move_format(state, seat, actions, count);
        cr_assert_str_eq(text, gateau_record_move_text(record, m));
        free(text);
        for (int a = 0; a < count; a++) {
            char error[256] = "";
            cr_assert(gateau_state_apply(state, seat, actions[a], error, sizeof error),
                      "move %d action %d: %s", m, a, error);
            cr_assert_eq(gateau_state_in_move(state), a < count - 1,
                         "a move's actions end exactly when the move does");
        }
    }
    cr_assert(same_state(state, gateau_record_state(record)));
    gateau_state_free(state);
    int count = -1;
    cr_assert_null(gateau_record_move_text(record, 3));
    cr_assert_null(gateau_record_move_text(record, -1));
    cr_assert_null(gateau_record_move_actions(record, 3, &count));
    cr_assert_eq(count, 0);
    cr_assert_eq(gateau_record_move_seat(record, 5), -1);
    gateau_record_free(record);
}

Test(record, truncate_restores_the_earlier_position_and_text)
{
    gateau_setup *setup = support_setup("piece-o-cake", 3, "rounds=2");
    gateau_record *record = gateau_record_new(setup);
    gateau_rng rng;
    gateau_rng_seed(&rng, 31);
    support_play_out(record, &rng);
    int total = gateau_record_move_count(record);
    cr_assert_gt(total, 20);
    char *full = gateau_record_text(record);
    gateau_record_free(record);

    /* Positions and texts after k moves, taken while replaying. */
    gateau_record *replay = support_read(full);
    cr_assert_eq(gateau_record_move_count(replay), total);
    static const int points[] = {0, 1, 2, 3, 7, 15, 21, 22, 30};
    for (size_t i = 0; i < sizeof points / sizeof points[0]; i++) {
        int k = points[i];
        if (k > total) continue;
        /* A working copy played to the end, then truncated back to k. */
        gateau_record *work = support_read(full);
        gateau_record_truncate(work, k);
        cr_assert_eq(gateau_record_move_count(work), k);
        /* The reference: a fresh record (same setup) with the first k move lines. */
        gateau_record *reference = gateau_record_new(gateau_record_setup(work));
        for (int m = 0; m < k; m++) {
            int seat = gateau_record_move_seat(replay, m);
            char error[512] = "";
            cr_assert(gateau_record_play_move(reference, seat, gateau_record_move_text(replay, m),
                                              error, sizeof error),
                      "%s", error);
        }
        char *a = gateau_record_text(reference), *b = gateau_record_text(work);
        cr_assert_str_eq(a, b, "truncate(%d) gives the text of the first %d moves", k, k);
        const gateau_state *sa = gateau_record_state(reference), *sb = gateau_record_state(work);
        cr_assert(same_state(sa, sb), "truncate(%d) restores the position exactly", k);
        char *va = observer_view(sa), *vb = observer_view(sb);
        cr_assert_str_eq(va, vb);
        /* Play continues from there as from the reference. */
        gateau_rng r1, r2;
        gateau_rng_seed(&r1, 1000 + (uint64_t)k);
        gateau_rng_seed(&r2, 1000 + (uint64_t)k);
        support_play_out(reference, &r1);
        support_play_out(work, &r2);
        char *ea = gateau_record_text(reference), *eb = gateau_record_text(work);
        cr_assert_str_eq(ea, eb);
        free(a), free(b), free(va), free(vb), free(ea), free(eb);
        gateau_record_free(reference); /* before work, which owns the setup */
        gateau_record_free(work);
    }
    /* Truncating to more moves than there are changes nothing; negative is 0. */
    char *before = gateau_record_text(replay);
    gateau_record_truncate(replay, total + 5);
    char *after = gateau_record_text(replay);
    cr_assert_str_eq(before, after);
    gateau_record_truncate(replay, -3);
    cr_assert_eq(gateau_record_move_count(replay), 0);
    cr_assert(gateau_state_is_chance(gateau_record_state(replay)));
    free(before), free(after), free(full);
    gateau_record_free(replay);
    gateau_setup_free(setup);
}

Test(record, truncate_drops_a_half_made_move)
{
    gateau_record *record = support_read("game: piece-o-cake\nplayers: 3\n---\n" DEAL "\n"
                                         "cut 1-3 4-7 8-11\n");
    const gateau_state *state = gateau_record_state(record);
    gateau_state *before = gateau_state_clone(state);
    char *text = gateau_record_text(record);
    /* Seat 2 starts a take: the first action only. */
    gateau_action actions[GATEAU_MAX_ACTIONS];
    int count = gateau_state_legal_actions(state, 1, actions);
    cr_assert_gt(count, 0);
    char error[256] = "";
    cr_assert(gateau_record_play(record, 1, actions[0], error, sizeof error), "%s", error);
    cr_assert(gateau_state_in_move(state), "a take is a move of several actions");
    cr_assert_eq(gateau_record_move_count(record), 2, "the move is not complete yet");
    /* Nobody else may act inside it. */
    cr_assert_eq(gateau_state_actors(state), 1u << 1);
    gateau_record_truncate(record, 2);
    cr_assert(!gateau_state_in_move(state));
    cr_assert(same_state(state, before), "the half-made move is gone");
    char *again = gateau_record_text(record);
    cr_assert_str_eq(text, again);
    /* And the seat can move normally again. */
    support_play(record, 1, "take 4-7 ecce");
    cr_assert_eq(gateau_record_move_count(record), 3);
    free(text), free(again);
    gateau_state_free(before);
    gateau_record_free(record);
}

Test(record, refused_moves_change_nothing)
{
    gateau_record *record = support_read("game: piece-o-cake\nplayers: 3\n---\n" DEAL "\n");
    support_refuse(record, 1, "cut 1-11", "seat 1");
    support_refuse(record, 0, "take 1-3 eee", "cut");
    support_refuse(record, 0, "cut 1-12", "1-12");
    support_refuse(record, GATEAU_CHANCE, DEAL, "chance");
    support_refuse(record, 0, "", "");
    support_play(record, 0, "cut 1-11");
    support_refuse(record, 1, "take 1-11 ccccccccccx", "x");
    gateau_record_free(record);
}

Test(record, resume_a_game_in_progress)
{
    gateau_setup *setup = support_setup("piece-o-cake", 4, "rounds=2");
    for (uint64_t seed = 0; seed < 6; seed++) {
        gateau_rng rng;
        gateau_rng_seed(&rng, 500 + seed);
        gateau_record *record = gateau_record_new(setup);
        gateau_record_set_name(record, 2, "Cy");
        play_moves(record, 3 + (int)seed * 7, &rng);
        cr_assert(!gateau_state_is_over(gateau_record_state(record)));
        char *text = gateau_record_text(record);

        /* Read back: the same position, and the game is not over. */
        gateau_record *resumed = support_read(text);
        const gateau_state *a = gateau_record_state(record), *b = gateau_record_state(resumed);
        cr_assert(!gateau_state_is_over(b));
        cr_assert_eq(gateau_state_actors(a), gateau_state_actors(b));
        cr_assert_eq(gateau_state_is_chance(a), gateau_state_is_chance(b));
        cr_assert_str_eq(gateau_record_name(resumed, 2), "Cy");
        cr_assert_str_eq(gateau_record_name(resumed, 0), "Seat 1");
        char *va = observer_view(a), *vb = observer_view(b);
        cr_assert_str_eq(va, vb);
        /* Play continues legally to the end, identically in both. */
        gateau_rng r1, r2;
        gateau_rng_seed(&r1, seed);
        gateau_rng_seed(&r2, seed);
        support_play_out(record, &r1);
        support_play_out(resumed, &r2);
        char *ea = gateau_record_text(record), *eb = gateau_record_text(resumed);
        cr_assert_str_eq(ea, eb);
        /* The finished record starts with the resumed one. */
        cr_assert_eq(strncmp(eb, text, strlen(text)), 0);
        gateau_record *final = support_read(eb);
        cr_assert(gateau_state_is_over(gateau_record_state(final)));
        gateau_record_free(final);
        free(text), free(va), free(vb), free(ea), free(eb);
        gateau_record_free(resumed);
        gateau_record_free(record);
    }
    gateau_setup_free(setup);
}

/* A temporary folder for file tests, removed by the caller via cleanup(). */
static char temp_dir[64];

static void make_temp_dir(void)
{
    strcpy(temp_dir, "/tmp/gateau-core-XXXXXX");
    cr_assert_not_null(mkdtemp(temp_dir));
}

static void remove_temp_dir(void)
{
    char command[128];
    snprintf(command, sizeof command, "rm -rf '%s'", temp_dir);
    cr_assert_eq(system(command), 0);
}

Test(record_file, save_and_read_file)
{
    make_temp_dir();
    gateau_setup *setup = support_setup("piece-o-cake", 2, NULL);
    gateau_record *record = gateau_record_new(setup);
    gateau_rng rng;
    gateau_rng_seed(&rng, 17);
    support_play_out(record, &rng);
    char path[128], error[512] = "";
    snprintf(path, sizeof path, "%s/game.txt", temp_dir);
    cr_assert_eq(gateau_record_save(record, path, error, sizeof error), 0, "%s", error);
    int line = -1;
    gateau_record *read = gateau_record_read_file(path, error, sizeof error, &line);
    cr_assert_not_null(read, "%s (line %d)", error, line);
    cr_assert_eq(line, 0);
    char *a = gateau_record_text(record), *b = gateau_record_text(read);
    cr_assert_str_eq(a, b);
    free(a), free(b);
    gateau_record_free(read);
    /* Saving where no file can be written fails with a reason. */
    snprintf(path, sizeof path, "%s/no/such/folder/game.txt", temp_dir);
    error[0] = '\0';
    cr_assert_neq(gateau_record_save(record, path, error, sizeof error), 0);
    expect_contains(error, path);
    gateau_record_free(record);
    gateau_setup_free(setup);
    remove_temp_dir();
}

Test(record_file, missing_file)
{
    char error[512] = "";
    int line = -1;
    gateau_record *record =
        gateau_record_read_file("/nonexistent/gateau/record.txt", error, sizeof error, &line);
    cr_assert_null(record);
    cr_assert_eq(line, 0);
    expect_contains(error, "/nonexistent/gateau/record.txt");
    cr_assert_null(strchr(error, '\n'));
}

Test(record_file, binary_file)
{
    make_temp_dir();
    char path[128];
    snprintf(path, sizeof path, "%s/binary.dat", temp_dir);
    FILE *file = fopen(path, "wb");
    cr_assert_not_null(file);
    /* A valid-looking start, then bytes with NULs. */
    const char start[] = "game: piece-o-cake\nplayers: 2\n";
    fwrite(start, 1, sizeof start - 1, file);
    for (int i = 0; i < 9000; i++) fputc((i * 37) & 0xff, file);
    fclose(file);
    char error[512] = "";
    int line = -1;
    gateau_record *record = gateau_record_read_file(path, error, sizeof error, &line);
    cr_assert_null(record);
    cr_assert(error[0]);
    expect_contains(error, "binary.dat");
    cr_assert_null(strchr(error, '\n'));
    cr_assert_geq(line, 0);

    /* NULs only past the first 4096 bytes. */
    file = fopen(path, "wb");
    cr_assert_not_null(file);
    fputs("game: piece-o-cake\nplayers: 2\n---\n", file);
    for (int i = 0; i < 5000; i++) fputc('#', file);
    fputc('\0', file);
    fputs("\n", file);
    fclose(file);
    record = gateau_record_read_file(path, error, sizeof error, &line);
    cr_assert_null(record, "a NUL byte anywhere makes the file not a record");
    /* A directory is not a record either. */
    record = gateau_record_read_file(temp_dir, error, sizeof error, &line);
    cr_assert_null(record);
    cr_assert(error[0]);
    remove_temp_dir();
}

Test(record_file, empty_file)
{
    make_temp_dir();
    char path[128];
    snprintf(path, sizeof path, "%s/empty.txt", temp_dir);
    FILE *file = fopen(path, "w");
    cr_assert_not_null(file);
    fclose(file);
    char error[512] = "";
    int line = -1;
    cr_assert_null(gateau_record_read_file(path, error, sizeof error, &line));
    cr_assert(error[0]);
    cr_assert_eq(line, 0);
    remove_temp_dir();
}

/* ---- The views' JSON writer (core/json_write.h, internal) ------------------------------ */

/* Writes the same value with the writer and as a jansson value. */
static void both_string(json_writer *out, json_t *array, const char *value)
{
    json_write_string(out, value);
    json_array_append_new(array, json_string(value));
}

static void both_integer(json_writer *out, json_t *array, long long value)
{
    json_write_integer(out, value);
    json_array_append_new(array, json_integer(value));
}

/* The writer's bytes are jansson's compact dump of the same values, which
 * the views were before (escapes, numbers, nesting, commas). */
Test(json_write, writes_what_jansson_dumps)
{
    static const char *const strings[] = {
        "", "plain", "quote \" backslash \\ slash /", "\b\f\n\r\t", "\x01\x1f\x7f ~",
        "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8d\xb0"};
    static const long long integers[] = {0, 7, -1, -7, 10, -10, 1234567890123, LLONG_MAX, LLONG_MIN};
    gateau_text text = {0};
    json_writer out = {&text, false};
    json_t *expected = json_object();
    json_write_begin_object(&out);
    json_write_key(&out, "strings");
    json_write_begin_array(&out);
    json_t *list = json_array();
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) both_string(&out, list, strings[i]);
    json_write_end_array(&out);
    json_object_set_new(expected, "strings", list);
    json_write_key(&out, "integers");
    json_write_begin_array(&out);
    list = json_array();
    for (size_t i = 0; i < sizeof integers / sizeof integers[0]; i++) both_integer(&out, list, integers[i]);
    json_write_end_array(&out);
    json_object_set_new(expected, "integers", list);
    json_write_key(&out, "a \"key\"\n");
    json_write_begin_array(&out);
    json_write_begin_array(&out);
    json_write_end_array(&out);
    json_write_begin_object(&out);
    json_write_end_object(&out);
    json_write_begin_object(&out);
    json_write_key(&out, "b");
    json_write_null(&out);
    json_write_key(&out, "a");
    json_write_boolean(&out, true);
    json_write_end_object(&out);
    json_write_boolean(&out, false);
    json_write_end_array(&out);
    json_object_set_new(expected, "a \"key\"\n",
                        json_pack("[[], {}, {s:n, s:b}, b]", "b", "a", true, false));
    json_write_end_object(&out);
    char *dumped = json_dumps(expected, JSON_COMPACT | JSON_PRESERVE_ORDER);
    cr_assert_str_eq(text.data, dumped);
    free(dumped);
    json_decref(expected);
    text_free(&text);
}

/* gateau_setup_max_game_length bounds every game: random games of every
 * game and player count (and piece o' Cake's rounds) never take more
 * actions, and the bound is not wildly above what they take. */
Test(setup, max_game_length_bounds_random_games)
{
    gateau_rng rng;
    gateau_rng_seed(&rng, 26);
    for (int g = 0; g < gateau_game_count(); g++) {
        const gateau_game *game = gateau_game_at(g);
        for (int players = gateau_game_min_players(game);
             players <= gateau_game_max_players(game); players++) {
            for (int rounds = 1; rounds <= 2; rounds++) {
                char options[32] = "";
                if (rounds == 2) {
                    if (strcmp(gateau_game_name(game), "piece-o-cake")) continue;
                    snprintf(options, sizeof options, "rounds=2");
                }
                gateau_setup *setup =
                    support_setup(gateau_game_name(game), players, options);
                int bound = gateau_setup_max_game_length(setup);
                cr_assert_gt(bound, 0);
                for (int k = 0; k < 3; k++) {
                    gateau_state *state = gateau_state_new(setup);
                    int length = 0;
                    while (!gateau_state_is_over(state)) {
                        support_random_step(state, &rng);
                        length++;
                        cr_assert_leq(length, bound, "%s with %d players: %d actions, bound %d",
                                      gateau_game_name(game), players, length, bound);
                    }
                    gateau_state_free(state);
                }
                gateau_setup_free(setup);
            }
        }
    }
}
