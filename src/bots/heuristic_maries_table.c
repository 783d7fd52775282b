/*
 * heuristic_maries_table.c: a rule-of-thumb Marie's Table player.
 *
 * Everything is judged by one valuation of a seat's kept cards: per value,
 * the scoring table (1 card -3, 2 -1, 3 +1, 4 +3, 5 +5, 6 +6, 7 +7, 8 +8),
 * softened while rounds remain for the sets that can still grow (a single
 * counts -1.5 and a pair 0 when two or more rounds are to come, halfway
 * with one), plus 1 per eaten card.  An eat still in hand is worth
 * keeping for later: 1.5 points while rounds remain, nothing in the last.
 *
 * - Draft: keep the two cards that raise the valuation most (sets first).
 * - Keep or eat: of the legal choices, the best valuation after it, minus
 *   the eats it spends; so a card that would stay a lonely -3 is eaten.
 * - Take (pairs change hands): the pair that is best for the seat after
 *   its own keep-or-eat choice.
 * - Vote: the taking is played out in the head: youngest first, each
 *   brother takes the pair best for him by the same valuation (never his
 *   own, the eldest's last one excepted).  The seat votes down when the
 *   pair it would end with then is worth more to it than its own pair.
 *
 * It reads the determinized state through maries_table.h, but only what
 * the seat's view shows (read_table()): the kept and eaten cards, the
 * order of the brothers, the hand it was passed and its own keep begun,
 * and this round's pairs and takes once revealed; never the others' pairs
 * during a draft, the decks to come or the votes not yet revealed, the
 * parts of the state its determinization made up.
 */
#include <string.h>

#include "bots/bots.h"
#include "games/maries_table/maries_table.h"

/* What the seat knows of the table: all the plan uses. */
typedef struct known_table {
    int players, rounds_left; /* rounds after this one */
    int kept[MT_MAX_SEATS][MT_VALUES + 1];
    int eats_left[MT_MAX_SEATS];
    int pair[MT_MAX_SEATS][2];  /* this round's revealed pairs (0: unknown) */
    int took[MT_MAX_SEATS];     /* whose pair each seat took (-1: none yet) */
    int brothers[MT_MAX_SEATS]; /* eldest first */
} known_table;

static void read_table(const mt_state *g, known_table *v)
{
    memset(v, 0, sizeof *v);
    v->players = g->players;
    v->rounds_left = mt_decks_to_come(g);
    for (int s = 0; s < g->players; s++) {
        for (int x = 1; x <= MT_VALUES; x++) v->kept[s][x] = g->kept[s][x];
        v->eats_left[s] = mt_eats_left(g, s);
        v->took[s] = -1;
        v->brothers[s] = mt_seat_at(g, s);
    }
    if (mt_revealed_rounds(g) <= g->round) return; /* still drafting */
    for (int s = 0; s < g->players; s++) {
        v->pair[s][0] = g->pair[g->round][s][0];
        v->pair[s][1] = g->pair[g->round][s][1];
        v->took[s] = g->took[g->round][s];
    }
}

static double set_value(int k, int rounds_left)
{
    if (k > MT_COPIES) k = MT_COPIES;
    double value = MT_KEPT_POINTS[k];
    double soften = rounds_left >= 2 ? 1.0 : rounds_left == 1 ? 0.5 : 0.0;
    if (k == 1) value += 1.5 * soften;
    if (k == 2) value += 1.0 * soften;
    return value;
}

static double eat_reserve(int rounds_left) { return rounds_left > 0 ? 1.5 : 0.0; }

/* Seat's gain from adding cards a and b (0: none) kept, e eaten. */
static double keep_gain(const known_table *v, int seat, const int *add, int count, int eat)
{
    int k[MT_VALUES + 1];
    memcpy(k, v->kept[seat], sizeof k);
    double before = 0, after = 0;
    for (int x = 1; x <= MT_VALUES; x++) before += set_value(k[x], v->rounds_left);
    for (int i = 0; i < count; i++) k[add[i]]++;
    for (int x = 1; x <= MT_VALUES; x++) after += set_value(k[x], v->rounds_left);
    return after - before + eat * (1.0 - eat_reserve(v->rounds_left));
}

/* The best keep-or-eat of a pair for seat: its gain (and how, in eat_out:
 * 0, 1 (the first value), 2 (the second), 3 (both)). */
static double best_with_pair(const known_table *v, int seat, const int *pair, int *eat_out)
{
    int allowed = v->eats_left[seat];
    double best = keep_gain(v, seat, pair, 2, 0);
    int how = 0;
    if (allowed >= 1) {
        for (int i = 0; i < 2; i++) {
            double g = keep_gain(v, seat, &pair[1 - i], 1, 1);
            if (g > best + 1e-12) {
                best = g;
                how = 1 + i;
            }
        }
    }
    if (allowed >= 2) {
        double g = keep_gain(v, seat, pair, 0, 2);
        if (g > best + 1e-12) {
            best = g;
            how = 3;
        }
    }
    if (eat_out) *eat_out = how;
    return best;
}

/* The pair seat ends with if the pairs change hands: youngest first, each
 * takes the best for him that is not his own (the last may be left his). */
static int pair_after_swap(const known_table *v, int seat)
{
    bool gone[MT_MAX_SEATS] = {false};
    for (int i = v->players - 1; i >= 0; i--) {
        int s = v->brothers[i], best = -1;
        double best_gain = 0;
        for (int p = 0; p < v->players; p++) {
            if (gone[p] || p == s) continue;
            double g = best_with_pair(v, s, v->pair[p], NULL);
            if (best < 0 || g > best_gain + 1e-12) {
                best = p;
                best_gain = g;
            }
        }
        if (best < 0) best = s; /* only his own is left */
        gone[best] = true;
        if (s == seat) return best;
    }
    return seat;
}

/* action if seat may play it now, else -1. */
static gateau_action if_legal(const gateau_state *state, int seat, gateau_action action)
{
    gateau_action actions[GATEAU_MAX_ACTIONS];
    int count = gateau_state_legal_actions(state, seat, actions);
    for (int i = 0; i < count; i++)
        if (actions[i] == action) return action;
    return -1;
}

/* The best two cards of hand to keep: ascending values, of equal gains the
 * lowest values. */
static void best_two(const known_table *v, int seat, const int *hand, int n, int *a, int *b)
{
    double best = -1e300;
    *a = *b = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            int pair[2] = {hand[i] < hand[j] ? hand[i] : hand[j],
                           hand[i] < hand[j] ? hand[j] : hand[i]};
            double gain = keep_gain(v, seat, pair, 2, 0);
            bool lower = pair[0] < *a || (pair[0] == *a && pair[1] < *b);
            if (gain > best + 1e-12 || (gain > best - 1e-12 && lower)) {
                best = gain;
                *a = pair[0];
                *b = pair[1];
            }
        }
}

/* Draft: the first card of the best two, or the second once one is kept. */
static gateau_action choose_keep(const gateau_state *state, const mt_state *g, int seat,
                                 const known_table *v)
{
    uint8_t seen[MT_VALUES + 1];
    int hand[MT_MAX_DECK], n = 0;
    if (mt_hand_seen(g, seat, seen)) /* the seat's own hand: it is the drafter */
        for (int x = 1; x <= MT_VALUES; x++)
            for (int c = 0; c < seen[x] && n < MT_MAX_DECK; c++) hand[n++] = x;
    int keeping = mt_keep_started(g, seat), best_a, best_b;
    best_two(v, seat, hand, n, &best_a, &best_b);
    if (!keeping) return if_legal(state, seat, MT_KEEP_LOW + best_a);
    gateau_action action = if_legal(state, seat, MT_KEEP_HIGH + best_b);
    if (action >= 0) return action;
    /* The first card kept was not this plan's: best second card. */
    double second_best = -1e300;
    for (int i = 0; i < n; i++) {
        int pair[2] = {keeping, hand[i]};
        gateau_action a = if_legal(state, seat, MT_KEEP_HIGH + hand[i]);
        double gain = keep_gain(v, seat, pair, 2, 0);
        if (a >= 0 && gain > second_best + 1e-12) {
            second_best = gain;
            action = a;
        }
    }
    return action;
}

/* Vote: down when the pair the seat would end with after a swap is worth
 * more to it than its own. */
static gateau_action choose_vote(const gateau_state *state, int seat, const known_table *v)
{
    double stay = best_with_pair(v, seat, v->pair[seat], NULL);
    int other = pair_after_swap(v, seat);
    double swap = best_with_pair(v, seat, v->pair[other], NULL);
    return if_legal(state, seat, swap > stay + 1e-9 ? MT_VOTE_DOWN : MT_VOTE_UP);
}

/* Take: the pair best for the seat after its keep-or-eat choice. */
static gateau_action choose_take(const gateau_state *state, int seat, const known_table *v)
{
    gateau_action action = -1;
    double best = -1e300;
    for (int p = 0; p < v->players; p++) {
        gateau_action a = if_legal(state, seat, MT_TAKE + p);
        if (a < 0) continue;
        double g = best_with_pair(v, seat, v->pair[p], NULL);
        if (g > best + 1e-12) {
            best = g;
            action = a;
        }
    }
    return action;
}

/* Keep or eat: the best valuation after it, less the eats it spends. */
static gateau_action choose_eat(const gateau_state *state, int seat, const known_table *v)
{
    int from = v->took[seat] >= 0 ? v->took[seat] : seat;
    int how;
    best_with_pair(v, seat, v->pair[from], &how);
    const int *pair = v->pair[from];
    gateau_action action = how == 0   ? MT_EAT_NONE
                           : how == 3 ? MT_EAT_BOTH
                                      : MT_EAT_ONE + pair[how - 1];
    return if_legal(state, seat, action);
}

static gateau_action mt_heuristic(const gateau_state *state, int seat, gateau_rng *rng)
{
    const mt_state *g = GAME_STATE_CONST(mt_state, state);
    known_table v;
    read_table(g, &v);
    gateau_action action = -1;
    switch (g->phase) {
    case MT_PHASE_DRAFT: action = choose_keep(state, g, seat, &v); break;
    case MT_PHASE_VOTE: action = choose_vote(state, seat, &v); break;
    case MT_PHASE_TAKE: action = choose_take(state, seat, &v); break;
    case MT_PHASE_EAT: action = choose_eat(state, seat, &v); break;
    default: break;
    }
    return action >= 0 ? action : bot_random_policy(state, seat, rng);
}

const bot_game maries_table_bots = {
    /* The search's rollouts play the heuristic to the end: against random
     * rollouts at 10,000 iterations they won 0.56 where those won 0.37
     * with 4 players, and 2,000 iterations did as well as 5,000
     * (docs/bots.md, Issue 29). */
    .search = {.iterations = 2000},
    .heuristic = mt_heuristic,
    .rollout = mt_heuristic,
};
