/*
 * batch.c: many independent games stepped at once (gateau/observation.h),
 * so that a learner in Python pays its interpreter's overhead once per
 * batch rather than once per game and action.
 *
 * Each game keeps the legal actions it last reported: a step checks the
 * actions it is given against them (no second legal-move generation) and
 * then applies them on the fast path.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine.h"
#include "gateau/observation.h"

enum { BATCH_MAX_GAMES = 1 << 20 };

typedef struct batch_game {
    gateau_state *state;
    gateau_rng rng;
    int seat; /* to act */
    int legal_count;
    gateau_action legal[GATEAU_MAX_ACTIONS];
} batch_game;

struct gateau_batch {
    const gateau_setup *setup;
    gateau_state *initial; /* the state every game starts from */
    int count;
    long finished;
    bool started; /* reset at least once */
    batch_game *games;
};

/* Chance plays until a seat is to act or the game is over. */
static void play_chance(batch_game *game)
{
    while (gateau_state_is_chance(game->state)) {
        gateau_action outcome = gateau_state_sample_chance(game->state, &game->rng);
        gateau_state_apply_legal(game->state, GATEAU_CHANCE, outcome);
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
    game->seat = gateau_state_next_seat(game->state);
    game->legal_count = gateau_state_legal_actions(game->state, game->seat, game->legal);
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
        memcpy(legal, game->legal, sizeof *legal * (size_t)game->legal_count);
        memset(legal + game->legal_count, 0,
               sizeof *legal * (size_t)(rules->type.max_actions - game->legal_count));
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
    gateau_batch *batch = calloc(1, sizeof *batch);
    batch_game *games = calloc((size_t)count, sizeof *games);
    if (!batch || !games) abort();
    batch->setup = setup;
    batch->count = count;
    batch->games = games;
    batch->initial = gateau_state_new(setup);
    for (int i = 0; i < count; i++) {
        games[i].state = gateau_state_clone(batch->initial);
        gateau_rng_seed_stream(&games[i].rng, seed, (uint64_t)i);
    }
    return batch;
}

void gateau_batch_free(gateau_batch *batch)
{
    if (!batch) return;
    for (int i = 0; i < batch->count; i++) gateau_state_free(batch->games[i].state);
    gateau_state_free(batch->initial);
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
    for (int i = 0; i < batch->count; i++) {
        start_game(batch, &batch->games[i]);
        find_actor(&batch->games[i]);
        write_position(batch, i, out);
        write_result(batch, i, false, out);
    }
}

/* Whether action is among those game last reported. */
static bool reported_legal(const batch_game *game, gateau_action action)
{
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
        if (!reported_legal(&batch->games[i], actions[i])) {
            set_error(error, error_size,
                      "game %d: action %d is not a legal action of seat %d (%d legal)", i,
                      (int)actions[i], batch->games[i].seat + 1, batch->games[i].legal_count);
            return false;
        }
    }
    for (int i = 0; i < batch->count; i++) {
        batch_game *game = &batch->games[i];
        gateau_state_apply_legal(game->state, game->seat, actions[i]);
        play_chance(game);
        bool ended = gateau_state_is_over(game->state);
        write_result(batch, i, ended, out);
        if (ended) {
            batch->finished++;
            start_game(batch, game);
        }
        find_actor(game);
        write_position(batch, i, out);
    }
    return true;
}
