/*
 * heuristic_mice_cake.c: a rule-of-thumb Mice Cake player.
 *
 * An assignment is judged column by column, exactly: for m mice on a
 * piece a/b the chance that the attempt succeeds (the dice sum reaches
 * a + b and no exhaustion strikes) and the expected number of mice
 * exhausted (2 when two different dice show the two halves of a piece
 * a/b, 1 when a die shows b on a piece 0/b) come from enumerating the 6^m
 * dice once (a table of 4 x 28 entries).  A column is worth
 *
 *     P(success) x gain  -  2 pips x E[mice exhausted]
 *
 * where the gain is the piece's pips, or for a steal (the double-blank is
 * the nearest piece) twice the target's pips, since the opponent loses
 * them, and a steal's target is the one worth most.  Every way of putting
 * all ready mice on the usable columns is tried (at most 35), the best
 * kept; ties go to the first in the order A-heavy first.  Conflicts over a
 * column's last piece are not modelled.
 *
 * It reads what the seat knows: the nearest pieces (always face up), the
 * stashes, its own mice and its own assignment so far; the plan is
 * recomputed at each mouse from what is already placed, so it finishes
 * the assignment it began.  At about a microsecond a decision it is also
 * the search's rollout policy, and so its model of the opponent's secret
 * assignment.
 */
#include <pthread.h>
#include <string.h>

#include "bots/bots.h"
#include "bots/mice_cake_bots.h"
#include "games/mice_cake/mice_cake.h"

#define EXHAUSTION_COST MICE_CAKE_EXHAUSTION_COST

/* ---- The odds of one attempt ----------------------------------------------- */

static mice_cake_odds ODDS[MC_MICE + 1][MC_PIECES]; /* by mice, piece */
static pthread_once_t odds_once = PTHREAD_ONCE_INIT;

static void odds_fill(void)
{
    for (int m = 1; m <= MC_MICE; m++) {
        int total = 1;
        for (int i = 0; i < m; i++) total *= MC_FACES;
        for (int piece = 0; piece < MC_PIECES; piece++) {
            int a = MC_LOW[piece], b = MC_HIGH[piece];
            mice_cake_odds *o = &ODDS[m][piece];
            memset(o, 0, sizeof *o);
            double wins = 0, tired = 0;
            for (int outcome = 0; outcome < total; outcome++) {
                uint8_t dice[MC_MICE];
                int x = outcome, sum = 0;
                for (int i = 0; i < m; i++) {
                    dice[i] = (uint8_t)(x % MC_FACES + 1);
                    x /= MC_FACES;
                    sum += dice[i];
                }
                int lost = mc_exhaustion(piece, dice, m);
                tired += lost;
                if (!lost && sum >= a + b) {
                    wins += 1;
                    o->success_at[sum] += 1.0 / total;
                } else {
                    o->failure[lost] += 1.0 / total;
                }
            }
            o->success = wins / total;
            o->exhausted = tired / total;
        }
    }
}

const mice_cake_odds *mice_cake_attempt_odds(int mice, int piece)
{
    pthread_once(&odds_once, odds_fill);
    return &ODDS[mice][piece];
}

static double attempt_value(int m, int piece, double gain)
{
    const mice_cake_odds *o = &ODDS[m][piece];
    return o->success * gain - EXHAUSTION_COST * o->exhausted;
}

/* ---- The best assignment ---------------------------------------------------- */

typedef struct column_info {
    bool usable;
    double value[MC_MICE + 1]; /* by mice on it */
    int target[MC_MICE + 1];   /* a steal's best target by mice, else MC_NO_PIECE */
} column_info;

typedef struct search {
    column_info column[MC_COLUMNS];
    int fixed_before; /* columns before this one are as placed */
    int placed[MC_COLUMNS];
    int counts[MC_COLUMNS], best[MC_COLUMNS];
    double best_value;
    bool have;
} search;

static void enumerate(search *s, int column, int left, double value)
{
    if (column == MC_COLUMNS) {
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
    if (column < s->fixed_before || !c->usable) high = low; /* passed, or closed: fixed */
    for (int m = high; m >= low; m--) {
        if (m > left) continue;
        s->counts[column] = m;
        enumerate(s, column + 1, left - m, value + (m ? c->value[m] : 0.0));
    }
}

/* Values of each column for 1..ready mice. */
static void value_columns(const mc_state *g, int seat, int ready, search *s)
{
    uint8_t nearest[MC_COLUMNS];
    unsigned open = mc_open_columns(g, seat, nearest);
    uint32_t stash = g->stash[1 - seat];
    for (int c = 0; c < MC_COLUMNS; c++) {
        column_info *info = &s->column[c];
        info->usable = open & (1u << c);
        if (!info->usable) continue;
        int piece = nearest[c];
        for (int m = 1; m <= ready; m++) {
            info->target[m] = MC_NO_PIECE;
            if (piece != MC_DOUBLE_BLANK) {
                info->value[m] = attempt_value(m, piece, mc_pips(piece));
                continue;
            }
            /* A steal: the best target of the opponent's stash (open
             * columns guarantee it is not empty), the lowest on ties. */
            double best = -1e300;
            for (uint32_t left = stash; left; left &= left - 1) {
                int target = __builtin_ctz(left);
                double value = attempt_value(m, target, 2.0 * mc_pips(target));
                if (value > best + 1e-12) {
                    best = value;
                    info->target[m] = target;
                }
            }
            info->value[m] = best;
        }
    }
}

static gateau_action mc_heuristic(const gateau_state *state, int seat, gateau_rng *rng)
{
    pthread_once(&odds_once, odds_fill);
    const mc_state *g = GAME_STATE_CONST(mc_state, state);
    if (g->phase != MC_PHASE_ASSIGN || !g->must_assign[seat] || g->assigned[seat])
        return bot_random_policy(state, seat, rng);
    const mc_plan *plan = &g->plans[seat];
    search s;
    memset(&s, 0, sizeof s);
    int last = plan->placed ? plan->last_column : -1;
    for (int c = 0; c < MC_COLUMNS; c++) s.placed[c] = plan->mice[c];
    s.fixed_before = last < 0 ? 0 : last;
    value_columns(g, seat, g->ready[seat], &s);
    enumerate(&s, 0, g->ready[seat], 0.0);
    if (!s.have) return bot_random_policy(state, seat, rng);
    /* A steal column just opened wants its target now. */
    if (plan->wants_target) {
        int target = s.column[last].target[s.best[last]];
        if (target != MC_NO_PIECE && (g->stash[1 - seat] & (1u << target)))
            return MC_TARGET + target;
        return bot_random_policy(state, seat, rng);
    }
    for (int c = last < 0 ? 0 : last; c < MC_COLUMNS; c++)
        if (s.best[c] > s.placed[c]) return MC_PLACE + c;
    return bot_random_policy(state, seat, rng);
}

const bot_game mice_cake_bots = {
    .search = {
        .iterations = 5000, /* a few ms a move (docs/bots.md) */
        /* Half the reward is the pips margin (80 pips across): with two
         * players and dice deciding much, a win-only reward says little
         * about how good a move was (docs/bots.md). */
        .score_weight = 0.5,
        .score_span = 80,
        /* The tree covers the seat's assignment; the round's dice are
         * worked out (search_mice_cake.c), so every leaf is exact and
         * small differences count: little exploration, nodes worth their
         * best. */
        .tree_one_move = true,
        .move_values_exact = true,
        .exploration = 0.05,
    },
    .chance_values = mice_cake_round_values,
    .heuristic = mc_heuristic,
    .rollout = mc_heuristic,
};
