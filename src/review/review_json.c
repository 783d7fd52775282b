/*
 * review_json.c: a review as JSON (gateau_review_json; the fields are in
 * docs/review.md).  Seats and move numbers count from 1 there, as in the
 * records and the other commands' JSON.
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>

#include "review/review.h"

/* Values rounded to 4 decimals: the searches are not surer than that, and
 * short lines read better. */
static json_t *rounded(double value) { return json_real((double)llround(value * 10000) / 10000); }

static json_t *seat_json(const gateau_review *review, int seat)
{
    const gateau_review_seat *summary = &review->seats[seat];
    json_t *out = json_pack("{s:i, s:i}", "seat", seat + 1, "moves", summary->moves);
    for (int c = 0; c < GATEAU_REVIEW_CLASSES; c++)
        json_object_set_new(out, gateau_review_class_name(c), json_integer(summary->counts[c]));
    json_object_set_new(out, "mean_loss", rounded(summary->mean_loss));
    json_object_set_new(out, "accuracy", rounded(summary->accuracy));
    return out;
}

static json_t *move_json(const gateau_review_move *move)
{
    json_t *out = json_pack("{s:i, s:i, s:s, s:s, s:s}", "number", move->index + 1, "seat",
                            move->seat + 1, "move", move->move, "best", move->best, "class",
                            gateau_review_class_name(move->review_class));
    json_object_set_new(out, "win_before", rounded(move->win_before));
    json_object_set_new(out, "win_played", rounded(move->win_played));
    json_object_set_new(out, "win_best", rounded(move->win_best));
    json_object_set_new(out, "score_before", rounded(move->score_before));
    json_object_set_new(out, "score_played", rounded(move->score_played));
    json_object_set_new(out, "score_best", rounded(move->score_best));
    json_object_set_new(out, "loss", rounded(move->loss));
    json_object_set_new(out, "noise", rounded(move->noise));
    json_object_set_new(out, "sure_loss", rounded(move->sure_loss));
    json_object_set_new(out, "exact", json_boolean(move->exact));
    json_object_set_new(out, "score_loss", rounded(move->score_loss));
    json_object_set_new(out, "score_noise", rounded(move->score_noise));
    json_object_set_new(out, "sure_score_loss", rounded(move->sure_score_loss));
    json_object_set_new(out, "by_score", json_boolean(move->by_score));
    json_object_set_new(out, "judged_loss", rounded(move->judged_loss));
    return out;
}

/* The thresholds in the game's unit of score, for a saturated position's
 * score loss (null where the game's score is never judged). */
static json_t *score_thresholds(const gateau_review *review)
{
    double worth = review_score_worth(review->game, review->players);
    if (worth <= 0) return json_null();
    return json_pack("{s:o, s:o, s:o}", "inaccuracy", rounded(GATEAU_REVIEW_INACCURACY_LOSS / worth),
                     "mistake", rounded(GATEAU_REVIEW_MISTAKE_LOSS / worth), "blunder",
                     rounded(GATEAU_REVIEW_BLUNDER_LOSS / worth));
}

char *gateau_review_json(const gateau_review *review)
{
    const gateau_review_options *options = &review->options;
    json_t *out = json_pack("{s:s, s:i, s:I, s:I, s:i, s:i}", "game",
                            gateau_game_name(review->game), "players", review->players, "seed",
                            (json_int_t)options->seed, "iterations",
                            (json_int_t)options->iterations, "ms", options->ms, "repeats",
                            options->repeats);
    json_t *thresholds = json_pack("{s:f, s:f, s:f}", "inaccuracy", GATEAU_REVIEW_INACCURACY_LOSS,
                                   "mistake", GATEAU_REVIEW_MISTAKE_LOSS, "blunder",
                                   GATEAU_REVIEW_BLUNDER_LOSS);
    json_object_set_new(out, "thresholds", thresholds);
    json_object_set_new(out, "saturated", json_real(GATEAU_REVIEW_SATURATED));
    json_object_set_new(out, "score_thresholds", score_thresholds(review));
    json_t *seats = json_array();
    for (int s = 0; s < review->players; s++)
        if (options->seat < 0 || options->seat == s) json_array_append_new(seats, seat_json(review, s));
    json_object_set_new(out, "seats", seats);
    json_t *moves = json_array();
    for (int i = 0; i < review->count; i++) json_array_append_new(moves, move_json(&review->moves[i]));
    json_object_set_new(out, "moves", moves);
    char *text = json_dumps(out, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    json_decref(out);
    if (!text) abort(); /* out of memory */
    return text;
}
