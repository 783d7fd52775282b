/*
 * reviews.c: game reviews made in the background (docs/server.md,
 * "Reviews"; what the numbers mean: docs/review.md).
 *
 * A review searches every move of a game again, which takes a core for a
 * minute or more: far too long for a request's thread, and the tables'
 * bot threads must never wait behind it.  So reviews have threads of
 * their own (--review-threads, one by default) fed by a bounded queue
 * (--review-queue): a request asks for a review and returns at once, the
 * page follows its progress in the table's snapshots (or polls), and a
 * full queue answers 503 rather than growing.
 *
 * A finished table's review is kept in the database with the table
 * (store_save_review): asked for again, it is read back, never searched
 * again.  A review of a record sent by a client (an upload) is kept in
 * memory only, for a while, under an id of its own: the record is the
 * client's, not a table of this server's.
 *
 * Reviews are deterministic: a fixed seed and an iteration budget, so the
 * same game gives the same review on any machine.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gateau/review.h"
#include "server/server.h"

/* The generator's seed of every review: any fixed number, so that the
 * same record always gives the same review. */
#define REVIEW_SEED 20261128u
/* Finished uploads kept for their clients to fetch: at most this many,
 * and for at most this long. */
#define UPLOADS_KEPT 32
#define UPLOAD_KEPT_MS (60 * 60 * 1000)
/* Reviews one client address may have waiting or under way: the queue
 * is everyone's, and one client must not fill it. */
#define REVIEWS_PER_ADDRESS 2
/* Progress is pushed to a table's WebSockets at most this often. */
#define PROGRESS_PUSH_MS 250

typedef struct review_job {
    char id[STORE_ID_SIZE]; /* the table's, or the upload's own */
    bool upload;
    char client[64];        /* the address that asked */
    char *record;           /* the record's text, until the review starts */
    review_state state;
    int done, total;        /* positions reviewed, of how many (0 of 0 until known) */
    char *result;           /* an upload's review (JSON) once done */
    char error[256];        /* why it failed */
    int64_t finished;       /* server_now() when it ended */
    int64_t pushed;         /* server_now() of the last progress push */
    struct review_job *next;
} review_job;

static struct {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    review_job *jobs; /* queued first-come first-served, then running and kept */
    int queued, queue_limit;
    long iterations;
    struct store *store;
    pthread_t threads[SERVER_MAX_REVIEW_THREADS];
    int thread_count;
    bool stopping;
    atomic_bool cancel;
} reviews = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER};

const char *review_state_name(review_state state)
{
    static const char *const names[] = {"none", "queued", "running", "done", "failed"};
    return state >= REVIEW_NONE && state <= REVIEW_FAILED ? names[state] : "none";
}

/* ---- The jobs (reviews.lock held) ------------------------------------------------ */

static review_job *find_job(const char *id, bool upload)
{
    for (review_job *job = reviews.jobs; job; job = job->next)
        if (job->upload == upload && !strcmp(job->id, id)) return job;
    return NULL;
}

static void free_job(review_job *job)
{
    free(job->record);
    free(job->result);
    free(job);
}

/* Lets go of what is no longer wanted: jobs ended a while ago (a table's
 * review is in the store by then; its job stays a while so that the
 * table's snapshot can say it is done, or why it failed), and uploads
 * beyond the number kept (the oldest first: the list is in the order
 * they were asked). */
static void forget_old_jobs(void)
{
    int64_t now = server_now();
    int uploads = 0;
    for (review_job *job = reviews.jobs; job; job = job->next)
        uploads += job->upload && (job->state == REVIEW_DONE || job->state == REVIEW_FAILED);
    for (review_job **at = &reviews.jobs; *at;) {
        review_job *job = *at;
        bool ended = job->state == REVIEW_DONE || job->state == REVIEW_FAILED;
        bool old = now - job->finished > UPLOAD_KEPT_MS;
        bool forget = ended && (old || (job->upload && uploads > UPLOADS_KEPT));
        if (forget) {
            uploads -= job->upload;
            *at = job->next;
            free_job(job);
        } else {
            at = &job->next;
        }
    }
}

/* A job's place in the queue (1: next), 0 when it is not waiting. */
static int queue_position(const review_job *mine)
{
    if (mine->state != REVIEW_QUEUED) return 0;
    int position = 0;
    for (review_job *job = reviews.jobs; job; job = job->next) {
        if (job->state == REVIEW_QUEUED) position++;
        if (job == mine) break;
    }
    return position;
}

/* A job's state as JSON: {"state": ..., "done": d, "total": t, ...}. */
static char *job_json(const review_job *job)
{
    json_t *answer = json_pack("{s:s, s:i, s:i}", "state", review_state_name(job->state), "done",
                               job->done, "total", job->total);
    if (job->upload) json_object_set_new(answer, "id", json_string(job->id));
    if (job->state == REVIEW_QUEUED)
        json_object_set_new(answer, "position", json_integer(queue_position(job)));
    if (job->state == REVIEW_FAILED) json_object_set_new(answer, "error", json_string(job->error));
    char *text = json_dumps(answer, JSON_COMPACT);
    json_decref(answer);
    return text;
}

/* {"state": "done", "review": REVIEW} around a review's JSON. */
static char *done_json(const char *review, const char *upload_id)
{
    size_t size = strlen(review) + 128;
    char *text = malloc(size);
    if (!text) abort();
    if (upload_id)
        snprintf(text, size, "{\"state\":\"done\",\"id\":\"%s\",\"review\":%s}", upload_id, review);
    else
        snprintf(text, size, "{\"state\":\"done\",\"review\":%s}", review);
    return text;
}

/* How many reviews client has waiting or under way. */
static int reviews_of(const char *client)
{
    int count = 0;
    for (review_job *job = reviews.jobs; job; job = job->next)
        count += (job->state == REVIEW_QUEUED || job->state == REVIEW_RUNNING) &&
                 !strcmp(job->client, client);
    return count;
}

/* Queues a new job for client, or NULL when the queue is full (503) or
 * the client has its share in it (*too_many: 429). */
static review_job *queue_job(const char *id, bool upload, const char *record, const char *client,
                             bool *too_many)
{
    *too_many = reviews_of(client) >= REVIEWS_PER_ADDRESS;
    if (*too_many || reviews.queued >= reviews.queue_limit) return NULL;
    review_job *job = calloc(1, sizeof *job);
    if (!job || !(job->record = strdup(record))) abort();
    snprintf(job->id, sizeof job->id, "%s", id);
    snprintf(job->client, sizeof job->client, "%s", client);
    job->upload = upload;
    job->state = REVIEW_QUEUED;
    review_job **end = &reviews.jobs;
    while (*end) end = &(*end)->next;
    *end = job;
    reviews.queued++;
    pthread_cond_signal(&reviews.wake);
    return job;
}

review_state reviews_progress(const char *table_id, int *done, int *total)
{
    pthread_mutex_lock(&reviews.lock);
    review_job *job = find_job(table_id, false);
    review_state state = job ? job->state : REVIEW_NONE;
    *done = job ? job->done : 0;
    *total = job ? job->total : 0;
    pthread_mutex_unlock(&reviews.lock);
    return state;
}

/* ---- Telling a table's viewers ------------------------------------------------------- */

/* The table's snapshot says how its review stands (snapshot.c asks
 * reviews_progress), pushed to its WebSockets, as presence is. */
static void tell_table(const char *id)
{
    server_table *table = tables_lock(id);
    if (!table) return;
    table_forget_snapshots(table);
    websocket_push(table);
    table_unlock(table);
}

/* ---- The review threads --------------------------------------------------------------- */

static void on_progress(void *context, int done, int total)
{
    review_job *job = context;
    pthread_mutex_lock(&reviews.lock);
    job->done = done;
    job->total = total;
    int64_t now = server_now();
    bool push = !job->upload && (now - job->pushed >= PROGRESS_PUSH_MS || done == total);
    if (push) job->pushed = now;
    pthread_mutex_unlock(&reviews.lock);
    if (push) tell_table(job->id);
}

/* Each move whose best differs from the move played gets "best_view":
 * the mover's view after the best move, so that a page can draw the
 * better move on the board (docs/server.md, "Reviews").  The game is
 * over and its whole record public, so the true position may be used.
 * review is the library's JSON; returns the JSON with the views
 * (malloc'd; review itself when nothing could be added). */
static char *add_best_views(const gateau_record *record, char *review)
{
    json_t *root = json_loads(review, 0, NULL);
    json_t *moves = json_object_get(root, "moves");
    if (!json_is_array(moves)) {
        json_decref(root);
        return review;
    }
    const gateau_setup *setup = gateau_record_setup(record);
    gateau_state *state = gateau_state_new(setup), *after = gateau_state_new(setup);
    int played = 0, total = gateau_record_move_count(record);
    size_t index;
    json_t *move;
    json_array_foreach(moves, index, move) {
        int number = (int)json_integer_value(json_object_get(move, "number"));
        int seat = (int)json_integer_value(json_object_get(move, "seat")) - 1;
        const char *text = json_string_value(json_object_get(move, "move"));
        const char *best = json_string_value(json_object_get(move, "best"));
        if (number < 1 || number > total || number - 1 < played || !text || !best) break;
        for (; played < number - 1; played++) { /* (moves come in the record's order) */
            int count, mover = gateau_record_move_seat(record, played);
            const gateau_action *actions = gateau_record_move_actions(record, played, &count);
            for (int a = 0; a < count; a++) gateau_state_apply_legal(state, mover, actions[a]);
        }
        if (!strcmp(text, best)) continue;
        gateau_action actions[GATEAU_MAX_MOVE_ACTIONS];
        char error[256];
        int count = gateau_move_parse(state, seat, best, actions, error, sizeof error);
        if (count <= 0) continue;
        gateau_state_copy(after, state);
        for (int a = 0; a < count; a++) gateau_state_apply_legal(after, seat, actions[a]);
        char *view = gateau_state_view_json(after, seat);
        json_t *parsed = view ? json_loads(view, 0, NULL) : NULL;
        if (parsed) json_object_set_new(move, "best_view", parsed);
        free(view);
    }
    gateau_state_free(after);
    gateau_state_free(state);
    char *text = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    if (!text) return review;
    free(review);
    return text;
}

/* Reviews job's record: its JSON, or NULL with the reason in job->error. */
static char *review_record(review_job *job, char *record_text)
{
    char error[512];
    int line = 0;
    decks_fetch(record_text);
    gateau_record *record = gateau_record_read(record_text, decks_folder(), error, sizeof error, &line);
    decks_unpath(error);
    if (!record) {
        char reason[sizeof error + 32];
        snprintf(reason, sizeof reason, "record line %d: %s", line, error);
        one_line(reason, job->error, sizeof job->error);
        return NULL;
    }
    gateau_review_options options;
    gateau_review_options_default(&options);
    if (reviews.iterations > 0) options.iterations = reviews.iterations;
    options.threads = 1;
    options.seed = REVIEW_SEED;
    options.progress = on_progress;
    options.progress_context = job;
    options.cancel = &reviews.cancel;
    gateau_review *review = gateau_review_record(record, &options, error, sizeof error);
    if (!review) {
        gateau_record_free(record);
        one_line(error, job->error, sizeof job->error);
        return NULL;
    }
    char *json = gateau_review_json(review);
    gateau_review_free(review);
    if (json) json = add_best_views(record, json);
    gateau_record_free(record);
    return json;
}

static void run_job(review_job *job)
{
    char *record = job->record;
    job->record = NULL;
    pthread_mutex_unlock(&reviews.lock);

    if (!job->upload) tell_table(job->id);
    char *json = review_record(job, record);
    free(record);
    bool stored = true;
    if (json && !job->upload) {
        char error[512];
        stored = store_save_review(reviews.store, job->id, json, (int64_t)time(NULL), error,
                                   sizeof error);
        if (!stored) {
            server_log("review of table %s not kept: %s", job->id, error);
            snprintf(job->error, sizeof job->error, "storage unavailable: ask again later");
        }
    }

    pthread_mutex_lock(&reviews.lock);
    job->state = json && stored ? REVIEW_DONE : REVIEW_FAILED;
    job->finished = server_now();
    if (job->upload) job->result = json;
    else free(json);
    review_state state = job->state;
    char id[STORE_ID_SIZE];
    snprintf(id, sizeof id, "%s", job->id);
    bool upload = job->upload;
    if (state == REVIEW_FAILED && !atomic_load(&reviews.cancel))
        server_log("review of %s %s failed: %s", upload ? "upload" : "table", id, job->error);
    pthread_mutex_unlock(&reviews.lock);
    if (!upload) tell_table(id);
    pthread_mutex_lock(&reviews.lock);
}

static void *review_thread(void *unused)
{
    (void)unused;
    server_thread_below_loop("gateau-review");
    pthread_mutex_lock(&reviews.lock);
    for (;;) {
        review_job *job = NULL;
        while (!reviews.stopping) {
            for (job = reviews.jobs; job && job->state != REVIEW_QUEUED; job = job->next) {}
            if (job) break;
            pthread_cond_wait(&reviews.wake, &reviews.lock);
        }
        if (reviews.stopping) break;
        job->state = REVIEW_RUNNING;
        reviews.queued--;
        run_job(job); /* (unlocks while it reviews) */
        forget_old_jobs();
    }
    pthread_mutex_unlock(&reviews.lock);
    return NULL;
}

bool reviews_start(struct store *database, int threads, int queue_limit, long iterations)
{
    reviews.store = database;
    reviews.queue_limit = queue_limit > 0 ? queue_limit : 1;
    reviews.iterations = iterations;
    reviews.stopping = false;
    atomic_store(&reviews.cancel, false);
    if (threads > SERVER_MAX_REVIEW_THREADS) threads = SERVER_MAX_REVIEW_THREADS;
    for (reviews.thread_count = 0; reviews.thread_count < threads; reviews.thread_count++)
        if (pthread_create(&reviews.threads[reviews.thread_count], NULL, review_thread, NULL)) {
            reviews_stop();
            return false;
        }
    return true;
}

void reviews_stop(void)
{
    pthread_mutex_lock(&reviews.lock);
    reviews.stopping = true;
    /* A review under way stops after the search under way, which stops
     * at once (a review's budget may be a minute or more). */
    atomic_store(&reviews.cancel, true);
    pthread_cond_broadcast(&reviews.wake);
    pthread_mutex_unlock(&reviews.lock);
    gateau_bot_interrupt(true);
    for (int i = 0; i < reviews.thread_count; i++) pthread_join(reviews.threads[i], NULL);
    gateau_bot_interrupt(false);
    reviews.thread_count = 0;
    while (reviews.jobs) {
        review_job *job = reviews.jobs;
        reviews.jobs = job->next;
        free_job(job);
    }
    reviews.queued = 0;
}

/* ---- What the routes ask (http.c) ------------------------------------------------------ */

/* *answer set to a copy of text; status returned. */
static int answered(char **answer, const char *text, int status)
{
    if (!(*answer = strdup(text))) abort();
    return status;
}

/* The queue's refusals: full (503), or this client's share taken (429). */
static int queue_full(char **answer, bool too_many)
{
    char text[128];
    if (too_many)
        snprintf(text, sizeof text, "you have %d reviews waiting or under way already: ask "
                 "again when one is done", REVIEWS_PER_ADDRESS);
    return answered(answer, too_many ? text : "the review queue is full: ask again in a few minutes",
                    too_many ? 429 : 503);
}

static bool in_progress(const review_job *job)
{
    return job->state == REVIEW_QUEUED || job->state == REVIEW_RUNNING;
}

/* The table's kept review as the answer (200), the store's failure (503),
 * or 0 when it has none.  Read without the reviews' lock: a database may
 * take its time. */
static int kept_review(const char *table_id, char **answer)
{
    char error[512], *kept = NULL;
    if (!store_load_review(reviews.store, table_id, &kept, error, sizeof error)) {
        server_log("review of table %s not read: %s", table_id, error);
        return answered(answer, "storage unavailable: ask again later", 503);
    }
    if (!kept) return 0;
    *answer = done_json(kept, NULL);
    free(kept);
    return 200;
}

int reviews_ask_table(const char *table_id, const char *record, const char *client, char **answer)
{
    pthread_mutex_lock(&reviews.lock);
    review_job *job = find_job(table_id, false);
    if (job && in_progress(job)) {
        *answer = job_json(job);
        pthread_mutex_unlock(&reviews.lock);
        return 202;
    }
    pthread_mutex_unlock(&reviews.lock);
    int status = kept_review(table_id, answer);
    if (status) return status;
    pthread_mutex_lock(&reviews.lock);
    if ((job = find_job(table_id, false)) && in_progress(job)) {
        *answer = job_json(job); /* asked for twice at once */
    } else {
        if (job) { /* a failed one is tried again; a done one was read above */
            review_job **at = &reviews.jobs;
            while (*at != job) at = &(*at)->next;
            *at = job->next;
            free_job(job);
        }
        bool too_many;
        if (!(job = queue_job(table_id, false, record, client, &too_many))) {
            pthread_mutex_unlock(&reviews.lock);
            return queue_full(answer, too_many);
        }
        *answer = job_json(job);
    }
    review_state state = job->state;
    pthread_mutex_unlock(&reviews.lock);
    if (state == REVIEW_QUEUED) tell_table(table_id);
    return 202;
}

int reviews_table_status(const char *table_id, char **answer)
{
    pthread_mutex_lock(&reviews.lock);
    review_job *job = find_job(table_id, false);
    if (job && job->state != REVIEW_DONE) {
        *answer = job_json(job);
        pthread_mutex_unlock(&reviews.lock);
        return 200;
    }
    pthread_mutex_unlock(&reviews.lock);
    int status = kept_review(table_id, answer);
    /* (none yet is a state, not a 404: no error for a page to log) */
    return status ? status : answered(answer, "{\"state\":\"none\",\"done\":0,\"total\":0}", 200);
}

int reviews_ask_upload(const char *record, const char *client, char **answer)
{
    char id[STORE_ID_SIZE];
    if (!token_new_id(id)) return answered(answer, "cannot make an id: try again", 503);
    pthread_mutex_lock(&reviews.lock);
    forget_old_jobs();
    bool too_many;
    review_job *job = queue_job(id, true, record, client, &too_many);
    if (!job) {
        pthread_mutex_unlock(&reviews.lock);
        return queue_full(answer, too_many);
    }
    *answer = job_json(job);
    pthread_mutex_unlock(&reviews.lock);
    return 202;
}

int reviews_upload_status(const char *id, char **answer)
{
    pthread_mutex_lock(&reviews.lock);
    review_job *job = find_job(id, true);
    int status = 200;
    if (!job) {
        status = answered(answer, "no such review: an upload's review is kept for an hour", 404);
    } else if (job->state == REVIEW_DONE) {
        *answer = done_json(job->result, job->id);
    } else {
        *answer = job_json(job);
    }
    pthread_mutex_unlock(&reviews.lock);
    return status;
}
