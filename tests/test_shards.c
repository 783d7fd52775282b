/*
 * test_shards.c: an arena run on shards (docs/cluster.md): `gateau arena
 * --shard I/N --part FILE` plays one shard's games into a part file,
 * `gateau arena-merge` makes the whole run's report from the parts, and
 * it must be the single run's, byte for byte, for every game; also when a
 * shard is killed (SIGKILL) in the middle and run again, which must then
 * play only the games its part file lacks.  And the part files' format:
 * read back as written, a line cut short dropped, bad lines refused with
 * their number.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gateau/arena.h"
#include "support.h"

#include <criterion/parameterized.h>

TestSuite(shards, .init = support_temp_setup, .fini = support_temp_teardown, .timeout = 600);

/* Game lines in a part file's text (the lines after the columns line). */
static int game_lines(const char *text)
{
    const char *columns = strstr(text, "columns ");
    if (!columns) return 0;
    return support_count_of(strchr(columns, '\n') + 1, "\n");
}

/* The runs each test compares: a game, its players, seats, games. */
typedef struct run_case {
    const char *game;
    int players;
    const char *seats;
    long games;
} run_case;

/* Small but searched: every game, bots of every speed; a game of the
 * searching bot takes some tens of milliseconds, so that a shard on one
 * thread can be killed in the middle of its games. */
static const run_case every_game[] = {
    {"piece-o-cake", 3, "ismcts:iters=1000,heuristic,random", 24},
    {"maries-table", 3, "ismcts:iters=1500,heuristic,random", 24},
    {"mice-cake", 2, "ismcts:iters=3000,heuristic", 24},
    {"cake-master", 3, "ismcts:iters=60,heuristic,random", 24},
};

static char *run_arguments(const run_case *c, char *out, size_t size)
{
    snprintf(out, size, "arena %s --players %d --seats %s --games %ld --seed 11 --threads 2",
             c->game, c->players, c->seats, c->games);
    return out;
}

/* Starts `gateau ARGS` (a shell string) in the background; its pid. */
static pid_t start(const char *arguments)
{
    const char *binary = getenv("GATEAU_BINARY");
    cr_assert_not_null(binary);
    char command[4096];
    snprintf(command, sizeof command, "exec %s %s > /dev/null 2>&1", binary, arguments);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", command, (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* The games of a part file so far (0 while it does not exist). */
static int games_in(const char *path)
{
    if (!support_file_exists(path)) return 0;
    char *text = support_read_file(path);
    int count = game_lines(text);
    free(text);
    return count;
}

/* Kills shard 2/3 with SIGKILL once its part file holds some games, then
 * runs it again to its end; the part must then hold every game once. */
static void kill_and_resume(const char *arguments, const char *part, long shard_games)
{
    pid_t pid = start(arguments);
    struct timespec pause = {0, 1000000};
    int status = 0;
    bool ended = false;
    while (games_in(part) < 2) {
        if (waitpid(pid, &status, WNOHANG) == pid) {
            ended = true;
            break;
        }
        nanosleep(&pause, NULL);
    }
    if (!ended) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
    cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
              "the shard was killed, not ended (status %d)", status);
    int before = games_in(part);
    cr_assert(before >= 2 && before < shard_games,
              "killed in the middle: %d of %ld games in the part", before, shard_games);
    char *out = support_run_expect(0, "%s", arguments);
    char expected[128];
    snprintf(expected, sizeof expected, "%ld of %ld finished (%d from ", shard_games, shard_games,
             before);
    cr_expect(strstr(out, expected), "the games played before are not played again:\n%s", out);
    free(out);
    cr_expect_eq(games_in(part), shard_games, "every game of the shard, once");
}

/* Shards 1/3, 2/3 (killed and resumed) and 3/3 merged give the single run's
 * JSON and CSV, byte for byte, for every game (one test per game, so that
 * --jobs runs them side by side: under the sanitizers they were the last
 * minute of the run, on one core). */
ParameterizedTestParameters(shards, merged_shards_are_the_single_run_for_every_game)
{
    /* (indices into every_game: a parameter is copied as bytes, pointers
     * and all, into the worker) */
    static int games[] = {0, 1, 2, 3};
    _Static_assert(sizeof games / sizeof games[0] == sizeof every_game / sizeof every_game[0],
                   "a test per game of every_game");
    return cr_make_param_array(int, games, sizeof games / sizeof games[0]);
}

ParameterizedTest(int *index, shards, merged_shards_are_the_single_run_for_every_game)
{
    const run_case *c = &every_game[*index];
    char run[512];
    run_arguments(c, run, sizeof run);
    char single_json[256], single_csv[256], merged_json[256], merged_csv[256];
    snprintf(single_json, sizeof single_json, "%s", support_temp_path("single.json"));
    snprintf(single_csv, sizeof single_csv, "%s", support_temp_path("single.csv"));
    snprintf(merged_json, sizeof merged_json, "%s", support_temp_path("merged.json"));
    snprintf(merged_csv, sizeof merged_csv, "%s", support_temp_path("merged.csv"));
    free(support_run_expect(0, "%s --json %s --csv %s", run, single_json, single_csv));

    char parts[3][256];
    for (int s = 1; s <= 3; s++) {
        char name[64];
        snprintf(name, sizeof name, "%s-%d.part", c->game, s);
        snprintf(parts[s - 1], sizeof parts[0], "%s", support_temp_path(name));
    }
    char shard[2048];
    for (int s = 1; s <= 3; s += 2) {
        snprintf(shard, sizeof shard, "%s --shard %d/3 --part %s", run, s, parts[s - 1]);
        free(support_run_expect(0, "%s", shard));
    }
    snprintf(shard, sizeof shard, "%s --shard 2/3 --part %s --threads 1", run, parts[1]);
    long first, count;
    gateau_arena_shard_range(c->games, 2, 3, &first, &count);
    kill_and_resume(shard, parts[1], count);

    /* In any order of the parts. */
    free(support_run_expect(0, "arena-merge %s %s %s --json %s --csv %s", parts[2], parts[0],
                            parts[1], merged_json, merged_csv));
    char *single = support_read_file(single_json), *merged = support_read_file(merged_json);
    cr_expect_str_eq(merged, single, "%s: the merged JSON is the single run's", c->game);
    free(single), free(merged);
    single = support_read_file(single_csv), merged = support_read_file(merged_csv);
    cr_expect_str_eq(merged, single, "%s: the merged CSV is the single run's", c->game);
    free(single), free(merged);
}

/* A part file's last line cut short (a kill in the middle of a write) is
 * dropped and its game played again; the merge is still the single run,
 * its plot too. */
Test(shards, a_line_cut_short_is_played_again)
{
    const char *run = "arena piece-o-cake --players 2 --seats heuristic,random --games 20 "
                      "--seed 4 --threads 2";
    const char *single = support_temp_path("single.json"), *merged = support_temp_path("merged.json");
    const char *one = support_temp_path("one.part"), *two = support_temp_path("two.part");
    const char *single_plot = support_temp_path("single.svg"),
               *merged_plot = support_temp_path("merged.svg");
    free(support_run_expect(0, "%s --json %s --plot %s", run, single, single_plot));
    free(support_run_expect(0, "%s --shard 1/2 --part %s", run, one));
    free(support_run_expect(0, "%s --shard 2/2 --part %s", run, two));
    /* Cut the last line of part two in its middle, and drop two more games. */
    char *text = support_read_file(two);
    size_t length = strlen(text);
    char *last = text + length - 1;
    for (int lines = 0; lines < 3; lines++) {
        *last = '\0';
        last = strrchr(text, '\n');
    }
    last[1 + strcspn(last + 1, " ") + 2] = '\0'; /* the game number and part of a score */
    support_write_file(two, text);
    free(text);
    char *out = support_run_expect(1, "arena-merge %s %s --json %s", one, two, merged);
    cr_expect(strstr(out, "3 of the 20 games are missing"), "%s", out);
    free(out);
    out = support_run_expect(0, "%s --shard 2/2 --part %s", run, two);
    cr_expect(strstr(out, "cut short"), "%s", out);
    cr_expect(strstr(out, "10 of 10 finished (7 from "), "%s", out);
    free(out);
    free(support_run_expect(0, "arena-merge %s %s --json %s --plot %s", one, two, merged,
                            merged_plot));
    char *a = support_read_file(single), *b = support_read_file(merged);
    cr_expect_str_eq(b, a);
    free(a), free(b);
    a = support_read_file(single_plot), b = support_read_file(merged_plot);
    cr_expect_str_eq(b, a, "the plot is the single run's too");
    free(a), free(b);
}

/* Two processes never play into one part file: the second is refused. */
Test(shards, a_part_file_being_written_is_refused)
{
    const char *run = "arena piece-o-cake --players 2 --seats heuristic,random --games 12 "
                      "--seed 4 --threads 1 --shard 1/2";
    char part[256];
    snprintf(part, sizeof part, "%s", support_temp_path("held.part"));
    free(support_run_expect(0, "%s --part %s", run, part));
    int descriptor = open(part, O_RDWR);
    cr_assert_geq(descriptor, 0);
    cr_assert_eq(flock(descriptor, LOCK_EX | LOCK_NB), 0);
    char *out = support_run_expect(1, "%s --part %s", run, part);
    cr_expect(strstr(out, "is being written by another gateau arena"), "%s", out);
    free(out);
    close(descriptor);
    out = support_run_expect(0, "%s --part %s", run, part);
    cr_expect(strstr(out, "6 of 6 finished (6 from "), "%s", out);
    free(out);
}

/* The merge says what is wrong with the parts it is given, on one line. */
Test(shards, merge_refuses_parts_that_do_not_make_the_run)
{
    const char *run = "arena piece-o-cake --players 2 --seats heuristic,random --games 12 "
                      "--seed 4 --threads 1";
    char one[256], two[256], other[256], bad[256];
    snprintf(one, sizeof one, "%s", support_temp_path("one.part"));
    snprintf(two, sizeof two, "%s", support_temp_path("two.part"));
    snprintf(other, sizeof other, "%s", support_temp_path("other.part"));
    snprintf(bad, sizeof bad, "%s", support_temp_path("bad.part"));
    free(support_run_expect(0, "%s --shard 1/2 --part %s", run, one));
    free(support_run_expect(0, "%s --shard 2/2 --part %s", run, two));
    free(support_run_expect(0, "arena piece-o-cake --players 2 --seats heuristic,random --games 12 "
                               "--seed 5 --threads 1 --shard 2/2 --part %s", other));
    char *text = support_read_file(two);
    char *line = strstr(text, "actions\n");
    cr_assert_not_null(line, "%s", text);
    line[strlen("actions\n")] = 'x'; /* the first game's line, line 11 */
    support_write_file(bad, text);
    free(text);
    struct {
        char arguments[1024];
        const char *fragment;
    } cases[5];
    snprintf(cases[0].arguments, sizeof cases[0].arguments, "arena-merge %s", one);
    cases[0].fragment = "6 of the 12 games are missing: 7-12";
    snprintf(cases[1].arguments, sizeof cases[1].arguments, "arena-merge %s %s %s", one, two, two);
    cases[1].fragment = "game 7 is also in";
    snprintf(cases[2].arguments, sizeof cases[2].arguments, "arena-merge %s %s", one, other);
    cases[2].fragment = "another run than";
    snprintf(cases[3].arguments, sizeof cases[3].arguments, "arena-merge %s %s", one, bad);
    cases[3].fragment = "line 11: expected 'GAME SCORES";
    snprintf(cases[4].arguments, sizeof cases[4].arguments, "arena-merge %s /nonexistent/x.part",
             one);
    cases[4].fragment = "cannot read /nonexistent/x.part";
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        support_expect_error(cases[i].arguments, 1, cases[i].fragment);
    /* --partial: the games from game 1 on without a gap, as an interrupted
     * single run of them reports. */
    const char *partial = support_temp_path("partial.json");
    free(support_run_expect(0, "arena-merge %s --partial --json %s", one, partial));
    char *report = support_read_file(partial);
    cr_expect(strstr(report, "\"games\": 6,") && strstr(report, "\"interrupted\": true"), "%s",
              report);
    free(report);
    /* A shard run again on another run's part file refuses it. */
    char *out = support_run_expect(1, "%s --shard 2/2 --part %s", run, other);
    cr_expect(strstr(out, "another run") && strstr(out, "'seed 5' where this run has 'seed 4'"),
              "%s", out);
    free(out);
}

Test(shards, command_errors)
{
    struct {
        const char *arguments;
        int status;
        const char *fragment;
    } cases[] = {
        {"arena piece-o-cake --players 2 --seats random,random --games 5 --seed 1 --shard 1/2",
         2, "--shard needs --part"},
        {"arena piece-o-cake --players 2 --seats random,random --games 5 --seed 1 --shard 3/2 "
         "--part p", 2, "--shard's I"},
        {"arena piece-o-cake --players 2 --seats random,random --games 5 --seed 1 --shard 1/6 "
         "--part p", 2, "--shard's N"},
        {"arena piece-o-cake --players 2 --seats random,random --games 5 --seed 1 --shard 2 "
         "--part p", 2, "I/N"},
        {"arena piece-o-cake --players 2 --seats random,random --games 5 --shard 1/2 --part p",
         2, "--seed"},
        {"arena piece-o-cake --players 2 --seats random,random --games 5 --seed 1 --shard 1/2 "
         "--part p --json x.json", 2, "arena-merge"},
        {"arena piece-o-cake --players 2 --seats random,random --games 5 --seed 1 --shard 1/2 "
         "--part /nonexistent/dir/p", 1, "cannot write"},
        {"arena-merge", 2, "usage"},
        {"arena-merge a.part --bogus", 2, "unknown option"},
        {"arena-merge a.part --json", 2, "needs a value"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        support_expect_error(cases[i].arguments, cases[i].status, cases[i].fragment);
}

/* ---- the library ---------------------------------------------------------------------- */

Test(shards, shard_ranges_cover_every_game_once)
{
    for (long games = 1; games <= 40; games++)
        for (int shards = 1; shards <= games && shards <= 12; shards++) {
            long next = 0, smallest = games, largest = 0;
            for (int shard = 1; shard <= shards; shard++) {
                long first, count;
                gateau_arena_shard_range(games, shard, shards, &first, &count);
                cr_assert_eq(first, next, "%ld games, shard %d/%d", games, shard, shards);
                next = first + count;
                if (count < smallest) smallest = count;
                if (count > largest) largest = count;
            }
            cr_assert_eq(next, games);
            cr_assert_leq(largest - smallest, 1);
        }
}

static const char *const header_text =
    "gateau arena part 1\n"
    "game piece-o-cake\n"
    "players 3\n"
    "options\n"
    "bot 1 random\n"
    "bot 2 heuristic\n"
    "bot 3 ismcts:iters=20\n"
    "seed 18446744073709551615\n"
    "games 10\n"
    "shard 2/3\n"
    "columns game scores winners moves actions\n";

Test(shards, part_lines_read_back_as_written)
{
    gateau_arena_part_header header = {.game = "piece-o-cake", .players = 3, .options = "",
                                       .bots = {"random", "heuristic", "ismcts:iters=20"},
                                       .seed = UINT64_MAX, .games = 10, .shard = 2, .shards = 3};
    char error[256];
    char *written = gateau_arena_part_header_text(&header, error, sizeof error);
    cr_assert_not_null(written, "%s", error);
    cr_assert_str_eq(written, header_text);
    gateau_arena_game games[3] = {
        {.scores = {33, -2, 39}, .winners = 4, .moves = 21, .actions = 40},
        {.scores = {0, 0, 0}, .winners = 7, .moves = 1, .actions = 0},
        {.scores = {2147483647, -2147483647 - 1, 5}, .winners = 0, .moves = 5, .actions = 9},
    };
    long numbers[3] = {5, 4, 6}; /* 0-based, as they finish; shard 2/3 of 10: 4 to 6 */
    size_t length = strlen(written);
    char *text = malloc(length + 3 * GATEAU_ARENA_PART_LINE_SIZE);
    memcpy(text, written, length);
    for (int i = 0; i < 3; i++)
        length += (size_t)gateau_arena_part_line(numbers[i], &games[i], 3, text + length);
    text[length] = '\0';
    cr_expect(strstr(text, "\n6 33,-2,39 3 21 40\n5 0,0,0 1,2,3 1 0\n"
                           "7 2147483647,-2147483648,5 - 5 9\n"), "%s", text);
    gateau_arena_part part;
    int line;
    cr_assert(gateau_arena_part_read(text, length, &part, error, sizeof error, &line), "line %d: %s",
              line, error);
    cr_expect_eq(part.count, 3);
    cr_expect(!part.torn);
    cr_expect_eq(part.complete_length, length);
    cr_expect_eq(part.header.seed, UINT64_MAX);
    for (int i = 0; i < 3; i++) {
        const gateau_arena_part_game *game = &part.games[i];
        cr_expect_eq(game->game, numbers[i]);
        cr_expect_eq(game->line, 12 + i);
        cr_expect(game->result.done);
        cr_expect_eq(game->result.winners, games[i].winners);
        cr_expect_eq(game->result.moves, games[i].moves);
        cr_expect_eq(game->result.actions, games[i].actions);
        for (int s = 0; s < 3; s++) {
            cr_expect_eq(game->result.scores[s], games[i].scores[s]);
            cr_expect_eq(game->result.bot_at_seat[gateau_arena_seat_of(s, numbers[i], 3)], s);
        }
    }
    gateau_arena_part_free(&part);
    /* Cut short: the last line is not read. */
    cr_assert(gateau_arena_part_read(text, length - 3, &part, error, sizeof error, &line));
    cr_expect_eq(part.count, 2);
    cr_expect(part.torn);
    cr_expect_eq(part.complete_length, length - strlen("7 2147483647,-2147483648,5 - 5 9\n"));
    gateau_arena_part_free(&part);
    free(text);
    free(written);
}

Test(shards, bad_part_files_are_refused_at_their_line)
{
    struct {
        const char *games; /* after header_text */
        int line;
        const char *fragment;
    } cases[] = {
        {"4 1,2,3 1 4 5\n", 12, "not in shard 2/3 (games 5 to 7)"},
        {"8 1,2,3 1 4 5\n", 12, "not in shard 2/3"},
        {"6 1,2 1 4 5\n", 12, "3 scores"},
        {"6 1,2,3,4 1 4 5\n", 12, "3 scores"},
        {"6 1,02,3 1 4 5\n", 12, "3 scores"},
        {"6 1,-0,3 1 4 5\n", 12, "3 scores"},
        {"6 1,2,3 4 4 5\n", 12, "winners"},
        {"6 1,2,3 2,1 4 5\n", 12, "winners"},
        {"6 1,2,3 1 4\n", 12, "moves and the actions"},
        {"6 1,2,3 1 4 5 \n", 12, "moves and the actions"},
        {"6 1,2,3 1 4 -5\n", 12, "moves and the actions"},
        {"6 1,2,3 1 4 5\n7 1,2,3 1 4 5\n6 3,2,1 2 4 5\n", 14, "game 6 twice (lines 12 and 14)"},
        {"06 1,2,3 1 4 5\n", 12, "GAME SCORES"},
        {"\n", 12, "GAME SCORES"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text, "%s%s", header_text, cases[i].games);
        gateau_arena_part part;
        char error[256] = "";
        int line = -1;
        cr_expect(!gateau_arena_part_read(text, strlen(text), &part, error, sizeof error, &line),
                  "%s", cases[i].games);
        cr_expect_eq(line, cases[i].line, "%s: line %d (%s)", cases[i].games, line, error);
        cr_expect(strstr(error, cases[i].fragment), "%s: '%s' expected in '%s'", cases[i].games,
                  cases[i].fragment, error);
        cr_expect(!strchr(error, '\n'));
    }
    /* Header lines, each spoiled in turn. */
    struct {
        const char *from, *to;
        int line;
    } spoiled[] = {
        {"gateau arena part 1", "gateau arena part 2", 1},
        {"game piece-o-cake", "game piece o cake", 2},
        {"players 3", "players 03", 3},
        {"players 3", "players 7", 3},
        {"options\n", "option\n", 4},
        {"bot 2 heuristic", "bot 3 heuristic", 6},
        {"seed 18446744073709551615", "seed 18446744073709551616", 8},
        {"games 10", "games 0", 9},
        {"shard 2/3", "shard 4/3", 10},
        {"shard 2/3", "shard 2/11", 10},
        {"shard 2/3", "shard 2-3", 10},
        {"columns game", "columns games", 11},
    };
    for (size_t i = 0; i < sizeof spoiled / sizeof spoiled[0]; i++) {
        char text[1024];
        const char *at = strstr(header_text, spoiled[i].from);
        cr_assert_not_null(at);
        snprintf(text, sizeof text, "%.*s%s%s", (int)(at - header_text), header_text,
                 spoiled[i].to, at + strlen(spoiled[i].from));
        gateau_arena_part part;
        char error[256] = "";
        int line = -1;
        cr_expect(!gateau_arena_part_read(text, strlen(text), &part, error, sizeof error, &line),
                  "%s", spoiled[i].to);
        cr_expect_eq(line, spoiled[i].line, "%s: line %d (%s)", spoiled[i].to, line, error);
        cr_expect(error[0] && !strchr(error, '\n'), "%s", error);
    }
    /* A header cut short is refused (only a game line may be cut short). */
    gateau_arena_part part;
    char error[256];
    int line;
    cr_expect(!gateau_arena_part_read(header_text, 30, &part, error, sizeof error, &line));
    cr_expect(!gateau_arena_part_read("gateau arena part 1\0\n", 21, &part, error, sizeof error,
                                      &line));
    cr_expect(strstr(error, "NUL"), "%s", error);
}

/* on_game: notes which games it was given, and checks they come one at a
 * time. */
typedef struct handed {
    int calls[64];
    int inside;
    bool overlapped;
} handed;

static bool note_game(long game, const gateau_arena_game *result, void *context, char *error,
                      size_t error_size)
{
    (void)result, (void)error, (void)error_size;
    handed *seen = context;
    if (__atomic_add_fetch(&seen->inside, 1, __ATOMIC_SEQ_CST) > 1) seen->overlapped = true;
    seen->calls[game]++;
    __atomic_sub_fetch(&seen->inside, 1, __ATOMIC_SEQ_CST);
    return true;
}

/* A shard plays exactly its block of the whole run's games, the same
 * games; games given as played before are kept and not played again. */
Test(shards, a_shard_plays_its_block_of_the_run)
{
    gateau_setup *setup = support_setup("piece-o-cake", 3, NULL);
    const char *bots[3] = {"heuristic", "random", "random"};
    char error[512] = "";
    gateau_arena_config config = {.setup = setup, .bots = bots, .games = 50, .threads = 2,
                                  .seed = 21};
    gateau_arena *whole = gateau_arena_new(&config, error, sizeof error);
    cr_assert_not_null(whole, "%s", error);
    cr_assert(gateau_arena_run(whole, error, sizeof error), "%s", error);
    const gateau_arena_game *all = gateau_arena_games(whole);

    handed seen = {0};
    config.shard = 3, config.shards = 4;
    config.on_game = note_game, config.on_game_context = &seen;
    gateau_arena *shard = gateau_arena_new(&config, error, sizeof error);
    cr_assert_not_null(shard, "%s", error);
    /* 50 = 12 * 4 + 2: shards 1 and 2 have 13 games, 3 and 4 have 12. */
    cr_assert_eq(gateau_arena_first_game(shard), 26);
    cr_assert_eq(gateau_arena_game_count(shard), 12);
    gateau_arena_game before = all[30];
    before.done = false;
    cr_assert(gateau_arena_resume_game(shard, 30, &before, error, sizeof error), "%s", error);
    cr_expect(!gateau_arena_resume_game(shard, 30, &before, error, sizeof error));
    cr_expect(strstr(error, "twice"), "%s", error);
    cr_expect(!gateau_arena_resume_game(shard, 25, &before, error, sizeof error));
    cr_expect(strstr(error, "27 to 38"), "%s", error);
    cr_assert(gateau_arena_run(shard, error, sizeof error), "%s", error);
    cr_expect_eq(gateau_arena_finished(shard), 12);
    cr_expect(!gateau_arena_interrupted(shard));
    cr_expect(!seen.overlapped, "on_game calls one at a time");
    const gateau_arena_game *own = gateau_arena_games(shard);
    for (long g = 0; g < 50; g++) {
        bool in_shard = g >= 26 && g < 38;
        cr_expect_eq(seen.calls[g], in_shard && g != 30 ? 1 : 0, "game %ld handed over %d times",
                     g, seen.calls[g]);
        if (!in_shard) continue;
        const gateau_arena_game *a = &all[g], *b = &own[g - 26];
        cr_expect(b->done);
        cr_expect_eq(a->winners, b->winners, "game %ld", g);
        cr_expect_eq(a->moves, b->moves, "game %ld", g);
        cr_expect_eq(a->actions, b->actions, "game %ld", g);
        for (int s = 0; s < 3; s++) {
            cr_expect_eq(a->scores[s], b->scores[s], "game %ld seat %d", g, s + 1);
            cr_expect_eq(a->bot_at_seat[s], b->bot_at_seat[s], "game %ld seat %d", g, s + 1);
        }
    }
    /* The report from the game's name and options as text is the one from
     * the setup. */
    gateau_arena_stats stats;
    gateau_arena_statistics(all, 50, 3, bots, &stats);
    gateau_arena_run_facts from_setup = {.setup = setup, .bots = bots, .seed = 21,
                                         .games_requested = 50};
    gateau_arena_run_facts from_text = {.game_name = "piece-o-cake", .options_text = "",
                                        .bots = bots, .seed = 21, .games_requested = 50};
    char *a = gateau_arena_report_json(&stats, &from_setup), *b = gateau_arena_report_json(&stats, &from_text);
    cr_expect_str_eq(a, b);
    free(a), free(b);
    gateau_arena_free(shard);
    gateau_arena_free(whole);
    config.shards = 51;
    cr_expect_null(gateau_arena_new(&config, error, sizeof error));
    cr_expect(strstr(error, "shards must be 1 to the 50 games"), "%s", error);
    config.shards = 4, config.shard = 5;
    cr_expect_null(gateau_arena_new(&config, error, sizeof error));
    cr_expect(strstr(error, "the shard must be 1 to 4"), "%s", error);
    gateau_setup_free(setup);
}

/* A part names its deck by content (its SHA-256): shards of one path but
 * two decks are two runs, refused with both hashes; the same deck at two
 * paths is one run. */
Test(shards, parts_carry_their_decks_hash)
{
    const char *source = getenv("GATEAU_SOURCE_DIR");
    cr_assert_not_null(source);
    char small[512];
    snprintf(small, sizeof small, "%s/tests/data/cake-master-small.deck", source);
    char *deck = support_read_file(small);
    const char *path = support_temp_path("the.deck"), *copy = support_temp_path("copy.deck");
    support_write_file(path, deck);
    support_write_file(copy, deck);
    char run[1024], one[256], two[256], moved[256], changed[256];
    snprintf(run, sizeof run, "arena cake-master --players 2 --seats random,random --games 4 "
             "--seed 3 --threads 1 --deck %s", path);
    snprintf(one, sizeof one, "%s", support_temp_path("one.part"));
    snprintf(two, sizeof two, "%s", support_temp_path("two.part"));
    snprintf(moved, sizeof moved, "%s", support_temp_path("moved.part"));
    snprintf(changed, sizeof changed, "%s", support_temp_path("changed.part"));
    free(support_run_expect(0, "%s --shard 1/2 --part %s", run, one));
    free(support_run_expect(0, "arena cake-master --players 2 --seats random,random --games 4 "
                               "--seed 3 --threads 1 --deck %s --shard 2/2 --part %s", copy, moved));
    /* The same path, another deck (a line of it changed). */
    char *other = strdup(deck);
    char *second = strstr(other, "card W0*\ncard W0*");
    cr_assert_not_null(second);
    memcpy(second + strlen("card W0*\ncard "), "W1*", 3);
    support_write_file(path, other);
    free(support_run_expect(0, "%s --shard 2/2 --part %s", run, changed));

    char *text = support_read_file(one), *text_changed = support_read_file(changed);
    char *line = strstr(text, "\ndeck "), *line_changed = strstr(text_changed, "\ndeck ");
    cr_assert(line && line_changed, "a deck line: %s", text);
    char hash[65], hash_changed[65];
    snprintf(hash, sizeof hash, "%.64s", line + 6);
    snprintf(hash_changed, sizeof hash_changed, "%.64s", line_changed + 6);
    cr_assert_str_neq(hash, hash_changed);
    free(text);
    free(text_changed);

    char arguments[2048];
    snprintf(arguments, sizeof arguments, "arena-merge %s %s", one, changed);
    char expected[200];
    snprintf(expected, sizeof expected, "(deck %s, not %s)", hash_changed, hash);
    support_expect_error(arguments, 1, expected);
    free(support_run_expect(0, "arena-merge %s %s", one, moved));
    /* A resumed shard whose deck changed under it refuses its part. */
    char *out = support_run_expect(1, "%s --shard 1/2 --part %s", run, one);
    cr_assert(strstr(out, "another run") && strstr(out, hash_changed), "%s", out);
    free(out);
    free(other);
    free(deck);
}
