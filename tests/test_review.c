/*
 * test_review.c: game reviews (gateau/review.h) and `gateau review`.
 *
 * - a seat played by `random` against `ismcts` seats is marked with many
 *   more inaccuracies, mistakes and blunders, over several seeds;
 * - where the win chance is saturated the score given away is judged too,
 *   and elsewhere only the win chance;
 * - a move equal to the best the review found is never marked;
 * - the same seed gives the same bytes on 1 and 2 threads;
 * - a move's review uses only what its mover knew: the position with what
 *   the mover could not know resampled is reviewed to the same bytes;
 * - progress and cancellation;
 * - bad options and bad records are refused with one line.
 *
 * Budgets are small: the properties hold well below the default budget.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gateau/match.h"
#include "gateau/review.h"
#include "support.h"

TestSuite(review, .init = support_temp_setup, .fini = support_temp_teardown, .timeout = 600);

/* A whole game of setup between the bots of specs (one per seat). */
static gateau_record *play_game(const gateau_setup *setup, const char *const *specs,
                                uint64_t seed)
{
    gateau_match_config config = {.setup = setup, .chance_by_move = true, .chance_seed = seed,
                                  .keep_record = true};
    gateau_rng rngs[GATEAU_MAX_PLAYERS];
    for (int s = 0; s < gateau_setup_players(setup); s++) {
        gateau_rng_seed_stream(&rngs[s], seed, (uint64_t)s + 1);
        config.seats[s] = (gateau_match_seat){.bot = specs[s], .rng = &rngs[s]};
    }
    char error[256];
    gateau_match *match = gateau_match_new(&config, error, sizeof error);
    cr_assert_not_null(match, "%s", error);
    cr_assert_eq(gateau_match_run(match, error, sizeof error), GATEAU_MATCH_OVER, "%s", error);
    gateau_record *record = gateau_match_record(match);
    char *text = gateau_record_text(record);
    gateau_match_free(match);
    gateau_record *copy = support_read(text);
    free(text);
    return copy;
}

static gateau_review_options small_budget(long iterations)
{
    gateau_review_options options;
    gateau_review_options_default(&options);
    options.iterations = iterations;
    return options;
}

static gateau_review *review_or_fail(const gateau_record *record,
                                     const gateau_review_options *options)
{
    char error[256];
    gateau_review *review = gateau_review_record(record, options, error, sizeof error);
    cr_assert_not_null(review, "%s", error);
    return review;
}

/* Moves of seat marked inaccuracy or worse. */
static int marked(const gateau_review *review, int seat)
{
    const gateau_review_seat *summary = gateau_review_seat_summary(review, seat);
    return summary->counts[GATEAU_REVIEW_INACCURACY] + summary->counts[GATEAU_REVIEW_MISTAKE] +
           summary->counts[GATEAU_REVIEW_BLUNDER];
}

/* Every move equal to the review's best is good. */
static void expect_best_unmarked(const gateau_review *review)
{
    for (int i = 0; i < gateau_review_move_count(review); i++) {
        const gateau_review_move *move = gateau_review_move_at(review, i);
        if (strcmp(move->move, move->best) != 0) continue;
        cr_expect(move->review_class == GATEAU_REVIEW_GOOD ||
                  move->review_class == GATEAU_REVIEW_FORCED,
                     "move %d '%s' is the best found, yet marked %s", move->index + 1, move->move,
                     gateau_review_class_name(move->review_class));
    }
}

/* A position is worth what its best move is: "before" is the best move's
 * value, measured as the played one is.  (It was the root search's value
 * of its first action, which for a move of several actions, piece o'
 * Cake's cut say, could stand above the better move shown beside it:
 * 6% before, 3% for the better move.) */
static void expect_before_is_best(const gateau_review *review)
{
    for (int i = 0; i < gateau_review_move_count(review); i++) {
        const gateau_review_move *move = gateau_review_move_at(review, i);
        cr_expect(move->win_before == move->win_best && move->score_before == move->score_best,
                  "move %d '%s': before %.4f (%.2f), best '%s' %.4f (%.2f)", move->index + 1,
                  move->move, move->win_before, move->score_before, move->best, move->win_best,
                  move->score_best);
    }
}

/* The class reads the win chance surely given away, or where it is
 * saturated the larger of that and the score's worth (docs/review.md). */
static void expect_judged_by_the_rule(const gateau_review *review)
{
    for (int i = 0; i < gateau_review_move_count(review); i++) {
        const gateau_review_move *move = gateau_review_move_at(review, i);
        bool saturated = move->win_best < GATEAU_REVIEW_SATURATED ||
                         move->win_played > 1 - GATEAU_REVIEW_SATURATED;
        if (move->review_class == GATEAU_REVIEW_FORCED) continue;
        cr_expect_eq(move->by_score, saturated, "move %d: win chance %.3f, then %.3f",
                     move->index + 1, move->win_best, move->win_played);
        if (!move->by_score)
            cr_expect_eq(move->judged_loss, move->sure_loss, "move %d judged by win chance only",
                         move->index + 1);
        else
            cr_expect(move->judged_loss >= move->sure_loss &&
                          (move->judged_loss == move->sure_loss || move->sure_score_loss > 0),
                      "move %d: judged %.4f, win %.4f, score %.4f", move->index + 1,
                      move->judged_loss, move->sure_loss, move->sure_score_loss);
    }
}

/* ---- What a review finds ------------------------------------------------------------- */

/* Over `seeds` games, a random seat is marked more than twice as often as
 * a search seat (plus 2), and on at least `share` of its moves. */
static void random_against_search(const char *game, int players, const char *search, int seeds,
                                  long iterations, double share)
{
    gateau_setup *setup = support_setup(game, players, NULL);
    gateau_review_options options = small_budget(iterations);
    int random_marked = 0, random_moves = 0, search_marked = 0, search_moves = 0;
    for (int seed = 1; seed <= seeds; seed++) {
        int random_seat = seed % players;
        const char *specs[GATEAU_MAX_PLAYERS];
        for (int s = 0; s < players; s++) specs[s] = s == random_seat ? "random" : search;
        gateau_record *record = play_game(setup, specs, (uint64_t)seed);
        options.seed = (uint64_t)seed;
        gateau_review *review = review_or_fail(record, &options);
        expect_best_unmarked(review);
        expect_judged_by_the_rule(review);
        expect_before_is_best(review);
        int search_seat = (random_seat + 1) % players;
        random_marked += marked(review, random_seat);
        random_moves += gateau_review_seat_summary(review, random_seat)->moves;
        search_marked += marked(review, search_seat);
        search_moves += gateau_review_seat_summary(review, search_seat)->moves;
        gateau_review_free(review);
        gateau_record_free(record);
    }
    cr_log_info("%s: random marked %d times in %d moves, %s %d times in %d moves", game,
                random_marked, random_moves, search, search_marked, search_moves);
    cr_expect_gt(random_marked, 2 * search_marked + 2,
                 "%s: random marked %d times in %d moves, %s %d times in %d moves", game,
                 random_marked, random_moves, search, search_marked, search_moves);
    cr_expect_geq(random_marked, share * random_moves,
                  "%s: random marked %d times in %d moves, fewer than %.0f%% of them", game,
                  random_marked, random_moves, 100 * share);
    gateau_setup_free(setup);
}

Test(review, random_seat_marked_far_more_in_mice_cake)
{
    random_against_search("mice-cake", 2, "ismcts:iters=400", 4, 300, 0.3);
}

Test(review, random_seat_marked_far_more_in_piece_o_cake)
{
    random_against_search("piece-o-cake", 2, "ismcts:iters=400", 6, 500, 0.1);
}

/* A random seat soon has no chance left in these two games (or, in
 * Marie's Table, in many of its decisions): where its win chance is gone,
 * its moves are judged by the score they give away too (docs/review.md,
 * "A seat out of the running").  Before that, Marie's Table's random seat
 * was marked 4 times in 73 moves against 1 for a search seat, Cake
 * Master's 10 times in 96. */
Test(review, random_seat_marked_far_more_in_maries_table)
{
    random_against_search("maries-table", 3, "ismcts:iters=400", 4, 300, 0.1);
}

Test(review, random_seat_marked_far_more_in_cake_master)
{
    random_against_search("cake-master", 2, "ismcts:iters=400", 4, 300, 0.2);
}

/* The review's own best move, reviewed at its position with the same
 * generators, is never marked. */
Test(review, best_move_never_marked)
{
    gateau_setup *setup = support_setup("cake-master", 3, NULL);
    gateau_record *record = gateau_record_new(setup);
    gateau_rng rng;
    gateau_rng_seed(&rng, 5);
    support_play_out(record, &rng);
    gateau_review_options options = small_budget(200);
    gateau_state *state = gateau_state_new(setup);
    int checked = 0;
    for (int i = 0; i < gateau_record_move_count(record); i++) {
        int seat = gateau_record_move_seat(record, i), count = 0;
        const gateau_action *actions = gateau_record_move_actions(record, i, &count);
        if (seat != GATEAU_CHANCE && i % 3 == 0) {
            char error[256];
            gateau_review_move first, again;
            cr_assert(gateau_review_one_move(state, seat, actions, count, &options, (uint64_t)i,
                                             &first, error, sizeof error), "%s", error);
            gateau_action best[GATEAU_MAX_MOVE_ACTIONS];
            int length = gateau_move_parse(state, seat, first.best, best, error, sizeof error);
            cr_assert_gt(length, 0, "the best '%s' parses: %s", first.best, error);
            cr_assert(gateau_review_one_move(state, seat, best, length, &options, (uint64_t)i,
                                             &again, error, sizeof error), "%s", error);
            cr_expect_str_eq(again.move, again.best);
            cr_expect_eq(again.review_class, GATEAU_REVIEW_GOOD, "'%s' marked %s", again.move,
                         gateau_review_class_name(again.review_class));
            checked++;
        }
        for (int a = 0; a < count; a++) gateau_state_apply_legal(state, seat, actions[a]);
    }
    cr_expect_gt(checked, 5);
    gateau_state_free(state);
    gateau_record_free(record);
    gateau_setup_free(setup);
}

/* ---- Determinism and secrecy ----------------------------------------------------------- */

Test(review, same_bytes_on_one_and_two_threads)
{
    gateau_setup *setup = support_setup("piece-o-cake", 3, NULL);
    gateau_record *record = gateau_record_new(setup);
    gateau_rng rng;
    gateau_rng_seed(&rng, 11);
    support_play_out(record, &rng);
    gateau_review_options options = small_budget(200);
    options.seed = 42;
    gateau_review *one = review_or_fail(record, &options);
    options.threads = 2;
    gateau_review *two = review_or_fail(record, &options);
    char *a = gateau_review_json(one), *b = gateau_review_json(two);
    cr_expect_str_eq(a, b);
    options.seed = 43;
    gateau_review *other = review_or_fail(record, &options);
    char *c = gateau_review_json(other);
    cr_expect_str_neq(a, c, "another seed searches otherwise");
    free(a);
    free(b);
    free(c);
    gateau_review_free(one);
    gateau_review_free(two);
    gateau_review_free(other);
    gateau_record_free(record);
    gateau_setup_free(setup);
}

/* Positions along a random game of each game: the mover's move reviewed
 * in the true position and in the position with what the mover could not
 * know resampled gives the same bytes. */
Test(review, uses_only_what_the_mover_knew)
{
    static const struct {
        const char *game;
        int players;
    } cases[] = {{"piece-o-cake", 4}, {"maries-table", 4}, {"mice-cake", 2}, {"cake-master", 3}};
    gateau_review_options options = small_budget(100);
    options.repeats = 2;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        gateau_setup *setup = support_setup(cases[k].game, cases[k].players, NULL);
        gateau_record *record = gateau_record_new(setup);
        gateau_rng rng;
        gateau_rng_seed(&rng, 100 + k);
        support_play_out(record, &rng);
        gateau_state *state = gateau_state_new(setup), *hidden = gateau_state_clone(state);
        int checked = 0;
        for (int i = 0; i < gateau_record_move_count(record); i++) {
            int seat = gateau_record_move_seat(record, i), count = 0;
            const gateau_action *actions = gateau_record_move_actions(record, i, &count);
            if (seat != GATEAU_CHANCE && i % 4 == 1 && checked < 8) {
                gateau_state_copy(hidden, state);
                gateau_state_determinize(hidden, seat, &rng);
                gateau_review_move truth, resampled;
                char error[256];
                cr_assert(gateau_review_one_move(state, seat, actions, count, &options, 7,
                                                 &truth, error, sizeof error), "%s", error);
                cr_assert(gateau_review_one_move(hidden, seat, actions, count, &options, 7,
                                                 &resampled, error, sizeof error), "%s", error);
                cr_expect(!memcmp(&truth, &resampled, sizeof truth),
                          "%s: move %d '%s' reviewed otherwise once the hidden part is "
                          "resampled (best '%s' vs '%s', win %.4f vs %.4f)", cases[k].game, i + 1,
                          truth.move, truth.best, resampled.best, truth.win_played,
                          resampled.win_played);
                checked++;
            }
            for (int a = 0; a < count; a++) gateau_state_apply_legal(state, seat, actions[a]);
        }
        cr_expect_gt(checked, 3, "%s: positions checked", cases[k].game);
        gateau_state_free(state);
        gateau_state_free(hidden);
        gateau_record_free(record);
        gateau_setup_free(setup);
    }
}

/* ---- Progress, cancellation, errors ----------------------------------------------------- */

typedef struct progress_seen {
    int calls, last_done, total;
    atomic_bool *cancel; /* set at the first call, when not NULL */
} progress_seen;

static void note_progress(void *context, int done, int total)
{
    progress_seen *seen = context;
    seen->calls++;
    seen->last_done = done;
    seen->total = total;
    if (seen->cancel) atomic_store(seen->cancel, true);
}

/* A random game of Mice Cake; free the record, then *setup. */
static gateau_record *short_game(gateau_setup **setup)
{
    *setup = support_setup("mice-cake", 2, NULL);
    gateau_record *record = gateau_record_new(*setup);
    gateau_rng rng;
    gateau_rng_seed(&rng, 3);
    support_play_out(record, &rng);
    return record;
}

Test(review, progress_and_cancel)
{
    gateau_setup *game_setup;
    gateau_record *record = short_game(&game_setup);
    gateau_review_options options = small_budget(50);
    progress_seen seen = {0};
    options.progress = note_progress;
    options.progress_context = &seen;
    options.seat = 1;
    gateau_review *review = review_or_fail(record, &options);
    cr_expect_eq(seen.calls, gateau_review_move_count(review));
    cr_expect_eq(seen.last_done, seen.total);
    for (int i = 0; i < gateau_review_move_count(review); i++)
        cr_expect_eq(gateau_review_move_at(review, i)->seat, 1, "only seat 2's moves");
    gateau_review_free(review);

    atomic_bool cancel;
    atomic_init(&cancel, false);
    progress_seen cancelling = {.cancel = &cancel};
    options.progress_context = &cancelling;
    options.cancel = &cancel;
    char error[256];
    cr_expect_null(gateau_review_record(record, &options, error, sizeof error));
    cr_expect_str_eq(error, "review: cancelled");
    cr_expect_eq(cancelling.calls, 1, "stopped after the first position");
    gateau_record_free(record);
    gateau_setup_free(game_setup);
}

static void expect_refused(const gateau_record *record, gateau_review_options options,
                           const char *fragment)
{
    char error[256] = "";
    cr_expect_null(gateau_review_record(record, &options, error, sizeof error));
    cr_expect(strstr(error, fragment) != NULL, "'%s' in '%s'", fragment, error);
    cr_expect(strchr(error, '\n') == NULL, "one line: '%s'", error);
}

Test(review, bad_options_refused)
{
    gateau_setup *game_setup;
    gateau_record *record = short_game(&game_setup);
    gateau_review_options options = small_budget(50);
    gateau_review_options bad = options;
    bad.repeats = 1;
    expect_refused(record, bad, "repeats must be from 2 to 16");
    bad = options, bad.repeats = 17;
    expect_refused(record, bad, "repeats must be from 2 to 16");
    bad = options, bad.threads = 0;
    expect_refused(record, bad, "threads must be from 1 to 64");
    bad = options, bad.seat = 2;
    expect_refused(record, bad, "there is no seat 3");
    bad = options, bad.ms = 10;
    expect_refused(record, bad, "not both");
    bad = options, bad.iterations = -1;
    expect_refused(record, bad, "iterations must be");
    bad = options, bad.seed = (uint64_t)INT64_MAX + 1;
    expect_refused(record, bad, "seed must be from 0 to 9223372036854775807");

    gateau_setup *setup = support_setup("mice-cake", 2, NULL);
    gateau_record *empty = gateau_record_new(setup);
    expect_refused(empty, options, "no seat's move to review");
    gateau_record_free(empty);
    gateau_setup_free(setup);

    gateau_state *state = gateau_state_new(gateau_record_setup(record));
    gateau_review_move out;
    char error[256];
    gateau_action nothing = 0;
    cr_expect(!gateau_review_one_move(state, 0, &nothing, 1, &options, 0, &out, error,
                                      sizeof error), "chance is to move at the start");
    cr_expect(strstr(error, "not to start a move") != NULL, "%s", error);
    gateau_state_free(state);
    gateau_record_free(record);
    gateau_setup_free(game_setup);
}

Test(review, command_table_json_and_errors)
{
    const char *path = support_temp_path("game.txt");
    char *game = support_run_expect(0, "random mice-cake --players 2 --seed 4");
    support_write_file(path, game);
    free(game);
    char *table = support_run_expect(0, "review %s --iters 50 --seat 2", path);
    cr_expect(strstr(table, "Review of mice-cake, 2 players") != NULL, "%s", table);
    cr_expect(strstr(table, "Seat 2: accuracy ") != NULL, "%s", table);
    cr_expect(strstr(table, "Seat 1:") == NULL, "only seat 2: %s", table);
    free(table);
    char *json = support_run_expect(0, "review %s --iters 50 --threads 2 --seed 9 --json", path);
    json_error_t problem;
    json_t *parsed = json_loads(json, 0, &problem);
    cr_assert_not_null(parsed, "JSON: %s in %s", problem.text, json);
    cr_expect_str_eq(json_string_value(json_object_get(parsed, "game")), "mice-cake");
    cr_expect_float_eq(json_real_value(json_object_get(parsed, "saturated")),
                       GATEAU_REVIEW_SATURATED, 1e-9);
    /* Mice Cake's score is in pips: 3 points of win chance are worth about 2. */
    json_t *score_thresholds = json_object_get(parsed, "score_thresholds");
    double inaccuracy = json_real_value(json_object_get(score_thresholds, "inaccuracy"));
    cr_expect(inaccuracy > 1 && inaccuracy < 5, "an inaccuracy gives away %g pips", inaccuracy);
    cr_expect_float_eq(json_real_value(json_object_get(score_thresholds, "blunder")),
                       4 * inaccuracy, 1e-3);
    cr_expect_eq(json_array_size(json_object_get(parsed, "seats")), 2);
    json_t *first = json_array_get(json_object_get(parsed, "moves"), 0);
    const char *fields[] = {"number", "seat", "move", "best", "class", "win_before", "win_played",
                            "win_best", "score_before", "score_played", "score_best", "loss",
                            "noise", "sure_loss", "exact", "score_loss", "score_noise",
                            "sure_score_loss", "by_score", "judged_loss"};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        cr_expect_not_null(json_object_get(first, fields[i]), "field %s", fields[i]);
    json_decref(parsed);
    char *again = support_run_expect(0, "review %s --iters 50 --threads 1 --seed 9 --json", path);
    cr_expect_str_eq(json, again, "the same bytes on 1 and 2 threads");
    free(json);
    free(again);

    char *help = support_run_expect(0, "review --help");
    cr_expect(strstr(help, "--repeats R") && strstr(help, "More: docs/review.md"), "%s", help);
    free(help);
    /* The progress bar: on a terminal's stderr (script(1) gives it one), and
     * nothing on stderr otherwise. */
    char *quiet = support_run_expect(0, "review %s --iters 20 --seat 1 2>&1 >/dev/null", path);
    cr_expect_str_eq(quiet, "", "no progress off a terminal");
    free(quiet);
    if (system("script -V >/dev/null 2>&1") == 0) {
        char command[1024];
        const char *out = support_temp_path("terminal.txt");
        snprintf(command, sizeof command,
                 "script -qec '%s review %s --iters 20 --seat 1 >/dev/null' /dev/null >%s",
                 getenv("GATEAU_BINARY"), path, out);
        cr_assert_eq(system(command), 0, "%s", command);
        char *drawn = support_read_file(out);
        cr_expect(strstr(drawn, "reviewing [") && strstr(drawn, "positions"), "%s", drawn);
        free(drawn);
    }
    support_expect_error("review", 2, "usage: gateau review RECORD");
    support_expect_error("review /nonexistent/game.txt", 1, "/nonexistent/game.txt");
    support_expect_error("review x.txt --repeats 1", 2, "--repeats needs a whole number from 2 to 16");
    support_expect_error("review x.txt --iters 5 --ms 5", 2, "give --ms or --iters, not both");
    support_expect_error("review x.txt --bogus", 2, "unknown option '--bogus'");
    char arguments[512];
    snprintf(arguments, sizeof arguments, "review %s --seat 3", path);
    support_expect_error(arguments, 1, "there is no seat 3");
    const char *bad = support_temp_path("bad.txt");
    support_write_file(bad, "game: mice-cake\nplayers: 2\n---\nnonsense here\n");
    snprintf(arguments, sizeof arguments, "review %s", bad);
    support_expect_error(arguments, 1, "bad.txt:4:");
    const char *empty = support_temp_path("empty.txt");
    support_write_file(empty, "game: mice-cake\nplayers: 2\n---\n");
    snprintf(arguments, sizeof arguments, "review %s", empty);
    support_expect_error(arguments, 1, "no seat's move to review");
}
