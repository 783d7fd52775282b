/*
 * heuristic_mice_cake.c: a rule-of-thumb Mice Cake player.
 *
 * An assignment is judged column by column, exactly: for m mice on a
 * column the m dice are enumerated (6^m outcomes, at most 1296), giving the
 * chance that the attempt succeeds (the sum reaches the piece's pips and
 * no exhaustion strikes) and the expected number of mice exhausted (2 when
 * two different dice show the two halves of a piece a/b, 1 when a die
 * shows b on a piece 0/b).  A column is worth
 *
 *     P(success) x gain  -  2 pips x E[mice exhausted]
 *
 * where the gain is the piece's pips, or for a steal (the double-blank is
 * the nearest piece) twice the target's pips, since the opponent loses
 * them, and a steal's target is the one worth most.  Every way of putting
 * all ready mice on the usable columns is tried (at most 35), the best
 * kept; ties go to the first in the order A-heavy first.  Conflicts over a
 * column's last piece are not modelled.  The player reads the game only
 * through its public view, and the plan is recomputed at each mouse from
 * what is already placed, so it finishes the assignment it began.
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "bots/bots.h"

enum { COLUMNS = 4, ROWS = 7, MICE = 4 };

#define EXHAUSTION_COST 2.0

typedef struct column_info {
    bool usable, steal;
    int low, high;                 /* the nearest piece (not a steal) */
    double value[MICE + 1];        /* by mice on it */
    int target_low[MICE + 1], target_high[MICE + 1]; /* a steal's best target */
} column_info;

static bool parse_piece(const char *text, int *low, int *high)
{
    return text && sscanf(text, "%d/%d", low, high) == 2;
}

/* Exact odds of an attempt of m dice on a piece a/b (value a + b). */
static void attempt_odds(int m, int a, int b, double *success, double *exhausted)
{
    int dice[MICE] = {0}, total = 1;
    for (int i = 0; i < m; i++) total *= 6;
    double wins = 0, tired = 0;
    for (int outcome = 0; outcome < total; outcome++) {
        int x = outcome, sum = 0;
        for (int i = 0; i < m; i++) {
            dice[i] = x % 6 + 1;
            x /= 6;
            sum += dice[i];
        }
        int lost = 0;
        if (a > 0 && b > 0) {
            /* Two different dice showing a and b. */
            for (int i = 0; i < m && !lost; i++)
                for (int j = 0; j < m && !lost; j++)
                    if (i != j && dice[i] == a && dice[j] == b) lost = 2;
        } else if (b > 0) {
            for (int i = 0; i < m && !lost; i++)
                if (dice[i] == b) lost = 1;
        }
        if (lost) tired += lost;
        else if (sum >= a + b) wins += 1;
    }
    *success = wins / total;
    *exhausted = tired / total;
}

static double attempt_value(int m, int a, int b, double gain)
{
    double success, exhausted;
    attempt_odds(m, a, b, &success, &exhausted);
    return success * gain - EXHAUSTION_COST * exhausted;
}

typedef struct search {
    column_info column[COLUMNS];
    int ready;
    int fixed_before;          /* columns before this one are as placed */
    int placed[COLUMNS];
    int counts[COLUMNS], best[COLUMNS];
    double best_value;
    bool have;
} search;

static void enumerate(search *s, int column, int left, double value)
{
    if (column == COLUMNS) {
        if (left) return;
        if (!s->have || value > s->best_value + 1e-12) {
            s->have = true;
            s->best_value = value;
            memcpy(s->best, s->counts, sizeof s->best);
        }
        return;
    }
    const column_info *c = &s->column[column];
    int low = s->placed[column], high = left;
    if (column < s->fixed_before) high = low; /* already passed: fixed */
    if (!c->usable) high = low;
    for (int m = high; m >= low; m--) {
        if (m > left) continue;
        s->counts[column] = m;
        enumerate(s, column + 1, left - m, value + (m ? c->value[m] : 0.0));
    }
}

static gateau_action mc_heuristic(const gateau_state *state, int seat, gateau_rng *rng)
{
    json_t *view = bot_view(state, seat);
    json_t *grid = json_object_get(view, "grid");
    json_t *seats = json_object_get(view, "seats");
    json_t *me = json_array_get(seats, (size_t)seat), *other = json_array_get(seats, (size_t)(1 - seat));
    json_t *stash = json_object_get(other, "stash");
    json_t *assignment = json_object_get(me, "assignment");
    search s;
    memset(&s, 0, sizeof s);
    s.ready = (int)json_integer_value(json_object_get(me, "ready"));
    static const char LETTER[COLUMNS + 1] = "ABCD";
    int last = -1, placed_total = 0;
    for (int c = 0; c < COLUMNS; c++) {
        char key[2] = {LETTER[c], '\0'};
        s.placed[c] = assignment ? (int)json_integer_value(json_object_get(assignment, key)) : 0;
        placed_total += s.placed[c];
        if (s.placed[c]) last = c;
    }
    s.fixed_before = last < 0 ? 0 : last;
    /* The nearest piece of each column for this seat. */
    for (int c = 0; c < COLUMNS; c++) {
        column_info *info = &s.column[c];
        int row = -1;
        for (int r = 0; r < ROWS; r++) {
            int rr = seat == 0 ? r : ROWS - 1 - r;
            json_t *cell = json_array_get(json_array_get(grid, (size_t)rr), (size_t)c);
            if (cell && !json_is_null(cell)) {
                row = rr;
                break;
            }
        }
        if (row < 0) continue;
        const char *text = json_string_value(json_array_get(json_array_get(grid, (size_t)row), (size_t)c));
        if (!parse_piece(text, &info->low, &info->high)) continue;
        info->steal = info->low == 0 && info->high == 0;
        if (info->steal && json_array_size(stash) == 0) continue;
        info->usable = true;
        for (int m = 1; m <= s.ready && m <= MICE; m++) {
            if (!info->steal) {
                info->value[m] = attempt_value(m, info->low, info->high, info->low + info->high);
                continue;
            }
            /* The best target of the opponent's stash, in stash order. */
            double best = -1e300;
            size_t i;
            json_t *piece;
            json_array_foreach(stash, i, piece) {
                int a, b;
                if (!parse_piece(json_string_value(piece), &a, &b)) continue;
                double value = attempt_value(m, a, b, 2.0 * (a + b));
                if (value > best + 1e-12) {
                    best = value;
                    info->target_low[m] = a;
                    info->target_high[m] = b;
                }
            }
            info->value[m] = best;
        }
    }
    json_decref(view);
    enumerate(&s, 0, s.ready, 0.0);
    char name[32];
    gateau_action action = -1;
    if (s.have) {
        /* A steal column just opened wants its target now. */
        if (last >= 0 && s.column[last].steal) {
            int m = s.best[last];
            snprintf(name, sizeof name, "steal %d/%d", s.column[last].target_low[m],
                     s.column[last].target_high[m]);
            action = bot_find_action(state, seat, name);
        }
        for (int c = last < 0 ? 0 : last; c < COLUMNS && action < 0; c++) {
            if (s.best[c] > s.placed[c]) {
                snprintf(name, sizeof name, "mouse on %c", LETTER[c]);
                action = bot_find_action(state, seat, name);
            }
        }
    }
    (void)placed_total;
    return action >= 0 ? action : bot_random_policy(state, seat, rng);
}

const bot_game bot_mice_cake = {
    .name = "mice-cake",
    .heuristic = mc_heuristic,
};
