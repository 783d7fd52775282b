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
 * - a record written, read and replayed gives the same game and text;
 * - a move's line shown to a seat (gateau_move_visible) tells it nothing
 *   its views and the commentary do not, and a record written for a seat
 *   (gateau_record_text_for) is the record with hidden lines commented.
 *
 * Game-specific invariants (nothing created or lost, scores recomputed
 * independently) live in each game's own test file.
 */
#include <stdio.h>
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
    /* 3,000 a game and player count in the Release build (39,000 in all;
     * 10,000 each until CI's whole test command outgrew its 12 minutes:
     * most of a game's time here is parsing its views' JSON). */
    int games = support_property_games(3000);
    for (int g = 0; g < games; g++) play_checked_game(setup, (uint64_t)g, g < 10);
    cr_log_info("%s, %d players: %d random games checked", c->game, c->players, games);
    gateau_setup_free(setup);
}

/* ---- Which lines a seat may read (gateau_move_visible) ----------------------- */

/*
 * A move's line shown to viewer v gives a secret away when two games that
 * v cannot tell apart write the move differently: the line would tell v
 * which of the two it is in.  The games v cannot tell apart are built
 * from the real one (position `before`, move `actions` of seat):
 * - the position: the real one, or the real one determinized for v
 *   (what v does not know there, resampled);
 * - the move: the real one, or another move of the same seat from that
 *   position (a random one; for chance also the real outcomes with two of
 *   them exchanged, as two cards of a deal);
 * - kept only if v is told the same as in the real game: the same words
 *   (gateau_move_describe) and the same view after every action of the
 *   move.  Views alone would not do: the view of the position after a
 *   move forgets some of what the move showed on its way (the dice of a
 *   round's last roll are public, but the next round's view has no
 *   rolls), and the words say it.
 * A line that differs from the real one in such a game is a leak.  The
 * check is sound (it rejects only lines that tell v something its views
 * and words do not) but cannot prove the absence of leaks: it samples.
 * The words are trusted, so a hidden line must not be in them.  Hiding a
 * line that could be shown costs nothing: each game's own tests check the
 * lines its rules show.
 */
enum { VISIBILITY_TRIALS = 8 };

/* v's views after each action of the move from `from`: views[i] after
 * actions[0..i].  Frees with free_views. */
static char **views_along(const gateau_state *from, int seat, const gateau_action *actions,
                          int count, int viewer)
{
    char **views = malloc(sizeof(char *) * (size_t)count);
    cr_assert_not_null(views);
    gateau_state *scratch = gateau_state_clone(from);
    for (int i = 0; i < count; i++) {
        gateau_state_apply_legal(scratch, seat, actions[i]);
        views[i] = gateau_state_view_json(scratch, viewer);
    }
    gateau_state_free(scratch);
    return views;
}

static void free_views(char **views, int count)
{
    for (int i = 0; i < count; i++) free(views[i]);
    free(views);
}

/* What v is told of the real move: its words, and its views after each
 * action (views_along), made when first needed. */
typedef struct told_of_move {
    const gateau_state *before;
    int seat, count, viewer;
    const gateau_action *actions;
    char *words;
    char **views;
} told_of_move;

/* Whether v is told the same of this move as of the real one. */
static bool told_the_same(const gateau_state *from, const gateau_action *actions,
                          told_of_move *real)
{
    int seat = real->seat, count = real->count, viewer = real->viewer;
    char *told = gateau_move_describe(from, seat, actions, count, viewer);
    bool same = !strcmp(told, real->words);
    free(told);
    if (!same) return false;
    if (!real->views) real->views = views_along(real->before, seat, real->actions, count, viewer);
    char **views = real->views;
    gateau_state *scratch = gateau_state_clone(from);
    for (int i = 0; same && i < count; i++) {
        gateau_state_apply_legal(scratch, seat, actions[i]);
        char *view = gateau_state_view_json(scratch, viewer);
        same = !strcmp(view, views[i]);
        free(view);
    }
    gateau_state_free(scratch);
    return same;
}

/* A random complete move of seat (chance: drawn outcomes) from state. */
static int random_move(const gateau_state *state, int seat, gateau_rng *rng,
                       gateau_action *move)
{
    gateau_state *scratch = gateau_state_clone(state);
    gateau_action legal[GATEAU_MAX_ACTIONS];
    int count = 0;
    do {
        gateau_action action;
        if (seat == GATEAU_CHANCE) {
            action = gateau_state_sample_chance(scratch, rng);
        } else {
            int n = gateau_state_legal_actions(scratch, seat, legal);
            cr_assert_gt(n, 0);
            action = legal[gateau_rng_below(rng, (uint32_t)n)];
        }
        gateau_state_apply_legal(scratch, seat, action);
        move[count++] = action;
    } while (gateau_state_in_move(scratch) && count < GATEAU_MAX_MOVE_ACTIONS);
    gateau_state_free(scratch);
    return count;
}

/* The other move of a trial (see above); returns its number of actions. */
static int other_move(const gateau_state *world, int seat, const gateau_action *actions,
                      int count, int trial, gateau_rng *rng, gateau_action *other)
{
    memcpy(other, actions, sizeof(gateau_action) * (size_t)count);
    if (trial < 2) return count; /* the real move (from a determinized position) */
    if (seat == GATEAU_CHANCE && count >= 2 && trial % 2 == 0) {
        int i = (int)gateau_rng_below(rng, (uint32_t)count);
        int j = (int)gateau_rng_below(rng, (uint32_t)count);
        gateau_action swap = other[i];
        other[i] = other[j];
        other[j] = swap;
        return count;
    }
    return random_move(world, seat, rng, other);
}

/* "seat 2", "chance", "an observer", for messages. */
static const char *who(int seat, char name[24])
{
    if (seat == GATEAU_CHANCE) return "chance";
    if (seat == GATEAU_OBSERVER) return "an observer";
    snprintf(name, 24, "seat %d", seat + 1);
    return name;
}

static void check_no_leak(const gateau_state *before, int seat, const gateau_action *actions,
                          int count, int viewer, gateau_rng *rng)
{
    char *line = gateau_move_format(before, seat, actions, count);
    told_of_move real = {.before = before, .seat = seat, .count = count, .viewer = viewer,
                         .actions = actions,
                         .words = gateau_move_describe(before, seat, actions, count, viewer)};
    gateau_state *world = gateau_state_clone(before);
    gateau_action other[GATEAU_MAX_MOVE_ACTIONS];
    for (int trial = 1; trial < VISIBILITY_TRIALS; trial++) {
        gateau_state_copy(world, before);
        if (trial % 2) gateau_state_determinize(world, viewer, rng);
        int other_count = other_move(world, seat, actions, count, trial, rng, other);
        if (other_count != count || !gateau_move_check(world, seat, other, count, NULL, 0))
            continue;
        if (!told_the_same(world, other, &real)) continue;
        char *other_line = gateau_move_format(world, seat, other, count);
        char mover[24], reader[24];
        cr_assert_str_eq(other_line, line,
                         "'%s' (by %s) is shown to %s, who cannot tell it from '%s'", line,
                         who(seat, mover), who(viewer, reader), other_line);
        free(other_line);
    }
    gateau_state_free(world);
    if (real.views) free_views(real.views, count);
    free(real.words);
    free(line);
}

/* A hidden line must not be told in words either. */
static void check_hidden_in_words(const gateau_state *before, int seat,
                                  const gateau_action *actions, int count, int viewer)
{
    char *line = gateau_move_format(before, seat, actions, count);
    char *words = gateau_move_describe(before, seat, actions, count, viewer);
    char reader[24];
    cr_assert_null(strstr(words, line), "'%s' is hidden from %s but told: %s", line,
                   who(viewer, reader), words);
    free(words);
    free(line);
}

/* The move just completed, for every viewer but its mover. */
static void check_visibility(const gateau_record *record, const gateau_state *before,
                             gateau_rng *rng)
{
    int index = gateau_record_move_count(record) - 1;
    int count, seat = gateau_record_move_seat(record, index);
    const gateau_action *actions = gateau_record_move_actions(record, index, &count);
    cr_assert(gateau_move_visible(before, seat, actions, count, seat) || seat == GATEAU_CHANCE,
              "a seat sees its own moves");
    for (int viewer = GATEAU_OBSERVER; viewer < gateau_state_players(before); viewer++) {
        if (viewer == seat) continue;
        if (gateau_move_visible(before, seat, actions, count, viewer))
            check_no_leak(before, seat, actions, count, viewer, rng);
        else
            check_hidden_in_words(before, seat, actions, count, viewer);
    }
}

/* Each viewer's record: the full record's lines, or a comment in their
 * place; the viewer's own moves always shown. */
static void check_records_for(const gateau_record *record)
{
    char *full = gateau_record_text(record);
    const char *full_moves = strstr(full, "---\n");
    cr_assert_not_null(full_moves);
    int players = gateau_state_players(gateau_record_state(record));
    for (int viewer = GATEAU_OBSERVER; viewer < players; viewer++) {
        char *text = gateau_record_text_for(record, viewer);
        const char *moves = strstr(text, "---\n");
        cr_assert_not_null(moves);
        cr_assert_eq(moves - text, full_moves - full, "the same header, no comment above it");
        cr_assert_eq(strncmp(text, full, (size_t)(moves - text)), 0);
        const char *a = full_moves + 4, *b = moves + 4;
        for (int m = 0; m < gateau_record_move_count(record); m++) {
            size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
            bool shown = la == lb && !strncmp(a, b, la);
            char reader[24];
            cr_assert(shown || b[0] == '#', "move %d for %s: '%.*s'", m + 1, who(viewer, reader),
                      (int)lb, b);
            if (gateau_record_move_seat(record, m) == viewer)
                cr_assert(shown, "seat %d's own move %d is shown to it", viewer + 1, m + 1);
            a += la + 1;
            b += lb + 1;
        }
        cr_assert_str_eq(a, b, "the same closing note");
        free(text);
    }
    free(full);
}

ParameterizedTestParameters(properties, visibility)
{
    return support_all_game_cases();
}

ParameterizedTest(game_case *c, properties, visibility, .timeout = 1800)
{
    const char *only = getenv("GATEAU_PROPERTY_ONLY");
    if (only && strcmp(only, c->game) != 0) cr_skip_test("GATEAU_PROPERTY_ONLY=%s", only);
    gateau_setup *setup = support_setup(c->game, c->players, NULL);
    const gateau_game *game = gateau_setup_game(setup);
    /* About 200 games per game, shared among its player counts.
     * GATEAU_PROPERTY_GAMES lowers it, never raises it: it asks for fewer
     * random games (250 under the sanitizers, where this test played four
     * times the Release build's games, 3,250 instead of 801, and was most
     * of that stage's longest program). */
    int counts = gateau_game_max_players(game) - gateau_game_min_players(game) + 1;
    int usual = (200 + counts - 1) / counts, games = support_property_games(usual);
    if (games > usual) games = usual;
    for (int g = 0; g < games; g++) {
        gateau_rng rng;
        gateau_rng_seed_stream(&rng, 20260521, (uint64_t)g);
        gateau_record *record = gateau_record_new(setup);
        const gateau_state *state = gateau_record_state(record);
        gateau_state *before = gateau_state_clone(state);
        gateau_action actions[GATEAU_MAX_ACTIONS];
        while (!gateau_state_is_over(state)) {
            if (!gateau_state_in_move(state)) gateau_state_copy(before, state);
            int seat = gateau_state_is_chance(state) ? GATEAU_CHANCE : gateau_state_next_seat(state);
            gateau_action action;
            if (seat == GATEAU_CHANCE) {
                action = gateau_state_sample_chance(state, &rng);
            } else {
                int count = gateau_state_legal_actions(state, seat, actions);
                action = actions[gateau_rng_below(&rng, (uint32_t)count)];
            }
            int moves = gateau_record_move_count(record);
            cr_assert(gateau_record_play(record, seat, action, NULL, 0));
            if (gateau_record_move_count(record) > moves) check_visibility(record, before, &rng);
        }
        check_records_for(record);
        gateau_state_free(before);
        gateau_record_free(record);
    }
    cr_log_info("%s, %d players: %d random games checked", c->game, c->players, games);
    gateau_setup_free(setup);
}
