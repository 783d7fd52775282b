/*
 * arena.c: `gateau arena GAME --players N --seats A,B,... --games G ...`:
 * a tournament between bots, with the statistics an analyst needs, as a
 * table on the terminal and optionally JSON, CSV, a plot and the records.
 *
 * The games, the numbers and the JSON and CSV reports come from the
 * library (gateau/arena.h); this file reads the flags, shows progress,
 * catches Ctrl-C, prints the table and writes the files.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "gateau/arena.h"

#define ARENA_USAGE                                                                      \
    "usage: gateau arena GAME --players N --seats A,B,... --games G [--threads T] "     \
    "[--seed S] [--options k=v ...] [--records DIR] [--json FILE] [--csv FILE] "       \
    "[--plot FILE.png|FILE.svg]"

typedef struct arena_flags {
    cli_flags common;
    const char *games_text, *threads_text, *records, *json, *csv, *plot;
    long games;
    int threads;
    cli_seats seats;
} arena_flags;

/* ---- Flags ----------------------------------------------------------------------- */

/* Takes the arena's own flags out of argv (the rest goes to
 * cli_parse_flags); false after printing an error. */
static bool take_own_flags(int argc, char **argv, arena_flags *flags, int *rest_count,
                           char **rest)
{
    static const char *const names[] = {"games", "threads", "records", "json", "csv", "plot"};
    const char **slots[] = {&flags->games_text, &flags->threads_text, &flags->records,
                            &flags->json, &flags->csv, &flags->plot};
    *rest_count = 0;
    for (int i = 0; i < argc; i++) {
        int which = -1;
        for (int n = 0; n < 6; n++)
            if (!strncmp(argv[i], "--", 2) && !strcmp(argv[i] + 2, names[n])) which = n;
        if (which < 0) {
            rest[(*rest_count)++] = argv[i];
            continue;
        }
        if (i + 1 >= argc || (!strncmp(argv[i + 1], "--", 2) && argv[i + 1][2])) {
            cli_error("arena: %s needs a value", argv[i]);
            return false;
        }
        *slots[which] = argv[++i];
    }
    return true;
}

static bool parse_arena_flags(int argc, char **argv, arena_flags *flags)
{
    memset(flags, 0, sizeof *flags);
    char **rest = malloc(sizeof(char *) * (size_t)(argc + 1));
    if (!rest) abort();
    int rest_count;
    bool ok = take_own_flags(argc, argv, flags, &rest_count, rest) &&
              cli_parse_flags("arena", rest_count, rest, "players seats seed options deck",
                              &flags->common);
    free(rest);
    if (!ok) return false;
    if (!flags->common.game) {
        cli_error("arena: " ARENA_USAGE);
        return false;
    }
    if (!flags->common.seats) {
        cli_error("arena: --seats names the bots, one per seat, as in --seats random,random");
        return false;
    }
    if (!flags->games_text) {
        cli_error("arena: --games G says how many games to play");
        return false;
    }
    uint64_t games;
    if (!cli_parse_integer("arena", "--games", flags->games_text, 1, 1000000000, &games))
        return false;
    flags->games = (long)games;
    long threads = sysconf(_SC_NPROCESSORS_ONLN);
    if (threads < 1) threads = 1;
    if (threads > GATEAU_ARENA_MAX_THREADS) threads = GATEAU_ARENA_MAX_THREADS;
    uint64_t asked;
    if (flags->threads_text) {
        if (!cli_parse_integer("arena", "--threads", flags->threads_text, 1,
                               GATEAU_ARENA_MAX_THREADS, &asked))
            return false;
        threads = (long)asked;
    }
    flags->threads = (int)threads;
    if (!cli_parse_seats("arena", flags->common.seats, flags->common.players, &flags->seats))
        return false;
    if (!flags->common.players) flags->common.players = flags->seats.count;
    return true;
}

/* ---- Output files ---------------------------------------------------------------- */

static bool has_extension(const char *path, const char *extension)
{
    size_t length = strlen(path), extension_length = strlen(extension);
    return length > extension_length &&
           !strcasecmp(path + length - extension_length, extension);
}

/* Opens (creates or truncates) an output file now, so that a bad path is
 * reported before the games rather than after. */
static FILE *open_output(const char *flag, const char *path)
{
    FILE *file = fopen(path, "w");
    if (!file) cli_error("arena: --%s: cannot write %s: %s", flag, path, strerror(errno));
    return file;
}

static bool prepare_records_dir(const char *path)
{
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        cli_error("arena: --records: cannot create %s: %s", path, strerror(errno));
        return false;
    }
    struct stat info;
    if (stat(path, &info) != 0 || !S_ISDIR(info.st_mode)) {
        cli_error("arena: --records: %s is not a folder", path);
        return false;
    }
    if (access(path, W_OK) != 0) {
        cli_error("arena: --records: cannot write in %s: %s", path, strerror(errno));
        return false;
    }
    return true;
}

/* ---- Progress and Ctrl-C ----------------------------------------------------------- */

static gateau_arena *volatile running_arena;

static void on_interrupt(int signal_number)
{
    (void)signal_number;
    gateau_arena *arena = running_arena;
    if (arena) gateau_arena_stop(arena);
}

static void format_duration(double seconds, char *out, size_t size)
{
    if (!isfinite(seconds) || seconds < 0) {
        snprintf(out, size, "?");
        return;
    }
    long total = (long)(seconds + 0.5);
    if (total >= 3600) snprintf(out, size, "%ld:%02ld:%02ld", total / 3600, total / 60 % 60, total % 60);
    else snprintf(out, size, "%ld:%02ld", total / 60, total % 60);
}

static void show_progress(long finished, long total, double seconds, void *context)
{
    (void)context;
    enum { WIDTH = 30 };
    double fraction = total ? (double)finished / (double)total : 1;
    int filled = (int)(fraction * WIDTH);
    char bar[WIDTH + 1];
    for (int i = 0; i < WIDTH; i++) bar[i] = i < filled ? '#' : '.';
    bar[WIDTH] = '\0';
    double rate = seconds > 0 ? (double)finished / seconds : 0;
    char eta[32];
    format_duration(rate > 0 ? (double)(total - finished) / rate : NAN, eta, sizeof eta);
    fprintf(stderr, "\r[%s] %ld/%ld %3.0f%%  %.0f games/s  ETA %s\033[K", bar, finished, total,
            fraction * 100, rate, eta);
    fflush(stderr);
}

/* ---- The report -------------------------------------------------------------------- */

static int spec_width(const gateau_arena_stats *stats)
{
    int width = 4;
    for (int d = 0; d < stats->bot_count; d++) {
        int length = (int)strlen(stats->bots[d].spec);
        if (length > width) width = length;
    }
    return width;
}

/* A count of placings: whole, or with the half of a tie. */
static void format_placings(double placings, char *out, size_t size)
{
    if (placings == floor(placings)) snprintf(out, size, "%.0f", placings);
    else snprintf(out, size, "%.1f", placings);
}

/* One line per pair of bots, in listed order: the share of their meetings
 * in which the first placed above the second, as a percentage, and the
 * counts it comes from, as "62.3%  (1246 of 2000)".  A list rather than a
 * matrix, so that it stays within 80 columns for any number of bots and
 * each pair shows its own count (pairs differ when a spec holds several
 * seats). */
static void print_pairwise(const gateau_arena_stats *stats, int width)
{
    printf("\nPairwise: how often the first bot placed above the second (a tie counts half)\n");
    bool repeated = false;
    for (int i = 0; i < stats->bot_count; i++)
        for (int j = i + 1; j < stats->bot_count; j++) {
            char placings[32];
            format_placings(stats->pairwise[i][j], placings, sizeof placings);
            printf("  %-*s  over  %-*s  %5.1f%%  (%s of %ld)\n", width, stats->bots[i].spec,
                   width, stats->bots[j].spec, 100 * stats->pairwise_share[i][j], placings,
                   stats->meetings[i][j]);
            repeated |= stats->meetings[i][j] != stats->games;
        }
    if (repeated)
        printf("  (out of their meetings: a bot on several seats meets another once per game\n"
               "   for every pair of their seats)\n");
}

static void print_report(const gateau_arena_stats *stats)
{
    int width = spec_width(stats);
    int players = stats->players;
    printf("\nBots: win share with 95%% Wilson interval; score over every seat held\n");
    printf("  %-*s  seats  win share  95%% interval     score mean  score sd  min  max\n",
           width, "bot");
    bool shared = false;
    for (int d = 0; d < stats->bot_count; d++) {
        const gateau_arena_bot_stats *bot = &stats->bots[d];
        shared |= bot->listed > 1;
        printf("  %-*s  %5d  %9.3f  [%.3f, %.3f]  %10.2f  %8.2f  %3d  %3d\n", width, bot->spec,
               bot->listed, bot->win_share, bot->win_interval.low, bot->win_interval.high,
               bot->score_mean, bot->score_sd, bot->score_min, bot->score_max);
    }
    printf("  (a win shared by k winners counts 1/k to each; bots of equal strength get 1/%d",
           players);
    if (shared)
        printf(";\n   a spec listed on several seats is one bot: its win share per game is "
               "the average\n   over its seats, and its scores pool all its seats");
    printf(")\n");

    printf("\nSeats: win share of whoever sits there (the seat advantage), 95%% Wilson\n");
    printf("  seat  win share  95%% interval     score mean  score sd\n");
    for (int s = 0; s < players; s++) {
        const gateau_arena_seat_stats *seat = &stats->seats[s];
        printf("  %4d  %9.3f  [%.3f, %.3f]  %10.2f  %8.2f\n", s + 1, seat->win_share,
               seat->win_interval.low, seat->win_interval.high, seat->score_mean,
               seat->score_sd);
    }

    printf("\nGame length in moves (chance moves included): mean %.1f, sd %.1f, min %d, max %d\n",
           stats->moves_mean, stats->moves_sd, stats->moves_min, stats->moves_max);

    if (stats->bot_count >= 2) print_pairwise(stats, width);
    if (stats->has_ratings) {
        printf("\nRatings: Bradley-Terry (MM iterations) on the pairwise results, one virtual\n"
               "  draw per pair; Elo scale, 400 log10(strength), mean 0%s\n",
               stats->rating_iterations < 0 ? " (did not converge)" : "");
        printf("  %-*s  rating  strength\n", width, "bot");
        for (int d = 0; d < stats->bot_count; d++)
            printf("  %-*s  %6.0f  %8.3f\n", width, stats->bots[d].spec, stats->bots[d].rating,
                   stats->bots[d].strength);
    }
}

/* ---- The command ---------------------------------------------------------------- */

static bool finish_file(FILE *file, const char *flag, const char *path, bool ok)
{
    ok = ok && !ferror(file);
    if (fclose(file) != 0) ok = false;
    if (!ok) cli_error("arena: --%s: cannot write %s", flag, path);
    return ok;
}

int cli_arena(int argc, char **argv)
{
    arena_flags flags;
    if (!parse_arena_flags(argc, argv, &flags)) return 2;
    gateau_setup *setup = cli_setup("arena", &flags.common);
    if (!setup) return 1;
    const gateau_game *game = gateau_setup_game(setup);
    char error[512];
    for (int k = 0; k < flags.seats.count; k++) {
        const char *instead = gateau_bot_fallback(flags.seats.specs[k], game);
        if (instead)
            printf("Note: %s plays %s in %s (the game has no %s of its own).\n",
                   flags.seats.specs[k], instead, gateau_game_title(game), flags.seats.specs[k]);
    }
    if (!flags.common.has_seed) flags.common.seed = cli_fresh_seed();
    gateau_arena_config config = {
        .setup = setup,
        .bots = flags.seats.specs,
        .games = flags.games,
        .threads = flags.threads,
        .seed = flags.common.seed,
        .record_dir = flags.records,
        .progress = isatty(STDERR_FILENO) ? show_progress : NULL,
    };
    gateau_arena *arena = gateau_arena_new(&config, error, sizeof error);
    if (!arena) {
        cli_error("arena: %s", error);
        gateau_setup_free(setup);
        return 1;
    }
    int status = 1;
    FILE *json_file = NULL, *csv_file = NULL;
    if (flags.plot && !has_extension(flags.plot, ".png") && !has_extension(flags.plot, ".svg")) {
        cli_error("arena: --plot %s: the file name must end in .png or .svg", flags.plot);
        goto done;
    }
    if (flags.json && !(json_file = open_output("json", flags.json))) goto done;
    if (flags.csv && !(csv_file = open_output("csv", flags.csv))) goto done;
    if (flags.plot) {
        FILE *probe = open_output("plot", flags.plot);
        if (!probe) goto done;
        fclose(probe);
    }
    if (flags.records && !prepare_records_dir(flags.records)) goto done;

    printf("%s, %d players, %ld games, seed %llu, %d thread%s\n", gateau_game_title(game),
           flags.common.players, flags.games, (unsigned long long)flags.common.seed,
           flags.threads, flags.threads == 1 ? "" : "s");
    fflush(stdout);

    struct sigaction action = {0}, previous;
    action.sa_handler = on_interrupt;
    action.sa_flags = SA_RESTART | SA_RESETHAND; /* a second Ctrl-C ends at once */
    sigemptyset(&action.sa_mask);
    running_arena = arena;
    sigaction(SIGINT, &action, &previous);
    bool ran = gateau_arena_run(arena, error, sizeof error);
    sigaction(SIGINT, &previous, NULL);
    running_arena = NULL;
    if (config.progress) fputs("\r\033[K", stderr);
    if (!ran) {
        cli_error("arena: %s", error);
        goto done;
    }

    long finished = gateau_arena_finished(arena);
    bool interrupted = gateau_arena_interrupted(arena);
    double seconds = gateau_arena_seconds(arena);
    double rate = seconds > 0 ? (double)finished / seconds : 0.0;
    printf("%ld games in %.2f s, %.*f games/s\n", finished, seconds, rate < 100 ? 2 : 0, rate);
    if (interrupted)
        printf("Interrupted: the report covers games 1 to %ld of %ld.\n", finished, flags.games);
    gateau_arena_stats stats;
    gateau_arena_statistics(gateau_arena_games(arena), finished, flags.common.players,
                            flags.seats.specs, &stats);
    if (finished) print_report(&stats);
    else printf("No game finished.\n");
    fflush(stdout);

    status = interrupted ? 130 : 0;
    gateau_arena_run_facts run = {.setup = setup,
                                  .bots = flags.seats.specs,
                                  .seed = flags.common.seed,
                                  .games_requested = flags.games,
                                  .interrupted = interrupted};
    if (json_file) {
        char *report = gateau_arena_report_json(&stats, &run);
        bool written = fputs(report, json_file) != EOF;
        free(report);
        FILE *file = json_file;
        json_file = NULL;
        if (!finish_file(file, "json", flags.json, written)) status = 1;
        else printf("JSON: %s\n", flags.json);
    }
    if (csv_file) {
        char *report = gateau_arena_report_csv(&stats, &run);
        bool written = fputs(report, csv_file) != EOF;
        free(report);
        FILE *file = csv_file;
        csv_file = NULL;
        if (!finish_file(file, "csv", flags.csv, written)) status = 1;
        else printf("CSV: %s\n", flags.csv);
    }
    if (flags.plot) {
        char title[256];
        snprintf(title, sizeof title, "%s, %d players, %ld game%s%s", gateau_game_title(game),
                 flags.common.players, finished, finished == 1 ? "" : "s",
                 interrupted ? " (interrupted)" : "");
        if (cli_plot(flags.plot, title, &stats, gateau_arena_games(arena), finished, error,
                     sizeof error) != 0) {
            cli_error("arena: --plot: %s", error);
            status = 1;
        } else {
            printf("Plot: %s\n", flags.plot);
        }
    }
    if (flags.records && finished)
        printf("Records: %s/game-%06d.txt to game-%06ld.txt\n", flags.records, 1, finished);
done:
    if (json_file) fclose(json_file);
    if (csv_file) fclose(csv_file);
    gateau_arena_free(arena);
    gateau_setup_free(setup);
    return status;
}
