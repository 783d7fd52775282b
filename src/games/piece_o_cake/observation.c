/*
 * observation.c: piece o' Cake as numbers for learning agents
 * (gateau/observation.h; the fields are listed in docs/observations.md).
 *
 * Everything on the table is public here; what nobody knows is which
 * slices are still face down (the cakes to come, the set-aside slices),
 * of which only the counts per variety (poc_unseen) are written.
 */
#include "games/piece_o_cake/piece_o_cake.h"

/* The observation's scales: counts are divided by what they can reach. */
enum { POC_MAX_ROUNDS = 20, POC_SCORE_SCALE = 100 };

static void observe_counts(observation_writer *out, const uint8_t counts[POC_VARIETIES])
{
    for (int v = 0; v < POC_VARIETIES; v++) observe_value(out, counts[v] / (double)POC_BONUS[v]);
}

/* The cake being served: its slices, the cut, who took each position. */
static void observe_cake(const poc_state *g, int seat, observation_writer *out)
{
    bool serving = poc_serving(g);
    for (int p = 1; p <= POC_CAKE_SIZE; p++)
        observe_one_hot(out, serving ? poc_cake_slice(g, p) : -1, POC_VARIETIES);
    bool cut_after[POC_CAKE_SIZE] = {false};
    for (int i = 0; serving && i < g->cut_count; i++) cut_after[g->cut[i] - 1] = true;
    for (int p = 0; p < POC_CAKE_SIZE; p++) observe_flag(out, cut_after[p]);
    /* Per position: on the plate in a piece, or taken by (relative) seat. */
    int owner[POC_CAKE_SIZE];
    for (int p = 0; p < POC_CAKE_SIZE; p++) owner[p] = -2; /* not in a piece */
    for (int i = 0; serving && i < g->piece_count; i++)
        for (int k = 0; k < g->pieces[i].length; k++)
            owner[poc_wrap_position(g->pieces[i].start + k) - 1] = g->pieces[i].taker;
    for (int p = 0; p < POC_CAKE_SIZE; p++) {
        observe_flag(out, owner[p] == -1);
        int taker = owner[p] >= 0 ? observe_relative(seat, owner[p], g->players) : -1;
        observe_one_hot(out, taker, POC_MAX_PLAYERS);
    }
    /* The slice of a piece being taken that is to be decided next. */
    int next = g->phase == POC_PHASE_SLICES ? g->next_position - 1 : -1;
    observe_one_hot(out, next, POC_CAKE_SIZE);
}

void poc_observe(const gateau_state *state, int seat, observation_writer *out)
{
    const poc_state *g = GAME_STATE_CONST(poc_state, state);
    int players = g->players;
    observe_one_hot(out, seat, POC_MAX_PLAYERS);
    observe_one_hot(out, players - 2, POC_MAX_PLAYERS - 1);
    observe_value(out, g->rounds / (double)POC_MAX_ROUNDS);
    observe_value(out, (g->rounds - g->round - 1) / (double)POC_MAX_ROUNDS); /* rounds after this */
    observe_one_hot(out, g->phase, POC_PHASE_OVER + 1);
    observe_one_hot(out, g->phase == POC_PHASE_OVER ? -1 : g->cake, POC_CAKES);
    observe_one_hot(out, observe_relative(seat, g->server, players), POC_MAX_PLAYERS);
    observe_value(out, poc_serving(g) ? g->turn / (double)poc_turns_per_cake(players) : 0.0);
    for (int k = 0; k < POC_MAX_PLAYERS; k++)
        observe_flag(out, k < players &&
                              (state->actors >> observe_seat_at(seat, k, players) & 1u));
    observe_cake(g, seat, out);
    int scores[GATEAU_MAX_PLAYERS] = {0};
    poc_scores(state, scores);
    for (int k = 0; k < POC_MAX_PLAYERS; k++) {
        static const uint8_t none[POC_VARIETIES] = {0};
        int s = k < players ? observe_seat_at(seat, k, players) : -1;
        observe_counts(out, s >= 0 ? g->collected[s] : none);
        observe_counts(out, s >= 0 ? g->eaten[s] : none);
        observe_value(out, s >= 0 ? g->banked[s] / (double)POC_SCORE_SCALE : 0.0);
        observe_value(out, s >= 0 ? scores[s] / (double)POC_SCORE_SCALE : 0.0);
    }
    observe_counts(out, g->removed);
    uint8_t unseen[POC_VARIETIES];
    poc_unseen(g, unseen);
    observe_counts(out, unseen);
}
