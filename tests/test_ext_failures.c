/*
 * test_ext_failures.c: ext: programs that fail, in `gateau play` and
 * `gateau arena` (docs/protocol.md, "Failures" and "Processes"; serve's
 * are in test_server_failures.c).
 *
 * Each misbehaving program of tests/data/protocol (illegal, late, silent,
 * crash, segv, garbage, flood, closed output, ignores SIGTERM, a setsid
 * grandchild, a stderr flood) is played in both commands, with the
 * outcome the doc states: the failure line (game, move, exit status), the
 * fallback counted in the report, a forfeit that ends the game or the run
 * with the report of the games before, a program that cannot start that
 * stops the run at once with one line.  And after each, no process is
 * left: every process started for the test carries GATEAU_TEST_TAG in
 * its environment (gateau passes its environment on to the programs, and
 * they to theirs), and /proc must show none alive.
 */
#define _DEFAULT_SOURCE /* usleep */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gateau/arena.h"
#include "support.h"

TestSuite(ext, .init = support_temp_setup, .fini = support_temp_teardown, .timeout = 300);

/* ---- helpers ------------------------------------------------------------------------------ */

static const char *binary(void)
{
    const char *path = getenv("GATEAU_BINARY");
    cr_assert_not_null(path, "GATEAU_BINARY is set by ctest");
    return path;
}

static const char *source_dir(void)
{
    const char *dir = getenv("GATEAU_SOURCE_DIR");
    cr_assert_not_null(dir, "GATEAU_SOURCE_DIR is set by ctest");
    return dir;
}

/* The test's tag (support_process_tag), and on first use the short
 * names the commands run with in the test's folder (a --seats spec is
 * under 128 characters): p/ the test programs, g the gateau command. */
static const char *tag(void)
{
    static bool linked;
    if (!linked) {
        char programs[1024];
        snprintf(programs, sizeof programs, "%s/tests/data/protocol", source_dir());
        cr_assert_eq(symlink(programs, support_temp_path("p")), 0);
        cr_assert_eq(symlink(binary(), support_temp_path("g")), 0);
        linked = true;
    }
    return support_process_tag();
}

static void check_nothing_left(const char *what)
{
    const char *left = support_processes_left();
    cr_assert_str_empty(left, "%s: processes left behind: %s", what, left);
}

/* A test program's spec: "ext:SETTINGS/bin/sh p/NAME.sh ARGUMENTS", for
 * a command run in the test's folder (static storage, 4 in rotation). */
static const char *program(const char *settings, const char *name, const char *arguments)
{
    static char specs[4][1024];
    static int next;
    char *spec = specs[next++ % 4];
    tag();
    snprintf(spec, sizeof specs[0], "ext:%s/bin/sh p/%s.sh%s%s", settings, name,
             arguments ? " " : "", arguments ? arguments : "");
    cr_assert_lt(strlen(spec), 127, "a --seats spec is under 128 characters: %s", spec);
    return spec;
}

/* A file of the test's folder, its path kept in path (support_temp_path's
 * storage is reused after 8 calls). */
static const char *keep_path(char path[256], const char *name)
{
    snprintf(path, 256, "%s", support_temp_path(name));
    return path;
}

/* Runs gateau with arguments (a shell string) in the test's folder, its
 * stdout and stderr into files there; returns the exit status (128 + N
 * for signal N) and the two texts (malloc'd). */
static int run(const char *arguments, char **out, char **err)
{
    tag();
    char out_path[256], err_path[256];
    keep_path(out_path, "out");
    keep_path(err_path, "err");
    char command[4096];
    snprintf(command, sizeof command, "cd '%s' && ./g %s < /dev/null > out 2> err",
             support_temp_path(""), arguments);
    int status = system(command);
    *out = support_read_file(out_path);
    *err = support_read_file(err_path);
    cr_assert(WIFEXITED(status), "%s", command);
    int code = WEXITSTATUS(status);
    cr_assert_null(strstr(*err, "Sanitizer"), "gateau %s:\n%s", arguments, *err);
    cr_assert_null(strstr(*err, "runtime error"), "gateau %s:\n%s", arguments, *err);
    return code;
}

static int lines_of(const char *text) { return support_count_of(text, "\n"); }

/* Starts gateau with arguments in the background: its pid. */
static pid_t start(const char *arguments)
{
    tag();
    char command[4096];
    snprintf(command, sizeof command, "cd '%s' && exec ./g %s < /dev/null > out 2> err",
             support_temp_path(""), arguments);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", command, (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* Waits (bounded) until the file exists and is not empty. */
static void wait_for_file(const char *path)
{
    struct stat info;
    for (int tries = 0; tries < 1000; tries++) {
        if (stat(path, &info) == 0 && info.st_size > 0) return;
        usleep(10000);
    }
    cr_assert_fail("%s was not written", path);
}

/* Waits (bounded) for pid to exit: its status as run() gives it. */
static int wait_exit(pid_t pid)
{
    int status = 0;
    pid_t done = 0;
    for (int tries = 0; tries < 3000 && done == 0; tries++) {
        done = waitpid(pid, &status, WNOHANG);
        if (!done) usleep(10000);
    }
    if (!done) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        cr_assert_fail("gateau did not end");
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int read_pid(const char *path)
{
    char *text = support_read_file(path);
    int pid = atoi(text);
    free(text);
    cr_assert_gt(pid, 0, "%s holds a process id", path);
    return pid;
}

/* ---- specs ---------------------------------------------------------------------------------- */

Test(ext, unknown_settings_are_refused_and_quotes_keep_a_command)
{
    char error[512];
    const char *refused[][2] = {
        {"ext:foo=1:bot", "unknown setting 'foo'"},
        {"ext:ms=200:tiemout=5:bot", "unknown setting 'tiemout'"},
        {"ext:log=:bot", "log needs a file name"},
        {"ext:stderr=:bot", "stderr needs a file name"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        cr_assert_null(gateau_bot_new(refused[i][0], error, sizeof error), "%s", refused[i][0]);
        cr_assert(strstr(error, refused[i][1]), "%s: %s", refused[i][0], error);
        if (i < 2)
            cr_assert(strstr(error, "quoted"), "the error says how to pass such a command: %s",
                      error);
    }
    /* Made (nothing starts): a quoted first word, a command with ':' and
     * '=' further on, stderr=FILE. */
    const char *made[] = {"ext:'foo=1:bot'", "ext:gateau engine --bot ismcts:ms=50",
                          "ext:stderr=/tmp/bot.err:ms=50:bot", "ext:/usr/bin/env A=1 bot"};
    for (size_t i = 0; i < sizeof made / sizeof made[0]; i++) {
        gateau_bot *bot = gateau_bot_new(made[i], error, sizeof error);
        cr_assert_not_null(bot, "%s: %s", made[i], error);
        gateau_bot_free(bot);
    }
    /* The quoted word is the program's name, quotes removed. */
    gateau_bot *bot = gateau_bot_new("ext:'foo=1:bot'", error, sizeof error);
    cr_assert_not(gateau_bot_start(bot, 0, error, sizeof error));
    cr_assert(strstr(error, "cannot start foo=1:bot"), "%s", error);
    gateau_bot_free(bot);
}

/* ---- arena ----------------------------------------------------------------------------------- */

#define ARENA "arena piece-o-cake --players 2 --games 2 --threads 1 --seed 5"

/* An arena of 2 games between a program and the heuristic, the program
 * replaced by the heuristic from its failure on: the run ends well, its
 * failure lines name the game and the move, and the report counts it. */
static void check_arena_fallback(const char *name, const char *arguments, const char *logged)
{
    char arguments_text[2048], *out, *err;
    char json[256];
    keep_path(json, "report.json");
    snprintf(arguments_text, sizeof arguments_text, ARENA " --seats \"%s,heuristic\" --json %s",
             program("ms=200:start=5000:", name, arguments), json);
    cr_assert_eq(run(arguments_text, &out, &err), 0, "%s\n%s", out, err);
    cr_assert(strstr(err, logged), "%s: stderr says '%s':\n%s", name, logged, err);
    cr_assert(strstr(err, "gateau: game 1, move "), "%s: the game and move are said:\n%s", name,
              err);
    cr_assert(strstr(err, "the heuristic bot moves instead"), "%s", err);
    cr_assert(strstr(out, "Programs: failures"), "%s: the report says it:\n%s", name, out);
    json_error_t error;
    json_t *report = json_load_file(json, 0, &error);
    cr_assert_not_null(report, "%s", error.text);
    json_t *bot = json_array_get(json_object_get(report, "bots"), 0);
    cr_assert_geq(json_integer_value(json_object_get(bot, "failures")), 2, "%s: one a game",
                  name);
    cr_assert_gt(json_integer_value(json_object_get(bot, "fallbacks")), 0, "%s", name);
    json_t *seat = json_array_get(json_object_get(report, "seats"), 0);
    cr_assert_not_null(json_object_get(seat, "failures"), "%s: by seat too", name);
    json_decref(report);
    free(out);
    free(err);
    check_nothing_left(name);
}

Test(ext, arena_illegal) { check_arena_fallback("illegal", NULL, "illegal move 'dance a jig'"); }
Test(ext, arena_late) { check_arena_fallback("late", NULL, "no answer in time"); }
Test(ext, arena_crash)
{
    check_arena_fallback("crash", NULL, "the program ended or closed its output (exited with "
                                        "status 3)");
}
Test(ext, arena_segv) { check_arena_fallback("segv", NULL, "(killed by signal 11, SIGSEGV)"); }
Test(ext, arena_garbage) { check_arena_fallback("garbage", NULL, "illegal move"); }
Test(ext, arena_flood) { check_arena_fallback("flood", NULL, "a flood of output"); }

/* A closed output is noticed at once: with a budget of 60 s, the reason
 * is the closed output, not the deadline. */
Test(ext, arena_closed_output)
{
    char arguments[2048], *out, *err;
    snprintf(arguments, sizeof arguments, ARENA " --seats \"%s,heuristic\"",
             program("ms=60000:", "closed", NULL));
    cr_assert_eq(run(arguments, &out, &err), 0, "%s\n%s", out, err);
    cr_assert(strstr(err, "its output closed while it still ran"), "%s", err);
    cr_assert_null(strstr(err, "no answer in time"), "%s", err);
    free(out);
    free(err);
    check_nothing_left("closed");
}

/* A program that never says ready stops the run before its games, with
 * one line: no report, no file (an earlier one stays). */
Test(ext, arena_silent_program_stops_the_run_at_once)
{
    char json[256];
    keep_path(json, "kept.json");
    support_write_file(json, "{\"an\": \"earlier report\"}\n");
    char arguments[2048], *out, *err;
    snprintf(arguments, sizeof arguments, ARENA " --seats \"%s,heuristic\" --json %s",
             program("start=300:", "silent", NULL), json);
    cr_assert_eq(run(arguments, &out, &err), 1, "%s\n%s", out, err);
    cr_assert_eq(lines_of(err), 1, "one line:\n%s", err);
    cr_assert(strstr(err, "gateau: arena: seat 1 (ext:"), "%s", err);
    cr_assert(strstr(err, "no 'ready' after 'protocol 2': no answer in time"), "%s", err);
    cr_assert_null(strstr(out, "Bots:"), "no report:\n%s", out);
    char *kept = support_read_file(json);
    cr_assert_str_eq(kept, "{\"an\": \"earlier report\"}\n");
    free(kept);
    free(out);
    free(err);
    check_nothing_left("silent");
}

/* ext:/nonexistent/bot, a missing interpreter: one line, status 1, before
 * any game (it used to play the whole arena on the heuristic fallback). */
Test(ext, arena_program_that_cannot_start)
{
    const char *specs[] = {"ext:/nonexistent/bot", "ext:/usr/bin/nonexistent-python3 bot.py"};
    for (int i = 0; i < 2; i++) {
        char arguments[1024], *out, *err;
        snprintf(arguments, sizeof arguments, ARENA " --seats \"heuristic,%s\"", specs[i]);
        cr_assert_eq(run(arguments, &out, &err), 1, "%s\n%s", out, err);
        cr_assert_eq(lines_of(err), 1, "one line:\n%s", err);
        cr_assert(strstr(err, "seat 2 (") && strstr(err, ": cannot start ") &&
                      strstr(err, "No such file or directory"), "%s", err);
        cr_assert_null(strstr(out, "Bots:"), "%s", out);
        free(out);
        free(err);
    }
}

/* A forfeit in game 3: the run stops with status 1 and the line that says
 * why, and reports games 1 and 2, in the files too. */
Test(ext, arena_report_survives_a_forfeit)
{
    char json[256], csv[256];
    keep_path(json, "forfeit.json");
    keep_path(csv, "forfeit.csv");
    char flaky_arguments[512], arguments[2048], *out, *err;
    snprintf(flaky_arguments, sizeof flaky_arguments, "starts ./g");
    snprintf(arguments, sizeof arguments,
             "arena piece-o-cake --players 2 --games 6 --threads 1 --seed 5 --seats "
             "\"%s,heuristic\" --json %s --csv %s",
             program("onerror=forfeit:", "flaky", flaky_arguments), json, csv);
    cr_assert_eq(run(arguments, &out, &err), 1, "%s\n%s", out, err);
    cr_assert(strstr(err, "gateau: arena: game 3, move "), "%s", err);
    cr_assert(strstr(err, "forfeits: the program ended or closed its output (exited with status "
                          "3)"), "%s", err);
    cr_assert(strstr(out, "Stopped by a failure: the report covers games 1 to 2 of 6."), "%s",
              out);
    cr_assert(strstr(out, "Bots:"), "%s", out);
    cr_assert(strstr(out, "Not counted above: game 3, stopped: game 3, move "), "%s", out);
    json_error_t error;
    json_t *report = json_load_file(json, 0, &error);
    cr_assert_not_null(report, "%s", error.text);
    cr_assert_eq(json_integer_value(json_object_get(report, "games")), 2);
    const char *failure = json_string_value(json_object_get(report, "failure"));
    cr_assert(failure && strstr(failure, "game 3"), "%s", failure ? failure : "(none)");
    json_decref(report);
    char *text = support_read_file(csv);
    cr_assert(strstr(text, "arena,all,games,2\n") && strstr(text, "arena,all,failed,1\n"), "%s",
              text);
    free(text);
    free(out);
    free(err);
    check_nothing_left("flaky");
}

/* An arena that ends before its first game with a report (a forfeit in
 * game 1) writes no file: an earlier report is not truncated. */
Test(ext, arena_earlier_report_is_not_truncated)
{
    char json[256], csv[256];
    keep_path(json, "earlier.json");
    keep_path(csv, "earlier.csv");
    char arguments[2048], *out, *err;
    snprintf(arguments, sizeof arguments,
             "arena mice-cake --players 2 --games 2 --seed 3 --seats random,heuristic --json %s "
             "--csv %s", json, csv);
    cr_assert_eq(run(arguments, &out, &err), 0, "%s", err);
    free(out);
    free(err);
    char *json_before = support_read_file(json), *csv_before = support_read_file(csv);
    snprintf(arguments, sizeof arguments,
             ARENA " --seats \"%s,heuristic\" --json %s --csv %s",
             program("onerror=forfeit:ms=200:", "illegal", NULL), json, csv);
    cr_assert_eq(run(arguments, &out, &err), 1, "%s\n%s", out, err);
    cr_assert(strstr(err, "game 1, move ") && strstr(err, "forfeits: illegal move"), "%s", err);
    cr_assert(strstr(out, "No game finished."), "%s", out);
    char *json_after = support_read_file(json), *csv_after = support_read_file(csv);
    cr_assert_str_eq(json_after, json_before);
    cr_assert_str_eq(csv_after, csv_before);
    /* No temporary file is left beside them either. */
    DIR *folder = opendir(support_temp_path(""));
    struct dirent *entry;
    while ((entry = readdir(folder)))
        cr_assert_null(strstr(entry->d_name, ".tmp-"), "%s left", entry->d_name);
    closedir(folder);
    free(json_before), free(csv_before), free(json_after), free(csv_after), free(out), free(err);
    check_nothing_left("illegal");
}

/* The program's standard error: past 64 KiB dropped with one note, or all
 * of it appended to stderr=FILE. */
Test(ext, arena_stderr_flood_is_bounded)
{
    char arguments[2048], *out, *err;
    snprintf(arguments, sizeof arguments, ARENA " --seats \"%s,heuristic\"",
             program("", "stderr_flood", "./g"));
    cr_assert_eq(run(arguments, &out, &err), 0, "%s\n%s", out, err);
    cr_assert_lt(strlen(err), 4 * 64 * 1024, "2 MB a run, passed through %zu bytes",
                 strlen(err));
    cr_assert_eq(support_count_of(err, "its standard error passed 64 KiB: the rest is dropped"),
                 3, "a note for each run (the check and two games):\n%.300s", err);
    free(out);
    free(err);
    char file[256];
    keep_path(file, "bot.err");
    char settings[512];
    snprintf(settings, sizeof settings, "stderr=%s:", file);
    snprintf(arguments, sizeof arguments, ARENA " --seats \"%s,heuristic\"",
             program(settings, "stderr_flood", "./g"));
    cr_assert_eq(run(arguments, &out, &err), 0, "%s\n%s", out, err);
    cr_assert_eq(strlen(err), 0, "%s", err);
    struct stat info;
    cr_assert_eq(stat(file, &info), 0);
    cr_assert_eq(info.st_size, 3 * 2000000, "appended, every run");
    free(out);
    free(err);
    check_nothing_left("stderr_flood");
}

/* A grandchild in a session of its own is found and killed with its bot. */
Test(ext, arena_setsid_grandchild_is_killed)
{
    char pid_file[256];
    keep_path(pid_file, "grandchild");
    char bot_arguments[512], arguments[2048], *out, *err;
    snprintf(bot_arguments, sizeof bot_arguments, "%s %s", pid_file, "./g");
    snprintf(arguments, sizeof arguments, ARENA " --games 1 --seats \"%s,heuristic\"",
             program("", "setsid", bot_arguments));
    cr_assert_eq(run(arguments, &out, &err), 0, "%s\n%s", out, err);
    cr_assert_null(strstr(err, "gateau: "), "the program played: %s", err);
    cr_assert_not(support_pid_alive(read_pid(pid_file)), "the setsid grandchild is gone");
    free(out);
    free(err);
    check_nothing_left("setsid");
}

/* SIGTERM to the arena: its programs go with it, also one that ignores
 * SIGTERM. */
Test(ext, arena_sigterm_kills_a_program_that_ignores_it)
{
    char pid_file[256];
    keep_path(pid_file, "stubborn");
    char arguments[2048];
    snprintf(arguments, sizeof arguments, ARENA " --seats \"%s,heuristic\"",
             program("ms=60000:", "stubborn", pid_file));
    pid_t gateau = start(arguments);
    wait_for_file(pid_file); /* (the check before the games) */
    kill(gateau, SIGTERM);
    cr_assert_eq(wait_exit(gateau), 128 + SIGTERM);
    cr_assert_not(support_pid_alive(read_pid(pid_file)));
    check_nothing_left("stubborn");
}

/* ---- play ------------------------------------------------------------------------------------ */

#define PLAY "play piece-o-cake --players 2 --seed 5"

/* A game between the heuristic and a program the heuristic replaces from
 * its failure on: it ends, and says so with the move. */
static void check_play_fallback(const char *name, const char *arguments, const char *logged)
{
    char arguments_text[2048], *out, *err;
    snprintf(arguments_text, sizeof arguments_text, PLAY " --seats \"heuristic,%s\"",
             program("ms=200:start=5000:", name, arguments));
    cr_assert_eq(run(arguments_text, &out, &err), 0, "%s\n%s", out, err);
    cr_assert(strstr(out, "Final scores:"), "%s", out);
    cr_assert(strstr(err, logged), "%s: stderr says '%s':\n%s", name, logged, err);
    cr_assert(strstr(err, "gateau: move "), "%s: the move is said:\n%s", name, err);
    cr_assert(strstr(out, "Seat 2 (ext:") && strstr(out, "the heuristic made"), "%s", out);
    free(out);
    free(err);
    check_nothing_left(name);
}

Test(ext, play_illegal) { check_play_fallback("illegal", NULL, "illegal move 'dance a jig'"); }
Test(ext, play_late) { check_play_fallback("late", NULL, "no answer in time"); }
Test(ext, play_crash) { check_play_fallback("crash", NULL, "(exited with status 3)"); }
Test(ext, play_garbage) { check_play_fallback("garbage", NULL, "illegal move"); }
Test(ext, play_flood) { check_play_fallback("flood", NULL, "a flood of output"); }
Test(ext, play_closed_output)
{
    char arguments[2048], *out, *err;
    snprintf(arguments, sizeof arguments, PLAY " --seats \"heuristic,%s\"",
             program("ms=60000:", "closed", NULL));
    cr_assert_eq(run(arguments, &out, &err), 0, "%s\n%s", out, err);
    cr_assert(strstr(err, "its output closed while it still ran"), "%s", err);
    free(out);
    free(err);
    check_nothing_left("closed");
}

/* onerror=forfeit: the game ends at the failure (it used to loop
 * forever), with status 3, one line saying why, and its record. */
Test(ext, play_forfeit_ends_the_game_with_its_record)
{
    char record[256];
    keep_path(record, "forfeit.txt");
    char arguments[2048], *out, *err;
    snprintf(arguments, sizeof arguments, PLAY " --seats \"heuristic,%s\" --record %s",
             program("onerror=forfeit:ms=200:", "illegal", NULL), record);
    cr_assert_eq(run(arguments, &out, &err), 3, "%s\n%s", out, err);
    cr_assert_eq(lines_of(err), 1, "%s", err);
    cr_assert(strstr(err, "gateau: play: move ") &&
                  strstr(err, "seat 2 (ext:") && strstr(err, "forfeits: illegal move"), "%s", err);
    cr_assert(strstr(out, "Game stopped."), "%s", out);
    cr_assert_lt(strlen(out), 20000, "no loop: %zu bytes", strlen(out));
    char *text = support_read_file(record);
    cr_assert(strstr(text, "---\n"), "%s", text);
    free(text);
    /* The record reads back: a game stopped before its end. */
    char replay[512], *replayed, *replay_err;
    snprintf(replay, sizeof replay, "replay %s --json", record);
    cr_assert_eq(run(replay, &replayed, &replay_err), 0, "%s", replay_err);
    cr_assert(strstr(replayed, "\"terminal\":false"), "%s", replayed);
    free(replayed), free(replay_err), free(out), free(err);
    check_nothing_left("illegal");
}

Test(ext, play_program_that_cannot_start_or_answer)
{
    const char *specs[] = {"ext:/nonexistent/bot", program("start=300:", "silent", NULL)};
    const char *said[] = {"cannot start /nonexistent/bot: No such file or directory",
                          "no 'ready' after 'protocol 2'"};
    for (int i = 0; i < 2; i++) {
        char arguments[2048], *out, *err;
        snprintf(arguments, sizeof arguments, PLAY " --seats \"human,%s\"", specs[i]);
        cr_assert_eq(run(arguments, &out, &err), 1, "%s\n%s", out, err);
        cr_assert_eq(lines_of(err), 1, "%s", err);
        cr_assert(strstr(err, "gateau: play: seat 2 (ext:") && strstr(err, said[i]), "%s", err);
        cr_assert_null(strstr(out, "seat 1>"), "nothing asked of the human:\n%s", out);
        free(out);
        free(err);
    }
    check_nothing_left("silent");
}

Test(ext, play_setsid_grandchild_and_stderr_flood)
{
    char pid_file[256];
    keep_path(pid_file, "grandchild");
    char bot_arguments[512], arguments[2048], *out, *err;
    snprintf(bot_arguments, sizeof bot_arguments, "%s %s", pid_file, "./g");
    snprintf(arguments, sizeof arguments, PLAY " --seats \"heuristic,%s\"",
             program("", "setsid", bot_arguments));
    cr_assert_eq(run(arguments, &out, &err), 0, "%s\n%s", out, err);
    cr_assert_not(support_pid_alive(read_pid(pid_file)), "the setsid grandchild is gone");
    free(out);
    free(err);
    snprintf(arguments, sizeof arguments, PLAY " --seats \"heuristic,%s\"",
             program("", "stderr_flood", "./g"));
    cr_assert_eq(run(arguments, &out, &err), 0, "%s\n%s", out, err);
    cr_assert_lt(strlen(err), 2 * 64 * 1024, "%zu bytes", strlen(err));
    cr_assert_eq(support_count_of(err, "its standard error passed 64 KiB"), 1, "%.300s", err);
    free(out);
    free(err);
    check_nothing_left("setsid, stderr_flood");
}

Test(ext, play_sigterm_kills_a_program_that_ignores_it)
{
    char pid_file[256];
    keep_path(pid_file, "stubborn");
    char arguments[2048];
    snprintf(arguments, sizeof arguments, PLAY " --seats \"%s,heuristic\"",
             program("ms=60000:", "stubborn", pid_file));
    pid_t gateau = start(arguments);
    wait_for_file(pid_file);
    kill(gateau, SIGTERM);
    cr_assert_eq(wait_exit(gateau), 128 + SIGTERM);
    cr_assert_not(support_pid_alive(read_pid(pid_file)));
    check_nothing_left("stubborn");
}

/* ---- part files carry the counts ------------------------------------------------------------ */

Test(ext, part_lines_carry_failures_and_fallbacks)
{
    gateau_arena_game game = {.scores = {40, 50}, .winners = 2, .moves = 21, .actions = 30,
                              .failures = {1, 0}, .fallbacks = {9, 0}};
    char line[GATEAU_ARENA_PART_LINE_SIZE];
    gateau_arena_part_line(0, &game, 2, line);
    cr_assert_str_eq(line, "1 40,50 2 21 30 failures 1,0 fallbacks 9,0\n");
    game.failures[0] = game.fallbacks[0] = 0;
    gateau_arena_part_line(0, &game, 2, line);
    cr_assert_str_eq(line, "1 40,50 2 21 30\n", "none: the line as it always was");
    const char *header = "gateau arena part 1\ngame mice-cake\nplayers 2\noptions\n"
                         "bot 1 ext:bot\nbot 2 heuristic\nseed 1\ngames 3\nshard 1/1\n"
                         "columns game scores winners moves actions\n";
    char text[2048];
    snprintf(text, sizeof text, "%s1 40,50 2 21 30 failures 1,0 fallbacks 9,0\n", header);
    gateau_arena_part part;
    char error[256];
    int at;
    cr_assert(gateau_arena_part_read(text, strlen(text), &part, error, sizeof error, &at), "%s",
              error);
    cr_assert_eq(part.games[0].result.failures[0], 1);
    cr_assert_eq(part.games[0].result.fallbacks[0], 9);
    gateau_arena_part_free(&part);
    snprintf(text, sizeof text, "%s1 40,50 2 21 30 failures 0,0 fallbacks 0,0\n", header);
    cr_assert_not(gateau_arena_part_read(text, strlen(text), &part, error, sizeof error, &at));
    cr_assert(strstr(error, "not all 0"), "%s", error);
}
