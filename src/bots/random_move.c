/*
 * random_move.c: the `random` bot, uniform over complete moves.
 *
 * A move may be several actions (a piece o' Cake take is the piece, then
 * one decision per slice), so picking uniformly at each decision would
 * favour short moves: a one-slice piece would be taken as often as the
 * whole cake, though the whole cake can be eaten and collected in 2048
 * ways.  Instead each decision picks an action with probability
 * proportional to the number of complete moves that start with it, so
 * that every complete move is equally likely (the product of those
 * probabilities along a move is 1 / the number of moves).  The counts
 * come from walking the rest of the move action by action on copies of
 * the state.
 *
 * Where a decision has more than MOVE_COUNT_LIMIT continuations to walk,
 * that one decision is uniform over its actions instead (the later ones
 * of the move, with fewer continuations, are counted again); no game
 * here comes near it.
 */
#include <stdlib.h>

#include "bots/bots.h"

#define MOVE_COUNT_LIMIT 200000L

/* The copy of the state at depth, made on first use and kept. */
static gateau_state *state_at(bot_move_counter *counter, int depth, const gateau_state *like)
{
    if (depth >= counter->depth_capacity) {
        int capacity = counter->depth_capacity ? counter->depth_capacity * 2 : 16;
        while (capacity <= depth) capacity *= 2;
        gateau_state **states = realloc(counter->states, sizeof *states * (size_t)capacity);
        if (!states) abort();
        for (int i = counter->depth_capacity; i < capacity; i++) states[i] = NULL;
        counter->states = states;
        counter->depth_capacity = capacity;
    }
    gateau_state **slot = &counter->states[depth];
    if (*slot && gateau_state_setup(*slot) != gateau_state_setup(like)) {
        gateau_state_free(*slot);
        *slot = NULL;
    }
    if (!*slot) *slot = gateau_state_clone(like);
    return *slot;
}

/* The complete moves of seat that begin with action from `from`, or -1
 * past the limit. */
static long moves_after(bot_move_counter *counter, const gateau_state *from, int seat,
                        gateau_action action, int depth)
{
    if (++counter->nodes > MOVE_COUNT_LIMIT) return -1;
    gateau_state *state = state_at(counter, depth, from);
    gateau_state_copy(state, from);
    gateau_state_apply_legal(state, seat, action);
    if (!gateau_state_in_move(state) || gateau_state_is_over(state) ||
        gateau_state_is_chance(state) || !(gateau_state_actors(state) & (1u << seat)))
        return 1;
    gateau_action actions[GATEAU_MAX_ACTIONS];
    int count = gateau_state_legal_actions(state, seat, actions);
    long total = 0;
    for (int i = 0; i < count; i++) {
        long moves = moves_after(counter, state, seat, actions[i], depth + 1);
        if (moves < 0) return -1;
        total += moves;
    }
    return total;
}

gateau_action bot_random_move(bot_move_counter *counter, const gateau_state *state, int seat,
                              gateau_rng *rng)
{
    gateau_action actions[GATEAU_MAX_ACTIONS];
    long moves[GATEAU_MAX_ACTIONS];
    int count = gateau_state_legal_actions(state, seat, actions);
    if (count == 1) return actions[0];
    counter->nodes = 0;
    long total = 0;
    for (int i = 0; i < count; i++) {
        moves[i] = moves_after(counter, state, seat, actions[i], 0);
        if (moves[i] < 0) return actions[gateau_rng_below(rng, (uint32_t)count)];
        total += moves[i];
    }
    /* total <= MOVE_COUNT_LIMIT: it fits the generator's 32-bit bound. */
    long r = (long)gateau_rng_below(rng, (uint32_t)total);
    int i = 0;
    while (r >= moves[i]) r -= moves[i++];
    return actions[i];
}

void bot_move_counter_free(bot_move_counter *counter)
{
    for (int i = 0; i < counter->depth_capacity; i++) gateau_state_free(counter->states[i]);
    free(counter->states);
    counter->states = NULL;
    counter->depth_capacity = 0;
}

gateau_action bot_random_policy(const gateau_state *state, int seat, gateau_rng *rng)
{
    gateau_action actions[GATEAU_MAX_ACTIONS];
    int count = gateau_state_legal_actions(state, seat, actions);
    return actions[gateau_rng_below(rng, (uint32_t)count)];
}
