/*
 * judge.c: one move reviewed.
 *
 * The searches are gateau_bot_analyse's, which determinizes the position
 * for the mover before anything looks at it: the review knows what the
 * mover knew and nothing more.
 *
 * A search's root children are the first actions of the seat's move.  The
 * best move is the first search's choice, its value that child's.  The
 * value of the move played is read where the move is decided: at its last
 * decision with a choice (its only one, for most moves, so best and played
 * come from the same search); for a move of several decisions a second
 * search at that last decision gives the value of the whole move played.
 *
 * Each position is searched `repeats` times with different generators;
 * the spread of the loss between them is the search's noise there, and a
 * move is classed by the loss's lower bound, so that no move is called a
 * mistake on noise.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "review/review.h"

/* One-sided 95% quantiles of Student's t, for 1 .. 15 degrees of freedom. */
static const double T_QUANTILE_95[GATEAU_REVIEW_MAX_REPEATS] = {
    0, 6.314, 2.920, 2.353, 2.132, 2.015, 1.943, 1.895,
    1.860, 1.833, 1.812, 1.796, 1.782, 1.771, 1.761, 1.753};

/* What one repeat measured. */
typedef struct repeat_values {
    double win_before, score_before;
    double win_played, score_played;
    double win_best, score_best;
    bool played_known; /* the search tried the move played */
    bool exact;
} repeat_values;

/* The position's value: the mean over all the search's simulations (the
 * visits' weighted mean of the children), or the best one's where the
 * values are exact. */
static void position_value(const gateau_bot_candidate *candidates, int count, double *win,
                           double *score)
{
    double visits = 0, win_sum = 0, score_sum = 0;
    for (int i = 0; i < count; i++) {
        visits += candidates[i].visits;
        win_sum += candidates[i].visits * candidates[i].win;
        score_sum += candidates[i].visits * candidates[i].score;
    }
    if (visits > 0) {
        *win = win_sum / visits;
        *score = score_sum / visits;
    } else {
        *win = candidates[0].win;
        *score = candidates[0].score;
    }
}

static const gateau_bot_candidate *find_action(const gateau_bot_candidate *candidates, int count,
                                               gateau_action action)
{
    for (int i = 0; i < count; i++)
        if (candidates[i].action == action) return &candidates[i];
    return NULL;
}

/* The index in actions of the move's last decision with more than one
 * legal action, or -1 when every decision was forced. */
static int last_choice(const gateau_state *before, int seat, const gateau_action *actions,
                       int count)
{
    gateau_state *state = gateau_state_clone(before);
    gateau_action legal[GATEAU_MAX_ACTIONS];
    int last = -1;
    for (int i = 0; i < count; i++) {
        if (gateau_state_legal_actions(state, seat, legal) > 1) last = i;
        gateau_state_apply_legal(state, seat, actions[i]);
    }
    gateau_state_free(state);
    return last;
}

/* One repeat: the search at the position, and where the move's last choice
 * comes later, a second at that choice. */
static void search_once(gateau_bot *bot, const gateau_state *before, const gateau_state *decided,
                        int seat, gateau_action decided_action, gateau_rng *rng,
                        gateau_bot_candidate *candidates, repeat_values *values, char *best_move,
                        size_t best_size)
{
    int count = gateau_bot_analyse(bot, before, seat, rng, candidates, GATEAU_MAX_ACTIONS);
    const gateau_bot_candidate *best = &candidates[0];
    values->win_best = best->win;
    values->score_best = best->score;
    values->exact = best->exact;
    if (best->exact) {
        values->win_before = best->win;
        values->score_before = best->score;
    } else {
        position_value(candidates, count, &values->win_before, &values->score_before);
    }
    if (best_move) snprintf(best_move, best_size, "%s", best->move);
    if (decided != before) {
        count = gateau_bot_analyse(bot, decided, seat, rng, candidates, GATEAU_MAX_ACTIONS);
        values->exact = values->exact && candidates[0].exact;
    }
    const gateau_bot_candidate *played = find_action(candidates, count, decided_action);
    values->played_known = played && (played->visits > 0 || played->exact);
    if (values->played_known) {
        values->win_played = played->win;
        values->score_played = played->score;
    }
}

double review_move_accuracy(double sure_loss)
{
    /* Lichess's curve, on the win chance given away in percentage points. */
    double accuracy = 103.1668 * exp(-0.04354 * 100.0 * sure_loss) - 3.1669;
    return accuracy < 0 ? 0 : accuracy > 100 ? 100 : accuracy;
}

static int class_of(double sure_loss)
{
    if (sure_loss >= GATEAU_REVIEW_BLUNDER_LOSS) return GATEAU_REVIEW_BLUNDER;
    if (sure_loss >= GATEAU_REVIEW_MISTAKE_LOSS) return GATEAU_REVIEW_MISTAKE;
    if (sure_loss >= GATEAU_REVIEW_INACCURACY_LOSS) return GATEAU_REVIEW_INACCURACY;
    return GATEAU_REVIEW_GOOD;
}

/* The repeats' means, the loss, its noise and its lower bound, and the class. */
static void summarize(const repeat_values *repeats, int count, gateau_review_move *out)
{
    double losses[GATEAU_REVIEW_MAX_REPEATS];
    int known = 0;
    bool exact = true;
    for (int r = 0; r < count; r++) {
        const repeat_values *v = &repeats[r];
        out->win_before += v->win_before / count;
        out->score_before += v->score_before / count;
        out->win_best += v->win_best / count;
        out->score_best += v->score_best / count;
        exact = exact && v->exact;
        if (!v->played_known) continue;
        out->win_played += v->win_played;
        out->score_played += v->score_played;
        losses[known++] = v->win_best - v->win_played;
    }
    out->exact = exact;
    if (known == 0) {
        /* The searches never tried it: nothing to say (docs/review.md). */
        out->win_played = out->win_best;
        out->score_played = out->score_best;
        out->review_class = GATEAU_REVIEW_GOOD;
        return;
    }
    out->win_played /= known;
    out->score_played /= known;
    double mean = 0, spread = 0;
    for (int i = 0; i < known; i++) mean += losses[i] / known;
    for (int i = 0; i < known; i++) spread += (losses[i] - mean) * (losses[i] - mean);
    out->noise = known > 1 ? sqrt(spread / (known - 1)) : 0;
    out->loss = mean > 0 ? mean : 0;
    double sure = exact ? mean : known > 1 ? mean - T_QUANTILE_95[known - 1] * out->noise / sqrt(known) : 0;
    out->sure_loss = sure > 0 ? sure : 0;
    out->review_class = class_of(out->sure_loss);
}

void review_judge(gateau_bot *bot, const gateau_state *before, int seat,
                  const gateau_action *actions, int count, const gateau_review_options *options,
                  uint64_t stream, gateau_review_move *out)
{
    memset(out, 0, sizeof *out);
    out->seat = seat;
    char *text = gateau_move_format(before, seat, actions, count);
    snprintf(out->move, sizeof out->move, "%s", text);
    free(text);
    int last = last_choice(before, seat, actions, count);
    if (last < 0) {
        snprintf(out->best, sizeof out->best, "%s", out->move);
        out->review_class = GATEAU_REVIEW_FORCED;
        return;
    }
    /* Where the move is decided: after its actions before the last choice. */
    gateau_state *decided = gateau_state_clone(before);
    for (int i = 0; i < last; i++) gateau_state_apply_legal(decided, seat, actions[i]);
    gateau_bot_candidate *candidates = malloc(sizeof *candidates * GATEAU_MAX_ACTIONS);
    if (!candidates) abort(); /* out of memory */
    repeat_values repeats[GATEAU_REVIEW_MAX_REPEATS];
    for (int r = 0; r < options->repeats; r++) {
        gateau_rng rng;
        gateau_rng_seed_stream(&rng, options->seed,
                               stream * GATEAU_REVIEW_MAX_REPEATS + (uint64_t)r);
        search_once(bot, before, last == 0 ? before : decided, seat, actions[last], &rng,
                    candidates, &repeats[r], r == 0 ? out->best : NULL, sizeof out->best);
    }
    free(candidates);
    gateau_state_free(decided);
    summarize(repeats, options->repeats, out);
    /* The search's own move is never judged against itself. */
    if (!strcmp(out->move, out->best)) {
        out->loss = out->sure_loss = 0;
        out->review_class = GATEAU_REVIEW_GOOD;
    }
}

bool review_check_options(const gateau_review_options *options, int players, char *error,
                          size_t error_size)
{
    const char *problem = NULL;
    if (options->iterations < 0 || options->iterations > 1000000000L)
        problem = "iterations must be from 1 to 1000000000 (0: the game's default)";
    else if (options->ms < 0 || options->ms > 3600000)
        problem = "ms must be from 1 to 3600000 (0: an iteration budget)";
    else if (options->iterations > 0 && options->ms > 0)
        problem = "give iterations or ms, not both";
    else if (options->repeats < 2 || options->repeats > GATEAU_REVIEW_MAX_REPEATS)
        problem = "repeats must be from 2 to 16 (the noise needs two searches at least)";
    else if (options->threads < 1 || options->threads > 64)
        problem = "threads must be from 1 to 64";
    if (problem) {
        snprintf(error, error_size, "review: %s", problem);
        return false;
    }
    if (options->seat < -1 || options->seat >= players) {
        snprintf(error, error_size, "review: there is no seat %d: the seats of this %d-player "
                                    "game are 1..%d", options->seat + 1, players, players);
        return false;
    }
    return true;
}

gateau_bot *review_bot_new(const gateau_review_options *options, char *error, size_t error_size)
{
    char spec[96];
    if (options->iterations > 0)
        snprintf(spec, sizeof spec, "ismcts:iters=%ld:threads=1", options->iterations);
    else if (options->ms > 0)
        snprintf(spec, sizeof spec, "ismcts:ms=%d:threads=1", options->ms);
    else
        snprintf(spec, sizeof spec, "ismcts:threads=1");
    return gateau_bot_new(spec, error, error_size);
}

bool gateau_review_one_move(const gateau_state *before, int seat, const gateau_action *actions,
                            int count, const gateau_review_options *options, uint64_t stream,
                            gateau_review_move *out, char *error, size_t error_size)
{
    gateau_review_options defaults;
    if (!options) {
        gateau_review_options_default(&defaults);
        options = &defaults;
    }
    if (!review_check_options(options, gateau_state_players(before), error, error_size))
        return false;
    if (seat < 0 || seat >= gateau_state_players(before) || gateau_state_in_move(before) ||
        !(gateau_state_actors(before) & (1u << seat))) {
        snprintf(error, error_size, "review: seat %d is not to start a move here", seat + 1);
        return false;
    }
    char reason[256];
    if (!gateau_move_check(before, seat, actions, count, reason, sizeof reason)) {
        snprintf(error, error_size, "review: %s", reason);
        return false;
    }
    gateau_bot *bot = review_bot_new(options, error, error_size);
    if (!bot) return false;
    review_judge(bot, before, seat, actions, count, options, stream, out);
    gateau_bot_free(bot);
    return true;
}
