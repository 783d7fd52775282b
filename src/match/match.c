/*
 * match.c: one game from its setup to the end (gateau/match.h).
 *
 * Uses the public API only, as any host would.  The state lives in the
 * record when one is kept, else in a bare state (the arena's fast path:
 * no notation written for games nobody reads).
 */
#include "gateau/match.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gateau_match {
    const gateau_setup *setup;
    int players;
    gateau_match_seat seats[GATEAU_MAX_PLAYERS];
    gateau_bot *bots[GATEAU_MAX_PLAYERS];
    gateau_rng *chance;
    bool chance_by_move;
    uint64_t chance_seed;
    gateau_record *record; /* NULL: the bare state below */
    gateau_state *state;
    int moves, actions;
    /* Bots told of every move (gateau_bot_observes: ext: programs), and
     * the position before the move being played, for them. */
    bool observers;
    gateau_state *before;
};

static void write_error(char *error, size_t error_size, const char *format, const char *text,
                        int seat)
{
    if (error && error_size) snprintf(error, error_size, format, seat + 1, text);
}

static const gateau_state *current_state(const gateau_match *match)
{
    return match->record ? gateau_record_state(match->record) : match->state;
}

/* Before a move: keeps the position for the observers. */
static void note_before(gateau_match *match)
{
    if (!match->observers) return;
    if (!match->before) match->before = gateau_state_clone(current_state(match));
    else gateau_state_copy(match->before, current_state(match));
}

/* After a whole move: tells the bots that follow the game. */
static void tell_observers(gateau_match *match, int seat, const gateau_action *actions, int count)
{
    if (!match->observers) return;
    for (int s = 0; s < match->players; s++)
        if (match->bots[s] && gateau_bot_observes(match->bots[s]))
            gateau_bot_observe(match->bots[s], s, match->before, seat, actions, count);
}

/* Plays a resumed game's moves, each already checked when it was read. */
static void replay_moves(gateau_match *match, const gateau_record *resume)
{
    for (int m = 0; m < gateau_record_move_count(resume); m++) {
        int count, seat = gateau_record_move_seat(resume, m);
        const gateau_action *actions = gateau_record_move_actions(resume, m, &count);
        note_before(match);
        for (int a = 0; a < count; a++) {
            bool played = gateau_record_play(match->record, seat, actions[a], NULL, 0);
            assert(played);
            (void)played;
        }
        match->actions += count;
        tell_observers(match, seat, actions, count);
    }
}

gateau_match *gateau_match_new(const gateau_match_config *config, char *error, size_t error_size)
{
    gateau_match *match = calloc(1, sizeof *match);
    if (!match) abort(); /* out of memory */
    match->setup = config->setup;
    match->players = gateau_setup_players(config->setup);
    match->chance = config->chance;
    match->chance_by_move = config->chance_by_move;
    match->chance_seed = config->chance_seed;
    for (int s = 0; s < match->players; s++) {
        const gateau_match_seat *seat = &config->seats[s];
        match->seats[s] = *seat;
        if (!seat->bot) continue;
        char reason[256];
        match->bots[s] = gateau_bot_new(seat->bot, reason, sizeof reason);
        if (!match->bots[s]) {
            write_error(error, error_size, "seat %d: %s", reason, s);
            gateau_match_free(match);
            return NULL;
        }
        assert(seat->rng); /* a bot needs its generator */
        if (gateau_bot_observes(match->bots[s])) match->observers = true;
    }
    assert(match->chance || match->chance_by_move);
    assert(!config->resume || config->keep_record);
    if (config->keep_record) {
        match->record = gateau_record_new(config->setup);
        for (int s = 0; s < match->players; s++)
            if (config->seats[s].name) gateau_record_set_name(match->record, s, config->seats[s].name);
        if (config->resume) replay_moves(match, config->resume);
    } else {
        match->state = gateau_state_new(config->setup);
    }
    return match;
}

void gateau_match_free(gateau_match *match)
{
    if (!match) return;
    for (int s = 0; s < match->players; s++) gateau_bot_free(match->bots[s]);
    gateau_record_free(match->record);
    gateau_state_free(match->state);
    gateau_state_free(match->before);
    free(match);
}

const gateau_state *gateau_match_state(const gateau_match *match) { return current_state(match); }

gateau_record *gateau_match_record(gateau_match *match) { return match->record; }
int gateau_match_actions(const gateau_match *match) { return match->actions; }
gateau_bot *gateau_match_bot(gateau_match *match, int seat) { return match->bots[seat]; }

int gateau_match_moves(const gateau_match *match)
{
    return match->record ? gateau_record_move_count(match->record) : match->moves;
}

/* Plays one action, checked unless it was drawn for chance. */
static bool play_action(gateau_match *match, int seat, gateau_action action, char *error,
                        size_t error_size)
{
    bool legal = true;
    if (match->record) {
        legal = gateau_record_play(match->record, seat, action, error, error_size);
    } else if (seat == GATEAU_CHANCE) {
        gateau_state_apply_legal(match->state, seat, action);
    } else {
        legal = gateau_state_apply(match->state, seat, action, error, error_size);
    }
    if (!legal) return false;
    match->actions++;
    if (!gateau_state_in_move(gateau_match_state(match))) match->moves++;
    return true;
}

static void play_chance(gateau_match *match)
{
    gateau_rng by_move, *rng = match->chance;
    if (match->chance_by_move) {
        gateau_rng_seed_stream(&by_move, match->chance_seed, (uint64_t)gateau_match_moves(match));
        rng = &by_move;
    }
    const gateau_state *state = gateau_match_state(match);
    note_before(match);
    gateau_action actions[GATEAU_MAX_MOVE_ACTIONS];
    int count = 0;
    do {
        gateau_action action = gateau_state_sample_chance(state, rng);
        bool played = play_action(match, GATEAU_CHANCE, action, NULL, 0);
        assert(played && count < GATEAU_MAX_MOVE_ACTIONS);
        (void)played;
        actions[count++] = action;
    } while (gateau_state_is_chance(state) && gateau_state_in_move(state));
    tell_observers(match, GATEAU_CHANCE, actions, count);
}

/* Plays a move already known to be whole and legal. */
static void play_move(gateau_match *match, int seat, const gateau_action *actions, int count)
{
    note_before(match);
    for (int i = 0; i < count; i++) {
        bool played = play_action(match, seat, actions[i], NULL, 0);
        assert(played);
        (void)played;
    }
    tell_observers(match, seat, actions, count);
}

bool gateau_match_play_actions(gateau_match *match, int seat, const gateau_action *actions,
                               int count, char *error, size_t error_size)
{
    /* All or nothing: the move is checked whole before any of it is played. */
    if (!gateau_move_check(gateau_match_state(match), seat, actions, count, error, error_size))
        return false;
    play_move(match, seat, actions, count);
    return true;
}

bool gateau_match_play(gateau_match *match, int seat, const char *move, char *error,
                       size_t error_size)
{
    gateau_action actions[GATEAU_MAX_MOVE_ACTIONS];
    /* gateau_move_parse checks that the actions are one whole legal move. */
    int count = gateau_move_parse(gateau_match_state(match), seat, move, actions, error,
                                  error_size);
    if (count <= 0) return false;
    play_move(match, seat, actions, count);
    return true;
}

int gateau_match_waiting_seat(const gateau_match *match)
{
    const gateau_state *state = gateau_match_state(match);
    if (gateau_state_is_over(state) || gateau_state_is_chance(state)) return -1;
    int seat = gateau_state_next_seat(state);
    const gateau_match_seat *config = &match->seats[seat];
    return config->bot || config->player ? -1 : seat;
}

gateau_match_status gateau_match_step(gateau_match *match, char *error, size_t error_size)
{
    const gateau_state *state = gateau_match_state(match);
    if (gateau_state_is_over(state)) return GATEAU_MATCH_OVER;
    if (gateau_state_is_chance(state)) {
        play_chance(match);
        return GATEAU_MATCH_PLAYING;
    }
    int seat = gateau_state_next_seat(state);
    const gateau_match_seat *config = &match->seats[seat];
    if (match->bots[seat]) {
        /* A bot's move is legal by construction: played action by action,
         * each still checked, without the all-or-nothing copy. */
        gateau_action actions[GATEAU_MAX_MOVE_ACTIONS];
        int count = gateau_bot_choose_actions(match->bots[seat], state, seat, config->rng, actions);
        if (count < 0) { /* an external program forfeited (onerror=forfeit) */
            if (error && error_size)
                snprintf(error, error_size, "%s", gateau_bot_failure(match->bots[seat]));
            return GATEAU_MATCH_FAILED;
        }
        assert(count > 0);
        play_move(match, seat, actions, count);
        return GATEAU_MATCH_PLAYING;
    }
    if (!config->player) return GATEAU_MATCH_WAITING;
    char move[GATEAU_MAX_MOVE_TEXT];
    if (!config->player(config->context, state, seat, move, sizeof move))
        return GATEAU_MATCH_STOPPED;
    char reason[256];
    if (!gateau_match_play(match, seat, move, reason, sizeof reason)) {
        write_error(error, error_size, "seat %d made an illegal move: %s", reason, seat);
        return GATEAU_MATCH_FAILED;
    }
    return GATEAU_MATCH_PLAYING;
}

gateau_match_status gateau_match_run(gateau_match *match, char *error, size_t error_size)
{
    gateau_match_status status;
    do status = gateau_match_step(match, error, error_size);
    while (status == GATEAU_MATCH_PLAYING);
    return status;
}
