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
 * - gateau play with ext: seats;
 * - protocol 2: stray, stale and unnumbered lines dropped with a warning
 *   (the program stays in step), versions negotiated or refused, stop at
 *   the deadline, legal lists counted, the generator's rule, the engine's
 *   one reply per request, its warnings, stop and go's time; every view
 *   valid against its game's schema (docs/protocol/views); the doc's
 *   sessions as gateau says them today.
 */
#define _DEFAULT_SOURCE /* usleep */
#include <errno.h>
#include <libgen.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gateau/arena.h"
#include "gateau/match.h"
#include "json_schema.h"
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
        cr_assert(!strncmp(text, "protocol 2\nnewgame game ", 24), "%s:\n%.200s", name, text);
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
                "no 'ready' after 'protocol 2'");
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
    cr_assert_not(support_pid_alive(child), "the program's child %d is still running", child);
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

/* ==== Protocol 2: numbered requests, one reply each, versions ============================= */

/* The spec of tests/data/protocol/speaks2.sh, a protocol 2 bot that plays
 * the first legal line and misbehaves as mode says. */
static const char *speaker(const char *mode, const char *settings)
{
    static char specs[4][1024];
    static int next;
    char *spec = specs[next++ % 4];
    snprintf(spec, sizeof specs[0], "ext:%s/bin/sh '%s/tests/data/protocol/speaks2.sh' %s",
             settings ? settings : "", source_dir(), mode);
    return spec;
}

/* piece o' Cake, seed 5: spec at seat 1, the heuristic at seat 2, to the
 * end; the record's moves (malloc'd). */
static char *moves_with(const char *spec)
{
    gateau_setup *setup = support_setup("piece-o-cake", 2, NULL);
    const char *specs[] = {spec, "heuristic"};
    char error[512] = "", *moves;
    cr_assert_eq(play(setup, specs, 5, error, sizeof error, &moves), GATEAU_MATCH_OVER, "%s: %s",
                 spec, error);
    gateau_setup_free(setup);
    return moves;
}

/* The log of a failures.log setting ("" when nothing was logged; malloc'd). */
static char *log_text(const char *log)
{
    return support_file_exists(log) ? support_read_file(log) : strdup("");
}

/* A stray line (an error for no request, a second move, a move before the
 * go, the previous request's move again, a warning) is dropped with a
 * warning: the program stays in step and makes all its moves itself, so
 * the game is the one it plays without the fault. */
Test(protocol, protocol2_stray_lines_are_dropped)
{
    char *clean = moves_with(speaker("clean", NULL));
    const char *cases[][2] = {
        {"stray-error", "dropped 'error I am confused': no request number"},
        {"two-moves", "not the number of the request awaited"},
        {"early", "dropped 'move pass': no request number"},
        {"stale", "not the number of the request awaited"},
        {"warns", "warning: the program says: thinking hard"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char log[512], settings[600];
        snprintf(log, sizeof log, "%s", support_temp_path(cases[i][0]));
        snprintf(settings, sizeof settings, "log=%s:", log);
        char *moves = moves_with(speaker(cases[i][0], settings));
        char *text = log_text(log);
        cr_assert_str_eq(moves, clean, "%s: the game changed; the log says:\n%s", cases[i][0], text);
        cr_assert(strstr(text, cases[i][1]), "%s: the log says:\n%s", cases[i][0], text);
        cr_assert_null(strstr(text, "instead"), "%s: a move was made for it:\n%s", cases[i][0], text);
        free(text);
        free(moves);
    }
    free(clean);
}

/* A program that plays the heuristic's game at seat 1 after its first
 * failure: the game is two heuristics', and the log says why. */
static void check_failed_into_heuristic(const char *mode, const char *const *logged, int count)
{
    const char *log = support_temp_path("failures.log");
    char settings[600];
    snprintf(settings, sizeof settings, "ms=200:start=2000:log=%s:", log);
    char *moves = moves_with(speaker(mode, settings));
    char *expected = moves_with("heuristic");
    cr_assert_str_eq(moves, expected, "%s", mode);
    char *text = log_text(log);
    for (int i = 0; i < count; i++)
        cr_assert(strstr(text, logged[i]), "%s: the log says:\n%s", mode, text);
    free(text);
    free(moves);
    free(expected);
}

/* An unnumbered move answers no request in protocol 2: dropped, and the
 * program has not answered in time. */
Test(protocol, protocol2_unnumbered_move_is_no_answer)
{
    const char *logged[] = {"dropped 'move ", "no request number", "no answer in time",
                            "the heuristic bot moves instead"};
    check_failed_into_heuristic("unnumbered", logged, 4);
}

/* A program that answers a version gateau does not speak, or refuses the
 * versions gateau offers, cannot play: it stops the game at its answer
 * (start=2000: not at a deadline), in one line of the log. */
Test(protocol, protocol2_unknown_version_stops_the_game)
{
    const char *cases[][2] = {
        {"version3", "answered 'protocol 3' to 'protocol 2' (gateau speaks 1 to 2)"},
        {"refuses", "refused 'protocol 2': 'error protocol '2': speaks2.sh speaks protocol 3'"},
    };
    for (int i = 0; i < 2; i++) {
        const char *log = support_temp_path("failures.log");
        unlink(log);
        char format[1024];
        snprintf(format, sizeof format,
                 "ext:start=2000:log=%%s:/bin/sh '%%s/tests/data/protocol/speaks2.sh' %s",
                 cases[i][0]);
        check_stops(format, cases[i][1]);
        char *text = support_read_file(log);
        cr_assert_eq(support_count_of(text, "\n"), 1, "one line:\n%s", text);
        cr_assert_null(strstr(text, "no answer"), "%s", text);
        free(text);
    }
}

/* What a bot author gets wrong, said in the log: four zero rng words
 * (xoshiro's fixed point, on which a draw below a bound never ends) are
 * refused and the game goes on as without them; a misspelt keyword is
 * named; a whole line over 16 KiB is a flood, however it arrives. */
Test(protocol, protocol2_mistakes_are_named)
{
    char *clean = moves_with(speaker("clean", NULL));
    const char *kept[][2] = {
        {"zero-rng", "'rng 1 0 0 0 0' is not four 64-bit words in hex, not all zero"},
        {"misspelt-handshake", "ignored 'protocl 2' in the handshake: not a line of the protocol"},
    };
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
        char log[512], settings[600];
        snprintf(log, sizeof log, "%s", support_temp_path(kept[i][0]));
        snprintf(settings, sizeof settings, "log=%s:", log);
        char *moves = moves_with(speaker(kept[i][0], settings));
        char *text = log_text(log);
        cr_assert_str_eq(moves, clean, "%s: the game changed; the log says:\n%s", kept[i][0], text);
        cr_assert(strstr(text, kept[i][1]), "%s: the log says:\n%s", kept[i][0], text);
        free(text);
        free(moves);
    }
    free(clean);
    const char *misspelt[] = {"ignored 'mvoe 1 ", "not a line of the protocol", "no answer in time",
                              "the heuristic bot moves instead"};
    check_failed_into_heuristic("misspelt", misspelt, 4);
    const char *long_line[] = {"a flood of output (a line over 16 KiB",
                               "the heuristic bot moves instead"};
    check_failed_into_heuristic("long-line", long_line, 2);
}

/* A log file that cannot be opened makes a program that cannot start:
 * its failures would go nowhere. */
Test(protocol, unwritable_log_stops_the_game)
{
    char spec[1024];
    snprintf(spec, sizeof spec,
             "ext:log=/nonexistent/failures.log:/bin/sh '%s/tests/data/protocol/speaks2.sh' clean",
             source_dir());
    gateau_setup *setup = support_setup("mice-cake", 2, NULL);
    const char *specs[] = {spec, "random"};
    char error[512] = "", *moves;
    cr_assert_eq(play(setup, specs, 9, error, sizeof error, &moves), GATEAU_MATCH_FAILED);
    cr_assert(strstr(error, "cannot open its log file /nonexistent/failures.log"), "%s", error);
    free(moves);
    gateau_setup_free(setup);
}

/* The spec of command with its input and output copied to files (tee). */
static const char *taped(const char *settings, const char *command, const char *in,
                         const char *out)
{
    static char spec[2048];
    snprintf(spec, sizeof spec,
             "ext:%s/bin/sh -c 'in=$0 out=$1; shift; tee \"$in\" | \"$@\" | tee \"$out\"' "
             "'%s' '%s' %s", settings ? settings : "", in, out, command);
    return spec;
}

/* The lines of text that start with prefix, in order (malloc'd array of
 * pointers into text, changed in place; *count of them). */
static char **lines_starting(char *text, const char *prefix, int *count)
{
    char **lines = malloc(sizeof *lines * ((size_t)support_count_of(text, "\n") + 1));
    *count = 0;
    char *cursor;
    for (char *line = strtok_r(text, "\n", &cursor); line; line = strtok_r(NULL, "\n", &cursor))
        if (!strncmp(line, prefix, strlen(prefix))) lines[(*count)++] = line;
    return lines;
}

/* A program that answers its first go only when told stop: stop N comes at
 * the end of the time per move, and its answer within the grace is taken.
 * (The grace is 100 ms: on a machine loaded enough, a program may not be
 * scheduled within it, so the game is tried up to three times; the test
 * is of the path, not of its speed.) */
Test(protocol, protocol2_stop_at_the_deadline)
{
    const char *log = support_temp_path("failures.log");
    const char *in = support_temp_path("in"), *out = support_temp_path("out");
    char settings[600], command[1024];
    snprintf(settings, sizeof settings, "ms=200:log=%s:", log);
    snprintf(command, sizeof command, "/usr/bin/python3 '%s/tests/data/protocol/until_stop.py'",
             source_dir());
    char *clean = moves_with(speaker("clean", NULL)), *moves = NULL, *text = NULL;
    for (int attempt = 0; attempt < 3; attempt++) {
        unlink(log);
        free(moves);
        free(text);
        moves = moves_with(taped(settings, command, in, out));
        text = log_text(log);
        if (!text[0]) break;
    }
    cr_assert_str_eq(text, "", "%s", text);
    cr_assert_str_eq(moves, clean);
    char *sent = support_read_file(in);
    cr_assert(strstr(sent, "\nstop 1\n"), "stop 1 was sent");
    free(sent);
    free(text);
    free(moves);
    free(clean);
}

/* A game clock runs down to 0, never below: -1 says "no clock", and a
 * program that thought past its time is told 0 from then on.  (The
 * program thinks 150 ms a move against 400 ms in all, so its fourth go
 * says 0 left, then it misses the grace and the fallback plays on.  On a
 * machine loaded enough, a move of it may take past ms and the grace
 * before the clock reaches 0, and the fallback takes over with no go at
 * 0 sent: the game is tried up to three times for one that ran out, as
 * protocol2_stop_at_the_deadline is; every go of every try is checked.) */
Test(protocol, clock_left_never_goes_below_zero)
{
    const char *in = support_temp_path("in"), *out = support_temp_path("out");
    char command[1024];
    snprintf(command, sizeof command, "/bin/sh '%s/tests/data/protocol/speaks2.sh' slow",
             source_dir());
    bool ran_out = false;
    for (int attempt = 0; attempt < 3 && !ran_out; attempt++) {
        free(moves_with(taped("clock=400:log=/dev/null:", command, in, out)));
        char *sent = support_read_file(in);
        int count;
        char **goes = lines_starting(sent, "go ", &count);
        /* (the whole clock at the first go, however loaded the machine:
         * it runs down from there) */
        cr_assert_gt(count, 0);
        cr_assert(strstr(goes[0], " left 400"), "%s", goes[0]);
        for (int i = 0; i < count; i++) {
            const char *left = strstr(goes[i], " left ");
            cr_assert_not_null(left, "%s", goes[i]);
            long value = strtol(left + 6, NULL, 10);
            cr_assert_geq(value, 0, "%s", goes[i]);
            ran_out |= value == 0;
        }
        free(goes);
        free(sent);
    }
    cr_assert(ran_out, "the clock ran out: 150 ms a move against 400 ms");
}

/* A program that answers `protocol 1` (or nothing: gateau engine asked for
 * protocol 1 by a sed in between, which speaks as before) is spoken to in
 * protocol 1: go K without a request number, no legalcount, its
 * unnumbered replies taken; and the games are what they were. */
Test(protocol, protocol1_program_is_spoken_to_in_protocol_1)
{
    const char *log = support_temp_path("failures.log");
    char settings[600], command[1200];
    snprintf(settings, sizeof settings, "log=%s:", log);
    const char *in = support_temp_path("in"), *out = support_temp_path("out");
    snprintf(command, sizeof command, "/bin/sh '%s/tests/data/protocol/speaks2.sh' version1",
             source_dir());
    char *moves = moves_with(taped(settings, command, in, out));
    char *clean = moves_with(speaker("clean", NULL));
    cr_assert_str_eq(moves, clean);
    char *sent = support_read_file(in);
    cr_assert(!strncmp(sent, "protocol 2\n", 11), "%.100s", sent);
    cr_assert_null(strstr(sent, "\nlegalcount "), "no legalcount in protocol 1");
    int count;
    char **gos = lines_starting(sent, "go ", &count);
    cr_assert_gt(count, 3);
    for (int i = 0; i < count; i++) {
        int number;
        char field[8];
        cr_assert_eq(sscanf(gos[i], "go %d %7s", &number, field), 2, "%s", gos[i]);
        cr_assert_str_eq(field, "ms", "protocol 1's go: %s", gos[i]);
    }
    free(gos);
    free(sent);
    free(moves);
    free(clean);

    /* gateau engine, the example bots: each as a protocol 1 program. */
    const char *programs[] = {"engine", "python", "c"};
    for (int p = 0; p < 3; p++) {
        const char *program = spec_of(programs[p], NULL) + 4; /* after "ext:" */
        snprintf(command, sizeof command,
                 "/bin/sh -c 'sed -u \"s/^protocol 2\\$/protocol 1/\" | exec \"$@\"' sh %s", program);
        char *through = moves_with(taped(settings, command, in, out));
        char *answers = support_read_file(out);
        cr_assert_null(strstr(answers, "protocol 2"), "%s: %.300s", programs[p], answers);
        cr_assert(strstr(answers, "\nmove ") || !strncmp(answers, "move ", 5), "%s", programs[p]);
        if (p == 0) {
            char *in_process = moves_with("heuristic");
            cr_assert_str_eq(through, in_process, "gateau engine in protocol 1");
            free(in_process);
        }
        free(answers);
        free(through);
    }
    char *text = log_text(log);
    cr_assert_str_eq(text, "", "%s", text);
    free(text);
}

/* The example bots speak protocol 2 when it is offered: their handshake
 * says so and every reply of theirs carries its request's number, through
 * a game of every game, with nothing logged (no warning, no failure). */
Test(protocol, example_bots_speak_protocol_2)
{
    const char *in = support_temp_path("in"), *out = support_temp_path("out");
    const char *log = support_temp_path("failures.log");
    char settings[600];
    snprintf(settings, sizeof settings, "log=%s:", log);
    const char *programs[] = {"python", "c"};
    for (int p = 0; p < 2; p++) {
        for (int g = 0; g < gateau_game_count(); g++) {
            const char *game = gateau_game_name(gateau_game_at(g));
            int players = gateau_game_min_players(gateau_game_at(g));
            gateau_setup *setup = support_setup(game, players, NULL);
            const char *specs[GATEAU_MAX_PLAYERS] = {
                taped(settings, spec_of(programs[p], NULL) + 4, in, out)};
            for (int s = 1; s < players; s++) specs[s] = "heuristic";
            char error[512] = "", *moves;
            cr_assert_eq(play(setup, specs, 11 + (uint64_t)g, error, sizeof error, &moves),
                         GATEAU_MATCH_OVER, "%s, %s: %s", programs[p], game, error);
            char *answers = support_read_file(out);
            cr_assert(!strncmp(answers, "protocol 2\n", 11), "%s, %s: %.200s", programs[p], game,
                      answers);
            int count;
            char **replies = lines_starting(answers, "move ", &count);
            cr_assert_gt(count, 0, "%s, %s", programs[p], game);
            for (int i = 0; i < count; i++) {
                int number;
                cr_assert_eq(sscanf(replies[i], "move %d ", &number), 1, "%s", replies[i]);
            }
            free(replies);
            free(answers);
            free(moves);
            gateau_setup_free(setup);
        }
    }
    char *text = log_text(log);
    cr_assert_str_eq(text, "", "%s", text);
    free(text);
}

/* legalcount TOTAL shown SHOWN comes before the legal lines: SHOWN of them
 * follow, at most the legal setting (256), and TOTAL is every legal move
 * (as many as are listed when nothing is cut: legal=100000). */
static void check_legal_counts(const char *settings_extra, int most, int *totals, int *count)
{
    char settings[600];
    snprintf(settings, sizeof settings, "%s", settings_extra);
    const char *in = support_temp_path("in"), *out = support_temp_path("out");
    char command[1024];
    snprintf(command, sizeof command, "/bin/sh '%s/tests/data/protocol/speaks2.sh' clean",
             source_dir());
    free(moves_with(taped(settings, command, in, out)));
    char *sent = support_read_file(in);
    *count = 0;
    for (const char *at = strstr(sent, "\nlegalcount "); at; at = strstr(at + 1, "\nlegalcount ")) {
        int total, shown;
        cr_assert_eq(sscanf(at, "\nlegalcount %d shown %d", &total, &shown), 2, "%.60s", at);
        cr_assert_eq(shown, total < most ? total : most, "%.60s", at);
        const char *line = strchr(at + 1, '\n');
        int listed = 0;
        while (line && !strncmp(line, "\nlegal ", 7)) {
            listed++;
            line = strchr(line + 1, '\n');
        }
        cr_assert_eq(listed, shown, "%.60s: %d legal lines", at, listed);
        cr_assert(!strncmp(line, "\ngo ", 4), "the go follows the list: %.60s", line);
        totals[(*count)++] = total;
    }
    free(sent);
}

Test(protocol, protocol2_legal_lists_are_counted)
{
    int cut[200], whole[200], cut_count, whole_count;
    check_legal_counts("", 256, cut, &cut_count);
    check_legal_counts("legal=100000:", 100000, whole, &whole_count);
    cr_assert_gt(cut_count, 3);
    cr_assert_eq(cut_count, whole_count);
    cr_assert_arr_eq(cut, whole, sizeof cut[0] * (size_t)cut_count);
    bool some_cut = false;
    for (int i = 0; i < cut_count; i++) some_cut = some_cut || cut[i] > 256;
    cr_assert(some_cut, "piece o' Cake's cuts are more than 256");
}

/* The words of an rng field (four hex words after prefix). */
static gateau_rng words_after(const char *line, const char *prefix)
{
    const char *at = strstr(line, prefix);
    cr_assert_not_null(at, "'%s' in '%.200s'", prefix, line);
    unsigned long long w[4];
    cr_assert_eq(sscanf(at + strlen(prefix), "%llx %llx %llx %llx", &w[0], &w[1], &w[2], &w[3]), 4,
                 "%.200s", line);
    return (gateau_rng){{w[0], w[1], w[2], w[3]}};
}

/* The generator's rule: go's rng words stay the same until the program
 * echoes new ones.  A program that sends none (speaks2.sh) gets the same
 * words at every go; random_bot.py draws from them with xoshiro256** as
 * gateau_rng_below does, echoes the state after drawing, and the next go
 * brings exactly that. */
Test(protocol, protocol2_rng_words_stay_unless_echoed)
{
    const char *in = support_temp_path("in"), *out = support_temp_path("out");
    char command[1024];
    snprintf(command, sizeof command, "/bin/sh '%s/tests/data/protocol/speaks2.sh' clean",
             source_dir());
    free(moves_with(taped(NULL, command, in, out)));
    char *sent = support_read_file(in);
    int count;
    char **gos = lines_starting(sent, "go ", &count);
    cr_assert_gt(count, 3);
    for (int i = 1; i < count; i++)
        cr_assert_str_eq(strstr(gos[i], " rng "), strstr(gos[0], " rng "), "go %d", i + 1);
    free(gos);
    free(sent);

    snprintf(command, sizeof command, "/usr/bin/python3 '%s/examples/bots/random_bot.py'",
             source_dir());
    free(moves_with(taped(NULL, command, in, out)));
    sent = support_read_file(in);
    char *answers = support_read_file(out);
    int shown = 0, echoes_count;
    char **echoes = lines_starting(answers, "rng ", &echoes_count);
    int go = 0;
    gateau_rng expected = {{0}};
    char *cursor;
    for (char *line = strtok_r(sent, "\n", &cursor); line; line = strtok_r(NULL, "\n", &cursor)) {
        if (!strncmp(line, "legalcount ", 11)) cr_assert_eq(sscanf(line, "legalcount %*d shown %d", &shown), 1);
        if (strncmp(line, "go ", 3)) continue;
        gateau_rng given = words_after(line, " rng ");
        if (go > 0) cr_assert_arr_eq(given.s, expected.s, sizeof given.s, "go %d: %s", go + 1, line);
        cr_assert_lt(go, echoes_count, "an rng answer per go");
        gateau_rng_below(&given, (uint32_t)shown);
        char prefix[32];
        snprintf(prefix, sizeof prefix, "rng %d ", go + 1);
        expected = words_after(echoes[go], prefix);
        cr_assert_arr_eq(given.s, expected.s, sizeof given.s, "xoshiro256** after drawing: %s",
                         echoes[go]);
        go++;
    }
    cr_assert_gt(go, 3);
    free(echoes);
    free(answers);
    free(sent);
}

/* ---- gateau engine in protocol 2 ------------------------------------------------------------ */

/* A position of game to move from (after its first chance moves): the seat
 * to move and its view (malloc'd). */
static char *first_view(const char *game, int players, int *seat)
{
    gateau_setup *setup = support_setup(game, players, NULL);
    gateau_state *state = gateau_state_new(setup);
    gateau_rng rng;
    gateau_rng_seed(&rng, 1);
    while (gateau_state_is_chance(state))
        gateau_state_apply_legal(state, GATEAU_CHANCE, gateau_state_sample_chance(state, &rng));
    *seat = gateau_state_next_seat(state);
    char *view = gateau_state_view_json(state, *seat);
    gateau_state_free(state);
    gateau_setup_free(setup);
    return view;
}

/* What the engine answered after its handshake (the text after "ready\n"). */
static const char *after_ready(const char *out)
{
    const char *ready = strstr(out, "ready\n");
    cr_assert_not_null(ready, "%s", out);
    return ready + 6;
}

/* A harness that sends views and no move lines (the doc allows it) gets
 * one reply per go, whatever move number it says: in protocol 2 and in 1. */
Test(protocol, engine_views_only_go_gets_one_reply)
{
    int seat;
    char *view = first_view("mice-cake", 2, &seat);
    size_t size = strlen(view) + 1024;
    char *input = malloc(size), *out;
    snprintf(input, size, "protocol 2\nnewgame game mice-cake players 2 seat %d options\nview %s\n"
             "go 1 move 7 ms 1000 left -1 rng 1 2 3 4\nisready 2\nquit\n", seat + 1, view);
    int status = support_run("engine --bot heuristic", input, &out);
    support_check_no_crash(status, out, "engine");
    const char *replies = after_ready(out);
    cr_assert(!strncmp(replies, "rng 1 ", 6), "%s", replies);
    const char *move = strchr(replies, '\n') + 1;
    cr_assert(!strncmp(move, "move 1 ", 7), "%s", replies);
    cr_assert_str_eq(strchr(move, '\n') + 1, "readyok 2\n", "%s", replies);
    free(out);

    snprintf(input, size, "protocol 1\nnewgame game mice-cake players 2 seat %d options\nview %s\n"
             "go 7 ms 1000 left -1 rng 1 2 3 4\nquit\n", seat + 1, view);
    status = support_run("engine --bot heuristic", input, &out);
    support_check_no_crash(status, out, "engine");
    replies = after_ready(out);
    cr_assert(!strncmp(replies, "rng ", 4), "%s", replies);
    move = strchr(replies, '\n') + 1;
    cr_assert(!strncmp(move, "move ", 5), "%s", replies);
    cr_assert_str_eq(strchr(move, '\n') + 1, "", "nothing but the move: %s", replies);
    free(out);
    free(input);
    free(view);
}

/* Lines the engine cannot use get warnings, which end nothing; a request it
 * cannot meet gets `error N`, its one reply; a version it does not speak
 * one line, and no handshake. */
Test(protocol, engine_protocol2_warnings_and_errors)
{
    int seat;
    char *view = first_view("mice-cake", 2, &seat);
    size_t size = 2 * strlen(view) + 4096;
    char *input = malloc(size), *out;
    snprintf(input, size,
             "protocol 0\n"
             "protocol 2\n"
             "hello there\n"
             "view %s\n"                                           /* before newgame */
             "go 1 move 1 ms 1000 left -1\n"                       /* no game */
             "newgame game chess players 2 seat 1\n"               /* unknown game */
             "go 2 move 1 ms 1000 left -1\n"
             "newgame game mice-cake players 2 seat %d options\n"
             "go 3 move 1 ms 1000 left -1\n"                       /* no view */
             "view {\"game\":\"mice-cake\",\"seat\":\n"            /* not JSON */
             "go 4 move 1 ms 1000 left -1\n"
             "go move 1 ms 1000 left -1\n"                         /* no number */
             "hidden 1 chance\n"
             "move 3 1 roll\n"                                     /* out of step */
             "view %s\n"
             "go 5 move 2 ms 1000 left -1 rng zz 2 3 4\n"          /* out of step, bad rng */
             "go 6 move 2 ms 1000 left -1 rng 0 0 0 0\n"           /* xoshiro's fixed point */
             "setoption name ms value fast\n"
             "setoption name bot value ext:/bin/true\n"
             "setoption bot heuristic\n"
             "isready 7\n"
             "quit\n",
             view, seat + 1, view);
    int status = support_run("engine --bot heuristic", input, &out);
    support_check_no_crash(status, out, "engine");
    cr_assert_eq(status, 0, "%s", out);
    const char *expected[] = {
        "error protocol '0': this engine speaks protocol 1 and 2\nprotocol 2\n",
        "warning view before newgame\nerror 1 no game: no newgame yet\n",
        "warning newgame: unknown game 'chess'\nerror 2 no game: newgame: unknown game 'chess'\n",
        "error 3 no position to move from: no view since newgame\n",
        "error 4 view: the view is not JSON",
        "error go needs its request number",
        "warning out of step: move 3 after move 1\n",
        "warning out of step: asked for move 2 after move 3\nwarning go: rng needs four 64-bit "
        "words in hex, not all zero\nmove 5 ",
        "warning go: rng needs four 64-bit words in hex, not all zero\nmove 6 ",
        "warning option ms: needs milliseconds 0..86400000, not 'fast'\n"
        "warning option bot: gateau engine plays gateau's own bots, not ext:\n"
        "warning setoption: write 'setoption name NAME value VALUE'\nreadyok 7\n",
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++)
        cr_assert(strstr(out, expected[i]), "'%s' is not in:\n%s", expected[i], out);
    cr_assert_eq(support_count_of(out, "ready\n"), 1, "one handshake: %s", out);
    cr_assert_eq(support_count_of(out, "\nmove "), 2, "%s", out);
    cr_assert_null(strstr(out, "\nrng "), "no rng words, none sent back: %s", out);
    free(out);
    free(input);
    free(view);
}

/* A conversation with gateau engine over pipes that stay open (so that
 * only what it is told, not the end of its input, stops a search). */
typedef struct conversation {
    pid_t pid;
    int to, from;
    char heard[1 << 16];
    size_t length;
} conversation;

static void converse(conversation *c, const char *bot)
{
    int in[2], out[2];
    cr_assert_eq(pipe(in), 0);
    cr_assert_eq(pipe(out), 0);
    c->pid = fork();
    cr_assert_geq(c->pid, 0);
    if (c->pid == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        close(in[1]);
        close(out[0]);
        execl(binary(), binary(), "engine", "--bot", bot, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    c->to = in[1];
    c->from = out[0];
    c->length = 0;
}

static void say(conversation *c, const char *line)
{
    size_t length = strlen(line);
    cr_assert_eq(write(c->to, line, length), (ssize_t)length);
    cr_assert_eq(write(c->to, "\n", 1), 1);
}

/* The next line the engine writes (static storage); fails after 60 s, far
 * past anything asked here (the searches asked for take up to 10 minutes,
 * and must be stopped long before). */
static const char *hear(conversation *c, const char *why)
{
    static char line[sizeof c->heard];
    for (;;) {
        char *newline = memchr(c->heard, '\n', c->length);
        if (newline) {
            size_t length = (size_t)(newline - c->heard);
            memcpy(line, c->heard, length);
            line[length] = '\0';
            memmove(c->heard, newline + 1, c->length - length - 1);
            c->length -= length + 1;
            return line;
        }
        struct pollfd poller = {.fd = c->from, .events = POLLIN};
        cr_assert_eq(poll(&poller, 1, 60000), 1, "no answer: %s", why);
        ssize_t n = read(c->from, c->heard + c->length, sizeof c->heard - c->length - 1);
        cr_assert_gt(n, 0, "the engine ended: %s", why);
        c->length += (size_t)n;
    }
}

/* Lines until one that starts with prefix (which is returned). */
static const char *hear_until(conversation *c, const char *prefix, const char *why)
{
    for (;;) {
        const char *line = hear(c, why);
        if (!strncmp(line, prefix, strlen(prefix))) return line;
    }
}

static int end_conversation(conversation *c)
{
    say(c, "quit");
    close(c->to);
    close(c->from);
    int status;
    cr_assert_eq(waitpid(c->pid, &status, 0), c->pid);
    return status;
}

/* Searches of ten minutes, cut short: by stop N, by go's ms, by go's left,
 * and by the option ms; a stop for another request changes nothing. */
Test(protocol, engine_stop_and_the_time_of_go)
{
    int seat;
    char *view = first_view("mice-cake", 2, &seat);
    size_t size = strlen(view) + 64;
    char *view_line = malloc(size), newgame[128];
    snprintf(view_line, size, "view %s", view);
    snprintf(newgame, sizeof newgame, "newgame game mice-cake players 2 seat %d options", seat + 1);
    conversation c;
    converse(&c, "ismcts:ms=600000");
    say(&c, "protocol 2");
    hear_until(&c, "ready", "the handshake");
    say(&c, newgame);
    say(&c, view_line);
    say(&c, "go 1 move 1 ms 600000 left -1 rng 1 2 3 4");
    say(&c, "stop 1");
    hear_until(&c, "move 1 ", "stop 1 stops the search");
    say(&c, "go 2 move 1 ms 100 left -1 rng 1 2 3 4");
    hear_until(&c, "move 2 ", "the search stops at go's ms");
    say(&c, "go 3 move 1 ms 600000 left 100 rng 1 2 3 4");
    hear_until(&c, "move 3 ", "the search stops at go's left");
    say(&c, "go 4 move 1 ms 0 left 0 rng 1 2 3 4");
    hear_until(&c, "move 4 ", "ms 0: at once");
    say(&c, "stop 9");
    say(&c, "isready 5");
    cr_assert_str_eq(hear(&c, "isready"), "readyok 5", "a stale stop is no request");
    say(&c, "setoption name bot value ismcts:iters=2000000000");
    say(&c, "setoption name ms value 50");
    say(&c, newgame);
    say(&c, view_line);
    say(&c, "go 6 move 1 ms 600000 left -1 rng 1 2 3 4");
    hear_until(&c, "move 6 ", "option ms is the search's budget");
    int status = end_conversation(&c);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d", status);
    free(view_line);
    free(view);
}

/* ---- The views' schemas and the doc's sessions --------------------------------------------- */

static json_t *schema_of(const char *game)
{
    char path[1024], error[512];
    snprintf(path, sizeof path, "%s/docs/protocol/views/%s.schema.json", source_dir(), game);
    json_error_t parse;
    json_t *schema = json_load_file(path, 0, &parse);
    cr_assert_not_null(schema, "%s:%d: %s", path, parse.line, parse.text);
    cr_assert(json_schema_check(schema, error, sizeof error), "%s: %s", path, error);
    return schema;
}

/* Every view of every seat and of a spectator, at every step of random
 * games (inside moves too; of a run of chance steps, a deal, the first)
 * is valid against its game's schema; returns how many were checked. */
static long check_views(const json_t *schema, const char *game, int players, const char *options,
                        int games)
{
    gateau_setup *setup = support_setup(game, players, options);
    long checked = 0;
    char error[600];
    for (int g = 0; g < games; g++) {
        gateau_state *state = gateau_state_new(setup);
        gateau_rng rng;
        gateau_rng_seed_stream(&rng, 77, (uint64_t)(players * 100 + g));
        for (bool chance_before = false;;) {
            bool chance = gateau_state_is_chance(state);
            for (int seat = -1; seat < players && !(chance && chance_before); seat++) {
                char *text = gateau_state_view_json(state, seat);
                json_t *view = support_parse_view(text);
                cr_assert(json_schema_valid(schema, view, error, sizeof error),
                          "%s, %d players, game %d, seat %d: %s\n%s", game, players, g + 1,
                          seat + 1, error, text);
                json_decref(view);
                free(text);
                checked++;
            }
            if (gateau_state_is_over(state)) break;
            support_random_step(state, &rng);
            chance_before = chance;
        }
        gateau_state_free(state);
    }
    gateau_setup_free(setup);
    return checked;
}

Test(protocol, views_are_valid_against_their_schemas)
{
    for (int g = 0; g < gateau_game_count(); g++) {
        const gateau_game *game = gateau_game_at(g);
        const char *name = gateau_game_name(game);
        json_t *schema = schema_of(name);
        long checked = 0;
        int games = strcmp(name, "cake-master") ? 2 : 1; /* (its views are the largest) */
        for (int players = gateau_game_min_players(game); players <= gateau_game_max_players(game);
             players++)
            checked += check_views(schema, name, players, NULL, games);
        if (!strcmp(name, "piece-o-cake")) checked += check_views(schema, name, 3, "rounds=3", 1);
        cr_assert_gt(checked, 1000, "%s", name);

        /* And the schema says no to what a game never writes. */
        int seat;
        char *text = first_view(name, gateau_game_min_players(game), &seat);
        json_t *view = support_parse_view(text);
        char error[600];
        cr_assert(json_schema_valid(schema, view, error, sizeof error), "%s", error);
        json_object_set_new(view, "seat", json_integer(9));
        cr_assert_not(json_schema_valid(schema, view, error, sizeof error), "%s: seat 9", name);
        json_object_set_new(view, "seat", json_integer(seat + 1));
        json_object_set_new(view, "bogus", json_true());
        cr_assert_not(json_schema_valid(schema, view, error, sizeof error), "%s: bogus", name);
        cr_assert(strstr(error, "bogus: not allowed here"), "%s", error);
        json_object_del(view, "bogus");
        json_object_del(view, "phase");
        cr_assert_not(json_schema_valid(schema, view, error, sizeof error), "%s: no phase", name);
        json_decref(view);
        free(text);
        json_decref(schema);
    }
}

/* The sessions of docs/protocol/ are what the engine and the controller
 * say today (docs/protocol/make-sessions.sh writes them anew). */
Test(protocol, the_doc_sessions_are_current)
{
    const char *dir = support_temp_path("sessions");
    char command[2048];
    snprintf(command, sizeof command, "mkdir -p '%s' && sh '%s/docs/protocol/make-sessions.sh' '%s' '%s'",
             dir, source_dir(), binary(), dir);
    cr_assert_eq(system(command), 0, "%s", command);
    const char *sessions[] = {"piece-o-cake", "maries-table", "mice-cake", "cake-master", "engine"};
    for (size_t i = 0; i < sizeof sessions / sizeof sessions[0]; i++) {
        char made[1024], kept[1024];
        snprintf(made, sizeof made, "%s/%s.txt", dir, sessions[i]);
        snprintf(kept, sizeof kept, "%s/docs/protocol/%s.txt", source_dir(), sessions[i]);
        char *now = support_read_file(made), *doc = support_read_file(kept);
        cr_assert_str_eq(now, doc, "docs/protocol/%s.txt is out of date: run sh "
                         "docs/protocol/make-sessions.sh build/gateau", sessions[i]);
        free(now);
        free(doc);
    }
}
