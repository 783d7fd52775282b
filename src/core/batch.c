/*
 * batch.c: many independent games stepped at once (gateau/observation.h),
 * so that a learner in Python pays its interpreter's overhead once per
 * batch rather than once per game and action.
 *
 * Each game keeps the legal actions it last reported: a step checks the
 * actions it is given against them (no second legal-move generation) and
 * then applies them on the fast path.  The states lie side by side in one
 * block, one cache-line-aligned slot each, and the kept legal actions in
 * another, max_actions per game: a step walks through memory in order
 * instead of chasing a thousand separate allocations, which made it twice
 * as slow per game as playing one game alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine.h"
#include "gateau/observation.h"

enum { BATCH_MAX_GAMES = 1 << 20 };

enum { BATCH_ALIGNMENT = 64 }; /* a cache line */

typedef struct batch_game {
    gateau_state *state;   /* a slot of the batch's block */
    gateau_action *legal;  /* max_actions slots of the batch's legal block */
    gateau_rng rng;
    int seat; /* to act */
    int legal_count;
    uint64_t legal_bits; /* bit a: action a is legal, for action spaces of 64 or less */
} batch_game;

struct gateau_batch {
    const gateau_setup *setup;
    gateau_state *initial; /* the state every game starts from */
    int count;
    long finished;
    bool started;     /* reset at least once */
    bool small_space; /* every action below 64: legal_bits says it all */
    int *ended;       /* games that ended in the last step, ended_count of them */
    int ended_count;
    batch_game *games;
    void *state_block;
    gateau_action *legal_block;
};

/* Chance plays until a seat is to act or the game is over.  (The hot
 * path reads the state's common fields and calls the game's functions
 * directly, as the core may: the public wrappers' checks are done here
 * once.) */
static void play_chance(batch_game *game)
{
    gateau_state *state = game->state;
    while (state->chance) {
        gateau_action outcome = gateau_state_sample_chance(state, &game->rng);
        state->setup->game->apply(state, GATEAU_CHANCE, outcome);
    }
}

static void start_game(const gateau_batch *batch, batch_game *game)
{
    gateau_state_copy(game->state, batch->initial);
    play_chance(game);
}

/* The seat to act and its legal actions, kept for the next step. */
static void find_actor(batch_game *game)
{
    gateau_action legal[GATEAU_MAX_ACTIONS];
    const gateau_state *state = game->state;
    game->seat = __builtin_ctz(state->actors); /* a seat acts: not over, not chance */
    int count = state->setup->game->legal_actions(state, game->seat, legal);
    /* A loop, not memcpy: a dozen actions, where the call costs more. */
    uint64_t bits = 0;
    for (int k = 0; k < count; k++) {
        game->legal[k] = legal[k];
        bits |= legal[k] < 64 ? 1ull << legal[k] : 0;
    }
    game->legal_count = count;
    game->legal_bits = bits;
}

/* Writes game i's position (its seat to act) into the outputs. */
static void write_position(const gateau_batch *batch, int i, const gateau_batch_outputs *out)
{
    const batch_game *game = &batch->games[i];
    const gateau_game *rules = batch->setup->game;
    if (out->observations)
        gateau_state_observation(game->state, game->seat,
                                 out->observations + (size_t)i * batch->setup->observation_size);
    if (out->masks) {
        uint8_t *mask = out->masks + (size_t)i * rules->action_space;
        memset(mask, 0, (size_t)rules->action_space);
        for (int k = 0; k < game->legal_count; k++) mask[game->legal[k]] = 1;
    }
    if (out->legal_actions) {
        int32_t *legal = out->legal_actions + (size_t)i * rules->type.max_actions;
        for (int k = 0; k < game->legal_count; k++) legal[k] = game->legal[k];
    }
    if (out->legal_counts) out->legal_counts[i] = game->legal_count;
    if (out->seats) out->seats[i] = game->seat;
}

/* The results of game i, which has just ended or not. */
static void write_result(const gateau_batch *batch, int i, bool ended,
                         const gateau_batch_outputs *out)
{
    int players = batch->setup->players;
    const gateau_state *state = batch->games[i].state;
    if (out->rewards) {
        float *rewards = out->rewards + (size_t)i * players;
        int scores[GATEAU_MAX_PLAYERS] = {0};
        if (ended) gateau_state_scores(state, scores);
        for (int s = 0; s < players; s++) rewards[s] = (float)scores[s];
    }
    if (out->winners) out->winners[i] = ended ? gateau_state_winners(state) : 0;
    if (out->done) out->done[i] = ended;
}

/* Results are zero but for games that have just ended: a step writes
 * those, and clears the ones of the step before (which the caller may
 * have left as they were), rather than writing every game's. */
static void clear_last_results(gateau_batch *batch, const gateau_batch_outputs *out)
{
    for (int k = 0; k < batch->ended_count; k++) write_result(batch, batch->ended[k], false, out);
    batch->ended_count = 0;
}

gateau_batch *gateau_batch_new(const gateau_setup *setup, int count, uint64_t seed,
                               char *error, size_t error_size)
{
    if (!setup) {
        set_error(error, error_size, "no setup given");
        return NULL;
    }
    if (count < 1 || count > BATCH_MAX_GAMES) {
        set_error(error, error_size, "a batch holds 1 to %d games, not %d", BATCH_MAX_GAMES,
                  count);
        return NULL;
    }
    size_t stride = (gateau_state_size(setup) + BATCH_ALIGNMENT - 1) / BATCH_ALIGNMENT *
                    BATCH_ALIGNMENT;
    int max_actions = setup->game->type.max_actions;
    gateau_batch *batch = calloc(1, sizeof *batch);
    batch_game *games = calloc((size_t)count, sizeof *games);
    unsigned char *block = aligned_alloc(BATCH_ALIGNMENT, stride * (size_t)count);
    gateau_action *legal = calloc((size_t)count * (size_t)max_actions, sizeof *legal);
    batch->ended = calloc((size_t)count, sizeof *batch->ended);
    if (!batch || !games || !block || !legal || !batch->ended) abort();
    batch->small_space = setup->game->action_space <= 64;
    batch->setup = setup;
    batch->count = count;
    batch->games = games;
    batch->state_block = block;
    batch->legal_block = legal;
    batch->initial = gateau_state_new(setup);
    for (int i = 0; i < count; i++) {
        games[i].state = (gateau_state *)(void *)(block + stride * (size_t)i);
        memcpy(games[i].state, batch->initial, gateau_state_size(setup));
        games[i].legal = legal + (size_t)i * (size_t)max_actions;
        gateau_rng_seed_stream(&games[i].rng, seed, (uint64_t)i);
    }
    return batch;
}

void gateau_batch_free(gateau_batch *batch)
{
    if (!batch) return;
    gateau_state_free(batch->initial);
    free(batch->ended);
    free(batch->state_block);
    free(batch->legal_block);
    free(batch->games);
    free(batch);
}

int gateau_batch_count(const gateau_batch *batch) { return batch->count; }
long gateau_batch_games_finished(const gateau_batch *batch) { return batch->finished; }

const gateau_state *gateau_batch_state(const gateau_batch *batch, int index)
{
    return index >= 0 && index < batch->count ? batch->games[index].state : NULL;
}

void gateau_batch_reset(gateau_batch *batch, const gateau_batch_outputs *out)
{
    batch->started = true;
    batch->ended_count = 0;
    for (int i = 0; i < batch->count; i++) {
        start_game(batch, &batch->games[i]);
        find_actor(&batch->games[i]);
        write_position(batch, i, out);
        write_result(batch, i, false, out);
    }
}

/* Whether action is among those game last reported. */
static bool reported_legal(const gateau_batch *batch, const batch_game *game,
                           gateau_action action)
{
    if (batch->small_space) return action >= 0 && action < 64 && (game->legal_bits >> action & 1u);
    for (int k = 0; k < game->legal_count; k++)
        if (game->legal[k] == action) return true;
    return false;
}

bool gateau_batch_step(gateau_batch *batch, const gateau_action *actions,
                       const gateau_batch_outputs *out, char *error, size_t error_size)
{
    if (!batch->started) {
        set_error(error, error_size, "the batch has not been reset: no game has started");
        return false;
    }
    for (int i = 0; i < batch->count; i++) {
        if (!reported_legal(batch, &batch->games[i], actions[i])) {
            set_error(error, error_size,
                      "game %d: action %d is not a legal action of seat %d (%d legal)", i,
                      (int)actions[i], batch->games[i].seat + 1, batch->games[i].legal_count);
            return false;
        }
    }
    clear_last_results(batch, out);
    for (int i = 0; i < batch->count; i++) {
        batch_game *game = &batch->games[i];
        game->state->setup->game->apply(game->state, game->seat, actions[i]);
        play_chance(game);
        if (game->state->over) {
            write_result(batch, i, true, out);
            batch->ended[batch->ended_count++] = i;
            batch->finished++;
            start_game(batch, game);
        }
        find_actor(game);
        write_position(batch, i, out);
    }
    return true;
}
