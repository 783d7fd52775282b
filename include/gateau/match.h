/*
 * match.h: one game played from its setup to the end.
 *
 * Every host plays games the same way: chance moves drawn from a
 * generator, bots asked for whole moves, other seats' moves coming from
 * the host (a person at a terminal, a browser, a program) or from a
 * callback, every move checked, the record written.  A match is that loop,
 * once, in the library; `gateau play`, `random` and the arena use it.
 *
 * Randomness is the host's: it passes the generators, so that a seed fixes
 * the game.  A seat's bot draws from its seat's generator (seats may share
 * one); chance draws from the chance generator, or, with chance_by_move,
 * from gateau_rng_seed_stream(chance_seed, move number), so that a
 * position reached again after an undo deals the same way again.
 */
#ifndef GATEAU_MATCH_H
#define GATEAU_MATCH_H

#include "gateau/api.h"

#include "gateau/bot.h"
#include "gateau/gateau.h"
#include "gateau/record.h"

typedef struct gateau_match gateau_match;

/* A callback player: writes seat's whole move in notation into move
 * (a NUL-terminated string of at most size bytes) and returns true, or
 * returns false to stop the match. */
typedef bool (*gateau_match_player)(void *context, const gateau_state *state, int seat,
                                    char *move, size_t size);

typedef struct gateau_match_seat {
    const char *bot;            /* a bot spec ("ismcts:ms=50"), or NULL */
    gateau_rng *rng;            /* the bot's generator (required with bot) */
    gateau_match_player player; /* or a callback player (with bot NULL) */
    void *context;              /* the callback's */
    const char *name;           /* for the record (NULL: "Seat N") */
    /* With neither bot nor player, the host plays the seat:
     * gateau_match_run stops and waits for gateau_match_play. */
} gateau_match_seat;

typedef struct gateau_match_config {
    const gateau_setup *setup; /* must outlive the match */
    gateau_match_seat seats[GATEAU_MAX_PLAYERS];
    gateau_rng *chance;        /* chance moves' generator, unless chance_by_move */
    bool chance_by_move;
    uint64_t chance_seed;      /* with chance_by_move */
    /* Keep the record (gateau_match_record).  Without it the match plays
     * on a bare state: the arena's fast path. */
    bool keep_record;
    /* Optional, with keep_record: a game to go on with (a resumed game).
     * Its moves are played first, as they were, chance included; its setup
     * must be this setup.  Names and comment are the host's to copy. */
    const gateau_record *resume;
} gateau_match_config;

typedef enum gateau_match_status {
    GATEAU_MATCH_PLAYING, /* a move was played; more to come */
    GATEAU_MATCH_WAITING, /* a host seat must move (gateau_match_waiting_seat) */
    GATEAU_MATCH_OVER,    /* the game has ended */
    GATEAU_MATCH_STOPPED, /* a callback player stopped the match */
    GATEAU_MATCH_FAILED   /* a callback player's move was illegal, or an ext: bot
                             forfeited (onerror=forfeit): error says why */
} gateau_match_status;

/* Makes the seats' bots from their specs.  NULL with a one-line reason
 * ("seat 2: unknown bot 'x' ..."). */
GATEAU_API gateau_match *gateau_match_new(const gateau_match_config *config, char *error,
                                          size_t error_size);
GATEAU_API void gateau_match_free(gateau_match *match);

/* Plays the next move if it is chance's, a bot's or a callback player's. */
GATEAU_API gateau_match_status gateau_match_step(gateau_match *match, char *error,
                                                 size_t error_size);
/* Steps until the game is over, a host seat must move, or a callback
 * player stops or fails. */
GATEAU_API gateau_match_status gateau_match_run(gateau_match *match, char *error,
                                                size_t error_size);
/* The host seat that must move now, or -1. */
GATEAU_API int gateau_match_waiting_seat(const gateau_match *match);

/* A host seat's whole move, in notation or as actions; checked: false with
 * the reason, nothing changed, when it is not legal. */
GATEAU_API bool gateau_match_play(gateau_match *match, int seat, const char *move,
                                  char *error, size_t error_size);
GATEAU_API bool gateau_match_play_actions(gateau_match *match, int seat,
                                          const gateau_action *actions, int count,
                                          char *error, size_t error_size);

GATEAU_API const gateau_state *gateau_match_state(const gateau_match *match);
/* The record (NULL without keep_record).  A host may truncate it (undo):
 * the match goes on from where the record then stands. */
GATEAU_API gateau_record *gateau_match_record(gateau_match *match);
/* Moves and single actions played so far, chance included (the record's
 * lines, and the actions in them). */
GATEAU_API int gateau_match_moves(const gateau_match *match);
GATEAU_API int gateau_match_actions(const gateau_match *match);
/* The bot at seat (NULL for other seats), e.g. for its name. */
GATEAU_API gateau_bot *gateau_match_bot(gateau_match *match, int seat);

#endif
