/*
 * gateau.h: the public API of libgateau, an engine for cake-sharing games.
 *
 * The model is OpenSpiel's game interface, in lean C:
 *
 *   gateau_game    the rules of one game, found in a registry by name
 *   gateau_setup   a game with a player count and options chosen
 *   gateau_state   one game in progress: fixed size, cloned by copying
 *   gateau_action  one small decision (an int); a move in the notation of
 *                  the rules files is a sequence of actions by one actor
 *   gateau_record  a game written down: header plus one move per line
 *
 * Seats are 0-based in this API (0 .. players-1) and 1-based in all text
 * (notation, records, views).  Chance ("nature") acts as GATEAU_CHANCE.
 *
 * Hidden information lives in the engine: a state is the whole truth, and
 * gateau_state_view_*() and gateau_state_determinize() give a seat exactly
 * what it knows.  Bots only ever see states that went through
 * gateau_state_determinize() for their seat (see gateau/bot.h).
 */
#ifndef GATEAU_H
#define GATEAU_H

#include "gateau/api.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gateau/rng.h"
#include "gateau/version.h" /* GATEAU_VERSION, from CMakeLists.txt */

#define GATEAU_MAX_PLAYERS 6
#define GATEAU_MAX_ACTIONS 256      /* most legal actions at one decision */
#define GATEAU_MAX_MOVE_ACTIONS 256 /* most actions in one move (a deal) */
#define GATEAU_MAX_OPTIONS 8
/* The longest bot spec a command line or an arena part takes, its
 * terminator included: room for an ext: program's settings and paths. */
#define GATEAU_MAX_SPEC 512

#define GATEAU_CHANCE (-2)   /* the seat argument for chance actions */
#define GATEAU_OBSERVER (-1) /* a view for someone who sits at no seat */

typedef int32_t gateau_action;
typedef struct gateau_game gateau_game;
typedef struct gateau_setup gateau_setup;
typedef struct gateau_state gateau_state;

/* ---- The registry of games -------------------------------------------- */

typedef struct gateau_option_info {
    const char *name;    /* key in "key=value" */
    const char *help;    /* one line */
    bool is_path;        /* a file path (kept as text) rather than an integer */
    int default_value;
    int min_value, max_value;
} gateau_option_info;

/*
 * What kind of game a game is, as OpenSpiel's GameType tells its users,
 * and the sizes a binding needs to hold its decisions.  The maxima hold
 * over every player count and option.
 */
typedef struct gateau_game_type {
    bool simultaneous;       /* some phases are simultaneous: secret moves,
                                revealed together (gateau_state_is_simultaneous) */
    bool chance;             /* chance moves: shuffles, deals, dice */
    bool hidden_information; /* seats know different things (views differ) */
    const char *score_unit;  /* what scores count ("points", "stars", "pips");
                                higher is better, winners are in gateau_state_winners */
    int max_actions;         /* most legal actions of a seat at one decision */
    int max_chance_outcomes; /* most outcomes of one chance decision */
    int max_move_actions;    /* most actions in one move (the longest deal) */
} gateau_game_type;

GATEAU_API int gateau_game_count(void);
GATEAU_API const gateau_game *gateau_game_at(int index);
GATEAU_API const gateau_game *gateau_game_find(const char *name); /* NULL if unknown */

GATEAU_API const char *gateau_game_name(const gateau_game *game);    /* "piece-o-cake" */
GATEAU_API const char *gateau_game_title(const gateau_game *game);   /* "piece o' Cake" */
GATEAU_API const char *gateau_game_summary(const gateau_game *game); /* rules in brief */
/* The key to the game's notation and views: what each letter, color or
 * variety stands for and what it is worth, a few lines each ending in a
 * newline ("" for a game without one).  malloc'd; the caller frees it. */
GATEAU_API char *gateau_game_key(const gateau_game *game);
GATEAU_API int gateau_game_min_players(const gateau_game *game);
GATEAU_API int gateau_game_max_players(const gateau_game *game);
GATEAU_API int gateau_game_option_count(const gateau_game *game);
GATEAU_API const gateau_option_info *gateau_game_option(const gateau_game *game, int index);
GATEAU_API const gateau_game_type *gateau_game_type_of(const gateau_game *game);

/* ---- Setups: a game, a player count, options --------------------------- */

/*
 * options: space-separated "key=value" (NULL or "" for all defaults).
 * base_dir: where relative path options (a deck file) are looked up; NULL
 * for the current directory.  On error returns NULL and writes a one-line
 * reason into error.
 */
GATEAU_API gateau_setup *gateau_setup_new(const gateau_game *game, int players,
                               const char *options, const char *base_dir,
                               char *error, size_t error_size);
GATEAU_API void gateau_setup_free(gateau_setup *setup);
GATEAU_API const gateau_game *gateau_setup_game(const gateau_setup *setup);
GATEAU_API int gateau_setup_players(const gateau_setup *setup);
GATEAU_API int gateau_setup_option(const gateau_setup *setup, const char *name);
/* The options as given, canonical "key=value ..." ("" if none). */
GATEAU_API const char *gateau_setup_options_text(const gateau_setup *setup);
/* An upper bound on the number of actions, chance included, that any game
 * of setup takes from its initial state to its end (OpenSpiel's
 * MaxGameLength): derived from the rules and the engine's guards (Mice
 * Cake's round limit), so no game is longer, though most are shorter.  -1
 * for a game that states none (every game of the registry states one). */
GATEAU_API int gateau_setup_max_game_length(const gateau_setup *setup);

/* ---- States -------------------------------------------------------------- */

GATEAU_API gateau_state *gateau_state_new(const gateau_setup *setup); /* initial state */
GATEAU_API gateau_state *gateau_state_clone(const gateau_state *state);
/* Copies src over dst; both from the same setup.  No allocation. */
GATEAU_API void gateau_state_copy(gateau_state *dst, const gateau_state *src);
GATEAU_API size_t gateau_state_size(const gateau_setup *setup); /* bytes, for reports */
GATEAU_API void gateau_state_free(gateau_state *state);
GATEAU_API const gateau_setup *gateau_state_setup(const gateau_state *state);
GATEAU_API int gateau_state_players(const gateau_state *state);

/* Who acts now: exactly one of these holds. */
GATEAU_API bool gateau_state_is_over(const gateau_state *state);
GATEAU_API bool gateau_state_is_chance(const gateau_state *state);
GATEAU_API uint32_t gateau_state_actors(const gateau_state *state); /* bit s: seat s */
/* The seat to ask next: lowest seat in actors, or -1 (chance or over). */
GATEAU_API int gateau_state_next_seat(const gateau_state *state);
/* True in a simultaneous phase (votes, secret shares): moves are hidden
 * from the other seats until the phase resolves, and records prefix them
 * with the seat. */
GATEAU_API bool gateau_state_is_simultaneous(const gateau_state *state);
/* True while the actor is inside a move of several actions (a take and its
 * slice decisions): only that actor may act until the move is complete. */
GATEAU_API bool gateau_state_in_move(const gateau_state *state);

/* Legal actions of seat (0 if the seat may not act), ascending. */
GATEAU_API int gateau_state_legal_actions(const gateau_state *state, int seat,
                               gateau_action actions[GATEAU_MAX_ACTIONS]);
/* Chance: the outcomes with their probabilities (summing to 1). */
GATEAU_API int gateau_state_chance_outcomes(const gateau_state *state,
                                 gateau_action outcomes[GATEAU_MAX_ACTIONS],
                                 double probabilities[GATEAU_MAX_ACTIONS]);
/* Chance: one outcome drawn from those probabilities. */
GATEAU_API gateau_action gateau_state_sample_chance(const gateau_state *state, gateau_rng *rng);

/*
 * Applies one action of seat (GATEAU_CHANCE for chance).  An illegal action
 * is refused: false, a one-line reason in error (may be NULL), and the state
 * is unchanged.
 */
GATEAU_API bool gateau_state_apply(gateau_state *state, int seat, gateau_action action,
                        char *error, size_t error_size);
/* The same without the legality check, for actions just taken from
 * gateau_state_legal_actions() or sampled: the fast path of playouts. */
GATEAU_API void gateau_state_apply_legal(gateau_state *state, int seat, gateau_action action);

/* Scores in seat order (provisional until over: what they would be if the
 * game ended now).  Winners: a bitmask of seats after the tiebreaks, 0
 * while the game is not over. */
GATEAU_API void gateau_state_scores(const gateau_state *state, int scores[GATEAU_MAX_PLAYERS]);
GATEAU_API uint32_t gateau_state_winners(const gateau_state *state);

/*
 * What seat knows (GATEAU_OBSERVER: what everybody knows), as text for a
 * terminal (ANSI colors when color is true) or as one JSON object.  Two
 * states that differ only in what seat cannot know give identical views.
 * Both return a malloc'd string the caller frees.
 */
GATEAU_API char *gateau_state_view_text(const gateau_state *state, int seat, bool color);
GATEAU_API char *gateau_state_view_json(const gateau_state *state, int seat);

/*
 * Resamples, in place, everything seat cannot know, uniformly among the
 * states consistent with what it knows.  What remains is a state a bot may
 * search freely.
 */
GATEAU_API void gateau_state_determinize(gateau_state *state, int seat, gateau_rng *rng);

/*
 * A position read back from a seat's JSON view (gateau_state_view_json for
 * this setup and seat, as text): what the view shows as it shows it, and
 * everything the seat cannot know filled in as the rules allow, so that
 * the seat cannot tell the result from the true position (determinizing
 * it gives what determinizing the true one gives).  How a program that
 * gets only views (the bot protocol, docs/protocol.md) plays from them.
 * The view is checked, not trusted: anything that is not a view this
 * setup can show (bad JSON, a value out of range, a field that does not
 * read back the same) is refused, NULL with a one-line reason.  malloc'd.
 */
GATEAU_API gateau_state *gateau_state_from_view(const gateau_setup *setup, int seat,
                                                const char *view, char *error,
                                                size_t error_size);

/* ---- Moves: the notation of the rules files ----------------------------- */

/*
 * Parses one move of seat (GATEAU_CHANCE for chance) in the notation, no
 * seat prefix, into its actions.  Returns the number of actions, or -1 with
 * a one-line reason in error.  The actions are checked against the state:
 * applying them in order is legal.
 */
GATEAU_API int gateau_move_parse(const gateau_state *state, int seat, const char *text,
                      gateau_action actions[GATEAU_MAX_MOVE_ACTIONS],
                      char *error, size_t error_size);
/* Whether actions[0 .. count) are, in order, legal and exactly one
 * complete move of seat in state (which is unchanged): false with a
 * one-line reason otherwise.  For moves given as actions (a browser, a
 * program). */
GATEAU_API bool gateau_move_check(const gateau_state *state, int seat, const gateau_action *actions,
                                  int count, char *error, size_t error_size);
/* The canonical text of a complete move made from state `before`.
 * Returns a malloc'd string. */
GATEAU_API char *gateau_move_format(const gateau_state *before, int seat,
                         const gateau_action *actions, int count);
/* A short name for one action (for menus and bot reports): "take 4-7",
 * "eat", "collect".  Returns a malloc'd string. */
GATEAU_API char *gateau_action_name(const gateau_state *state, int seat, gateau_action action);

/* What viewer learns from a move made from `before` (for a running
 * commentary that keeps hidden things hidden).  malloc'd. */
GATEAU_API char *gateau_move_describe(const gateau_state *before, int seat,
                           const gateau_action *actions, int count, int viewer);
/*
 * Whether viewer (a seat, or GATEAU_OBSERVER; any other number counts as
 * an observer) may read the notation of a move of seat (GATEAU_CHANCE for
 * chance) made from `before`, at the moment it is made: for a log that
 * keeps hidden things hidden (gateau_record_text_for in gateau/record.h).
 * A seat always sees its own moves.  Hidden are what the rules hide: a
 * shuffle, a secret pick, a simultaneous choice while others still have
 * to choose (the choice that completes the phase reveals them all, so it
 * is visible).  A game that does not say shows a move to its mover only.
 * False for a seat that is neither a seat nor GATEAU_CHANCE, or no action.
 */
GATEAU_API bool gateau_move_visible(const gateau_state *before, int seat,
                                    const gateau_action *actions, int count, int viewer);
/*
 * Moves built in any order (a person clicking a board).  A move's parts
 * are its actions as the game lists them; a person may choose them in any
 * order that makes sense for the move (a cut's gaps anywhere round the
 * cake, either card of a pair first, placements in any position order,
 * mice in any column order), and the game puts them in its one canonical
 * order, the order gateau_move_check and the records take.  Parts that
 * name the same thing in two places count as one part (Marie's Table's
 * lower and higher card of a pair are both "that card").
 *
 * gateau_move_order: parts[0 .. count) of a move of seat (whole or begun)
 * in any order, written to ordered in the game's canonical order, with any
 * part the rules imply added (piece o' Cake's "cut done" after two or more
 * gaps) and any they make redundant dropped.  Returns the number written,
 * or -1 with a one-line reason when the parts cannot be arranged into a
 * move at all (a part that is not of this decision, a gap chosen twice,
 * two takes).  A whole move's parts in any order give the move itself, so
 * ordering a legal move changes nothing; whether the result is legal is
 * gateau_move_check's to say.
 */
GATEAU_API int gateau_move_order(const gateau_state *state, int seat, const gateau_action *parts,
                                 int count, gateau_action ordered[GATEAU_MAX_MOVE_ACTIONS],
                                 char *error, size_t error_size);
/*
 * gateau_move_choices: the parts that may join chosen[0 .. count) (any
 * order) so that it stays part of some legal move of seat, ascending, one
 * action per distinct part, none that would change nothing; *complete says
 * whether chosen is already a whole legal move (ordered).  Returns their
 * number, or -1 with a one-line reason when chosen is part of no legal
 * move of seat, or seat may not start a move now (not to move, or inside
 * a move made action by action).  With count 0, the parts a move may
 * begin with in any order.  It lists seat's legal moves (a few thousand
 * at most), so it answers from what seat knows and nothing else.
 */
GATEAU_API int gateau_move_choices(const gateau_state *state, int seat, const gateau_action *chosen,
                                   int count, gateau_action choices[GATEAU_MAX_ACTIONS],
                                   bool *complete, char *error, size_t error_size);
/* The legal moves of seat, explained for a person.  malloc'd. */
GATEAU_API char *gateau_state_describe_legal(const gateau_state *state, int seat);

#endif
