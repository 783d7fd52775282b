/*
 * test_mice_cake.c: Mice Cake v2 against ../shared/rules/mice-cake.md.
 *
 * The rulebook's worked round, every exhaustion example, conflicts, steals,
 * the 500-round guard, the tiebreaks, per-seat views and reading them back,
 * bad input, and a property test over many random games (28 pieces always
 * accounted for, scores and winners recomputed from the views).
 */
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "support.h"

static const char HEADER[] = "game: mice-cake\nplayers: 2\n---\n";

/* ---- Helpers ---------------------------------------------------------------- */

static int piece_index(const char *name)
{
    int a = name[0] - '0', b = name[2] - '0';
    if (a > b) {
        int swap = a;
        a = b;
        b = swap;
    }
    return a * 7 - a * (a - 1) / 2 + (b - a);
}

static void piece_name(int index, char out[4])
{
    for (int a = 0; a <= 6; a++)
        for (int b = a; b <= 6; b++)
            if (piece_index((char[]){(char)('0' + a), '/', (char)('0' + b), '\0'}) == index) {
                out[0] = (char)('0' + a);
                out[1] = '/';
                out[2] = (char)('0' + b);
                out[3] = '\0';
            }
}

static int pips_of(const char *name) { return name[0] - '0' + name[2] - '0'; }

/*
 * A deal line from a spec of 28 words, row 1 columns A..D first: a piece,
 * or '*' for the next unused piece in the order 0/0 0/1 ... 6/6.
 */
static void append_deal(gateau_text *out, const char *spec)
{
    char copy[512];
    snprintf(copy, sizeof copy, "%s", spec);
    const char *word[28];
    int count = 0;
    bool used[28] = {false};
    for (char *w = strtok(copy, " \n"); w; w = strtok(NULL, " \n")) {
        cr_assert_lt(count, 28, "deal spec has more than 28 words");
        word[count++] = w;
        if (strcmp(w, "*") != 0) {
            cr_assert(!used[piece_index(w)], "deal spec repeats %s", w);
            used[piece_index(w)] = true;
        }
    }
    cr_assert_eq(count, 28, "deal spec has 28 words");
    text_append(out, "deal");
    int next = 0;
    for (int i = 0; i < 28; i++) {
        char name[4];
        if (strcmp(word[i], "*") == 0) {
            while (used[next]) next++;
            used[next] = true;
            piece_name(next, name);
        } else {
            piece_name(piece_index(word[i]), name);
        }
        text_append(out, " %s", name);
    }
    text_append(out, "\n");
}

/* A record: the header, the deal of spec, then lines (NULL-terminated). */
static char *record_text(const char *spec, const char *const *lines)
{
    gateau_text text = {0};
    text_append(&text, "%s", HEADER);
    append_deal(&text, spec);
    for (int i = 0; lines && lines[i]; i++) text_append(&text, "%s\n", lines[i]);
    return text_take(&text);
}

static gateau_record *read_record(const char *spec, const char *const *lines)
{
    char *text = record_text(spec, lines);
    gateau_record *record = support_read(text);
    free(text);
    return record;
}

static json_t *seat_of(json_t *view, int seat) /* 1-based */
{
    return json_array_get(json_object_get(view, "seats"), (size_t)(seat - 1));
}

/* Grid cell as text: "a/b", "??" or "." for an empty cell. */
static const char *cell(json_t *view, int row, char column)
{
    json_t *value = json_array_get(json_array_get(json_object_get(view, "grid"), (size_t)(row - 1)),
                                   (size_t)(column - 'A'));
    return json_is_null(value) ? "." : json_string_value(value);
}

/* A list of pieces joined with spaces into out. */
static const char *joined(json_t *list, char *out, size_t size)
{
    out[0] = '\0';
    size_t i;
    json_t *item;
    json_array_foreach(list, i, item) {
        size_t used = strlen(out);
        snprintf(out + used, size - used, "%s%s", i ? " " : "", json_string_value(item));
    }
    return out;
}

static const char *stash(json_t *view, int seat, char *out, size_t size)
{
    return joined(json_object_get(seat_of(view, seat), "stash"), out, size);
}

static int seat_int(json_t *view, int seat, const char *key)
{
    return (int)json_integer_value(json_object_get(seat_of(view, seat), key));
}

static int exhausted_on(json_t *view, int seat, char column)
{
    char key[2] = {column, '\0'};
    return (int)json_integer_value(json_object_get(json_object_get(seat_of(view, seat), "exhausted"), key));
}

static const char *view_string(json_t *view, const char *key)
{
    return json_string_value(json_object_get(view, key));
}

static int view_int(json_t *view, const char *key)
{
    return (int)json_integer_value(json_object_get(view, key));
}

/* ---- The rulebook's worked round ----------------------------------------------- */

/* The grid of the rules file's example; the face-down pieces it does not
 * show are the rest in order. */
static const char WORKED_DEAL[] = "1/2 3/4 5/6 0/3  2/3 * * *  0/0 1/3 5/5 2/6  * * * *  "
                                  "0/4 1/5 0/6 2/4  * * * 1/1  0/1 4/4 3/6 2/5";

Test(mice_cake, worked_example)
{
    const char *lines[] = {"1: assign A1 C3", "2: assign B2 D2", "roll 1 A 4",
                           "roll 2 B 2 4",    "roll 1 C 6 6 5",  "roll 2 D 3 4", NULL};
    char *text = record_text(WORKED_DEAL, lines);
    gateau_record *record = support_read(text);
    char *again = gateau_record_text(record);
    cr_assert_str_eq(again, text, "the worked round is written canonically");
    const gateau_state *state = gateau_record_state(record);
    json_t *view = support_view(state, GATEAU_OBSERVER);
    char buffer[256];
    cr_assert_str_eq(view_string(view, "phase"), "assign");
    cr_assert_eq(view_int(view, "round"), 2);
    cr_assert_str_eq(stash(view, 1, buffer, sizeof buffer), "1/2", "yellow stashes 1/2");
    cr_assert_str_eq(stash(view, 2, buffer, sizeof buffer), "2/5", "blue stashes 2/5");
    cr_assert_str_eq(cell(view, 1, 'A'), ".");
    cr_assert_str_eq(cell(view, 2, 'A'), "2/3", "2/3 turns up");
    cr_assert_str_eq(cell(view, 7, 'D'), ".");
    cr_assert_str_eq(cell(view, 6, 'D'), "1/1", "1/1 turns up");
    cr_assert_str_eq(cell(view, 1, 'C'), "5/6", "5/6 stays");
    cr_assert_str_eq(cell(view, 7, 'B'), "4/4", "4/4 stays");
    cr_assert_str_eq(cell(view, 2, 'B'), "??");
    cr_assert_str_eq(cell(view, 6, 'C'), "??");
    cr_assert_eq(exhausted_on(view, 1, 'C'), 2, "two yellow mice exhausted on C");
    cr_assert_eq(exhausted_on(view, 1, 'A'), 0);
    cr_assert_eq(seat_int(view, 1, "ready"), 2, "yellow has 2 mice next round");
    cr_assert_eq(seat_int(view, 2, "ready"), 4, "blue has 4");
    int scores[GATEAU_MAX_PLAYERS];
    gateau_state_scores(state, scores);
    cr_assert_eq(scores[0], 3);
    cr_assert_eq(scores[1], 7);
    cr_assert_eq(gateau_state_actors(state), 3u, "both assign in round 2");
    /* Yellow now places exactly its 2 ready mice. */
    support_refuse(record, 0, "assign A1 C3", "all 2 ready mice");
    support_play(record, 0, "assign A1 C1");
    json_decref(view);
    free(again);
    free(text);
    gateau_record_free(record);
}

Test(mice_cake, worked_example_commentary)
{
    const char *lines[] = {"1: assign A1 C3", "2: assign B2 D2", "roll 1 A 4", "roll 2 B 2 4",
                           "roll 1 C 6 6 5", NULL};
    gateau_record *record = read_record(WORKED_DEAL, lines);
    gateau_state *before = gateau_state_clone(gateau_record_state(record));
    support_play(record, GATEAU_CHANCE, "roll 2 D 3 4");
    int n = gateau_record_move_count(record), count;
    const gateau_action *actions = gateau_record_move_actions(record, n - 1, &count);
    char *said = gateau_move_describe(before, GATEAU_CHANCE, actions, count, 1);
    cr_assert(strstr(said, "roll 2 D 3 4"), "%s", said);
    cr_assert(strstr(said, "seat 2, 2 mice on 2/5: 7 against 7: success"), "%s", said);
    cr_assert(strstr(said, "seat 1 stashes 1/2"), "%s", said);
    cr_assert(strstr(said, "seat 2 stashes 2/5"), "%s", said);
    cr_assert(strstr(said, "2/3 turns up"), "%s", said);
    cr_assert(strstr(said, "1/1 turns up"), "%s", said);
    free(said);
    /* The roll on C told its exhaustion. */
    gateau_record *earlier = read_record(WORKED_DEAL, (const char *const[]){
        "1: assign A1 C3", "2: assign B2 D2", "roll 1 A 4", "roll 2 B 2 4", NULL});
    gateau_state_free(before); /* (another record, another setup: a new copy) */
    before = gateau_state_clone(gateau_record_state(earlier));
    support_play(earlier, GATEAU_CHANCE, "roll 1 C 6 6 5");
    actions = gateau_record_move_actions(earlier, gateau_record_move_count(earlier) - 1, &count);
    said = gateau_move_describe(before, GATEAU_CHANCE, actions, count, GATEAU_OBSERVER);
    cr_assert(strstr(said, "a 5 and a 6 exhaust 2 mice: fails"), "%s", said);
    free(said);
    gateau_state_free(before);
    gateau_record_free(earlier);
    gateau_record_free(record);
}

/* ---- Exhaustion ------------------------------------------------------------------ */

/* Yellow's front row: 5/6 0/3 4/4 0/6; blue's: 3/3 2/6 4/5 3/5.  Blue
 * puts 4 mice on A (3/3) and rolls 1 1 1 1: too low, no match. */
static const char EXHAUST_DEAL[] = "5/6 0/3 4/4 0/6  * * * *  * * * *  * * * *  "
                                   "* * * *  * * * *  3/3 2/6 4/5 3/5";

typedef struct exhaust_case {
    const char *lines[6];
    int exhausted[4]; /* yellow's, by column */
    const char *stash;
} exhaust_case;

static const exhaust_case EXHAUST_CASES[] = {
    /* 4 mice on 5/6 roll 5 5 5 6: only 2 exhausted, not taken. */
    {{"1: assign A4", "2: assign A4", "roll 1 A 5 5 5 6", "roll 2 A 1 1 1 1"}, {2, 0, 0, 0}, ""},
    /* 0/3 and double threes: only 1; 4/4 and two 4s: 2. */
    {{"1: assign B2 C2", "2: assign A4", "roll 2 A 1 1 1 1", "roll 1 B 3 3", "roll 1 C 4 4"},
     {0, 1, 2, 0}, ""},
    /* One mouse rolling 4 on 4/4 matches one half only: not exhausted. */
    {{"1: assign A3 C1", "2: assign A4", "roll 1 A 1 1 1", "roll 2 A 1 1 1 1", "roll 1 C 4"},
     {0, 0, 0, 0}, ""},
    /* 4 mice on 0/6 roll 6 5 4 4: 19 >= 6, but the 6 exhausts 1: not taken. */
    {{"1: assign D4", "2: assign A4", "roll 2 A 1 1 1 1", "roll 1 D 6 5 4 4"}, {0, 0, 0, 1}, ""},
    /* Four sixes on 0/6 still exhaust just 1. */
    {{"1: assign D4", "2: assign A4", "roll 2 A 1 1 1 1", "roll 1 D 6 6 6 6"}, {0, 0, 0, 1}, ""},
    /* Two sixes on 5/6 match one half only: 12 >= 11 takes it; 2 2 on 0/3 too. */
    {{"1: assign A2 B2", "2: assign A4", "roll 1 A 6 6", "roll 2 A 1 1 1 1", "roll 1 B 2 2"},
     {0, 0, 0, 0}, "0/3 5/6"},
    /* Four sixes on 5/6: no 5, no exhaustion, taken. */
    {{"1: assign A4", "2: assign A4", "roll 1 A 6 6 6 6", "roll 2 A 1 1 1 1"}, {0, 0, 0, 0}, "5/6"},
};

Test(mice_cake, exhaustion_examples)
{
    for (size_t i = 0; i < sizeof EXHAUST_CASES / sizeof EXHAUST_CASES[0]; i++) {
        const exhaust_case *c = &EXHAUST_CASES[i];
        const char *lines[7] = {NULL};
        for (int k = 0; k < 6 && c->lines[k]; k++) lines[k] = c->lines[k];
        gateau_record *record = read_record(EXHAUST_DEAL, lines);
        json_t *view = support_view(gateau_record_state(record), GATEAU_OBSERVER);
        char buffer[256];
        int total = 0;
        for (int col = 0; col < 4; col++) {
            cr_assert_eq(exhausted_on(view, 1, (char)('A' + col)), c->exhausted[col],
                         "case %zu column %c", i + 1, 'A' + col);
            total += c->exhausted[col];
        }
        cr_assert_eq(seat_int(view, 1, "ready"), 4 - total, "case %zu", i + 1);
        cr_assert_eq(seat_int(view, 2, "ready"), 4);
        cr_assert_str_eq(stash(view, 1, buffer, sizeof buffer), c->stash, "case %zu", i + 1);
        cr_assert_str_eq(stash(view, 2, buffer, sizeof buffer), "");
        json_decref(view);
        gateau_record_free(record);
    }
}

Test(mice_cake, exhausted_mice_recover_after_one_round)
{
    const char *lines[] = {"1: assign A4", "2: assign A4", "roll 1 A 5 5 5 6", "roll 2 A 1 1 1 1",
                           NULL};
    gateau_record *record = read_record(EXHAUST_DEAL, lines);
    /* Round 2: the 2 exhausted mice sit out. */
    support_refuse(record, 0, "assign A4", "all 2 ready mice");
    support_play(record, 0, "assign A2");
    support_play(record, 1, "assign A4");
    support_play(record, GATEAU_CHANCE, "roll 1 A 5 6");
    support_play(record, GATEAU_CHANCE, "roll 2 A 1 1 1 1");
    json_t *view = support_view(gateau_record_state(record), GATEAU_OBSERVER);
    /* Round 3: the first pair is back, the second pair rests. */
    cr_assert_eq(view_int(view, "round"), 3);
    cr_assert_eq(seat_int(view, 1, "ready"), 2);
    cr_assert_eq(exhausted_on(view, 1, 'A'), 2);
    json_decref(view);
    support_play(record, 0, "assign B1 C1");
    support_play(record, 1, "assign A4");
    support_play(record, GATEAU_CHANCE, "roll 2 A 1 1 1 1");
    support_play(record, GATEAU_CHANCE, "roll 1 B 1");
    support_play(record, GATEAU_CHANCE, "roll 1 C 1");
    view = support_view(gateau_record_state(record), GATEAU_OBSERVER);
    cr_assert_eq(view_int(view, "round"), 4);
    cr_assert_eq(seat_int(view, 1, "ready"), 4, "all four mice are back in round 4");
    cr_assert_eq(exhausted_on(view, 1, 'A'), 0);
    json_decref(view);
    gateau_record_free(record);
}

Test(mice_cake, round_with_no_mouse_passes_without_lines)
{
    /* Everyone exhausts all four mice in round 1; round 2 passes. */
    const char *deal = "1/2 3/4 * *  * * * *  * * * *  * * * *  * * * *  * * * *  5/6 4/5 * *";
    const char *lines[] = {"1: assign A2 B2", "2: assign A2 B2", "roll 1 A 1 2", "roll 2 A 5 6",
                           "roll 1 B 4 3",    "roll 2 B 4 5",    NULL};
    gateau_record *record = read_record(deal, lines);
    const gateau_state *state = gateau_record_state(record);
    json_t *view = support_view(state, GATEAU_OBSERVER);
    cr_assert_str_eq(view_string(view, "phase"), "assign");
    cr_assert_eq(view_int(view, "round"), 3, "round 2 passed and counted");
    cr_assert_eq(seat_int(view, 1, "ready"), 4);
    cr_assert_eq(seat_int(view, 2, "ready"), 4);
    cr_assert_eq(exhausted_on(view, 1, 'A') + exhausted_on(view, 2, 'B'), 0);
    cr_assert_eq(gateau_record_move_count(record), 7, "no line for the passed round");
    json_decref(view);
    gateau_record_free(record);
}

Test(mice_cake, a_seat_without_mice_makes_no_move)
{
    /* Yellow exhausts all four; in round 2 only blue assigns (with its
     * prefix, the phase being simultaneous all the same). */
    const char *deal = "1/2 3/4 * *  * * * *  * * * *  * * * *  * * * *  * * * *  5/6 4/5 * *";
    const char *lines[] = {"1: assign A2 B2", "2: assign A4", "roll 1 A 1 2", "roll 2 A 1 1 1 1",
                           "roll 1 B 4 3", NULL};
    gateau_record *record = read_record(deal, lines);
    const gateau_state *state = gateau_record_state(record);
    cr_assert_eq(gateau_state_actors(state), 2u, "only blue assigns");
    cr_assert(gateau_state_is_simultaneous(state));
    support_refuse(record, 0, "assign A4", "");
    support_play(record, 1, "assign A1 B3");
    cr_assert(gateau_state_is_chance(state));
    gateau_record_free(record);
}

/* ---- Conflicts ------------------------------------------------------------------- */

/* Column A holds 0/1 0/2 1/1 X 1/2 2/2 0/3 from row 1 to 7.  Three rounds
 * of both seats putting 4 mice on A and rolling four sixes take rows 1-3
 * and 5-7, leaving X alone: then both go for it. */
static char *conflict_text(const char *x, const char *const *final_lines)
{
    char spec[256];
    snprintf(spec, sizeof spec, "0/1 * * *  0/2 * * *  1/1 * * *  %s * * *  1/2 * * *  "
                                "2/2 * * *  0/3 * * *", x);
    gateau_text text = {0};
    text_append(&text, "%s", HEADER);
    append_deal(&text, spec);
    for (int round = 0; round < 3; round++)
        text_append(&text, "1: assign A4\n2: assign A4\nroll 1 A 6 6 6 6\nroll 2 A 6 6 6 6\n");
    for (int i = 0; final_lines[i]; i++) text_append(&text, "%s\n", final_lines[i]);
    return text_take(&text);
}

static json_t *conflict_view(const char *x, const char *const *lines, gateau_record **out)
{
    char *text = conflict_text(x, lines);
    gateau_record *record = support_read(text);
    free(text);
    json_t *view = support_view(gateau_record_state(record), GATEAU_OBSERVER);
    if (out) *out = record;
    else gateau_record_free(record);
    return view;
}

Test(mice_cake, conflict_setup_leaves_one_piece)
{
    json_t *view = conflict_view("3/4", (const char *const[]){NULL}, NULL);
    char buffer[256];
    cr_assert_str_eq(stash(view, 1, buffer, sizeof buffer), "0/1 0/2 1/1");
    cr_assert_str_eq(stash(view, 2, buffer, sizeof buffer), "0/3 1/2 2/2");
    for (int row = 1; row <= 7; row++)
        cr_assert_str_eq(cell(view, row, 'A'), row == 4 ? "3/4" : ".", "row %d", row);
    json_decref(view);
}

typedef struct conflict_case {
    const char *yellow, *blue; /* the two roll lines */
    const char *stash1, *stash2;
    bool stays;
} conflict_case;

static const conflict_case CONFLICTS[] = {
    /* Both succeed: the higher sum takes it, either way. */
    {"roll 1 A 6 6 6 6", "roll 2 A 5 5 5 5", "0/1 0/2 1/1 3/4", "0/3 1/2 2/2", false},
    {"roll 1 A 5 5 5 5", "roll 2 A 6 6 6 6", "0/1 0/2 1/1", "0/3 1/2 2/2 3/4", false},
    /* Both succeed with equal sums: it stays. */
    {"roll 1 A 6 6 6 6", "roll 2 A 6 6 6 6", "0/1 0/2 1/1", "0/3 1/2 2/2", true},
    {"roll 1 A 6 5 1 1", "roll 2 A 1 5 6 1", "0/1 0/2 1/1", "0/3 1/2 2/2", true},
    /* One succeeds: too low on the other side. */
    {"roll 1 A 1 1 1 1", "roll 2 A 5 5 5 5", "0/1 0/2 1/1", "0/3 1/2 2/2 3/4", false},
    {"roll 1 A 2 2 2 2", "roll 2 A 1 1 1 2", "0/1 0/2 1/1 3/4", "0/3 1/2 2/2", false},
    /* One succeeds: the higher sum is exhausted (a 3 and a 4). */
    {"roll 1 A 3 4 6 6", "roll 2 A 6 6 1 1", "0/1 0/2 1/1", "0/3 1/2 2/2 3/4", false},
    /* Neither: too low both, or exhausted both. */
    {"roll 1 A 1 1 1 1", "roll 2 A 1 1 1 1", "0/1 0/2 1/1", "0/3 1/2 2/2", true},
    {"roll 1 A 3 4 6 6", "roll 2 A 4 3 5 5", "0/1 0/2 1/1", "0/3 1/2 2/2", true},
};

Test(mice_cake, conflicts_over_the_last_piece)
{
    for (size_t i = 0; i < sizeof CONFLICTS / sizeof CONFLICTS[0]; i++) {
        const conflict_case *c = &CONFLICTS[i];
        const char *lines[] = {"1: assign A4", "2: assign A4", c->yellow, c->blue, NULL};
        json_t *view = conflict_view("3/4", lines, NULL);
        char buffer[256];
        cr_assert_str_eq(stash(view, 1, buffer, sizeof buffer), c->stash1, "case %zu", i + 1);
        cr_assert_str_eq(stash(view, 2, buffer, sizeof buffer), c->stash2, "case %zu", i + 1);
        cr_assert_str_eq(cell(view, 4, 'A'), c->stays ? "3/4" : ".", "case %zu", i + 1);
        json_decref(view);
    }
}

Test(mice_cake, conflict_commentary)
{
    gateau_record *record;
    const char *lines[] = {"1: assign A4", "2: assign A4", "roll 1 A 6 6 6 6", NULL};
    json_t *view = conflict_view("3/4", lines, &record);
    json_decref(view);
    gateau_state *before = gateau_state_clone(gateau_record_state(record));
    support_play(record, GATEAU_CHANCE, "roll 2 A 5 5 5 5");
    int count;
    const gateau_action *actions =
        gateau_record_move_actions(record, gateau_record_move_count(record) - 1, &count);
    char *said = gateau_move_describe(before, GATEAU_CHANCE, actions, count, 0);
    cr_assert(strstr(said, "seat 1 takes it with the higher sum, 24 to 20"), "%s", said);
    free(said);
    gateau_state_free(before);
    gateau_record_free(record);
}

/* ---- Steals ------------------------------------------------------------------------ */

/* 0/0 is yellow's nearest piece in B; blue's nearest in A is 3/4, and
 * behind it 2/4. */
static const char STEAL_DEAL[] = "1/2 0/0 5/6 0/3  * 1/3 * *  * * * *  * * * *  * * * *  "
                                 "2/4 * * *  3/4 4/4 3/6 2/5";

Test(mice_cake, no_steal_from_an_empty_stash)
{
    gateau_record *record = read_record(STEAL_DEAL, NULL);
    support_refuse(record, 0, "assign B4>3/4", "nothing to steal");
    support_refuse(record, 0, "assign A2 B2", "nothing to steal");
    gateau_action actions[GATEAU_MAX_ACTIONS];
    int count = gateau_state_legal_actions(gateau_record_state(record), 0, actions);
    for (int i = 0; i < count; i++) {
        char *name = gateau_action_name(gateau_record_state(record), 0, actions[i]);
        cr_assert(strcmp(name, "mouse on B") != 0, "B is closed while blue's stash is empty");
        free(name);
    }
    gateau_record_free(record);
}

static const char *const STEAL_ROUND_1[] = {"1: assign A4", "2: assign A4", "roll 1 A 6 6 6 6",
                                            "roll 2 A 6 6 6 6"};

static gateau_record *steal_record(const char *yellow_assign, const char *yellow_roll,
                                   const char *blue_roll)
{
    const char *lines[12];
    int n = 0;
    for (int i = 0; i < 4; i++) lines[n++] = STEAL_ROUND_1[i];
    lines[n++] = yellow_assign;
    lines[n++] = "2: assign A4";
    lines[n++] = blue_roll;
    lines[n++] = yellow_roll;
    lines[n] = NULL;
    return read_record(STEAL_DEAL, lines);
}

Test(mice_cake, steal_succeeds_and_ends_stealing)
{
    gateau_record *record =
        steal_record("1: assign B4>3/4", "roll 1 B 6 6 6 6", "roll 2 A 1 1 1 1");
    json_t *view = support_view(gateau_record_state(record), GATEAU_OBSERVER);
    char buffer[256];
    cr_assert_str_eq(stash(view, 1, buffer, sizeof buffer), "0/0 1/2 3/4",
                     "the thief stashes the target and the double-blank");
    cr_assert_str_eq(stash(view, 2, buffer, sizeof buffer), "");
    cr_assert_str_eq(cell(view, 1, 'B'), ".");
    cr_assert_str_eq(cell(view, 2, 'B'), "1/3", "the next piece turns up");
    json_decref(view);
    /* From now on nobody can steal: B's nearest piece is 1/3. */
    support_refuse(record, 0, "assign B4>2/4", "not allowed");
    gateau_record_free(record);
}

Test(mice_cake, failed_steal_leaves_the_double_blank)
{
    gateau_record *record =
        steal_record("1: assign B4>3/4", "roll 1 B 1 1 1 1", "roll 2 A 1 1 1 1");
    json_t *view = support_view(gateau_record_state(record), GATEAU_OBSERVER);
    char buffer[256];
    cr_assert_str_eq(stash(view, 1, buffer, sizeof buffer), "1/2");
    cr_assert_str_eq(stash(view, 2, buffer, sizeof buffer), "3/4");
    cr_assert_str_eq(cell(view, 1, 'B'), "0/0");
    json_decref(view);
    /* Stealing goes on in the next round. */
    support_play(record, 0, "assign B4>3/4");
    gateau_record_free(record);
}

Test(mice_cake, steal_exhaustion_is_judged_on_the_target)
{
    gateau_record *record =
        steal_record("1: assign B4>3/4", "roll 1 B 3 4 6 6", "roll 2 A 1 1 1 1");
    json_t *view = support_view(gateau_record_state(record), GATEAU_OBSERVER);
    char buffer[256];
    cr_assert_str_eq(stash(view, 2, buffer, sizeof buffer), "3/4", "a 3 and a 4 on 3/4: fails");
    cr_assert_eq(exhausted_on(view, 1, 'B'), 2);
    cr_assert_eq(seat_int(view, 1, "ready"), 2);
    json_decref(view);
    gateau_record_free(record);
}

Test(mice_cake, steal_with_the_value_of_the_target)
{
    /* 3/4 is worth 7: 1 1 2 2 makes 6, too low; 1 1 2 3 makes 7. */
    gateau_record *low = steal_record("1: assign B4>3/4", "roll 1 B 1 1 2 2", "roll 2 A 1 1 1 1");
    gateau_record *enough =
        steal_record("1: assign B4>3/4", "roll 1 B 1 1 2 3", "roll 2 A 1 1 1 1");
    json_t *a = support_view(gateau_record_state(low), GATEAU_OBSERVER);
    json_t *b = support_view(gateau_record_state(enough), GATEAU_OBSERVER);
    char buffer[256];
    cr_assert_str_eq(stash(a, 2, buffer, sizeof buffer), "3/4");
    cr_assert_str_eq(stash(b, 1, buffer, sizeof buffer), "0/0 1/2 3/4");
    json_decref(a);
    json_decref(b);
    gateau_record_free(low);
    gateau_record_free(enough);
}

Test(mice_cake, double_steal)
{
    /* 0/0 alone in A after three rounds; yellow holds 0/1 0/2 1/1, blue
     * 0/3 1/2 2/2. */
    const char *lines[] = {"1: assign A4>2/2", "2: assign A4>0/2", "roll 1 A 6 6 6 6",
                           "roll 2 A 6 6 6 6", NULL};
    json_t *view = conflict_view("0/0", lines, NULL);
    char buffer[256];
    cr_assert_str_eq(stash(view, 1, buffer, sizeof buffer), "0/1 1/1 2/2");
    cr_assert_str_eq(stash(view, 2, buffer, sizeof buffer), "0/2 0/3 1/2");
    cr_assert_str_eq(joined(json_object_get(view, "removed"), buffer, sizeof buffer), "0/0",
                     "the double-blank leaves the game");
    cr_assert_str_eq(cell(view, 4, 'A'), ".");
    json_decref(view);
}

Test(mice_cake, two_steals_one_succeeds)
{
    /* Blue's 2 on 0/2 exhausts a mouse: only yellow's steal succeeds. */
    const char *lines[] = {"1: assign A4>2/2", "2: assign A4>0/2", "roll 1 A 6 6 6 6",
                           "roll 2 A 2 1 1 1", NULL};
    json_t *view = conflict_view("0/0", lines, NULL);
    char buffer[256];
    cr_assert_str_eq(stash(view, 1, buffer, sizeof buffer), "0/0 0/1 0/2 1/1 2/2");
    cr_assert_str_eq(stash(view, 2, buffer, sizeof buffer), "0/3 1/2");
    cr_assert_str_eq(joined(json_object_get(view, "removed"), buffer, sizeof buffer), "");
    json_decref(view);
    /* And neither. */
    const char *neither[] = {"1: assign A4>2/2", "2: assign A4>0/2", "roll 1 A 2 2 1 1",
                             "roll 2 A 2 1 1 1", NULL};
    view = conflict_view("0/0", neither, NULL);
    cr_assert_str_eq(cell(view, 4, 'A'), "0/0");
    cr_assert_str_eq(stash(view, 1, buffer, sizeof buffer), "0/1 0/2 1/1");
    json_decref(view);
}

/* ---- Who may read which line (the rules' Information) ------------------------------ */

/* The shuffle is hidden from both seats, the dice are public; an
 * assignment is hidden from the other seat while it still has to assign,
 * and the one that completes the round's assigning is visible (the rolls
 * show every group of mice and its target). */
Test(mice_cake, which_lines_each_seat_reads)
{
    gateau_record *record =
        steal_record("1: assign B4>3/4", "roll 1 B 1 1 1 1", "roll 2 A 1 1 1 1");
    /* deal, 1: assign, 2: assign, 2 rolls; 1: assign (steal), 2: assign, 2 rolls */
    cr_assert_str_eq(support_visible_moves(record, 0), "-vvvvvvvv");
    cr_assert_str_eq(support_visible_moves(record, 1), "--vvv-vvv");
    cr_assert_str_eq(support_visible_moves(record, GATEAU_OBSERVER), "--vvv-vvv");
    char *text = gateau_record_text_for(record, 1);
    cr_assert_str_eq(text, "game: mice-cake\nplayers: 2\n---\n# chance (hidden)\n"
                           "# seat 1 moved (hidden)\n2: assign A4\n"
                           "roll 1 A 6 6 6 6\nroll 2 A 6 6 6 6\n"
                           "# seat 1 moved (hidden)\n2: assign A4\n"
                           "roll 2 A 1 1 1 1\nroll 1 B 1 1 1 1\n");
    free(text);
    gateau_record_free(record);
    /* Blue first: its assignment is the hidden one. */
    record = read_record(STEAL_DEAL, (const char *const[]){"2: assign A4", "1: assign A4", NULL});
    cr_assert_str_eq(support_visible_moves(record, 0), "--v");
    cr_assert_str_eq(support_visible_moves(record, 1), "-vv");
    gateau_record_free(record);
    /* A seat that assigns alone completes the assigning at once. */
    const char *deal = "1/2 3/4 * *  * * * *  * * * *  * * * *  * * * *  * * * *  5/6 4/5 * *";
    record = read_record(deal, (const char *const[]){"1: assign A2 B2", "2: assign A4",
                                                     "roll 1 A 1 2", "roll 2 A 1 1 1 1",
                                                     "roll 1 B 4 3", "2: assign A1 B3", NULL});
    cr_assert_str_eq(support_visible_moves(record, 0), "-vvvvvv");
    cr_assert_str_eq(support_visible_moves(record, GATEAU_OBSERVER), "--vvvvv");
    gateau_record_free(record);
}

/* ---- The 500-round guard and the tiebreaks ------------------------------------------ */

/* Plays rounds in which both seats put all their mice on column D and
 * roll ones, until the game ends.  D's ends are 5/5 (yellow) and 4/6
 * (blue): ones never reach them nor match them. */
static void idle_to_the_end(gateau_record *record)
{
    const gateau_state *state = gateau_record_state(record);
    while (!gateau_state_is_over(state)) {
        cr_assert(!gateau_state_is_chance(state), "idling starts at an assign");
        for (int s = 0; s < 2; s++) {
            if (!(gateau_state_actors(state) & (1u << s))) continue;
            json_t *view = support_view(state, s);
            char move[32];
            snprintf(move, sizeof move, "assign D%d", seat_int(view, s + 1, "ready"));
            json_decref(view);
            support_play(record, s, move);
        }
        while (gateau_state_is_chance(state)) {
            json_t *view = support_view(state, GATEAU_OBSERVER);
            json_t *attempts = json_object_get(view, "attempts");
            size_t i;
            json_t *a;
            json_array_foreach(attempts, i, a) {
                if (json_array_size(json_object_get(a, "dice"))) continue;
                char move[64];
                int mice = (int)json_integer_value(json_object_get(a, "mice"));
                snprintf(move, sizeof move, "roll %d D%s",
                         (int)json_integer_value(json_object_get(a, "seat")),
                         mice == 4 ? " 1 1 1 1" : mice == 3 ? " 1 1 1" : mice == 2 ? " 1 1" : " 1");
                support_play(record, GATEAU_CHANCE, move);
                break;
            }
            json_decref(view);
        }
    }
}

Test(mice_cake, round_limit)
{
    const char *deal = "* * * 5/5  * * * *  * * * *  * * * *  * * * *  * * * *  * * * 4/6";
    gateau_record *record = read_record(deal, NULL);
    idle_to_the_end(record);
    const gateau_state *state = gateau_record_state(record);
    json_t *view = support_view(state, GATEAU_OBSERVER);
    cr_assert_eq(view_int(view, "round"), 500, "the guard ends the game after round 500");
    cr_assert(json_is_true(json_object_get(view, "stopped_by_round_limit")));
    cr_assert_eq(gateau_record_move_count(record), 1 + 500 * 4);
    cr_assert_eq(gateau_state_winners(state), 3u, "no pips, no pieces, no 6/6: shared");
    char *text = gateau_record_text(record);
    cr_assert(strstr(text, "# stopped by the 500-round guard"), "the record says so");
    gateau_record *again = support_read(text);
    char *text2 = gateau_record_text(again);
    cr_assert_str_eq(text, text2);
    /* Nothing more may be played. */
    gateau_text more = {0};
    text_append(&more, "%s1: assign D4\n", text);
    /* header 3, deal 1, 2000 moves, the closing comment, then this line */
    support_expect_refused(more.data, 3 + 1 + 500 * 4 + 1 + 1, "over");
    text_free(&more);
    char *shown = gateau_state_view_text(state, 0, false);
    cr_assert(strstr(shown, "500-round guard"), "%s", shown);
    free(shown);
    free(text);
    free(text2);
    json_decref(view);
    gateau_record_free(again);
    gateau_record_free(record);
}

Test(mice_cake, round_limit_counts_passed_rounds)
{
    /* Round 1 exhausts everyone, round 2 passes: the guard still ends the
     * game after round 500, with 498 rounds played after round 2. */
    const char *deal = "1/2 3/4 * 5/5  * * * *  * * * *  * * * *  * * * *  * * * *  5/6 4/5 * 4/6";
    const char *lines[] = {"1: assign A2 B2", "2: assign A2 B2", "roll 1 A 1 2", "roll 2 A 5 6",
                           "roll 1 B 4 3",    "roll 2 B 4 5",    NULL};
    gateau_record *record = read_record(deal, lines);
    idle_to_the_end(record);
    json_t *view = support_view(gateau_record_state(record), GATEAU_OBSERVER);
    cr_assert_eq(view_int(view, "round"), 500);
    cr_assert_eq(gateau_record_move_count(record), 1 + 6 + 498 * 4);
    json_decref(view);
    gateau_record_free(record);
}

typedef struct tie_case {
    const char *deal;
    const char *lines[8];
    int pips1, pips2;
    uint32_t winners;
} tie_case;

static const tie_case TIES[] = {
    /* Pips: 3/4 against 1/2. */
    {"3/4 * * 5/5  * * * *  * * * *  * * * *  * * * *  * * * *  1/2 * * 4/6",
     {"1: assign A4", "2: assign A4", "roll 1 A 6 6 6 6", "roll 2 A 6 6 6 6"}, 7, 3, 1u},
    /* Equal pips, blue has more pieces: 1/2 against 0/1 0/2. */
    {"1/2 * * 5/5  * * * *  * * * *  * * * *  * * * *  * * * *  0/1 0/2 * 4/6",
     {"1: assign A4", "2: assign A2 B2", "roll 1 A 6 6 6 6", "roll 2 A 6 6", "roll 2 B 6 6"},
     3, 3, 2u},
    /* Equal pips and pieces: blue owns 6/6 (5/6 1/1 against 6/6 0/1). */
    {"5/6 1/1 * 5/5  * * * *  * * * *  * * * *  * * * *  * * * *  6/6 0/1 * 4/6",
     {"1: assign A3 B1", "2: assign A3 B1", "roll 1 A 4 4 4", "roll 2 A 5 5 5", "roll 1 B 2",
      "roll 2 B 2"},
     13, 13, 2u},
    /* The same with yellow owning 6/6. */
    {"6/6 0/1 * 5/5  * * * *  * * * *  * * * *  * * * *  * * * *  5/6 1/1 * 4/6",
     {"1: assign A3 B1", "2: assign A3 B1", "roll 1 A 5 5 5", "roll 2 A 4 4 4", "roll 1 B 2",
      "roll 2 B 2"},
     13, 13, 1u},
    /* All equal, nobody owns 6/6: 1/2 against 0/3, shared. */
    {"1/2 * * 5/5  * * * *  * * * *  * * * *  * * * *  * * * *  0/3 * * 4/6",
     {"1: assign A4", "2: assign A4", "roll 1 A 6 6 6 6", "roll 2 A 6 6 6 6"}, 3, 3, 3u},
};

Test(mice_cake, tiebreaks)
{
    for (size_t i = 0; i < sizeof TIES / sizeof TIES[0]; i++) {
        const tie_case *c = &TIES[i];
        const char *lines[9] = {NULL};
        for (int k = 0; k < 8 && c->lines[k]; k++) lines[k] = c->lines[k];
        gateau_record *record = read_record(c->deal, lines);
        cr_assert_eq(gateau_state_winners(gateau_record_state(record)), 0u,
                     "no winners while running");
        idle_to_the_end(record);
        const gateau_state *state = gateau_record_state(record);
        int scores[GATEAU_MAX_PLAYERS];
        gateau_state_scores(state, scores);
        cr_assert_eq(scores[0], c->pips1, "case %zu", i + 1);
        cr_assert_eq(scores[1], c->pips2, "case %zu", i + 1);
        cr_assert_eq(gateau_state_winners(state), c->winners, "case %zu", i + 1);
        gateau_record_free(record);
    }
}

/* ---- Views ------------------------------------------------------------------------- */

Test(mice_cake, views_hide_face_down_pieces_and_the_other_assignment)
{
    /* Two deals that differ only in face-down pieces (rows 2, 4, 6), and
     * two different yellow assignments. */
    const char *deal_a = "1/2 3/4 5/6 0/3  2/3 0/2 0/5 1/4  0/0 1/3 5/5 2/6  1/6 2/2 3/3 3/5  "
                         "0/4 1/5 0/6 2/4  4/5 4/6 6/6 1/1  0/1 4/4 3/6 2/5";
    const char *deal_b = "1/2 3/4 5/6 0/3  6/6 1/1 0/5 1/4  0/0 1/3 5/5 2/6  3/5 2/2 3/3 1/6  "
                         "0/4 1/5 0/6 2/4  4/5 4/6 2/3 0/2  0/1 4/4 3/6 2/5";
    gateau_record *a = read_record(deal_a, (const char *const[]){"1: assign A1 C3", NULL});
    gateau_record *b = read_record(deal_b, (const char *const[]){"1: assign B4", NULL});
    const gateau_state *sa = gateau_record_state(a), *sb = gateau_record_state(b);
    char *va = gateau_state_view_json(sa, 1), *vb = gateau_state_view_json(sb, 1);
    cr_assert_str_eq(va, vb, "blue's view does not depend on what it cannot see");
    free(va);
    free(vb);
    va = gateau_state_view_text(sa, 1, true);
    vb = gateau_state_view_text(sb, 1, true);
    cr_assert_str_eq(va, vb);
    free(va);
    free(vb);
    va = gateau_state_view_json(sa, GATEAU_OBSERVER);
    vb = gateau_state_view_json(sb, GATEAU_OBSERVER);
    cr_assert_str_eq(va, vb);
    free(va);
    free(vb);
    va = gateau_state_view_json(sa, 0);
    vb = gateau_state_view_json(sb, 0);
    cr_assert_str_neq(va, vb, "yellow sees its own assignment");
    cr_assert(strstr(va, "\"assignment\":{\"A\":1,\"B\":0,\"C\":3,\"D\":0,\"target\":null}"),
              "%s", va);
    free(va);
    free(vb);
    /* Commentary: blue learns only that yellow has assigned. */
    int count;
    gateau_record *deal_only = read_record(deal_a, NULL);
    gateau_state *start = gateau_state_clone(gateau_record_state(deal_only));
    const gateau_action *actions = gateau_record_move_actions(a, 1, &count);
    char *to_blue = gateau_move_describe(start, 0, actions, count, 1);
    char *to_yellow = gateau_move_describe(start, 0, actions, count, 0);
    cr_assert_str_eq(to_blue, "seat 1 has assigned");
    cr_assert_str_eq(to_yellow, "seat 1: assign A1 C3");
    free(to_blue);
    free(to_yellow);
    gateau_state_free(start);
    gateau_record_free(deal_only);
    gateau_record_free(a);
    gateau_record_free(b);
}

Test(mice_cake, determinize_keeps_the_view_mid_assignment)
{
    gateau_record *record = read_record(STEAL_DEAL, (const char *const[]){
        "1: assign A4", "2: assign A4", "roll 1 A 6 6 6 6", "roll 2 A 6 6 6 6", NULL});
    /* Yellow is halfway through an assignment with a steal: one mouse on
     * B, target still to come. */
    const gateau_state *state = gateau_record_state(record);
    gateau_action actions[GATEAU_MAX_ACTIONS];
    int count = gateau_state_legal_actions(state, 0, actions);
    int b_action = -1;
    for (int i = 0; i < count; i++) {
        char *name = gateau_action_name(state, 0, actions[i]);
        if (!strcmp(name, "mouse on B")) b_action = actions[i];
        free(name);
    }
    cr_assert_geq(b_action, 0);
    char error[256];
    cr_assert(gateau_record_play(record, 0, b_action, error, sizeof error), "%s", error);
    cr_assert(gateau_state_in_move(state));
    cr_assert_eq(gateau_state_actors(state), 1u, "only yellow acts mid-move");
    char *truth = gateau_state_view_json(state, 1);
    char *mine = gateau_state_view_json(state, 0);
    cr_assert(strstr(mine, "\"B\":1"), "%s", mine);
    gateau_rng rng;
    gateau_rng_seed(&rng, 7);
    gateau_state *copy = gateau_state_clone(state);
    for (int k = 0; k < 200; k++) {
        gateau_state_copy(copy, state);
        gateau_state_determinize(copy, 1, &rng);
        char *sampled = gateau_state_view_json(copy, 1);
        cr_assert_str_eq(truth, sampled);
        free(sampled);
        cr_assert(gateau_state_in_move(copy));
        cr_assert_eq(gateau_state_actors(copy), 1u);
        /* The resampled half-assignment can be finished. */
        gateau_rng play;
        gateau_rng_seed(&play, (uint64_t)k);
        while (gateau_state_in_move(copy)) {
            int n = gateau_state_legal_actions(copy, 0, actions);
            cr_assert_gt(n, 0);
            gateau_state_apply_legal(copy, 0, actions[gateau_rng_below(&play, (uint32_t)n)]);
        }
        cr_assert_eq(gateau_state_actors(copy), 2u, "blue assigns next");
    }
    free(truth);
    free(mine);
    gateau_state_free(copy);
    gateau_record_free(record);
}

Test(mice_cake, view_text_faces_the_seat)
{
    gateau_record *record = read_record(WORKED_DEAL, NULL);
    const gateau_state *state = gateau_record_state(record);
    char *yellow = gateau_state_view_text(state, 0, false);
    char *blue = gateau_state_view_text(state, 1, false);
    char *colored = gateau_state_view_text(state, 0, true);
    cr_assert_lt(strstr(yellow, "row 7"), strstr(yellow, "row 1"), "yellow: row 1 at the bottom");
    cr_assert_lt(strstr(blue, "row 1"), strstr(blue, "row 7"), "blue: row 7 at the bottom");
    cr_assert(strstr(yellow, "??"));
    cr_assert(strstr(yellow, "1/2"));
    cr_assert(strstr(yellow, "stash 0 pips"));
    cr_assert(strstr(colored, "\033["), "colors when asked");
    cr_assert_null(strstr(yellow, "\033["), "no colors otherwise");
    free(yellow);
    free(blue);
    free(colored);
    char *legal = gateau_state_describe_legal(state, 0);
    cr_assert(strstr(legal, "assign all 4 ready mice"), "%s", legal);
    free(legal);
    gateau_record_free(record);
}

/* ---- Views read back (gateau_state_from_view) -------------------------------------- */

/* seat's view of state reads back to a position that shows the same view
 * and, until the game is over, determinizes exactly as state does: seat
 * cannot tell them apart. */
static void expect_view_reads_back(const gateau_state *state, int seat, int move)
{
    const gateau_setup *setup = gateau_state_setup(state);
    char *view = gateau_state_view_json(state, seat);
    char error[256] = "";
    gateau_state *read = gateau_state_from_view(setup, seat, view, error, sizeof error);
    cr_assert_not_null(read, "after move %d, seat %d: %s\n%s", move, seat + 1, error, view);
    char *again = gateau_state_view_json(read, seat);
    cr_assert_str_eq(again, view, "after move %d, seat %d", move, seat + 1);
    if (!gateau_state_is_over(state)) {
        gateau_state *truth = gateau_state_clone(state), *guess = gateau_state_clone(read);
        gateau_rng r1, r2;
        gateau_rng_seed(&r1, (uint64_t)move);
        r2 = r1;
        gateau_state_determinize(truth, seat, &r1);
        gateau_state_determinize(guess, seat, &r2);
        cr_assert(memcmp(truth, guess, gateau_state_size(setup)) == 0,
                  "after move %d, seat %d: determinizes differently\n%s", move, seat + 1, view);
        gateau_state_free(truth);
        gateau_state_free(guess);
    }
    free(again);
    free(view);
    gateau_state_free(read);
}

/* Both seats' views of every position between the moves of record. */
static void expect_record_reads_back(const gateau_record *record)
{
    gateau_state *state = gateau_state_new(gateau_record_setup(record));
    for (int move = 0;; move++) {
        for (int seat = 0; seat < 2; seat++) expect_view_reads_back(state, seat, move);
        if (move == gateau_record_move_count(record)) break;
        int count;
        const gateau_action *actions = gateau_record_move_actions(record, move, &count);
        for (int i = 0; i < count; i++)
            gateau_state_apply_legal(state, gateau_record_move_seat(record, move), actions[i]);
    }
    gateau_state_free(state);
}

/* What random games seldom reach: steals (a target in an assignment and
 * in the rolls, 0/0 in a stash), a double steal (0/0 out of the game),
 * and a game stopped by the guard with face-down pieces left. */
Test(mice_cake, views_read_back_through_steals_and_the_guard)
{
    const char *const steals[][3] = {{"1: assign B4>3/4", "roll 1 B 6 6 6 6", "roll 2 A 1 1 1 1"},
                                     {"1: assign B4>3/4", "roll 1 B 1 1 1 1", "roll 2 A 1 1 1 1"}};
    for (int i = 0; i < 2; i++) {
        gateau_record *record = steal_record(steals[i][0], steals[i][1], steals[i][2]);
        expect_record_reads_back(record);
        gateau_record_free(record);
    }
    const char *double_steal[] = {"1: assign A4>2/2", "2: assign A4>0/2", "roll 1 A 6 6 6 6",
                                  "roll 2 A 6 6 6 6", NULL};
    gateau_record *record = NULL;
    json_decref(conflict_view("0/0", double_steal, &record));
    expect_record_reads_back(record);
    gateau_record_free(record);
    const char *deal = "* * * 5/5  * * * *  * * * *  * * * *  * * * *  * * * *  * * * 4/6";
    record = read_record(deal, NULL);
    idle_to_the_end(record);
    expect_record_reads_back(record);
    gateau_record_free(record);
}

/* seat's view of state with changes made (pairs of a text and what
 * replaces its first occurrence, NULL-terminated) is refused with a
 * reason that says fragment. */
static void expect_changed_view_refused(const gateau_state *state, int seat,
                                        const char *const *changes, const char *fragment)
{
    char *view = gateau_state_view_json(state, seat);
    for (int i = 0; changes[i]; i += 2) {
        char *at = strstr(view, changes[i]);
        cr_assert_not_null(at, "'%s' is not in the view\n%s", changes[i], view);
        gateau_text changed = {0};
        text_append(&changed, "%.*s%s%s", (int)(at - view), view, changes[i + 1],
                    at + strlen(changes[i]));
        free(view);
        view = text_take(&changed);
    }
    char error[256] = "";
    gateau_state *read =
        gateau_state_from_view(gateau_state_setup(state), seat, view, error, sizeof error);
    cr_assert_null(read, "read as a view:\n%s", view);
    cr_assert(strstr(error, fragment) && !strchr(error, '\n'),
              "the reason '%s' does not say '%s'", error, fragment);
    free(view);
}

#define CHANGES(...) ((const char *const[]){__VA_ARGS__, NULL})

/* Views no position shows: each is refused for what is wrong with it,
 * not only because it does not read back the same. */
Test(mice_cake, impossible_views_are_refused)
{
    /* Round 1 of STEAL_DEAL: rows 1 1/2 0/0 5/6 0/3, 3 0/5 0/6 1/1 1/4. */
    gateau_record *record = read_record(STEAL_DEAL, NULL);
    const gateau_state *state = gateau_record_state(record);
    expect_changed_view_refused(state, 0, CHANGES("\"phase\":\"assign\"", "\"phase\":\"play\""),
                                "'phase'");
    expect_changed_view_refused(state, 0, CHANGES("\"round\":1", "\"round\":501"), "'round'");
    expect_changed_view_refused(state, 0, CHANGES("\"1/2\"", "\"2/1\""), "low half first");
    expect_changed_view_refused(state, 0, CHANGES("[\"0/5\",\"0/6\"", "[\"1/2\",\"0/6\""),
                                "two places");
    expect_changed_view_refused(state, 0, CHANGES("[\"0/5\",\"0/6\"", "[null,\"0/6\""),
                                "face down, but");
    expect_changed_view_refused(state, 0, CHANGES("[\"0/5\",\"0/6\"", "[\"??\",\"0/6\"",
                                                  "\"0/4\",\"1/3\"", "\"0/4\",\"0/5\",\"1/3\""),
                                "row 3 is face up");
    expect_changed_view_refused(state, 0,
                                CHANGES("[\"0/5\",\"0/6\"", "[null,\"0/6\"",
                                        "\"stash\":[],\"pips\":0,\"pieces\":0",
                                        "\"stash\":[\"0/5\"],\"pips\":5,\"pieces\":1"),
                                "only at its ends");
    expect_changed_view_refused(state, 0,
                                CHANGES("\"assignment\":{\"A\":0", "\"assignment\":{\"A\":4"),
                                "empty before the seat assigns");
    expect_changed_view_refused(state, 0, CHANGES("\"assigned\":false", "\"assigned\":true"),
                                "places 0 mice, not the 4 ready");
    expect_changed_view_refused(state, 0,
                                CHANGES("\"assigned\":false,\"assignment\":{\"A\":0,\"B\":0",
                                        "\"assigned\":true,\"assignment\":{\"A\":0,\"B\":4"),
                                "cannot put mice on column B");
    /* The rolls of round 1: yellow on 1/2, blue on 3/4. */
    support_play(record, 0, "assign A4");
    support_play(record, 1, "assign A4");
    expect_changed_view_refused(state, 0, CHANGES("\"dice\":[]", "\"dice\":[6]"), "in one move");
    expect_changed_view_refused(state, 0, CHANGES("\"value\":7,\"dice\":[]",
                                                  "\"value\":7,\"dice\":[6,6,6,6]"),
                                "one before has not rolled");
    expect_changed_view_refused(state, 0,
                                CHANGES("\"dice\":[]", "\"dice\":[6,6,6,6]", "\"dice\":[]",
                                        "\"dice\":[6,6,6,6]"),
                                "every group has rolled");
    expect_changed_view_refused(state, 0, CHANGES("\"piece\":\"1/2\",\"value\":3",
                                                  "\"piece\":\"0/5\",\"value\":5"),
                                "nearest piece");
    support_play(record, GATEAU_CHANCE, "roll 1 A 6 6 6 6");
    support_play(record, GATEAU_CHANCE, "roll 2 A 6 6 6 6");
    /* Round 2: yellow steals 3/4 on B; blue has not assigned. */
    support_play(record, 0, "assign B4>3/4");
    expect_changed_view_refused(state, 0, CHANGES("\"target\":\"3/4\"", "\"target\":\"4/4\""),
                                "targets a piece of seat 2's stash");
    expect_changed_view_refused(state, 0, CHANGES("\"target\":\"3/4\"", "\"target\":null"),
                                "targets a piece of seat 2's stash");
    expect_changed_view_refused(state, 1, CHANGES("\"to_act\":[2]", "\"to_act\":[1]"),
                                "'to_act'");
    gateau_record_free(record);
    /* The end: the guard stops a game only after round 500. */
    const char *deal = "* * * 5/5  * * * *  * * * *  * * * *  * * * *  * * * *  * * * 4/6";
    record = read_record(deal, NULL);
    idle_to_the_end(record);
    state = gateau_record_state(record);
    expect_changed_view_refused(state, 0, CHANGES("\"round\":500", "\"round\":499"),
                                "after round 500");
    expect_changed_view_refused(state, 0, CHANGES("\"stopped_by_round_limit\":true",
                                                  "\"stopped_by_round_limit\":false"),
                                "only by the 500-round guard");
    gateau_record_free(record);
}

/* ---- Bad input ----------------------------------------------------------------------- */

static void expect_refused_lines(const char *spec, const char *const *lines, int line,
                                 const char *fragment)
{
    char *text = record_text(spec, lines);
    support_expect_refused(text, line, fragment);
    free(text);
}

Test(mice_cake, bad_deals)
{
    support_expect_refused("game: mice-cake\nplayers: 2\n---\n# a comment\n\ndeal 1/2 3/4\n", 6,
                           "names all 28 pieces");
    gateau_text text = {0};
    text_append(&text, "%s", HEADER);
    append_deal(&text, WORKED_DEAL);
    char *good = text_take(&text);
    char *bad = strdup(good);
    char *at = strstr(bad, "3/4");
    at[2] = 'x';
    support_expect_refused(bad, 4, "'3/x' (piece 2 of the deal) is not a piece");
    strcpy(bad, good);
    at = strstr(bad, "3/4");
    at[0] = '1';
    at[2] = '2';
    support_expect_refused(bad, 4, "the deal names 1/2 twice");
    strcpy(bad, good);
    at = strstr(bad, "3/4");
    at[0] = '7';
    support_expect_refused(bad, 4, "is not a piece");
    /* Either order is read; the record is written low half first. */
    strcpy(bad, good);
    at = strstr(bad, "2/6");
    at[0] = '6';
    at[2] = '2';
    gateau_record *record = support_read(bad);
    char *written = gateau_record_text(record);
    cr_assert_str_eq(written, good);
    free(written);
    gateau_record_free(record);
    free(bad);
    free(good);
}

Test(mice_cake, bad_assigns)
{
    /* Header 1-3, deal 4, then the lines. */
    expect_refused_lines(WORKED_DEAL, (const char *const[]){"1: assign A1 C2", NULL}, 5,
                         "must place all 4 ready mice, not 3");
    expect_refused_lines(WORKED_DEAL, (const char *const[]){"1: assign A1 C4", NULL}, 5,
                         "not 5");
    expect_refused_lines(WORKED_DEAL, (const char *const[]){"1: assign A0 C4", NULL}, 5,
                         "0 mice");
    expect_refused_lines(WORKED_DEAL, (const char *const[]){"1: assign C1 A3", NULL}, 5,
                         "in order A..D: A comes after C");
    expect_refused_lines(WORKED_DEAL, (const char *const[]){"1: assign A1 A3", NULL}, 5,
                         "in order A..D");
    expect_refused_lines(WORKED_DEAL, (const char *const[]){"1: assign E4", NULL}, 5,
                         "'E4' is not a column A-D");
    expect_refused_lines(WORKED_DEAL, (const char *const[]){"1: assign", NULL}, 5,
                         "as in 'assign A1 C3'");
    expect_refused_lines(WORKED_DEAL, (const char *const[]){"1: assign A1>1/2 C3", NULL}, 5,
                         "'>target' is not allowed");
    expect_refused_lines(WORKED_DEAL, (const char *const[]){"1: assign A1 C3", "assign B4", NULL},
                         6, "needs its seat");
    expect_refused_lines(WORKED_DEAL, (const char *const[]){"assign A1 C3", NULL}, 5,
                         "needs its seat");
    expect_refused_lines(WORKED_DEAL,
                         (const char *const[]){"1: assign A1 C3", "1: assign B4", NULL}, 6,
                         "already moved");
    expect_refused_lines(WORKED_DEAL, (const char *const[]){"1: roll 1 A 4", NULL}, 5,
                         "expected an assign");
    expect_refused_lines(WORKED_DEAL,
                         (const char *const[]){"1: assign A1 C3", "2: assign B2 D2",
                                               "1: roll 1 A 4", NULL},
                         7, "no seat prefix");
}

/* Columns in either case (issue 14): no letter means anything else, so
 * nothing can be mistaken.  The record keeps the canonical spelling. */
Test(mice_cake, columns_in_either_case)
{
    const char *lines[] = {"1: assign a1 c3", "2: assign b2 D2", "roll 1 a 4", "roll 2 b 2 4",
                           "roll 1 C 6 6 5",  "roll 2 d 3 4",    "1: assign a1 c1",
                           "2: assign b3 d1", NULL};
    gateau_record *record = read_record(WORKED_DEAL, lines);
    const char *canonical[] = {"assign A1 C3", "assign B2 D2", "roll 1 A 4", "roll 2 B 2 4",
                               "roll 1 C 6 6 5", "roll 2 D 3 4", "assign A1 C1",
                               "assign B3 D1"};
    for (int i = 0; i < 8; i++)
        cr_expect_str_eq(gateau_record_move_text(record, 1 + i), canonical[i]);
    gateau_record_free(record);
    expect_refused_lines(WORKED_DEAL, (const char *const[]){"1: assign e4", NULL}, 5,
                         "'e4' is not a column A-D");
    expect_refused_lines(WORKED_DEAL, (const char *const[]){"1: assign c1 a3", NULL}, 5,
                         "in order A..D: A comes after C");
    const char *wrong_roll[] = {"1: assign A1 C3", "2: assign B2 D2", "roll 1 e 4", NULL};
    expect_refused_lines(WORKED_DEAL, wrong_roll, 7, "a roll is 'roll', the seat, the column");
}

Test(mice_cake, bad_steals)
{
    /* Round 1: blue's stash is empty, B (0/0) is closed to yellow. */
    expect_refused_lines(STEAL_DEAL, (const char *const[]){"1: assign B4>3/4", NULL}, 5,
                         "nothing to steal");
    const char *prefix[] = {"1: assign A4", "2: assign A4", "roll 1 A 6 6 6 6", "roll 2 A 6 6 6 6"};
    const char *missing[] = {prefix[0], prefix[1], prefix[2], prefix[3], "# round 2",
                             "1: assign A1 B3", NULL};
    expect_refused_lines(STEAL_DEAL, missing, 10, "name a target from seat 2's stash, as in "
                                                  "'B3>3/4'");
    const char *wrong[] = {prefix[0], prefix[1], prefix[2], prefix[3], "1: assign B4>5/6", NULL};
    expect_refused_lines(STEAL_DEAL, wrong, 9, "5/6 is not in seat 2's stash (it holds 3/4)");
    const char *forbidden[] = {prefix[0], prefix[1], prefix[2], prefix[3], "1: assign A4>3/4",
                               NULL};
    expect_refused_lines(STEAL_DEAL, forbidden, 9, "'>target' is not allowed");
    const char *bad_piece[] = {prefix[0], prefix[1], prefix[2], prefix[3], "1: assign B4>3/9",
                               NULL};
    expect_refused_lines(STEAL_DEAL, bad_piece, 9, "'3/9' is not a piece");
    /* Reading accepts a target written high half first. */
    const char *reversed[] = {prefix[0], prefix[1], prefix[2], prefix[3], "1: assign B4>4/3",
                              NULL};
    gateau_record *record = read_record(STEAL_DEAL, reversed);
    cr_assert_str_eq(gateau_record_move_text(record, 5), "assign B4>3/4");
    gateau_record_free(record);
}

Test(mice_cake, bad_rolls)
{
    const char *assigned[] = {"1: assign A1 C3", "2: assign B2 D2", NULL};
    const char *l1[] = {assigned[0], assigned[1], "roll 1 A 4 4", NULL};
    expect_refused_lines(WORKED_DEAL, l1, 7, "seat 1 has 1 mouse on column A, so the roll needs "
                                             "1 die, not 2");
    const char *l2[] = {assigned[0], assigned[1], "roll 1 A", NULL};
    expect_refused_lines(WORKED_DEAL, l2, 7, "needs 1 die, not 0");
    const char *l3[] = {assigned[0], assigned[1], "roll 2 B 2 4", NULL};
    expect_refused_lines(WORKED_DEAL, l3, 7, "the next roll is seat 1's for column A");
    const char *l4[] = {assigned[0], assigned[1], "roll 1 A 4", "roll 1 C 6 6 5", NULL};
    expect_refused_lines(WORKED_DEAL, l4, 8, "the next roll is seat 2's for column B");
    const char *l5[] = {assigned[0], assigned[1], "roll 1 A 7", NULL};
    expect_refused_lines(WORKED_DEAL, l5, 7, "'7' is not a die");
    const char *l6[] = {assigned[0], assigned[1], "roll 1 A 0", NULL};
    expect_refused_lines(WORKED_DEAL, l6, 7, "'0' is not a die");
    const char *l7[] = {assigned[0], assigned[1], "roll one A 4", NULL};
    expect_refused_lines(WORKED_DEAL, l7, 7, "a roll is 'roll', the seat, the column");
    const char *l8[] = {assigned[0], assigned[1], "roll 1 A 4", "roll 2 B 2 4", "roll 1 C 6 6",
                        NULL};
    expect_refused_lines(WORKED_DEAL, l8, 9, "3 mice on column C, so the roll needs 3 dice, "
                                             "not 2");
    const char *l9[] = {assigned[0], assigned[1], "1: assign A4", NULL};
    expect_refused_lines(WORKED_DEAL, l9, 7, "chance move");
}

/* ---- Many random games --------------------------------------------------------------- */

/* The observer's view accounts for all 28 pieces, and its stashes give
 * the scores. */
static void check_accounting(const gateau_state *state, json_t *view)
{
    bool seen[28] = {false};
    int on_grid = 0, hidden = 0, known = 0;
    json_t *grid = json_object_get(view, "grid");
    for (size_t r = 0; r < 7; r++)
        for (size_t c = 0; c < 4; c++) {
            json_t *value = json_array_get(json_array_get(grid, r), c);
            if (json_is_null(value)) continue;
            on_grid++;
            const char *name = json_string_value(value);
            if (!strcmp(name, "??")) {
                hidden++;
                continue;
            }
            cr_assert(!seen[piece_index(name)], "%s twice", name);
            seen[piece_index(name)] = true;
            known++;
        }
    int scores[GATEAU_MAX_PLAYERS];
    gateau_state_scores(state, scores);
    int stashed = 0;
    for (int s = 1; s <= 2; s++) {
        json_t *list = json_object_get(seat_of(view, s), "stash");
        int pips = 0;
        size_t i;
        json_t *item;
        json_array_foreach(list, i, item) {
            const char *name = json_string_value(item);
            cr_assert(!seen[piece_index(name)], "%s twice", name);
            seen[piece_index(name)] = true;
            pips += pips_of(name);
            stashed++;
            known++;
        }
        cr_assert_eq(pips, scores[s - 1], "score = pips in the stash");
        cr_assert_eq(pips, seat_int(view, s, "pips"));
        cr_assert_eq((int)json_array_size(list), seat_int(view, s, "pieces"));
        int tired = 0;
        for (char col = 'A'; col <= 'D'; col++) tired += exhausted_on(view, s, col);
        cr_assert_eq(seat_int(view, s, "ready") + tired, 4);
    }
    json_t *removed = json_object_get(view, "removed");
    size_t i;
    json_t *item;
    json_array_foreach(removed, i, item) {
        cr_assert_str_eq(json_string_value(item), "0/0", "only the double-blank is removed");
        cr_assert(!seen[0]);
        seen[0] = true;
        known++;
    }
    cr_assert_eq(on_grid + stashed + (int)json_array_size(removed), 28, "28 pieces");
    cr_assert_eq((int)json_array_size(json_object_get(view, "unseen")), hidden);
    json_array_foreach(json_object_get(view, "unseen"), i, item)
        cr_assert(!seen[piece_index(json_string_value(item))]);
    cr_assert_eq(known + hidden, 28);
}

/* Winners from the view alone: pips, then pieces, then 6/6. */
static uint32_t winners_from_view(json_t *view)
{
    int pips[2], pieces[2];
    bool six[2];
    for (int s = 0; s < 2; s++) {
        json_t *list = json_object_get(seat_of(view, s + 1), "stash");
        pips[s] = 0;
        six[s] = false;
        size_t i;
        json_t *item;
        json_array_foreach(list, i, item) {
            pips[s] += pips_of(json_string_value(item));
            six[s] |= !strcmp(json_string_value(item), "6/6");
        }
        pieces[s] = (int)json_array_size(list);
    }
    if (pips[0] != pips[1]) return pips[0] > pips[1] ? 1u : 2u;
    if (pieces[0] != pieces[1]) return pieces[0] > pieces[1] ? 1u : 2u;
    if (six[0] != six[1]) return six[0] ? 1u : 2u;
    return 3u;
}

Test(mice_cake, random_games, .timeout = 1800)
{
    gateau_setup *setup = support_setup("mice-cake", 2, NULL);
    int games = support_property_games(10000);
    gateau_action actions[GATEAU_MAX_ACTIONS];
    int stopped = 0, double_steals = 0;
    for (int g = 0; g < games; g++) {
        gateau_rng rng;
        gateau_rng_seed_stream(&rng, 4004, (uint64_t)g);
        bool keep = g % 100 == 0;
        gateau_record *record = gateau_record_new(setup);
        const gateau_state *state = gateau_record_state(record);
        long steps = 0;
        while (!gateau_state_is_over(state)) {
            cr_assert_lt(++steps, 100000);
            if (gateau_state_is_chance(state)) {
                gateau_record_play_chance(record, &rng);
                /* Pieces move only when a round resolves, after its last
                 * roll: check every new position of the pieces. */
                if (gateau_state_is_chance(state) || gateau_state_is_over(state)) continue;
                json_t *view = support_view(state, GATEAU_OBSERVER);
                check_accounting(state, view);
                json_decref(view);
            } else {
                int seat = gateau_state_next_seat(state);
                int count = gateau_state_legal_actions(state, seat, actions);
                cr_assert_gt(count, 0);
                gateau_record_play(record, seat, actions[gateau_rng_below(&rng, (uint32_t)count)],
                                   NULL, 0);
            }
        }
        json_t *view = support_view(state, GATEAU_OBSERVER);
        check_accounting(state, view);
        cr_assert_eq(gateau_state_winners(state), winners_from_view(view), "game %d", g);
        bool empty = true;
        for (int r = 1; r <= 7; r++)
            for (char c = 'A'; c <= 'D'; c++) empty &= !strcmp(cell(view, r, c), ".");
        bool guard = json_is_true(json_object_get(view, "stopped_by_round_limit"));
        cr_assert(empty != guard, "a game ends with an empty grid or by the guard");
        stopped += guard;
        double_steals += json_array_size(json_object_get(view, "removed")) > 0;
        json_decref(view);
        if (keep) {
            char *text = gateau_record_text(record);
            gateau_record *again = support_read(text);
            char *text2 = gateau_record_text(again);
            cr_assert_str_eq(text, text2, "records round-trip");
            int a[GATEAU_MAX_PLAYERS], b[GATEAU_MAX_PLAYERS];
            gateau_state_scores(state, a);
            gateau_state_scores(gateau_record_state(again), b);
            cr_assert_eq(memcmp(a, b, sizeof a), 0);
            cr_assert_eq(gateau_state_winners(state), gateau_state_winners(gateau_record_state(again)));
            free(text);
            free(text2);
            gateau_record_free(again);
        }
        gateau_record_free(record);
    }
    cr_log_info("mice-cake: %d games, %d stopped by the guard, %d with a double steal", games,
                stopped, double_steals);
    gateau_setup_free(setup);
}
