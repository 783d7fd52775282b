/*
 * judge.c: one move reviewed.
 *
 * The searches are gateau_bot_analyse's, which determinizes the position
 * for the mover before anything looks at it: the review knows what the
 * mover knew and nothing more.
 *
 * A search's root children are the first actions of the seat's move; the
 * best move is the first search's choice.  A whole move, the one played
 * or the best, is worth its last decision's child in a search at that
 * decision: the root search itself for a move decided at its first action
 * (most moves), else a search at the position where the move's earlier
 * actions lead.  The best's value is measured the same way as the played
 * move's (its principal line may end in the heuristic's completion, which
 * the root child's value does not measure), so a move equal to the best
 * gives away nothing.
 *
 * Each position is searched `repeats` times with different generators;
 * the spread of the loss between them is the search's noise there, and a
 * move is classed by the loss's lower bound, so that no move is called a
 * mistake on noise.
 *
 * Where the win chance is saturated (the best move's under
 * GATEAU_REVIEW_SATURATED, or the played move's that close to 1), no move
 * can give much of it away, and a seat out of the running would never be
 * marked whatever it played.  There the final score given away is bounded
 * the same way and read as win chance at the rate a point is worth between
 * equal players (score_worth.c); the larger of the two readings is judged.
 */
#include <math.h>
#include <stdint.h>
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
    double win_played, score_played;
    double win_best, score_best;
    bool played_known; /* the search tried the move played */
    bool exact;
} repeat_values;

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

/* A whole move and what one repeat's root search said. */
typedef struct measure_context {
    gateau_bot *bot;
    const gateau_state *before;
    int seat;
    gateau_bot_candidate *root; /* the root search's candidates */
    int root_count;
    gateau_rng rng; /* after the root search: every later search starts from it */
} measure_context;

/*
 * The value of a whole move: its last decision's child in a search there
 * (the root search for a move decided at its first action).  The played
 * move and the best are measured alike, from the same generator, so that
 * the same move gets the same value.  false when the search never tried
 * the move.
 */
static bool measure(const measure_context *context, const gateau_action *actions, int count,
                    gateau_bot_candidate *scratch, double *win, double *score, bool *exact)
{
    int last = last_choice(context->before, context->seat, actions, count);
    const gateau_bot_candidate *found;
    if (last <= 0) {
        found = find_action(context->root, context->root_count, actions[0]);
    } else {
        gateau_state *decided = gateau_state_clone(context->before);
        for (int i = 0; i < last; i++) gateau_state_apply_legal(decided, context->seat, actions[i]);
        gateau_rng rng = context->rng;
        int found_count = gateau_bot_analyse(context->bot, decided, context->seat, &rng, scratch,
                                             GATEAU_MAX_ACTIONS);
        gateau_state_free(decided);
        found = find_action(scratch, found_count, actions[last]);
    }
    if (!found || (found->visits == 0 && !found->exact)) return false;
    *win = found->win;
    *score = found->score;
    *exact = *exact && found->exact;
    return true;
}

/* One repeat: the search at the position, then the move played and the
 * search's best move measured as whole moves. */
static void search_once(gateau_bot *bot, const gateau_state *before, int seat,
                        const gateau_action *actions, int count, gateau_rng *rng,
                        gateau_bot_candidate *candidates, repeat_values *values, char *best_move,
                        size_t best_size)
{
    measure_context context = {.bot = bot, .before = before, .seat = seat, .root = candidates};
    context.root_count = gateau_bot_analyse(bot, before, seat, rng, candidates, GATEAU_MAX_ACTIONS);
    context.rng = *rng;
    const gateau_bot_candidate best = candidates[0];
    values->exact = best.exact;
    if (best_move) snprintf(best_move, best_size, "%s", best.move);
    gateau_bot_candidate *scratch = malloc(sizeof *scratch * GATEAU_MAX_ACTIONS);
    if (!scratch) abort(); /* out of memory */
    gateau_action best_actions[GATEAU_MAX_MOVE_ACTIONS];
    char error[256];
    int best_count = gateau_move_parse(before, seat, best.move, best_actions, error, sizeof error);
    bool exact = values->exact;
    if (best_count <= 0 ||
        !measure(&context, best_actions, best_count, scratch, &values->win_best,
                 &values->score_best, &exact)) {
        /* (The best's line always parses; its first action's value else.) */
        values->win_best = best.win;
        values->score_best = best.score;
    }
    values->played_known = measure(&context, actions, count, scratch, &values->win_played,
                                   &values->score_played, &exact);
    values->exact = exact;
    free(scratch);
}

double review_move_accuracy(double judged_loss)
{
    /* Lichess's curve, on the win chance given away in percentage points. */
    double accuracy = 103.1668 * exp(-0.04354 * 100.0 * judged_loss) - 3.1669;
    return accuracy < 0 ? 0 : accuracy > 100 ? 100 : accuracy;
}

static int class_of(double sure_loss)
{
    if (sure_loss >= GATEAU_REVIEW_BLUNDER_LOSS) return GATEAU_REVIEW_BLUNDER;
    if (sure_loss >= GATEAU_REVIEW_MISTAKE_LOSS) return GATEAU_REVIEW_MISTAKE;
    if (sure_loss >= GATEAU_REVIEW_INACCURACY_LOSS) return GATEAU_REVIEW_INACCURACY;
    return GATEAU_REVIEW_GOOD;
}

/* The mean of losses (known of them, >= 0 once clamped), their standard
 * deviation, and the mean's one-sided 95% lower bound (>= 0; the mean
 * itself for exact values). */
static void bound_loss(const double *losses, int known, bool exact, double *loss, double *noise,
                       double *sure)
{
    double mean = 0, spread = 0;
    for (int i = 0; i < known; i++) mean += losses[i] / known;
    for (int i = 0; i < known; i++) spread += (losses[i] - mean) * (losses[i] - mean);
    *noise = known > 1 ? sqrt(spread / (known - 1)) : 0;
    *loss = mean > 0 ? mean : 0;
    double bound = exact ? mean : known > 1 ? mean - T_QUANTILE_95[known - 1] * *noise / sqrt(known) : 0;
    *sure = bound > 0 ? bound : 0;
}

/* What the class reads: the win chance surely given away, or where the
 * win chance is saturated the larger of it and the score's worth. */
static void judge_loss(gateau_review_move *out, double score_worth)
{
    out->by_score = out->win_best < GATEAU_REVIEW_SATURATED ||
                    out->win_played > 1 - GATEAU_REVIEW_SATURATED;
    double score_part = out->sure_score_loss * score_worth;
    out->judged_loss = out->by_score && score_part > out->sure_loss ? score_part : out->sure_loss;
    out->review_class = class_of(out->judged_loss);
}

/* The repeats' means, the losses, their noise and lower bounds, and the class. */
static void summarize(const repeat_values *repeats, int count, double score_worth,
                      gateau_review_move *out)
{
    double losses[GATEAU_REVIEW_MAX_REPEATS], score_losses[GATEAU_REVIEW_MAX_REPEATS];
    int known = 0;
    bool exact = true;
    for (int r = 0; r < count; r++) {
        const repeat_values *v = &repeats[r];
        out->win_best += v->win_best / count;
        out->score_best += v->score_best / count;
        exact = exact && v->exact;
        if (!v->played_known) continue;
        out->win_played += v->win_played;
        out->score_played += v->score_played;
        score_losses[known] = v->score_best - v->score_played;
        losses[known++] = v->win_best - v->win_played;
    }
    out->exact = exact;
    /* The position's worth is its best move's, measured as the played one
     * is.  (The mean over the root's simulations sat well below it,
     * dragged by exploration; the root's value of its first action, for a
     * move of several actions, could stand above the best move's value
     * shown beside it.) */
    out->win_before = out->win_best;
    out->score_before = out->score_best;
    if (known == 0) {
        /* The searches never tried it: nothing to say (docs/review.md). */
        out->win_played = out->win_best;
        out->score_played = out->score_best;
        out->review_class = GATEAU_REVIEW_GOOD;
        return;
    }
    out->win_played /= known;
    out->score_played /= known;
    bound_loss(losses, known, exact, &out->loss, &out->noise, &out->sure_loss);
    bound_loss(score_losses, known, exact, &out->score_loss, &out->score_noise,
               &out->sure_score_loss);
    judge_loss(out, score_worth);
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
    /* A forced move is searched too, for its values (a graph wants them),
     * and then not judged. */
    bool forced = last_choice(before, seat, actions, count) < 0;
    gateau_bot_candidate *candidates = malloc(sizeof *candidates * GATEAU_MAX_ACTIONS);
    if (!candidates) abort(); /* out of memory */
    repeat_values repeats[GATEAU_REVIEW_MAX_REPEATS];
    for (int r = 0; r < options->repeats; r++) {
        gateau_rng rng;
        gateau_rng_seed_stream(&rng, options->seed,
                               stream * GATEAU_REVIEW_MAX_REPEATS + (uint64_t)r);
        search_once(bot, before, seat, actions, count, &rng, candidates, &repeats[r],
                    r == 0 ? out->best : NULL, sizeof out->best);
    }
    free(candidates);
    const gateau_game *game = gateau_setup_game(gateau_state_setup(before));
    summarize(repeats, options->repeats, review_score_worth(game, gateau_state_players(before)),
              out);
    if (forced) {
        snprintf(out->best, sizeof out->best, "%s", out->move);
        out->loss = out->sure_loss = out->noise = 0;
        out->score_loss = out->sure_score_loss = out->score_noise = out->judged_loss = 0;
        out->by_score = false;
        out->review_class = GATEAU_REVIEW_FORCED;
    } else if (!strcmp(out->move, out->best)) {
        /* The search's own move is never judged against itself. */
        out->loss = out->sure_loss = out->score_loss = out->sure_score_loss = out->judged_loss = 0;
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
    else if (options->seed > INT64_MAX)
        problem = "seed must be from 0 to 9223372036854775807"; /* JSON's integers are signed */
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
