/*
 * review.h: a finished game looked over move by move, as a chess site's
 * computer analysis does (docs/review.md).
 *
 * Every move a seat made is searched again from that seat's information
 * only: the position before the move is determinized for the mover (what
 * it could not know is resampled) before any search looks at it, exactly
 * as the bots see positions.  For each move the review gives the search's
 * win chance and mean final score before the move, after the move played
 * and after the best move it found; the win chance given away, measured
 * several times with different generators so that the search's own noise
 * at that position is known; and a class (good, inaccuracy, mistake,
 * blunder) given only where the loss is clear of that noise.  Where the
 * mover's win chance is saturated (about 0 or about 1, so that no move
 * can change it much), the final score the move gave away is judged too,
 * at the win chance a point of score is worth between equal players.
 * Chance moves are not judged; a move of several actions is judged as a
 * whole.
 *
 * With an iteration budget (the default), the review is a function of the
 * record, the options and the seed alone: the same bytes on any thread
 * count, since each position's generator comes from the seed and the
 * move's index, never from the thread that reviews it.  A millisecond
 * budget is a convenience and is not deterministic.
 *
 * For a host that reviews in the background (a server): a progress
 * callback, and a cancel flag another thread may set.
 */
#ifndef GATEAU_REVIEW_H
#define GATEAU_REVIEW_H

#include "gateau/api.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gateau/bot.h"
#include "gateau/gateau.h"
#include "gateau/record.h"

/* How a move is judged, from the win chance it surely gave away (or, where
 * the win chance is saturated, the score's worth in win chance). */
typedef enum gateau_review_class {
    GATEAU_REVIEW_GOOD,       /* nothing clear given away */
    GATEAU_REVIEW_INACCURACY, /* at least GATEAU_REVIEW_INACCURACY_LOSS */
    GATEAU_REVIEW_MISTAKE,    /* at least GATEAU_REVIEW_MISTAKE_LOSS */
    GATEAU_REVIEW_BLUNDER,    /* at least GATEAU_REVIEW_BLUNDER_LOSS */
    GATEAU_REVIEW_FORCED,     /* the seat had one move only: not judged */
    GATEAU_REVIEW_CLASSES
} gateau_review_class;

/* The thresholds, in win chance (0..1) given away for sure: the loss's
 * lower confidence bound (docs/review.md). */
#define GATEAU_REVIEW_INACCURACY_LOSS 0.03
#define GATEAU_REVIEW_MISTAKE_LOSS 0.06
#define GATEAU_REVIEW_BLUNDER_LOSS 0.12

/* The win chance is saturated, and the score is judged too, where the
 * best move's win chance is under this or the played move's over 1 minus
 * this: there no move can be called a mistake by win chance. */
#define GATEAU_REVIEW_SATURATED 0.06

#define GATEAU_REVIEW_MAX_REPEATS 16
#define GATEAU_REVIEW_DEFAULT_REPEATS 3

/* "good", "inaccuracy", "mistake", "blunder", "forced" (NULL out of range). */
GATEAU_API const char *gateau_review_class_name(int review_class);

/* What a review does.  Start from gateau_review_options_default(). */
typedef struct gateau_review_options {
    /* Each search's budget: iterations (deterministic), or with
     * iterations 0 milliseconds (not deterministic); both 0: ismcts's
     * default iterations for the game. */
    long iterations;
    int ms;
    /* Searches per position, from 2 to GATEAU_REVIEW_MAX_REPEATS: their
     * spread is the noise a loss must clear. */
    int repeats;
    /* Positions reviewed at once, each on its own thread (1 to 64). */
    int threads;
    uint64_t seed; /* 0 to INT64_MAX (JSON writes it as a signed integer) */
    /* The seat (0-based) whose moves are reviewed, or -1 for every seat. */
    int seat;
    /* Called after each position with how many are done of how many, from
     * whichever thread reviewed it, one call at a time (NULL: none). */
    void (*progress)(void *context, int done, int total);
    void *progress_context;
    /* When set (by any thread), the review stops after the searches under
     * way and returns NULL with "cancelled" (NULL: never). */
    const atomic_bool *cancel;
} gateau_review_options;

GATEAU_API void gateau_review_options_default(gateau_review_options *options);

/* One move reviewed.  Win chances are 0..1 (ties split), scores the
 * game's unit; every value is the mover's, from its information. */
typedef struct gateau_review_move {
    int index;                       /* the move's line in the record, from 0 */
    int seat;                        /* the mover, from 0 */
    char move[GATEAU_MAX_MOVE_TEXT]; /* the move played, in notation */
    char best[GATEAU_MAX_MOVE_TEXT]; /* the best move the first search found */
    double win_before, score_before; /* the position: the root search's value of its choice */
    double win_played, score_played; /* after the move played */
    double win_best, score_best;     /* after the search's best move */
    double loss;                     /* win chance given away, mean over the repeats, >= 0 */
    double noise;                    /* standard deviation of the loss over the repeats */
    double sure_loss;                /* the loss's lower bound (one-sided 95%), >= 0 */
    int review_class;                /* a gateau_review_class */
    bool exact;                      /* the values are exact (a solved position) */
    /* The final score given away (score_best - score_played), the same
     * way: mean over the repeats, >= 0; standard deviation; lower bound. */
    double score_loss, score_noise, sure_score_loss;
    /* The win chance was saturated (GATEAU_REVIEW_SATURATED): the score
     * was judged too. */
    bool by_score;
    /* What the class and the accuracy read, in win chance (0..1): sure_loss,
     * or by_score the larger of sure_loss and sure_score_loss's worth in
     * win chance (the JSON's score_thresholds give the rate). */
    double judged_loss;
} gateau_review_move;

/* A seat's summary. */
typedef struct gateau_review_seat {
    int moves;                         /* moves the seat made (forced included) */
    int counts[GATEAU_REVIEW_CLASSES]; /* by class */
    double mean_loss;                  /* mean judged_loss over the judged moves */
    double accuracy;                   /* 0..100, docs/review.md; 100 with no judged move */
} gateau_review_seat;

typedef struct gateau_review gateau_review;

/*
 * Reviews the moves of record (finished or not) with options (NULL: the
 * defaults).  NULL with a one-line reason for bad options, a record whose
 * game has no move to review, or a cancelled review.
 */
GATEAU_API gateau_review *gateau_review_record(const gateau_record *record,
                                               const gateau_review_options *options, char *error,
                                               size_t error_size);
GATEAU_API void gateau_review_free(gateau_review *review);

GATEAU_API int gateau_review_move_count(const gateau_review *review);
GATEAU_API const gateau_review_move *gateau_review_move_at(const gateau_review *review, int index);
GATEAU_API int gateau_review_players(const gateau_review *review);
/* The summary of seat (0-based), NULL out of range. */
GATEAU_API const gateau_review_seat *gateau_review_seat_summary(const gateau_review *review,
                                                                int seat);

/* The review as one compact JSON object (docs/review.md), malloc'd. */
GATEAU_API char *gateau_review_json(const gateau_review *review);

/*
 * Reviews one move: seat's whole move `actions` (count of them) from
 * `before`, where seat is to start a move.  stream tells this position's
 * generator apart from the others' (a record's review passes the move's
 * index).  false with a one-line reason for bad options or a move that is
 * not seat's legal whole move there.
 */
GATEAU_API bool gateau_review_one_move(const gateau_state *before, int seat,
                                       const gateau_action *actions, int count,
                                       const gateau_review_options *options, uint64_t stream,
                                       gateau_review_move *out, char *error, size_t error_size);

#endif
