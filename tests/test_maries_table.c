/*
 * test_maries_table.c: Marie's Table (../shared/rules/maries-table.md).
 *
 * The rulebook's worked example, every Decision of the rules file, the
 * swap order and the eldest's exception, the eat limit, the tiebreak chain,
 * what each seat may see, bad records, and a property test over many random
 * games that recomputes every score from the record text alone.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine.h"
#include "games/maries_table/maries_table.h"
#include "support.h"

/* ---- Helpers ------------------------------------------------------------------ */

enum { VALUES = 7, COPIES = 8 };

static const int KEPT_POINTS[COPIES + 1] = {0, -3, -1, 1, 3, 5, 6, 7, 8};

static int rounds_for(int players) { return players == 3 ? 6 : 5; }
static int deck_size_for(int players) { return 2 * players; }

/* The eldest of round r (0-based), 0-based: seat 1 first, then one seat to
 * the right each round. */
static int eldest_of(int players, int r) { return (players - r % players) % players; }

typedef struct buffer {
    char text[16384];
    size_t length;
} buffer;

static void add(buffer *b, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void add(buffer *b, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    int n = vsnprintf(b->text + b->length, sizeof b->text - b->length, format, args);
    va_end(args);
    cr_assert(n >= 0 && (size_t)n < sizeof b->text - b->length, "test buffer too small");
    b->length += (size_t)n;
}

static json_t *view_of(const gateau_record *record, int seat)
{
    return support_view(gateau_record_state(record), seat);
}

static const char *phase_of(const gateau_record *record)
{
    static char phase[16];
    json_t *view = view_of(record, GATEAU_OBSERVER);
    snprintf(phase, sizeof phase, "%s", json_string_value(json_object_get(view, "phase")));
    json_decref(view);
    return phase;
}

static int next_seat(const gateau_record *record)
{
    return gateau_state_next_seat(gateau_record_state(record));
}

/* Plays a move of the seat to act now. */
static void play(gateau_record *record, const char *move)
{
    support_play(record, next_seat(record), move);
}

static int score_of(const gateau_record *record, int seat)
{
    int scores[GATEAU_MAX_PLAYERS];
    support_scores(gateau_record_state(record), scores);
    return scores[seat];
}

static uint32_t winners_of(const gateau_record *record)
{
    return gateau_state_winners(gateau_record_state(record));
}

static char *json_text(const gateau_state *state, int seat)
{
    return gateau_state_view_json(state, seat);
}

/* A kept-card count from a view: seats[seat].kept[value]. */
static int view_kept(json_t *view, int seat, int value)
{
    char key[2] = {(char)('0' + value), '\0'};
    json_t *seats = json_object_get(view, "seats");
    return (int)json_integer_value(json_object_get(
        json_object_get(json_array_get(seats, (size_t)seat), "kept"), key));
}

/*
 * A whole game without swaps, planned pair by pair: pair[r][s] is seat s's
 * pair in round r ("37"), eat[r][s] what it eats of it ("", "3", "3 7").
 * The deal is made so that each brother keeps exactly his planned pair,
 * everyone votes up, and everyone takes his own pair.
 */
typedef struct plan {
    int players;
    const char *pair[6][5];
    const char *eat[6][5];
} plan;

static void planned_record(const plan *p, buffer *b)
{
    int n = p->players, rounds = rounds_for(n);
    add(b, "game: maries-table\nplayers: %d\n---\ndeal ", n);
    for (int r = 0; r < rounds; r++) {
        if (r) add(b, "/");
        for (int k = 0; k < n; k++) add(b, "%s", p->pair[r][(eldest_of(n, r) + k) % n]);
    }
    add(b, "\n");
    for (int r = 0; r < rounds; r++) {
        int e = eldest_of(n, r);
        for (int k = 0; k + 1 < n; k++) {
            const char *pair = p->pair[r][(e + k) % n];
            add(b, "keep %c %c\n", pair[0], pair[1]);
        }
        for (int s = 0; s < n; s++) add(b, "%d: up\n", s + 1);
        for (int i = 0; i < n; i++) {
            const char *eat = p->eat[r][(e + n - 1 - i) % n];
            add(b, "eat%s%s\n", eat && eat[0] ? " " : "", eat ? eat : "");
        }
    }
}

static gateau_record *planned_game(const plan *p)
{
    static buffer b;
    b.length = 0;
    b.text[0] = '\0';
    planned_record(p, &b);
    gateau_record *record = support_read(b.text);
    cr_assert(gateau_state_is_over(gateau_record_state(record)), "the planned game ends");
    return record;
}

/* A 3-player opening used by several tests: seat 1 is eldest, seat 2 in
 * the middle, seat 3 youngest in round 1. */
static const char DEAL3[] = "deal 112233/114455/667723/665544/267733/345577";

static gateau_record *opening3(void)
{
    buffer b = {0};
    add(&b, "game: maries-table\nplayers: 3\n---\n%s\n", DEAL3);
    return support_read(b.text);
}

/* ---- Setup, roles, the draft -------------------------------------------------- */

Test(maries_table, deck_sizes_by_player_count)
{
    static const int decks[] = {0, 0, 0, 6, 5, 5}, sizes[] = {0, 0, 0, 6, 8, 10};
    for (int n = 3; n <= 5; n++) {
        gateau_setup *setup = support_setup("maries-table", n, NULL);
        gateau_record *record = gateau_record_new(setup);
        gateau_rng rng;
        gateau_rng_seed(&rng, (uint64_t)n);
        cr_assert(gateau_state_is_chance(gateau_record_state(record)));
        gateau_record_play_chance(record, &rng);
        int count;
        gateau_record_move_actions(record, 0, &count);
        cr_assert_eq(count, decks[n] * sizes[n], "%d players deal %d cards", n, count);
        const char *deal = gateau_record_move_text(record, 0);
        cr_assert_eq(strlen(deal), strlen("deal ") + (size_t)(decks[n] * sizes[n] + decks[n] - 1));
        json_t *view = view_of(record, 0);
        cr_assert_eq(json_integer_value(json_object_get(view, "rounds")), decks[n]);
        cr_assert_eq(json_integer_value(json_object_get(view, "deck_size")), sizes[n]);
        json_t *seen = json_object_get(json_object_get(view, "draft"), "seen");
        cr_assert_eq(json_array_size(seen), (size_t)sizes[n], "the eldest sees the whole deck");
        json_decref(view);
        support_play_out(record, &rng);
        view = view_of(record, GATEAU_OBSERVER);
        int unseen = 0;
        for (int v = 1; v <= VALUES; v++) {
            char key[2] = {(char)('0' + v), '\0'};
            unseen += (int)json_integer_value(json_object_get(json_object_get(view, "unseen"), key));
        }
        cr_assert_eq(unseen, 56 - decks[n] * sizes[n], "%d cards stay in the box", unseen);
        json_decref(view);
        gateau_record_free(record);
        gateau_setup_free(setup);
    }
}

Test(maries_table, player_counts)
{
    const gateau_game *game = gateau_game_find("maries-table");
    cr_assert_not_null(game);
    cr_assert_eq(gateau_game_min_players(game), 3);
    cr_assert_eq(gateau_game_max_players(game), 5);
    char error[256];
    cr_assert_null(gateau_setup_new(game, 2, NULL, NULL, error, sizeof error));
    cr_assert_null(gateau_setup_new(game, 6, NULL, NULL, error, sizeof error));
}

Test(maries_table, roles_rotate_one_seat_right)
{
    for (int n = 3; n <= 5; n++) {
        gateau_setup *setup = support_setup("maries-table", n, NULL);
        gateau_record *record = gateau_record_new(setup);
        gateau_rng rng;
        gateau_rng_seed(&rng, 77 + (uint64_t)n);
        gateau_record_play_chance(record, &rng);
        int previous_youngest = -1;
        for (int r = 0; r < rounds_for(n); r++) {
            json_t *view = view_of(record, GATEAU_OBSERVER);
            cr_assert_eq(json_integer_value(json_object_get(view, "round")), r + 1);
            json_t *brothers = json_object_get(view, "brothers");
            int eldest = (int)json_integer_value(json_array_get(brothers, 0)) - 1;
            cr_assert_eq(eldest, eldest_of(n, r), "%d players, round %d: eldest seat %d", n, r + 1,
                         eldest + 1);
            if (r == 0) cr_assert_eq(eldest, 0, "seat 1 is the first eldest");
            else cr_assert_eq(eldest, previous_youngest, "last round's youngest is eldest now");
            for (int k = 0; k < n; k++)
                cr_assert_eq(json_integer_value(json_array_get(brothers, (size_t)k)) - 1,
                             (eldest + k) % n, "brothers go clockwise (to the left)");
            previous_youngest = (eldest + n - 1) % n;
            cr_assert_eq(next_seat(record), eldest, "the eldest drafts first");
            json_decref(view);
            /* Play the round out at random. */
            gateau_action actions[GATEAU_MAX_ACTIONS];
            int round = r + 1;
            while (!gateau_state_is_over(gateau_record_state(record))) {
                json_t *now = view_of(record, GATEAU_OBSERVER);
                int current = (int)json_integer_value(json_object_get(now, "round"));
                json_decref(now);
                if (current != round) break;
                const gateau_state *state = gateau_record_state(record);
                int seat = gateau_state_next_seat(state);
                int count = gateau_state_legal_actions(state, seat, actions);
                cr_assert(gateau_record_play(record, seat,
                                             actions[gateau_rng_below(&rng, (uint32_t)count)],
                                             NULL, 0));
            }
        }
        cr_assert(gateau_state_is_over(gateau_record_state(record)));
        gateau_record_free(record);
        gateau_setup_free(setup);
    }
}

Test(maries_table, keep_is_two_small_actions)
{
    gateau_record *record = opening3();
    const gateau_state *state = gateau_record_state(record);
    gateau_action actions[GATEAU_MAX_ACTIONS];
    /* Hand 1 1 2 2 3 3: the first action names the lower card. */
    int count = gateau_state_legal_actions(state, 0, actions);
    cr_assert_eq(count, 3, "lower card 1, 2 or 3");
    gateau_action parsed[GATEAU_MAX_MOVE_ACTIONS];
    char error[256] = "";
    cr_assert_eq(gateau_move_parse(state, 0, "keep 3 1", parsed, error, sizeof error), 2, "%s",
                 error);
    cr_assert(gateau_record_play(record, 0, parsed[0], error, sizeof error));
    cr_assert(gateau_state_in_move(state), "half a keep");
    cr_assert_eq(gateau_record_move_count(record), 1);
    count = gateau_state_legal_actions(state, 0, actions);
    cr_assert_eq(count, 3, "after a 1, the other card is 1 (there are two), 2 or 3");
    cr_assert(gateau_record_play(record, 0, parsed[1], error, sizeof error));
    cr_assert(!gateau_state_in_move(state));
    cr_assert_str_eq(gateau_record_move_text(record, 1), "keep 1 3", "canonical, ascending");
    cr_assert_eq(next_seat(record), 1, "the rest goes to the left");
    /* The middle brother keeps; the youngest's last two are no move. */
    play(record, "keep 2 2");
    cr_assert_str_eq(phase_of(record), "vote");
    cr_assert(gateau_state_is_simultaneous(state));
    cr_assert_eq(gateau_state_actors(state), 7u, "everyone votes, the eldest too");
    cr_assert_eq(gateau_record_move_count(record), 3, "deal and two keeps");
    json_t *view = view_of(record, GATEAU_OBSERVER);
    json_t *seats = json_object_get(json_array_get(json_object_get(view, "revealed"), 0), "seats");
    json_t *youngest_pair = json_object_get(json_array_get(seats, 2), "pair");
    cr_assert_eq(json_integer_value(json_array_get(youngest_pair, 0)), 1);
    cr_assert_eq(json_integer_value(json_array_get(youngest_pair, 1)), 3);
    json_decref(view);
    gateau_record_free(record);
}

Test(maries_table, keep_lower_card_needs_a_partner)
{
    /* Hand 1 2 3 4 5 7 (3 players, deck 1): 7 can't be the lower card of a
     * pair, nothing is higher; with two 7s it could. */
    gateau_record *record =
        support_read("game: maries-table\nplayers: 3\n---\n"
                     "deal 123457/112233/445566/112233/445566/677777\n");
    const gateau_state *state = gateau_record_state(record);
    gateau_action actions[GATEAU_MAX_ACTIONS];
    int count = gateau_state_legal_actions(state, 0, actions);
    cr_assert_eq(count, 5, "lower card 1, 2, 3, 4 or 5");
    support_refuse(record, 0, "keep 7 7", "has only one 7");
    support_refuse(record, 0, "keep 6 7", "has no 6");
    support_refuse(record, 0, "keep 7", "keep a b");
    support_refuse(record, 0, "keep 0 7", "keep a b");
    support_refuse(record, 0, "keep 8 1", "keep a b");
    support_refuse(record, 0, "keep 1 2 3", "keep a b");
    support_refuse(record, 0, "take 1", "expected a keep");
    support_play(record, 0, "keep 7 5");
    cr_assert_str_eq(gateau_record_move_text(record, 1), "keep 5 7");
    gateau_record_free(record);
}

/* The draft's legal actions for every hand of up to three cards of each
 * value, against the rule read value by value: the lower card of a keep
 * needs a second copy or a higher card beside it; the higher card is
 * above the lower one, or a second copy of it.  (The game computes them
 * as bit sets, without a branch per value.) */
Test(maries_table, draft_actions_for_every_hand)
{
    gateau_setup *setup = support_setup("maries-table", 3, NULL);
    gateau_state *state = gateau_state_new(setup);
    mt_state *g = GAME_STATE(mt_state, state);
    g->phase = MT_PHASE_DRAFT;
    int hands = 1;
    for (int v = 0; v < VALUES; v++) hands *= 4;
    for (int code = 0; code < hands; code++) {
        int held = 0;
        for (int v = 1, rest = code; v <= VALUES; v++, rest /= 4) {
            g->hand[v] = (uint8_t)(rest % 4);
            held += g->hand[v];
        }
        for (int low = 0; low <= VALUES; low++) {
            if (low && !g->hand[low]) continue;
            g->low = (uint8_t)low;
            gateau_action expected[VALUES], actual[GATEAU_MAX_ACTIONS];
            int count = 0;
            for (int v = 1; v <= VALUES; v++) {
                bool higher_held = false;
                for (int w = v + 1; w <= VALUES; w++) higher_held |= g->hand[w] > 0;
                bool allowed = low ? (v > low && g->hand[v] >= 1) || (v == low && g->hand[v] >= 2)
                                   : g->hand[v] >= 2 || (g->hand[v] == 1 && higher_held);
                if (allowed) expected[count++] = (low ? MT_KEEP_HIGH : MT_KEEP_LOW) + v;
            }
            cr_assert_eq(mt_legal_actions(state, 0, actual), count, "hand %d (%d cards), low %d",
                         code, held, low);
            cr_assert_arr_eq(actual, expected, sizeof(gateau_action) * (size_t)count,
                             "hand %d, low %d", code, low);
        }
    }
    gateau_state_free(state);
    gateau_setup_free(setup);
}

/* ---- The vote ------------------------------------------------------------------------- */

static gateau_record *at_vote3(void)
{
    gateau_record *record = opening3();
    play(record, "keep 1 1");
    play(record, "keep 2 2");
    return record;
}

Test(maries_table, votes_hidden_until_all_have_voted)
{
    gateau_record *record = at_vote3();
    const gateau_state *state = gateau_record_state(record);
    gateau_state *before = gateau_state_clone(state);
    support_play(record, 0, "down");
    cr_assert_str_eq(gateau_record_move_text(record, 3), "down");
    char *text = gateau_record_text(record);
    cr_assert_not_null(strstr(text, "\n1: down\n"), "votes are written with their seat");
    free(text);
    /* What each seat sees. */
    json_t *own = view_of(record, 0), *other = view_of(record, 1), *nobody = view_of(record, -1);
    json_t *row_own = json_array_get(json_object_get(json_array_get(json_object_get(own, "revealed"), 0), "seats"), 0);
    json_t *row_other = json_array_get(json_object_get(json_array_get(json_object_get(other, "revealed"), 0), "seats"), 0);
    json_t *row_nobody = json_array_get(json_object_get(json_array_get(json_object_get(nobody, "revealed"), 0), "seats"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(row_own, "vote")), "down");
    cr_assert_str_eq(json_string_value(json_object_get(row_other, "vote")), "hidden");
    cr_assert_str_eq(json_string_value(json_object_get(row_nobody, "vote")), "hidden");
    cr_assert_null(json_object_get(json_array_get(json_object_get(other, "revealed"), 0), "discontent"));
    json_decref(own);
    json_decref(other);
    json_decref(nobody);
    char *seen_by_2 = gateau_state_view_text(state, 1, false);
    cr_assert_null(strstr(seen_by_2, "down"), "seat 2 cannot see seat 1's vote:\n%s", seen_by_2);
    cr_assert_not_null(strstr(seen_by_2, "voted"));
    free(seen_by_2);
    char *seen_by_1 = gateau_state_view_text(state, 0, false);
    cr_assert_not_null(strstr(seen_by_1, "down"));
    free(seen_by_1);
    /* The commentary. */
    gateau_action down;
    int count;
    down = gateau_record_move_actions(record, 3, &count)[0];
    char *to_2 = gateau_move_describe(before, 0, &down, 1, 1);
    char *to_1 = gateau_move_describe(before, 0, &down, 1, 0);
    cr_assert_str_eq(to_2, "seat 1 has voted");
    cr_assert_str_eq(to_1, "seat 1 votes down");
    free(to_2);
    free(to_1);
    /* Voting twice; seats vote in any order. */
    support_refuse(record, 0, "up", "already moved");
    support_play(record, 2, "up");
    gateau_state_copy(before, state);
    support_play(record, 1, "down");
    down = gateau_record_move_actions(record, 5, &count)[0];
    char *last = gateau_move_describe(before, 1, &down, 1, 2);
    cr_assert_not_null(strstr(last, "seat 1 down, seat 2 down, seat 3 up"), "%s", last);
    free(last);
    other = view_of(record, 2);
    json_t *round = json_array_get(json_object_get(other, "revealed"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(
                         json_array_get(json_object_get(round, "seats"), 0), "vote")), "down");
    cr_assert_eq(json_integer_value(json_object_get(round, "discontent")), 2);
    cr_assert(json_is_true(json_object_get(round, "swap")));
    json_decref(other);
    cr_assert(!gateau_state_is_simultaneous(state));
    gateau_state_free(before);
    gateau_record_free(record);
}

Test(maries_table, determinize_resamples_other_votes_only)
{
    gateau_record *record = at_vote3();
    support_play(record, 0, "down");
    support_play(record, 1, "up");
    const gateau_state *state = gateau_record_state(record);
    gateau_state *copy = gateau_state_clone(state);
    gateau_rng rng;
    gateau_rng_seed(&rng, 5);
    int seat1_up = 0, seat1_down = 0;
    for (int i = 0; i < 200; i++) {
        gateau_state_copy(copy, state);
        gateau_state_determinize(copy, 1, &rng);
        json_t *mine = support_view(copy, 1);
        json_t *rows = json_object_get(json_array_get(json_object_get(mine, "revealed"), 0), "seats");
        cr_assert_str_eq(json_string_value(json_object_get(json_array_get(rows, 1), "vote")), "up",
                         "seat 2 keeps its own vote");
        json_decref(mine);
        json_t *his = support_view(copy, 0);
        rows = json_object_get(json_array_get(json_object_get(his, "revealed"), 0), "seats");
        const char *vote = json_string_value(json_object_get(json_array_get(rows, 0), "vote"));
        seat1_up += !strcmp(vote, "up");
        seat1_down += !strcmp(vote, "down");
        json_decref(his);
        cr_assert_eq(gateau_state_actors(copy), 4u, "seat 3 still votes");
    }
    cr_assert(seat1_up > 50 && seat1_down > 50, "seat 1's hidden vote is resampled (%d up, %d down)",
              seat1_up, seat1_down);
    gateau_state_free(copy);
    gateau_record_free(record);
}

/* ---- Taking pairs ---------------------------------------------------------------------- */

/* 4 players: seat 1 eldest, seat 4 youngest in round 1. */
static const char DEAL4[] = "deal 11223344/55667711/22334455/66771122/33445566";

static gateau_record *at_vote4(void)
{
    buffer b = {0};
    add(&b, "game: maries-table\nplayers: 4\n---\n%s\nkeep 1 1\nkeep 2 2\nkeep 3 3\n", DEAL4);
    return support_read(b.text);
}

Test(maries_table, swap_order_youngest_first_counter_clockwise)
{
    gateau_record *record = at_vote4();
    support_play(record, 2, "up");
    support_play(record, 0, "down");
    support_play(record, 3, "up");
    support_play(record, 1, "down");
    /* Decision: take, then keep/eat at once, youngest (seat 4) to eldest. */
    static const struct { int seat; const char *phase, *move; } steps[] = {
        {3, "take", "take 1"}, {3, "eat", "eat"},    {2, "take", "take 4"}, {2, "eat", "eat 4"},
        {1, "take", "take 3"}, {1, "eat", "eat 3 3"}, {0, "take", "take 2"}, {0, "eat", "eat"},
    };
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        cr_assert_eq(next_seat(record), steps[i].seat, "step %zu: seat %d acts, not %d", i,
                     steps[i].seat + 1, next_seat(record) + 1);
        cr_assert_str_eq(phase_of(record), steps[i].phase);
        play(record, steps[i].move);
        if (i == 1) {
            /* Seat 4 kept 1 1 before seat 3 takes. */
            json_t *view = view_of(record, GATEAU_OBSERVER);
            cr_assert_eq(view_kept(view, 3, 1), 2);
            json_decref(view);
        }
    }
    json_t *view = view_of(record, GATEAU_OBSERVER);
    cr_assert_eq(view_kept(view, 3, 1), 2, "seat 4 kept seat 1's 1 1");
    cr_assert_eq(view_kept(view, 2, 4), 1, "seat 3 ate one 4 of seat 4's pair, kept the other");
    cr_assert_eq(view_kept(view, 1, 3), 0, "seat 2 ate seat 3's 3 3");
    cr_assert_eq(view_kept(view, 0, 2), 2, "seat 1 kept seat 2's 2 2");
    cr_assert_eq(json_integer_value(json_object_get(view, "round")), 2);
    json_decref(view);
    cr_assert_eq(next_seat(record), 3, "seat 4 is the next eldest");
    gateau_record_free(record);
}

Test(maries_table, without_swap_everyone_eats_own_pair_youngest_first)
{
    gateau_record *record = at_vote4();
    support_play(record, 0, "up");
    support_play(record, 1, "down");
    support_play(record, 2, "up");
    support_play(record, 3, "up");
    for (int i = 0; i < 4; i++) {
        int seat = 3 - i;
        cr_assert_eq(next_seat(record), seat);
        cr_assert_str_eq(phase_of(record), "eat", "no take moves");
        if (i == 0) support_refuse(record, seat, "take 1", "expected 'eat'");
        play(record, "eat");
    }
    json_t *view = view_of(record, GATEAU_OBSERVER);
    for (int s = 0; s < 4; s++) cr_assert_eq(view_kept(view, s, s + 1), 2, "own pair kept");
    json_decref(view);
    gateau_record_free(record);
}

Test(maries_table, one_discontent_is_no_swap_two_is)
{
    for (int downs = 0; downs <= 4; downs++) {
        gateau_record *record = at_vote4();
        for (int s = 0; s < 4; s++) support_play(record, s, s < downs ? "down" : "up");
        cr_assert_str_eq(phase_of(record), downs >= 2 ? "take" : "eat", "%d down", downs);
        gateau_record_free(record);
    }
}

Test(maries_table, no_one_takes_his_own_pair_but_the_last_eldest)
{
    gateau_record *record = at_vote3();
    support_play(record, 0, "down");
    support_play(record, 1, "down");
    support_play(record, 2, "down");
    /* Youngest seat 3: not his own. */
    support_refuse(record, 2, "take 3", "your own");
    support_refuse(record, 2, "take 4", "take s");
    gateau_action actions[GATEAU_MAX_ACTIONS];
    const gateau_state *state = gateau_record_state(record);
    cr_assert_eq(gateau_state_legal_actions(state, 2, actions), 2);
    play(record, "take 2");
    play(record, "eat");
    /* Seat 2: seat 1's or seat 3's pair; 2 is taken. */
    support_refuse(record, 1, "take 2", "already taken by seat 3");
    support_refuse(record, 1, "take 2", "seat 2's pair");
    play(record, "take 3");
    play(record, "eat");
    /* The eldest is left with his own pair and must take it. */
    int count = gateau_state_legal_actions(state, 0, actions);
    cr_assert_eq(count, 1, "a single option, still a move");
    gateau_state *before = gateau_state_clone(state);
    play(record, "take 1");
    char *said = gateau_move_describe(before, 0, actions, 1, 2);
    cr_assert_not_null(strstr(said, "his own pair"), "%s", said);
    free(said);
    gateau_state_free(before);
    cr_assert_str_eq(gateau_record_move_text(record, gateau_record_move_count(record) - 1), "take 1");
    play(record, "eat 1");
    cr_assert_eq(score_of(record, 0), 1 - 3, "seat 1 ate a 1, kept a 1");
    gateau_record_free(record);
}

Test(maries_table, eldest_left_with_another_pair_takes_that)
{
    gateau_record *record = at_vote3();
    for (int s = 0; s < 3; s++) support_play(record, s, "down");
    play(record, "take 1"); /* seat 3 takes the eldest's pair */
    play(record, "eat");
    gateau_action actions[GATEAU_MAX_ACTIONS];
    const gateau_state *state = gateau_record_state(record);
    /* Seat 2 may only take seat 3's pair: one option, still a move. */
    cr_assert_eq(gateau_state_legal_actions(state, 1, actions), 1);
    support_refuse(record, 1, "take 2", "your own");
    play(record, "take 3");
    play(record, "eat");
    cr_assert_eq(gateau_state_legal_actions(state, 0, actions), 1);
    support_refuse(record, 0, "take 1", "already taken by seat 3");
    play(record, "take 2");
    play(record, "eat");
    json_t *view = view_of(record, GATEAU_OBSERVER);
    cr_assert_eq(view_kept(view, 0, 2), 2, "the eldest got seat 2's 2 2");
    json_decref(view);
    gateau_record_free(record);
}

/* ---- Eating ------------------------------------------------------------------------------- */

Test(maries_table, eat_limit_two_per_game)
{
    gateau_record *record = at_vote3();
    for (int s = 0; s < 3; s++) support_play(record, s, "up");
    /* Youngest seat 3 (pair 3 3): eats both. */
    gateau_action actions[GATEAU_MAX_ACTIONS];
    const gateau_state *state = gateau_record_state(record);
    cr_assert_eq(gateau_state_legal_actions(state, 2, actions), 3, "eat, eat 3, eat 3 3");
    support_refuse(record, 2, "eat 2", "no 2");
    support_refuse(record, 2, "eat 3 3 3", "0, 1 or 2");
    support_refuse(record, 2, "eat x", "not a card value");
    play(record, "eat 3 3");
    /* Seat 2 (2 2) eats one. */
    play(record, "eat 2");
    /* Seat 1 (1 1) keeps both; seat 1's pair has no second... */
    support_refuse(record, 0, "eat 1 2", "no 2");
    play(record, "eat");
    /* Round 2: seat 3 eldest, seat 1, seat 2 youngest; hand 1 1 4 4 5 5. */
    play(record, "keep 4 5");
    play(record, "keep 1 5");
    for (int s = 0; s < 3; s++) support_play(record, s, "up");
    cr_assert_eq(next_seat(record), 1);
    cr_assert_eq(gateau_state_legal_actions(state, 1, actions), 3, "one left: eat, eat 1, eat 4");
    support_refuse(record, 1, "eat 1 4", "may eat 1 more");
    play(record, "eat 4");
    cr_assert_eq(gateau_state_legal_actions(state, 0, actions), 4, "none eaten: all four");
    play(record, "eat");
    cr_assert_eq(next_seat(record), 2);
    cr_assert_eq(gateau_state_legal_actions(state, 2, actions), 1, "two eaten: keep only");
    support_refuse(record, 2, "eat 4", "has eaten 2 cards already and may eat 0 more");
    play(record, "eat");
    /* Round 3 onwards: seats 2 and 3 never get another eating option. */
    gateau_rng rng;
    gateau_rng_seed(&rng, 3);
    while (!gateau_state_is_over(state)) {
        if (gateau_state_is_chance(state)) break;
        int seat = gateau_state_next_seat(state);
        int count = gateau_state_legal_actions(state, seat, actions);
        if (!strcmp(phase_of(record), "eat") && seat != 0)
            cr_assert_eq(count, 1, "seat %d has eaten 2: it must keep", seat + 1);
        gateau_record_play(record, seat, actions[gateau_rng_below(&rng, (uint32_t)count)], NULL, 0);
    }
    json_t *view = view_of(record, GATEAU_OBSERVER);
    json_t *seats = json_object_get(view, "seats");
    for (int s = 0; s < 3; s++)
        cr_assert_leq(json_integer_value(json_object_get(json_array_get(seats, (size_t)s), "eaten")), 2);
    json_decref(view);
    gateau_record_free(record);
}

/* ---- Scoring ------------------------------------------------------------------------------- */

Test(maries_table, rulebook_example_seven_points)
{
    /* Four 1s (+3), one 2 (-3), five 6s (+5), two eaten (+2): 7 points. */
    plan p = {.players = 3,
              .pair = {{"11", "22", "33"},
                       {"11", "55", "44"},
                       {"66", "77", "23"},
                       {"66", "55", "44"},
                       {"26", "33", "77"},
                       {"34", "77", "55"}},
              .eat = {[5] = {"3 4"}}};
    gateau_record *record = planned_game(&p);
    json_t *view = view_of(record, GATEAU_OBSERVER);
    cr_assert_eq(view_kept(view, 0, 1), 4);
    cr_assert_eq(view_kept(view, 0, 2), 1);
    cr_assert_eq(view_kept(view, 0, 6), 5);
    json_decref(view);
    cr_assert_eq(score_of(record, 0), 7);
    cr_assert_eq(score_of(record, 1), -1 + 3 + 3 - 1, "2 2s, 4 5s, 4 7s, 2 3s");
    cr_assert_eq(score_of(record, 2), 1 + 3 - 3 - 1 - 1, "3 3s, 4 4s, one 2, 2 7s, 2 5s");
    cr_assert_eq(winners_of(record), 1u);
    char *text = gateau_state_view_text(gateau_record_state(record), 0, false);
    cr_assert_not_null(strstr(text, "Final scoring"), "%s", text);
    cr_assert_not_null(strstr(text, "4: +3"), "four 1s: +3\n%s", text);
    cr_assert_not_null(strstr(text, "5: +5"), "five 6s: +5\n%s", text);
    cr_assert_not_null(strstr(text, "1: -3"), "one 2: -3\n%s", text);
    cr_assert_not_null(strstr(text, "Winner: seat 1"), "%s", text);
    free(text);
    gateau_record_free(record);
}

Test(maries_table, scoring_table)
{
    /* One seat keeps k cards of one value (k = 1..8) over the game. */
    for (int k = 1; k <= 8; k++) {
        plan p = {.players = 3};
        static char pairs[6][3][3];
        int placed = 0;
        /* Seat 1 gets k 7s (and fillers 1..6 in distinct values). */
        static const char *fillers[] = {"12", "34", "56", "12", "34", "56"};
        for (int r = 0; r < 6; r++) {
            if (placed + 2 <= k) {
                strcpy(pairs[r][0], "77");
                placed += 2;
            } else if (placed < k) {
                strcpy(pairs[r][0], "67");
                placed++;
            } else {
                strcpy(pairs[r][0], fillers[r]);
            }
            strcpy(pairs[r][1], r % 2 ? "11" : "22");
            strcpy(pairs[r][2], r % 2 ? "33" : "44");
            p.pair[r][0] = pairs[r][0];
            p.pair[r][1] = pairs[r][1];
            p.pair[r][2] = pairs[r][2];
        }
        gateau_record *record = planned_game(&p);
        json_t *view = view_of(record, GATEAU_OBSERVER);
        cr_assert_eq(view_kept(view, 0, 7), k);
        int expected = 0;
        for (int v = 1; v <= VALUES; v++) expected += KEPT_POINTS[view_kept(view, 0, v)];
        json_decref(view);
        cr_assert_eq(score_of(record, 0), expected, "%d kept 7s", k);
        gateau_record_free(record);
    }
}

Test(maries_table, tiebreak_by_kept_sevens)
{
    plan p = {.players = 3,
              .pair = {{"77", "66", "44"},
                       {"17", "16", "44"},
                       {"11", "11", "55"},
                       {"22", "22", "55"},
                       {"23", "23", "66"},
                       {"33", "33", "57"}},
              .eat = {[5] = {NULL, NULL, "5"}}};
    gateau_record *record = planned_game(&p);
    cr_assert_eq(score_of(record, 0), 4);
    cr_assert_eq(score_of(record, 1), 4);
    cr_assert_eq(score_of(record, 2), 3);
    cr_assert_eq(winners_of(record), 1u, "three kept 7s beat none");
    char *text = gateau_state_view_text(gateau_record_state(record), GATEAU_OBSERVER, false);
    cr_assert_not_null(strstr(text, "broken by kept 7s"), "%s", text);
    free(text);
    gateau_record_free(record);
}

Test(maries_table, tiebreak_chain_down_to_threes)
{
    plan p = {.players = 3,
              .pair = {{"77", "77", "22"},
                       {"67", "67", "44"},
                       {"66", "66", "33"},
                       {"55", "55", "11"},
                       {"35", "15", "55"},
                       {"33", "11", "67"}}};
    gateau_record *record = planned_game(&p);
    cr_assert_eq(score_of(record, 0), 4);
    cr_assert_eq(score_of(record, 1), 4);
    cr_assert_eq(winners_of(record), 1u, "equal 7s, 6s, 5s, 4s; three 3s beat none");
    char *text = gateau_state_view_text(gateau_record_state(record), GATEAU_OBSERVER, false);
    cr_assert_not_null(strstr(text, "broken by kept 3s"), "%s", text);
    free(text);
    gateau_record_free(record);
}

Test(maries_table, tiebreak_ignores_eaten_cards)
{
    /* Seat 2 ate two 7s: it handled five 7s but kept three, like seat 1;
     * 6s are equal too, and seat 1's four kept 5s decide. */
    plan p = {.players = 3,
              .pair = {{"77", "77", "33"},
                       {"67", "67", "33"},
                       {"66", "66", "44"},
                       {"55", "22", "44"},
                       {"55", "22", "11"},
                       {"11", "77", "22"}},
              .eat = {[5] = {"1 1", "7 7"}}};
    gateau_record *record = planned_game(&p);
    cr_assert_eq(score_of(record, 0), 7);
    cr_assert_eq(score_of(record, 1), 7);
    cr_assert_eq(winners_of(record), 1u);
    gateau_record_free(record);
}

Test(maries_table, tie_all_the_way_down_is_shared)
{
    plan p = {.players = 3,
              .pair = {{"77", "77", "11"},
                       {"77", "77", "11"},
                       {"66", "66", "22"},
                       {"66", "66", "22"},
                       {"55", "55", "33"},
                       {"11", "23", "44"}},
              .eat = {[5] = {"1 1", "2 3"}}};
    gateau_record *record = planned_game(&p);
    cr_assert_eq(score_of(record, 0), 7, "four 7s, four 6s, two 5s, two eaten");
    cr_assert_eq(score_of(record, 1), 7);
    cr_assert_eq(score_of(record, 2), 4);
    cr_assert_eq(winners_of(record), 3u, "seats 1 and 2 share the win");
    json_t *view = view_of(record, GATEAU_OBSERVER);
    json_t *winners = json_object_get(view, "winners");
    cr_assert_eq(json_array_size(winners), 2);
    json_decref(view);
    gateau_record_free(record);
}

Test(maries_table, scores_provisional_and_no_winner_before_the_end)
{
    gateau_record *record = at_vote3();
    for (int s = 0; s < 3; s++) support_play(record, s, "up");
    play(record, "eat 3"); /* seat 3: eats a 3, keeps a 3 */
    cr_assert_eq(score_of(record, 2), 1 - 3);
    cr_assert_eq(score_of(record, 0), 0, "seat 1's pair is not taken yet");
    cr_assert_eq(winners_of(record), 0u);
    gateau_record_free(record);
}

/* ---- What a seat knows ----------------------------------------------------------------------- */

/* Two 5-player games that differ in the eldest's pair, in how seat 3 split
 * what seat 2 passed it, and in the decks to come: all unknown to seat 2. */
static const char DEAL5_A[] = "deal 1122334455/6677123456/7766554433/2211776655/4433221177";
static const char DEAL5_B[] = "deal 6622334455/1177123456/7766554433/2211776655/4433221177";

static gateau_record *five_player_draft(const char *deal, const char *first, const char *third)
{
    buffer b = {0};
    add(&b, "game: maries-table\nplayers: 5\n---\n%s\n%s\nkeep 2 2\n%s\n", deal, first, third);
    return support_read(b.text);
}

Test(maries_table, view_same_when_only_unknowns_differ)
{
    gateau_record *a = five_player_draft(DEAL5_A, "keep 1 1", "keep 3 3");
    gateau_record *b = five_player_draft(DEAL5_B, "keep 6 6", "keep 4 5");
    const gateau_state *sa = gateau_record_state(a), *sb = gateau_record_state(b);
    for (int seat = GATEAU_OBSERVER; seat < 5; seat++) {
        char *va = json_text(sa, seat), *vb = json_text(sb, seat);
        bool knows_difference = seat == 0 || seat == 2 || seat == 3;
        if (knows_difference)
            cr_assert_str_neq(va, vb, "seat %d can tell the games apart", seat + 1);
        else
            cr_assert_str_eq(va, vb, "seat %d cannot tell the games apart", seat + 1);
        free(va);
        free(vb);
        char *ta = gateau_state_view_text(sa, seat, true), *tb = gateau_state_view_text(sb, seat, true);
        if (!knows_difference) cr_assert_str_eq(ta, tb);
        free(ta);
        free(tb);
    }
    /* What seat 2 sees: the hand passed to it, its pair, what it passed. */
    json_t *view = view_of(a, 1);
    json_t *draft = json_object_get(view, "draft");
    char *seen = json_dumps(json_object_get(draft, "seen"), JSON_COMPACT);
    char *kept = json_dumps(json_object_get(draft, "kept"), JSON_COMPACT);
    char *passed = json_dumps(json_object_get(draft, "passed"), JSON_COMPACT);
    cr_assert_str_eq(seen, "[2,2,3,3,4,4,5,5]");
    cr_assert_str_eq(kept, "[2,2]");
    cr_assert_str_eq(passed, "[3,3,4,4,5,5]");
    free(seen);
    free(kept);
    free(passed);
    json_decref(view);
    /* Seat 4 (to act) sees its hand; seat 5 has seen nothing yet. */
    view = view_of(a, 3);
    char *hand = json_dumps(json_object_get(json_object_get(view, "draft"), "seen"), JSON_COMPACT);
    cr_assert_str_eq(hand, "[4,4,5,5]");
    free(hand);
    json_decref(view);
    view = view_of(a, 4);
    cr_assert_null(json_object_get(json_object_get(view, "draft"), "seen"));
    json_decref(view);
    char *text = gateau_state_view_text(sa, 1, false);
    cr_assert_not_null(strstr(text, "You were passed 2 2 3 3 4 4 5 5"), "%s", text);
    cr_assert_not_null(strstr(text, "You kept 2 2 and passed on 3 3 4 4 5 5"), "%s", text);
    free(text);
    text = gateau_state_view_text(sa, 3, false);
    cr_assert_not_null(strstr(text, "Your hand: 4 4 5 5"), "%s", text);
    free(text);
    gateau_record_free(a);
    gateau_record_free(b);
}

Test(maries_table, determinize_keeps_what_the_seat_saw)
{
    gateau_record *record = five_player_draft(DEAL5_A, "keep 1 1", "keep 3 3");
    const gateau_state *state = gateau_record_state(record);
    gateau_state *copy = gateau_state_clone(state);
    gateau_rng rng;
    gateau_rng_seed(&rng, 11);
    char *truth = json_text(state, 1);
    bool eldest_pair_varied = false, third_pair_varied = false;
    for (int i = 0; i < 300; i++) {
        gateau_state_copy(copy, state);
        gateau_state_determinize(copy, 1, &rng);
        char *sampled = json_text(copy, 1);
        cr_assert_str_eq(truth, sampled);
        free(sampled);
        /* Seat 1's pair: any unseen cards (not from 2 2 3 3 4 4 5 5 known to
         * seat 2... except the copies seat 2 has not seen). */
        json_t *v1 = support_view(copy, 0);
        json_t *pair = json_object_get(json_object_get(v1, "draft"), "kept");
        int a = (int)json_integer_value(json_array_get(pair, 0));
        int b = (int)json_integer_value(json_array_get(pair, 1));
        eldest_pair_varied |= !(a == 1 && b == 1);
        json_decref(v1);
        /* Seat 3's pair comes out of what seat 2 passed: 3 3 4 4 5 5. */
        json_t *v3 = support_view(copy, 2);
        pair = json_object_get(json_object_get(v3, "draft"), "kept");
        a = (int)json_integer_value(json_array_get(pair, 0));
        b = (int)json_integer_value(json_array_get(pair, 1));
        cr_assert(a >= 3 && b <= 5, "seat 3 kept %d %d of 3 3 4 4 5 5", a, b);
        third_pair_varied |= !(a == 3 && b == 3);
        /* ... and seat 4's hand is the rest of it. */
        json_t *v4 = support_view(copy, 3);
        json_t *hand = json_object_get(json_object_get(v4, "draft"), "seen");
        int counts[8] = {0};
        counts[a]++;
        counts[b]++;
        for (size_t k = 0; k < json_array_size(hand); k++)
            counts[json_integer_value(json_array_get(hand, k))]++;
        cr_assert(counts[3] == 2 && counts[4] == 2 && counts[5] == 2);
        json_decref(v3);
        json_decref(v4);
        /* Seat 4's legal actions follow its (resampled) hand. */
        gateau_action actions[GATEAU_MAX_ACTIONS];
        cr_assert_gt(gateau_state_legal_actions(copy, 3, actions), 0);
    }
    cr_assert(eldest_pair_varied && third_pair_varied, "unknown pairs are resampled");
    free(truth);
    /* The drafter knows its own hand: determinizing for it changes nothing
     * it can see, even halfway through a keep. */
    gateau_action low = 0;
    gateau_action actions[GATEAU_MAX_ACTIONS];
    cr_assert_gt(gateau_state_legal_actions(state, 3, actions), 0);
    low = actions[0];
    cr_assert(gateau_record_play(record, 3, low, NULL, 0));
    cr_assert(gateau_state_in_move(state));
    truth = json_text(state, 3);
    cr_assert_not_null(strstr(truth, "\"keeping\":4"), "%s", truth);
    for (int i = 0; i < 50; i++) {
        gateau_state_copy(copy, state);
        gateau_state_determinize(copy, 3, &rng);
        char *sampled = json_text(copy, 3);
        cr_assert_str_eq(truth, sampled);
        free(sampled);
        /* For someone else the half keep is resampled, but stays finishable. */
        gateau_state_copy(copy, state);
        gateau_state_determinize(copy, 0, &rng);
        int count = gateau_state_legal_actions(copy, 3, actions);
        cr_assert_gt(count, 0, "the drafter can finish its keep");
        gateau_state_apply_legal(copy, 3, actions[0]);
        cr_assert(!gateau_state_in_move(copy));
    }
    free(truth);
    gateau_state_free(copy);
    gateau_record_free(record);
}

/* ---- Views read back (gateau_state_from_view) ------------------------------------- */

/* Seat's view, changed by the caller, must be refused with a reason that
 * says fragment. */
static void expect_view_refused(const gateau_record *record, int seat, json_t *view,
                                const char *fragment)
{
    char *text = json_dumps(view, JSON_COMPACT);
    char error[256] = "";
    gateau_state *read = gateau_state_from_view(gateau_state_setup(gateau_record_state(record)),
                                                seat, text, error, sizeof error);
    cr_assert_null(read, "read: %s", text);
    cr_assert_not_null(strstr(error, fragment), "the reason '%s' does not say '%s'", error,
                       fragment);
    free(text);
    json_decref(view);
}

Test(maries_table, a_view_reads_back_halfway_through_a_keep)
{
    /* Seat 4 was passed 4 4 5 5 and has begun to keep a 4. */
    gateau_record *record = five_player_draft(DEAL5_A, "keep 1 1", "keep 3 3");
    const gateau_state *state = gateau_record_state(record);
    cr_assert(gateau_record_play(record, 3, 10 + 4, NULL, 0), "the low card of 'keep 4 ...'");
    char *view = json_text(state, 3);
    char error[256] = "";
    gateau_state *read =
        gateau_state_from_view(gateau_state_setup(state), 3, view, error, sizeof error);
    cr_assert_not_null(read, "%s\n%s", error, view);
    cr_assert(gateau_state_in_move(read), "the keep is still to finish");
    gateau_action truth[GATEAU_MAX_ACTIONS], guess[GATEAU_MAX_ACTIONS];
    int count = gateau_state_legal_actions(state, 3, truth);
    cr_assert_eq(gateau_state_legal_actions(read, 3, guess), count);
    cr_assert_arr_eq(truth, guess, sizeof truth[0] * (size_t)count, "keep 4 4 or 4 5");
    gateau_state_free(read);
    free(view);
    gateau_record_free(record);
}

Test(maries_table, views_the_rules_cannot_reach_are_refused)
{
    /* During the draft, seat 2 was passed 2 2 3 3 4 4 5 5 and kept 2 2. */
    gateau_record *record = five_player_draft(DEAL5_A, "keep 1 1", "keep 3 3");
    json_t *view = view_of(record, 1);
    json_object_set_new(json_object_get(view, "draft"), "kept", json_pack("[ii]", 6, 6));
    expect_view_refused(record, 1, view, "draft: 'kept' must be cards of 'seen'");
    view = view_of(record, 1);
    json_object_set_new(json_object_get(view, "draft"), "kept", json_pack("[ii]", 3, 2));
    expect_view_refused(record, 1, view, "draft: 'kept' must be written lowest first");
    view = view_of(record, 1);
    json_object_set_new(json_object_get(view, "draft"), "drafter", json_integer(5));
    expect_view_refused(record, 1, view, "'drafter' cannot be the youngest");
    view = view_of(record, 1);
    json_object_set_new(json_object_get(view, "draft"), "seen", json_pack("[ii]", 2, 2));
    expect_view_refused(record, 1, view, "draft: 'seen' must be a list of 8");
    view = view_of(record, 1);
    json_object_set_new(view, "phase", json_string("dessert"));
    expect_view_refused(record, 1, view, "'phase' must be deal, draft, vote, take, eat or over");

    /* Seat 4 keeps 4 4, seat 5 gets 5 5: the pairs are up, the vote is on. */
    play(record, "keep 4 4");
    view = view_of(record, 0);
    json_t *rows = json_object_get(json_array_get(json_object_get(view, "revealed"), 0), "seats");
    for (size_t s = 0; s < 5; s++)
        json_object_set_new(json_array_get(rows, s), "pair", json_pack("[ii]", 7, 7));
    expect_view_refused(record, 0, view, "show 10 cards of value 7; there are 8");
    view = view_of(record, 0);
    rows = json_object_get(json_array_get(json_object_get(view, "revealed"), 0), "seats");
    json_object_set_new(json_array_get(rows, 2), "vote", json_string("maybe"));
    expect_view_refused(record, 0, view, "revealed[0].seats[2]: 'vote' must be null");

    /* Nobody discontent: seat 5 eats from his own 5 5 first. */
    for (int s = 0; s < 5; s++) support_play(record, s, "up");
    view = view_of(record, 0);
    rows = json_object_get(json_array_get(json_object_get(view, "revealed"), 0), "seats");
    json_object_set_new(json_array_get(rows, 4), "ate", json_pack("[i]", 3));
    expect_view_refused(record, 0, view, "revealed[0].seats[4]: 'ate' cannot be played");
    view = view_of(record, 0);
    rows = json_object_get(json_array_get(json_object_get(view, "revealed"), 0), "seats");
    json_object_set_new(json_array_get(rows, 4), "took", json_integer(6));
    expect_view_refused(record, 0, view, "revealed[0].seats[4]: 'took' must be a whole number");
    gateau_record_free(record);
}

Test(maries_table, describe_hides_what_the_viewer_cannot_see)
{
    gateau_record *record = support_read("game: maries-table\nplayers: 3\n---\n");
    const gateau_state *state = gateau_record_state(record);
    gateau_state *before = gateau_state_clone(state);
    gateau_rng rng;
    gateau_rng_seed(&rng, 1);
    gateau_record_play_chance(record, &rng);
    int count;
    const gateau_action *deal = gateau_record_move_actions(record, 0, &count);
    char *said = gateau_move_describe(before, GATEAU_CHANCE, deal, count, 0);
    cr_assert_not_null(strstr(said, "shuffled"), "%s", said);
    char first_deck[16];
    snprintf(first_deck, sizeof first_deck, "%.6s", gateau_record_move_text(record, 0) + 5);
    cr_assert_null(strstr(said, first_deck), "the deal stays secret: %s", said);
    free(said);
    gateau_state_copy(before, state);
    gateau_action legal[GATEAU_MAX_ACTIONS];
    gateau_state_legal_actions(state, 0, legal);
    cr_assert(gateau_record_play(record, 0, legal[0], NULL, 0));
    gateau_state_legal_actions(state, 0, legal);
    cr_assert(gateau_record_play(record, 0, legal[0], NULL, 0));
    const gateau_action *keep = gateau_record_move_actions(record, 1, &count);
    char *to_self = gateau_move_describe(before, 0, keep, count, 0);
    char *to_other = gateau_move_describe(before, 0, keep, count, 1);
    char *to_nobody = gateau_move_describe(before, 0, keep, count, GATEAU_OBSERVER);
    char keeps[32];
    snprintf(keeps, sizeof keeps, "seat 1 keeps %s", gateau_record_move_text(record, 1) + 5);
    cr_assert_not_null(strstr(to_self, keeps), "%s", to_self);
    cr_assert_str_eq(to_other, "seat 1 keeps 2 cards face down and passes 4 to seat 2");
    cr_assert_str_eq(to_nobody, to_other);
    free(to_self);
    free(to_other);
    free(to_nobody);
    /* The keep that ends the draft reveals every pair to everybody. */
    gateau_state_copy(before, state);
    gateau_state_legal_actions(state, 1, legal);
    cr_assert(gateau_record_play(record, 1, legal[0], NULL, 0));
    gateau_state_legal_actions(state, 1, legal);
    cr_assert(gateau_record_play(record, 1, legal[0], NULL, 0));
    keep = gateau_record_move_actions(record, 2, &count);
    said = gateau_move_describe(before, 1, keep, count, 2);
    cr_assert_not_null(strstr(said, "pairs are turned up"), "%s", said);
    free(said);
    gateau_state_free(before);
    gateau_record_free(record);
}

/* Which lines each seat may read as they are played: the shuffle by
 * nobody, a pick by its maker only, but the last pick of the draft turns
 * every pair up; a vote by its maker only, but the last vote shows them
 * all; takes and eats by everybody. */
Test(maries_table, which_lines_each_seat_reads)
{
    gateau_record *record = at_vote3();
    support_play(record, 0, "down");
    support_play(record, 2, "up");
    support_play(record, 1, "down");
    static const char *const moves[] = {"take 1", "eat", "take 3", "eat 3", "take 2", "eat"};
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++) play(record, moves[i]);
    /* deal, 1 keep, 2 keep (last), 1: down, 3: up, 2: down (last), takes and eats */
    cr_assert_str_eq(support_visible_moves(record, 0), "-vvv-vvvvvvv");
    cr_assert_str_eq(support_visible_moves(record, 1), "--v--vvvvvvv");
    cr_assert_str_eq(support_visible_moves(record, 2), "--v-vvvvvvvv");
    cr_assert_str_eq(support_visible_moves(record, GATEAU_OBSERVER), "--v--vvvvvvv");
    char *text = gateau_record_text_for(record, 1);
    cr_assert_str_eq(text, "game: maries-table\nplayers: 3\n---\n"
                           "# chance (hidden)\n"
                           "# seat 1 moved (hidden)\n"
                           "keep 2 2\n"
                           "# seat 1 moved (hidden)\n"
                           "# seat 3 moved (hidden)\n"
                           "2: down\n"
                           "take 1\neat\ntake 3\neat 3\ntake 2\neat\n");
    free(text);
    gateau_record_free(record);
    /* Four brothers: only the third pick ends the draft. */
    record = at_vote4();
    cr_assert_str_eq(support_visible_moves(record, GATEAU_OBSERVER), "---v");
    cr_assert_str_eq(support_visible_moves(record, 0), "-v-v");
    cr_assert_str_eq(support_visible_moves(record, 1), "--vv");
    gateau_record_free(record);
}

Test(maries_table, view_text_and_legal_moves)
{
    gateau_record *record = at_vote3();
    const gateau_state *state = gateau_record_state(record);
    char *text = gateau_state_view_text(state, 0, true);
    cr_assert_not_null(strstr(text, "\033["), "colors when asked");
    free(text);
    text = gateau_state_view_text(state, 0, false);
    cr_assert_null(strstr(text, "\033["), "no colors otherwise");
    cr_assert_not_null(strstr(text, "Pairs on the table"), "%s", text);
    free(text);
    char *legal = gateau_state_describe_legal(state, 0);
    cr_assert_not_null(strstr(legal, "up"));
    cr_assert_not_null(strstr(legal, "down"));
    free(legal);
    for (int s = 0; s < 3; s++) support_play(record, s, "down");
    legal = gateau_state_describe_legal(state, 2);
    cr_assert_not_null(strstr(legal, "take 1"), "%s", legal);
    cr_assert_not_null(strstr(legal, "take 2"), "%s", legal);
    cr_assert_null(strstr(legal, "take 3"), "%s", legal);
    free(legal);
    play(record, "take 1");
    legal = gateau_state_describe_legal(state, 2);
    cr_assert_not_null(strstr(legal, "eat 1 1"), "%s", legal);
    free(legal);
    const char *summary = gateau_game_summary(gateau_game_find("maries-table"));
    cr_assert_not_null(strstr(summary, "3-5 players"));
    gateau_record_free(record);
}

/* ---- Records ------------------------------------------------------------------------------------ */

Test(maries_table, reads_variants_writes_canonical)
{
    gateau_record *record = support_read(
        "game: maries-table\nplayers: 3\n---\n"
        "deal 112233 / 114455/667723 /665544/ 267733/345577   # spaces tolerated\n"
        "keep 1 1\n"
        "2: keep 2 2   # an optional prefix naming the seat to act\n"
        "3: down\n1: down\n2: down\n"
        "take 2\neat 2 2\ntake 1\neat 1\n take 3\neat 3 3\n");
    char *text = gateau_record_text(record);
    cr_assert_null(strstr(text, "2: keep"), "only simultaneous moves are written with a seat");
    cr_assert_not_null(strstr(text, "\ndeal 112233/114455/667723/665544/267733/345577\n"));
    cr_assert(gateau_state_is_over(gateau_record_state(record)) == false);
    free(text);
    gateau_record_free(record);
    /* That prefix named the wrong seat: seat 2 keeps second. */
    support_expect_refused("game: maries-table\nplayers: 3\n---\n"
                           "deal 112233/114455/667723/665544/267733/345577\n"
                           "keep 1 1\n1: keep 2 2\n",
                           6, "not seat 1's turn");
    record = support_read("game: maries-table\nplayers: 3\n---\n"
                          "deal 112233 / 114455/667723 /665544/ 267733/345577\n"
                          "keep 2 1\nkeep 3 2\n3: down\n1: up\n2: down\n"
                          "take 1\neat 2 1\ntake 3\neat 3\n");
    text = gateau_record_text(record);
    cr_assert_str_eq(text, "game: maries-table\nplayers: 3\n---\n"
                           "deal 112233/114455/667723/665544/267733/345577\n"
                           "keep 1 2\nkeep 2 3\n3: down\n1: up\n2: down\n"
                           "take 1\neat 1 2\ntake 3\neat 3\n");
    free(text);
    gateau_record_free(record);
}

Test(maries_table, records_round_trip)
{
    for (int n = 3; n <= 5; n++) {
        for (uint64_t seed = 0; seed < 20; seed++) {
            gateau_setup *setup = support_setup("maries-table", n, NULL);
            gateau_record *record = gateau_record_new(setup);
            gateau_rng rng;
            gateau_rng_seed(&rng, seed * 7 + (uint64_t)n);
            support_play_out(record, &rng);
            /* Also every prefix: a game in progress resumes from its record. */
            int moves = gateau_record_move_count(record);
            char *text = gateau_record_text(record);
            gateau_record *again = support_read(text);
            char *text2 = gateau_record_text(again);
            cr_assert_str_eq(text, text2);
            char *v1 = json_text(gateau_record_state(record), GATEAU_OBSERVER);
            char *v2 = json_text(gateau_record_state(again), GATEAU_OBSERVER);
            cr_assert_str_eq(v1, v2);
            cr_assert_eq(winners_of(record), winners_of(again));
            free(v1);
            free(v2);
            int cut = (int)gateau_rng_below(&rng, (uint32_t)moves);
            gateau_record_truncate(again, cut);
            char *partial = gateau_record_text(again);
            gateau_record *resumed = support_read(partial);
            cr_assert_eq(gateau_record_move_count(resumed), cut);
            char *partial2 = gateau_record_text(resumed);
            cr_assert_str_eq(partial, partial2);
            free(partial);
            free(partial2);
            gateau_record_free(resumed);
            free(text);
            free(text2);
            gateau_record_free(again);
            gateau_record_free(record);
            gateau_setup_free(setup);
        }
    }
}

/* ---- Bad records ------------------------------------------------------------------------------- */

#define HEADER3 "game: maries-table\nplayers: 3\n---\n" /* lines 1-3 */

Test(maries_table, bad_deals)
{
    support_expect_refused(HEADER3 "deal 11223x/114455/667723/665544/267733/345577\n", 4,
                           "'x' is neither a card value");
    support_expect_refused(HEADER3 "deal 112238/114455/667723/665544/267733/345577\n", 4,
                           "'8' is neither a card value");
    support_expect_refused(HEADER3 "deal 11223/114455/667723/665544/267733/3455771\n", 4,
                           "deck 1 has 5 cards, not 6");
    support_expect_refused(HEADER3 "deal 112233/114455/667723/665544/267733/34557\n", 4,
                           "deck 6 has 5 cards, not 6");
    support_expect_refused(HEADER3 "deal 112233/114455/667723/665544/267733\n", 4,
                           "has 6 decks of 6 cards, not 5");
    support_expect_refused(HEADER3 "deal 112233/114455/667723/665544/267733/345577/123456\n", 4,
                           "not more");
    support_expect_refused(HEADER3 "deal 112233/114455/667723/665544/267733/345577/\n", 4,
                           "deck 7 has 0 cards");
    support_expect_refused(HEADER3 "deal 111111/111222/667723/665544/267733/345577\n", 4,
                           "more than 8 cards of value 1");
    support_expect_refused(HEADER3 "deal\n", 4, "a deal is 'deal'");
    support_expect_refused(HEADER3 "# comment\n\nkeep 1 1\n", 6, "expected the deal");
    support_expect_refused(HEADER3 "1: deal 112233/114455/667723/665544/267733/345577\n", 4,
                           "no seat prefix");
    /* 4 players: decks of 8; 5 players: decks of 10. */
    support_expect_refused("game: maries-table\nplayers: 4\n---\n"
                           "deal 112233/114455/667723/665544/267733\n",
                           4, "deck 1 has 6 cards, not 8 (4 players)");
    support_expect_refused("game: maries-table\nplayers: 5\n---\n"
                           "deal 11223344/55667711/22334455/66771122/33445566\n",
                           4, "deck 1 has 8 cards, not 10 (5 players)");
    support_expect_refused("game: maries-table\nplayers: 6\n---\n", 2, "3 to 5 players");
}

/* A base record: round 1 with a swap, then round 2 (lines noted). */
static const char BASE[] =
    HEADER3
    "deal 112233/114455/667723/665544/267733/345577\n" /* 4 */
    "keep 1 1\n"                                       /* 5  seat 1 (eldest) */
    "keep 2 2\n"                                       /* 6  seat 2; seat 3 gets 3 3 */
    "1: up\n"                                          /* 7 */
    "2: down\n"                                        /* 8 */
    "3: down\n"                                        /* 9 */
    "take 1\n"                                         /* 10 seat 3 takes 1 1 */
    "eat\n"                                            /* 11 */
    "take 3\n"                                         /* 12 seat 2 takes 3 3 */
    "eat 3\n"                                          /* 13 */
    "take 2\n"                                         /* 14 seat 1 takes 2 2 */
    "eat 2 2\n"                                        /* 15 */
    "keep 4 4\n"                                       /* 16 round 2: seat 3 eldest */
    "keep 1 1\n"                                       /* 17 seat 1; seat 2 gets 5 5 */
    "1: up\n2: up\n3: up\n"                            /* 18-20 */
    "eat\n";                                           /* 21 seat 2 */

static void expect_refused_after(int lines, const char *bad, int line, const char *fragment)
{
    /* The first `lines` lines of BASE, then the bad line. */
    buffer b = {0};
    const char *p = BASE;
    for (int i = 0; i < lines; i++) {
        const char *end = strchr(p, '\n');
        add(&b, "%.*s\n", (int)(end - p), p);
        p = end + 1;
    }
    add(&b, "%s\n", bad);
    support_expect_refused(b.text, line, fragment);
}

Test(maries_table, base_record_is_legal)
{
    gateau_record *record = support_read(BASE);
    cr_assert_eq(next_seat(record), 0, "seat 1 decides next");
    cr_assert_eq(score_of(record, 0), 2, "ate 2 2");
    cr_assert_eq(score_of(record, 1), -3 + 1 + -1, "kept a 3 (-3), ate a 3, kept 5 5 (-1)");
    cr_assert_eq(score_of(record, 2), -1, "kept 1 1; 4 4 is not taken yet");
    gateau_record_free(record);
}

Test(maries_table, bad_moves)
{
    expect_refused_after(4, "keep 7 7", 5, "has no 7");
    expect_refused_after(4, "keep 3 4", 5, "has no 4");
    expect_refused_after(4, "keep 1", 5, "keep a b");
    expect_refused_after(4, "keep one two", 5, "keep a b");
    expect_refused_after(4, "up", 5, "expected a keep");
    expect_refused_after(5, "keep 1 1", 6, "has no 1");
    expect_refused_after(6, "up", 7, "needs its seat");
    expect_refused_after(6, "1: keep 1 1", 7, "expected a vote");
    expect_refused_after(6, "1: yes", 7, "expected a vote");
    expect_refused_after(6, "1: up please", 7, "just 'up' or 'down'");
    expect_refused_after(6, "4: up", 7, "seat"); /* the core says why */
    expect_refused_after(7, "1: down", 8, "already moved");
    expect_refused_after(8, "2: down", 9, "already moved");
    expect_refused_after(9, "eat", 10, "expected a take");
    expect_refused_after(9, "take 3", 10, "your own");
    expect_refused_after(9, "take 0", 10, "take s");
    expect_refused_after(9, "take", 10, "take s");
    expect_refused_after(9, "2: take 1", 10, "not seat 2's turn");
    expect_refused_after(10, "take 2", 11, "expected 'eat'");
    expect_refused_after(10, "eat 2", 11, "your pair is 1 1: there is no 2");
    expect_refused_after(10, "eat 1 1 1", 11, "0, 1 or 2");
    expect_refused_after(11, "take 1", 12, "already taken by seat 3");
    expect_refused_after(11, "take 2", 12, "your own");
    expect_refused_after(13, "take 3", 14, "already taken by seat 2");
    expect_refused_after(13, "take 1", 14, "already taken by seat 3");
    expect_refused_after(14, "eat 2 3", 15, "there is no 3");
    expect_refused_after(20, "eat 5 5", 21, "has eaten 1 card already and may eat 1 more");
    expect_refused_after(21, "eat 1", 22, "has eaten 2 cards already and may eat 0 more");
    expect_refused_after(21, "take 3", 22, "expected 'eat'");
}

Test(maries_table, nothing_after_the_end)
{
    plan p = {.players = 3,
              .pair = {{"11", "22", "33"},
                       {"11", "55", "44"},
                       {"66", "77", "23"},
                       {"66", "55", "44"},
                       {"26", "33", "77"},
                       {"34", "77", "55"}}};
    static buffer b;
    b.length = 0;
    planned_record(&p, &b);
    int lines = 0;
    for (const char *c = b.text; *c; c++) lines += *c == '\n';
    add(&b, "eat\n");
    support_expect_refused(b.text, lines + 1, "over");
}

/* ---- Random games: every card accounted for, scores recomputed ----------------------------- */

typedef struct replayed {
    int kept[5][8], eaten[5][8], eaten_count[5];
    int scores[5];
    uint32_t winners;
    bool over;
} replayed;

/* The next move line of a record, seat prefix cut off (*prefix 0-based or -1). */
static bool next_line(const char **cursor, char *line, size_t size, int *prefix)
{
    while (**cursor) {
        const char *end = strchr(*cursor, '\n');
        size_t length = end ? (size_t)(end - *cursor) : strlen(*cursor);
        const char *start = *cursor;
        *cursor = end ? end + 1 : start + length;
        if (length == 0 || start[0] == '#') continue;
        cr_assert_lt(length, size);
        memcpy(line, start, length);
        line[length] = '\0';
        *prefix = -1;
        if (line[0] >= '1' && line[0] <= '9' && line[1] == ':') {
            *prefix = line[0] - '1';
            memmove(line, line + 3, strlen(line + 3) + 1);
        }
        return true;
    }
    return false;
}

/* Replays a record's text by the rules file alone, without the engine. */
static void replay_by_hand(const char *text, int n, replayed *out)
{
    memset(out, 0, sizeof *out);
    int rounds = rounds_for(n), size = deck_size_for(n);
    const char *cursor = strstr(text, "---\n");
    cr_assert_not_null(cursor);
    cursor += 4;
    char line[512];
    int prefix;
    if (!next_line(&cursor, line, sizeof line, &prefix)) return;
    cr_assert_eq(strncmp(line, "deal ", 5), 0);
    int deck[6][8] = {{0}}, total[8] = {0}, d = 0, in_deck = 0;
    for (const char *c = line + 5; *c; c++) {
        if (*c == '/') {
            cr_assert_eq(in_deck, size);
            d++;
            in_deck = 0;
            continue;
        }
        int v = *c - '0';
        cr_assert(v >= 1 && v <= 7);
        deck[d][v]++;
        total[v]++;
        in_deck++;
    }
    cr_assert_eq(d + 1, rounds, "one deck per round");
    cr_assert_eq(in_deck, size);
    for (int v = 1; v <= 7; v++) cr_assert_leq(total[v], COPIES);
    for (int r = 0; r < rounds; r++) {
        int e = eldest_of(n, r), pair[5][2], hand[8];
        memcpy(hand, deck[r], sizeof hand);
        for (int k = 0; k + 1 < n; k++) {
            if (!next_line(&cursor, line, sizeof line, &prefix)) return;
            int a, b;
            cr_assert_eq(sscanf(line, "keep %d %d", &a, &b), 2, "%s", line);
            cr_assert(a <= b && hand[a] > 0 && hand[b] > (a == b));
            hand[a]--;
            hand[b]--;
            pair[(e + k) % n][0] = a;
            pair[(e + k) % n][1] = b;
        }
        int y = (e + n - 1) % n, got = 0;
        for (int v = 1; v <= 7; v++)
            while (hand[v]--> 0) pair[y][got++] = v;
        cr_assert_eq(got, 2);
        int downs = 0, voted = 0;
        for (int i = 0; i < n; i++) {
            if (!next_line(&cursor, line, sizeof line, &prefix)) return;
            cr_assert_geq(prefix, 0, "votes carry their seat");
            cr_assert(!(voted & (1 << prefix)));
            voted |= 1 << prefix;
            downs += !strcmp(line, "down");
        }
        bool taken[5] = {false};
        for (int i = 0; i < n; i++) {
            int s = (e + n - 1 - i) % n, from = s;
            if (downs >= 2) {
                if (!next_line(&cursor, line, sizeof line, &prefix)) return;
                cr_assert_eq(sscanf(line, "take %d", &from), 1, "%s", line);
                from--;
                cr_assert(!taken[from]);
                cr_assert(from != s || i == n - 1, "only the eldest, last, takes his own");
            }
            taken[from] = true;
            if (!next_line(&cursor, line, sizeof line, &prefix)) return;
            int left[8] = {0}, eat[2], eats = sscanf(line, "eat %d %d", &eat[0], &eat[1]);
            cr_assert_eq(strncmp(line, "eat", 3), 0, "%s", line);
            if (eats < 0) eats = 0;
            left[pair[from][0]]++;
            left[pair[from][1]]++;
            for (int k = 0; k < eats; k++) {
                cr_assert_gt(left[eat[k]], 0);
                left[eat[k]]--;
                out->eaten[s][eat[k]]++;
            }
            out->eaten_count[s] += eats;
            cr_assert_leq(out->eaten_count[s], 2, "at most 2 eaten per game");
            for (int v = 1; v <= 7; v++) out->kept[s][v] += left[v];
        }
    }
    out->over = true;
    for (int s = 0; s < n; s++) {
        out->scores[s] = out->eaten_count[s];
        for (int v = 1; v <= 7; v++) out->scores[s] += KEPT_POINTS[out->kept[s][v]];
    }
    for (int s = 0; s < n; s++) {
        bool beaten = false;
        for (int t = 0; t < n && !beaten; t++) {
            if (out->scores[t] != out->scores[s]) {
                beaten = out->scores[t] > out->scores[s];
                continue;
            }
            for (int v = 7; v >= 1; v--)
                if (out->kept[t][v] != out->kept[s][v]) {
                    beaten = out->kept[t][v] > out->kept[s][v];
                    break;
                }
        }
        if (!beaten) out->winners |= 1u << s;
    }
}

static int json_count(json_t *object, int v)
{
    char key[2] = {(char)('0' + v), '\0'};
    return (int)json_integer_value(json_object_get(object, key));
}

/* From one seat's view: every card of every value is kept, eaten, on the
 * table, in the hand the seat saw, or unseen. */
static void check_cards_accounted(const gateau_state *state, int seat)
{
    json_t *view = support_view(state, seat);
    int counts[8] = {0};
    json_t *seats = json_object_get(view, "seats");
    for (size_t s = 0; s < json_array_size(seats); s++) {
        json_t *item = json_array_get(seats, s);
        for (int v = 1; v <= 7; v++)
            counts[v] += json_count(json_object_get(item, "kept"), v) +
                         json_count(json_object_get(item, "eaten_values"), v);
    }
    const char *phase = json_string_value(json_object_get(view, "phase"));
    json_t *revealed = json_object_get(view, "revealed");
    if (!strcmp(phase, "vote") || !strcmp(phase, "take") || !strcmp(phase, "eat")) {
        json_t *rows = json_object_get(json_array_get(revealed, json_array_size(revealed) - 1), "seats");
        for (size_t s = 0; s < json_array_size(rows); s++) {
            /* A pair counts here until its taker has kept or eaten it. */
            json_t *row = json_array_get(rows, s), *by = json_object_get(row, "taken_by");
            if (!json_is_null(by) &&
                !json_is_null(json_object_get(
                    json_array_get(rows, (size_t)json_integer_value(by) - 1), "ate")))
                continue;
            json_t *pair = json_object_get(row, "pair");
            counts[json_integer_value(json_array_get(pair, 0))]++;
            counts[json_integer_value(json_array_get(pair, 1))]++;
        }
    }
    json_t *seen = json_object_get(json_object_get(view, "draft"), "seen");
    for (size_t i = 0; i < json_array_size(seen); i++) counts[json_integer_value(json_array_get(seen, i))]++;
    for (int v = 1; v <= 7; v++) {
        counts[v] += json_count(json_object_get(view, "unseen"), v);
        cr_assert_eq(counts[v], COPIES, "seat %d, value %d: %d cards accounted for, not 8", seat + 1,
                     v, counts[v]);
    }
    json_decref(view);
}

static void random_games(int n)
{
    gateau_setup *setup = support_setup("maries-table", n, NULL);
    int games = support_property_games(10000);
    gateau_action actions[GATEAU_MAX_ACTIONS];
    for (int g = 0; g < games; g++) {
        gateau_rng rng;
        gateau_rng_seed_stream(&rng, 2016, (uint64_t)(g * 8 + n));
        gateau_record *record = gateau_record_new(setup);
        const gateau_state *state = gateau_record_state(record);
        int check_at = (int)gateau_rng_below(&rng, 60), steps = 0;
        while (!gateau_state_is_over(state)) {
            if (gateau_state_is_chance(state)) {
                gateau_record_play_chance(record, &rng);
                continue;
            }
            if (steps++ == check_at && !gateau_state_in_move(state))
                check_cards_accounted(state, (int)gateau_rng_below(&rng, (uint32_t)n + 1) - 1);
            int seat = gateau_state_next_seat(state);
            /* In a vote, any seat still to vote may go first. */
            if (gateau_state_is_simultaneous(state)) {
                uint32_t actors = gateau_state_actors(state);
                int pick = (int)gateau_rng_below(&rng, (uint32_t)__builtin_popcount(actors));
                for (seat = 0; seat < n; seat++) {
                    if (!(actors & (1u << seat))) continue;
                    if (pick-- == 0) break;
                }
            }
            int count = gateau_state_legal_actions(state, seat, actions);
            cr_assert_gt(count, 0);
            cr_assert(gateau_record_play(record, seat, actions[gateau_rng_below(&rng, (uint32_t)count)],
                                         NULL, 0));
        }
        check_cards_accounted(state, GATEAU_OBSERVER);
        char *text = gateau_record_text(record);
        replayed by_hand;
        replay_by_hand(text, n, &by_hand);
        cr_assert(by_hand.over, "the record holds a whole game:\n%s", text);
        int scores[GATEAU_MAX_PLAYERS];
        support_scores(state, scores);
        for (int s = 0; s < n; s++)
            cr_assert_eq(scores[s], by_hand.scores[s], "game %d seat %d: %d, by hand %d\n%s", g,
                         s + 1, scores[s], by_hand.scores[s], text);
        cr_assert_eq(gateau_state_winners(state), by_hand.winners, "game %d winners\n%s", g, text);
        json_t *view = support_view(state, GATEAU_OBSERVER);
        for (int s = 0; s < n; s++)
            for (int v = 1; v <= 7; v++)
                cr_assert_eq(view_kept(view, s, v), by_hand.kept[s][v]);
        json_decref(view);
        free(text);
        gateau_record_free(record);
    }
    gateau_setup_free(setup);
}

Test(maries_table, random_games_3_players, .timeout = 1800) { random_games(3); }
Test(maries_table, random_games_4_players, .timeout = 1800) { random_games(4); }
Test(maries_table, random_games_5_players, .timeout = 1800) { random_games(5); }
