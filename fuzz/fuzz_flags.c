/*
 * fuzz_flags.c: the `gateau` command's shared flag parsing
 * (src/cli/flags.c): cli_parse_flags, cli_parse_seats, cli_parse_integer.
 *
 * Input: one argument a line.  The first line is the subcommand, which
 * picks the flags allowed as the command does (play, random, replay,
 * arena; any other word allows them all); the rest is its argv.  So
 * "random\npiece-o-cake\n--players\n3" is `gateau random piece-o-cake
 * --players 3`.  Every argument is also read as a whole number
 * (cli_parse_integer), and a --seats list is split as `play` and `arena`
 * split it.  What is taken must be what was given: numbers written back
 * as typed (less leading zeros), seat specs trimmed and non-empty.
 *
 * The parsers print their refusals on stderr: run this target with
 * -close_fd_mask=2 to keep them out of the log (libFuzzer's own report
 * and the sanitizers' still show, and so do this target's, on a copy of
 * stderr taken before libFuzzer closes it).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "fuzz.h"

enum { MOST_ARGUMENTS = 64 };

/* As each subcommand calls cli_parse_flags (src/cli/). */
static const struct {
    const char *command, *allowed;
} COMMANDS[] = {
    {"play", "players seats seed record options deck names resume"},
    {"random", "players seed options deck"},
    {"replay", "json"},
    {"arena", "players seats seed options deck"},
};

static const char *allowed_flags(const char *command)
{
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        if (!strcmp(command, COMMANDS[i].command)) return COMMANDS[i].allowed;
    return "players seats seed record options deck json";
}

/* A number taken is the one typed: digits only, leading zeros aside. */
static void check_integer(const char *text)
{
    uint64_t value;
    if (!cli_parse_integer("fuzz", "--number", text, 0, UINT64_MAX, &value)) return;
    while (text[0] == '0' && text[1]) text++;
    char written[32];
    snprintf(written, sizeof written, "%" PRIu64, value);
    FUZZ_REQUIRE(!strcmp(written, text), "'%s' read as %s", text, written);
    uint64_t bounded;
    bool taken = cli_parse_integer("fuzz", "--number", text, 1, 1000, &bounded);
    FUZZ_REQUIRE(taken == (value >= 1 && value <= 1000), "'%s' against 1..1000", text);
}

static void check_seats(const char *command, const char *list, int players)
{
    cli_seats seats;
    if (!cli_parse_seats(command, list, players, &seats)) return;
    FUZZ_REQUIRE(seats.count >= 1 && seats.count <= GATEAU_MAX_PLAYERS, "%d seats", seats.count);
    FUZZ_REQUIRE(!players || seats.count == players, "%d seats for %d players", seats.count,
                 players);
    for (int s = 0; s < seats.count; s++) {
        const char *spec = seats.specs[s];
        size_t length = strlen(spec);
        FUZZ_REQUIRE(length > 0 && !isspace((unsigned char)spec[0]) &&
                         !isspace((unsigned char)spec[length - 1]) && !strchr(spec, ','),
                     "seat %d is '%s'", s + 1, spec);
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* (libFuzzer applies -close_fd_mask after this.) */
    int copy = dup(STDERR_FILENO);
    if (copy >= 0) fuzz_report = fdopen(copy, "w");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    char *argv[MOST_ARGUMENTS + 1];
    int argc = 0;
    for (char *line = text; line && argc < MOST_ARGUMENTS;) {
        char *newline = strchr(line, '\n');
        if (newline) *newline = '\0';
        argv[argc++] = line;
        line = newline ? newline + 1 : NULL;
    }
    argv[argc] = NULL;
    const char *command = argv[0];

    cli_flags flags;
    if (cli_parse_flags(command, argc - 1, argv + 1, allowed_flags(command), &flags)) {
        FUZZ_REQUIRE(flags.players >= 0 && flags.players <= 1000000000, "--players %d",
                     flags.players);
        if (flags.seats) {
            check_seats(command, flags.seats, flags.players);
            check_seats(command, flags.seats, 0);
        }
    }
    for (int i = 1; i < argc; i++) check_integer(argv[i]);
    free(text);
    return 0;
}
