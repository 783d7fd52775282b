/*
 * test_protocol.c: the bot protocol (docs/protocol.md): ext:COMMAND seats,
 * `gateau engine`, the example bots.
 *
 * - every game played to the end between ext: seats (the Python and C
 *   examples, gateau engine) and built-in bots, none of them replaced;
 * - an arena through ext:gateau engine --bot heuristic gives the games an
 *   in-process arena gives;
 * - misbehaving programs (an illegal move, an error, a timeout, a crash, a
 *   flood) are logged and the heuristic moves instead, so the game is the
 *   one two built-in heuristics play; or the seat forfeits with
 *   onerror=forfeit; one that cannot start or shake hands stops the game
 *   (test_ext_failures.c has the commands' side of these);
 * - nothing is left behind: the program and what it started are gone;
 * - the engine answers bad lines with errors and goes on;
 * - gateau play with ext: seats.
 */
#define _DEFAULT_SOURCE /* usleep */
#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gateau/arena.h"
#include "gateau/match.h"
#include "support.h"

TestSuite(protocol, .init = support_temp_setup, .fini = support_temp_teardown, .timeout = 300);

/* ---- helpers ---------------------------------------------------------------- */

static const char *source_dir(void)
{
    const char *dir = getenv("GATEAU_SOURCE_DIR");
    cr_assert_not_null(dir, "GATEAU_SOURCE_DIR is set by ctest");
    return dir;
}

static const char *binary(void)
{
    const char *path = getenv("GATEAU_BINARY");
    cr_assert_not_null(path, "GATEAU_BINARY is set by ctest");
    return path;
}

/* The spec of an example or test program: "python", "c", "engine" (with
 * --bot heuristic), or a script of tests/data/protocol by name; settings
 * ("ms=300:log=FILE:") go before the command.  Static storage, 8 in
 * rotation. */
static const char *spec_of(const char *program, const char *settings)
{
    static char specs[8][1024];
    static int next;
    char *spec = specs[next++ % 8];
    char command[900];
    if (!strcmp(program, "python")) {
        snprintf(command, sizeof command, "/usr/bin/python3 '%s/examples/bots/random_bot.py'",
                 source_dir());
    } else if (!strcmp(program, "c")) {
        char copy[800];
        snprintf(copy, sizeof copy, "%s", binary());
        snprintf(command, sizeof command, "'%s/examples/first_legal'", dirname(copy));
    } else if (!strcmp(program, "engine")) {
        snprintf(command, sizeof command, "'%s' engine --bot heuristic", binary());
    } else {
        snprintf(command, sizeof command, "/bin/sh '%s/tests/data/protocol/%s.sh'", source_dir(),
                 program);
    }
    snprintf(spec, sizeof specs[0], "ext:%s%s", settings ? settings : "", command);
    return spec;
}

/* Plays one match to its end or failure, with a record; the status, the
 * error and the record's moves (malloc'd, the text after ---). */
static gateau_match_status play(const gateau_setup *setup, const char *const *specs,
                                uint64_t seed, char *error, size_t error_size, char **moves)
{
    gateau_rng chance, bots[GATEAU_MAX_PLAYERS];
    gateau_rng_seed_stream(&chance, seed, 0);
    gateau_match_config config = {.setup = setup, .chance = &chance, .keep_record = true};
    for (int s = 0; s < gateau_setup_players(setup); s++) {
        gateau_rng_seed_stream(&bots[s], seed, 1 + (uint64_t)s);
        config.seats[s] = (gateau_match_seat){.bot = specs[s], .rng = &bots[s]};
    }
    gateau_match *match = gateau_match_new(&config, error, error_size);
    cr_assert_not_null(match, "%s", error);
    gateau_match_status status = gateau_match_run(match, error, error_size);
    char *text = gateau_record_text(gateau_match_record(match));
    char *body = strstr(text, "---\n");
    cr_assert_not_null(body);
    *moves = strdup(body);
    free(text);
    gateau_match_free(match);
    return status;
}

/* ---- every game, with the example programs ---------------------------------------- */

Test(protocol, every_game_to_the_end_between_programs_and_bots)
{
    const char *log = support_temp_path("failures.log");
    char settings[512];
    snprintf(settings, sizeof settings, "log=%s:", log);
    const char *lineup[] = {spec_of("python", settings), spec_of("c", settings),
                            spec_of("engine", settings), "heuristic"};
    for (int g = 0; g < gateau_game_count(); g++) {
        const gateau_game *game = gateau_game_at(g);
        int players = gateau_game_min_players(game);
        /* Enough matches for every program to play in every game. */
        for (int first = 0; first < 4; first += players) {
            const char *specs[GATEAU_MAX_PLAYERS];
            for (int s = 0; s < players; s++) specs[s] = lineup[(first + s) % 4];
            gateau_setup *setup = support_setup(gateau_game_name(game), players, NULL);
            char error[512] = "", *moves;
            gateau_match_status status = play(setup, specs, 100 + (uint64_t)g, error,
                                              sizeof error, &moves);
            cr_assert_eq(status, GATEAU_MATCH_OVER, "%s: %s", gateau_game_name(game), error);
            free(moves);
            gateau_setup_free(setup);
        }
    }
    /* Nobody's move was made for it. */
    cr_assert_not(support_file_exists(log), "failures:\n%s", support_read_file(log));
}

/* What a program is told: every move (as its seat may read it: the hidden
 * ones as the seat's record shows them), a view after each,
 * the end with the scores; caught with tee in front of gateau engine. */
Test(protocol, the_program_is_told_every_change)
{
    const char *transcript = support_temp_path("transcript");
    char spec[2048];
    snprintf(spec, sizeof spec, "ext:/bin/sh -c 'tee \"$0\" | exec \"$1\" engine' '%s' '%s'",
             transcript, binary());
    for (int g = 0; g < gateau_game_count(); g++) {
        const gateau_game *game = gateau_game_at(g);
        int players = gateau_game_min_players(game);
        gateau_setup *setup = support_setup(gateau_game_name(game), players, NULL);
        gateau_rng chance, bots;
        gateau_rng_seed(&chance, 6);
        gateau_rng_seed(&bots, 7);
        gateau_match_config config = {.setup = setup, .chance = &chance, .keep_record = true};
        for (int s = 0; s < players; s++)
            config.seats[s] = (gateau_match_seat){.bot = s == 1 ? spec : "random", .rng = &bots};
        char error[256];
        gateau_match *match = gateau_match_new(&config, error, sizeof error);
        cr_assert_eq(gateau_match_run(match, error, sizeof error), GATEAU_MATCH_OVER, "%s", error);
        const gateau_record *record = gateau_match_record(match);
        int moves = gateau_record_move_count(record);
        char *seen = gateau_record_text_for(record, 1);
        int hidden = support_count_of(seen, "(hidden)");
        gateau_match_free(match); /* the program ends: its transcript is whole */
        char *text = support_read_file(transcript);
        const char *name = gateau_game_name(game);
        cr_assert(!strncmp(text, "protocol 1\nnewgame game ", 24), "%s:\n%.200s", name, text);
        cr_assert_eq(support_count_of(text, "\nmove ") + support_count_of(text, "\nhidden "),
                     moves, "%s", name);
        cr_assert_eq(support_count_of(text, "\nhidden "), hidden, "%s", name);
        cr_assert_eq(support_count_of(text, "\nview {"), moves + 1, "%s", name);
        cr_assert_eq(support_count_of(text, "\nstate "), 0, "%s: no state lines", name);
        cr_assert(strstr(text, "\nend scores "), "%s", name);
        cr_assert(strstr(text, "\nquit\n"), "%s", name);
        /* Each visible line is the seat's record line. */
        for (const char *line = strstr(text, "\nmove "); line; line = strstr(line + 1, "\nmove ")) {
            const char *notation = line + 6;
            notation += strcspn(notation, " ") + 1;           /* the number */
            notation += strcspn(notation, " ") + 1;           /* who */
            char wanted[600];
            snprintf(wanted, sizeof wanted, "%.*s\n", (int)strcspn(notation, "\n"), notation);
            cr_assert(strstr(seen, wanted), "%s: '%s' is not in the seat's record", name, wanted);
        }
        free(text);
        free(seen);
        gateau_setup_free(setup);
    }
}

/* ---- the same games through gateau engine as in-process ----------------------------- */

static gateau_arena *run_arena(const gateau_setup *setup, const char *const *bots, long games)
{
    gateau_arena_config config = {.setup = setup, .bots = bots, .games = games, .threads = 2,
                                  .seed = 2024, .keep_records = true};
    char error[512];
    gateau_arena *arena = gateau_arena_new(&config, error, sizeof error);
    cr_assert_not_null(arena, "%s", error);
    cr_assert(gateau_arena_run(arena, error, sizeof error), "%s", error);
    return arena;
}

/* The heuristics decide from what the seat knows only, so they ignore the
 * determinization their generator draws; random draws its moves from it:
 * both line-ups, so that the generator's round trip is checked too. */
Test(protocol, arena_through_gateau_engine_equals_in_process)
{
    enum { GAMES = 6 };
    char random_engine[1024];
    snprintf(random_engine, sizeof random_engine, "ext:'%s' engine --bot random", binary());
    for (int g = 0; g < 2 * gateau_game_count(); g++) {
        const gateau_game *game = gateau_game_at(g / 2);
        bool random = g % 2;
        int players = gateau_game_min_players(game);
        gateau_setup *setup = support_setup(gateau_game_name(game), players, NULL);
        const char *outside[GATEAU_MAX_PLAYERS], *inside[GATEAU_MAX_PLAYERS];
        for (int s = 0; s < players; s++) outside[s] = inside[s] = "heuristic";
        outside[0] = random ? random_engine : spec_of("engine", NULL);
        if (random) inside[0] = "random";
        gateau_arena *through = run_arena(setup, outside, GAMES);
        gateau_arena *in_process = run_arena(setup, inside, GAMES);
        const gateau_arena_game *a = gateau_arena_games(through), *b = gateau_arena_games(in_process);
        for (int i = 0; i < GAMES; i++) {
            cr_assert_arr_eq(a[i].scores, b[i].scores, sizeof a[i].scores, "%s game %d",
                             gateau_game_name(game), i + 1);
            cr_assert_eq(a[i].winners, b[i].winners);
            cr_assert_eq(a[i].moves, b[i].moves);
            /* The same moves, line by line (the names differ). */
            cr_assert_str_eq(strstr(a[i].record, "---"), strstr(b[i].record, "---"), "%s game %d",
                             gateau_game_name(game), i + 1);
        }
        gateau_arena_free(through);
        gateau_arena_free(in_process);
        gateau_setup_free(setup);
    }
}

/* ---- programs that misbehave ---------------------------------------------------------- */

/* Seat 1 runs the program with a short budget, seat 2 the heuristic: the
 * game must end, the log must say what happened, and the heuristic having
 * moved for seat 1 from its first failure on, the game must be the one two
 * heuristics play. */
static void check_replaced(const char *program, const char *logged)
{
    const char *log = support_temp_path("failures.log");
    char settings[512];
    snprintf(settings, sizeof settings, "ms=300:start=300:log=%s:", log);
    gateau_setup *setup = support_setup("piece-o-cake", 2, NULL);
    const char *specs[] = {spec_of(program, settings), "heuristic"};
    const char *heuristics[] = {"heuristic", "heuristic"};
    char error[512] = "", *moves, *expected;
    cr_assert_eq(play(setup, specs, 5, error, sizeof error, &moves), GATEAU_MATCH_OVER, "%s",
                 error);
    cr_assert_eq(play(setup, heuristics, 5, error, sizeof error, &expected), GATEAU_MATCH_OVER);
    cr_assert_str_eq(moves, expected, "%s", program);
    char *text = support_read_file(log);
    cr_assert(strstr(text, logged), "%s: the log says:\n%s", program, text);
    cr_assert(strstr(text, "the heuristic bot moves instead"), "%s", text);
    free(text);
    free(moves);
    free(expected);
    gateau_setup_free(setup);
}

Test(protocol, illegal_move_is_replaced) { check_replaced("illegal", "illegal move 'dance a jig'"); }
Test(protocol, error_answer_is_replaced) { check_replaced("refuses", "answered 'error I do not know"); }
Test(protocol, timeout_is_replaced) { check_replaced("hang", "no answer in time"); }
Test(protocol, crash_is_replaced) { check_replaced("crash", "the program ended"); }
Test(protocol, flood_is_replaced) { check_replaced("flood", "a flood of output"); }
/* A program that cannot start or shake hands is not played for by the
 * heuristic (its numbers would be the heuristic's): the game stops, with
 * the reason, also in the log file. */
static void check_stops(const char *spec_format, const char *said)
{
    const char *log = support_temp_path("failures.log");
    char spec[1024];
    snprintf(spec, sizeof spec, spec_format, log, source_dir());
    gateau_setup *setup = support_setup("mice-cake", 2, NULL);
    const char *specs[] = {spec, "random"};
    char error[512] = "", *moves;
    cr_assert_eq(play(setup, specs, 9, error, sizeof error, &moves), GATEAU_MATCH_FAILED);
    cr_assert(strstr(error, "seat 1 (ext:") && strstr(error, said), "%s", error);
    char *text = support_read_file(log);
    cr_assert(strstr(text, said), "%s", text);
    free(text);
    free(moves);
    gateau_setup_free(setup);
}

Test(protocol, silence_stops_the_game)
{
    check_stops("ext:start=300:log=%s:/bin/sh '%s/tests/data/protocol/silent.sh'",
                "no 'ready' after 'protocol 1'");
}

Test(protocol, missing_program_stops_the_game)
{
    check_stops("ext:log=%s:/nonexistent/bot --fast%.0s", "cannot start /nonexistent/bot");
}

Test(protocol, forfeit_stops_the_match_and_the_arena)
{
    char settings[512];
    snprintf(settings, sizeof settings, "onerror=forfeit:log=%s:", support_temp_path("log"));
    gateau_setup *setup = support_setup("piece-o-cake", 2, NULL);
    const char *specs[] = {"heuristic", spec_of("illegal", settings)};
    char error[512] = "", *moves;
    cr_assert_eq(play(setup, specs, 5, error, sizeof error, &moves), GATEAU_MATCH_FAILED);
    cr_assert(strstr(error, "seat 2") && strstr(error, "forfeits"), "%s", error);
    free(moves);

    gateau_arena_config config = {.setup = setup, .bots = specs, .games = 2, .threads = 1};
    gateau_arena *arena = gateau_arena_new(&config, error, sizeof error);
    cr_assert_not_null(arena, "%s", error);
    cr_assert_not(gateau_arena_run(arena, error, sizeof error));
    cr_assert(strstr(error, "forfeits"), "%s", error);
    gateau_arena_free(arena);
    gateau_setup_free(setup);
}

/* ---- nothing left behind ----------------------------------------------------------------- */

/* Gone, or a zombie that is not ours to reap (its parent was killed). */
static bool process_gone(pid_t pid)
{
    if (kill(pid, 0) != 0) return errno == ESRCH;
    char path[64], stat[512] = "";
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *file = fopen(path, "r");
    if (!file) return true;
    size_t got = fread(stat, 1, sizeof stat - 1, file);
    fclose(file);
    stat[got] = '\0';
    const char *close = strrchr(stat, ')');
    return close && close[1] == ' ' && close[2] == 'Z';
}

Test(protocol, no_process_is_left_behind)
{
    const char *pids = support_temp_path("pids");
    char spec[1024];
    snprintf(spec, sizeof spec, "ext:ms=200:log=%s:/bin/sh '%s/tests/data/protocol/family.sh' '%s'",
             support_temp_path("log"), source_dir(), pids);
    gateau_setup *setup = support_setup("mice-cake", 2, NULL);
    const char *specs[] = {spec, "heuristic"};
    char error[512], *moves;
    cr_assert_eq(play(setup, specs, 3, error, sizeof error, &moves), GATEAU_MATCH_OVER, "%s", error);
    free(moves);
    int program = 0, child = 0;
    char *text = support_read_file(pids);
    cr_assert_eq(sscanf(text, "%d %d", &program, &child), 2, "%s", text);
    free(text);
    /* Ours is reaped at once; the program's own child was killed with its
     * group, and its new parent reaps it when it will (waited for, not timed). */
    cr_assert_eq(kill(program, 0), -1, "the program %d is still there", program);
    cr_assert_eq(errno, ESRCH);
    for (int tries = 0; tries < 500 && !process_gone(child); tries++) usleep(10000);
    cr_assert(process_gone(child), "the program's child %d is still running", child);
    gateau_setup_free(setup);
}

/* ---- specs ------------------------------------------------------------------------------------- */

Test(protocol, specs_are_checked_and_split_like_a_shell)
{
    char error[256];
    const char *refused[][2] = {
        {"ext", "needs a command"}, /* (read past its end once: fuzz_engine) */
        {"ext:", "needs a command"},
        {"ext:   ", "needs a command"},
        {"ext:ms=0:bot", "ms needs milliseconds"},
        {"ext:onerror=stop:bot", "onerror is heuristic or forfeit"},
        {"ext:bot 'unclosed", "unclosed '"},
        {"ext:bot \"unclosed", "unclosed \""},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        cr_assert_null(gateau_bot_new(refused[i][0], error, sizeof error), "%s", refused[i][0]);
        cr_assert(strstr(error, refused[i][1]), "%s: %s", refused[i][0], error);
    }
    /* Made without starting anything (an arena checks its specs so). */
    gateau_bot *bot = gateau_bot_new("ext:/nonexistent/bot", error, sizeof error);
    cr_assert_not_null(bot, "%s", error);
    gateau_bot_free(bot);

    /* Quotes keep blanks and the other quote; the command holds ':' and '='. */
    const char *log = support_temp_path("failures.log");
    char spec[1024];
    snprintf(spec, sizeof spec, "ext:log=%s:/bin/sh -c 'exec \"$0\" engine --bot \"$1\"' '%s' "
             "ismcts:iters=50", log, binary());
    gateau_setup *setup = support_setup("maries-table", 3, NULL);
    const char *specs[] = {spec, "random", "heuristic"};
    char *moves;
    cr_assert_eq(play(setup, specs, 4, error, sizeof error, &moves), GATEAU_MATCH_OVER, "%s", error);
    free(moves);
    cr_assert_not(support_file_exists(log), "%s", support_read_file(log));
    gateau_setup_free(setup);
}

/* ---- gateau engine -------------------------------------------------------------------------- */

Test(protocol, engine_answers_errors_and_goes_on)
{
    /* A position to move from: Mice Cake after its first roll, for seat 1. */
    gateau_setup *setup = support_setup("mice-cake", 2, NULL);
    gateau_state *state = gateau_state_new(setup);
    gateau_rng rng;
    gateau_rng_seed(&rng, 1);
    while (gateau_state_is_chance(state))
        gateau_state_apply_legal(state, GATEAU_CHANCE, gateau_state_sample_chance(state, &rng));
    int seat = gateau_state_next_seat(state);
    char *view = gateau_state_view_json(state, seat);
    char *other_view = gateau_state_view_json(state, 1 - seat);
    size_t size = 2 * strlen(view) + strlen(other_view) + 2048;
    char *input = malloc(size);
    snprintf(input, size,
             "hello there\n"
             "protocol 1\n"
             "view %s\n"                                    /* before newgame */
             "newgame game chess players 2 seat 1\n"       /* unknown game */
             "newgame game mice-cake players 2 seat 9\n"   /* no such seat */
             "newgame game mice-cake players 2 seat %d options\n"
             "go 1 ms 1000 left -1\n"                       /* no view yet */
             "view {\"game\":\"mice-cake\",\"seat\":\n"     /* not JSON */
             "go 1 ms 1000 left -1\n"
             "view %s\n"                                    /* another seat's */
             "go 1 ms 1000 left -1\n"
             "hidden 1 chance\n"
             "move 3 1 roll\n"                              /* out of step */
             "view %s\n"
             "go 4 ms 1000 left -1 rng 1 2 3 4\n"
             "quit\n"
             "go 5 ms 1000 left -1\n",
             view, seat + 1, other_view, view);
    char *out;
    int status = support_run("engine --bot heuristic", input, &out);
    support_check_no_crash(status, out, "engine");
    cr_assert_eq(status, 0, "%s", out);
    cr_assert(strstr(out, "\nready\n"), "%s", out);
    cr_assert(strstr(out, "error view before newgame"), "%s", out);
    cr_assert(strstr(out, "error newgame: unknown game 'chess'"), "%s", out);
    cr_assert(strstr(out, "error newgame: needs players"), "%s", out);
    cr_assert(strstr(out, "error no position to move from: no view since newgame"), "%s", out);
    cr_assert(strstr(out, "error view: the view is not JSON"), "%s", out);
    cr_assert(strstr(out, "error view: the view is not seat"), "%s", out);
    cr_assert(strstr(out, "error out of step: move 3 after move 1"), "%s", out);
    /* And then a legal move, with the generator sent back; nothing after quit. */
    const char *move = strstr(out, "\nmove ");
    cr_assert_not_null(move, "%s", out);
    cr_assert(strstr(out, "\nrng "), "%s", out);
    cr_assert_eq(support_count_of(out, "\nmove "), 1, "%s", out);
    char text[256];
    snprintf(text, sizeof text, "%.*s", (int)strcspn(move + 6, "\n"), move + 6);
    gateau_action actions[GATEAU_MAX_MOVE_ACTIONS];
    char error[256];
    cr_assert_gt(gateau_move_parse(state, seat, text, actions, error, sizeof error), 0,
                 "'%s': %s", text, error);
    free(out);
    free(input);
    free(view);
    free(other_view);
    gateau_state_free(state);
    gateau_setup_free(setup);
}

/* Another harness writes its JSON its own way: keys in another order,
 * spaces.  The engine reads the same position from it and moves as it
 * does from gateau's own text. */
Test(protocol, engine_reads_views_written_by_another_harness)
{
    for (int g = 0; g < gateau_game_count(); g++) {
        const gateau_game *found = gateau_game_at(g);
        const char *game = gateau_game_name(found);
        int players = gateau_game_max_players(found) < 3 ? 2 : 3;
        gateau_setup *setup = support_setup(game, players, NULL);
        gateau_state *state = gateau_state_new(setup);
        gateau_rng rng;
        gateau_rng_seed(&rng, 5);
        /* Some way into a random game, where seat to move decides. */
        for (int step = 0; step < 40 || gateau_state_is_chance(state) ||
                           gateau_state_in_move(state); step++)
            support_random_step(state, &rng);
        int seat = gateau_state_next_seat(state);
        char *view = gateau_state_view_json(state, seat);
        json_t *parsed = support_parse_view(view);
        char *rewritten = json_dumps(parsed, JSON_INDENT(0) | JSON_SORT_KEYS);
        for (char *c = rewritten; *c; c++)
            if (*c == '\n') *c = ' ';
        cr_assert_str_neq(rewritten, view);
        char *outs[2];
        const char *views[2] = {view, rewritten};
        for (int v = 0; v < 2; v++) {
            size_t size = strlen(views[v]) + 512;
            char *input = malloc(size);
            snprintf(input, size, "protocol 1\nnewgame game %s players %d seat %d options\n"
                     "view %s\ngo 1 ms 1000 left -1 rng 1 2 3 4\nquit\n", game, players,
                     seat + 1, views[v]);
            int status = support_run("engine --bot heuristic", input, &outs[v]);
            support_check_no_crash(status, outs[v], "engine");
            cr_assert(strstr(outs[v], "\nmove "), "%s: %s", game, outs[v]);
            free(input);
        }
        cr_assert_str_eq(outs[0], outs[1], "%s: another way of writing the view moved otherwise",
                         game);
        free(outs[0]);
        free(outs[1]);
        free(rewritten);
        json_decref(parsed);
        free(view);
        gateau_state_free(state);
        gateau_setup_free(setup);
    }
}

/* ---- gateau play ----------------------------------------------------------------------------- */

Test(protocol, play_with_programs_at_the_seats)
{
    char arguments[2048], *through, *in_process;
    snprintf(arguments, sizeof arguments,
             "play cake-master --players 2 --seed 8 --seats \"ext:'%s' engine --bot heuristic,"
             "heuristic\"", binary());
    int status = support_run(arguments, "", &through);
    support_check_no_crash(status, through, arguments);
    cr_assert_eq(status, 0, "%s", through);
    cr_assert_eq(support_run("play cake-master --players 2 --seed 8 --seats heuristic,heuristic",
                             "", &in_process), 0);
    const char *final = strstr(through, "Final scores:");
    cr_assert_not_null(final, "%s", through);
    cr_assert_not_null(strstr(in_process, final), "through the engine:\n%s\nin-process:\n%s",
                       final, in_process);
    free(through);
    free(in_process);
}
