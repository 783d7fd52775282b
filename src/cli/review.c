/*
 * review.c: `gateau review RECORD [--seat S] [--iters N | --ms N]
 * [--repeats R] [--threads T] [--seed S] [--json]`: every move of a game
 * judged by searches from its mover's information (include/gateau/review.h,
 * docs/review.md).  A table by default, JSON with --json; a progress bar
 * on stderr when stderr is a terminal.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "gateau/review.h"

#define PROGRESS_WIDTH 30

static void usage(void)
{
    cli_error("review: usage: gateau review RECORD [--seat S] [--iters N | --ms N] "
              "[--repeats R] [--threads T] [--seed S] [--json]");
}

/* The bar on stderr (a terminal), redrawn in place. */
static void show_progress(void *context, int done, int total)
{
    (void)context;
    int filled = PROGRESS_WIDTH * done / total;
    fprintf(stderr, "\rreviewing [");
    for (int i = 0; i < PROGRESS_WIDTH; i++) fputc(i < filled ? '#' : '.', stderr);
    fprintf(stderr, "] %d/%d positions", done, total);
    if (done == total) fprintf(stderr, "\r\033[K");
    fflush(stderr);
}

static void print_budget(FILE *out, const gateau_review_options *options)
{
    if (options->iterations) fprintf(out, "ismcts %ld simulations", options->iterations);
    else if (options->ms) fprintf(out, "ismcts %d ms", options->ms);
    else fprintf(out, "ismcts default simulations");
    fprintf(out, " a search, %d searches a position, seed %llu", options->repeats,
            (unsigned long long)options->seed);
}

static void print_move(FILE *out, const gateau_review_move *move, int width)
{
    fprintf(out, "%4d  %4d  %-*s %-*s %5.1f%% %5.1f%% %5.1f%%  %5.1f ±%5.1f  %-*s",
            move->index + 1, move->seat + 1, width, move->move, width,
            strcmp(move->move, move->best) ? move->best : "=", 100 * move->win_before,
            100 * move->win_played, 100 * move->win_best, 100 * move->loss, 100 * move->noise,
            move->by_score ? 10 : 0,
            move->review_class == GATEAU_REVIEW_GOOD ? "" : gateau_review_class_name(move->review_class));
    /* Where the win chance was saturated, the score given away was judged too. */
    if (move->by_score) fprintf(out, "  %6.2f ±%5.2f", move->score_loss, move->score_noise);
    fputc('\n', out);
}

static void print_seat(FILE *out, const gateau_review_seat *seat, int number)
{
    fprintf(out, "Seat %d: accuracy %.1f, %d moves: %d good, %d inaccuracies, %d mistakes, "
                 "%d blunders, %d forced\n",
            number, seat->accuracy, seat->moves, seat->counts[GATEAU_REVIEW_GOOD],
            seat->counts[GATEAU_REVIEW_INACCURACY], seat->counts[GATEAU_REVIEW_MISTAKE],
            seat->counts[GATEAU_REVIEW_BLUNDER], seat->counts[GATEAU_REVIEW_FORCED]);
}

static void print_table(FILE *out, const gateau_review *review, const gateau_record *record,
                        const gateau_review_options *options)
{
    fprintf(out, "Review of %s, %d players (", gateau_game_name(gateau_setup_game(
                                                   gateau_record_setup(record))),
            gateau_review_players(review));
    print_budget(out, options);
    fprintf(out, ")\nWin chances are the mover's; loss ± noise in points of win chance.  Where the\n"
                 "win chance was saturated, the score given away ± noise, judged too.\n\n");
    /* The moves' column as wide as the longest move. */
    int width = 6;
    for (int i = 0; i < gateau_review_move_count(review); i++) {
        const gateau_review_move *move = gateau_review_move_at(review, i);
        int longest = (int)(strlen(move->move) > strlen(move->best) ? strlen(move->move)
                                                                     : strlen(move->best));
        if (longest > width) width = longest;
    }
    fprintf(out, "%4s  %4s  %-*s %-*s %6s %6s %6s  %13s  %-10s  %s\n", "move", "seat", width,
            "played", width, "best", "before", "played", "best", "loss ± noise", "class",
            "score loss ± noise");
    for (int i = 0; i < gateau_review_move_count(review); i++)
        print_move(out, gateau_review_move_at(review, i), width);
    fputc('\n', out);
    for (int s = 0; s < gateau_review_players(review); s++)
        if (options->seat < 0 || options->seat == s)
            print_seat(out, gateau_review_seat_summary(review, s), s + 1);
}

/* Reads the flags into options, path and json; 0, or the exit status. */
static int parse_arguments(int argc, char **argv, gateau_review_options *options,
                           const char **path, bool *json)
{
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        bool has_value = i + 1 < argc;
        uint64_t value = 0;
        if (!strcmp(arg, "--json")) {
            *json = true;
        } else if (!strcmp(arg, "--seat") && has_value) {
            if (!cli_parse_integer("review", arg, argv[++i], 1, GATEAU_MAX_PLAYERS, &value)) return 2;
            options->seat = (int)value - 1;
        } else if (!strcmp(arg, "--ms") && has_value) {
            if (!cli_parse_integer("review", arg, argv[++i], 1, 3600000, &value)) return 2;
            options->ms = (int)value;
        } else if (!strcmp(arg, "--iters") && has_value) {
            if (!cli_parse_integer("review", arg, argv[++i], 1, 1000000000, &value)) return 2;
            options->iterations = (long)value;
        } else if (!strcmp(arg, "--repeats") && has_value) {
            if (!cli_parse_integer("review", arg, argv[++i], 2, GATEAU_REVIEW_MAX_REPEATS, &value))
                return 2;
            options->repeats = (int)value;
        } else if (!strcmp(arg, "--threads") && has_value) {
            if (!cli_parse_integer("review", arg, argv[++i], 1, 64, &value)) return 2;
            options->threads = (int)value;
        } else if (!strcmp(arg, "--seed") && has_value) {
            if (!cli_parse_integer("review", arg, argv[++i], 0, INT64_MAX, &value)) return 2;
            options->seed = value;
        } else if (!strncmp(arg, "--", 2)) {
            cli_error("review: unknown option '%s'%s", arg,
                      has_value || !strcmp(arg, "--json") ? "" : " (or it needs a value)");
            return 2;
        } else if (*path) {
            cli_error("review: unexpected argument '%s'", arg);
            return 2;
        } else {
            *path = arg;
        }
    }
    if (!*path) {
        usage();
        return 2;
    }
    if (options->ms && options->iterations) {
        cli_error("review: give --ms or --iters, not both");
        return 2;
    }
    return 0;
}

int cli_review(int argc, char **argv)
{
    gateau_review_options options;
    gateau_review_options_default(&options);
    const char *path = NULL;
    bool json = false;
    int status = parse_arguments(argc, argv, &options, &path, &json);
    if (status) return status;
    gateau_record *record = cli_read_record(path);
    if (!record) return 1;
    if (isatty(STDERR_FILENO)) options.progress = show_progress;
    char error[512];
    gateau_review *review = gateau_review_record(record, &options, error, sizeof error);
    if (!review) {
        cli_error("%s", error);
        gateau_record_free(record);
        return 1;
    }
    if (json) {
        char *text = gateau_review_json(review);
        puts(text);
        free(text);
    } else {
        print_table(stdout, review, record, &options);
    }
    gateau_review_free(review);
    gateau_record_free(record);
    return 0;
}
