/*
 * heuristic_piece_o_cake.c: a rule-of-thumb piece o' Cake player, and a
 * cheaper one for search rollouts.
 *
 * The heuristic values a position for each seat as its eaten points plus,
 * per variety, the bonus times a guess at the chance of ending with (a
 * share of) the majority: a logistic curve in the seat's lead over the
 * best other collector, flattened by how many slices of that variety may
 * still come (the unserved cakes, in proportion, and the pieces still on
 * the plate).  A decision is worth the change it makes to the mover's
 * value minus the average change to the others' (in a two-player game,
 * minus the opponent's change): majorities taken away count as much as
 * majorities won.
 *
 * - Choosing: for every remaining piece, the best split into eaten and
 *   collected slices (per variety: how many to collect, the rest eaten,
 *   each variety on its own), against every forfeit and a pass; the best
 *   wins, ties going to the lowest action (takes, then forfeits, then
 *   pass).  Slices are then decided one by one to carry out that split,
 *   collecting first, so asked again halfway the player finishes the same
 *   plan.  Forfeiting comes naturally when a variety's majority looks lost
 *   and its slices are worth more eaten than anything on the plate.
 * - Cutting: every cut (up to 1013) is tried by predicting the choosers:
 *   each in turn takes the piece he values most (as above, judged on the
 *   whole cake) unless a forfeit or pass looks better to him, and the
 *   server gets his best of what they leave.  The cut's worth is the
 *   server's gain minus the average of the others' gains; the server
 *   makes the best cut, the lowest in action order on a tie.
 *
 * All of it depends only on public information (the cake, the counts, the
 * number of unseen slices of each variety), never on the unserved order,
 * so it never profits from a determinization.  A few microseconds a
 * decision on average (a cut, which tries every cut, some tens).
 *
 * The rollout policy is far cheaper (no logistic): cuts are random, a
 * chooser takes the piece with the most immediate worth, collecting a
 * slice when that keeps or makes him a (tied) majority holder and eating
 * it otherwise, and forfeits a variety that another seat leads by 3 or
 * more when that beats every piece.
 */
#include <math.h>
#include <string.h>

#include "bots/bots.h"
#include "games/piece_o_cake/piece_o_cake.h"

typedef struct eval {
    const poc_state *g;
    const uint8_t *slice;         /* the cake, position p at [p - 1] */
    int players;
    double lambda;                /* weight of the others' average change */
    double later[POC_VARIETIES];  /* slices of the later cakes, in proportion */
    int open[POC_VARIETIES];      /* slices on the plate (this cake's open pieces) */
} eval;

static void eval_init(eval *e, const poc_state *g, bool whole_cake_open)
{
    e->g = g;
    e->slice = poc_cake(g);
    e->players = g->players;
    e->lambda = g->players == 2 ? 1.0 : 1.0 / (g->players - 1);
    /* Unseen slices: the later cakes of this round plus 2 set aside. */
    int later = POC_CAKE_SIZE * (POC_CAKES - 1 - g->cake);
    double fraction = later > 0 ? (double)later / (later + 2) : 0.0;
    uint8_t unseen[POC_VARIETIES];
    poc_unseen(g, unseen);
    for (int v = 0; v < POC_VARIETIES; v++) {
        e->later[v] = unseen[v] * fraction;
        e->open[v] = 0;
    }
    if (whole_cake_open) {
        for (int p = 0; p < POC_CAKE_SIZE; p++) e->open[e->slice[p]]++;
    } else {
        for (int i = 0; i < g->piece_count; i++) {
            if (g->pieces[i].taker >= 0) continue;
            for (int k = 0; k < g->pieces[i].length; k++)
                e->open[e->slice[(g->pieces[i].start - 1 + k) % POC_CAKE_SIZE]]++;
        }
    }
}

/* Slices of v still to come when `gone` of the open ones are taken.  (The
 * integer part stays exact, so the same position always gives the same
 * number, whichever way it is reached.) */
static double supply(const eval *e, int v, int gone) { return e->later[v] + (e->open[v] - gone); }

/* The guessed chance that `mine` slices end as (a share of) the majority. */
static double majority_chance(int mine, int best_other, double supply)
{
    if (mine <= 0) return 0.0;
    int lead = mine - best_other;
    if (supply < 0.05) return lead >= 0 ? 1.0 : 0.0;
    double z = (lead + 0.5) / (0.5 + sqrt(0.5 * supply));
    return 1.0 / (1.0 + exp(-1.7 * z));
}

/* Mover m's weighted worth of variety v's majority when m holds `mine` of
 * it: m's chance minus lambda times the others' chances, times the bonus. */
static double variety_worth(const eval *e, int m, int v, int mine, double supply)
{
    const poc_state *g = e->g;
    int counts[GATEAU_MAX_PLAYERS];
    for (int s = 0; s < e->players; s++) counts[s] = s == m ? mine : g->collected[s][v];
    double total = 0.0;
    for (int s = 0; s < e->players; s++) {
        if (!counts[s]) continue;
        int best_other = 0;
        for (int o = 0; o < e->players; o++)
            if (o != s && counts[o] > best_other) best_other = counts[o];
        double chance = majority_chance(counts[s], best_other, supply);
        total += (s == m ? 1.0 : -e->lambda) * chance;
    }
    return total * POC_BONUS[v];
}

/* Taking k slices of variety v: the best number to collect (the smallest
 * among the best) and the gain, relative to not taking them; gone_before
 * and gone_after: the open slices of v no longer to come before and after
 * (see supply). */
static double best_split(const eval *e, int m, int v, int k, int gone_before, int gone_after,
                         int *collect)
{
    int base = e->g->collected[m][v];
    double before = variety_worth(e, m, v, base, supply(e, v, gone_before));
    double after = supply(e, v, gone_after);
    double best = -1e300;
    for (int x = 0; x <= k; x++) {
        double value = variety_worth(e, m, v, base + x, after) + POC_DOLLOPS[v] * (k - x);
        if (value > best + 1e-12) {
            best = value;
            if (collect) *collect = x;
        }
    }
    return best - before;
}

/* The slices of a piece per variety. */
static void piece_counts(const poc_state *g, int start, int length, int counts[POC_VARIETIES])
{
    const uint8_t *slice = poc_cake(g);
    memset(counts, 0, sizeof(int) * POC_VARIETIES);
    for (int k = 0; k < length; k++) counts[slice[(start - 1 + k) % POC_CAKE_SIZE]]++;
}

static double take_gain(const eval *e, int m, const int counts[POC_VARIETIES])
{
    double gain = 0.0;
    for (int v = 0; v < POC_VARIETIES; v++)
        if (counts[v])
            gain += best_split(e, m, v, counts[v], 0, counts[v], NULL);
    return gain;
}

static double forfeit_gain(const eval *e, int m, int v)
{
    int mine = e->g->collected[m][v];
    return variety_worth(e, m, v, 0, supply(e, v, 0)) + POC_DOLLOPS[v] * mine -
           variety_worth(e, m, v, mine, supply(e, v, 0));
}

/* ---- Choosing ------------------------------------------------------------------ */

static gateau_action choose(const poc_state *g)
{
    eval e;
    eval_init(&e, g, false);
    int m = g->chooser;
    gateau_action best_action = POC_PASS;
    double best = 0.0;
    bool have = false;
    /* In action order: takes by start, forfeits by variety, pass. */
    for (int start = 1; start <= POC_CAKE_SIZE; start++) {
        for (int i = 0; i < g->piece_count; i++) {
            if (g->pieces[i].taker >= 0 || g->pieces[i].start != start) continue;
            int counts[POC_VARIETIES];
            piece_counts(g, start, g->pieces[i].length, counts);
            double gain = take_gain(&e, m, counts);
            if (!have || gain > best + 1e-12) {
                best = gain;
                best_action = POC_TAKE + start - 1;
                have = true;
            }
        }
    }
    for (int v = 0; v < POC_VARIETIES; v++) {
        if (!g->collected[m][v]) continue;
        double gain = forfeit_gain(&e, m, v);
        if (!have || gain > best + 1e-12) {
            best = gain;
            best_action = POC_FORFEIT_EAT + v;
            have = true;
        }
    }
    if (have && 0.0 > best + 1e-12) best_action = POC_PASS;
    return best_action;
}

/* The next slice of the piece being taken: collect while the plan for its
 * variety still wants more collected. */
static gateau_action decide_slice(const poc_state *g)
{
    eval e;
    eval_init(&e, g, false); /* the piece is taken: no longer on the plate */
    int m = g->chooser;
    int length = g->pieces[g->taking].length;
    int counts[POC_VARIETIES] = {0};
    for (int k = g->next_slice; k < length; k++)
        counts[e.slice[(g->pieces[g->taking].start - 1 + k) % POC_CAKE_SIZE]]++;
    int v = poc_cake_slice(g, g->next_position);
    /* The same split as when the piece was chosen, for what is left of it:
     * the piece is off the plate now, its decided slices counted. */
    int collect = 0;
    best_split(&e, m, v, counts[v], -counts[v], 0, &collect);
    return collect > 0 ? POC_COLLECT_SLICE : POC_EAT_SLICE;
}

/* ---- Cutting ------------------------------------------------------------------- */

typedef struct cut_search {
    const poc_state *g;
    int players, max_pieces, turns;
    int order[8];                            /* choosing turns: seat */
    double worth[GATEAU_MAX_PLAYERS][POC_CAKE_SIZE + 1][POC_CAKE_SIZE + 1]; /* [seat][start][length] */
    double fallback[GATEAU_MAX_PLAYERS];     /* best of forfeits and pass */
    double lambda;
    int server;
    uint8_t cut[POC_CAKE_SIZE];
    uint8_t best_cut[POC_CAKE_SIZE];
    int best_count;
    double best_value;
    bool have_best;
} cut_search;

static void prepare_cut(cut_search *c, const poc_state *g)
{
    eval e;
    eval_init(&e, g, true);
    c->g = g;
    c->players = g->players;
    c->max_pieces = poc_max_pieces(g->players);
    c->turns = poc_turns_per_cake(g->players);
    c->server = g->server;
    c->lambda = e.lambda;
    for (int t = 0; t < c->turns; t++) c->order[t] = (g->server + 1 + t) % g->players;
    /* Per seat, per variety and count: the best split's gain. */
    int cake_counts[POC_VARIETIES];
    piece_counts(g, 1, POC_CAKE_SIZE, cake_counts);
    for (int s = 0; s < c->players; s++) {
        double split[POC_VARIETIES][POC_CAKE_SIZE + 1];
        for (int v = 0; v < POC_VARIETIES; v++)
            for (int k = 1; k <= cake_counts[v]; k++)
                split[v][k] = best_split(&e, s, v, k, 0, k, NULL);
        for (int start = 1; start <= POC_CAKE_SIZE; start++) {
            for (int length = 1; length <= POC_CAKE_SIZE; length++) {
                if (length == POC_CAKE_SIZE && start != 1) continue;
                int counts[POC_VARIETIES];
                piece_counts(g, start, length, counts);
                double worth = 0.0;
                for (int v = 0; v < POC_VARIETIES; v++)
                    if (counts[v]) worth += split[v][counts[v]];
                c->worth[s][start][length] = worth;
            }
        }
        double fallback = 0.0;
        for (int v = 0; v < POC_VARIETIES; v++) {
            if (!g->collected[s][v]) continue;
            double gain = forfeit_gain(&e, s, v);
            if (gain > fallback) fallback = gain;
        }
        c->fallback[s] = fallback;
    }
}

typedef struct cut_piece {
    int start, length;
    bool open;
} cut_piece;

/* The server's worth of a finished cut with `count` boundaries. */
static double cut_worth(const cut_search *c, int count)
{
    cut_piece pieces[POC_CAKE_SIZE];
    int piece_count = 0;
    if (count == 0) {
        pieces[piece_count++] = (cut_piece){1, POC_CAKE_SIZE, true};
    } else {
        for (int i = 0; i < count; i++) {
            int start = c->cut[i] % POC_CAKE_SIZE + 1;
            int end = c->cut[(i + 1) % count];
            int length = (end - c->cut[i] + POC_CAKE_SIZE) % POC_CAKE_SIZE;
            if (length == 0) length = POC_CAKE_SIZE;
            pieces[piece_count++] = (cut_piece){start, length, true};
        }
    }
    double total = 0.0;
    for (int t = 0; t < c->turns; t++) {
        int s = c->order[t];
        int best = -1;
        double best_worth = 0.0;
        for (int i = 0; i < piece_count; i++) {
            if (!pieces[i].open) continue;
            double worth = c->worth[s][pieces[i].start][pieces[i].length];
            if (best < 0 || worth > best_worth + 1e-12) {
                best = i;
                best_worth = worth;
            }
        }
        if (best >= 0 && best_worth + 1e-12 >= c->fallback[s]) pieces[best].open = false;
        else best_worth = c->fallback[s];
        total += (s == c->server ? 1.0 : -c->lambda) * best_worth;
    }
    return total;
}

static void consider(cut_search *c, int count)
{
    double value = cut_worth(c, count);
    if (!c->have_best || value > c->best_value + 1e-12) {
        c->have_best = true;
        c->best_value = value;
        c->best_count = count;
        memcpy(c->best_cut, c->cut, sizeof c->cut);
    }
}

/* Cuts extending cut[0..count) in action order: each next boundary
 * ascending, then "done". */
static void enumerate_cuts(cut_search *c, int count)
{
    bool can_add = count < c->max_pieces && (count == 0 || c->cut[count - 1] < POC_CAKE_SIZE);
    if (can_add) {
        int first = count ? c->cut[count - 1] + 1 : 1;
        int last = count ? POC_CAKE_SIZE : POC_CAKE_SIZE - 1;
        for (int b = first; b <= last; b++) {
            c->cut[count] = (uint8_t)b;
            enumerate_cuts(c, count + 1);
        }
        if (count != 1) consider(c, count); /* "done" */
    } else {
        consider(c, count); /* the cut ends by itself */
    }
}

static gateau_action cut(const poc_state *g)
{
    cut_search c;
    prepare_cut(&c, g);
    c.have_best = false;
    memcpy(c.cut, g->cut, sizeof c.cut);
    enumerate_cuts(&c, g->cut_count);
    if (c.best_count > g->cut_count) return POC_CUT_AFTER + c.best_cut[g->cut_count] - 1;
    return POC_CUT_DONE;
}

static gateau_action poc_heuristic(const gateau_state *state, int seat, gateau_rng *rng)
{
    const poc_state *g = GAME_STATE_CONST(poc_state, state);
    switch (g->phase) {
    case POC_PHASE_CUT: return cut(g);
    case POC_PHASE_CHOOSE: return choose(g);
    case POC_PHASE_SLICES: return decide_slice(g);
    default: return bot_random_policy(state, seat, rng);
    }
}

/* ---- The rollout policy ------------------------------------------------------------ */

/*
 * The search's rollouts play as the heuristic does (poc_heuristic above),
 * but cut cheaply: the heuristic's cut tries every cut (up to 1013)
 * against predicted choosers, far too dear for every cake of every
 * rollout.  How the choosers play is what the
 * search's values hang on: rollouts with a cruder chooser (each slice
 * worth a fixed amount) won 0.44 with 3 players where these win 0.55
 * (docs/bots.md, Issue 29).
 *
 * The rollout cut judges candidates by a slice rule, in half points: a
 * slice is collected when that keeps or makes its seat a (tied) majority
 * holder without a lead of more than 2, and is then worth half the bonus;
 * otherwise it is eaten, worth its dollops.
 */
typedef uint8_t counts_table[GATEAU_MAX_PLAYERS][POC_VARIETIES];

/* Per variety: the most slices any seat has collected, one seat with that
 * many, and the most of all the other seats (equal to the first on a
 * tie).  The best other holder for seat s is then one lookup, instead of
 * a pass over the seats per seat. */
typedef struct top_two {
    int most[POC_VARIETIES], holder[POC_VARIETIES], runner_up[POC_VARIETIES];
} top_two;

static void top_collectors(const counts_table collected, int players, top_two *top)
{
    for (int v = 0; v < POC_VARIETIES; v++) {
        int most = -1, holder = 0, runner_up = 0;
        for (int s = 0; s < players; s++) {
            int c = collected[s][v];
            if (c > most) {
                runner_up = most < 0 ? 0 : most;
                most = c;
                holder = s;
            } else if (c > runner_up) {
                runner_up = c;
            }
        }
        top->most[v] = most;
        top->holder[v] = holder;
        top->runner_up[v] = runner_up;
    }
}

static inline int best_other_of(const top_two *top, int s, int v)
{
    return s == top->holder[v] ? top->runner_up[v] : top->most[v];
}

static inline int rollout_worth(int mine, int best_other, int v)
{
    bool collect = mine + 1 >= best_other && mine + 1 <= best_other + 2;
    return collect ? POC_BONUS[v] : 2 * POC_DOLLOPS[v];
}

typedef struct near_cut {
    int count;                       /* pieces */
    uint8_t cut[POC_CAKE_SIZE];      /* boundaries, ascending */
    uint8_t start[POC_CAKE_SIZE], length[POC_CAKE_SIZE];
} near_cut;

/* The near-equal cut into `pieces` pieces whose odd-sized piece starts
 * after position `offset` (0..10). */
static void near_cut_at(int pieces, int offset, near_cut *c)
{
    int small = POC_CAKE_SIZE / pieces, odd = POC_CAKE_SIZE % pieces == 1 ? small + 1 : small;
    c->count = pieces;
    int position = offset;
    for (int i = 0; i < pieces; i++) {
        c->start[i] = (uint8_t)(position + 1);
        c->length[i] = (uint8_t)(i == 0 ? odd : (odd == small ? small + 1 : small));
        position = (position + c->length[i]) % POC_CAKE_SIZE;
        c->cut[i] = (uint8_t)(position ? position : POC_CAKE_SIZE); /* after the piece */
    }
    for (int i = 1; i < pieces; i++)
        for (int j = i; j > 0 && c->cut[j] < c->cut[j - 1]; j--) {
            uint8_t swap = c->cut[j];
            c->cut[j] = c->cut[j - 1];
            c->cut[j - 1] = swap;
        }
}

/*
 * The rollout cut: into the most pieces there may be, of near-equal sizes
 * (11 such cuts, one per position of the odd-sized piece), the one that
 * does best for the server when every chooser greedily takes the piece
 * with the most worth by the slice rule; among those that extend
 * prefix[0..base).  false if none does.
 */
static bool rollout_cut_plan(int players, const counts_table collected, const uint8_t *slice,
                             int server, int turns, int pieces, const uint8_t *prefix, int base,
                             near_cut *out)
{
    /* The offsets of the candidates that extend the prefix. */
    int offsets[POC_CAKE_SIZE], count = 0;
    for (int offset = 0; offset < POC_CAKE_SIZE; offset++) {
        bool extends = true;
        if (base > 0) {
            near_cut c;
            near_cut_at(pieces, offset, &c);
            for (int i = 0; i < base && extends; i++) extends = c.cut[i] == prefix[i];
        }
        if (extends) offsets[count++] = offset;
    }
    if (count == 0) return false;
    near_cut candidates[POC_CAKE_SIZE];
    for (int c = 0; c < count; c++) near_cut_at(pieces, offsets[c], &candidates[c]);
    if (count == 1) {
        *out = candidates[0];
        return true;
    }
    /* prefix_worth[s][i]: seat s's worth of positions 1..i of the doubled ring. */
    int prefix_worth[GATEAU_MAX_PLAYERS][2 * POC_CAKE_SIZE + 1];
    top_two top;
    top_collectors(collected, players, &top);
    for (int s = 0; s < players; s++) {
        int worth[POC_VARIETIES];
        for (int v = 0; v < POC_VARIETIES; v++)
            worth[v] = rollout_worth(collected[s][v], best_other_of(&top, s, v), v);
        prefix_worth[s][0] = 0;
        for (int i = 0; i < POC_CAKE_SIZE; i++)
            prefix_worth[s][i + 1] = prefix_worth[s][i] + worth[slice[i]];
        for (int i = POC_CAKE_SIZE; i < 2 * POC_CAKE_SIZE; i++) /* the ring again */
            prefix_worth[s][i + 1] = prefix_worth[s][POC_CAKE_SIZE] + prefix_worth[s][i + 1 - POC_CAKE_SIZE];
    }
    int best_value = 0, chosen = -1;
    for (int c = 0; c < count; c++) {
        const near_cut *n = &candidates[c];
        bool open[POC_CAKE_SIZE];
        for (int i = 0; i < pieces; i++) open[i] = true;
        int value = 0;
        for (int t = 0; t < turns; t++) {
            int s = (server + 1 + t) % players, best = -1, best_worth = 0;
            for (int i = 0; i < pieces; i++) {
                if (!open[i]) continue;
                int worth = prefix_worth[s][n->start[i] - 1 + n->length[i]] - prefix_worth[s][n->start[i] - 1];
                if (best < 0 || worth > best_worth) {
                    best = i;
                    best_worth = worth;
                }
            }
            if (best < 0) break;
            open[best] = false;
            value += s == server ? (players - 1) * best_worth : -best_worth;
        }
        if (chosen < 0 || value > best_value) {
            best_value = value;
            chosen = c;
        }
    }
    *out = candidates[chosen];
    return true;
}

static gateau_action poc_rollout(const gateau_state *state, int seat, gateau_rng *rng)
{
    const poc_state *g = GAME_STATE_CONST(poc_state, state);
    if (g->phase != POC_PHASE_CUT) return poc_heuristic(state, seat, rng);
    int base = g->cut_count;
    if (base > 0 && (base == poc_max_pieces(g->players) || g->cut[base - 1] == POC_CAKE_SIZE))
        return POC_CUT_DONE;
    near_cut plan;
    if (rollout_cut_plan(g->players, (const uint8_t(*)[POC_VARIETIES])g->collected, poc_cake(g),
                         g->server, poc_turns_per_cake(g->players), poc_max_pieces(g->players),
                         g->cut, base, &plan))
        return POC_CUT_AFTER + plan.cut[base] - 1;
    return bot_random_policy(state, seat, rng);
}

/* ---- Registration (see heuristic.c) ------------------------------------------------- */

bool piece_o_cake_leaf_values(const gateau_state *state, bot_values *values);
bool piece_o_cake_solve(const gateau_state *state, int seat, long limit, bool all,
                        bot_exact_candidate *candidates, int *count, int *best);

const bot_game piece_o_cake_bots = {
    /* Rollouts that choose as the heuristic does cost about five times
     * the old cruder ones, and gain nothing from more than a few thousand
     * iterations (2,000 and 5,000 alike); less exploration than the
     * general 0.7 did better with either rollout (docs/bots.md, Issue 29). */
    .search = {.iterations = 3000, .exploration = 0.4},
    .heuristic = poc_heuristic,
    .rollout = poc_rollout,
    .leaf_values = piece_o_cake_leaf_values,
    .solve = piece_o_cake_solve,
};
