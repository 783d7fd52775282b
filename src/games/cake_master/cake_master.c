/*
 * cake_master.c: Cake Master (Daryl Chow, Locomuse), 2-6 players.
 *
 * Rules: ../shared/rules/cake-master.md.  The customer pile is shuffled
 * once; then 3 rounds, each a shuffle of the cake cards and 4 turns of
 * draw, secret share and simultaneous place.  How the moves break into
 * small actions (a kind is a card code of the deck, see deck.c):
 *
 *   customers  K x CUSTOMER+index, top of the pile first
 *                                         "customers 7 2 11 4 9 1 ..."
 *   deal       12 x players x DEAL+kind, in draw order   "deal W0* P3rb ..."
 *   share      KEEP+kind, then LEFT+kind (the third card goes right);
 *              with 2 players KEEP+kind alone, both others going to the
 *              opponent                   "keep P3rb left W0* right C1bb"
 *   place      3 x PLACE+position*200+kind, positions ascending (1a=0 ..
 *              3d=11)                     "place P3rb:1a C1bb:1b W0*:2c"
 *
 * The draw has no decision, so it is no move: after the deal (and after
 * each place step but the last of a round) everybody simply holds the next
 * three cards of the deal.  Share and place are simultaneous phases: a seat
 * inside its share or place is the only actor until its move is complete.
 * So a bot picks among at most 3 actions in a share and 36 in a place.
 *
 * Here: the rules and the game table.  The cards and decks are in deck.c,
 * the scoring in scoring.c, moves as text in notation.c, the views in
 * views.c (cake_master.h ties them together).
 */
#include <string.h>

#include "games/cake_master/cake_master.h"

static const gateau_option_info options[] = {
    {"deck", "a deck file: 'card CODE' and 'customer key=value ...' lines (default: the "
             "72 cards and 12 customers built in)", true, 0, 0, 0},
};

/* ---- Rules helpers ------------------------------------------------------- */

static uint8_t all_seats(const cm_state *g) { return (uint8_t)((1u << g->players) - 1); }

void cm_position_name(int position, char name[3])
{
    name[0] = (char)('1' + position / CM_QUARTERS);
    name[1] = (char)('a' + position % CM_QUARTERS);
    name[2] = '\0';
}

/* Everybody acts in a simultaneous phase. */
static void start_simultaneous(cm_state *g, gateau_state *state, cm_phase phase)
{
    g->phase = (uint8_t)phase;
    g->waiting = all_seats(g);
    state->actors = g->waiting;
    state->chance = false;
    state->simultaneous = true;
    state->in_move = false;
}

/* Draw: everybody now holds the turn's three cards of the deal; share. */
static void start_turn(cm_state *g, gateau_state *state)
{
    memset(g->keep, CM_NONE, sizeof g->keep);
    memset(g->left, CM_NONE, sizeof g->left);
    start_simultaneous(g, state, CM_PHASE_SHARE);
}

void cm_count_undealt_blocks(cm_state *g, int kind_count)
{
    memset(g->undealt_in_block, 0, sizeof g->undealt_in_block);
    for (int k = 0; k < kind_count; k++)
        g->undealt_in_block[k / CM_KIND_BLOCK] =
            (uint8_t)(g->undealt_in_block[k / CM_KIND_BLOCK] + g->undealt[k]);
}

/* The round's customers are revealed (cm_round_first_customer), and all
 * cake cards are shuffled: the deal. */
static void start_round(cm_state *g, gateau_state *state)
{
    const cm_deck *deck = cm_deck_of(state);
    g->phase = CM_PHASE_DEAL;
    g->turn = 0;
    g->dealt = 0;
    g->undealt_total = (int16_t)deck->card_count;
    memcpy(g->undealt, deck->copies, sizeof g->undealt);
    cm_count_undealt_blocks(g, deck->kind_count);
    for (int s = 0; s < GATEAU_MAX_PLAYERS; s++) g->empty_positions[s] = (1u << CM_POSITIONS) - 1;
    state_set_chance(state);
    state->simultaneous = false;
    state->in_move = false;
}

void cm_score_tables(cm_state *g, const cm_deck *deck, int round)
{
    cm_result *r = &g->result[round];
    int features[GATEAU_MAX_PLAYERS][CM_CAKES][CM_FEATURES];
    int totals[GATEAU_MAX_PLAYERS], stars[GATEAU_MAX_PLAYERS];
    for (int s = 0; s < g->players; s++) {
        totals[s] = 0;
        for (int c = 0; c < CM_CAKES; c++) {
            const cm_card *quarters[CM_QUARTERS];
            for (int q = 0; q < CM_QUARTERS; q++)
                quarters[q] = &deck->kind[g->cake[round][s][c * CM_QUARTERS + q] - 1];
            cm_cake_features(quarters, features[s][c]);
            r->tasty[s][c] = (uint8_t)cm_tasty_points(features[s][c]);
            totals[s] += r->tasty[s][c];
        }
        r->total[s] = (uint8_t)totals[s];
    }
    cm_tasty_stars(totals, g->players, stars);
    const cm_customer *customers[CM_ROUNDS];
    int first = cm_round_first_customer(round), count = round + 1;
    for (int i = 0; i < count; i++) customers[i] = &deck->customer[g->pile[first + i]];
    for (int s = 0; s < g->players; s++) {
        int served[CM_CAKES];
        int matched = cm_match_customers((const int(*)[CM_FEATURES])features[s], customers,
                                         count, served);
        for (int c = 0; c < CM_CAKES; c++)
            r->served[s][c] = (int8_t)(served[c] < 0 ? -1 : g->pile[first + served[c]]);
        r->tasty_stars[s] = (uint8_t)stars[s];
        r->customer_stars[s] = (uint8_t)matched;
    }
}

/* The round is scored and its stars won; then the next round. */
static void score_round(cm_state *g, gateau_state *state)
{
    cm_score_tables(g, cm_deck_of(state), g->round);
    const cm_result *r = &g->result[g->round];
    for (int s = 0; s < g->players; s++)
        g->stars[s] = (uint8_t)(g->stars[s] + r->tasty_stars[s] + r->customer_stars[s]);
    g->rounds_scored++;
    if (g->round + 1 < CM_ROUNDS) {
        g->round++;
        start_round(g, state);
    } else {
        g->phase = CM_PHASE_OVER;
        state_set_over(state);
    }
}

/* Everybody has shared: the cards change hands and are revealed. */
static void resolve_share(cm_state *g, gateau_state *state)
{
    for (int s = 0; s < g->players; s++) {
        g->holding[s][CM_SLOT_KEPT] = (uint8_t)cm_drawn(g, g->turn, s, g->keep[s]);
        g->holding[cm_left_of(g, s)][CM_SLOT_FROM_RIGHT] =
            (uint8_t)cm_drawn(g, g->turn, s, g->left[s]);
        g->holding[cm_right_of(g, s)][CM_SLOT_FROM_LEFT] =
            (uint8_t)cm_drawn(g, g->turn, s, cm_right_slot(g, s));
    }
    memset(g->target, CM_NONE, sizeof g->target);
    memset(g->placed, 0, sizeof g->placed);
    memset(g->last_position, CM_NONE, sizeof g->last_position);
    start_simultaneous(g, state, CM_PHASE_PLACE);
}

/* Everybody has placed: the cards go onto the cakes for all to see. */
static void resolve_place(cm_state *g, gateau_state *state)
{
    for (int s = 0; s < g->players; s++)
        for (int k = 0; k < CM_HAND; k++) {
            g->cake[g->round][s][g->target[s][k]] = (uint8_t)(g->holding[s][k] + 1);
            g->empty_positions[s] &= (uint16_t)~(1u << g->target[s][k]);
        }
    if (g->turn + 1 < CM_TURNS) {
        g->turn++;
        start_turn(g, state);
    } else {
        score_round(g, state);
    }
}

/* Seat has completed its move in the simultaneous phase. */
static void finish_seat(cm_state *g, gateau_state *state, int seat)
{
    g->waiting &= (uint8_t)~(1u << seat);
    state->in_move = false;
    if (g->waiting) state->actors = g->waiting;
    else if (g->phase == CM_PHASE_SHARE) resolve_share(g, state);
    else resolve_place(g, state);
}

/* Seat is inside its move: nobody else acts until it is complete. */
static void continue_move(gateau_state *state, int seat)
{
    state->in_move = true;
    state->actors = 1u << seat;
}

/* The first held slot of kind not placed yet. */
static int held_slot(const cm_state *g, int seat, int kind)
{
    for (int k = 0; k < CM_HAND; k++)
        if (g->target[seat][k] == CM_NONE && g->holding[seat][k] == kind) return k;
    return -1;
}

static void order_pair(int *low, int *high)
{
    if (*low > *high) {
        int swap = *low;
        *low = *high;
        *high = swap;
    }
}

/* Sorts up to 3 (CM_HAND) kinds ascending and drops repeats; returns how
 * many.  Three compare-and-swaps sort three: every legal action list
 * comes through here. */
static int distinct_kinds(int *kinds, int n)
{
    if (n >= 2) order_pair(&kinds[0], &kinds[1]);
    if (n == 3) {
        order_pair(&kinds[1], &kinds[2]);
        order_pair(&kinds[0], &kinds[1]);
    }
    int out = n > 0;
    for (int i = 1; i < n; i++)
        if (kinds[out - 1] != kinds[i]) kinds[out++] = kinds[i];
    return out;
}

/* ---- The game table's functions -------------------------------------------- */

static void cm_init(gateau_state *state)
{
    cm_state *g = GAME_STATE(cm_state, state);
    memset(g, 0, sizeof *g);
    g->players = (uint8_t)state->setup->players;
    g->customer_count = (uint8_t)cm_deck_of(state)->customer_count;
    g->phase = CM_PHASE_CUSTOMERS;
    state_set_chance(state);
}

static int cm_legal_actions(const gateau_state *state, int seat, gateau_action *actions)
{
    const cm_state *g = GAME_STATE_CONST(cm_state, state);
    int kinds[CM_HAND], n = 0, count = 0;
    if (g->phase == CM_PHASE_SHARE) {
        for (int k = 0; k < CM_HAND; k++)
            if (k != g->keep[seat]) kinds[n++] = cm_drawn(g, g->turn, seat, k);
        n = distinct_kinds(kinds, n);
        int base = g->keep[seat] == CM_NONE ? CM_KEEP : CM_LEFT;
        for (int i = 0; i < n; i++) actions[count++] = base + kinds[i];
    } else if (g->phase == CM_PHASE_PLACE) {
        for (int k = 0; k < CM_HAND; k++)
            if (g->target[seat][k] == CM_NONE) kinds[n++] = g->holding[seat][k];
        n = distinct_kinds(kinds, n);
        /* Empty positions, one bit each.  Positions go up within a move,
         * so the highest empty ones stay free for the cards still to come
         * after this one, and those below the last one placed are past. */
        unsigned empty = g->empty_positions[seat];
        for (int after = CM_HAND - 1 - g->placed[seat]; after > 0 && empty; after--)
            empty &= ~(1u << (31 - __builtin_clz(empty)));
        if (g->last_position[seat] != CM_NONE) empty &= ~0u << (g->last_position[seat] + 1);
        for (; empty; empty &= empty - 1) {
            int p = __builtin_ctz(empty);
            for (int i = 0; i < n; i++) actions[count++] = CM_PLACE + p * CM_MAX_CARDS + kinds[i];
        }
    }
    return count;
}

static int cm_chance_outcomes(const gateau_state *state, gateau_action *outcomes,
                              double *probabilities)
{
    const cm_state *g = GAME_STATE_CONST(cm_state, state);
    const cm_deck *deck = cm_deck_of(state);
    int count = 0;
    if (g->phase == CM_PHASE_CUSTOMERS) {
        double p = 1.0 / (g->customer_count - g->customers_dealt);
        for (int k = 0; k < g->customer_count; k++) {
            if (g->customers_used & (1ull << k)) continue;
            outcomes[count] = CM_CUSTOMER + k;
            probabilities[count++] = p;
        }
    } else if (g->phase == CM_PHASE_DEAL) {
        for (int k = 0; k < deck->kind_count; k++) {
            if (!g->undealt[k]) continue;
            outcomes[count] = CM_DEAL + k;
            probabilities[count++] = (double)g->undealt[k] / g->undealt_total;
        }
    }
    return count;
}

static gateau_action cm_sample_chance(const gateau_state *state, gateau_rng *rng)
{
    const cm_state *g = GAME_STATE_CONST(cm_state, state);
    if (g->phase == CM_PHASE_CUSTOMERS) {
        int r = (int)gateau_rng_below(rng, (uint32_t)(g->customer_count - g->customers_dealt));
        for (int k = 0;; k++)
            if (!(g->customers_used & (1ull << k)) && r-- == 0) return CM_CUSTOMER + k;
    }
    /* r picks one of the undealt cards lined up by kind: its kind is the
     * first whose running total passes r.  Whole blocks are skipped
     * first, which finds the same kind in a few steps instead of dozens
     * (the deal is most of the chance actions a search samples). */
    int r = (int)gateau_rng_below(rng, (uint32_t)g->undealt_total);
    int block = 0;
    while (r >= g->undealt_in_block[block]) r -= g->undealt_in_block[block++];
    int k = block * CM_KIND_BLOCK;
    while (r >= g->undealt[k]) r -= g->undealt[k++];
    return CM_DEAL + k;
}

/* The customers' shuffle (one action a customer of the deck), then per
 * round the deal (one action a card) and per turn each seat's share (a
 * keep, and with 3 or more players a card passed left) and its placing
 * (one action a held card). */
static int cm_max_game_length(const gateau_setup *setup)
{
    int players = setup->players;
    int per_turn = players * (2 + CM_HAND);
    return CM_MAX_CUSTOMERS + CM_ROUNDS * (cm_deal_size(players) + CM_TURNS * per_turn);
}

static void cm_apply(gateau_state *state, int seat, gateau_action action)
{
    cm_state *g = GAME_STATE(cm_state, state);
    if (action < CM_DEAL) {
        int k = action - CM_CUSTOMER;
        g->pile[g->customers_dealt++] = (uint8_t)k;
        g->customers_used |= 1ull << k;
        state->in_move = g->customers_dealt < g->customer_count;
        if (!state->in_move) start_round(g, state); /* round 1 meets the top customer */
    } else if (action < CM_KEEP) {
        int k = action - CM_DEAL;
        g->deal[g->dealt++] = (uint8_t)k;
        g->undealt[k]--;
        g->undealt_in_block[k / CM_KIND_BLOCK]--;
        g->undealt_total--;
        state->in_move = g->dealt < cm_deal_size(g->players);
        if (!state->in_move) start_turn(g, state);
    } else if (action < CM_LEFT) {
        g->keep[seat] = (uint8_t)cm_draw_slot(g, seat, action - CM_KEEP, -1);
        if (g->players == 2) {
            g->left[seat] = cm_two_player_left(g->keep[seat]);
            finish_seat(g, state, seat);
        } else {
            continue_move(state, seat);
        }
    } else if (action < CM_PLACE) {
        g->left[seat] = (uint8_t)cm_draw_slot(g, seat, action - CM_LEFT, g->keep[seat]);
        finish_seat(g, state, seat);
    } else {
        int position = (action - CM_PLACE) / CM_MAX_CARDS, kind = (action - CM_PLACE) % CM_MAX_CARDS;
        g->target[seat][held_slot(g, seat, kind)] = (uint8_t)position;
        g->last_position[seat] = (uint8_t)position;
        if (++g->placed[seat] == CM_HAND) finish_seat(g, state, seat);
        else continue_move(state, seat);
    }
}

/* Scores are stars: those of the finished rounds. */
void cm_scores(const gateau_state *state, int *scores)
{
    const cm_state *g = GAME_STATE_CONST(cm_state, state);
    for (int s = 0; s < g->players; s++) scores[s] = g->stars[s];
}

uint32_t cm_winners(const gateau_state *state)
{
    const cm_state *g = GAME_STATE_CONST(cm_state, state);
    int stars[GATEAU_MAX_PLAYERS], last[GATEAU_MAX_PLAYERS];
    for (int s = 0; s < g->players; s++) {
        stars[s] = g->stars[s];
        last[s] = g->rounds_scored ? g->result[g->rounds_scored - 1].total[s] : 0;
    }
    return cm_winners_of(stars, last, g->players);
}

/* ---- What no longer matters ------------------------------------------------ */

/* Turns of this round whose cards lie on the table. */
static int turns_placed(const cm_state *g)
{
    switch (g->phase) {
    case CM_PHASE_SHARE:
    case CM_PHASE_PLACE: return g->turn;
    case CM_PHASE_OVER: return CM_TURNS;
    default: return 0;
    }
}

void cm_forget_spent(cm_state *g)
{
    /* The turns placed: their cards, seat by seat and position by
     * position, stand for the draws (which seat drew which no longer
     * matters; the views show where each card lies, not who drew it). */
    int end = turns_placed(g) * g->players * CM_HAND, i = 0;
    for (int s = 0; s < g->players; s++)
        for (int p = 0; p < CM_POSITIONS && i < end; p++)
            if (g->cake[g->round][s][p]) g->deal[i++] = (uint8_t)(g->cake[g->round][s][p] - 1);
    /* This turn's draws once shared: in the order kept, given left, given
     * right (the views show the shares, not the order drawn). */
    if (g->phase == CM_PHASE_PLACE)
        for (int s = 0; s < g->players; s++) {
            uint8_t *draw = &g->deal[(g->turn * g->players + s) * CM_HAND];
            draw[0] = g->holding[s][CM_SLOT_KEPT];
            draw[1] = g->holding[cm_left_of(g, s)][CM_SLOT_FROM_RIGHT];
            draw[2] = g->holding[cm_right_of(g, s)][CM_SLOT_FROM_LEFT];
            g->keep[s] = 0; /* slots 0 1 2: kept, left, right (cm_two_player_left(0) too) */
            g->left[s] = 1;
        }
    /* What is left from a deal, share or place step that is over. */
    memset(g->deal + g->dealt, 0, sizeof g->deal - g->dealt);
    if (g->phase != CM_PHASE_PLACE) {
        memset(g->holding, 0, sizeof g->holding);
        memset(g->target, CM_NONE, sizeof g->target);
        memset(g->placed, 0, sizeof g->placed);
        memset(g->last_position, CM_NONE, sizeof g->last_position);
    }
    if (g->phase == CM_PHASE_DEAL) {
        memset(g->keep, CM_NONE, sizeof g->keep);
        memset(g->left, CM_NONE, sizeof g->left);
    }
}

/* ---- What a seat cannot know ------------------------------------------------ */

bool cm_deal_known(const cm_state *g, int seat, int i)
{
    int turn = i / (CM_HAND * g->players), owner = i / CM_HAND % g->players;
    switch (g->phase) {
    case CM_PHASE_SHARE: return turn < g->turn || (turn == g->turn && owner == seat);
    case CM_PHASE_PLACE: return turn <= g->turn;
    case CM_PHASE_OVER: return true;
    default: return false; /* a deal being made: nobody has drawn yet */
    }
}

static void shuffle_bytes(uint8_t *items, int n, gateau_rng *rng)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)gateau_rng_below(rng, (uint32_t)(i + 1));
        uint8_t swap = items[i];
        items[i] = items[j];
        items[j] = swap;
    }
}

/* The cards seat has not seen this round, dealt or not, are redistributed
 * over the places seat cannot see. */
static void resample_cards(cm_state *g, const cm_deck *deck, int seat, gateau_rng *rng)
{
    /* The unseen cards lined up by kind before the shuffle, so that the
     * result depends only on which cards are unseen (what seat knows),
     * not on where they were: two states seat cannot tell apart
     * determinize alike (bots rely on it). */
    uint8_t pool[CM_MAX_CARDS], hidden[CM_MAX_DEALT], unseen[CM_MAX_CARDS];
    int n = 0, h = 0;
    memcpy(unseen, g->undealt, sizeof unseen);
    for (int i = 0; i < g->dealt; i++)
        if (!cm_deal_known(g, seat, i)) {
            hidden[h++] = (uint8_t)i;
            unseen[g->deal[i]]++;
        }
    for (int k = 0; k < deck->kind_count; k++)
        for (int c = 0; c < unseen[k]; c++) pool[n++] = (uint8_t)k;
    shuffle_bytes(pool, n, rng);
    for (int i = 0; i < h; i++) g->deal[hidden[i]] = pool[i];
    memset(g->undealt, 0, sizeof g->undealt);
    for (int i = h; i < n; i++) g->undealt[pool[i]]++;
    cm_count_undealt_blocks(g, deck->kind_count);
}

/* Another seat's share, made or half made: any of its options. */
static void resample_share(cm_state *g, int other, gateau_rng *rng)
{
    if (g->keep[other] == CM_NONE) return;
    bool complete = !(g->waiting & (1u << other));
    g->keep[other] = (uint8_t)gateau_rng_below(rng, CM_HAND);
    if (g->players == 2) {
        g->left[other] = cm_two_player_left(g->keep[other]);
    } else if (complete) {
        int pick = (int)gateau_rng_below(rng, 2);
        g->left[other] = (uint8_t)(pick < g->keep[other] ? pick : pick + 1);
    }
}

/* Another seat's placement, made or half made: three random empty
 * positions, the held cards in random order, as far as it got. */
static void resample_place(cm_state *g, int other, gateau_rng *rng)
{
    int done = g->placed[other];
    if (!done) return;
    uint8_t empty[CM_POSITIONS];
    int n = 0;
    for (int p = 0; p < CM_POSITIONS; p++)
        if (!g->cake[g->round][other][p]) empty[n++] = (uint8_t)p;
    shuffle_bytes(empty, n, rng);
    uint8_t chosen[CM_HAND] = {empty[0], empty[1], empty[2]};
    for (int i = 1; i < CM_HAND; i++)
        for (int j = i; j > 0 && chosen[j - 1] > chosen[j]; j--) {
            uint8_t swap = chosen[j];
            chosen[j] = chosen[j - 1];
            chosen[j - 1] = swap;
        }
    uint8_t order[CM_HAND] = {0, 1, 2};
    shuffle_bytes(order, CM_HAND, rng);
    memset(g->target[other], CM_NONE, CM_HAND);
    for (int i = 0; i < done; i++) g->target[other][order[i]] = chosen[i];
    g->last_position[other] = chosen[done - 1];
}

static void cm_determinize(gateau_state *state, int seat, gateau_rng *rng)
{
    cm_state *g = GAME_STATE(cm_state, state);
    const cm_deck *deck = cm_deck_of(state);
    /* The customer pile below those revealed. */
    int revealed = g->phase == CM_PHASE_CUSTOMERS ? 0 : cm_round_first_customer(g->round + 1);
    if (g->customers_dealt > revealed) {
        /* In customer order first, for the same reason as the cards. */
        uint64_t unrevealed = 0;
        for (int i = revealed; i < g->customers_dealt; i++) unrevealed |= 1ull << g->pile[i];
        for (int i = revealed; unrevealed; unrevealed &= unrevealed - 1)
            g->pile[i++] = (uint8_t)__builtin_ctzll(unrevealed);
        shuffle_bytes(g->pile + revealed, g->customers_dealt - revealed, rng);
    }
    if (g->phase == CM_PHASE_OVER || g->phase == CM_PHASE_CUSTOMERS) return;
    cm_forget_spent(g);
    resample_cards(g, deck, seat, rng);
    for (int other = 0; other < g->players; other++) {
        if (other == seat) continue;
        if (g->phase == CM_PHASE_SHARE) resample_share(g, other, rng);
        else if (g->phase == CM_PHASE_PLACE) resample_place(g, other, rng);
    }
}

/* ---- The game table ------------------------------------------------------------ */

static const char summary[] =
    "Cake Master (Daryl Chow, Locomuse), 2-6 players.\n"
    "\n"
    "Everyone bakes three round cakes of four quarter cards each, in three\n"
    "rounds. A card has an icing color (W white, P pink, C chocolate),\n"
    "half-rosettes on its straight edges (digit: 0 none, 1 counter-clockwise\n"
    "edge, 2 clockwise edge, 3 both), maybe a whole rosette (*) and fruit\n"
    "(r raspberry, b blueberry): W0*, P3rb, C1bb. Quarters a b c d of a cake\n"
    "go clockwise; two halves meeting on a shared edge make a rosette.\n"
    "\n"
    "A round: the cards are shuffled, then 4 turns. Each turn everyone draws\n"
    "3 cards, secretly keeps one and passes one to each neighbour (left is\n"
    "seat + 1; with two players both go to the opponent); then all reveal\n"
    "their 3 cards and place them at the same time into empty quarters.\n"
    "\n"
    "Scoring each round, per cake: 1 color 3, 2 colors 1, 3 colors 0; +1 per\n"
    "complete rosette; +1 with no lone half-rosette; +1 per raspberry and\n"
    "blueberry pair. Highest total: 2 stars, lowest 0, others 1 (all equal:\n"
    "all 2). Customers (1, then 2, then 3 in play) each want exact counts on\n"
    "one cake; each cake serves one customer: 1 star per customer served,\n"
    "assigned in the best way. Most stars after 3 rounds wins; a tie goes to\n"
    "the last round's Tasty points. Option deck=FILE plays another deck.\n"
    "\n"
    "Moves: customers 7 2 ... | deal W0* P3rb ... |\n"
    "       keep P3rb left W0* right C1bb | place P3rb:1a C1bb:1b W0*:2c\n";

const gateau_game cake_master_game = {
    .name = "cake-master",
    .title = "Cake Master",
    .summary = summary,
    .min_players = 2,
    .max_players = 6,
    .options = options,
    .option_count = 1,
    .state_size = sizeof(cm_state),
    .type = {.simultaneous = true, .chance = true, .hidden_information = true,
             .score_unit = "stars", .max_actions = 36, /* 3 cards x 12 positions */
             .max_chance_outcomes = CM_MAX_CARDS, /* the kinds of a deck file */
             .max_move_actions = CM_MAX_DEALT},
    .prepare = cm_prepare,
    .release = cm_release,
    .init = cm_init,
    .legal_actions = cm_legal_actions,
    .order_move = cm_order_move,
    .chance_outcomes = cm_chance_outcomes,
    .sample_chance = cm_sample_chance,
    .apply = cm_apply,
    .scores = cm_scores,
    .winners = cm_winners,
    .determinize = cm_determinize,
    .parse_move = cm_parse_move,
    .format_move = cm_format_move,
    .action_name = cm_action_name,
    .view_text = cm_view_text,
    .view_json = cm_view_json,
    .describe_move = cm_describe_move,
    .move_visible = cm_move_visible,
    .describe_legal = cm_describe_legal,
    .key = cm_key,
    .max_game_length = cm_max_game_length,
    .action_space = CM_PLACE + CM_POSITIONS * CM_MAX_CARDS,
    .observe = cm_observe,
    .from_view = cm_from_view,
};
