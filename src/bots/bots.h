/*
 * bots.h: what the strategies share (internal to libgateau).
 *
 * Every function here receives a state that bot.c has already
 * determinized for the seat (or a copy of such a state): the strategies
 * never see the true state.
 */
#ifndef GATEAU_BOTS_H
#define GATEAU_BOTS_H

#include <stdbool.h>

#include "gateau/bot.h"
#include "gateau/gateau.h"

/* How much a search may spend: iterations, or else milliseconds. */
typedef struct bot_budget {
    long iterations; /* > 0: this many simulations in all */
    int ms;          /* > 0 (and iterations == 0): wall-clock milliseconds */
} bot_budget;

/* A policy: one action of seat in a determinized state. */
typedef gateau_action (*bot_policy)(const gateau_state *state, int seat, gateau_rng *rng);

/* Exact final values of a position, when a game can compute them cheaply:
 * score per seat and win share per seat (shares sum to 1). */
typedef struct bot_values {
    int score[GATEAU_MAX_PLAYERS];
    double share[GATEAU_MAX_PLAYERS];
} bot_values;

/* One root candidate of an exact solution. */
typedef struct bot_exact_candidate {
    gateau_action action;
    gateau_action line[GATEAU_MAX_MOVE_ACTIONS]; /* the whole move */
    int line_length;
    bot_values values; /* where the solution leads after this first action */
} bot_exact_candidate;

/*
 * ismcts's defaults for one game: what a spec that does not say takes.
 * Zero everywhere means the general defaults (bot.c).
 */
typedef struct bot_search_defaults {
    /* The budget (iterations) so that a move stays well under 100 ms; with
     * per_two_players it is for two players, and N players get 2/N of it
     * (where every seat's rollout play costs alike). */
    long iterations;
    bool per_two_players;
    /* Where measured otherwise, the budget for a player count, in place
     * of the rule above (0: the rule). */
    long iterations_for_players[GATEAU_MAX_PLAYERS + 1];
    double exploration;      /* the UCB constant c (0: the general 0.7) */
    /* Where measured otherwise, c for a player count (0: exploration). */
    double exploration_for_players[GATEAU_MAX_PLAYERS + 1];
    double heuristic_margin; /* ismcts_params.heuristic_margin */
    bool tree_one_move;      /* ismcts_params.tree_one_move */
    /* ismcts's reward is (1 - w) x win share + w x the score's place, w =
     * 0.1.  The place is where the score lies between the lowest and the
     * highest; with two players that says no more than the win, so there
     * a game may set w = score_weight and, with score_span > 0, the place
     * 0.5 + (score - the other's) / score_span, within 0..1: how wide
     * the win was.  Both apply only to games of two players. */
    double score_weight, score_span;
    /* With tree_one_move and chance_values: a rollout's values after the
     * seat's move are the same in every determinization (the others'
     * policy sees only public information, chance is worked out), so a
     * node of the seat's move is worth its best completion found, not the
     * mean of those tried, and the search plays the best one. */
    bool move_values_exact;
} bot_search_defaults;

/*
 * What a game offers its bots beyond the public API: its search defaults
 * and its policy hooks, listed with the game in src/games.c.  A bot
 * resolves them once per setup (bot.c).  Every hook may be NULL.
 */
typedef struct bot_game {
    bot_search_defaults search;
    /* The heuristic player, documented in docs/bots.md; must depend only
     * on what seat knows (it is handed a determinized state) and be
     * consistent within a move: asked again halfway through a move it
     * continues the move it began. */
    bot_policy heuristic;
    /* A cheap policy for search rollouts (often a lighter heuristic). */
    bot_policy rollout;
    /* The rest of the game by that same policy, played fast on the game's
     * own compact copy, from a point where no move is half made; false
     * where it cannot start (then the search steps on with the policy).
     * Final values into values. */
    bool (*playout)(const gateau_state *state, gateau_rng *rng, bot_values *values);
    /* At a chance point where no move is half made, the expected final
     * values worked out instead of sampled (false: sample as usual).
     * Scores may be fractional. */
    bool (*chance_values)(const gateau_state *state, double share[], double score[]);
    /* Inside a search: exact final values of a position when it is cheap
     * to solve (false otherwise, quickly). */
    bool (*leaf_values)(const gateau_state *state, bot_values *values);
    /* Exact play: true when state can be solved for seat within a budget of
     * `limit` search nodes (0: no limit), filling the candidates (first
     * actions in ascending order) and *best, the index of the move exact
     * play makes; count receives the number of candidates.  With `all`,
     * one exact candidate per legal first action; without, only the best
     * is sure to be there and exact (faster: more pruning). */
    bool (*solve)(const gateau_state *state, int seat, long limit, bool all,
                  bot_exact_candidate *candidates, int *count, int *best);
    /* The hooks' scores count 1/score_scale of the game's unit (0 or 1:
     * the unit itself), for a playout that estimates fractions of it in
     * bot_values' whole numbers (Cake Master: tenths of a star).  The
     * search scales the game's own final scores alike, so that rollouts
     * ending either way compare, and reports means in the game's unit;
     * score_span is in the scaled unit. */
    int score_scale;
} bot_game;

/* The bot support of each game, listed with the game in src/games.c. */
extern const bot_game piece_o_cake_bots;
extern const bot_game maries_table_bots;
extern const bot_game mice_cake_bots;
extern const bot_game cake_master_bots;

/* The game's bot support, or NULL when it has none. */
const bot_game *bot_game_find(const gateau_state *state);

/* Uniform over the legal actions of the decision (rollouts). */
gateau_action bot_random_policy(const gateau_state *state, int seat, gateau_rng *rng);

/* ---- The random bot (random_move.c) ------------------------------------ */

/* Copies of the state for counting the rest of a move, kept between calls. */
typedef struct bot_move_counter {
    gateau_state **states; /* one per depth */
    int depth_capacity;
    long nodes;
} bot_move_counter;

/* An action of seat such that every complete move is equally likely. */
gateau_action bot_random_move(bot_move_counter *counter, const gateau_state *state, int seat,
                              gateau_rng *rng);
void bot_move_counter_free(bot_move_counter *counter);

/* ---- ISMCTS (ismcts.c) ------------------------------------------------- */

typedef struct ismcts_params {
    const bot_game *game; /* the game's bot support (NULL: none) */
    bot_budget budget;
    int threads;          /* root-parallel trees, >= 1 */
    bool heuristic_rollout;
    double exploration;   /* UCB constant */
    bool exact_leaves;    /* use the game's leaf_values in rollouts */
    /* > 0: the heuristic's move is played unless another move has this
     * share of the iterations more visits (ismcts.c) */
    double heuristic_margin;
    /* The tree covers only the seat's move at the root; everything after
     * it is the rollout policy's (ismcts.c). */
    bool tree_one_move;
} ismcts_params;

typedef struct ismcts ismcts;

ismcts *ismcts_new(void);
void ismcts_free(ismcts *search);

/* One root child after a search, trees merged. */
typedef struct ismcts_child {
    gateau_action action;
    long visits;
    double win, score, reward; /* means for the seat; score in the game's unit */
    gateau_action line[GATEAU_MAX_MOVE_ACTIONS]; /* principal move from this action */
    int line_length;
    bool line_complete;  /* the tree reached the end of the move */
    int line_tree_length; /* how much of line the tree itself backs (visits >= a floor) */
} ismcts_child;

/*
 * Searches the decision of seat in `root` (already determinized for seat)
 * and fills up to max children, most visited first (ties: lower action).
 * Returns the number of children and the iterations done in *iterations.
 * The lines are completed with the game's heuristic (or random) where the
 * tree stops before the move ends.
 */
int ismcts_run(ismcts *search, const ismcts_params *params, const gateau_state *root, int seat,
               gateau_rng *rng, ismcts_child *children, int max, long *iterations);

/* ---- External programs (external.c): ext:COMMAND ------------------------ */

typedef struct external_bot external_bot;

/* An ext: bot (bot.c), from its spec. */
gateau_bot *external_bot_new(const char *spec, char *error, size_t error_size);

/* The program and its parameters from the spec after "ext:"; the program
 * is not started yet.  NULL with a one-line reason. */
external_bot *external_new(const char *text, char *error, size_t error_size);
/* Tells the program the game is over if it is, asks it to quit, and kills
 * it (and its process group) if it does not; reaps it. */
void external_free(external_bot *external);
/* A move made from before, for the program playing viewer. */
void external_observe(external_bot *external, int viewer, const gateau_state *before, int seat,
                      const gateau_action *actions, int count);
/* The program's move for seat, or the fallback's when it fails; -1 with
 * the reason in failure when it fails and onerror=forfeit. */
int external_choose(external_bot *external, const gateau_state *state, int seat, gateau_rng *rng,
                    gateau_action actions[GATEAU_MAX_MOVE_ACTIONS], char *failure,
                    size_t failure_size);

/* ---- Helpers ------------------------------------------------------------ */

/* Milliseconds on a monotonic clock. */
double bot_now_ms(void);
/* Whether gateau_bot_interrupt(true) asked every search to stop now. */
bool bot_interrupted(void);

#endif
