/*
 * test_from_view.c: positions read back from a seat's JSON view
 * (gateau_state_from_view), every game at every player count.
 *
 * - Along random games, at every position between moves and for every
 *   seat: the seat's view reads back, shows the same bytes again, and
 *   determinizing the read-back position gives exactly what determinizing
 *   the true position gives (same generator): the seat cannot tell them
 *   apart, so a bot that gets only views plays as one that gets states.
 *   Then a random game is played on from there, which must not trip a
 *   sanitizer.
 * - Views changed one value at a time (a number moved, a string, a list
 *   emptied, a field dropped) are refused with a reason or read as the
 *   position they show; either way nothing crashes and what was read
 *   plays on.
 * - What is not a view at all is refused with a one-line reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

/* GATEAU_TEST_GAME=GAME: only that game's cases (while writing its reader). */
static void skip_other_games(const char *game)
{
    const char *only = getenv("GATEAU_TEST_GAME");
    if (only && only[0] && strcmp(only, game) != 0) cr_skip_test("only %s", only);
}

static void play_randomly_to_the_end(gateau_state *state, gateau_rng *rng)
{
    for (int step = 0; !gateau_state_is_over(state) && step < 100000; step++)
        support_random_step(state, rng);
    cr_assert(gateau_state_is_over(state), "a read-back position never ends");
}

/* The view of seat in state reads back to a position seat cannot tell from
 * state; sometimes plays on from it. */
static void check_reads_back(const gateau_state *state, int seat, gateau_rng *rng, long step)
{
    const gateau_setup *setup = gateau_state_setup(state);
    const char *game = gateau_game_name(gateau_setup_game(setup));
    char *view = gateau_state_view_json(state, seat);
    char error[256] = "";
    gateau_state *read = gateau_state_from_view(setup, seat, view, error, sizeof error);
    cr_assert_not_null(read, "%s/%d step %ld seat %d: refused its own view: %s\n%s", game,
                       gateau_setup_players(setup), step, seat + 1, error, view);
    char *again = gateau_state_view_json(read, seat);
    cr_assert_str_eq(again, view, "%s step %ld seat %d: the read-back view differs", game, step,
                     seat + 1);
    if (!gateau_state_is_over(state)) {
        gateau_state *truth = gateau_state_clone(state);
        gateau_rng r1, r2;
        gateau_rng_seed(&r1, 99 + (uint64_t)step);
        r2 = r1;
        gateau_state_determinize(truth, seat, &r1);
        gateau_state *guess = gateau_state_clone(read);
        gateau_state_determinize(guess, seat, &r2);
        cr_assert(memcmp(truth, guess, gateau_state_size(setup)) == 0,
                  "%s/%d step %ld seat %d: the read-back position determinizes differently "
                  "from the true one\n%s", game, gateau_setup_players(setup), step, seat + 1,
                  view);
        gateau_state_free(truth);
        gateau_state_free(guess);
        if (gateau_rng_below(rng, 16) == 0) play_randomly_to_the_end(read, rng);
    }
    gateau_state_free(read);
    free(again);
    free(view);
}

ParameterizedTestParameters(from_view, every_position_reads_back)
{
    return support_all_game_cases();
}

ParameterizedTest(game_case *param, from_view, every_position_reads_back, .timeout = 600)
{
    skip_other_games(param->game);
    gateau_setup *setup = support_setup(param->game, param->players, NULL);
    gateau_rng rng;
    gateau_rng_seed_stream(&rng, 31, (uint64_t)param->players);
    int games = support_property_games(1000) / 100 + 1; /* 11 by default, 3 sanitized */
    for (int g = 0; g < games; g++) {
        gateau_state *state = gateau_state_new(setup);
        for (long step = 0;; step++) {
            /* Between moves: what a program of the bot protocol is shown. */
            if (!gateau_state_in_move(state))
                for (int seat = 0; seat < param->players; seat++)
                    check_reads_back(state, seat, &rng, step);
            if (gateau_state_is_over(state)) break;
            support_random_step(state, &rng);
        }
        gateau_state_free(state);
    }
    gateau_setup_free(setup);
}

/* ---- Views changed one value at a time ----------------------------------------- */

/* Reads text as seat's view; whatever it gives must be safe: a refusal has
 * a one-line reason, a position plays on. */
static void read_changed(const gateau_setup *setup, int seat, json_t *root, gateau_rng *rng,
                         int *read_count)
{
    char *text = json_dumps(root, JSON_COMPACT);
    char error[256] = "";
    gateau_state *read = gateau_state_from_view(setup, seat, text, error, sizeof error);
    if (read) {
        (*read_count)++;
        play_randomly_to_the_end(read, rng);
        gateau_state_free(read);
    } else {
        cr_assert(error[0] && !strchr(error, '\n'), "a refusal without a one-line reason: '%s'",
                  error);
    }
    free(text);
}

/* Visits every value under node, changing each in turn in root (then
 * putting it back) and reading the result. */
static void change_each(const gateau_setup *setup, int seat, json_t *root, json_t *node,
                        gateau_rng *rng, int *read_count, int *tried)
{
    if (json_is_object(node)) {
        /* The keys first: a key set again moves to the end of jansson's
         * order, so changing while iterating would visit it again. */
        size_t count = json_object_size(node), k = 0;
        char **keys = calloc(count + 1, sizeof *keys);
        const char *key;
        json_t *value;
        json_object_foreach(node, key, value) keys[k++] = strdup(key);
        for (k = 0; k < count; k++) {
            key = keys[k];
            json_t *kept = json_incref(json_object_get(node, key));
            /* Dropped, null, then each change of the value itself. */
            json_object_del(node, key);
            read_changed(setup, seat, root, rng, read_count);
            json_object_set(node, key, json_null());
            read_changed(setup, seat, root, rng, read_count);
            if (json_is_boolean(kept)) { /* jansson's booleans are shared: set the other */
                json_object_set_new(node, key, json_boolean(!json_is_true(kept)));
                read_changed(setup, seat, root, rng, read_count);
            }
            json_object_set(node, key, kept);
            change_each(setup, seat, root, kept, rng, read_count, tried);
            json_decref(kept);
            free(keys[k]);
            (*tried)++;
        }
        free(keys);
    } else if (json_is_array(node)) {
        size_t size = json_array_size(node);
        if (size) {
            json_t *last = json_incref(json_array_get(node, size - 1));
            json_array_remove(node, size - 1);
            read_changed(setup, seat, root, rng, read_count);
            json_array_append_new(node, last);
            json_array_append(node, json_array_get(node, 0));
            read_changed(setup, seat, root, rng, read_count);
            json_array_remove(node, size);
        }
        for (size_t i = 0; i < size; i++)
            change_each(setup, seat, root, json_array_get(node, i), rng, read_count, tried);
    } else if (json_is_integer(node)) {
        json_int_t value = json_integer_value(node);
        static const json_int_t shifts[] = {1, -1, 7, -1000, 1000000};
        for (size_t s = 0; s < sizeof shifts / sizeof shifts[0]; s++) {
            json_integer_set(node, value + shifts[s]);
            read_changed(setup, seat, root, rng, read_count);
        }
        json_integer_set(node, value);
    } else if (json_is_string(node)) {
        char *value = strdup(json_string_value(node));
        static const char *const texts[] = {"", "x", "99", "-1"};
        for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
            json_string_set(node, texts[t]);
            read_changed(setup, seat, root, rng, read_count);
        }
        json_string_set(node, value);
        free(value);
    }
}

ParameterizedTestParameters(from_view, changed_views_are_refused_or_read_safely)
{
    return support_all_game_cases();
}

ParameterizedTest(game_case *param, from_view, changed_views_are_refused_or_read_safely,
                  .timeout = 600)
{
    skip_other_games(param->game);
    gateau_setup *setup = support_setup(param->game, param->players, NULL);
    gateau_rng rng;
    gateau_rng_seed_stream(&rng, 53, (uint64_t)param->players);
    gateau_state *state = gateau_state_new(setup);
    int read_count = 0, tried = 0, checked = 0;
    /* The first position where a seat decides, in case the draw below
     * passes every position by (a short game: piece o' Cake has 26). */
    gateau_state *first_decision = NULL;
    /* A few positions of one random game, chosen at random. */
    while (!gateau_state_is_over(state)) {
        if (!gateau_state_in_move(state) && gateau_rng_below(&rng, 40) == 0) {
            int seat = (int)gateau_rng_below(&rng, (uint64_t)param->players);
            json_t *view = support_view(state, seat);
            change_each(setup, seat, view, view, &rng, &read_count, &tried);
            json_decref(view);
            checked++;
        }
        if (!first_decision && !gateau_state_in_move(state) && !gateau_state_is_chance(state))
            first_decision = gateau_state_clone(state);
        support_random_step(state, &rng);
    }
    if (!checked && first_decision) {
        int seat = gateau_state_next_seat(first_decision);
        json_t *view = support_view(first_decision, seat);
        change_each(setup, seat, view, view, &rng, &read_count, &tried);
        json_decref(view);
    }
    cr_assert_gt(tried, 0, "no view was changed");
    gateau_state_free(first_decision);
    gateau_state_free(state);
    gateau_setup_free(setup);
}

/* ---- What is not a view -------------------------------------------------------- */

static void refused(const gateau_setup *setup, int seat, const char *text, const char *fragment)
{
    char error[256] = "";
    gateau_state *read = gateau_state_from_view(setup, seat, text, error, sizeof error);
    cr_assert_null(read, "'%s' was read as a view", text);
    cr_assert(strstr(error, fragment), "'%s': the reason '%s' does not say '%s'", text, error,
              fragment);
}

Test(from_view, what_is_not_a_view_is_refused)
{
    gateau_setup *setup = support_setup("piece-o-cake", 3, NULL);
    refused(setup, 0, "", "not JSON");
    refused(setup, 0, "{\"game\":", "not JSON");
    refused(setup, 0, "[1,2]", "must be a JSON object");
    refused(setup, 0, "{\"game\":\"mice-cake\",\"seat\":1}", "not of piece-o-cake");
    refused(setup, 0, "{\"game\":\"piece-o-cake\",\"seat\":2}", "not seat 1's");
    refused(setup, 3, "{\"game\":\"piece-o-cake\",\"seat\":4}", "no seat 4");
    refused(setup, 0, "{\"game\":\"piece-o-cake\",\"seat\":1,\"seat\":1}", "not JSON");
    /* A true view of another seat. */
    gateau_state *state = gateau_state_new(setup);
    char *view = gateau_state_view_json(state, 1);
    refused(setup, 0, view, "not seat 1's");
    free(view);
    gateau_state_free(state);
    gateau_setup_free(setup);
}
