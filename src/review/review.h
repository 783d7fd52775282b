/*
 * review/review.h: what the review's files share (internal to libgateau).
 *
 * judge.c reviews one move (its searches, its loss and noise, its class);
 * score_worth.c says what a point of score is worth in win chance;
 * review.c a whole record on threads; review_json.c writes the result.
 */
#ifndef GATEAU_REVIEW_INTERNAL_H
#define GATEAU_REVIEW_INTERNAL_H

#include "gateau/review.h"

struct gateau_review {
    const gateau_game *game;
    int players;
    gateau_review_options options; /* as given (callbacks and cancel not used after) */
    int count;
    gateau_review_move *moves;
    gateau_review_seat seats[GATEAU_MAX_PLAYERS];
};

/* A one-line reason in error when options are out of range for a game of
 * `players` seats; true when they are fine. */
bool review_check_options(const gateau_review_options *options, int players, char *error,
                          size_t error_size);

/* The searching bot a review uses for options (one per thread). */
gateau_bot *review_bot_new(const gateau_review_options *options, char *error, size_t error_size);

/* gateau_review_one_move with the caller's bot, the move assumed legal and
 * whole and the options checked. */
void review_judge(gateau_bot *bot, const gateau_state *before, int seat,
                  const gateau_action *actions, int count, const gateau_review_options *options,
                  uint64_t stream, gateau_review_move *out);

/* The win chance one unit of final score is worth in game with `players`
 * seats, between equal players (score_worth.c): the rate at which a
 * saturated position's score loss is read as win chance; 0 for a game
 * not measured (its score is then never judged). */
double review_score_worth(const gateau_game *game, int players);

/* A move's accuracy, 0..100, from the win chance it surely gave away (its
 * judged_loss). */
double review_move_accuracy(double judged_loss);

#endif
