/*
 * observation.h: what a seat knows as numbers, and its legal actions as a
 * mask, for learning agents (the Python package's environments, any
 * program that trains a policy).
 *
 * Every game has an observation: a fixed-size vector of floats, the same
 * size for every player count and option of the game, that encodes the
 * seat's information state (docs/observations.md lists every field).  Two
 * states that differ only in what the seat cannot know give identical
 * vectors, exactly as their views are identical: the tensor is built from
 * the same facts as gateau_state_view_json(), and a property test
 * (tests/test_observation.c) checks it against gateau_state_determinize()
 * for every game and player count.
 *
 * Seats in an observation are relative: the first block of every per-seat
 * field is the observing seat itself, then the seat to its left (seat + 1),
 * and so on, so that one policy can play any seat.  GATEAU_OBSERVER gets
 * what everybody knows, with the seats in their own order.
 *
 * The action space is the game's actions (gateau_action) from 0 to
 * gateau_action_space_size() - 1; a seat's legal actions are always in it.
 * Chance actions are not part of it.
 */
#ifndef GATEAU_OBSERVATION_H
#define GATEAU_OBSERVATION_H

#include "gateau/api.h"

#include <stdbool.h>
#include <stdint.h>

#include "gateau/gateau.h"

/* Floats in an observation of the setup's game (the same for every setup
 * of that game). */
GATEAU_API int gateau_observation_size(const gateau_setup *setup);
/* Writes what seat (or GATEAU_OBSERVER) knows into out, which holds
 * gateau_observation_size() floats.  false, out untouched, for a seat
 * that is neither a seat of the state nor GATEAU_OBSERVER. */
GATEAU_API bool gateau_state_observation(const gateau_state *state, int seat, float *out);

/* Actions the game's seats can take: 0 .. size - 1. */
GATEAU_API int gateau_action_space_size(const gateau_setup *setup);
/* mask[a] = 1 if seat may take action a now, else 0, for the whole action
 * space; returns the number of legal actions (0 when seat may not act). */
GATEAU_API int gateau_state_legal_mask(const gateau_state *state, int seat, uint8_t *mask);

/* ---- Batches: many independent games stepped at once --------------------- */

/*
 * A batch holds count games of one setup and plays them side by side for a
 * learner: each step takes one action per game, for the seat that is to
 * act there, plays it, then plays chance moves from the game's own
 * generator until a seat is to act again.  A game that ends reports its
 * rewards and a done flag and starts again at once (auto-reset), so every
 * game always has a seat to act.  Game i's chance draws from
 * gateau_rng_seed_stream(seed, i): a seed fixes the whole run.
 *
 * The outputs go into the caller's arrays (numpy arrays in Python, written
 * in place, no copies); any pointer may be NULL to skip that output (the
 * observations cost most).  After gateau_batch_reset() and after every
 * gateau_batch_step() they describe the position where each game waits:
 */
typedef struct gateau_batch_outputs {
    float *observations;    /* count x gateau_observation_size(), for the seat to act */
    uint8_t *masks;         /* count x gateau_action_space_size() */
    int32_t *legal_actions; /* count x max_actions (gateau_game_type), ascending;
                               the entries past legal_counts[i] are left as they were */
    int32_t *legal_counts;  /* count */
    int32_t *seats;         /* count: the seat to act (the lowest of several) */
    /* Zero after a reset; a step writes the games that end in it and zeroes
     * those of the step before, so keep passing the same arrays: */
    float *rewards;         /* count x players: final scores of a game that just
                               ended, by seat; 0 otherwise */
    uint32_t *winners;      /* count: winners bitmask of a game that just ended, else 0 */
    uint8_t *done;          /* count: 1 if the game just ended (and restarted) */
} gateau_batch_outputs;

typedef struct gateau_batch gateau_batch;

/* The games start at the first gateau_batch_reset().  NULL with a
 * one-line reason for a count below 1 or above 1 << 20. */
GATEAU_API gateau_batch *gateau_batch_new(const gateau_setup *setup, int count, uint64_t seed,
                                          char *error, size_t error_size);
GATEAU_API void gateau_batch_free(gateau_batch *batch);
GATEAU_API int gateau_batch_count(const gateau_batch *batch);
/* Starts every game anew (the generators go on where they were) and
 * fills out. */
GATEAU_API void gateau_batch_reset(gateau_batch *batch, const gateau_batch_outputs *out);
/*
 * actions[i] for game i's seat to act.  Every action is checked first: an
 * illegal one refuses the whole step (false, "game 3: ... ", nothing
 * played), as does a batch never reset.  Then fills out.
 */
GATEAU_API bool gateau_batch_step(gateau_batch *batch, const gateau_action *actions,
                                  const gateau_batch_outputs *out, char *error,
                                  size_t error_size);
/* Game i as it stands (the whole truth: for checks, not for agents). */
GATEAU_API const gateau_state *gateau_batch_state(const gateau_batch *batch, int index);
/*
 * What replays game index exactly (how the Python package copies and
 * pickles batches and their games): the generator as it was when the game
 * now in progress started, before its opening chance moves, with the
 * actions played in it since (chance drawn from that generator between
 * them, as a step plays it).  false for an index out of range or a batch
 * never reset.
 */
GATEAU_API bool gateau_batch_game_start(const gateau_batch *batch, int index, gateau_rng *rng);
/*
 * Makes game index the game that started from generator start and has had
 * actions[0 .. count) played since, each for its seat to act, chance drawn
 * from start between them; then writes out's row index (results zero).
 * false with a one-line reason, game index unchanged, when an action is
 * illegal, the game ends before the last one or at it, or the batch was
 * never reset.
 */
GATEAU_API bool gateau_batch_replay_game(gateau_batch *batch, int index, const gateau_rng *start,
                                         const gateau_action *actions, int count,
                                         const gateau_batch_outputs *out, char *error,
                                         size_t error_size);
/* Games finished since the batch was made. */
GATEAU_API long gateau_batch_games_finished(const gateau_batch *batch);

#endif
