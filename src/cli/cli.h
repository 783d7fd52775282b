/*
 * cli.h: the pieces the `gateau` command's subcommands share.
 */
#ifndef GATEAU_CLI_H
#define GATEAU_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gateau/arena.h"
#include "gateau/bot.h"
#include "gateau/gateau.h"
#include "gateau/match.h"
#include "gateau/record.h"

/* The flags of a subcommand, as parsed by cli_parse_flags(). */
typedef struct cli_flags {
    const char *game;       /* the positional GAME or FILE */
    int players;            /* 0 when not given */
    const char *seats;      /* --seats */
    bool has_seed;
    uint64_t seed;
    const char *record;     /* --record FILE */
    char options[1024];     /* --options k=v ..., space-separated; --deck F adds deck=F */
    bool json;              /* --json */
    const char *names;      /* --names A,B,... */
    const char *resume;     /* --resume RECORD */
    const char *bot;        /* --bot SPEC */
} cli_flags;

/* Reads argv (after the subcommand) into flags; `allowed` lists the flags
 * this subcommand takes, as in "players seats seed record options json".
 * Prints a one-line error and returns false on anything unexpected. */
bool cli_parse_flags(const char *command, int argc, char **argv, const char *allowed,
                     cli_flags *flags);

/* Reads text as a whole number from min to max (digits only: no sign, no
 * fraction) into *out.  Otherwise prints "COMMAND: FLAG needs a whole
 * number from MIN to MAX, not 'TEXT'" and returns false.  flag is written
 * as typed, as in "--games". */
bool cli_parse_integer(const char *command, const char *flag, const char *text, uint64_t min,
                       uint64_t max, uint64_t *out);

/* A --seats list: comma-separated specs, one per seat, spaces around each
 * trimmed. */
typedef struct cli_seats {
    int count;
    const char *specs[GATEAU_MAX_PLAYERS]; /* point into text */
    char text[GATEAU_MAX_PLAYERS][GATEAU_MAX_SPEC];
} cli_seats;

/* Splits a --seats list into seats->specs (what each spec means, a bot or
 * "human", is the caller's).  players is the seat count the list must
 * have, or 0 to take it from the list (at most GATEAU_MAX_PLAYERS).  Prints
 * one error line prefixed by command and returns false on an empty name, a
 * spec of GATEAU_MAX_SPEC characters or more, more than GATEAU_MAX_PLAYERS names, or
 * a count other than players. */
bool cli_parse_seats(const char *command, const char *text, int players, cli_seats *seats);

/* The setup the flags name: the game, --players (the game's fewest when
 * not given; flags->players is set), --options.  NULL after printing why
 * (then exit with 1). */
gateau_setup *cli_setup(const char *command, cli_flags *flags);

/* Whether path can be written (an existing file, or a new one in a
 * writable folder), checked before a game or an arena starts rather than
 * after it ends; false after printing why. */
bool cli_check_writable(const char *command, const char *flag, const char *path);

/* Finds the game or prints "unknown game" with the list. */
const gateau_game *cli_find_game(const char *name);

/* Prints "gateau: <message>" to stderr. */
void cli_error(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* The record in the file at path, or NULL after "gateau: PATH:LINE: why"
 * (or "PATH: why") on stderr. */
gateau_record *cli_read_record(const char *path);

/* A seed from the clock and process, when none was given. */
uint64_t cli_fresh_seed(void);

int cli_play(int argc, char **argv);
int cli_replay(int argc, char **argv);
int cli_random(int argc, char **argv);
int cli_hint(int argc, char **argv);
int cli_review(int argc, char **argv);
int cli_serve(int argc, char **argv);
int cli_tables(int argc, char **argv);
int cli_engine(int argc, char **argv);

/* Prints an analysis's best moves for seat in game (src/cli/hint.c),
 * scores in the game's unit; budget says what was searched, as
 * "ismcts, 200 ms". */
void cli_print_hint(FILE *out, const gateau_game *game, const gateau_bot_candidate *results,
                    int count, int seat, const char *budget);
int cli_arena(int argc, char **argv);
int cli_arena_merge(int argc, char **argv);

/* The table `gateau arena` prints after its games (src/cli/arena.c). */
void cli_print_arena_report(const gateau_arena_stats *stats);

/* An arena's report files (--json, --csv, --plot): checked before the
 * work (cli_arena_open_outputs: their folders must take them; false after
 * printing why, with the command's name), written after it when there is
 * a report, each whole or not at all: a temporary file renamed over the
 * path, so that an earlier report is never truncated
 * (cli_arena_write_outputs: false after printing why). */
typedef struct cli_arena_outputs {
    const char *json, *csv, *plot;
} cli_arena_outputs;
bool cli_arena_open_outputs(const char *command, cli_arena_outputs *outputs);
bool cli_arena_write_outputs(const char *command, cli_arena_outputs *outputs,
                             const gateau_arena_stats *stats, const gateau_arena_run_facts *run,
                             const gateau_arena_game *games, const char *title);
/* The plot's title, as "piece o' Cake, 3 players, 60 games". */
void cli_arena_title(const char *game_title, int players, long games, bool interrupted,
                     char *title, size_t size);
/* A part file's whole text, NUL-terminated (malloc'd), or NULL after
 * printing "COMMAND: cannot read PATH: why". */
char *cli_read_part(const char *command, const char *path, size_t *length);

/* Draws an arena's results (src/cli/plot.c) as PNG or SVG by path's
 * extension: 0, or -1 with a one-line reason. */
int cli_plot(const char *path, const char *title, const gateau_arena_stats *stats,
             const gateau_arena_game *games, long count, char *error, size_t error_size);

#endif
