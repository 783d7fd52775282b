/*
 * arena.c: `gateau arena GAME --players N --seats A,B,... --games G ...`:
 * a tournament between bots, with the statistics an analyst needs, as a
 * table on the terminal and optionally JSON, CSV, a plot and the records.
 *
 * The games, the numbers and the JSON and CSV reports come from the
 * library (gateau/arena.h); this file reads the flags, shows progress,
 * catches Ctrl-C, prints the table and writes the files.
 */
#define _DEFAULT_SOURCE /* mkstemps */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "gateau/arena.h"
#include "store/sha256.h"

#define ARENA_USAGE                                                                      \
    "usage: gateau arena GAME --players N --seats A,B,... --games G [--threads T] "     \
    "[--seed S] [--options k=v ...] [--records DIR] [--json FILE] [--csv FILE] "       \
    "[--plot FILE.png|FILE.svg] [--shard I/N --part FILE]"

typedef struct arena_flags {
    cli_flags common;
    const char *games_text, *threads_text, *records, *json, *csv, *plot, *shard_text, *part;
    long games;
    int threads;
    int shard, shards; /* 0, 0 without --part */
    cli_seats seats;
} arena_flags;

/* ---- Flags ----------------------------------------------------------------------- */

/* Takes the arena's own flags out of argv (the rest goes to
 * cli_parse_flags); false after printing an error. */
static bool take_own_flags(int argc, char **argv, arena_flags *flags, int *rest_count,
                           char **rest)
{
    static const char *const names[] = {"games", "threads", "records", "json",
                                        "csv",   "plot",    "shard",   "part"};
    const char **slots[] = {&flags->games_text, &flags->threads_text, &flags->records,
                            &flags->json,       &flags->csv,          &flags->plot,
                            &flags->shard_text, &flags->part};
    *rest_count = 0;
    for (int i = 0; i < argc; i++) {
        int which = -1;
        for (int n = 0; n < 8; n++)
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

/* --shard I/N and --part FILE (docs/cluster.md): a part file is what a
 * shard writes, and --part alone is shard 1/1, a whole run that can be
 * resumed. */
static bool parse_shard_flags(arena_flags *flags)
{
    if (flags->shard_text && !flags->part) {
        cli_error("arena: --shard needs --part FILE, where the shard's games are written");
        return false;
    }
    if (!flags->part) return true;
    if (flags->json || flags->csv || flags->plot) {
        cli_error("arena: --json, --csv and --plot report a whole run: with --part, merge the "
                  "parts with gateau arena-merge");
        return false;
    }
    flags->shard = flags->shards = 1;
    if (!flags->shard_text) return true;
    const char *slash = strchr(flags->shard_text, '/');
    char shard_text[32];
    if (!slash || (size_t)(slash - flags->shard_text) >= sizeof shard_text) {
        cli_error("arena: --shard I/N, as in --shard 2/8, not '%s'", flags->shard_text);
        return false;
    }
    memcpy(shard_text, flags->shard_text, (size_t)(slash - flags->shard_text));
    shard_text[slash - flags->shard_text] = '\0';
    uint64_t shard, shards;
    if (!cli_parse_integer("arena", "--shard's N", slash + 1, 1,
                           (uint64_t)(flags->games < 1000000 ? flags->games : 1000000), &shards) ||
        !cli_parse_integer("arena", "--shard's I", shard_text, 1, shards, &shard))
        return false;
    flags->shard = (int)shard;
    flags->shards = (int)shards;
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
    return parse_shard_flags(flags);
}

/* ---- Output files ---------------------------------------------------------------- */

static bool has_extension(const char *path, const char *extension)
{
    size_t length = strlen(path), extension_length = strlen(extension);
    return length > extension_length &&
           !strcasecmp(path + length - extension_length, extension);
}

/* The folder of path (".": none), into folder. */
static void folder_of(const char *path, char *folder, size_t size)
{
    snprintf(folder, size, "%s", path);
    char *slash = strrchr(folder, '/');
    if (slash == folder) folder[1] = '\0';
    else if (slash) *slash = '\0';
    else snprintf(folder, size, ".");
}

/* Whether an output file can be written at the end, checked now, so that
 * a bad path is reported before the games rather than after: its folder
 * must take a new file (the report is written beside it and renamed over
 * it), and it must not be a folder.  Nothing is created or truncated: an
 * earlier report stays as it is until a new one replaces it whole. */
static bool check_output(const char *command, const char *flag, const char *path)
{
    struct stat info;
    if (stat(path, &info) == 0 && S_ISDIR(info.st_mode)) {
        cli_error("%s: --%s: cannot write %s: it is a folder", command, flag, path);
        return false;
    }
    char folder[4096];
    folder_of(path, folder, sizeof folder);
    if (access(folder, W_OK | X_OK) != 0) {
        cli_error("%s: --%s: cannot write %s: %s", command, flag, path, strerror(errno));
        return false;
    }
    return true;
}

/* A temporary file beside path ending like it (cairo goes by the
 * extension): its name into temporary; -1 when it cannot be made. */
static int make_temporary(const char *path, char *temporary, size_t size)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    const char *extension = dot && (!slash || dot > slash) ? dot : "";
    if ((size_t)snprintf(temporary, size, "%s.tmp-XXXXXX%s", path, extension) >= size) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return mkstemps(temporary, (int)strlen(extension));
}

/* Writes text to path whole or not at all: into a temporary file beside
 * it, renamed over it once complete (a failure or a kill meanwhile
 * leaves an earlier file as it was).  false after printing why. */
static bool write_whole(const char *command, const char *flag, const char *path,
                        const char *text)
{
    char temporary[4200];
    int descriptor = make_temporary(path, temporary, sizeof temporary);
    FILE *file = descriptor >= 0 ? fdopen(descriptor, "w") : NULL;
    bool ok = file && fputs(text, file) != EOF && fflush(file) == 0 && fsync(descriptor) == 0;
    int saved = errno;
    if (file) ok &= fclose(file) == 0;
    else if (descriptor >= 0) close(descriptor);
    if (ok && rename(temporary, path) != 0) {
        saved = errno;
        ok = false;
    }
    if (!ok) {
        if (descriptor >= 0) unlink(temporary);
        cli_error("%s: --%s: cannot write %s: %s", command, flag, path, strerror(saved));
    }
    return ok;
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

/* ---- Progress and signals ---------------------------------------------------------- */

static gateau_arena *volatile running_arena;
static volatile sig_atomic_t interrupted_once;

/* The first Ctrl-C stops the arena cleanly (its report follows); a
 * second one, SIGTERM or SIGHUP end the command at once, and the bots'
 * programs with it (the default action would leave those that do not
 * read their input). */
static void on_signal(int signal_number)
{
    gateau_arena *arena = running_arena;
    if (signal_number == SIGINT && arena && !interrupted_once) {
        interrupted_once = 1;
        gateau_arena_stop(arena);
        return;
    }
    gateau_bot_kill_programs();
    _exit(128 + signal_number);
}

static void catch_signals(void)
{
    struct sigaction action = {.sa_handler = on_signal, .sa_flags = SA_RESTART};
    sigemptyset(&action.sa_mask);
    int signals[] = {SIGINT, SIGTERM, SIGHUP};
    for (int i = 0; i < 3; i++) sigaction(signals[i], &action, NULL);
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

/* How the programs (ext:) fared: a bot whose program failed had some of
 * its moves made by the heuristic, which its numbers above include. */
static void print_programs(const gateau_arena_stats *stats, int width)
{
    printf("\nPrograms: failures (each logged) and the moves the heuristic made instead\n");
    printf("  %-*s  failures  fallback moves\n", width, "bot");
    long fallbacks = 0;
    for (int d = 0; d < stats->bot_count; d++) {
        const gateau_arena_bot_stats *bot = &stats->bots[d];
        if (strncmp(bot->spec, "ext:", 4)) continue;
        printf("  %-*s  %8ld  %14ld\n", width, bot->spec, bot->failures, bot->fallbacks);
        fallbacks += bot->fallbacks;
    }
    for (int s = 0; s < stats->players; s++) {
        char seat[32];
        snprintf(seat, sizeof seat, "seat %d", s + 1);
        printf("  %-*s  %8ld  %14ld\n", width, seat, stats->seats[s].failures,
               stats->seats[s].fallbacks);
    }
    if (fallbacks)
        printf("  (the heuristic's moves count as the program's: its numbers above are not its "
               "own alone)\n");
}

void cli_print_arena_report(const gateau_arena_stats *stats)
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
    if (stats->has_programs) print_programs(stats, width);
}

/* ---- Report files ------------------------------------------------------------------ */

bool cli_arena_open_outputs(const char *command, cli_arena_outputs *outputs)
{
    if (outputs->plot && !has_extension(outputs->plot, ".png") &&
        !has_extension(outputs->plot, ".svg")) {
        cli_error("%s: --plot %s: the file name must end in .png or .svg", command,
                  outputs->plot);
        return false;
    }
    return (!outputs->json || check_output(command, "json", outputs->json)) &&
           (!outputs->csv || check_output(command, "csv", outputs->csv)) &&
           (!outputs->plot || check_output(command, "plot", outputs->plot));
}

/* Writes a report (freed here) whole to its file; false after printing why. */
static bool write_report(const char *command, const char *flag, const char *path, char *report)
{
    bool ok = write_whole(command, flag, path, report);
    free(report);
    if (ok) printf("%s: %s\n", !strcmp(flag, "json") ? "JSON" : "CSV", path);
    return ok;
}

/* The plot, drawn into a temporary file renamed over the path. */
static bool write_plot(const char *command, const char *path, const char *title,
                       const gateau_arena_stats *stats, const gateau_arena_game *games)
{
    char temporary[4200], error[512];
    int descriptor = make_temporary(path, temporary, sizeof temporary);
    if (descriptor < 0) {
        cli_error("%s: --plot: cannot write %s: %s", command, path, strerror(errno));
        return false;
    }
    close(descriptor);
    bool ok = cli_plot(temporary, title, stats, games, stats->games, error, sizeof error) == 0;
    if (ok && rename(temporary, path) != 0) {
        snprintf(error, sizeof error, "cannot write %s: %s", path, strerror(errno));
        ok = false;
    }
    if (!ok) {
        unlink(temporary);
        cli_error("%s: --plot: %s", command, error);
        return false;
    }
    printf("Plot: %s\n", path);
    return true;
}

bool cli_arena_write_outputs(const char *command, cli_arena_outputs *outputs,
                             const gateau_arena_stats *stats, const gateau_arena_run_facts *run,
                             const gateau_arena_game *games, const char *title)
{
    if (!stats->games) {
        /* No report: an earlier file stays as it was. */
        if (outputs->json || outputs->csv || outputs->plot)
            printf("No game to report: no file written.\n");
        return true;
    }
    bool ok = true;
    if (outputs->json)
        ok &= write_report(command, "json", outputs->json, gateau_arena_report_json(stats, run));
    if (outputs->csv)
        ok &= write_report(command, "csv", outputs->csv, gateau_arena_report_csv(stats, run));
    if (outputs->plot) ok &= write_plot(command, outputs->plot, title, stats, games);
    return ok;
}

void cli_arena_title(const char *game_title, int players, long games, bool interrupted,
                     char *title, size_t size)
{
    snprintf(title, size, "%s, %d players, %ld game%s%s", game_title, players, games,
             games == 1 ? "" : "s", interrupted ? " (interrupted)" : "");
}

/* ---- Part files (--part, --shard) ------------------------------------------------- */

/* The part file a shard appends its games to, and where it came from. */
typedef struct part_file {
    const char *path;
    FILE *file;
    int players;
    long resumed;    /* games read from the file, not played again */
    bool dropped;    /* a last line cut short was dropped */
} part_file;

/* Reads a whole file, NUL-terminated; NULL (errno set) when it cannot. */
static char *read_whole_file(const char *path, size_t *length)
{
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    size_t capacity = 1 << 16, used = 0;
    char *text = malloc(capacity);
    if (!text) abort();
    for (;;) {
        used += fread(text + used, 1, capacity - 1 - used, file);
        if (used < capacity - 1) break;
        capacity *= 2;
        text = realloc(text, capacity);
        if (!text) abort();
    }
    bool failed = ferror(file);
    fclose(file);
    if (failed) {
        free(text);
        errno = EIO;
        return NULL;
    }
    text[used] = '\0';
    *length = used;
    return text;
}

char *cli_read_part(const char *command, const char *path, size_t *length)
{
    char *text = read_whole_file(path, length);
    if (!text) cli_error("%s: cannot read %s: %s", command, path, strerror(errno));
    return text;
}

/* The first line where two headers differ, as "line L: 'A' where this run
 * has 'B'" (both NUL-terminated). */
static void header_difference(const char *found, const char *expected, char *out, size_t size)
{
    int line = 1;
    size_t i = 0, line_start = 0;
    for (; found[i] && found[i] == expected[i]; i++)
        if (found[i] == '\n') {
            line++;
            line_start = i + 1;
        }
    const char *found_line = found + line_start, *expected_line = expected + line_start;
    snprintf(out, size, "line %d: '%.*s' where this run has '%.*s'", line,
             (int)strcspn(found_line, "\n"), found_line, (int)strcspn(expected_line, "\n"),
             expected_line);
}

/* The SHA-256 of the deck file options name (deck=PATH) in hex, "" when
 * they name none: a part names its deck by content, since one path may
 * hold another deck on another machine or another day. */
static bool deck_hash(const char *options, char hex[65], char *error, size_t error_size)
{
    hex[0] = '\0';
    const char *word = options;
    while (word && strncmp(word, "deck=", 5)) {
        word = strchr(word, ' ');
        if (word) word++;
    }
    if (!word) return true;
    char path[1024];
    snprintf(path, sizeof path, "%.*s", (int)strcspn(word + 5, " "), word + 5);
    size_t length;
    char *content = read_whole_file(path, &length);
    if (!content) {
        snprintf(error, error_size, "cannot read the deck %.300s: %s", path, strerror(errno));
        return false;
    }
    uint8_t hash[32];
    store_sha256(content, length, hash);
    free(content);
    for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", hash[i]);
    return true;
}

/* Reads what the file descriptor holds from its start, NUL-terminated;
 * NULL (errno set) when it cannot. */
static char *read_descriptor(int descriptor, size_t *length)
{
    size_t capacity = 1 << 16, used = 0;
    char *text = malloc(capacity);
    if (!text) abort();
    for (;;) {
        ssize_t got = pread(descriptor, text + used, capacity - 1 - used, (off_t)used);
        if (got < 0) {
            free(text);
            return NULL;
        }
        if (got == 0) break;
        used += (size_t)got;
        if (used == capacity - 1) {
            capacity *= 2;
            text = realloc(text, capacity);
            if (!text) abort();
        }
    }
    text[used] = '\0';
    *length = used;
    return text;
}

/* Gives the games of a part file of this very run to the arena, which will
 * not play them again; a last line cut short is cut off.  false after
 * printing why. */
static bool resume_from(part_file *part, int descriptor, char *text, size_t length,
                        const char *header, gateau_arena *arena)
{
    gateau_arena_part read;
    char error[512];
    int line;
    if (!gateau_arena_part_read(text, length, &read, error, sizeof error, &line)) {
        cli_error("arena: --part %s line %d: %s", part->path, line, error);
        return false;
    }
    size_t header_length = strlen(header);
    if (length < header_length || memcmp(text, header, header_length) != 0) {
        char difference[512];
        header_difference(text, header, difference, sizeof difference);
        cli_error("arena: --part %s is a part of another run (%s)", part->path, difference);
        gateau_arena_part_free(&read);
        return false;
    }
    bool ok = true;
    for (long i = 0; ok && i < read.count; i++)
        if (!gateau_arena_resume_game(arena, read.games[i].game, &read.games[i].result, error,
                                      sizeof error)) {
            cli_error("arena: --part %s line %d: %s", part->path, read.games[i].line, error);
            ok = false;
        }
    part->resumed = read.count;
    part->dropped = read.torn;
    size_t complete = read.complete_length;
    gateau_arena_part_free(&read);
    /* A last line cut short by a kill goes: its game is played again. */
    if (ok && part->dropped && ftruncate(descriptor, (off_t)complete) != 0) {
        cli_error("arena: --part: cannot truncate %s: %s", part->path, strerror(errno));
        ok = false;
    }
    return ok;
}

/*
 * Opens the part file for appending, locked so that two processes never
 * play the same shard into it: a new one (or one whose header was cut
 * short) gets the header; one that holds the header of this very run (a
 * shard killed or stopped before) gives its games to the arena.  false
 * after printing why.
 */
static bool open_part(part_file *part, const char *header, gateau_arena *arena)
{
    int descriptor = open(part->path, O_RDWR | O_CREAT | O_APPEND, 0666);
    if (descriptor < 0) {
        cli_error("arena: --part: cannot write %s: %s", part->path, strerror(errno));
        return false;
    }
    /* (A file system without locks, ENOLCK, is not a reason to stop.) */
    if (flock(descriptor, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
        cli_error("arena: --part %s is being written by another gateau arena (this shard, "
                  "running twice?)", part->path);
        close(descriptor);
        return false;
    }
    size_t length = 0;
    char *text = read_descriptor(descriptor, &length);
    if (!text) {
        cli_error("arena: --part: cannot read %s: %s", part->path, strerror(errno));
        close(descriptor);
        return false;
    }
    size_t header_length = strlen(header);
    bool ok;
    if (length < header_length && !memcmp(text, header, length)) {
        /* Nothing yet, or a header cut short: start the file. */
        ok = ftruncate(descriptor, 0) == 0 &&
             write(descriptor, header, header_length) == (ssize_t)header_length;
        if (!ok) cli_error("arena: --part: cannot write %s: %s", part->path, strerror(errno));
    } else {
        ok = resume_from(part, descriptor, text, length, header, arena);
    }
    free(text);
    if (ok && !(part->file = fdopen(descriptor, "a"))) {
        cli_error("arena: --part: cannot write %s: %s", part->path, strerror(errno));
        ok = false;
    }
    if (!ok) close(descriptor);
    return ok;
}

/* on_game: appends the game's line and flushes it, so that a kill loses
 * at most the games in progress (and maybe cuts the last line short). */
static bool append_game(long game, const gateau_arena_game *result, void *context, char *error,
                        size_t error_size)
{
    part_file *part = context;
    char line[GATEAU_ARENA_PART_LINE_SIZE];
    int length = gateau_arena_part_line(game, result, part->players, line);
    if (fwrite(line, 1, (size_t)length, part->file) != (size_t)length ||
        fflush(part->file) != 0) {
        snprintf(error, error_size, "--part: cannot write %s: %s", part->path, strerror(errno));
        return false;
    }
    return true;
}

/* The statistics of the games a shard has finished, in game order. */
static void shard_statistics(const gateau_arena *arena, const arena_flags *flags,
                             gateau_arena_stats *stats)
{
    long count = gateau_arena_game_count(arena), finished = 0;
    const gateau_arena_game *games = gateau_arena_games(arena);
    gateau_arena_game *done = malloc(sizeof *done * (size_t)(count ? count : 1));
    if (!done) abort();
    for (long i = 0; i < count; i++)
        if (games[i].done) done[finished++] = games[i];
    gateau_arena_statistics(done, finished, flags->common.players, flags->seats.specs, stats);
    free(done);
}

/* ---- The command ---------------------------------------------------------------- */

/* What the arena says after its games: the table, then its files (when
 * it has a report).  failure: why a game could not be played, or NULL. */
static int report_whole_run(const arena_flags *flags, const gateau_setup *setup,
                            gateau_arena *arena, cli_arena_outputs *outputs,
                            const char *failure)
{
    const gateau_game *game = gateau_setup_game(setup);
    long finished = gateau_arena_finished(arena);
    bool interrupted = gateau_arena_interrupted(arena);
    if (failure && finished)
        printf("Stopped by a failure: the report covers games 1 to %ld of %ld.\n", finished,
               flags->games);
    else if (interrupted)
        printf("Interrupted: the report covers games 1 to %ld of %ld.\n", finished, flags->games);
    gateau_arena_stats stats;
    gateau_arena_statistics(gateau_arena_games(arena), finished, flags->common.players,
                            flags->seats.specs, &stats);
    if (finished) cli_print_arena_report(&stats);
    else printf("No game finished.\n");
    /* (the game that stopped the run is in no table above, its failure
     * neither: said here, so that no table reads as a clean run) */
    if (failure && finished)
        printf("\nNot counted above: game %ld, stopped: %s\n", finished + 1, failure);
    fflush(stdout);

    int status = failure ? 1 : interrupted ? 130 : 0;
    gateau_arena_run_facts run = {.setup = setup,
                                  .bots = flags->seats.specs,
                                  .seed = flags->common.seed,
                                  .games_requested = flags->games,
                                  .interrupted = interrupted,
                                  .failure = failure};
    char title[256];
    cli_arena_title(gateau_game_title(game), flags->common.players, finished, interrupted, title,
                    sizeof title);
    if (!cli_arena_write_outputs("arena", outputs, &stats, &run, gateau_arena_games(arena),
                                 title))
        status = 1;
    if (flags->records && finished)
        printf("Records: %s/game-%06d.txt to game-%06ld.txt\n", flags->records, 1, finished);
    return status;
}

/* What a shard says: its games, the part file, and its own games' table. */
static int report_shard(const arena_flags *flags, gateau_arena *arena, const part_file *part,
                        const char *failure)
{
    long first = gateau_arena_first_game(arena), count = gateau_arena_game_count(arena);
    long finished = gateau_arena_finished(arena);
    printf("Shard %d/%d: games %ld to %ld, %ld of %ld finished (%ld from %s, %ld now)\n",
           flags->shard, flags->shards, first + 1, first + count, finished, count,
           part->resumed, part->path, finished - part->resumed);
    if (failure)
        printf("Stopped by a failure: the part keeps the %ld games finished.\n", finished);
    else if (finished < count)
        printf("Interrupted: run the same command again to play the %ld games left.\n",
               count - finished);
    else
        printf("Part: %s is complete; gateau arena-merge combines the parts.\n", part->path);
    gateau_arena_stats stats;
    shard_statistics(arena, flags, &stats);
    if (finished) cli_print_arena_report(&stats);
    return failure ? 1 : finished < count ? 130 : 0;
}

/* Each program (ext:) listed is started once and shakes hands before the
 * games, so that one that cannot (a typo, a missing interpreter) stops
 * the run now with one line, rather than after games its fallback played
 * in its name. */
static bool check_programs(const arena_flags *flags)
{
    bool programs = false;
    for (int k = 0; k < flags->seats.count; k++) {
        const char *spec = flags->seats.specs[k];
        bool again = false;
        for (int j = 0; j < k; j++) again |= !strcmp(flags->seats.specs[j], spec);
        if (strncmp(spec, "ext:", 4) || again) continue;
        char error[768];
        if (!programs && !gateau_bot_guard_processes(error, sizeof error)) {
            cli_error("arena: %s", error);
            return false;
        }
        programs = true;
        gateau_bot *bot = gateau_bot_new(spec, error, sizeof error);
        bool ok = bot && gateau_bot_start(bot, k, error, sizeof error);
        gateau_bot_free(bot);
        if (!ok) {
            cli_error("arena: %s", error);
            return false;
        }
    }
    return true;
}

/* Opens the part file of a shard (--part); false after printing why. */
static bool prepare_part(const gateau_arena_config *config, part_file *part,
                         gateau_arena *arena)
{
    gateau_arena_part_header header;
    char *header_text = NULL, error[512];
    if (gateau_arena_part_header_of(config, &header, error, sizeof error) &&
        deck_hash(header.options, header.deck, error, sizeof error))
        header_text = gateau_arena_part_header_text(&header, error, sizeof error);
    if (!header_text) {
        cli_error("arena: --part: %s", error);
        return false;
    }
    bool opened = open_part(part, header_text, arena);
    free(header_text);
    if (!opened) return false;
    if (part->dropped)
        printf("Note: %s ended in a line cut short; its game is played again.\n", part->path);
    return true;
}

int cli_arena(int argc, char **argv)
{
    arena_flags flags;
    if (!parse_arena_flags(argc, argv, &flags)) return 2;
    gateau_setup *setup = cli_setup("arena", &flags.common);
    if (!setup) return 1;
    const gateau_game *game = gateau_setup_game(setup);
    char error[1024];
    for (int k = 0; k < flags.seats.count; k++) {
        const char *instead = gateau_bot_fallback(flags.seats.specs[k], game);
        if (instead)
            printf("Note: %s plays %s in %s (the game has no %s of its own).\n",
                   flags.seats.specs[k], instead, gateau_game_title(game), flags.seats.specs[k]);
    }
    if (!flags.common.has_seed) {
        if (flags.part) {
            /* Every shard, and every resumption, must play the same games. */
            cli_error("arena: --part needs --seed S, the same for every shard of the run");
            gateau_setup_free(setup);
            return 2;
        }
        flags.common.seed = cli_fresh_seed();
    }
    part_file part = {.path = flags.part, .players = flags.common.players};
    gateau_arena_config config = {
        .setup = setup,
        .bots = flags.seats.specs,
        .games = flags.games,
        .threads = flags.threads,
        .seed = flags.common.seed,
        .record_dir = flags.records,
        .progress = isatty(STDERR_FILENO) ? show_progress : NULL,
        .shard = flags.shard,
        .shards = flags.shards,
        .on_game = flags.part ? append_game : NULL,
        .on_game_context = &part,
    };
    gateau_arena *arena = gateau_arena_new(&config, error, sizeof error);
    if (!arena) {
        cli_error("arena: %s", error);
        gateau_setup_free(setup);
        return 1;
    }
    int status = 1;
    cli_arena_outputs outputs = {.json = flags.json, .csv = flags.csv, .plot = flags.plot};
    catch_signals(); /* (before any program starts) */
    if (!cli_arena_open_outputs("arena", &outputs)) goto done;
    if (flags.records && !prepare_records_dir(flags.records)) goto done;
    if (!check_programs(&flags)) goto done;
    if (flags.part && !prepare_part(&config, &part, arena)) goto done;

    printf("%s, %d players, %ld games, seed %llu, %d thread%s\n", gateau_game_title(game),
           flags.common.players, flags.games, (unsigned long long)flags.common.seed,
           flags.threads, flags.threads == 1 ? "" : "s");
    fflush(stdout);

    running_arena = arena;
    bool ran = gateau_arena_run(arena, error, sizeof error);
    running_arena = NULL;
    if (config.progress) fputs("\r\033[K", stderr);
    /* A game that could not be played (an ext: seat that forfeits) stops
     * the run: said first, then the report of the games finished before. */
    if (!ran) cli_error("arena: %s", error);

    long played = gateau_arena_finished(arena) - part.resumed;
    double seconds = gateau_arena_seconds(arena);
    double rate = seconds > 0 ? (double)played / seconds : 0.0;
    printf("%ld games in %.2f s, %.*f games/s\n", played, seconds, rate < 100 ? 2 : 0, rate);
    if (part.file && fclose(part.file) != 0) {
        part.file = NULL;
        cli_error("arena: --part: cannot write %s: %s", part.path, strerror(errno));
        goto done;
    }
    part.file = NULL;
    status = flags.part ? report_shard(&flags, arena, &part, ran ? NULL : error)
                        : report_whole_run(&flags, setup, arena, &outputs, ran ? NULL : error);
done:
    if (part.file) fclose(part.file);
    gateau_arena_free(arena);
    gateau_setup_free(setup);
    return status;
}
