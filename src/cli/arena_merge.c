/*
 * arena_merge.c: `gateau arena-merge PART... [--json F] [--csv F] [--plot F]
 * [--partial]`: the report of a whole arena run from the part files of its
 * shards (docs/cluster.md).
 *
 * The parts hold every game's result, not sums: the games are put back
 * in game order and the library computes the statistics and the reports
 * from them as `gateau arena` does, so a complete set of parts gives the
 * single run's report byte for byte, whatever the sharding.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "gateau/arena.h"

#define MERGE_USAGE                                                                      \
    "usage: gateau arena-merge PART... [--json FILE] [--csv FILE] "                     \
    "[--plot FILE.png|FILE.svg] [--partial]"

typedef struct merge_flags {
    const char **parts;
    int part_count;
    bool partial;
    cli_arena_outputs outputs;
} merge_flags;

static bool parse_merge_flags(int argc, char **argv, merge_flags *flags)
{
    memset(flags, 0, sizeof *flags);
    flags->parts = calloc((size_t)argc + 1, sizeof *flags->parts);
    if (!flags->parts) abort();
    for (int i = 0; i < argc; i++) {
        const char *argument = argv[i];
        if (strncmp(argument, "--", 2) != 0 || !argument[2]) {
            flags->parts[flags->part_count++] = argument;
            continue;
        }
        if (!strcmp(argument, "--partial")) {
            flags->partial = true;
            continue;
        }
        const char **slot = !strcmp(argument, "--json")   ? &flags->outputs.json
                            : !strcmp(argument, "--csv")  ? &flags->outputs.csv
                            : !strcmp(argument, "--plot") ? &flags->outputs.plot
                                                          : NULL;
        if (!slot) {
            cli_error("arena-merge: unknown option %s (" MERGE_USAGE ")", argument);
            return false;
        }
        if (i + 1 >= argc || (!strncmp(argv[i + 1], "--", 2) && argv[i + 1][2])) {
            cli_error("arena-merge: %s needs a value", argument);
            return false;
        }
        *slot = argv[++i];
    }
    if (!flags->part_count) {
        cli_error("arena-merge: " MERGE_USAGE);
        return false;
    }
    return true;
}

/* options without its deck=PATH word when the part names its deck by
 * hash: the same deck may sit at two paths on two machines. */
static void options_but_deck(const gateau_arena_part_header *part, char *out, size_t size)
{
    snprintf(out, size, "%s", part->options);
    if (!part->deck[0]) return;
    for (char *word = out; word;) {
        size_t length = strcspn(word, " ");
        if (!strncmp(word, "deck=", 5)) {
            memmove(word, word + length + (word[length] == ' '),
                    strlen(word + length + (word[length] == ' ')) + 1);
            return;
        }
        word = word[length] ? word + length + 1 : NULL;
    }
}

/* Where two parts' runs differ ("" when they are the same run). */
static void run_difference(const gateau_arena_part_header *a, const gateau_arena_part_header *b,
                           char *out, size_t size)
{
    char options_a[sizeof a->options], options_b[sizeof b->options];
    options_but_deck(a, options_a, sizeof options_a);
    options_but_deck(b, options_b, sizeof options_b);
    out[0] = '\0';
    if (strcmp(a->game, b->game)) snprintf(out, size, "game %s, not %s", b->game, a->game);
    else if (a->players != b->players)
        snprintf(out, size, "players %d, not %d", b->players, a->players);
    else if (strcmp(a->deck, b->deck))
        snprintf(out, size, "deck %s, not %s", b->deck[0] ? b->deck : "(none)",
                 a->deck[0] ? a->deck : "(none)");
    else if (strcmp(options_a, options_b))
        snprintf(out, size, "options '%.200s', not '%.200s'", b->options, a->options);
    else if (a->seed != b->seed)
        snprintf(out, size, "seed %llu, not %llu", (unsigned long long)b->seed,
                 (unsigned long long)a->seed);
    else if (a->games != b->games) snprintf(out, size, "games %ld, not %ld", b->games, a->games);
    else
        for (int k = 0; k < a->players; k++)
            if (strcmp(a->bots[k], b->bots[k])) {
                snprintf(out, size, "bot %d %s, not %s", k + 1, b->bots[k], a->bots[k]);
                return;
            }
}

/* The runs of missing games, as "21-40, 45, ..." (the first few). */
static void missing_ranges(const gateau_arena_game *games, long count, char *out, size_t size)
{
    size_t used = 0;
    int ranges = 0;
    out[0] = '\0';
    for (long g = 0; g < count && used < size; g++) {
        if (games[g].done) continue;
        long last = g;
        while (last + 1 < count && !games[last + 1].done) last++;
        if (ranges++ == 5) {
            snprintf(out + used, size - used, ", ...");
            return;
        }
        int written = last > g ? snprintf(out + used, size - used, "%s%ld-%ld", ranges > 1 ? ", " : "", g + 1, last + 1)
                               : snprintf(out + used, size - used, "%s%ld", ranges > 1 ? ", " : "", g + 1);
        used += written > 0 ? (size_t)written : 0;
        g = last;
    }
}

/* The games of every part, in game order, into merged (header->games of
 * them); false after printing why (another run, a game twice). */
static bool gather(const merge_flags *flags, gateau_arena_part *parts,
                   gateau_arena_game *merged, int *source)
{
    const gateau_arena_part_header *run = &parts[0].header;
    for (int p = 0; p < flags->part_count; p++) {
        char difference[1400];
        run_difference(run, &parts[p].header, difference, sizeof difference);
        if (difference[0]) {
            cli_error("arena-merge: %s is a part of another run than %s (%s)", flags->parts[p],
                      flags->parts[0], difference);
            return false;
        }
        for (long i = 0; i < parts[p].count; i++) {
            const gateau_arena_part_game *game = &parts[p].games[i];
            if (source[game->game]) {
                int other = source[game->game] - 1;
                int line = 0;
                for (long j = 0; j < parts[other].count; j++)
                    if (parts[other].games[j].game == game->game) line = parts[other].games[j].line;
                cli_error("arena-merge: %s line %d: game %ld is also in %s line %d",
                          flags->parts[p], game->line, game->game + 1, flags->parts[other], line);
                return false;
            }
            source[game->game] = p + 1;
            merged[game->game] = game->result;
        }
    }
    return true;
}

static int merge(merge_flags *flags, gateau_arena_part *parts)
{
    const gateau_arena_part_header *run = &parts[0].header;
    const gateau_game *game = gateau_game_find(run->game);
    if (!game) {
        cli_error("arena-merge: %s line 2: unknown game '%s'", flags->parts[0], run->game);
        return 1;
    }
    long games = run->games;
    gateau_arena_game *merged = calloc((size_t)games, sizeof *merged);
    int *source = calloc((size_t)games, sizeof *source);
    if (!merged || !source) abort();
    int status = 1;
    if (!gather(flags, parts, merged, source)) goto done;
    long present = 0, prefix = 0;
    for (long g = 0; g < games; g++) present += merged[g].done;
    while (prefix < games && merged[prefix].done) prefix++;
    if (present < games && !flags->partial) {
        char ranges[256];
        missing_ranges(merged, games, ranges, sizeof ranges);
        cli_error("arena-merge: %ld of the %ld games are missing: %s (give every shard's "
                  "complete part, or --partial for a report of games 1 to %ld)",
                  games - present, games, ranges, prefix);
        goto done;
    }
    if (!cli_arena_open_outputs("arena-merge", &flags->outputs)) goto done;
    bool interrupted = prefix < games;
    printf("%s, %d players, %ld games, seed %llu: %d part%s merged\n", gateau_game_title(game),
           run->players, games, (unsigned long long)run->seed, flags->part_count,
           flags->part_count == 1 ? "" : "s");
    if (interrupted)
        printf("Partial: the report covers games 1 to %ld of %ld (%ld present).\n", prefix,
               games, present);
    const char *specs[GATEAU_MAX_PLAYERS];
    for (int k = 0; k < run->players; k++) specs[k] = run->bots[k];
    gateau_arena_stats stats;
    gateau_arena_statistics(merged, prefix, run->players, specs, &stats);
    if (prefix) cli_print_arena_report(&stats);
    else printf("No game from game 1 on.\n");
    fflush(stdout);
    gateau_arena_run_facts facts = {.game_name = run->game,
                                    .options_text = run->options,
                                    .bots = specs,
                                    .seed = run->seed,
                                    .games_requested = games,
                                    .interrupted = interrupted};
    char title[256];
    cli_arena_title(gateau_game_title(game), run->players, prefix, interrupted, title,
                    sizeof title);
    status = cli_arena_write_outputs("arena-merge", &flags->outputs, &stats, &facts, merged, title)
                 ? 0
                 : 1;
done:
    free(merged);
    free(source);
    return status;
}

int cli_arena_merge(int argc, char **argv)
{
    merge_flags flags;
    if (!parse_merge_flags(argc, argv, &flags)) {
        free(flags.parts);
        return 2;
    }
    gateau_arena_part *parts = calloc((size_t)flags.part_count, sizeof *parts);
    if (!parts) abort();
    int status = 1, read = 0;
    for (; read < flags.part_count; read++) {
        size_t length;
        char *text = cli_read_part("arena-merge", flags.parts[read], &length);
        if (!text) break;
        char error[512];
        int line;
        bool ok = gateau_arena_part_read(text, length, &parts[read], error, sizeof error, &line);
        free(text);
        if (!ok) {
            cli_error("arena-merge: %s line %d: %s", flags.parts[read], line, error);
            break;
        }
    }
    if (read == flags.part_count) status = merge(&flags, parts);
    for (int p = 0; p < read; p++) gateau_arena_part_free(&parts[p]);
    free(parts);
    free(flags.parts);
    return status;
}
