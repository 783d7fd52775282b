/*
 * review.c: a record's moves reviewed on threads (gateau_review_record).
 *
 * The record is replayed once to keep the position before each move to
 * review; workers then take positions in turn from a shared counter.
 * Which thread reviews a position changes nothing: its generator comes
 * from the seed and the move's index (judge.c), so the review is the same
 * on any thread count.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "review/review.h"

static const char *const CLASS_NAMES[GATEAU_REVIEW_CLASSES] = {"good", "inaccuracy", "mistake",
                                                               "blunder", "forced"};

const char *gateau_review_class_name(int review_class)
{
    return review_class >= 0 && review_class < GATEAU_REVIEW_CLASSES ? CLASS_NAMES[review_class]
                                                                      : NULL;
}

void gateau_review_options_default(gateau_review_options *options)
{
    *options = (gateau_review_options){.repeats = GATEAU_REVIEW_DEFAULT_REPEATS,
                                       .threads = 1,
                                       .seed = 1,
                                       .seat = -1};
}

/* One position to review: the state before the move, and the move. */
typedef struct position {
    gateau_state *before;
    int index, seat, count;
    const gateau_action *actions;
} position;

/* What the workers share. */
typedef struct review_job {
    const gateau_review_options *options;
    position *positions;
    gateau_review_move *moves;
    int total;
    atomic_int next;
    pthread_mutex_t progress_lock;
    int done;
    atomic_bool failed; /* a worker could not make its bot */
} review_job;

static bool cancelled(const review_job *job)
{
    return job->options->cancel && atomic_load(job->options->cancel);
}

static void *work(void *argument)
{
    review_job *job = argument;
    char error[256];
    gateau_bot *bot = review_bot_new(job->options, error, sizeof error);
    if (!bot) {
        atomic_store(&job->failed, true);
        return NULL;
    }
    for (;;) {
        if (cancelled(job)) break;
        int k = atomic_fetch_add(&job->next, 1);
        if (k >= job->total) break;
        const position *p = &job->positions[k];
        review_judge(bot, p->before, p->seat, p->actions, p->count, job->options,
                     (uint64_t)p->index, &job->moves[k]);
        job->moves[k].index = p->index;
        pthread_mutex_lock(&job->progress_lock);
        job->done++;
        if (job->options->progress)
            job->options->progress(job->options->progress_context, job->done, job->total);
        pthread_mutex_unlock(&job->progress_lock);
    }
    gateau_bot_free(bot);
    return NULL;
}

/* The positions before each move to review, from one replay of the record. */
static position *positions_of(const gateau_record *record, int seat, int *total)
{
    int moves = gateau_record_move_count(record);
    position *positions = calloc((size_t)(moves > 0 ? moves : 1), sizeof *positions);
    if (!positions) abort(); /* out of memory */
    gateau_state *state = gateau_state_new(gateau_record_setup(record));
    *total = 0;
    for (int i = 0; i < moves; i++) {
        int mover = gateau_record_move_seat(record, i), count = 0;
        const gateau_action *actions = gateau_record_move_actions(record, i, &count);
        if (mover != GATEAU_CHANCE && (seat < 0 || mover == seat))
            positions[(*total)++] = (position){.before = gateau_state_clone(state),
                                               .index = i,
                                               .seat = mover,
                                               .count = count,
                                               .actions = actions};
        for (int a = 0; a < count; a++) gateau_state_apply_legal(state, mover, actions[a]);
    }
    gateau_state_free(state);
    return positions;
}

static void summarize_seats(gateau_review *review)
{
    double accuracy_sum[GATEAU_MAX_PLAYERS] = {0};
    for (int i = 0; i < review->count; i++) {
        const gateau_review_move *move = &review->moves[i];
        gateau_review_seat *seat = &review->seats[move->seat];
        seat->moves++;
        seat->counts[move->review_class]++;
        if (move->review_class == GATEAU_REVIEW_FORCED) continue;
        accuracy_sum[move->seat] += review_move_accuracy(move->judged_loss);
        seat->mean_loss += move->judged_loss;
    }
    for (int s = 0; s < review->players; s++) {
        gateau_review_seat *seat = &review->seats[s];
        int judged = seat->moves - seat->counts[GATEAU_REVIEW_FORCED];
        seat->accuracy = judged ? accuracy_sum[s] / judged : 100.0;
        seat->mean_loss = judged ? seat->mean_loss / judged : 0.0;
    }
}

/* Runs the job on the options' threads; false when a worker failed. */
static bool run_job(review_job *job)
{
    int threads = job->options->threads < job->total ? job->options->threads : job->total;
    pthread_t ids[64];
    int started = 0;
    for (int t = 1; t < threads; t++)
        if (pthread_create(&ids[started], NULL, work, job) == 0) started++;
    work(job); /* this thread too; alone if none could start */
    for (int t = 0; t < started; t++) pthread_join(ids[t], NULL);
    return !atomic_load(&job->failed);
}

gateau_review *gateau_review_record(const gateau_record *record,
                                    const gateau_review_options *options, char *error,
                                    size_t error_size)
{
    gateau_review_options defaults;
    if (!options) {
        gateau_review_options_default(&defaults);
        options = &defaults;
    }
    const gateau_setup *setup = gateau_record_setup(record);
    int players = gateau_setup_players(setup);
    if (!review_check_options(options, players, error, error_size)) return NULL;
    int total = 0;
    position *positions = positions_of(record, options->seat, &total);
    if (total == 0) {
        free(positions);
        if (options->seat >= 0)
            snprintf(error, error_size, "review: seat %d made no move in this record",
                     options->seat + 1);
        else
            snprintf(error, error_size, "review: the record has no seat's move to review");
        return NULL;
    }
    gateau_review *review = calloc(1, sizeof *review);
    gateau_review_move *moves = calloc((size_t)total, sizeof *moves);
    if (!review || !moves) abort(); /* out of memory */
    review_job job = {.options = options, .positions = positions, .moves = moves, .total = total};
    atomic_init(&job.next, 0);
    atomic_init(&job.failed, false);
    pthread_mutex_init(&job.progress_lock, NULL);
    bool ran = run_job(&job);
    pthread_mutex_destroy(&job.progress_lock);
    for (int i = 0; i < total; i++) gateau_state_free(positions[i].before);
    free(positions);
    if (!ran || job.done < total) {
        snprintf(error, error_size, ran ? "review: cancelled" : "review: cannot make its search bot");
        free(moves);
        free(review);
        return NULL;
    }
    review->game = gateau_setup_game(setup);
    review->players = players;
    review->options = *options;
    review->options.progress = NULL;
    review->options.progress_context = NULL;
    review->options.cancel = NULL;
    review->count = total;
    review->moves = moves;
    summarize_seats(review);
    return review;
}

void gateau_review_free(gateau_review *review)
{
    if (!review) return;
    free(review->moves);
    free(review);
}

int gateau_review_move_count(const gateau_review *review) { return review->count; }

const gateau_review_move *gateau_review_move_at(const gateau_review *review, int index)
{
    return index >= 0 && index < review->count ? &review->moves[index] : NULL;
}

int gateau_review_players(const gateau_review *review) { return review->players; }

const gateau_review_seat *gateau_review_seat_summary(const gateau_review *review, int seat)
{
    return seat >= 0 && seat < review->players ? &review->seats[seat] : NULL;
}
