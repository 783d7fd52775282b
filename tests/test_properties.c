/*
 * test_properties.c: properties every registered game must have, checked
 * over many random games for every player count.
 *
 * - whoever may act has legal actions, listed ascending without repeats;
 * - an illegal action is refused and leaves the state unchanged;
 * - every move formats to text that parses back to the same actions;
 * - a seat's view (and its legal actions) is the same after the state is
 *   determinized for that seat: the view only shows what the seat knows;
 * - a view is JSON in jansson's compact form (in the first game);
 * - a record written, read and replayed gives the same game and text.
 *
 * Game-specific invariants (nothing created or lost, scores recomputed
 * independently) live in each game's own test file.
 */
#include <stdlib.h>
#include <string.h>

#include <criterion/parameterized.h>

#include "support.h"

ParameterizedTestParameters(properties, random_games)
{
    return support_all_game_cases();
}

static void check_legal_list(const gateau_state *state, int seat)
{
    gateau_action actions[GATEAU_MAX_ACTIONS];
    int count = gateau_state_legal_actions(state, seat, actions);
    cr_assert_gt(count, 0, "seat %d may act but has no legal action", seat + 1);
    for (int i = 1; i < count; i++)
        cr_assert_lt(actions[i - 1], actions[i], "legal actions ascending and unique");
}

static void check_refusal(gateau_state *state, int seat)
{
    gateau_action actions[GATEAU_MAX_ACTIONS];
    int count = gateau_state_legal_actions(state, seat, actions);
    gateau_action illegal = actions[count - 1] + 1000;
    gateau_state *copy = gateau_state_clone(state);
    char error[256] = "";
    cr_assert(!gateau_state_apply(state, seat, illegal, error, sizeof error));
    cr_assert(error[0], "a refusal says why");
    cr_assert_eq(memcmp(copy, state, gateau_state_size(gateau_state_setup(state))), 0,
                 "a refused action leaves the state unchanged");
    /* A seat that may not act is refused too. */
    int players = gateau_state_players(state);
    for (int other = 0; other < players; other++) {
        if (gateau_state_actors(state) & (1u << other)) continue;
        cr_assert(!gateau_state_apply(state, other, actions[0], error, sizeof error));
        break;
    }
    cr_assert_eq(memcmp(copy, state, gateau_state_size(gateau_state_setup(state))), 0);
    gateau_state_free(copy);
}

/* The view is JSON, and written as jansson's compact dump writes it. */
static void check_json_form(const char *view)
{
    json_error_t error;
    json_t *parsed = json_loads(view, 0, &error);
    cr_assert_not_null(parsed, "the view is JSON (%s): %s", error.text, view);
    char *dumped = json_dumps(parsed, JSON_COMPACT | JSON_PRESERVE_ORDER);
    cr_assert_str_eq(view, dumped, "the view is in jansson's compact form");
    free(dumped);
    json_decref(parsed);
}

static void check_views(const gateau_state *state, gateau_rng *rng, bool json_form)
{
    int players = gateau_state_players(state);
    gateau_state *copy = gateau_state_clone(state);
    for (int seat = GATEAU_OBSERVER; seat < players; seat++) {
        gateau_state_copy(copy, state);
        gateau_state_determinize(copy, seat, rng);
        char *truth = gateau_state_view_json(state, seat);
        char *sampled = gateau_state_view_json(copy, seat);
        cr_assert_str_eq(truth, sampled, "seat %d's view changed by determinizing", seat + 1);
        if (json_form) check_json_form(truth);
        free(truth);
        free(sampled);
        if (seat < 0) continue;
        gateau_action a[GATEAU_MAX_ACTIONS], b[GATEAU_MAX_ACTIONS];
        int na = gateau_state_legal_actions(state, seat, a);
        int nb = gateau_state_legal_actions(copy, seat, b);
        cr_assert_eq(na, nb, "seat %d's legal actions changed by determinizing", seat + 1);
        cr_assert_eq(memcmp(a, b, sizeof(gateau_action) * (size_t)na), 0);
        cr_assert_eq(gateau_state_actors(state), gateau_state_actors(copy));
    }
    gateau_state_free(copy);
}

/* The move just completed: text, parse back. */
static void check_move_notation(const gateau_record *record, const gateau_state *before)
{
    int index = gateau_record_move_count(record) - 1;
    int count, seat = gateau_record_move_seat(record, index);
    const gateau_action *actions = gateau_record_move_actions(record, index, &count);
    const char *text = gateau_record_move_text(record, index);
    char *formatted = gateau_move_format(before, seat, actions, count);
    cr_assert_str_eq(formatted, text);
    free(formatted);
    gateau_action parsed[GATEAU_MAX_MOVE_ACTIONS];
    char error[512] = "";
    int parsed_count = gateau_move_parse(before, seat, text, parsed, error, sizeof error);
    cr_assert_eq(parsed_count, count, "'%s' parses to %d actions, not %d: %s", text,
                 parsed_count, count, error);
    cr_assert_eq(memcmp(parsed, actions, sizeof(gateau_action) * (size_t)count), 0,
                 "'%s' parses back to the same actions", text);
}

static void check_round_trip(const gateau_record *record)
{
    char *text = gateau_record_text(record);
    gateau_record *copy = support_read(text);
    char *again = gateau_record_text(copy);
    cr_assert_str_eq(text, again, "write, read, write gives the same text");
    const gateau_state *a = gateau_record_state(record), *b = gateau_record_state(copy);
    cr_assert_eq(gateau_state_is_over(a), gateau_state_is_over(b));
    cr_assert_eq(gateau_state_winners(a), gateau_state_winners(b));
    int sa[GATEAU_MAX_PLAYERS], sb[GATEAU_MAX_PLAYERS];
    gateau_state_scores(a, sa);
    gateau_state_scores(b, sb);
    cr_assert_eq(memcmp(sa, sb, sizeof sa), 0);
    char *va = gateau_state_view_json(a, GATEAU_OBSERVER);
    char *vb = gateau_state_view_json(b, GATEAU_OBSERVER);
    cr_assert_str_eq(va, vb);
    free(va);
    free(vb);
    free(text);
    free(again);
    gateau_record_free(copy);
}

static void play_checked_game(const gateau_setup *setup, uint64_t number, bool thorough)
{
    gateau_rng rng;
    gateau_rng_seed_stream(&rng, 20261122, number);
    gateau_record *record = gateau_record_new(setup);
    const gateau_state *state = gateau_record_state(record);
    gateau_state *before = gateau_state_clone(state);
    gateau_state *scratch = gateau_state_clone(state);
    gateau_action actions[GATEAU_MAX_ACTIONS];
    int steps = 0;
    while (!gateau_state_is_over(state)) {
        cr_assert_lt(++steps, 200000, "the game ends");
        bool move_start = !gateau_state_in_move(state);
        if (move_start) gateau_state_copy(before, state);
        int seat;
        gateau_action action;
        if (gateau_state_is_chance(state)) {
            seat = GATEAU_CHANCE;
            action = gateau_state_sample_chance(state, &rng);
        } else {
            seat = gateau_state_next_seat(state);
            cr_assert_geq(seat, 0, "someone acts in a running game");
            if (thorough || (steps % 7) == 0) {
                check_legal_list(state, seat);
                gateau_state_copy(scratch, state);
                check_refusal(scratch, seat);
            }
            if (move_start && (thorough || (steps % 61) == 0)) check_views(state, &rng, number == 0);
            int count = gateau_state_legal_actions(state, seat, actions);
            action = actions[gateau_rng_below(&rng, (uint32_t)count)];
        }
        int moves = gateau_record_move_count(record);
        char error[256] = "";
        cr_assert(gateau_record_play(record, seat, action, error, sizeof error),
                  "legal action refused: %s", error);
        if (gateau_record_move_count(record) > moves) check_move_notation(record, before);
    }
    check_views(state, &rng, number == 0);
    check_round_trip(record);
    gateau_state_free(before);
    gateau_state_free(scratch);
    gateau_record_free(record);
}

ParameterizedTest(game_case *c, properties, random_games, .timeout = 1800)
{
    /* GATEAU_PROPERTY_ONLY=GAME limits a run to one game (for debugging). */
    const char *only = getenv("GATEAU_PROPERTY_ONLY");
    if (only && strcmp(only, c->game) != 0) cr_skip_test("GATEAU_PROPERTY_ONLY=%s", only);
    gateau_setup *setup = support_setup(c->game, c->players, NULL);
    int games = support_property_games(10000);
    for (int g = 0; g < games; g++) play_checked_game(setup, (uint64_t)g, g < 10);
    cr_log_info("%s, %d players: %d random games checked", c->game, c->players, games);
    gateau_setup_free(setup);
}
