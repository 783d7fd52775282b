/*
 * solver_piece_o_cake.c: exact play of piece o' Cake's last cake.
 *
 * Once the fifth cake of the last round is on the table nothing is hidden
 * that matters (the two set-aside slices never score), so what is left is
 * a finite game of perfect information: the cut, then one turn per seat
 * (four alternating turns with two players).  This file solves it by
 * complete search from any point of the last cake: mid-cut, at a choice,
 * or halfway through the slices of a take.
 *
 * What the players want:
 * - Two players: each maximises his final score minus the other's (so a
 *   win whenever there is one, then the biggest margin): a zero-sum game,
 *   searched by minimax with alpha-beta pruning.
 * - Three to five players: each maximises his own outcome, given that the
 *   later players do the same (max^n): first his share of the win (1 for
 *   a sole winner, 1/k in a k-way tie, else 0), then his final score.
 * - Ties between equal moves go to the move whose actions come first in
 *   action order (the lowest action id at the first difference), which is
 *   the same as choosing action by action, each time the lowest action
 *   whose best continuation is optimal.
 *
 * How it is kept small:
 * - Only the final counts matter, not which slice of a variety was eaten,
 *   so a take is searched once per split (per variety: how many eaten),
 *   written with the eaten slices of each variety first (the lowest of the
 *   equivalent action sequences): a piece of L slices of distinct
 *   varieties still has 2^L splits, one of 3 chocolates only 4.
 * - A cut (up to 1013 of them with five players) fixes the pieces; each is
 *   searched in turn.
 * - The search counts nodes and gives up past a limit, so callers can ask
 *   "solve this if it is cheap" (ismcts does, before searching; the
 *   search's rollouts ask it for the last choosing turns of the game).
 *
 * Solve times (bench/bench_bots.c --solver) are in docs/bots.md.
 */
#include <stdlib.h>
#include <string.h>

#include "bots/bots.h"
#include "games/piece_o_cake/piece_o_cake.h"

#define MAX_SPLITS 4096 /* splits of all pieces of one cut: at most 2^11 + 10 */
#define LEAF_TURNS 1     /* rollouts ask for exact values this many turns before the end */
#define LEAF_LIMIT 20000

typedef struct split {
    uint16_t collect_mask; /* bit (L-1-k): slice k collected, else eaten */
    int8_t points;         /* dollops eaten */
    uint8_t add[POC_VARIETIES];
} split;

typedef struct outcome {
    double share[GATEAU_MAX_PLAYERS];
    int score[GATEAU_MAX_PLAYERS];
} outcome;

typedef struct solver {
    int players, server, turns;
    int seat_of_turn[8];
    uint8_t slice[POC_CAKE_SIZE];
    /* The cut: pieces sorted by start. */
    int piece_count;
    uint8_t piece_start[POC_CAKE_SIZE], piece_length[POC_CAKE_SIZE];
    int split_first[POC_CAKE_SIZE + 1];
    split splits[MAX_SPLITS];
    /* The position. */
    uint8_t collected[GATEAU_MAX_PLAYERS][POC_VARIETIES];
    int points[GATEAU_MAX_PLAYERS];
    unsigned open; /* bit i: piece i still on the plate */
    /* Search. */
    long nodes, limit;
    bool aborted;
} solver;

/* ---- Positions ------------------------------------------------------------------- */

static void final_scores(const solver *S, int *score)
{
    for (int s = 0; s < S->players; s++) score[s] = S->points[s];
    for (int v = 0; v < POC_VARIETIES; v++) {
        int most = 0;
        for (int s = 0; s < S->players; s++)
            if (S->collected[s][v] > most) most = S->collected[s][v];
        if (!most) continue;
        for (int s = 0; s < S->players; s++)
            if (S->collected[s][v] == most) score[s] += POC_BONUS[v];
    }
}

static void final_outcome(const solver *S, outcome *out)
{
    final_scores(S, out->score);
    int best = out->score[0], count = 0;
    for (int s = 1; s < S->players; s++)
        if (out->score[s] > best) best = out->score[s];
    for (int s = 0; s < S->players; s++) count += out->score[s] == best;
    for (int s = 0; s < S->players; s++) out->share[s] = out->score[s] == best ? 1.0 / count : 0.0;
}

/* Is a better than b for seat s (share, then score)? */
static inline bool better_for(const outcome *a, const outcome *b, int s)
{
    if (a->share[s] > b->share[s] + 1e-9) return true;
    if (a->share[s] < b->share[s] - 1e-9) return false;
    return a->score[s] > b->score[s];
}

/* The splits of piece i, in action order: eaten (EAT < COLLECT) first. */
static void build_splits(solver *S, int i, int *used)
{
    int start = S->piece_start[i], length = S->piece_length[i];
    uint8_t variety[POC_CAKE_SIZE];
    for (int k = 0; k < length; k++) variety[k] = S->slice[(start - 1 + k) % POC_CAKE_SIZE];
    S->split_first[i] = *used;
    for (unsigned mask = 0; mask < (1u << length); mask++) {
        bool seen_collect[POC_VARIETIES] = {false}, canonical = true;
        split sp = {.collect_mask = (uint16_t)mask};
        for (int k = 0; k < length && canonical; k++) {
            int v = variety[k];
            if (mask & (1u << (length - 1 - k))) {
                seen_collect[v] = true;
                sp.add[v]++;
            } else if (seen_collect[v]) {
                canonical = false; /* an eat after a collect: not the lowest spelling */
            } else {
                sp.points = (int8_t)(sp.points + POC_DOLLOPS[v]);
            }
        }
        if (canonical) S->splits[(*used)++] = sp;
    }
    S->split_first[i + 1] = *used;
}

/* Pieces from cut boundaries (none: the whole cake), sorted by start;
 * their splits when `splits` (else build_splits later, per piece). */
static void set_cut(solver *S, const uint8_t *cut, int count, bool splits)
{
    int n = 0;
    if (count == 0) {
        S->piece_start[n] = 1;
        S->piece_length[n++] = POC_CAKE_SIZE;
    } else {
        for (int i = 0; i < count; i++) {
            int next = cut[(i + 1) % count];
            int length = (next - cut[i] + POC_CAKE_SIZE) % POC_CAKE_SIZE;
            S->piece_start[n] = (uint8_t)(cut[i] % POC_CAKE_SIZE + 1);
            S->piece_length[n++] = (uint8_t)(length ? length : POC_CAKE_SIZE);
        }
        /* The piece after the last boundary wraps to the front (or starts
         * at 1 when the last boundary is 11). */
        if (n > 1 && S->piece_start[n - 1] < S->piece_start[0]) {
            uint8_t start = S->piece_start[n - 1], length = S->piece_length[n - 1];
            memmove(S->piece_start + 1, S->piece_start, (size_t)(n - 1));
            memmove(S->piece_length + 1, S->piece_length, (size_t)(n - 1));
            S->piece_start[0] = start;
            S->piece_length[0] = length;
        }
    }
    S->piece_count = n;
    S->open = (1u << n) - 1;
    if (!splits) return;
    int used = 0;
    for (int i = 0; i < n; i++) build_splits(S, i, &used);
}

static inline void apply_split(solver *S, int seat, const split *sp, int sign)
{
    S->points[seat] += sign * sp->points;
    for (int v = 0; v < POC_VARIETIES; v++)
        S->collected[seat][v] = (uint8_t)(S->collected[seat][v] + sign * sp->add[v]);
}

static inline bool count_node(solver *S)
{
    if (S->limit && ++S->nodes > S->limit) S->aborted = true;
    return !S->aborted;
}

/* ---- The last turn of the game ---------------------------------------------------- */

/*
 * The last mover has nobody after him, so among the splits of a piece he
 * only needs, per variety, the fewest slices collected that leave him
 * below the best other holder, level with him, or ahead of him (0,
 * T - c, T - c + 1 for T the others' best count and c his own): within
 * each of those three classes the others' scores are the same and his own
 * is highest with the most eaten, so every other split is strictly worse
 * for him.  Ties between what is left still go to the lowest actions.
 */
typedef struct last_option {
    int take;  /* piece index, or -1 for a forfeit or pass */
    uint16_t mask;
} last_option;

static bool equal_for(const outcome *a, const outcome *b, int s)
{
    return !better_for(a, b, s) && !better_for(b, a, s);
}

/* Calls visit(S, seat, mask, piece, context) for every undominated split
 * of every open piece, in action order, the split applied during the
 * call, until a visit returns true (then true). */
static bool last_turn_splits(solver *S, int seat,
                             bool (*visit)(solver *, int, uint16_t, int, void *), void *context)
{
    for (int i = 0; i < S->piece_count; i++) {
        if (!(S->open & (1u << i))) continue;
        int start = S->piece_start[i], length = S->piece_length[i];
        uint8_t variety[POC_CAKE_SIZE];
        int k[POC_VARIETIES] = {0};
        for (int j = 0; j < length; j++) {
            variety[j] = S->slice[(start - 1 + j) % POC_CAKE_SIZE];
            k[variety[j]]++;
        }
        /* Per variety present: the collected counts worth trying, each
         * with its slices' bits in the collect mask (the last x slices of
         * the variety in the piece are collected, the first k - x eaten)
         * and its eaten points, so a combination is a few additions. */
        int present[POC_VARIETIES], present_count = 0;
        int options[POC_VARIETIES][3], option_count[POC_VARIETIES];
        uint16_t option_mask[POC_VARIETIES][3];
        int option_points[POC_VARIETIES][3];
        for (int v = 0; v < POC_VARIETIES; v++) {
            if (!k[v]) continue;
            int top = 0;
            for (int s = 0; s < S->players; s++)
                if (s != seat && S->collected[s][v] > top) top = S->collected[s][v];
            int mine = S->collected[seat][v], n = 0;
            int wanted[3] = {0, top - mine, top - mine + 1};
            for (int w = 0; w < 3; w++) {
                int x = wanted[w] < 0 ? 0 : wanted[w];
                if (x > k[v]) continue;
                bool seen = false;
                for (int o = 0; o < n; o++) seen |= options[v][o] == x;
                if (seen) continue;
                uint16_t mask = 0;
                for (int j = length - 1, left = x; j >= 0 && left > 0; j--) {
                    if (variety[j] != v) continue;
                    mask |= (uint16_t)(1u << (length - 1 - j));
                    left--;
                }
                options[v][n] = x;
                option_mask[v][n] = mask;
                option_points[v][n++] = (k[v] - x) * POC_DOLLOPS[v];
            }
            option_count[v] = n;
            present[present_count++] = v;
        }
        int choice[POC_VARIETIES] = {0};
        S->open &= ~(1u << i);
        for (;;) {
            uint16_t mask = 0;
            int points = 0;
            for (int p = 0; p < present_count; p++) {
                int v = present[p];
                mask |= option_mask[v][choice[p]];
                points += option_points[v][choice[p]];
            }
            S->points[seat] += points;
            for (int p = 0; p < present_count; p++) {
                int v = present[p];
                S->collected[seat][v] = (uint8_t)(S->collected[seat][v] + options[v][choice[p]]);
            }
            bool stop = visit(S, seat, mask, i, context);
            S->points[seat] -= points;
            for (int p = 0; p < present_count; p++) {
                int v = present[p];
                S->collected[seat][v] = (uint8_t)(S->collected[seat][v] - options[v][choice[p]]);
            }
            if (stop) {
                S->open |= 1u << i;
                return true;
            }
            /* Next combination (mixed radix). */
            int p = 0;
            while (p < present_count && ++choice[p] == option_count[present[p]]) choice[p++] = 0;
            if (p == present_count) break;
        }
        S->open |= 1u << i;
    }
    return false;
}

/* The last turn's scores, fast: the others' counts are fixed, so their
 * majorities are worked out once and only the mover's counts vary. */
typedef struct last_base {
    int seat;
    uint8_t others_best[POC_VARIETIES];
    uint8_t holders[POC_VARIETIES];     /* other seats with others_best (> 0) of it */
    int base[GATEAU_MAX_PLAYERS];       /* the others' scores, the mover left out */
} last_base;

static void last_base_init(const solver *S, int seat, last_base *lb)
{
    lb->seat = seat;
    for (int s = 0; s < S->players; s++) lb->base[s] = S->points[s];
    for (int v = 0; v < POC_VARIETIES; v++) {
        int best = 0;
        unsigned holders = 0;
        for (int s = 0; s < S->players; s++) {
            if (s == seat) continue;
            int c = S->collected[s][v];
            if (c > best) {
                best = c;
                holders = 1u << s;
            } else if (c == best && c > 0) {
                holders |= 1u << s;
            }
        }
        lb->others_best[v] = (uint8_t)best;
        lb->holders[v] = (uint8_t)holders;
        for (unsigned h = holders; h; h &= h - 1) lb->base[__builtin_ctz(h)] += POC_BONUS[v];
    }
}

static void last_outcome(const solver *S, const last_base *lb, outcome *out)
{
    int m = lb->seat;
    for (int s = 0; s < S->players; s++) out->score[s] = lb->base[s];
    out->score[m] = S->points[m];
    for (int v = 0; v < POC_VARIETIES; v++) {
        int c = S->collected[m][v], o = lb->others_best[v];
        if (!c) continue;
        if (c >= o) out->score[m] += POC_BONUS[v];
        if (c > o && o > 0)
            for (unsigned h = lb->holders[v]; h; h &= h - 1) out->score[__builtin_ctz(h)] -= POC_BONUS[v];
    }
    int best = out->score[0], count = 0;
    for (int s = 1; s < S->players; s++)
        if (out->score[s] > best) best = out->score[s];
    for (int s = 0; s < S->players; s++) count += out->score[s] == best;
    for (int s = 0; s < S->players; s++) out->share[s] = out->score[s] == best ? 1.0 / count : 0.0;
}

typedef struct last_best {
    outcome best;
    last_option option;
    double bound;
    bool have;
    last_base base;
} last_best;

/* Shallow pruning: the shares of a position add up to 1, so once the
 * mover is sure of more than 1 - bound (bound: what the previous mover
 * already has elsewhere), the previous mover will not come here. */
static inline bool cut_off(const outcome *best, int seat, double bound)
{
    return best->share[seat] > 1.0 - bound + 1e-9;
}

static bool visit_maxn(solver *S, int seat, uint16_t mask, int piece, void *context)
{
    last_best *b = context;
    outcome child;
    last_outcome(S, &b->base, &child);
    if (!b->have || better_for(&child, &b->best, seat) ||
        (b->option.take == piece && mask < b->option.mask && equal_for(&child, &b->best, seat))) {
        b->best = child;
        b->option = (last_option){piece, mask};
        b->have = true;
    }
    return cut_off(&b->best, seat, b->bound);
}

static void last_turn_maxn(solver *S, int seat, double bound, outcome *out)
{
    last_best b = {.have = false, .bound = bound};
    last_base_init(S, seat, &b.base);
    if (last_turn_splits(S, seat, visit_maxn, &b)) {
        *out = b.best;
        return;
    }
    outcome child;
    for (int v = 0; v < POC_VARIETIES; v++) {
        int mine = S->collected[seat][v];
        if (!mine) continue;
        S->collected[seat][v] = 0;
        S->points[seat] += mine * POC_DOLLOPS[v];
        last_outcome(S, &b.base, &child);
        S->points[seat] -= mine * POC_DOLLOPS[v];
        S->collected[seat][v] = (uint8_t)mine;
        if (!b.have || better_for(&child, &b.best, seat)) {
            b.best = child;
            b.have = true;
            b.option.take = -1;
            if (cut_off(&b.best, seat, bound)) {
                *out = b.best;
                return;
            }
        }
    }
    last_outcome(S, &b.base, &child); /* pass */
    if (!b.have || better_for(&child, &b.best, seat)) b.best = child;
    *out = b.best;
}

typedef struct last_margin {
    int best, scores[2];
    int alpha, beta;
    bool have, maximise;
    last_base base;
} last_margin;

static bool visit_margin(solver *S, int seat, uint16_t mask, int piece, void *context)
{
    (void)seat;
    (void)mask;
    (void)piece;
    last_margin *b = context;
    outcome out;
    last_outcome(S, &b->base, &out);
    int scores[2] = {out.score[0], out.score[1]};
    int value = scores[0] - scores[1];
    if (!b->have || (b->maximise ? value > b->best : value < b->best)) {
        b->best = value;
        b->scores[0] = scores[0];
        b->scores[1] = scores[1];
        b->have = true;
    }
    /* Alpha-beta: the mover already has more than the other side allows. */
    return b->maximise ? b->best >= b->beta : b->best <= b->alpha;
}

/* Seat 0's margin after the last mover's best reply (fail-soft within
 * alpha, beta). */
static int last_turn_margin(solver *S, int seat, int alpha, int beta, int *scores)
{
    last_margin b = {.have = false, .maximise = seat == 0, .alpha = alpha, .beta = beta};
    last_base_init(S, seat, &b.base);
    bool stop = last_turn_splits(S, seat, visit_margin, &b);
    for (int v = 0; v <= POC_VARIETIES && !stop; v++) {
        int mine = v < POC_VARIETIES ? S->collected[seat][v] : 0;
        if (v < POC_VARIETIES && !mine) continue;
        if (v < POC_VARIETIES) {
            S->collected[seat][v] = 0;
            S->points[seat] += mine * POC_DOLLOPS[v];
        }
        stop = visit_margin(S, seat, 0, -1, &b); /* a forfeit, then the pass */
        if (v < POC_VARIETIES) {
            S->points[seat] -= mine * POC_DOLLOPS[v];
            S->collected[seat][v] = (uint8_t)mine;
        }
    }
    scores[0] = b.scores[0];
    scores[1] = b.scores[1];
    return b.best;
}

/* ---- Three to five players: max^n ---------------------------------------------- */

/* The outcome of exact play from turn on; bound: the previous mover's
 * best share elsewhere (-1: none), for shallow pruning (then *out is only
 * known to be worse for that mover). */
static void maxn(solver *S, int turn, double bound, outcome *out)
{
    if (turn == S->turns || !count_node(S)) {
        final_outcome(S, out);
        return;
    }
    int seat = S->seat_of_turn[turn];
    if (turn == S->turns - 1) {
        last_turn_maxn(S, seat, bound, out);
        return;
    }
    bool have = false;
    outcome child;
#define CONSIDER()                                                   \
    do {                                                             \
        if (!have || better_for(&child, out, seat)) {                \
            *out = child;                                            \
            have = true;                                             \
        }                                                            \
    } while (0)
#define MINE (have ? out->share[seat] : -1.0)
    for (int i = 0; i < S->piece_count; i++) {
        if (!(S->open & (1u << i))) continue;
        S->open &= ~(1u << i);
        for (int k = S->split_first[i]; k < S->split_first[i + 1]; k++) {
            apply_split(S, seat, &S->splits[k], 1);
            maxn(S, turn + 1, MINE, &child);
            apply_split(S, seat, &S->splits[k], -1);
            CONSIDER();
            if (cut_off(out, seat, bound)) {
                S->open |= 1u << i;
                return;
            }
        }
        S->open |= 1u << i;
    }
    for (int v = 0; v < POC_VARIETIES; v++) {
        int mine = S->collected[seat][v];
        if (!mine) continue;
        S->collected[seat][v] = 0;
        S->points[seat] += mine * POC_DOLLOPS[v];
        maxn(S, turn + 1, MINE, &child);
        S->points[seat] -= mine * POC_DOLLOPS[v];
        S->collected[seat][v] = (uint8_t)mine;
        CONSIDER();
        if (cut_off(out, seat, bound)) return;
    }
    maxn(S, turn + 1, MINE, &child); /* pass */
    CONSIDER();
#undef CONSIDER
#undef MINE
}

/* ---- Two players: minimax on seat 0's margin ----------------------------------- */

/* Seat 0's final margin under best play from `turn`; *scores receives the
 * final scores of the line found (exact when the value lies strictly
 * inside (alpha, beta)). */
static int minimax(solver *S, int turn, int alpha, int beta, int *scores)
{
    if (turn == S->turns || !count_node(S)) {
        final_scores(S, scores);
        return scores[0] - scores[1];
    }
    int seat = S->seat_of_turn[turn];
    if (turn == S->turns - 1) return last_turn_margin(S, seat, alpha, beta, scores);
    bool maximise = seat == 0;
    int best = maximise ? -1000000 : 1000000;
    int child_scores[2];
#define CONSIDER(value)                                                           \
    do {                                                                          \
        int v_ = (value);                                                         \
        if (maximise ? v_ > best : v_ < best) {                                   \
            best = v_;                                                            \
            scores[0] = child_scores[0];                                          \
            scores[1] = child_scores[1];                                          \
        }                                                                         \
        if (maximise ? best > alpha : best < beta) {                              \
            if (maximise) alpha = best;                                           \
            else beta = best;                                                     \
        }                                                                         \
    } while (0)
    for (int i = 0; i < S->piece_count && alpha < beta; i++) {
        if (!(S->open & (1u << i))) continue;
        S->open &= ~(1u << i);
        for (int k = S->split_first[i]; k < S->split_first[i + 1] && alpha < beta; k++) {
            apply_split(S, seat, &S->splits[k], 1);
            int value = minimax(S, turn + 1, alpha, beta, child_scores);
            apply_split(S, seat, &S->splits[k], -1);
            CONSIDER(value);
        }
        S->open |= 1u << i;
    }
    for (int v = 0; v < POC_VARIETIES && alpha < beta; v++) {
        int mine = S->collected[seat][v];
        if (!mine) continue;
        S->collected[seat][v] = 0;
        S->points[seat] += mine * POC_DOLLOPS[v];
        int value = minimax(S, turn + 1, alpha, beta, child_scores);
        S->points[seat] -= mine * POC_DOLLOPS[v];
        S->collected[seat][v] = (uint8_t)mine;
        CONSIDER(value);
    }
    if (alpha < beta) CONSIDER(minimax(S, turn + 1, alpha, beta, child_scores));
#undef CONSIDER
    return best;
}

/* ---- The rest of the cake from a turn ------------------------------------------------ */

/* The outcome under exact play from turn on.  With two players, the
 * search is cut short where the mover (`seat`, about to compare this with
 * `bound`, an outcome it already has) cannot do better: *pruned tells. */
static void solve_from(solver *S, int turn, int seat, const outcome *bound, outcome *out,
                       bool *pruned)
{
    *pruned = false;
    if (S->players != 2) {
        maxn(S, turn, bound ? bound->share[seat] : -1.0, out);
        return;
    }
    int scores[2];
    int alpha = -1000000, beta = 1000000;
    if (bound) {
        int margin = bound->score[0] - bound->score[1];
        if (seat == 0) alpha = margin; /* seat 0 needs more than it has */
        else beta = margin;
    }
    int value = minimax(S, turn, alpha, beta, scores);
    if (value <= alpha || value >= beta) {
        *pruned = true; /* not better for the mover: no exact value needed */
        return;
    }
    out->score[0] = scores[0];
    out->score[1] = scores[1];
    out->share[0] = value > 0 ? 1.0 : value == 0 ? 0.5 : 0.0;
    out->share[1] = 1.0 - out->share[0];
}

/* Is a better for seat than b?  Two players: the margin. */
static bool preferred(const solver *S, const outcome *a, const outcome *b, int seat)
{
    if (S->players == 2) {
        int margin_a = a->score[seat] - a->score[1 - seat];
        int margin_b = b->score[seat] - b->score[1 - seat];
        return margin_a > margin_b;
    }
    return better_for(a, b, seat);
}

/* ---- From the game's state ------------------------------------------------------- */

static bool last_cake(const poc_state *g)
{
    return g->cake == POC_CAKES - 1 && g->round == g->rounds - 1 && poc_serving(g);
}

static void solver_init(solver *S, const poc_state *g, long limit)
{
    S->players = g->players;
    S->server = g->server;
    S->turns = poc_turns_per_cake(g->players);
    for (int t = 0; t < S->turns; t++) S->seat_of_turn[t] = (g->server + 1 + t) % g->players;
    memcpy(S->slice, poc_cake(g), sizeof S->slice);
    memcpy(S->collected, g->collected, sizeof S->collected);
    for (int s = 0; s < g->players; s++) {
        S->points[s] = g->banked[s];
        for (int v = 0; v < POC_VARIETIES; v++) S->points[s] += g->eaten[s][v] * POC_DOLLOPS[v];
    }
    S->nodes = 0;
    S->limit = limit;
    S->aborted = false;
}

/* The game's pieces (after the cut) with the taken ones closed, and the
 * splits of the open ones when `splits` (the last turn needs none: it
 * finds its few undominated splits itself, last_turn_splits). */
static void set_pieces_from(solver *S, const poc_state *g, bool splits)
{
    uint8_t cut[POC_CAKE_SIZE];
    int count = 0;
    if (g->piece_count > 1) {
        for (int i = 0; i < g->piece_count; i++)
            cut[count++] = (uint8_t)((g->pieces[i].start + g->pieces[i].length - 2) % POC_CAKE_SIZE + 1);
        /* Ascending boundaries. */
        for (int i = 1; i < count; i++)
            for (int j = i; j > 0 && cut[j] < cut[j - 1]; j--) {
                uint8_t swap = cut[j];
                cut[j] = cut[j - 1];
                cut[j - 1] = swap;
            }
    }
    set_cut(S, cut, count, false);
    for (int i = 0; i < S->piece_count; i++)
        for (int j = 0; j < g->piece_count; j++)
            if (g->pieces[j].start == S->piece_start[i] && g->pieces[j].taker >= 0)
                S->open &= ~(1u << i);
    if (!splits) return;
    /* Splits of the pieces still on the plate only. */
    int used = 0;
    for (int i = 0; i < S->piece_count; i++) {
        if (S->open & (1u << i)) {
            build_splits(S, i, &used);
        } else {
            S->split_first[i] = used;
            S->split_first[i + 1] = used;
        }
    }
}

/* A root candidate being collected: the best line per first action. */
typedef struct root {
    solver *S;
    int seat;
    bool all;             /* exact values for every first action, or only the best */
    bot_exact_candidate *candidates;
    int count;
    outcome best;         /* the best line so far, and its candidate */
    int best_index;
} root;

/* Offers a complete line (from the root) and its outcome to the root. */
static void offer(root *r, const gateau_action *line, int length, const outcome *value)
{
    bot_exact_candidate *c = r->count ? &r->candidates[r->count - 1] : NULL;
    if (!c || c->action != line[0]) {
        c = &r->candidates[r->count++];
        c->action = line[0];
        c->line_length = 0;
    } else {
        outcome old;
        memcpy(old.share, c->values.share, sizeof old.share);
        memcpy(old.score, c->values.score, sizeof old.score);
        if (!preferred(r->S, value, &old, r->seat)) return;
    }
    memcpy(c->line, line, sizeof(gateau_action) * (size_t)length);
    c->line_length = length;
    memcpy(c->values.share, value->share, sizeof value->share);
    memcpy(c->values.score, value->score, sizeof value->score);
    if (r->best_index < 0 || preferred(r->S, value, &r->best, r->seat)) {
        r->best = *value;
        r->best_index = (int)(c - r->candidates);
    }
}

/* The bound a new line of the root must beat: the best line so far when
 * only the best is wanted, else the candidate for the same first action
 * when there is one. */
static const outcome *bound_for(root *r, gateau_action first, outcome *storage)
{
    if (!r->all) return r->best_index >= 0 ? &r->best : NULL;
    if (!r->count || r->candidates[r->count - 1].action != first) return NULL;
    memcpy(storage->share, r->candidates[r->count - 1].values.share, sizeof storage->share);
    memcpy(storage->score, r->candidates[r->count - 1].values.score, sizeof storage->score);
    return storage;
}

static void evaluate_line(root *r, int turn, const gateau_action *line, int length)
{
    outcome value, storage;
    bool pruned;
    solve_from(r->S, turn, r->seat, bound_for(r, line[0], &storage), &value, &pruned);
    if (!pruned && !r->S->aborted) offer(r, line, length, &value);
}

/* Cuts extending cut[0..count), in action order. */
static void root_cuts(root *r, uint8_t *cut, int count, int base, int max_pieces)
{
    solver *S = r->S;
    if (S->aborted) return;
    bool can_add = count < max_pieces && (count == 0 || cut[count - 1] < POC_CAKE_SIZE);
    if (can_add) {
        int first = count ? cut[count - 1] + 1 : 1, last = count ? POC_CAKE_SIZE : POC_CAKE_SIZE - 1;
        for (int b = first; b <= last; b++) {
            cut[count] = (uint8_t)b;
            root_cuts(r, cut, count + 1, base, max_pieces);
        }
        if (count == 1) return;
    }
    gateau_action line[POC_CAKE_SIZE + 1];
    int length = 0;
    for (int i = base; i < count; i++) line[length++] = POC_CUT_AFTER + cut[i] - 1;
    if (can_add) line[length++] = POC_CUT_DONE;
    set_cut(S, cut, count, true);
    evaluate_line(r, 0, line, length);
}

/* The slices of piece i from slice `from` on, as split masks over them. */
static void root_slices(root *r, int seat, int piece_start, int piece_length, int from, int turn,
                        gateau_action *line, int length)
{
    solver *S = r->S;
    int rest = piece_length - from;
    uint8_t variety[POC_CAKE_SIZE];
    for (int k = 0; k < rest; k++) variety[k] = S->slice[(piece_start - 1 + from + k) % POC_CAKE_SIZE];
    for (unsigned mask = 0; mask < (1u << rest) && !S->aborted; mask++) {
        bool seen_collect[POC_VARIETIES] = {false}, canonical = true;
        split sp = {0};
        int n = length;
        for (int k = 0; k < rest && canonical; k++) {
            int v = variety[k];
            if (mask & (1u << (rest - 1 - k))) {
                seen_collect[v] = true;
                sp.add[v]++;
                line[n++] = POC_COLLECT_SLICE;
            } else if (seen_collect[v]) {
                canonical = false;
            } else {
                sp.points = (int8_t)(sp.points + POC_DOLLOPS[v]);
                line[n++] = POC_EAT_SLICE;
            }
        }
        if (!canonical) continue;
        apply_split(S, seat, &sp, 1);
        evaluate_line(r, turn, line, n);
        apply_split(S, seat, &sp, -1);
    }
}

static void root_choices(root *r, int seat, int turn)
{
    solver *S = r->S;
    gateau_action line[POC_CAKE_SIZE + 2];
    for (int i = 0; i < S->piece_count && !S->aborted; i++) {
        if (!(S->open & (1u << i))) continue;
        S->open &= ~(1u << i);
        line[0] = POC_TAKE + S->piece_start[i] - 1;
        root_slices(r, seat, S->piece_start[i], S->piece_length[i], 0, turn + 1, line, 1);
        S->open |= 1u << i;
    }
    for (int v = 0; v < POC_VARIETIES && !S->aborted; v++) {
        int mine = S->collected[seat][v];
        if (!mine) continue;
        S->collected[seat][v] = 0;
        S->points[seat] += mine * POC_DOLLOPS[v];
        line[0] = POC_FORFEIT_EAT + v;
        evaluate_line(r, turn + 1, line, 1);
        S->points[seat] -= mine * POC_DOLLOPS[v];
        S->collected[seat][v] = (uint8_t)mine;
    }
    if (!S->aborted) {
        line[0] = POC_PASS;
        evaluate_line(r, turn + 1, line, 1);
    }
}

bool piece_o_cake_solve(const gateau_state *state, int seat, long limit, bool all,
                        bot_exact_candidate *candidates, int *count, int *best);

bool piece_o_cake_solve(const gateau_state *state, int seat, long limit, bool all,
                        bot_exact_candidate *candidates, int *count, int *best)
{
    const poc_state *g = GAME_STATE_CONST(poc_state, state);
    if (!last_cake(g)) return false;
    /* Known to be out of reach: a whole cut takes some 0.3 (two players),
     * 0.5 (three), 10-20 (four) or hundreds (five) of millions of nodes;
     * do not start what the limit would stop anyway. */
    static const long cut_nodes[POC_MAX_PLAYERS + 1] = {0, 0, 1000000L, 2000000L, 50000000L,
                                                        500000000L};
    if (limit && g->phase == POC_PHASE_CUT && limit < cut_nodes[g->players]) return false;
    solver *S = malloc(sizeof *S);
    if (!S) abort();
    solver_init(S, g, limit);
    root r = {.S = S, .seat = seat, .all = all, .candidates = candidates, .best_index = -1};
    if (g->phase == POC_PHASE_CUT) {
        if (seat != g->server) goto fail;
        uint8_t cut[POC_CAKE_SIZE];
        memcpy(cut, g->cut, sizeof cut);
        root_cuts(&r, cut, g->cut_count, g->cut_count, poc_max_pieces(g->players));
    } else {
        if (seat != g->chooser) goto fail;
        set_pieces_from(S, g, true);
        int turn = g->turn - 1; /* the chooser's turn */
        if (g->phase == POC_PHASE_CHOOSE) {
            root_choices(&r, seat, turn);
        } else {
            gateau_action line[POC_CAKE_SIZE];
            int start = g->pieces[g->taking].start, length = g->pieces[g->taking].length;
            root_slices(&r, seat, start, length, g->next_slice, turn + 1, line, 0);
        }
    }
    if (S->aborted || r.count == 0) goto fail;
    int chosen = r.best_index;
    *count = r.count;
    *best = chosen;
    free(S);
    return true;
fail:
    free(S);
    return false;
}

/* ---- Inside a search ------------------------------------------------------------------ */

bool piece_o_cake_leaf_values(const gateau_state *state, bot_values *values);

bool piece_o_cake_leaf_values(const gateau_state *state, bot_values *values)
{
    const poc_state *g = GAME_STATE_CONST(poc_state, state);
    if (g->phase != POC_PHASE_CHOOSE || !last_cake(g) ||
        poc_turns_per_cake(g->players) - (g->turn - 1) > LEAF_TURNS)
        return false;
    solver S;
    solver_init(&S, g, LEAF_LIMIT);
    set_pieces_from(&S, g, LEAF_TURNS > 1); /* the last turn needs no splits */
    outcome out;
    bool pruned;
    solve_from(&S, g->turn - 1, g->chooser, NULL, &out, &pruned);
    if (S.aborted) return false;
    memcpy(values->score, out.score, sizeof values->score);
    memcpy(values->share, out.share, sizeof values->share);
    return true;
}
