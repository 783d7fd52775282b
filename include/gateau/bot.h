/*
 * bot.h: computer players.
 *
 * A bot never sees the true state.  gateau_bot_choose_move() and
 * gateau_bot_analyse() hand the bot's strategy a private copy of the state
 * that went through gateau_state_determinize() for the bot's seat:
 * everything the seat cannot know has been resampled, so a strategy cannot
 * cheat even by accident.  Searching strategies determinize copies of
 * that state again, which for the same seat keeps the distribution.
 *
 * Bots answer with whole moves: hosts never hold half-made moves.
 *
 * Bot specs (see docs/bots.md):
 *
 *   random                    uniform over the complete legal moves
 *   heuristic[:random=F]      the game's rule-of-thumb player (random for a
 *                             game that has none yet: the name says so);
 *                             with random=F, each move is the random bot's
 *                             with probability F (a weaker level)
 *   ismcts[:iters=N|:ms=N][:threads=T][:rollout=random|heuristic][:c=X]
 *                             information-set Monte Carlo tree search
 *   solver                    heuristic, then exact play where the game
 *                             can be solved (piece o' Cake's last cake)
 *   ext:[key=value:...]COMMAND ARGUMENTS
 *                             an external program, played through the bot
 *                             protocol (docs/protocol.md); keys: ms, clock,
 *                             start, legal, onerror=heuristic|forfeit, log,
 *                             stderr
 *
 * A bot is not thread-safe: one bot per thread (ismcts:threads=T runs its
 * own threads inside one call).
 */
#ifndef GATEAU_BOT_H
#define GATEAU_BOT_H

#include "gateau/api.h"

#include "gateau/gateau.h"

typedef struct gateau_bot gateau_bot;

/* spec: a bot name with optional ":key=value" parameters ("ismcts:ms=50").
 * NULL with a one-line reason for an unknown bot or parameter. */
GATEAU_API gateau_bot *gateau_bot_new(const char *spec, char *error, size_t error_size);
GATEAU_API void gateau_bot_free(gateau_bot *bot);
/* The spec as given; "heuristic" for a game without a heuristic player of
 * its own reads "heuristic (random for GAME)" once the bot has played it. */
GATEAU_API const char *gateau_bot_name(const gateau_bot *bot);

/* A bot's whole move: its actions in order and the move in the game's
 * notation (a fixed-size struct, for bindings). */
#define GATEAU_MAX_MOVE_TEXT 512
typedef struct gateau_bot_move {
    int count;                                     /* actions in the move */
    gateau_action actions[GATEAU_MAX_MOVE_ACTIONS];
    char text[GATEAU_MAX_MOVE_TEXT];               /* "take 4-7 ecce" */
} gateau_bot_move;

/*
 * The bot's whole move for seat, which must be able to act in state at the
 * start of a move (not inside one: hosts play whole moves).  Fills move
 * and returns true; false (move->count 0) when seat may not start a move
 * there.  Apply it with gateau_state_apply or gateau_record_play for each
 * action in order, or gateau_record_play_move with the text.
 */
GATEAU_API bool gateau_bot_choose_move(gateau_bot *bot, const gateau_state *state, int seat,
                                       gateau_rng *rng, gateau_bot_move *move);
/* The same whole move as actions only, for hosts that write no notation
 * (arenas, playouts: formatting costs about a tenth of a fast game).
 * Returns the number of actions, 0 when seat may not start a move, -1
 * when the bot forfeits the game (an ext: bot with onerror=forfeit whose
 * program failed: gateau_bot_failure says how). */
GATEAU_API int gateau_bot_choose_actions(gateau_bot *bot, const gateau_state *state, int seat,
                                         gateau_rng *rng,
                                         gateau_action actions[GATEAU_MAX_MOVE_ACTIONS]);

/* Why the bot last forfeited ("" if it has not): "seat 2 (ext:...)
 * forfeits: no answer in time", or for a program that could not start or
 * shake hands (which stops the game whatever onerror says) "seat 2
 * (ext:...): cannot start ...". */
GATEAU_API const char *gateau_bot_failure(const gateau_bot *bot);

/* How an ext: bot's program has fared since the bot was made: its
 * failures (each logged) in *failures, and in *fallbacks the moves the
 * fallback made instead of it.  0 and 0 for the other bots.  Either
 * pointer may be NULL. */
GATEAU_API void gateau_bot_failures(const gateau_bot *bot, int *failures, int *fallbacks);

/* Where the bot plays, at the head of its failure lines on stderr, as in
 * "game 3, move 12" (an arena) or "move 12" (gateau play): set before a
 * decision by a host that has several games or wants the move said.
 * NULL or "" for none.  Only ext: bots log anything. */
GATEAU_API void gateau_bot_set_label(gateau_bot *bot, const char *label);

/* Starts an ext: bot's program and shakes hands now, rather than at its
 * first move, so that a program that cannot start (a typo, a missing
 * interpreter) or answer fails a run before its games: false with a
 * one-line reason ("seat 2 (ext:...): cannot start ..."; seat is 0-based,
 * for the message, or -1 for none: "ext:...: cannot start ...").  True at
 * once for the other bots. */
GATEAU_API bool gateau_bot_start(gateau_bot *bot, int seat, char *error, size_t error_size);

/*
 * Process hygiene for a host that runs ext: programs (gateau's commands
 * do): makes the process the child subreaper of what it starts
 * (prctl(PR_SET_CHILD_SUBREAPER)), so that a program's descendants that
 * leave its process group and are orphaned (setsid, a double fork) come
 * back to it, to be killed and reaped when the bot is freed.  Without
 * it they are still killed, and reaped by whoever adopts them.  false
 * with the reason when the system refuses.  Call it before any thread
 * starts programs.
 */
GATEAU_API bool gateau_bot_guard_processes(char *error, size_t error_size);

/* Kills every program the process's ext: bots started, and everything
 * they started: SIGTERM, then SIGKILL to those still there 100 ms later.
 * Async-signal-safe: for a host's SIGINT and SIGTERM handlers before it
 * exits (it also runs at exit).  The bots are unusable afterwards. */
GATEAU_API void gateau_bot_kill_programs(void);

/*
 * Stops every search of the process at once (stop true), for a host that
 * is stopping: searches under way (ismcts, and analyses) return within
 * milliseconds with what they found so far, and new ones stop after
 * their first iterations, until gateau_bot_interrupt(false).  Any
 * thread; the moves then chosen are legal but weak, so a host does not
 * play them.  An ext: bot waiting for its program (a move, or the
 * handshake) stops waiting within 50 ms: its program is killed, the
 * choice returns 0 (no move), and the bot asks its program nothing
 * more (a stopping host frees it).
 */
GATEAU_API void gateau_bot_interrupt(bool stop);

/*
 * Tells the bot, which plays seat `viewer`, of a move just made from
 * `before` by seat (GATEAU_CHANCE for chance): hosts call it for every bot
 * after every whole move (gateau_match does), so that a bot that follows
 * the game as it goes (an external program: the views and the record lines
 * after every change) sees it all.  Built-in bots ignore it, and a host
 * may skip it for bots where gateau_bot_observes is false; a bot that was
 * not told of a move catches up at its next decision.
 */
GATEAU_API void gateau_bot_observe(gateau_bot *bot, int viewer, const gateau_state *before,
                                   int seat, const gateau_action *actions, int count);
GATEAU_API bool gateau_bot_observes(const gateau_bot *bot);

/* One candidate move at the root of an analysis. */
typedef struct gateau_bot_candidate {
    gateau_action action;  /* the first action of the move */
    char move[256];        /* the complete move in the game's notation: the
                              principal line of the search from that first
                              action, completed by the game's heuristic
                              where the tree stops before the move ends */
    int visits;            /* simulations through it (0 for exact values) */
    double win;            /* estimated win chance (win share, ties split) */
    double score;          /* estimated mean final score of the seat */
    bool exact;            /* values from an exact solution, not estimates */
} gateau_bot_candidate;

/*
 * Analyses the decision of seat in state from the seat's information only
 * and writes up to max candidates, best first; returns how many.  An
 * ismcts bot searches with its budget; a solver bot in a position it can
 * solve gives exact values; other bots (random, heuristic) search with the
 * default ismcts budget.  The values are for the seat: win chance and mean
 * final score.  In a position inside seat's move (its first actions
 * played: a review values the rest of a move so), a candidate's `move` is
 * its first action's name only.
 */
GATEAU_API int gateau_bot_analyse(gateau_bot *bot, const gateau_state *state, int seat, gateau_rng *rng,
                       gateau_bot_candidate *results, int max);

/* What a bot plays instead in game when the game lacks the support its
 * spec asks for: "heuristic" for a solver where the game has no solver,
 * "random" for a heuristic where it has no heuristic; NULL when the bot
 * plays as named (or the spec is not a bot). */
GATEAU_API const char *gateau_bot_fallback(const char *spec, const gateau_game *game);

/* The names of the bots there are, for help texts: "random, ...". */
GATEAU_API const char *gateau_bot_names(void);

#endif
