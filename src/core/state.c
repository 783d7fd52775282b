/* state.c: game states, the moves on them and the views of them. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine.h"

/* ---- Life cycle ---------------------------------------------------------- */

size_t gateau_state_size(const gateau_setup *setup)
{
    return sizeof(gateau_state) + setup->game->state_size;
}

gateau_state *gateau_state_new(const gateau_setup *setup)
{
    gateau_state *state = calloc(1, gateau_state_size(setup));
    if (!state) abort();
    state->setup = setup;
    setup->game->init(state);
    return state;
}

gateau_state *gateau_state_clone(const gateau_state *state)
{
    size_t size = gateau_state_size(state->setup);
    gateau_state *copy = malloc(size);
    if (!copy) abort();
    memcpy(copy, state, size);
    return copy;
}

void gateau_state_copy(gateau_state *dst, const gateau_state *src)
{
    assert(dst->setup == src->setup); /* the sizes differ between setups */
    memcpy(dst, src, gateau_state_size(src->setup));
}

void gateau_state_free(gateau_state *state) { free(state); }

const gateau_setup *gateau_state_setup(const gateau_state *state) { return state->setup; }
int gateau_state_players(const gateau_state *state) { return state->setup->players; }

/* ---- Who acts ------------------------------------------------------------- */

bool gateau_state_is_over(const gateau_state *state) { return state->over; }
bool gateau_state_is_chance(const gateau_state *state) { return state->chance; }
uint32_t gateau_state_actors(const gateau_state *state) { return state->actors; }
bool gateau_state_is_simultaneous(const gateau_state *state) { return state->simultaneous; }
bool gateau_state_in_move(const gateau_state *state) { return state->in_move; }

int gateau_state_next_seat(const gateau_state *state)
{
    if (!state->actors) return -1;
    return __builtin_ctz(state->actors);
}

/* ---- Actions ---------------------------------------------------------------- */

int gateau_state_legal_actions(const gateau_state *state, int seat,
                               gateau_action actions[GATEAU_MAX_ACTIONS])
{
    if (seat < 0 || seat >= state->setup->players || !(state->actors & (1u << seat)))
        return 0;
    int count = state->setup->game->legal_actions(state, seat, actions);
    /* The game's declared size is what bindings allocate (gateau_game_type). */
    assert(count >= 0 && count <= state->setup->game->type.max_actions);
    return count;
}

int gateau_state_chance_outcomes(const gateau_state *state,
                                 gateau_action outcomes[GATEAU_MAX_ACTIONS],
                                 double probabilities[GATEAU_MAX_ACTIONS])
{
    if (!state->chance) return 0;
    int count = state->setup->game->chance_outcomes(state, outcomes, probabilities);
    assert(count > 0 && count <= state->setup->game->type.max_chance_outcomes);
    return count;
}

gateau_action gateau_state_sample_chance(const gateau_state *state, gateau_rng *rng)
{
    const gateau_game *game = state->setup->game;
    if (game->sample_chance) return game->sample_chance(state, rng);
    gateau_action outcomes[GATEAU_MAX_ACTIONS];
    double probabilities[GATEAU_MAX_ACTIONS];
    int count = game->chance_outcomes(state, outcomes, probabilities);
    double r = gateau_rng_unit(rng);
    for (int i = 0; i < count - 1; i++) {
        if (r < probabilities[i]) return outcomes[i];
        r -= probabilities[i];
    }
    return outcomes[count - 1];
}

/* Says why seat may not act now, or returns false if it may. */
static bool refuse_actor(const gateau_state *state, int seat, char *error, size_t error_size)
{
    if (state->over) {
        set_error(error, error_size, "the game is over");
        return true;
    }
    if (seat == GATEAU_CHANCE) {
        if (state->chance) return false;
        set_error(error, error_size, "this is not a chance move: seat %d is to act",
                  gateau_state_next_seat(state) + 1);
        return true;
    }
    if (state->chance) {
        set_error(error, error_size, "a chance move comes next, not a move of seat %d",
                  seat + 1);
        return true;
    }
    if (seat < 0 || seat >= state->setup->players) {
        set_error(error, error_size, "there is no seat %d in a %d-player game", seat + 1,
                  state->setup->players);
        return true;
    }
    if (state->actors & (1u << seat)) return false;
    if (state->simultaneous && !state->in_move)
        set_error(error, error_size, "seat %d has already moved in this phase", seat + 1);
    else
        set_error(error, error_size, "it is not seat %d's turn: seat %d is to act", seat + 1,
                  gateau_state_next_seat(state) + 1);
    return true;
}

/* Whether action is among seat's legal actions (chance's outcomes). */
static bool is_legal(const gateau_state *state, int seat, gateau_action action)
{
    gateau_action legal[GATEAU_MAX_ACTIONS];
    double probabilities[GATEAU_MAX_ACTIONS];
    int count = seat == GATEAU_CHANCE
                    ? gateau_state_chance_outcomes(state, legal, probabilities)
                    : gateau_state_legal_actions(state, seat, legal);
    for (int i = 0; i < count; i++)
        if (legal[i] == action) return true;
    return false;
}

bool gateau_state_apply(gateau_state *state, int seat, gateau_action action, char *error,
                        size_t error_size)
{
    if (refuse_actor(state, seat, error, error_size)) return false;
    if (!is_legal(state, seat, action)) {
        set_error(error, error_size, "that move is not legal now");
        return false;
    }
    state->setup->game->apply(state, seat, action);
    return true;
}

void gateau_state_apply_legal(gateau_state *state, int seat, gateau_action action)
{
    /* The contract of the fast path, checked in debug builds (tests). */
    assert(is_legal(state, seat, action) && "gateau_state_apply_legal: an action that is not legal");
    state->setup->game->apply(state, seat, action);
}

/* ---- Results ------------------------------------------------------------------ */

void gateau_state_scores(const gateau_state *state, int scores[GATEAU_MAX_PLAYERS])
{
    memset(scores, 0, sizeof(int) * GATEAU_MAX_PLAYERS);
    state->setup->game->scores(state, scores);
}

uint32_t gateau_state_winners(const gateau_state *state)
{
    return state->over ? state->setup->game->winners(state) : 0;
}

/* ---- What a seat knows ------------------------------------------------------- */

static int checked_view_seat(const gateau_state *state, int seat)
{
    return seat >= 0 && seat < state->setup->players ? seat : GATEAU_OBSERVER;
}

char *gateau_state_view_text(const gateau_state *state, int seat, bool color)
{
    gateau_text text = {0};
    state->setup->game->view_text(state, checked_view_seat(state, seat), color, &text);
    return text_take(&text);
}

char *gateau_state_view_json(const gateau_state *state, int seat)
{
    gateau_text text = {0};
    /* Room for most views at once (0.5-3.5 KB): growing from 64 bytes by
     * doubling took six reallocations a view, most of the server's
     * allocation time with every seat's view made after every move. */
    text_reserve(&text, 4096 - 1);
    json_writer out = {&text, false};
    state->setup->game->view_json(state, checked_view_seat(state, seat), &out);
    return text_take(&text);
}

void gateau_state_determinize(gateau_state *state, int seat, gateau_rng *rng)
{
    state->setup->game->determinize(state, checked_view_seat(state, seat), rng);
}

/* ---- Notation ------------------------------------------------------------------ */

/* Plays actions on a copy of state: true when they are, in order, legal and
 * exactly one complete move of seat.  text (may be NULL) names the move in
 * the error. */
static bool check_move(const gateau_state *state, int seat, const gateau_action *actions,
                       int count, const char *text, char *error, size_t error_size)
{
    gateau_state *scratch = gateau_state_clone(state);
    bool ok = true;
    for (int i = 0; ok && i < count; i++) {
        ok = gateau_state_apply(scratch, seat, actions[i], error, error_size);
        if (ok && (i < count - 1) != scratch->in_move) {
            if (text) set_error(error, error_size, "'%s' is not one complete move", text);
            else set_error(error, error_size, "the actions are not one complete move");
            ok = false;
        }
    }
    gateau_state_free(scratch);
    return ok;
}

int gateau_move_parse(const gateau_state *state, int seat, const char *text,
                      gateau_action actions[GATEAU_MAX_MOVE_ACTIONS], char *error,
                      size_t error_size)
{
    if (refuse_actor(state, seat, error, error_size)) return -1;
    if (state->in_move) {
        set_error(error, error_size, "a move is half made: finish it first");
        return -1;
    }
    int count = state->setup->game->parse_move(state, seat, text, actions, error, error_size);
    if (count < 0) return -1;
    if (count == 0) {
        set_error(error, error_size, "'%s' is not a move", text);
        return -1;
    }
    /* The game's parser names what is wrong with the text; this replay
     * makes sure the actions really are one legal, complete move. */
    return check_move(state, seat, actions, count, text, error, error_size) ? count : -1;
}

bool gateau_move_check(const gateau_state *state, int seat, const gateau_action *actions,
                       int count, char *error, size_t error_size)
{
    if (refuse_actor(state, seat, error, error_size)) return false;
    if (state->in_move) {
        set_error(error, error_size, "a move is half made: finish it first");
        return false;
    }
    if (count <= 0) {
        set_error(error, error_size, "a move has at least one action");
        return false;
    }
    return check_move(state, seat, actions, count, NULL, error, error_size);
}

char *gateau_move_format(const gateau_state *before, int seat, const gateau_action *actions,
                         int count)
{
    assert(count > 0 && count <= GATEAU_MAX_MOVE_ACTIONS);
    gateau_text text = {0};
    before->setup->game->format_move(before, seat, actions, count, &text);
    return text_take(&text);
}

char *gateau_action_name(const gateau_state *state, int seat, gateau_action action)
{
    gateau_text text = {0};
    state->setup->game->action_name(state, seat, action, &text);
    return text_take(&text);
}

/*
 * Without the game's move_visible, a move is shown to its mover only (and
 * chance to nobody).  Showing a move that should be hidden gives a secret
 * away for good, while hiding one that could be shown costs a comment
 * line; and only the game knows which of its moves are secret (Marie's
 * Table's draft picks are made in turn, not simultaneously, yet face down).
 */
bool gateau_move_visible(const gateau_state *before, int seat, const gateau_action *actions,
                         int count, int viewer)
{
    int players = before->setup->players;
    if (seat != GATEAU_CHANCE && (seat < 0 || seat >= players)) return false;
    if (!actions || count <= 0 || count > GATEAU_MAX_MOVE_ACTIONS) return false;
    if (viewer < 0 || viewer >= players) viewer = GATEAU_OBSERVER;
    if (seat == viewer) return true;
    const gateau_game *game = before->setup->game;
    return game->move_visible && game->move_visible(before, seat, actions, count, viewer);
}

char *gateau_move_describe(const gateau_state *before, int seat, const gateau_action *actions,
                           int count, int viewer)
{
    const gateau_game *game = before->setup->game;
    gateau_text text = {0};
    if (game->describe_move) {
        game->describe_move(before, seat, actions, count, viewer, &text);
    } else if (seat == GATEAU_CHANCE) {
        text_append(&text, "chance");
    } else if (!gateau_move_visible(before, seat, actions, count, viewer)) {
        text_append(&text, "seat %d has moved", seat + 1);
    } else {
        text_append(&text, "seat %d: ", seat + 1);
        game->format_move(before, seat, actions, count, &text);
    }
    return text_take(&text);
}

char *gateau_state_describe_legal(const gateau_state *state, int seat)
{
    const gateau_game *game = state->setup->game;
    gateau_text text = {0};
    if (game->describe_legal && !state->in_move) {
        game->describe_legal(state, seat, &text);
    } else {
        gateau_action actions[GATEAU_MAX_ACTIONS];
        int count = gateau_state_legal_actions(state, seat, actions);
        for (int i = 0; i < count; i++) {
            text_append(&text, "%s", i ? ", " : "");
            game->action_name(state, seat, actions[i], &text);
        }
    }
    return text_take(&text);
}
