/*
 * search_mice_cake.c: where Mice Cake's search stops, and what it sees
 * there.
 *
 * Rollouts to the end of a game of dice say little about one assignment:
 * twenty more rounds of luck drown it (every form tried lost pips to the
 * heuristic, docs/bots.md).  So the tree covers the seat's assignment,
 * the opponent assigns as the heuristic does (which sees only what every
 * seat sees), and the search stops where the round's rolls begin.  There
 * every attempt is known and each column's dice are independent of the
 * others', so the round is not sampled but worked out from the odds table:
 * each seat's expected worth after it and the variance of the margin.
 * Nothing in it depends on hidden pieces, so every determinization gives
 * the same value and the search needs no repetition to average luck out
 * (bot_game.move_values_exact).
 *
 * A seat's worth: its pips, less 2 for each mouse the round exhausts
 * (the heuristic's price), plus its steal potential, plus half the pips
 * left on the grid (the same for both seats; it makes the worth read as
 * a final score).  The win: the leader by m wins with probability
 * Phi(m / sqrt(sd^2 + the round's variance)), sd the spread of the rest
 * of the game.  The spread and the steal potential are measured on
 * heuristic self-play by bench/fit_mice_cake_estimate.c.
 */
#include <math.h>
#include <string.h>

#include "bots/mice_cake_bots.h"

/* The spread of the final margin once a round starts: SPREAD_SLOPE x the
 * root of the sum of the squared pips on the grid + SPREAD_BASE (4.9 pips
 * near the end, 28.6 at the start). */
#define SPREAD_SLOPE 0.754
#define SPREAD_BASE 2.425

/* Steal potential: a seat d pieces short of a face-up double-blank is
 * worth STEAL_WEIGHT[d] x the best piece in the other's stash: at the
 * double-blank about the whole piece (it may steal it, or keep the threat
 * while the other's stash grows), half of it one piece short, nothing
 * from three on; the far end's negative weights are the other seat being
 * close.  Fitted on 100,000 games (bench/fit_mice_cake_estimate.c). */
static const double STEAL_WEIGHT[MC_ROWS] = {0.984, 0.517, 0.181, -0.084, -0.357, -0.127, -0.319};

#define EXHAUSTION_COST MICE_CAKE_EXHAUSTION_COST

/* ---- One round's dice ----------------------------------------------------------- */

/* The round's expected change to each seat's worth and the variance of
 * its change to yellow's margin over blue. */
typedef struct round_change {
    double gain[MC_SEATS];
    double variance;
} round_change;

/* An attempt on its own: a success takes the piece, or for a steal the
 * target (the thief gains what the other loses). */
static void add_attempt(round_change *change, const mc_attempt *a)
{
    const mice_cake_odds *o = mice_cake_attempt_odds(a->mice, a->piece);
    double pips = mc_pips(a->piece), swing = a->steal ? 2 * pips : pips;
    double tired = EXHAUSTION_COST * o->exhausted;
    change->gain[a->seat] += o->success * pips - tired;
    if (a->steal) change->gain[1 - a->seat] -= o->success * pips;
    double mean = o->success * swing - tired;
    double square = o->success * swing * swing +
                    EXHAUSTION_COST * EXHAUSTION_COST * (o->failure[1] + 4 * o->failure[2]);
    change->variance += square - mean * mean;
}

/* One way an attempt can end: success with a dice sum, or failure with
 * some mice exhausted (sum -1). */
typedef struct attempt_end {
    double chance;
    int sum, exhausted;
} attempt_end;

static int attempt_ends(const mc_attempt *a, attempt_end *ends)
{
    const mice_cake_odds *o = mice_cake_attempt_odds(a->mice, a->piece);
    int count = 0;
    for (int sum = 0; sum <= MC_MAX_SUM; sum++)
        if (o->success_at[sum] > 0) ends[count++] = (attempt_end){o->success_at[sum], sum, 0};
    for (int lost = 0; lost <= MC_MAX_EXHAUSTED; lost++)
        if (o->failure[lost] > 0) ends[count++] = (attempt_end){o->failure[lost], -1, lost};
    return count;
}

/* Both seats on a column's last piece: the higher successful sum takes
 * it, equal sums leave it (rules, Conflict).  The two attempts' ends are
 * crossed, at most 28 x 28. */
static void add_conflict(round_change *change, const mc_attempt *yellow, const mc_attempt *blue)
{
    enum { ENDS = MC_MAX_SUM + 1 + MC_MAX_EXHAUSTED + 1 }; /* every sum, every failure */
    attempt_end y[ENDS], b[ENDS];
    int ny = attempt_ends(yellow, y), nb = attempt_ends(blue, b);
    double pips = mc_pips(yellow->piece), mean = 0, square = 0;
    for (int i = 0; i < ny; i++)
        for (int j = 0; j < nb; j++) {
            double chance = y[i].chance * b[j].chance;
            double yellow_gain = -EXHAUSTION_COST * y[i].exhausted;
            double blue_gain = -EXHAUSTION_COST * b[j].exhausted;
            if (y[i].sum > b[j].sum) yellow_gain += pips;
            if (b[j].sum > y[i].sum) blue_gain += pips;
            change->gain[0] += chance * yellow_gain;
            change->gain[1] += chance * blue_gain;
            double margin = yellow_gain - blue_gain;
            mean += chance * margin;
            square += chance * margin * margin;
        }
    change->variance += square - mean * mean;
}

static void round_dice(const mc_state *g, round_change *change)
{
    memset(change, 0, sizeof *change);
    int at[MC_COLUMNS][MC_SEATS]; /* the attempt of seat s on column c, or -1 */
    memset(at, -1, sizeof at);
    for (int i = 0; i < g->attempt_count; i++) at[g->attempts[i].column][g->attempts[i].seat] = i;
    for (int c = 0; c < MC_COLUMNS; c++) {
        const mc_attempt *y = at[c][0] >= 0 ? &g->attempts[at[c][0]] : NULL;
        const mc_attempt *b = at[c][1] >= 0 ? &g->attempts[at[c][1]] : NULL;
        if (y && b && !y->steal && mc_column_pieces(g, c) == 1) {
            add_conflict(change, y, b);
            continue;
        }
        /* Two steals on a last double-blank add up too: the targets
         * change hands. */
        if (y) add_attempt(change, y);
        if (b) add_attempt(change, b);
    }
}

/* ---- Steal potential -------------------------------------------------------------- */

int mice_cake_best_piece(uint32_t stash)
{
    int best = 0;
    for (; stash; stash &= stash - 1)
        if (mc_pips(__builtin_ctz(stash)) > best) best = mc_pips(__builtin_ctz(stash));
    return best;
}

/* Only a face-up double-blank counts: every seat knows its place (a
 * face-down one's differs between determinizations). */
bool mice_cake_double_blank(const mc_state *g, int *column, int distance[MC_SEATS])
{
    for (int c = 0; c < MC_COLUMNS; c++)
        for (int r = 0; r < MC_ROWS; r++) {
            if (g->grid[r][c] != MC_DOUBLE_BLANK || !g->up[r][c]) continue;
            distance[0] = distance[1] = 0;
            for (int i = 0; i < MC_ROWS; i++)
                if (g->grid[i][c] != MC_NO_PIECE && i != r) distance[i < r ? 0 : 1]++;
            *column = c;
            return true;
        }
    return false;
}

/* Each seat's expected steal potential after the round: a successful
 * steal ends it for both, a take in front of the double-blank brings the
 * taker a piece closer. */
static void add_steal_potential(const mc_state *g, double *worth)
{
    int column, distance[MC_SEATS];
    if (!mice_cake_double_blank(g, &column, distance)) return;
    double kept = 1.0, closer[MC_SEATS] = {0, 0};
    for (int i = 0; i < g->attempt_count; i++) {
        const mc_attempt *a = &g->attempts[i];
        if (a->column != column) continue;
        double success = mice_cake_attempt_odds(a->mice, a->piece)->success;
        if (a->steal) kept *= 1.0 - success;
        else closer[a->seat] = success;
    }
    for (int s = 0; s < MC_SEATS; s++) {
        int d = distance[s];
        double weight = closer[s] * STEAL_WEIGHT[d > 0 ? d - 1 : 0] + (1 - closer[s]) * STEAL_WEIGHT[d];
        worth[s] += kept * weight * mice_cake_best_piece(g->stash[1 - s]);
    }
}

/* ---- The leaf ----------------------------------------------------------------------- */

bool mice_cake_round_dice(const gateau_state *state, double gain[MC_SEATS], double *variance)
{
    const mc_state *g = GAME_STATE_CONST(mc_state, state);
    if (g->phase != MC_PHASE_ROLL || g->rolling || g->rolled) return false;
    round_change change;
    round_dice(g, &change);
    gain[0] = change.gain[0];
    gain[1] = change.gain[1];
    *variance = change.variance;
    return true;
}

bool mice_cake_round_values(const gateau_state *state, double share[], double score[])
{
    double gain[MC_SEATS], variance;
    if (!mice_cake_round_dice(state, gain, &variance)) return false;
    const mc_state *g = GAME_STATE_CONST(mc_state, state);
    double left = 0, squares = 0;
    for (int r = 0; r < MC_ROWS; r++)
        for (int c = 0; c < MC_COLUMNS; c++) {
            if (g->grid[r][c] == MC_NO_PIECE) continue;
            left += mc_pips(g->grid[r][c]);
            squares += mc_pips(g->grid[r][c]) * mc_pips(g->grid[r][c]);
        }
    for (int s = 0; s < MC_SEATS; s++)
        score[s] = mc_stash_pips(g->stash[s]) + gain[s] + left / 2;
    add_steal_potential(g, score);

    double sd = SPREAD_SLOPE * sqrt(squares) + SPREAD_BASE;
    double spread = sqrt(sd * sd + variance);
    share[0] = 0.5 * erfc(-(score[0] - score[1]) / (spread * sqrt(2.0)));
    share[1] = 1.0 - share[0];
    return true;
}
