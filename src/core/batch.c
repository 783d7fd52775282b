/*
 * batch.c: many independent games stepped at once (gateau/observation.h),
 * so that a learner in Python pays its interpreter's overhead once per
 * batch rather than once per game and action.
 *
 * A step costs the games' own work (apply, chance, the next legal
 * actions) and as little else as can be: bench/bench_python.py compares
 * it with the plain C loop of bench/bench_random_play.c, and
 * docs/performance.md says where each nanosecond went.
 *
 * - The game writes its legal actions straight into the caller's output
 *   row.  What the next step checks against is kept apart, never read
 *   back from the caller's arrays at the next step (the caller may write
 *   them): a 64-bit set of the legal actions for the games whose actions
 *   are all below 64, else a copy of the list, in ascending order.
 * - The check of a whole step is one pass without a branch per game for
 *   the 64-bit sets; the search for the culprit is done only when it fails.
 * - The game's functions are called through pointers taken once, when the
 *   batch is made, rather than state->setup->game->... at every call.
 * - The states lie side by side in one block, one cache-line-aligned slot
 *   each: a step walks through memory in order instead of chasing a
 *   thousand separate allocations.
 * - Results are written only for the games that end (and cleared at the
 *   next step); positions without observations or masks are a count, a
 *   seat and the list.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine.h"
#include "gateau/observation.h"

enum { BATCH_MAX_GAMES = 1 << 20 };

enum { BATCH_ALIGNMENT = 64 }; /* a cache line */

typedef struct batch_game {
    gateau_state *state; /* a slot of the batch's block */
    gateau_rng rng;
    gateau_rng start; /* rng when the game in progress started (gateau_batch_game_start) */
    int seat; /* to act */
    int legal_count;
} batch_game;

typedef int legal_actions_fn(const gateau_state *state, int seat, gateau_action *actions);
typedef gateau_action sample_chance_fn(const gateau_state *state, gateau_rng *rng);
typedef void apply_fn(gateau_state *state, int seat, gateau_action action);

struct gateau_batch {
    const gateau_setup *setup;
    gateau_state *initial; /* the state every game starts from */
    int count;
    int max_actions;
    long finished;
    bool started;     /* reset at least once */
    bool small_space; /* every action below 64: legal_bits says it all */
    int *ended;       /* games that ended in the last step, ended_count of them */
    int ended_count;
    batch_game *games;
    void *state_block;
    /* What the last step reported legal, to check the next one against:
     * legal_bits[i] (bit a: action a) when small_space, else the list,
     * max_actions slots a game in legal_block. */
    uint64_t *legal_bits;
    gateau_action *legal_block;
    /* The game's functions (the public wrappers' checks are done here). */
    legal_actions_fn *legal_actions;
    sample_chance_fn *sample_chance;
    apply_fn *apply;
};

/* Chance plays until a seat is to act or the game is over. */
static void play_chance(const gateau_batch *batch, batch_game *game)
{
    gateau_state *state = game->state;
    while (state->chance)
        batch->apply(state, GATEAU_CHANCE, batch->sample_chance(state, &game->rng));
}

static void start_game(const gateau_batch *batch, batch_game *game)
{
    memcpy(game->state, batch->initial, gateau_state_size(batch->setup));
    game->start = game->rng;
    play_chance(batch, game);
}

/* The actions as a 64-bit set (all below 64). */
static uint64_t action_set(const gateau_action *actions, int count)
{
    uint64_t bits = 0;
    for (int k = 0; k < count; k++) bits |= 1ull << actions[k];
    return bits;
}

/* Game i's seat to act and its legal actions: kept for the next step's
 * check, and written into the outputs that take them.  The game writes
 * its list where it is needed (engine.h: nothing past the list, at most
 * max_actions): the caller's row for a 64-bit set, which is read back
 * from there, else the batch's own row, copied out.  Inlined by force:
 * gcc keeps it a call otherwise, a tenth of a step of piece o' Cake. */
static inline __attribute__((always_inline)) void find_actor(gateau_batch *batch, int i,
                                                             const gateau_batch_outputs *out)
{
    gateau_action spare[GATEAU_MAX_ACTIONS];
    batch_game *game = &batch->games[i];
    size_t row = (size_t)i * (size_t)batch->max_actions;
    gateau_action *legal = !batch->small_space ? batch->legal_block + row
                           : out->legal_actions ? out->legal_actions + row
                                                : spare;
    int seat = __builtin_ctz(game->state->actors); /* a seat acts: not over, not chance */
    int count = batch->legal_actions(game->state, seat, legal);
    game->seat = seat;
    game->legal_count = count;
    if (batch->small_space)
        batch->legal_bits[i] = action_set(legal, count);
    else if (out->legal_actions)
        memcpy(out->legal_actions + row, legal, sizeof *legal * (size_t)count);
    if (out->legal_counts) out->legal_counts[i] = count;
    if (out->seats) out->seats[i] = seat;
}

/* The outputs that take more than the legal actions: game i's
 * observation and mask, for its seat to act. */
static void write_tensors(const gateau_batch *batch, int i, const gateau_batch_outputs *out)
{
    const batch_game *game = &batch->games[i];
    if (out->observations)
        gateau_state_observation(game->state, game->seat,
                                 out->observations + (size_t)i * batch->setup->observation_size);
    if (out->masks) {
        size_t space = (size_t)batch->setup->game->action_space;
        uint8_t *mask = out->masks + (size_t)i * space;
        memset(mask, 0, space);
        if (batch->small_space) {
            for (uint64_t bits = batch->legal_bits[i]; bits; bits &= bits - 1)
                mask[__builtin_ctzll(bits)] = 1;
        } else {
            const gateau_action *legal =
                batch->legal_block + (size_t)i * (size_t)batch->max_actions;
            for (int k = 0; k < game->legal_count; k++) mask[legal[k]] = 1;
        }
    }
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
    const gateau_game *rules = setup->game;
    size_t stride = (gateau_state_size(setup) + BATCH_ALIGNMENT - 1) / BATCH_ALIGNMENT *
                    BATCH_ALIGNMENT;
    gateau_batch *batch = calloc(1, sizeof *batch);
    if (!batch) abort();
    batch->setup = setup;
    batch->count = count;
    batch->max_actions = rules->type.max_actions;
    batch->small_space = rules->action_space <= 64;
    batch->games = calloc((size_t)count, sizeof *batch->games);
    batch->state_block = aligned_alloc(BATCH_ALIGNMENT, stride * (size_t)count);
    if (batch->small_space)
        batch->legal_bits = calloc((size_t)count, sizeof *batch->legal_bits);
    else
        batch->legal_block = calloc((size_t)count * (size_t)batch->max_actions,
                                    sizeof *batch->legal_block);
    batch->ended = calloc((size_t)count, sizeof *batch->ended);
    if (!batch->games || !batch->state_block || !(batch->legal_bits || batch->legal_block) ||
        !batch->ended)
        abort();
    batch->legal_actions = rules->legal_actions;
    /* gateau_state_sample_chance() samples chance_outcomes() for the games
     * without a sampler of their own. */
    batch->sample_chance = rules->sample_chance ? rules->sample_chance : gateau_state_sample_chance;
    batch->apply = rules->apply;
    batch->initial = gateau_state_new(setup);
    for (int i = 0; i < count; i++) {
        batch_game *game = &batch->games[i];
        game->state = (gateau_state *)(void *)((unsigned char *)batch->state_block +
                                               stride * (size_t)i);
        memcpy(game->state, batch->initial, gateau_state_size(setup));
        gateau_rng_seed_stream(&game->rng, seed, (uint64_t)i);
    }
    return batch;
}

void gateau_batch_free(gateau_batch *batch)
{
    if (!batch) return;
    gateau_state_free(batch->initial);
    free(batch->ended);
    free(batch->state_block);
    free(batch->legal_bits);
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

bool gateau_batch_game_start(const gateau_batch *batch, int index, gateau_rng *rng)
{
    if (!batch->started || index < 0 || index >= batch->count) return false;
    *rng = batch->games[index].start;
    return true;
}

bool gateau_batch_replay_game(gateau_batch *batch, int index, const gateau_rng *start,
                              const gateau_action *actions, int count,
                              const gateau_batch_outputs *out, char *error, size_t error_size)
{
    if (!batch->started) {
        set_error(error, error_size, "the batch has not been reset: no game has started");
        return false;
    }
    if (index < 0 || index >= batch->count) {
        set_error(error, error_size, "there is no game %d in a batch of %d", index, batch->count);
        return false;
    }
    if (count < 0 || (count > 0 && !actions) || !start) {
        set_error(error, error_size, "game %d: no generator or actions given", index);
        return false;
    }
    /* Played on a copy: a refused replay leaves game index as it was. */
    batch_game replay = {.state = gateau_state_clone(batch->initial), .rng = *start,
                         .start = *start};
    play_chance(batch, &replay);
    bool ok = true;
    for (int k = 0; ok && k < count; k++) {
        char reason[256];
        if (replay.state->over) {
            set_error(error, error_size, "game %d: the game ends after %d of the %d actions",
                      index, k, count);
            ok = false;
        } else if (!gateau_state_apply(replay.state, __builtin_ctz(replay.state->actors),
                                       actions[k], reason, sizeof reason)) {
            set_error(error, error_size, "game %d, action %d of %d: %s", index, k + 1, count,
                      reason);
            ok = false;
        } else {
            play_chance(batch, &replay);
        }
    }
    if (ok && replay.state->over) {
        set_error(error, error_size,
                  "game %d: the actions end the game (a batch's game always has a seat to act)",
                  index);
        ok = false;
    }
    if (ok) {
        batch_game *game = &batch->games[index];
        memcpy(game->state, replay.state, gateau_state_size(batch->setup));
        game->rng = replay.rng;
        game->start = replay.start;
        find_actor(batch, index, out);
        write_tensors(batch, index, out);
        write_result(batch, index, false, out);
    }
    gateau_state_free(replay.state);
    return ok;
}

void gateau_batch_reset(gateau_batch *batch, const gateau_batch_outputs *out)
{
    batch->started = true;
    batch->ended_count = 0;
    for (int i = 0; i < batch->count; i++) {
        start_game(batch, &batch->games[i]);
        find_actor(batch, i, out);
        write_tensors(batch, i, out);
        write_result(batch, i, false, out);
    }
}

/* Whether action is among those game i last reported. */
static bool reported_legal(const gateau_batch *batch, int i, gateau_action action)
{
    if (batch->small_space)
        return action >= 0 && action < 64 && (batch->legal_bits[i] >> action & 1u);
    /* Ascending: the actions below it, then it or not. */
    const gateau_action *legal = batch->legal_block + (size_t)i * (size_t)batch->max_actions;
    int count = batch->games[i].legal_count, below = 0;
    for (int k = 0; k < count; k++) below += legal[k] < action;
    return below < count && legal[below] == action;
}

/* The first game whose action was not reported legal, or -1. */
static int first_illegal(const gateau_batch *batch, const gateau_action *actions)
{
    if (batch->small_space) {
        /* The usual case, every action legal, in one pass without a
         * branch per game; the culprit is looked for only when it fails. */
        uint64_t missing = 0;
        for (int i = 0; i < batch->count; i++) {
            uint32_t action = (uint32_t)actions[i];
            missing |= (action >= 64) | (~batch->legal_bits[i] >> (action & 63) & 1);
        }
        if (!missing) return -1;
    }
    for (int i = 0; i < batch->count; i++)
        if (!reported_legal(batch, i, actions[i])) return i;
    return -1;
}

bool gateau_batch_step(gateau_batch *batch, const gateau_action *actions,
                       const gateau_batch_outputs *out, char *error, size_t error_size)
{
    if (!batch->started) {
        set_error(error, error_size, "the batch has not been reset: no game has started");
        return false;
    }
    int illegal = first_illegal(batch, actions);
    if (illegal >= 0) {
        set_error(error, error_size,
                  "game %d: action %d is not a legal action of seat %d (%d legal)", illegal,
                  (int)actions[illegal], batch->games[illegal].seat + 1,
                  batch->games[illegal].legal_count);
        return false;
    }
    clear_last_results(batch, out);
    bool tensors = out->observations || out->masks;
    for (int i = 0; i < batch->count; i++) {
        batch_game *game = &batch->games[i];
        batch->apply(game->state, game->seat, actions[i]);
        play_chance(batch, game);
        if (game->state->over) {
            write_result(batch, i, true, out);
            batch->ended[batch->ended_count++] = i;
            batch->finished++;
            start_game(batch, game);
        }
        find_actor(batch, i, out);
        if (tensors) write_tensors(batch, i, out);
    }
    return true;
}
