/*
 * test_move_order.c: moves built in any order (gateau_move_order and
 * gateau_move_choices, issue 27).
 *
 * - property, every game: a legal move's parts in any permutation are put
 *   back in the move's own order (so records, bots and golden outputs are
 *   unchanged), and any part of it chosen in any order is part of a legal
 *   move for gateau_move_choices, the whole move "complete";
 * - per game: what a person does on a board (a cut's gaps anywhere, the
 *   pair's higher card first, ...) gives the canonical move, and garbage
 *   (a part of another decision, a part chosen twice) is refused with a
 *   reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

/* ---- The property, over random games ------------------------------------------- */

/* A random legal move of seat from state, as actions. */
static int random_move(const gateau_state *state, int seat, gateau_rng *rng,
                       gateau_action move[GATEAU_MAX_MOVE_ACTIONS])
{
    gateau_state *scratch = gateau_state_clone(state);
    gateau_action legal[GATEAU_MAX_ACTIONS];
    int count = 0;
    do {
        int n = gateau_state_legal_actions(scratch, seat, legal);
        cr_assert_gt(n, 0);
        move[count] = legal[gateau_rng_below(rng, (uint32_t)n)];
        gateau_state_apply_legal(scratch, seat, move[count++]);
    } while (gateau_state_in_move(scratch));
    gateau_state_free(scratch);
    return count;
}

/* Parts that name no place of their own and so keep their relative order
 * in any permutation: piece o' Cake's slice decisions, taken clockwise. */
static bool positional(const gateau_state *state, gateau_action action)
{
    const char *game = gateau_game_name(gateau_setup_game(gateau_state_setup(state)));
    return !strcmp(game, "piece-o-cake") && (action == 61 || action == 62);
}

/* A random permutation, positional parts kept in their relative order. */
static void permute(const gateau_state *state, gateau_action *actions, int count,
                    gateau_rng *rng);

static void shuffle(gateau_action *actions, int count, gateau_rng *rng)
{
    for (int i = count - 1; i > 0; i--) {
        int j = (int)gateau_rng_below(rng, (uint32_t)i + 1);
        gateau_action swap = actions[i];
        actions[i] = actions[j];
        actions[j] = swap;
    }
}

static void permute(const gateau_state *state, gateau_action *actions, int count,
                    gateau_rng *rng)
{
    gateau_action kept[GATEAU_MAX_MOVE_ACTIONS];
    int fixed = 0;
    for (int i = 0; i < count; i++)
        if (positional(state, actions[i])) kept[fixed++] = actions[i];
    shuffle(actions, count, rng);
    for (int i = 0, k = 0; i < count; i++)
        if (positional(state, actions[i])) actions[i] = kept[k++];
}

static char *text_of(const gateau_action *actions, int count)
{
    static char text[2048];
    size_t used = 0;
    text[0] = '\0';
    for (int i = 0; i < count && used + 16 < sizeof text; i++)
        used += (size_t)snprintf(text + used, sizeof text - used, "%s%d", i ? "," : "", actions[i]);
    return text;
}

/* Checks the property at seat's decision in state. */
static void check_decision(const gateau_state *state, int seat, gateau_rng *rng)
{
    gateau_action move[GATEAU_MAX_MOVE_ACTIONS], parts[GATEAU_MAX_MOVE_ACTIONS];
    gateau_action ordered[GATEAU_MAX_MOVE_ACTIONS], choices[GATEAU_MAX_ACTIONS];
    char error[256], *expected;
    int count = random_move(state, seat, rng, move);
    expected = strdup(text_of(move, count));
    for (int round = 0; round < 3; round++) {
        memcpy(parts, move, (size_t)count * sizeof *parts);
        permute(state, parts, count, rng);
        int n = gateau_move_order(state, seat, parts, count, ordered, error, sizeof error);
        cr_assert_geq(n, 0, "%s: ordering %s refused: %s",
                      gateau_game_name(gateau_setup_game(gateau_state_setup(state))),
                      text_of(parts, count), error);
        cr_assert_str_eq(text_of(ordered, n), expected, "%s: %s ordered as %s",
                         gateau_game_name(gateau_setup_game(gateau_state_setup(state))),
                         text_of(parts, count), text_of(ordered, n));
    }
    /* Its beginning, in any order, is part of a legal move; all of it is
     * whole. */
    int some = (int)gateau_rng_below(rng, (uint32_t)count + 1);
    bool complete;
    memcpy(parts, move, (size_t)some * sizeof *parts);
    permute(state, parts, some, rng);
    int found = gateau_move_choices(state, seat, parts, some, choices, &complete, error,
                                    sizeof error);
    cr_assert_geq(found, 0, "%s: %d parts of %s: %s",
                  gateau_game_name(gateau_setup_game(gateau_state_setup(state))), some, expected,
                  error);
    memcpy(parts, move, (size_t)count * sizeof *parts);
    permute(state, parts, count, rng);
    found = gateau_move_choices(state, seat, parts, count, choices, &complete, error, sizeof error);
    cr_assert(found >= 0 && complete, "%s: the whole move %s is not complete: %s",
              gateau_game_name(gateau_setup_game(gateau_state_setup(state))), expected, error);
    free(expected);
}

static void check_game(const char *name, int players, int games, int most_decisions)
{
    gateau_setup *setup = support_setup(name, players, NULL);
    gateau_rng rng;
    gateau_rng_seed(&rng, 2700 + (uint64_t)players);
    for (int g = 0; g < games; g++) {
        gateau_state *state = gateau_state_new(setup);
        int decisions = 0;
        while (!gateau_state_is_over(state) && decisions < most_decisions) {
            if (!gateau_state_is_chance(state) && !gateau_state_in_move(state)) {
                check_decision(state, gateau_state_next_seat(state), &rng);
                decisions++;
            }
            support_random_step(state, &rng);
        }
        gateau_state_free(state);
    }
    gateau_setup_free(setup);
}

Test(move_order, piece_o_cake_permutations) {
    for (int players = 2; players <= 5; players++) check_game("piece-o-cake", players, 2, 60);
}

/* ---- piece o' Cake ------------------------------------------------------------ */

/* A game at seat 1's first cut.  (The record holds the setup: it is
 * freed with the state, in poc_free.) */
static gateau_record *poc_record;

static void poc_free(gateau_state *state)
{
    gateau_state_free(state);
    gateau_record_free(poc_record);
}

static gateau_state *poc_at_cut(int players)
{
    char text[256];
    snprintf(text, sizeof text,
             "game: piece-o-cake\nplayers: %d\n---\n"
             "deal PPPAAAARRRRRBBBBBBBKKKKKKKKGGGGGGGGGSSSSSSSSSSCCCCCCCCCCC\n",
             players);
    gateau_record *record = support_read(text);
    poc_record = record;
    return gateau_state_clone(gateau_record_state(record));
}

enum { CUT_AFTER = 10, CUT_DONE = 21, TAKE = 30, PASS = 60, EAT = 61, COLLECT = 62 };

static char *ordered_text(const gateau_state *state, int seat, const gateau_action *parts,
                          int count)
{
    gateau_action ordered[GATEAU_MAX_MOVE_ACTIONS];
    char error[256];
    int n = gateau_move_order(state, seat, parts, count, ordered, error, sizeof error);
    cr_assert_geq(n, 0, "refused: %s", error);
    cr_assert(gateau_move_check(state, seat, ordered, n, error, sizeof error), "%s", error);
    return gateau_move_format(state, seat, ordered, n);
}

static void expect_refused(const gateau_state *state, int seat, const gateau_action *parts,
                           int count, const char *fragment)
{
    gateau_action ordered[GATEAU_MAX_MOVE_ACTIONS];
    char error[256] = "";
    int n = gateau_move_order(state, seat, parts, count, ordered, error, sizeof error);
    cr_assert_eq(n, -1, "%s ordered, not refused", text_of(parts, count));
    cr_assert(strstr(error, fragment), "the reason '%s' says '%s'", error, fragment);
}

Test(move_order, piece_o_cake_cut_anywhere) {
    gateau_state *state = poc_at_cut(3);
    /* Gaps clicked anticlockwise, 11|1 first: cut done is implied. */
    gateau_action cut[] = {CUT_AFTER + 10, CUT_AFTER + 7, CUT_AFTER + 2};
    char *text = ordered_text(state, 0, cut, 3);
    cr_assert_str_eq(text, "cut 1-3 4-8 9-11");
    free(text);
    gateau_action wrap[] = {CUT_AFTER + 4, CUT_AFTER + 9, CUT_DONE};
    text = ordered_text(state, 0, wrap, 3);
    cr_assert_str_eq(text, "cut 11-5 6-10");
    free(text);
    gateau_action whole[] = {CUT_DONE};
    text = ordered_text(state, 0, whole, 1);
    cr_assert_str_eq(text, "cut 1-11");
    free(text);

    gateau_action twice[] = {CUT_AFTER + 2, CUT_AFTER + 2};
    expect_refused(state, 0, twice, 2, "chosen twice");
    gateau_action take[] = {TAKE + 0};
    expect_refused(state, 0, take, 1, "not a cut");
    expect_refused(state, 1, whole, 1, "seat 2 is not to move");

    /* What may join: one gap chosen (11|1, which cannot come first in the
     * game's own order), every other gap; no "cut done" (one gap cuts
     * nothing); four gaps in three-player game: part of no move. */
    gateau_action choices[GATEAU_MAX_ACTIONS];
    bool complete = true;
    char error[256];
    gateau_action last[] = {CUT_AFTER + 10};
    int found = gateau_move_choices(state, 0, last, 1, choices, &complete, error, sizeof error);
    cr_assert_eq(found, 10, "%d choices: %s", found, text_of(choices, found));
    cr_assert_not(complete);
    for (int i = 0; i < found; i++) cr_assert(choices[i] >= CUT_AFTER && choices[i] < CUT_AFTER + 10);
    found = gateau_move_choices(state, 0, cut, 3, choices, &complete, error, sizeof error);
    cr_assert_eq(found, 0, "a three-piece cut in a three-player game takes no more");
    cr_assert(complete);
    gateau_action many[] = {CUT_AFTER + 1, CUT_AFTER + 3, CUT_AFTER + 5, CUT_AFTER + 7};
    found = gateau_move_choices(state, 0, many, 4, choices, &complete, error, sizeof error);
    cr_assert_eq(found, -1);
    cr_assert(strstr(error, "part of no legal move"), "%s", error);
    poc_free(state);
}

Test(move_order, piece_o_cake_take) {
    gateau_state *state = poc_at_cut(3);
    cr_assert(gateau_state_apply(state, 0, CUT_AFTER + 2, NULL, 0));
    cr_assert(gateau_state_apply(state, 0, CUT_AFTER + 7, NULL, 0));
    cr_assert(gateau_state_apply(state, 0, CUT_DONE, NULL, 0));
    int seat = gateau_state_next_seat(state);
    /* The slices after their take, in the order chosen. */
    gateau_action parts[] = {EAT, COLLECT, TAKE + 3, COLLECT, EAT, EAT};
    char *text = ordered_text(state, seat, parts, 6);
    cr_assert_str_eq(text, "take 4-8 eccee");
    free(text);
    gateau_action two[] = {TAKE + 0, TAKE + 3};
    expect_refused(state, seat, two, 2, "two pieces");
    gateau_action slice[] = {EAT};
    expect_refused(state, seat, slice, 1, "after its piece is taken");
    gateau_action mixed[] = {PASS, EAT};
    expect_refused(state, seat, mixed, 2, "cannot go with");
    poc_free(state);
}

/* ---- Marie's Table -------------------------------------------------------------- */

enum { KEEP_LOW = 10, KEEP_HIGH = 20, VOTE_UP = 30 };

Test(move_order, maries_table_permutations) {
    for (int players = 3; players <= 5; players++) check_game("maries-table", players, 2, 40);
}

Test(move_order, maries_table_keep_either_card_first) {
    gateau_record *record = support_read("game: maries-table\nplayers: 3\n---\n"
                                         "deal 173456/123456/123456/123456/123456/123456\n");
    const gateau_state *state = gateau_record_state(record);
    /* The 7 first (the engine's own order takes the lower card first),
     * given as a lower card or as a higher one. */
    gateau_action seven_first[] = {KEEP_LOW + 7, KEEP_LOW + 3};
    char *text = ordered_text(state, 0, seven_first, 2);
    cr_assert_str_eq(text, "keep 3 7");
    free(text);
    gateau_action as_high[] = {KEEP_HIGH + 3, KEEP_HIGH + 7};
    text = ordered_text(state, 0, as_high, 2);
    cr_assert_str_eq(text, "keep 3 7");
    free(text);
    /* The only 7 alone may be kept with any other card, not with another 7. */
    gateau_action choices[GATEAU_MAX_ACTIONS];
    bool complete = true;
    char error[256];
    int found = gateau_move_choices(state, 0, seven_first, 1, choices, &complete, error,
                                    sizeof error);
    cr_assert_str_eq(text_of(choices, found), "11,13,14,15,16");
    cr_assert_not(complete);
    gateau_action two_sevens[] = {KEEP_LOW + 7, KEEP_HIGH + 7};
    cr_assert_eq(gateau_move_choices(state, 0, two_sevens, 2, choices, &complete, error,
                                     sizeof error), -1);
    cr_assert(strstr(error, "part of no legal move"), "%s", error);
    gateau_action three[] = {KEEP_LOW + 1, KEEP_LOW + 3, KEEP_LOW + 4};
    expect_refused(state, 0, three, 3, "a keep is two cards");
    gateau_action vote[] = {VOTE_UP};
    expect_refused(state, 0, vote, 1, "not a card to keep");
    gateau_record_free(record);
}

/* ---- Cake Master ------------------------------------------------------------------ */

enum { CM_KEEP = 2000, CM_LEFT = 3000, CM_PLACE = 4000, CM_CARDS = 200 };

Test(move_order, cake_master_permutations) {
    for (int players = 2; players <= 6; players += 2) check_game("cake-master", players, 1, 40);
}

/* Plays random moves of a new Cake Master game until seat 1 is to place. */
static gateau_state *cm_at(gateau_setup *setup, bool placing)
{
    gateau_rng rng;
    gateau_rng_seed(&rng, 27);
    gateau_state *state = gateau_state_new(setup);
    while (gateau_state_is_chance(state) ||
           !(gateau_state_actors(state) & 1u) || gateau_state_in_move(state)) {
        support_random_step(state, &rng);
    }
    if (placing) {
        gateau_action move[GATEAU_MAX_MOVE_ACTIONS];
        while (!gateau_state_is_over(state)) {
            gateau_action legal[GATEAU_MAX_ACTIONS];
            gateau_state_legal_actions(state, 0, legal);
            if ((gateau_state_actors(state) & 1u) && !gateau_state_in_move(state) &&
                legal[0] >= CM_PLACE)
                break;
            if (gateau_state_is_chance(state) || gateau_state_in_move(state)) {
                support_random_step(state, &rng);
                continue;
            }
            int seat = gateau_state_next_seat(state);
            int n = random_move(state, seat, &rng, move);
            for (int i = 0; i < n; i++) gateau_state_apply_legal(state, seat, move[i]);
        }
    }
    return state;
}

Test(move_order, cake_master_place_in_any_position_order) {
    gateau_setup *setup = support_setup("cake-master", 3, NULL);
    gateau_state *state = cm_at(setup, true);
    gateau_action first[GATEAU_MAX_ACTIONS];
    int n = gateau_state_legal_actions(state, 0, first);
    cr_assert_gt(n, 0);
    int kinds[3], k = 0;
    for (int i = 0; i < n && k < 3; i++) {
        int kind = (first[i] - CM_PLACE) % CM_CARDS;
        bool seen = false;
        for (int j = 0; j < k; j++) seen |= kinds[j] == kind;
        if (!seen) kinds[k++] = kind;
    }
    cr_assert_eq(k, 3, "three cards to place");
    /* 3d first, then 1a, then 2b: in position order. */
    gateau_action parts[] = {CM_PLACE + 11 * CM_CARDS + kinds[0], CM_PLACE + 0 * CM_CARDS + kinds[1],
                             CM_PLACE + 5 * CM_CARDS + kinds[2]};
    gateau_action ordered[GATEAU_MAX_MOVE_ACTIONS];
    char error[256];
    cr_assert_eq(gateau_move_order(state, 0, parts, 3, ordered, error, sizeof error), 3, "%s",
                 error);
    cr_assert(ordered[0] == parts[1] && ordered[1] == parts[2] && ordered[2] == parts[0]);
    cr_assert(gateau_move_check(state, 0, ordered, 3, error, sizeof error), "%s", error);
    /* After 3d alone, 1a is still open to the other cards. */
    gateau_action choices[GATEAU_MAX_ACTIONS];
    bool complete;
    int found = gateau_move_choices(state, 0, parts, 1, choices, &complete, error, sizeof error);
    bool open = false;
    for (int i = 0; i < found; i++) open |= choices[i] == parts[1];
    cr_assert(open, "1a is offered after 3d");
    gateau_action same[] = {CM_PLACE + 4 * CM_CARDS + kinds[0], CM_PLACE + 4 * CM_CARDS + kinds[1]};
    expect_refused(state, 0, same, 2, "two cards on 2a");
    gateau_action keep[] = {CM_KEEP + kinds[0]};
    expect_refused(state, 0, keep, 1, "not a card placed");
    gateau_state_free(state);
    gateau_setup_free(setup);
}

Test(move_order, cake_master_share_either_first) {
    gateau_setup *setup = support_setup("cake-master", 3, NULL);
    gateau_state *state = cm_at(setup, false);
    gateau_action legal[GATEAU_MAX_ACTIONS];
    int n = gateau_state_legal_actions(state, 0, legal);
    cr_assert_eq(n, 3, "three cards to keep from");
    gateau_action parts[] = {CM_LEFT + legal[1] - CM_KEEP, legal[0]};
    char *text = ordered_text(state, 0, parts, 2);
    cr_assert(!strncmp(text, "keep ", 5), "%s", text);
    free(text);
    gateau_action two[] = {legal[0], legal[1]};
    expect_refused(state, 0, two, 2, "two cards kept");
    gateau_state_free(state);
    gateau_setup_free(setup);
}

/* ---- Mice Cake --------------------------------------------------------------------- */

enum { MC_PLACE = 30, MC_TARGET = 40 };

Test(move_order, mice_cake_permutations) { check_game("mice-cake", 2, 3, 60); }

Test(move_order, mice_cake_mice_in_any_column_order) {
    gateau_record *record = support_read(
        "game: mice-cake\nplayers: 2\n---\n"
        "deal 0/1 0/2 0/3 0/4 0/5 0/6 1/1 1/2 1/3 1/4 1/5 1/6 0/0 2/2 2/3 2/4 2/5 2/6 3/3 3/4 "
        "3/5 3/6 4/4 4/5 4/6 5/5 5/6 6/6\n");
    const gateau_state *state = gateau_record_state(record);
    /* D, A, C, A: written column by column. */
    gateau_action parts[] = {MC_PLACE + 3, MC_PLACE + 0, MC_PLACE + 2, MC_PLACE + 0};
    char *text = ordered_text(state, 0, parts, 4);
    cr_assert_str_eq(text, "assign A2 C1 D1");
    free(text);
    /* After D alone, A, B and C are still open. */
    gateau_action choices[GATEAU_MAX_ACTIONS];
    bool complete;
    char error[256];
    int found = gateau_move_choices(state, 0, parts, 1, choices, &complete, error, sizeof error);
    cr_assert_str_eq(text_of(choices, found), "30,31,32,33");
    gateau_action five[] = {MC_PLACE, MC_PLACE, MC_PLACE + 1, MC_PLACE + 2, MC_PLACE + 3};
    expect_refused(state, 0, five, 5, "more than 4 mice");
    gateau_action target[] = {MC_PLACE, MC_TARGET + 5};
    expect_refused(state, 0, target, 2, "no column is a steal");
    gateau_action two[] = {MC_TARGET + 5, MC_TARGET + 6};
    expect_refused(state, 0, two, 2, "two steal targets");
    gateau_record_free(record);
}
