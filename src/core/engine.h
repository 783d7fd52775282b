/*
 * engine.h: what a game plugs into (internal to libgateau).
 *
 * A game is one gateau_game table of functions; src/games.c lists the
 * tables, each with its bot support (the core names no game).  The core owns the common part of every state (who acts) and
 * the game owns the rest, a fixed-size struct of its own that lives inline
 * in the state, so cloning a state is one memcpy.
 *
 * Contract for the game's functions:
 * - init() sets up the state and the common fields (actors, chance, ...).
 * - legal_actions() lists the seat's actions in ascending order, at most
 *   type.max_actions of them, and writes nothing past the list (a batch
 *   has it write straight into a caller's row of max_actions: batch.c).
 * - apply() may assume the action is legal (the core checks); it updates
 *   the common fields: after it returns they say who acts next.
 * - parse_move() may assume nothing about the text, and must check the
 *   move fully enough to explain a refusal in one line; the core still
 *   checks every action before applying.
 * - Nothing here allocates except setup, views and notation.
 */
#ifndef GATEAU_ENGINE_H
#define GATEAU_ENGINE_H

#include <stdalign.h>

#include <jansson.h>

#include "core/json_write.h"
#include "core/observation.h"
#include "core/text.h"
#include "gateau/gateau.h"

struct gateau_game {
    const char *name;
    const char *title;
    const char *summary;
    int min_players, max_players;
    const gateau_option_info *options;
    int option_count;
    size_t state_size; /* bytes of the game's own part of a state */
    gateau_game_type type; /* what kind of game, and its decision sizes */

    /* Optional: load data named by options (deck files) into setup->data
     * and check options against each other.  false with a reason. */
    bool (*prepare)(gateau_setup *setup, char *error, size_t error_size);
    void (*release)(gateau_setup *setup); /* frees setup->data */

    void (*init)(gateau_state *state);
    int (*legal_actions)(const gateau_state *state, int seat, gateau_action *actions);
    int (*chance_outcomes)(const gateau_state *state, gateau_action *outcomes,
                           double *probabilities);
    /* Optional fast path; the core otherwise samples chance_outcomes(). */
    gateau_action (*sample_chance)(const gateau_state *state, gateau_rng *rng);
    void (*apply)(gateau_state *state, int seat, gateau_action action);
    void (*scores)(const gateau_state *state, int *scores);
    uint32_t (*winners)(const gateau_state *state);
    void (*determinize)(gateau_state *state, int seat, gateau_rng *rng);

    int (*parse_move)(const gateau_state *state, int seat, const char *text,
                      gateau_action *actions, char *error, size_t error_size);
    void (*format_move)(const gateau_state *before, int seat,
                        const gateau_action *actions, int count, gateau_text *out);
    void (*action_name)(const gateau_state *state, int seat, gateau_action action,
                        gateau_text *out);
    void (*view_text)(const gateau_state *state, int seat, bool color, gateau_text *out);
    /* One value, the view as a JSON object (core/json_write.h). */
    void (*view_json)(const gateau_state *state, int seat, json_writer *out);
    /* Optional: what viewer (a seat or GATEAU_OBSERVER) learns from a move
     * made from `before`: "the slices are shuffled", "roll 1 C 6 6 5".
     * Without it: chance moves say nothing, moves hidden from viewer
     * (move_visible below) only that the seat has moved, other moves show
     * their notation. */
    void (*describe_move)(const gateau_state *before, int seat, const gateau_action *actions,
                          int count, int viewer, gateau_text *out);
    /* Optional: whether viewer (a seat other than the mover, or
     * GATEAU_OBSERVER) may read the notation of a move made from `before`
     * as soon as it is made: true only if what viewer knows right after
     * the move (its views, the commentary) tells the line, as the rules
     * file's "Information" section has it.  The core answers for the mover
     * itself (always true) and checks the arguments.  Without it only the
     * mover sees a move: see gateau_move_visible() in state.c. */
    bool (*move_visible)(const gateau_state *before, int seat, const gateau_action *actions,
                         int count, int viewer);
    /* Optional: the legal moves of seat explained for a person (the
     * `moves` command); without it, the legal first actions are listed. */
    void (*describe_legal)(const gateau_state *state, int seat, gateau_text *out);
    /* Optional: the key to the game's letters, colors and varieties and
     * what each is worth, a few lines for a person (gateau_game_key). */
    void (*key)(gateau_text *out);
    /* Optional: a note on how a finished game ended, when that is unusual
     * (a round limit); records write it as a closing comment. */
    const char *(*end_note)(const gateau_state *state);
    /* Optional (gateau's games all have it): the most actions, chance
     * included, that a game of setup can take
     * from its initial state to its end: a bound derived from the rules
     * (and the engine's guards), never an estimate
     * (gateau_setup_max_game_length). */
    int (*max_game_length)(const gateau_setup *setup);

    /* Optional: puts the parts of a move of seat chosen in any order in the
     * game's canonical order (gateau_move_order, which has checked the
     * seat and count; count may be 0).  It writes at most count + 1
     * actions (one implied part), and refuses, -1 with a one-line reason,
     * only parts that cannot make a move in any order; legality is
     * checked after it.  Without it, parts are taken in the order given. */
    int (*order_move)(const gateau_state *state, int seat, const gateau_action *parts, int count,
                      gateau_action *ordered, char *error, size_t error_size);

    /* For learning agents (gateau/observation.h): every seat action is
     * below action_space; observe writes what seat (or GATEAU_OBSERVER)
     * knows, the same number of values whatever the state and setup, from
     * the facts view_json shows and nothing else (docs/observations.md). */
    int action_space;
    void (*observe)(const gateau_state *state, int seat, observation_writer *out);

    /* Reads a view back (gateau_state_from_view): turns state, fresh from
     * init() for the setup, into a position that seat's view_json shows as
     * `view` (a parsed JSON object whose "game" and "seat" the core has
     * checked), what seat cannot know filled in any way the rules allow,
     * so that seat cannot tell it from the true position (determinize
     * then gives the same as on the true one).  It may assume nothing
     * about the values: every one is range-checked before it is stored,
     * and the state it leaves must be safe to play on (derived fields
     * recomputed, the common fields saying who acts).  The core then
     * checks that view_json gives the view back, so fields it only shows
     * need not be read.  false with a one-line reason naming the field. */
    bool (*from_view)(gateau_state *state, int seat, const json_t *view, char *error,
                      size_t error_size);
};

struct gateau_setup {
    const gateau_game *game;
    int players;
    int option_values[GATEAU_MAX_OPTIONS];
    char *option_paths[GATEAU_MAX_OPTIONS]; /* resolved, for is_path options */
    char *options_text;                     /* canonical, for record headers */
    void *data;                             /* the game's loaded data */
    int observation_size;                   /* floats game->observe writes */
};

struct gateau_state {
    const gateau_setup *setup;
    uint32_t actors;      /* seats that may act now, one bit each */
    bool chance;          /* nature acts now */
    bool over;            /* the game has ended */
    bool simultaneous;    /* the current phase is simultaneous */
    bool in_move;         /* the actor is inside a multi-action move */
    alignas(16) unsigned char game[]; /* the game's own state */
};

/* The game's own part of a state, typed. */
#define GAME_STATE(type, state) ((type *)(void *)(state)->game)
#define GAME_STATE_CONST(type, state) ((const type *)(const void *)(state)->game)

/* An option's value by index in the game's option table. */
static inline int setup_option(const gateau_setup *setup, int index)
{
    return setup->option_values[index];
}

/* Sets the common fields for "one seat acts". */
static inline void state_set_actor(gateau_state *state, int seat)
{
    state->actors = 1u << seat;
    state->chance = false;
}

static inline void state_set_chance(gateau_state *state)
{
    state->actors = 0;
    state->chance = true;
}

static inline void state_set_over(gateau_state *state)
{
    state->actors = 0;
    state->chance = false;
    state->over = true;
    state->simultaneous = false;
    state->in_move = false;
}

/* In a simultaneous phase, whether seat's move (made from state) is the
 * last one the phase waits for: the move that resolves it. */
static inline bool state_completes_phase(const gateau_state *state, int seat)
{
    return state->simultaneous && seat >= 0 && state->actors == 1u << seat;
}

/* Writes a one-line error, printf style, if error is not NULL. */
void set_error(char *error, size_t error_size, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* The values game->observe writes for setup's game (observation.c). */
int observation_count(const gateau_setup *setup);

/* The games there are, each with its bot support (NULL: none), in the
 * order `gateau games` lists them: defined in src/games.c. */
struct bot_game;
typedef struct registry_entry {
    const gateau_game *game;
    const struct bot_game *bots;
} registry_entry;
extern const registry_entry registry_games[];
extern const int registry_game_count;

/* The bot support registered with game, or NULL. */
const struct bot_game *registry_bots(const gateau_game *game);

#endif
