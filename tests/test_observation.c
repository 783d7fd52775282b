/*
 * test_observation.c: observations, legal masks and batches
 * (gateau/observation.h), for every game and player count.
 *
 * - An observation has the game's fixed size in every state, for every
 *   seat, and its values are finite and small.
 * - Determinizing a state for a seat never changes the seat's observation
 *   (nor its mask): the tensor holds only what the seat knows.  Several
 *   determinizations per state, so that a hidden field that leaks shows
 *   up as a difference.
 * - Every legal action is inside the action space, and the mask marks
 *   exactly the legal actions.
 * - A batch plays exactly the games a single state plays with the same
 *   generators and actions, reports what gateau_state_observation and the
 *   legal actions say, ends games with their scores and winners, and
 *   refuses an illegal action without playing anything.
 * - A batch checks actions against its own record of the legal actions,
 *   never against the caller's output arrays.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine.h"
#include "gateau/observation.h"
#include "support.h"

enum { DETERMINIZATIONS = 3 };

ParameterizedTestParameters(observation, determinize_invariance)
{
    return support_all_game_cases();
}

/* What game->observe writes, counted (the library asserts it only in
 * Debug builds). */
static int written_count(const gateau_state *state, int seat)
{
    observation_writer counter = {.out = NULL, .count = 0};
    gateau_state_setup(state)->game->observe(state, seat, &counter);
    return counter.count;
}

static void check_mask(const gateau_state *state, int seat, int space, uint8_t *mask)
{
    gateau_action actions[GATEAU_MAX_ACTIONS];
    int count = gateau_state_legal_actions(state, seat, actions);
    cr_assert_eq(gateau_state_legal_mask(state, seat, mask), count);
    int marked = 0;
    for (int a = 0; a < space; a++) marked += mask[a];
    cr_assert_eq(marked, count, "the mask marks the legal actions only");
    for (int i = 0; i < count; i++) {
        cr_assert(actions[i] >= 0 && actions[i] < space, "action %d outside the space of %d",
                  actions[i], space);
        cr_assert_eq(mask[actions[i]], 1);
    }
}

/* The first value where two observations differ, or -1. */
static int first_difference(const float *a, const float *b, int size)
{
    for (int i = 0; i < size; i++)
        if (a[i] != b[i]) return i;
    return -1;
}

static void check_position(const gateau_state *state, gateau_rng *rng, float *truth,
                           float *sampled, uint8_t *mask, uint8_t *sampled_mask)
{
    const gateau_setup *setup = gateau_state_setup(state);
    int size = gateau_observation_size(setup), space = gateau_action_space_size(setup);
    int players = gateau_state_players(state);
    gateau_state *copy = gateau_state_clone(state);
    for (int seat = GATEAU_OBSERVER; seat < players; seat++) {
        cr_assert_eq(written_count(state, seat), size, "fixed size");
        cr_assert(gateau_state_observation(state, seat, truth));
        for (int i = 0; i < size; i++)
            cr_assert(isfinite(truth[i]) && fabsf(truth[i]) <= 10.0f, "value %d is %g", i,
                      (double)truth[i]);
        if (seat >= 0) check_mask(state, seat, space, mask);
        for (int d = 0; d < DETERMINIZATIONS; d++) {
            gateau_state_copy(copy, state);
            gateau_state_determinize(copy, seat, rng);
            gateau_state_observation(copy, seat, sampled);
            int at = first_difference(truth, sampled, size);
            cr_assert_eq(at, -1, "seat %d's observation changed by determinizing: value %d, %g "
                         "became %g", seat + 1, at, at >= 0 ? (double)truth[at] : 0.0,
                         at >= 0 ? (double)sampled[at] : 0.0);
            if (seat < 0) continue;
            gateau_state_legal_mask(copy, seat, sampled_mask);
            cr_assert_eq(memcmp(mask, sampled_mask, (size_t)space), 0,
                         "seat %d's mask changed by determinizing", seat + 1);
        }
    }
    gateau_state_free(copy);
}

ParameterizedTest(game_case *c, observation, determinize_invariance, .timeout = 600)
{
    gateau_setup *setup = support_setup(c->game, c->players, NULL);
    int size = gateau_observation_size(setup), space = gateau_action_space_size(setup);
    cr_assert_gt(size, 0);
    float *truth = malloc(sizeof(float) * (size_t)size);
    float *sampled = malloc(sizeof(float) * (size_t)size);
    uint8_t *mask = malloc((size_t)space), *sampled_mask = malloc((size_t)space);
    int games = support_property_games(1000) / 25 + 1; /* 41 by default */
    for (int g = 0; g < games; g++) {
        gateau_rng rng;
        gateau_rng_seed(&rng, (uint64_t)g);
        gateau_state *state = gateau_state_new(setup);
        while (!gateau_state_is_over(state)) {
            check_position(state, &rng, truth, sampled, mask, sampled_mask);
            if (gateau_state_is_chance(state)) {
                gateau_state_apply_legal(state, GATEAU_CHANCE,
                                         gateau_state_sample_chance(state, &rng));
                continue;
            }
            gateau_action actions[GATEAU_MAX_ACTIONS];
            int seat = gateau_state_next_seat(state);
            int count = gateau_state_legal_actions(state, seat, actions);
            gateau_state_apply_legal(state, seat,
                                     actions[gateau_rng_below(&rng, (uint32_t)count)]);
        }
        check_position(state, &rng, truth, sampled, mask, sampled_mask);
        gateau_state_free(state);
    }
    cr_log_info("%s, %d players: %d games, observation of %d, action space %d", c->game,
                c->players, games, size, space);
    free(truth);
    free(sampled);
    free(mask);
    free(sampled_mask);
    gateau_setup_free(setup);
}

Test(observation, same_size_for_every_player_count)
{
    for (int g = 0; g < gateau_game_count(); g++) {
        const gateau_game *game = gateau_game_at(g);
        int first = -1;
        for (int p = gateau_game_min_players(game); p <= gateau_game_max_players(game); p++) {
            gateau_setup *setup = support_setup(gateau_game_name(game), p, NULL);
            if (first < 0) first = gateau_observation_size(setup);
            cr_assert_eq(gateau_observation_size(setup), first, "%s", gateau_game_name(game));
            gateau_setup_free(setup);
        }
    }
}

Test(observation, refuses_a_seat_that_is_not_there)
{
    gateau_setup *setup = support_setup("mice-cake", 2, NULL);
    gateau_state *state = gateau_state_new(setup);
    float out[1] = {42.0f};
    cr_assert_not(gateau_state_observation(state, 2, out));
    cr_assert_not(gateau_state_observation(state, -3, out));
    cr_assert_eq(out[0], 42.0f, "left untouched");
    gateau_state_free(state);
    gateau_setup_free(setup);
}

/* ---- Batches ------------------------------------------------------------------ */

ParameterizedTestParameters(batch, same_games_as_single_states)
{
    return support_all_game_cases();
}

/* A batch of games against the same games played one state at a time:
 * chance from gateau_rng_seed_stream(seed, i), the same actions. */
ParameterizedTest(game_case *c, batch, same_games_as_single_states, .timeout = 600)
{
    enum { GAMES = 4, SEED = 7 };
    gateau_setup *setup = support_setup(c->game, c->players, NULL);
    const gateau_game_type *type = gateau_game_type_of(gateau_setup_game(setup));
    int size = gateau_observation_size(setup), space = gateau_action_space_size(setup);
    int players = c->players, max_actions = type->max_actions;
    float *observations = calloc(GAMES, sizeof(float) * (size_t)size);
    float *expected = calloc(1, sizeof(float) * (size_t)size);
    uint8_t *masks = calloc(GAMES, (size_t)space), *mask = calloc(1, (size_t)space);
    int32_t *legal = calloc(GAMES, sizeof(int32_t) * (size_t)max_actions);
    int32_t counts[GAMES], seats[GAMES];
    float rewards[GAMES * GATEAU_MAX_PLAYERS];
    uint32_t winners[GAMES];
    uint8_t done[GAMES];
    gateau_batch_outputs out = {observations, masks, legal, counts, seats, rewards, winners, done};
    char error[256];
    gateau_batch *batch = gateau_batch_new(setup, GAMES, SEED, error, sizeof error);
    cr_assert_not_null(batch, "%s", error);
    cr_assert_not(gateau_batch_step(batch, (gateau_action[GAMES]){0}, &out, error, sizeof error));
    cr_assert_str_eq(error, "the batch has not been reset: no game has started");
    gateau_batch_reset(batch, &out);

    gateau_state *single[GAMES];
    gateau_rng chance[GAMES];
    for (int i = 0; i < GAMES; i++) {
        single[i] = gateau_state_new(setup);
        gateau_rng_seed_stream(&chance[i], SEED, (uint64_t)i);
    }
    gateau_rng policy;
    gateau_rng_seed(&policy, 1);
    long ended = 0;
    for (int step = 0; ended < 2 * GAMES; step++) {
        gateau_action actions[GAMES];
        for (int i = 0; i < GAMES; i++) {
            gateau_state *s = single[i];
            while (gateau_state_is_chance(s))
                gateau_state_apply_legal(s, GATEAU_CHANCE, gateau_state_sample_chance(s, &chance[i]));
            int seat = gateau_state_next_seat(s);
            cr_assert_eq(seats[i], seat, "game %d step %d: seat", i, step);
            gateau_action expected_legal[GATEAU_MAX_ACTIONS];
            int count = gateau_state_legal_actions(s, seat, expected_legal);
            cr_assert_eq(counts[i], count);
            cr_assert_eq(memcmp(legal + i * max_actions, expected_legal, sizeof(int32_t) * (size_t)count), 0);
            gateau_state_legal_mask(s, seat, mask);
            cr_assert_eq(memcmp(masks + (size_t)i * space, mask, (size_t)space), 0);
            gateau_state_observation(s, seat, expected);
            cr_assert_eq(memcmp(observations + (size_t)i * size, expected, sizeof(float) * (size_t)size), 0,
                         "game %d step %d: observation", i, step);
            actions[i] = expected_legal[gateau_rng_below(&policy, (uint32_t)count)];
        }
        if (step == 3) { /* an illegal action refuses the whole step */
            gateau_action wrong[GAMES];
            memcpy(wrong, actions, sizeof wrong);
            wrong[GAMES - 1] = -5;
            cr_assert_not(gateau_batch_step(batch, wrong, &out, error, sizeof error));
            cr_assert(strstr(error, "game 3: action -5 is not a legal action"), "%s", error);
        }
        /* The entries past a game's list are left as they were (the game
         * writes its list straight into the row). */
        int32_t *before = malloc(sizeof(int32_t) * GAMES * (size_t)max_actions);
        for (int i = 0; i < GAMES; i++)
            for (int k = counts[i]; k < max_actions; k++) legal[i * max_actions + k] = -7 - k;
        memcpy(before, legal, sizeof(int32_t) * GAMES * (size_t)max_actions);
        cr_assert(gateau_batch_step(batch, actions, &out, error, sizeof error), "%s", error);
        for (int i = 0; i < GAMES; i++)
            for (int k = counts[i]; k < max_actions; k++)
                cr_assert_eq(legal[i * max_actions + k], before[i * max_actions + k],
                             "game %d step %d: entry %d past the list written", i, step, k);
        free(before);
        for (int i = 0; i < GAMES; i++) {
            gateau_state *s = single[i];
            gateau_state_apply_legal(s, seats[i] >= 0 ? gateau_state_next_seat(s) : 0, actions[i]);
            while (gateau_state_is_chance(s))
                gateau_state_apply_legal(s, GATEAU_CHANCE, gateau_state_sample_chance(s, &chance[i]));
            bool over = gateau_state_is_over(s);
            cr_assert_eq(done[i], over, "game %d step %d: done", i, step);
            int scores[GATEAU_MAX_PLAYERS] = {0};
            if (over) gateau_state_scores(s, scores);
            for (int p = 0; p < players; p++) cr_assert_eq(rewards[i * players + p], (float)scores[p]);
            cr_assert_eq(winners[i], over ? gateau_state_winners(s) : 0u);
            if (over) {
                ended++;
                gateau_state_free(s);
                single[i] = gateau_state_new(setup);
            }
        }
    }
    cr_assert_eq(gateau_batch_games_finished(batch), ended);
    for (int i = 0; i < GAMES; i++) gateau_state_free(single[i]);
    gateau_batch_free(batch);
    free(observations);
    free(expected);
    free(masks);
    free(mask);
    free(legal);
    gateau_setup_free(setup);
}

ParameterizedTestParameters(batch, checks_against_its_own_record)
{
    return support_all_game_cases();
}

/* A step checks every action against what the batch itself reported, not
 * against the caller's arrays, which the caller may have written to: an
 * action written into the legal_actions output is still refused, and so
 * are actions outside the action space (below 0, at its size, at 64 where
 * the batch keeps a 64-bit set).  The first bad game is named, whatever
 * the games after it hold. */
ParameterizedTest(game_case *c, batch, checks_against_its_own_record)
{
    enum { GAMES = 3 };
    gateau_setup *setup = support_setup(c->game, c->players, NULL);
    int space = gateau_action_space_size(setup);
    int max_actions = gateau_game_type_of(gateau_setup_game(setup))->max_actions;
    int32_t *legal = calloc(GAMES, sizeof(int32_t) * (size_t)max_actions);
    int32_t counts[GAMES], seats[GAMES];
    gateau_batch_outputs out = {.legal_actions = legal, .legal_counts = counts, .seats = seats};
    char error[256];
    gateau_batch *batch = gateau_batch_new(setup, GAMES, 3, error, sizeof error);
    cr_assert_not_null(batch, "%s", error);
    gateau_batch_reset(batch, &out);

    /* An action of the space that game 1's seat may not take now. */
    uint8_t *mask = calloc(1, (size_t)space);
    const gateau_state *second = gateau_batch_state(batch, 1);
    gateau_state_legal_mask(second, gateau_state_next_seat(second), mask);
    int unlisted = 0;
    while (unlisted < space && mask[unlisted]) unlisted++;
    cr_assert_lt(unlisted, space, "some action is not legal");
    legal[1 * max_actions] = unlisted; /* the caller writes over the output */

    gateau_action bad[] = {unlisted, -1, space, 64, 1 << 20};
    for (size_t b = 0; b < sizeof bad / sizeof *bad; b++) {
        if (bad[b] >= 0 && bad[b] < space && mask[bad[b]]) continue; /* 64 may be legal */
        gateau_action actions[GAMES] = {legal[0], bad[b], bad[b]};
        cr_assert_not(gateau_batch_step(batch, actions, &out, error, sizeof error));
        char expected[64];
        snprintf(expected, sizeof expected, "game 1: action %d is not a legal action", bad[b]);
        cr_assert(strstr(error, expected), "%s: %s", expected, error);
    }
    cr_assert_eq(legal[1 * max_actions], unlisted, "a refused step writes no output");
    cr_assert_eq(gateau_batch_games_finished(batch), 0);
    gateau_batch_free(batch);
    free(mask);
    free(legal);
    gateau_setup_free(setup);
}

Test(batch, refuses_a_bad_count)
{
    gateau_setup *setup = support_setup("maries-table", 3, NULL);
    char error[256];
    cr_assert_null(gateau_batch_new(setup, 0, 1, error, sizeof error));
    cr_assert_str_eq(error, "a batch holds 1 to 1048576 games, not 0");
    gateau_setup_free(setup);
}

/* gateau_batch_game_start and gateau_batch_replay_game: a batch's games,
 * replayed from their start generators and the actions since into another
 * batch, are the same games (the same bytes), and a bad replay changes
 * nothing. */
Test(batch, games_replay_into_another_batch)
{
    gateau_setup *setup = support_setup("mice-cake", 2, NULL);
    enum { GAMES = 4, STEPS = 700, MOST = 1024 };
    gateau_batch *batch = gateau_batch_new(setup, GAMES, 5, NULL, 0);
    int max_actions = gateau_game_type_of(gateau_setup_game(setup))->max_actions;
    gateau_action *legal = calloc(GAMES * (size_t)max_actions, sizeof *legal);
    int32_t counts[GAMES], seats[GAMES];
    uint8_t done[GAMES];
    gateau_batch_outputs out = {.legal_actions = legal, .legal_counts = counts, .seats = seats,
                                .done = done};
    char error[256];
    gateau_rng probe;
    cr_assert_not(gateau_batch_game_start(batch, 0, &probe), "no game before a reset");
    gateau_batch_reset(batch, &out);
    cr_assert_not(gateau_batch_game_start(batch, GAMES, &probe));
    gateau_action since[GAMES][MOST];
    int lengths[GAMES] = {0};
    gateau_rng choose;
    gateau_rng_seed(&choose, 3);
    long finished = 0;
    for (int step = 0; step < STEPS; step++) {
        gateau_action actions[GAMES];
        for (int i = 0; i < GAMES; i++)
            actions[i] = legal[i * max_actions + (int)gateau_rng_below(&choose,
                                                                       (uint32_t)counts[i])];
        cr_assert(gateau_batch_step(batch, actions, &out, error, sizeof error), "%s", error);
        for (int i = 0; i < GAMES; i++) {
            since[i][lengths[i]++] = actions[i];
            if (done[i]) lengths[i] = 0, finished++;
            cr_assert_lt(lengths[i], MOST);
        }
    }
    cr_assert_gt(finished, 0, "some games restarted (their start generator moved on)");

    gateau_batch *other = gateau_batch_new(setup, GAMES, 99, NULL, 0);
    gateau_action *legal2 = calloc(GAMES * (size_t)max_actions, sizeof *legal2);
    int32_t counts2[GAMES], seats2[GAMES];
    gateau_batch_outputs out2 = {.legal_actions = legal2, .legal_counts = counts2,
                                 .seats = seats2};
    cr_assert_not(gateau_batch_replay_game(other, 0, &probe, NULL, 0, &out2, error, sizeof error));
    cr_assert_str_eq(error, "the batch has not been reset: no game has started");
    gateau_batch_reset(other, &out2);
    size_t size = gateau_state_size(setup);
    for (int i = 0; i < GAMES; i++) {
        gateau_rng start;
        cr_assert(gateau_batch_game_start(batch, i, &start));
        cr_assert(gateau_batch_replay_game(other, i, &start, since[i], lengths[i], &out2, error,
                                           sizeof error), "game %d: %s", i, error);
        cr_assert(memcmp(gateau_batch_state(batch, i), gateau_batch_state(other, i), size) == 0,
                  "game %d replays to the same state", i);
        cr_assert_eq(counts2[i], counts[i]);
        cr_assert_eq(seats2[i], seats[i]);
        cr_assert(memcmp(legal2 + i * max_actions, legal + i * max_actions,
                         sizeof *legal * (size_t)counts[i]) == 0);
    }
    /* The replayed batch steps on exactly as the first. */
    for (int step = 0; step < 50; step++) {
        gateau_action actions[GAMES];
        for (int i = 0; i < GAMES; i++)
            actions[i] = legal[i * max_actions + (int)gateau_rng_below(&choose,
                                                                       (uint32_t)counts[i])];
        cr_assert(gateau_batch_step(batch, actions, &out, error, sizeof error), "%s", error);
        cr_assert(gateau_batch_step(other, actions, &out2, error, sizeof error), "%s", error);
        for (int i = 0; i < GAMES; i++)
            cr_assert(memcmp(gateau_batch_state(batch, i), gateau_batch_state(other, i), size) ==
                      0, "step %d game %d", step, i);
    }

    /* Refused: nothing changes. */
    unsigned char *before = malloc(size);
    memcpy(before, gateau_batch_state(other, 1), size);
    gateau_rng start;
    gateau_batch_game_start(other, 1, &start);
    gateau_action bad[2] = {9999, 0};
    cr_assert_not(gateau_batch_replay_game(other, 1, &start, bad, 1, &out2, error, sizeof error));
    cr_assert(strstr(error, "game 1, action 1 of 1: ") == error, "%s", error);
    cr_assert_not(gateau_batch_replay_game(other, GAMES, &start, bad, 0, &out2, error,
                                           sizeof error));
    cr_assert_str_eq(error, "there is no game 4 in a batch of 4");
    cr_assert_not(gateau_batch_replay_game(other, 1, &start, NULL, 3, &out2, error, sizeof error));
    /* A whole game and one action more: the game ends before the last. */
    gateau_state *state = gateau_state_new(setup);
    gateau_rng chance = start, pick;
    gateau_rng_seed(&pick, 8);
    gateau_action whole[MOST];
    int n = 0;
    while (!gateau_state_is_over(state)) {
        if (gateau_state_is_chance(state)) {
            gateau_state_apply_legal(state, GATEAU_CHANCE,
                                     gateau_state_sample_chance(state, &chance));
            continue;
        }
        gateau_action options[GATEAU_MAX_ACTIONS];
        int seat = gateau_state_next_seat(state);
        int k = gateau_state_legal_actions(state, seat, options);
        whole[n] = options[gateau_rng_below(&pick, (uint32_t)k)];
        gateau_state_apply_legal(state, seat, whole[n++]);
    }
    cr_assert_not(gateau_batch_replay_game(other, 1, &start, whole, n, &out2, error, sizeof error));
    cr_assert(strstr(error, "the actions end the game") != NULL, "%s", error);
    whole[n] = whole[n - 1];
    cr_assert_not(gateau_batch_replay_game(other, 1, &start, whole, n + 1, &out2, error,
                                           sizeof error));
    cr_assert(strstr(error, "the game ends after") != NULL, "%s", error);
    cr_assert(memcmp(before, gateau_batch_state(other, 1), size) == 0, "refusals change nothing");
    free(before);
    gateau_state_free(state);
    gateau_batch_free(other);
    gateau_batch_free(batch);
    free(legal2);
    free(legal);
    gateau_setup_free(setup);
}
