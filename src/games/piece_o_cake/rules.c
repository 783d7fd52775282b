/*
 * rules.c: piece o' Cake (Jeffrey D. Allers), 2-5 players: the rules and
 * the game table (notation.c reads and writes moves, views.c draws them).
 *
 * Rules: ../shared/rules/piece-o-cake.md.  One round: a deal (57 chance
 * actions, one slice each), then five cakes, each a cut by the server and
 * a turn per chooser.  How the moves break into small actions:
 *
 *   deal     57 x DEAL+variety                 "deal PARBKG..."
 *   cut      CUT_AFTER+b ... (ascending boundaries, b = 1..11 meaning
 *            between b and b+1), then CUT_DONE unless no boundary can follow;
 *            no boundary at all is the whole cake   "cut 1-3 4-7 8-11"
 *   take     TAKE+start, then EAT_SLICE or COLLECT_SLICE per slice,
 *            clockwise                          "take 4-7 ecce"
 *   forfeit  FORFEIT_EAT+variety or PASS        "eat G", "pass"
 *
 * (the POC_ actions of piece_o_cake.h).  So a bot picks among at most 20
 * actions at a time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/piece_o_cake/piece_o_cake.h"

/* The components. */
const char POC_VARIETY_LETTER[POC_VARIETIES + 1] = "PARBKGSC";
const char *const POC_VARIETY_NAME[POC_VARIETIES] = {
    "plum", "apricot", "cherry", "blackberry", "kiwi", "gooseberry", "strawberry", "chocolate"};

static const gateau_option_info options[] = {
    {"rounds", "rounds of five cakes each, scores added up", false, 1, 1, 20},
};

/* ---- Rules helpers ------------------------------------------------------- */

/* This round's points per seat: majorities (every tied holder scores the
 * variety's count in full) plus the dollops of eaten slices. */
void poc_round_scores(const poc_state *g, int *scores)
{
    for (int s = 0; s < g->players; s++) scores[s] = 0;
    for (int v = 0; v < POC_VARIETIES; v++) {
        int most = 0;
        for (int s = 0; s < g->players; s++)
            if (g->collected[s][v] > most) most = g->collected[s][v];
        for (int s = 0; s < g->players; s++) {
            if (most > 0 && g->collected[s][v] == most) scores[s] += POC_BONUS[v];
            scores[s] += g->eaten[s][v] * POC_DOLLOPS[v];
        }
    }
}

/* Clears what a cake leaves behind when it leaves the table: its slices,
 * its cut and pieces, the turns.  A position then holds nothing of cakes
 * gone by, which no view shows: a position read back from a seat's view
 * (from_view.c) is the same bytes, and so determinizes the same. */
static void clear_table(poc_state *g)
{
    memset(&g->slice[g->cake * POC_CAKE_SIZE], 0, POC_CAKE_SIZE);
    g->cut_count = 0;
    memset(g->cut, 0, sizeof g->cut);
    g->piece_count = 0;
    memset(g->pieces, 0, sizeof g->pieces);
    g->open_starts = 0;
    memset(g->piece_starting_at, -1, sizeof g->piece_starting_at);
    g->turn = 0;
    g->chooser = 0;
}

/* Cake c of round r is served by seat ((r-1) + (c-1)) mod N + 1. */
static void serve_cake(poc_state *g, gateau_state *state)
{
    g->phase = POC_PHASE_CUT;
    g->server = (uint8_t)((g->round + g->cake) % g->players);
    state_set_actor(state, g->server);
    state->in_move = false;
}

static void start_round(poc_state *g, gateau_state *state)
{
    g->phase = POC_PHASE_DEAL;
    g->cake = 0;
    g->dealt = 0;
    for (int v = 0; v < POC_VARIETIES; v++) g->undealt[v] = (uint8_t)POC_BONUS[v];
    memset(g->collected, 0, sizeof g->collected);
    memset(g->collected_kinds, 0, sizeof g->collected_kinds);
    memset(g->eaten, 0, sizeof g->eaten);
    memset(g->removed, 0, sizeof g->removed);
    state_set_chance(state);
    state->in_move = false;
}

static void end_round(poc_state *g, gateau_state *state)
{
    /* The set-aside slices go back unseen with the rest. */
    memset(g->slice, 0, sizeof g->slice);
    int scores[GATEAU_MAX_PLAYERS];
    poc_round_scores(g, scores);
    for (int s = 0; s < g->players; s++) g->banked[s] = (int16_t)(g->banked[s] + scores[s]);
    if (g->round + 1 < g->rounds) {
        g->round++;
        start_round(g, state);
    } else {
        g->phase = POC_PHASE_OVER;
        state_set_over(state);
    }
}

/* The next choosing turn, or the end of the cake. */
static void next_turn(poc_state *g, gateau_state *state)
{
    /* A take is over (if one was under way): nothing of it is kept. */
    g->taking = 0;
    g->next_slice = 0;
    g->next_position = 0;
    if (g->turn == poc_turns_per_cake(g->players)) {
        /* Pieces nobody took leave the game. */
        for (unsigned open = g->open_starts; open; open &= open - 1) {
            int position = __builtin_ctz(open);
            for (int k = g->pieces[g->piece_starting_at[position]].length; k > 0; k--) {
                g->removed[poc_cake_slice(g, position)]++;
                position = position == POC_CAKE_SIZE ? 1 : position + 1;
            }
        }
        clear_table(g);
        if (++g->cake == POC_CAKES) end_round(g, state);
        else serve_cake(g, state);
        return;
    }
    g->phase = POC_PHASE_CHOOSE;
    /* Turn t (0-based) belongs to seat server + 1 + t, wrapping: each
     * chooser sits after the one before; with two players that alternates
     * other, server, other, server. */
    int chooser = (g->turn == 0 ? g->server : g->chooser) + 1;
    if (chooser == g->players) chooser = 0;
    g->chooser = (uint8_t)chooser;
    g->turn++;
    state_set_actor(state, g->chooser);
    state->in_move = false;
}

/* Turns ascending cut boundaries into pieces, listed from the piece that
 * holds position 1.  No boundary at all is the whole cake. */
int poc_pieces_of_cut(const uint8_t *cut, int cut_count, poc_piece *pieces)
{
    if (cut_count == 0) {
        pieces[0] = (poc_piece){1, POC_CAKE_SIZE, -1};
        return 1;
    }
    int count = 0, last = cut[cut_count - 1];
    if (last != POC_CAKE_SIZE) /* a piece wraps past 11 to 1 */
        pieces[count++] =
            (poc_piece){(uint8_t)(last + 1), (uint8_t)(POC_CAKE_SIZE - last + cut[0]), -1};
    else
        pieces[count++] = (poc_piece){1, cut[0], -1};
    for (int i = 0; i + 1 < cut_count; i++)
        pieces[count++] = (poc_piece){(uint8_t)(cut[i] + 1), (uint8_t)(cut[i + 1] - cut[i]), -1};
    return count;
}

void poc_lay_out_pieces(poc_state *g)
{
    g->piece_count = (uint8_t)poc_pieces_of_cut(g->cut, g->cut_count, g->pieces);
    g->open_starts = 0;
    memset(g->piece_starting_at, -1, sizeof g->piece_starting_at);
    for (int i = 0; i < g->piece_count; i++) {
        g->open_starts |= (uint16_t)(1u << g->pieces[i].start);
        g->piece_starting_at[g->pieces[i].start] = (int8_t)i;
    }
}

static void finish_cut(poc_state *g, gateau_state *state)
{
    poc_lay_out_pieces(g);
    next_turn(g, state);
}

static bool cut_can_continue(const poc_state *g)
{
    return g->cut_count < poc_max_pieces(g->players) &&
           (g->cut_count == 0 || g->cut[g->cut_count - 1] < POC_CAKE_SIZE);
}

/* ---- The game table's functions -------------------------------------------- */

/* Per round the deal (one action a slice), then per cake a cut (at most a
 * boundary after each position and its "done"), the choosing turns (a
 * take, a forfeit or a pass each) and the slice decisions of the takes
 * (each of the cake's slices at most once). */
static int poc_max_game_length(const gateau_setup *setup)
{
    int per_cake = (POC_CAKE_SIZE + 1) + poc_turns_per_cake(setup->players) + POC_CAKE_SIZE;
    return setup_option(setup, 0) * (POC_SLICES + POC_CAKES * per_cake);
}

static void poc_init(gateau_state *state)
{
    poc_state *g = GAME_STATE(poc_state, state);
    memset(g, 0, sizeof *g);
    g->players = (uint8_t)state->setup->players;
    g->rounds = (uint8_t)setup_option(state->setup, 0);
    clear_table(g);
    start_round(g, state);
}

static int poc_legal_actions(const gateau_state *state, int seat, gateau_action *actions)
{
    const poc_state *g = GAME_STATE_CONST(poc_state, state);
    (void)seat;
    int count = 0;
    switch (g->phase) {
    case POC_PHASE_CUT: {
        /* Boundaries after the last one chosen, while pieces may be added;
         * the first leaves room for a second (one cut alone is no cut). */
        int first = g->cut_count ? g->cut[g->cut_count - 1] + 1 : 1;
        int last = g->cut_count ? POC_CAKE_SIZE : POC_CAKE_SIZE - 1;
        if (g->cut_count == poc_max_pieces(g->players)) last = 0;
        for (int b = first; b <= last; b++) actions[count++] = POC_CUT_AFTER + b - 1;
        if (g->cut_count != 1) actions[count++] = POC_CUT_DONE;
        break;
    }
    case POC_PHASE_CHOOSE: {
        /* Ascending: takes by start position, then forfeits, then pass. */
        for (unsigned open = g->open_starts; open; open &= open - 1)
            actions[count++] = POC_TAKE + __builtin_ctz(open) - 1;
        for (unsigned kinds = g->collected_kinds[seat]; kinds; kinds &= kinds - 1)
            actions[count++] = POC_FORFEIT_EAT + __builtin_ctz(kinds);
        actions[count++] = POC_PASS;
        break;
    }
    case POC_PHASE_SLICES:
        actions[count++] = POC_EAT_SLICE;
        actions[count++] = POC_COLLECT_SLICE;
        break;
    default:
        break;
    }
    return count;
}

static int poc_chance_outcomes(const gateau_state *state, gateau_action *outcomes,
                               double *probabilities)
{
    const poc_state *g = GAME_STATE_CONST(poc_state, state);
    int count = 0;
    double left = POC_SLICES - g->dealt;
    for (int v = 0; v < POC_VARIETIES; v++) {
        if (!g->undealt[v]) continue;
        outcomes[count] = POC_DEAL + v;
        probabilities[count++] = g->undealt[v] / left;
    }
    return count;
}

static gateau_action poc_sample_chance(const gateau_state *state, gateau_rng *rng)
{
    const poc_state *g = GAME_STATE_CONST(poc_state, state);
    /* r picks one of the undealt slices, lined up from chocolate down to
     * plum.  Its variety is found by counting the running totals r has
     * reached, without branches: a walk that stops at the variety
     * mispredicts about once a slice, and the deal is 57 of a game's 130
     * actions. */
    int r = (int)gateau_rng_below(rng, (uint32_t)(POC_SLICES - g->dealt));
    int v = POC_VARIETIES - 1, total = 0;
    for (int k = POC_VARIETIES - 1; k > 0; k--) {
        total += g->undealt[k];
        v -= r >= total;
    }
    return POC_DEAL + v;
}

static void apply_deal(poc_state *g, gateau_state *state, int variety)
{
    g->slice[g->dealt++] = (uint8_t)variety;
    g->undealt[variety]--;
    state->in_move = g->dealt < POC_SLICES;
    if (g->dealt == POC_SLICES) serve_cake(g, state);
}

static void apply_slice_decision(poc_state *g, gateau_state *state, bool eat)
{
    int variety = poc_cake_slice(g, g->next_position);
    /* One path for both, so no branch to mispredict: in random play
     * eating or collecting is a coin toss. */
    uint8_t *const piles[2] = {g->collected[g->chooser], g->eaten[g->chooser]};
    piles[eat][variety]++;
    g->collected_kinds[g->chooser] |= (uint8_t)(!eat << variety);
    g->next_position = g->next_position == POC_CAKE_SIZE ? 1 : g->next_position + 1;
    if (++g->next_slice == g->pieces[g->taking].length) next_turn(g, state);
}

static void poc_apply(gateau_state *state, int seat, gateau_action action)
{
    poc_state *g = GAME_STATE(poc_state, state);
    (void)seat;
    /* The most frequent actions first: deals and slice decisions. */
    if (action < POC_CUT_AFTER) {
        apply_deal(g, state, action - POC_DEAL);
    } else if (action >= POC_EAT_SLICE) {
        apply_slice_decision(g, state, action == POC_EAT_SLICE);
    } else if (action < POC_CUT_DONE) {
        g->cut[g->cut_count++] = (uint8_t)(action - POC_CUT_AFTER + 1);
        state->in_move = true;
        if (!cut_can_continue(g)) finish_cut(g, state);
    } else if (action == POC_CUT_DONE) {
        finish_cut(g, state);
    } else if (action < POC_FORFEIT_EAT) {
        int start = action - POC_TAKE + 1;
        g->taking = (uint8_t)g->piece_starting_at[start];
        g->pieces[g->taking].taker = (int8_t)g->chooser;
        g->open_starts &= (uint16_t)~(1u << start);
        g->next_slice = 0;
        g->next_position = (uint8_t)start;
        g->phase = POC_PHASE_SLICES;
        state->in_move = true;
    } else if (action < POC_PASS) {
        int variety = action - POC_FORFEIT_EAT;
        g->eaten[g->chooser][variety] += g->collected[g->chooser][variety];
        g->collected[g->chooser][variety] = 0;
        g->collected_kinds[g->chooser] &= (uint8_t)~(1u << variety);
        next_turn(g, state);
    } else {
        next_turn(g, state); /* POC_PASS */
    }
}

void poc_scores(const gateau_state *state, int *scores)
{
    const poc_state *g = GAME_STATE_CONST(poc_state, state);
    /* Once over, the last round is already banked. */
    int round[GATEAU_MAX_PLAYERS] = {0};
    if (g->phase != POC_PHASE_OVER) poc_round_scores(g, round);
    for (int s = 0; s < g->players; s++) scores[s] = g->banked[s] + round[s];
}

/* No tiebreak: every seat with the top score wins. */
uint32_t poc_winners(const gateau_state *state)
{
    int scores[GATEAU_MAX_PLAYERS];
    poc_scores(state, scores);
    int players = state->setup->players, best = scores[0];
    for (int s = 1; s < players; s++)
        if (scores[s] > best) best = scores[s];
    uint32_t winners = 0;
    for (int s = 0; s < players; s++)
        if (scores[s] == best) winners |= 1u << s;
    return winners;
}

/* Everybody knows the same here: the unserved stacks and the set-aside
 * slices are hidden from all, so seat does not matter. */
static void poc_determinize(gateau_state *state, int seat, gateau_rng *rng)
{
    poc_state *g = GAME_STATE(poc_state, state);
    (void)seat;
    if (g->phase == POC_PHASE_OVER) return;
    int first = poc_first_hidden(g), n = g->dealt - first;
    /* Sorted first, so the result depends only on what is known (which
     * slices are unseen) and rng, not on the order they had: two states a
     * seat cannot tell apart determinize alike (bots rely on it). */
    int counts[POC_VARIETIES] = {0};
    for (int i = 0; i < n; i++) counts[g->slice[first + i]]++;
    for (int v = 0, i = 0; v < POC_VARIETIES; v++)
        for (int k = 0; k < counts[v]; k++) g->slice[first + i++] = (uint8_t)v;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)gateau_rng_below(rng, (uint32_t)(i + 1));
        uint8_t swap = g->slice[first + i];
        g->slice[first + i] = g->slice[first + j];
        g->slice[first + j] = swap;
    }
}

/* What nobody has seen yet is the same for every seat (see above). */
void poc_unseen(const poc_state *g, uint8_t unseen[POC_VARIETIES])
{
    memset(unseen, 0, POC_VARIETIES);
    if (g->phase == POC_PHASE_OVER) return;
    for (int i = poc_first_hidden(g); i < g->dealt; i++) unseen[g->slice[i]]++;
    for (int v = 0; v < POC_VARIETIES; v++) unseen[v] = (uint8_t)(unseen[v] + g->undealt[v]);
}

/* ---- The game table ---------------------------------------------------------- */

static const char summary[] =
    "piece o' Cake (Jeffrey D. Allers), 2-5 players.\n"
    "\n"
    "57 slices in 8 varieties are shuffled into five cakes of 11 slices; 2\n"
    "slices stay hidden. Each cake is served in turn: the server lays the\n"
    "cake out as a ring (positions 1..11) and cuts it into up to as many\n"
    "pieces as there are players (4 with two players); a piece is a run of\n"
    "neighbouring positions and may wrap from 11 to 1.\n"
    "\n"
    "Then, starting left of the server and ending with him, everyone either\n"
    "takes a remaining piece, deciding slice by slice to eat it (scores its\n"
    "dollops, 1-3) or collect it (for majorities), or forfeits: eats all his\n"
    "collected slices of one variety, or nothing. With two players there\n"
    "are four turns: other, server, other, server. Untaken pieces are lost.\n"
    "\n"
    "After five cakes, each variety pays its count (P3 A4 R5 B7 K8 G9 S10\n"
    "C11) to every player with the most collected slices of it; eaten\n"
    "slices pay their dollops. Most points wins; ties share the win.\n"
    "Option rounds=R plays R rounds and adds the scores up.\n"
    "\n"
    "Moves: deal PAR... | cut 1-3 4-7 8-11 | take 4-7 ecce | eat G | pass\n";

const gateau_game piece_o_cake_game = {
    .name = "piece-o-cake",
    .title = "piece o' Cake",
    .summary = summary,
    .min_players = 2,
    .max_players = POC_MAX_PLAYERS,
    .options = options,
    .option_count = 1,
    .state_size = sizeof(poc_state),
    .type = {.simultaneous = false, .chance = true, .hidden_information = true,
             .score_unit = "points", .max_actions = 14, /* 5 pieces, 8 varieties to eat, pass */
             .max_chance_outcomes = 8, .max_move_actions = 57 /* the round's deal */},
    .init = poc_init,
    .legal_actions = poc_legal_actions,
    .order_move = poc_order_move,
    .chance_outcomes = poc_chance_outcomes,
    .sample_chance = poc_sample_chance,
    .apply = poc_apply,
    .scores = poc_scores,
    .winners = poc_winners,
    .determinize = poc_determinize,
    .parse_move = poc_parse_move,
    .format_move = poc_format_move,
    .action_name = poc_action_name,
    .view_text = poc_view_text,
    .view_json = poc_view_json,
    .describe_move = poc_describe_move,
    .move_visible = poc_move_visible,
    .describe_legal = poc_describe_legal,
    .key = poc_key,
    .max_game_length = poc_max_game_length,
    .action_space = POC_COLLECT_SLICE + 1,
    .observe = poc_observe,
    .from_view = poc_from_view,
};
