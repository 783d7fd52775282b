/*
 * arena.h: tournaments between bots, and the statistics of their results.
 *
 * An arena plays G games of one setup between bots named by specs (as
 * gateau_bot_new takes them), on as many threads as asked, and keeps one
 * result per game.  The results do not depend on the thread count:
 *
 * - Seats rotate: in game g (0-based) the bot listed k-th (0-based) sits at
 *   seat (k + g) mod N (gateau_arena_seat_of).  Game 0 uses the listed
 *   order, each next game moves every bot one seat on, so over any multiple
 *   of N games every listed bot sits at every seat equally often.
 * - Chance in game g draws from gateau_rng_seed_stream(seed, 8g) and the
 *   bot at seat s from gateau_rng_seed_stream(seed, 8g + 1 + s); every bot
 *   is made anew for each game.  So game g is the same game whichever
 *   thread plays it and whatever was played before it on that thread, and
 *   game g deals the same way for any line-up of bots (common random
 *   numbers make bot comparisons sharper).
 * - Results go into a preallocated per-game array, in game order.
 *
 * gateau_arena_stop() (safe in a signal handler) makes the workers stop
 * taking games and abandon the games in progress; the run then reports the
 * longest run of finished games from game 0 on, so an interrupted arena is
 * a prefix of the full one.
 *
 * Shards (docs/cluster.md): an arena may play only shard I of N of a run,
 * a contiguous block of its games (gateau_arena_shard_range), skip games
 * played before (gateau_arena_resume_game), and hand every finished game
 * to a callback (on_game) that appends it to a part file
 * (gateau_arena_part_line).  Merging the parts' per-game results and
 * computing the statistics over them in game order gives the single run's
 * report, byte for byte.
 */
#ifndef GATEAU_ARENA_H
#define GATEAU_ARENA_H

#include "gateau/api.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gateau/gateau.h"

#define GATEAU_ARENA_MAX_THREADS 256

/* ---- Running games ---------------------------------------------------------- */

/* The result of one game. */
typedef struct gateau_arena_game {
    bool done;                              /* finished (and part of the results) */
    int8_t bot_at_seat[GATEAU_MAX_PLAYERS]; /* k: the k-th listed bot (0-based) sat there */
    int scores[GATEAU_MAX_PLAYERS];         /* by seat */
    uint32_t winners;                       /* bit s: seat s won; several bits: a shared win */
    int moves;   /* record lines, chance moves (the deal) included, as gateau replay counts */
    int actions; /* single actions, chance included */
    /* By seat, for ext: bots (0 for the others; at most 65535): the
     * program's failures in the game (each logged), and the moves the
     * fallback made instead of it (gateau_bot_failures). */
    uint16_t failures[GATEAU_MAX_PLAYERS];
    uint16_t fallbacks[GATEAU_MAX_PLAYERS];
    char *record; /* the record text when keep_records was asked for, else NULL */
} gateau_arena_game;

/* Called on the thread that runs the arena, about ten times a second:
 * finished of the total games this run plays (games given by
 * gateau_arena_resume_game are not counted in either). */
typedef void (*gateau_arena_progress_fn)(long finished, long total, double seconds,
                                         void *context);

/* Called as each game finishes, with its 0-based number and result, on the
 * worker thread that played it; the arena makes the calls one at a time
 * (under a lock), in the order games finish.  Returning false (with a
 * one-line reason in error) fails the arena as a failed game does. */
typedef bool (*gateau_arena_game_fn)(long game, const gateau_arena_game *result,
                                     void *context, char *error, size_t error_size);

typedef struct gateau_arena_config {
    const gateau_setup *setup; /* must outlive the arena */
    const char *const *bots;   /* one spec per player, in listed order (copied) */
    long games;                /* how many, > 0 */
    int threads;               /* 1 .. GATEAU_ARENA_MAX_THREADS */
    uint64_t seed;
    bool keep_records;         /* fill gateau_arena_game.record */
    /* When set, every finished game is written there as game-000001.txt
     * (game 0), game-000002.txt ...; an existing folder. */
    const char *record_dir;
    gateau_arena_progress_fn progress; /* may be NULL */
    void *progress_context;
    /* Shard `shard` (1-based) of `shards`: play only the games
     * gateau_arena_shard_range gives it.  shards 0: the whole run (and
     * shard is ignored); else 1 <= shard <= shards <= games. */
    int shard, shards;
    gateau_arena_game_fn on_game; /* may be NULL */
    void *on_game_context;
} gateau_arena_config;

typedef struct gateau_arena gateau_arena;

/* Checks the configuration (player count, bot specs, games, threads) and
 * allocates the per-game results.  NULL with a one-line reason. */
GATEAU_API gateau_arena *gateau_arena_new(const gateau_arena_config *config, char *error,
                               size_t error_size);
GATEAU_API void gateau_arena_free(gateau_arena *arena);

/* Plays the games (once per arena); blocks until they are done or
 * stopped.  false with a one-line reason when a game could not be played
 * (an ext: seat that forfeits, "game 3, move 12: seat 2 (ext:...)
 * forfeits: ...", or whose program cannot start; a record file that
 * cannot be written): the other games stop, and those finished before
 * it are still reported (gateau_arena_finished). */
GATEAU_API bool gateau_arena_run(gateau_arena *arena, char *error, size_t error_size);

/* Asks a running arena to stop.  Async-signal-safe (one lock-free atomic
 * store): meant for a SIGINT handler. */
GATEAU_API void gateau_arena_stop(gateau_arena *arena);
/* True when the run ended before all games because of gateau_arena_stop. */
GATEAU_API bool gateau_arena_interrupted(const gateau_arena *arena);

/*
 * Before gateau_arena_run: takes the result of game (0-based, one of the
 * arena's games) as played before, by an earlier run of the same shard
 * that was stopped; the run keeps it and does not play it again.  false
 * with a one-line reason when game is not one of the arena's, was given
 * already, or the arena has run.  result->bot_at_seat is set from the
 * rotation; result->record is not taken.
 */
GATEAU_API bool gateau_arena_resume_game(gateau_arena *arena, long game,
                                         const gateau_arena_game *result, char *error,
                                         size_t error_size);

/* The games of shard (1-based) of shards in a run of games: *first (0-based)
 * and *count.  Contiguous blocks in game order whose sizes differ by at
 * most one (the first games % shards shards have one more), so any set of
 * shards of the same N covers each game exactly once. */
GATEAU_API void gateau_arena_shard_range(long games, int shard, int shards, long *first,
                                         long *count);

/*
 * The results.  gateau_arena_games() holds the arena's own games in game
 * order: all of the run's (first game 0), or its shard's (first game
 * gateau_arena_first_game(), gateau_arena_game_count() of them).
 * A whole run that was neither a shard nor resumed keeps a prefix: games
 * 0 .. gateau_arena_finished()-1 are all done.  A shard or a resumed run
 * keeps every game that finished (its part file has them all), wherever
 * the gaps are: gateau_arena_finished() counts them, and done marks them.
 */
GATEAU_API long gateau_arena_finished(const gateau_arena *arena);
GATEAU_API const gateau_arena_game *gateau_arena_games(const gateau_arena *arena);
GATEAU_API long gateau_arena_first_game(const gateau_arena *arena);
GATEAU_API long gateau_arena_game_count(const gateau_arena *arena);
GATEAU_API double gateau_arena_seconds(const gateau_arena *arena); /* wall time of the run */

/* The seat of the listed-th bot (0-based) in game (0-based). */
GATEAU_API int gateau_arena_seat_of(int listed, long game, int players);

/* ---- Statistics ---------------------------------------------------------------- */

/* The z of a two-sided 95% interval. */
#define GATEAU_Z95 1.959963984540054

typedef struct gateau_interval {
    double low, high;
} gateau_interval;

/* Wilson's score interval for a proportion: successes (may be fractional,
 * as with shared wins) out of trials.  [0, 1] when trials is 0. */
GATEAU_API gateau_interval gateau_wilson_interval(double successes, double trials, double z);
/* The normal interval on a mean: mean +- z sd / sqrt(n). */
GATEAU_API gateau_interval gateau_normal_interval(double mean, double sd, long n, double z);

/* Sample mean and standard deviation (n - 1 in the denominator; 0 when
 * n < 2) of n values. */
GATEAU_API void gateau_mean_sd(const double *values, long n, double *mean, double *sd);

/*
 * Bradley-Terry strengths from a pairwise table, by Hunter's MM iterations
 * (Hunter 2004, "MM algorithms for generalized Bradley-Terry models"):
 * wins[i * count + j] is how often i beat j (ties counted half to each).
 * prior adds that many virtual drawn games to every pair (so a player
 * who never won still gets a finite strength; 0 for the plain maximum
 * likelihood).  strength receives count values with geometric mean 1.
 * Returns the iterations used, or -1 if they did not converge (then
 * strength holds the last iterate).
 */
GATEAU_API int gateau_bradley_terry(int count, const double *wins, double prior, double *strength);

/* A bot: one distinct spec, however many listed seats carry it. */
typedef struct gateau_arena_bot_stats {
    const char *spec;  /* points into the specs given */
    int listed;        /* how many listed seats carry this spec */
    /* Win share: per game, the average over the bot's seats of each
     * seat's share of the win (1 for a sole winner, 1/k when k seats share
     * it, else 0); then the mean over games.  Equal bots get 1/N. */
    double win_share;
    gateau_interval win_interval; /* Wilson, 95%, over the games */
    /* Scores over every seat the bot held (games x listed values). */
    double score_mean, score_sd;
    int score_min, score_max;
    /* Bradley-Terry, when the stats have ratings: strength (geometric mean
     * 1 over the bots) and the same on the Elo scale, 400 log10 strength
     * (mean 0). */
    double strength, rating;
    /* An ext: bot's failures and the moves its fallback made, summed over
     * its seats and the games (0 for the other bots). */
    long failures, fallbacks;
} gateau_arena_bot_stats;

typedef struct gateau_arena_seat_stats {
    double win_share; /* the seat's share of the wins over the games */
    gateau_interval win_interval; /* Wilson, 95% */
    double score_mean, score_sd;
    long failures, fallbacks; /* of the ext: bots that sat there */
} gateau_arena_seat_stats;

typedef struct gateau_arena_stats {
    long games;
    int players;
    int bot_count;                          /* distinct specs */
    int bot_of_listed[GATEAU_MAX_PLAYERS];  /* listed seat -> index in bots */
    gateau_arena_bot_stats bots[GATEAU_MAX_PLAYERS]; /* in order of first listing */
    gateau_arena_seat_stats seats[GATEAU_MAX_PLAYERS];
    double moves_mean, moves_sd;
    int moves_min, moves_max;
    /* Pairwise results between distinct bots: for every game and every two
     * seats held by different bots, the one placed higher (a winner over a
     * non-winner; between two non-winners the higher score) gets 1, a tie
     * (both winners, or equal scores) 1/2 each.  pairwise[i][j]: i over j. */
    double pairwise[GATEAU_MAX_PLAYERS][GATEAU_MAX_PLAYERS];
    /* How often i and j met: pairwise[i][j] + pairwise[j][i], which is the
     * games times i's listed seats times j's (0 on the diagonal). */
    long meetings[GATEAU_MAX_PLAYERS][GATEAU_MAX_PLAYERS];
    /* pairwise[i][j] / meetings[i][j]: the share of their meetings in which
     * i placed above j, ties counted half (0 when they never met); with
     * pairwise_share[j][i] it sums to 1. */
    double pairwise_share[GATEAU_MAX_PLAYERS][GATEAU_MAX_PLAYERS];
    /* Ratings, computed when there are three or more distinct bots:
     * Bradley-Terry on the pairwise table with one virtual draw per pair. */
    bool has_ratings;
    int rating_iterations; /* -1: did not converge */
    /* A listed spec is an ext: bot: the reports give the failures and
     * fallbacks (of those bots, and of every seat). */
    bool has_programs;
} gateau_arena_stats;

/*
 * The statistics of games[0 .. count-1] (all done) of an arena between
 * players bots listed as specs (specs[k] is the k-th listed bot; a game's
 * bot_at_seat indexes it).  Fed synthetic games, it is also how a
 * program (or a test) analyses results from elsewhere.
 */
GATEAU_API void gateau_arena_statistics(const gateau_arena_game *games, long count, int players,
                             const char *const *specs, gateau_arena_stats *stats);

/* ---- Reports ------------------------------------------------------------------------ */

/* The facts of a run that a report states beside the statistics. */
typedef struct gateau_arena_run_facts {
    /* The game and its options; or NULL, and then game_name and options
     * say them (a merge of part files, which needs no deck file). */
    const gateau_setup *setup;
    const char *game_name, *options_text;
    const char *const *bots;   /* the specs as listed, one per player */
    uint64_t seed;
    long games_requested;      /* the games asked for (the stats may cover fewer) */
    bool interrupted;          /* the run was stopped before all of them */
    /* Why a game could not be played and the run stopped there
     * (gateau_arena_run's reason), or NULL. */
    const char *failure;
} gateau_arena_run_facts;

/*
 * The JSON report of `gateau arena --json` (docs/arena.md, "Report
 * formats"): a malloc'd, NUL-terminated string, the object indented by two
 * spaces with its keys in a fixed order, ending in one newline; the caller
 * frees it.  Byte-identical for the same statistics and facts, whatever
 * the thread count.  run->bots must hold stats->players specs.
 */
GATEAU_API char *gateau_arena_report_json(const gateau_arena_stats *stats, const gateau_arena_run_facts *run);

/*
 * The CSV report of `gateau arena --csv` (docs/arena.md, "Report formats"):
 * a malloc'd, NUL-terminated string, the header line
 * "section,subject,statistic,value" then one number a line, every line
 * ending in a newline; the caller frees it.  Of the facts it uses only
 * run->interrupted.
 */
GATEAU_API char *gateau_arena_report_csv(const gateau_arena_stats *stats, const gateau_arena_run_facts *run);

/*
 * The same two reports straight from an arena that ran with config (the
 * configuration it was made from): the statistics of its finished games
 * (gateau_arena_statistics), config's setup, bots, seed and games, and
 * whether the run was interrupted.  Malloc'd strings, as above.
 */
GATEAU_API char *gateau_arena_json(const gateau_arena *arena, const gateau_arena_config *config);
GATEAU_API char *gateau_arena_csv(const gateau_arena *arena, const gateau_arena_config *config);

/* ---- Part files: a shard's per-game results (docs/cluster.md) ------------------------ */

/* What a part file's header says: the run, and which shard of it. */
typedef struct gateau_arena_part_header {
    char game[64];                            /* the game's name */
    int players;
    char options[1024];                       /* canonical options text, "" when none */
    char bots[GATEAU_MAX_PLAYERS][GATEAU_MAX_SPEC]; /* the specs as listed */
    uint64_t seed;
    long games;                               /* of the whole run */
    int shard, shards;                        /* 1-based shard of shards */
    /* The deck file the options name, by its content: its SHA-256 in
     * lower-case hex, "" when there is none.  A host sets it (the library
     * hashes nothing); two parts of one path but two decks are two runs. */
    char deck[65];
} gateau_arena_part_header;

/* One game of a part file. */
typedef struct gateau_arena_part_game {
    long game;                /* 0-based */
    gateau_arena_game result; /* done, bot_at_seat from the rotation, no record */
    int line;                 /* 1-based line of the file */
} gateau_arena_part_game;

typedef struct gateau_arena_part {
    gateau_arena_part_header header;
    long count;                    /* games, in file order */
    gateau_arena_part_game *games;
    /* Bytes of text up to the end of the last complete line: a last line
     * without its newline (cut short by a kill) is not read, and a resumed
     * shard truncates the file there before it appends. */
    size_t complete_length;
    bool torn; /* such a last line was dropped */
} gateau_arena_part;

/* The header's text: lines ending in newlines, the last one the columns
 * line after which games follow.  NULL with a one-line reason when the
 * header cannot be written (a spec or options text with a newline or
 * out of range).  Malloc'd. */
GATEAU_API char *gateau_arena_part_header_text(const gateau_arena_part_header *header,
                                               char *error, size_t error_size);

/* One game's line, newline included, into out (at least
 * GATEAU_ARENA_PART_LINE_SIZE bytes); returns its length. */
#define GATEAU_ARENA_PART_LINE_SIZE 256
GATEAU_API int gateau_arena_part_line(long game, const gateau_arena_game *result, int players,
                                      char *out);

/* Reads a part file's text (length bytes; NUL bytes are refused).  false
 * with a one-line reason and the 1-based line to blame (0 when none) when
 * it is not a part file: a header line missing or wrong, a game line that
 * does not read, a game outside the header's shard, a game twice.  part
 * is then empty; else free it with gateau_arena_part_free. */
GATEAU_API bool gateau_arena_part_read(const char *text, size_t length, gateau_arena_part *part,
                                       char *error, size_t error_size, int *line);
GATEAU_API void gateau_arena_part_free(gateau_arena_part *part);

/* The header of a part of the run an arena configuration describes. */
GATEAU_API bool gateau_arena_part_header_of(const gateau_arena_config *config,
                                            gateau_arena_part_header *header, char *error,
                                            size_t error_size);

#endif
