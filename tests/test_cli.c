/*
 * test_cli.c: the `gateau` command, run as a program (support_run): games,
 * rules, random, replay, play driven through stdin, and the errors of each.
 *
 * stdin and stdout are never terminals here, so `play` reads plain lines
 * and writes plain text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commit.h" /* GATEAU_COMMIT, as gateau was built with it */

#include "support.h"

/* ---- helpers ---------------------------------------------------------------- */

/* A fresh folder per test (each Criterion test runs in its own process). */
TestSuite(cli, .init = support_temp_setup, .fini = support_temp_teardown, .timeout = 300);

/* support_run plus the crash checks. */
static int run(const char *arguments, const char *input, char **out)
{
    int status = support_run(arguments, input, out);
    support_check_no_crash(status, *out, arguments);
    return status;
}

/* Runs gateau with stdout and stderr apart. */
static int run_split(const char *arguments, const char *input, char **out, char **err)
{
    const char *binary = getenv("GATEAU_BINARY");
    cr_assert_not_null(binary, "GATEAU_BINARY is set by ctest");
    char in[256], out_path[256], err_path[256];
    snprintf(in, sizeof in, "%s", support_temp_path("stdin.txt"));
    snprintf(out_path, sizeof out_path, "%s", support_temp_path("stdout.txt"));
    snprintf(err_path, sizeof err_path, "%s", support_temp_path("stderr.txt"));
    support_write_file(in, input ? input : "");
    size_t length = strlen(binary) + strlen(arguments) + 3 * 256 + 32;
    char *command = malloc(length);
    snprintf(command, length, "%s %s < %s > %s 2> %s", binary, arguments, in, out_path, err_path);
    int status = system(command);
    free(command);
    *out = support_read_file(out_path);
    *err = support_read_file(err_path);
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    support_check_no_crash(code, *err, arguments);
    return code;
}

/* The output is exactly one line. */
static void expect_one_line(const char *output, const char *arguments)
{
    size_t length = strlen(output);
    cr_expect(length > 1 && output[length - 1] == '\n' && !memchr(output, '\n', length - 1),
              "gateau %s: expected one line, got:\n%s", arguments, output);
}

static json_t *parse_json(const char *text)
{
    json_error_t error;
    json_t *value = json_loads(text, JSON_DECODE_ANY, &error);
    cr_assert_not_null(value, "not JSON (%s):\n%s", error.text, text);
    return value;
}

/* `gateau replay PATH --json`, which must succeed: the parsed object. */
static json_t *replay_json(const char *path)
{
    char arguments[300], *out;
    snprintf(arguments, sizeof arguments, "replay %s --json", path);
    int status = run(arguments, NULL, &out);
    cr_assert_eq(status, 0, "gateau %s exit %d:\n%s", arguments, status, out);
    expect_one_line(out, arguments);
    json_t *result = parse_json(out);
    free(out);
    return result;
}

static json_int_t json_int_field(json_t *object, const char *key)
{
    json_t *value = json_object_get(object, key);
    cr_assert(json_is_integer(value), "'%s' is an integer", key);
    return json_integer_value(value);
}

/* The move lines of a record text: after '---', neither blank nor comment. */
static int move_lines(const char *text)
{
    const char *p = strstr(text, "\n---\n");
    cr_assert_not_null(p);
    p += 5;
    int count = 0;
    while (*p) {
        const char *end = strchr(p, '\n');
        size_t length = end ? (size_t)(end - p) : strlen(p);
        size_t i = 0;
        while (i < length && (p[i] == ' ' || p[i] == '\t')) i++;
        if (i < length && p[i] != '#') count++;
        p += length + (end ? 1 : 0);
    }
    return count;
}

/* An input stream that always makes progress in a 2-player piece o' Cake
 * game: a cut where a cut is asked for, a pass where a choice is (a
 * refused line only prompts again). */
static char *progress_script(int repeats)
{
    size_t size = (size_t)repeats * 16 + 1;
    char *script = malloc(size);
    script[0] = '\0';
    for (int i = 0; i < repeats; i++) strcat(script, "cut 1-11\npass\n");
    return script;
}

/* ---- games, rules, version ---------------------------------------------------- */

Test(cli, games_lists_the_registry)
{
    char *out;
    cr_assert_eq(run("games", NULL, &out), 0);
    cr_assert_not_null(strstr(out, "piece-o-cake"), "%s", out);
    cr_assert_not_null(strstr(out, "piece o' Cake"), "%s", out);
    cr_assert_not_null(strstr(out, "2-5 players"), "%s", out);
    cr_assert_not_null(strstr(out, "rounds=1"), "%s", out);
    cr_assert_eq(support_count_of(out, "\n"), gateau_game_count(), "one line per game:\n%s", out);
    for (int i = 0; i < gateau_game_count(); i++)
        cr_assert_not_null(strstr(out, gateau_game_name(gateau_game_at(i))));
    free(out);
}

Test(cli, rules_prints_a_summary)
{
    char *out;
    cr_assert_eq(run("rules piece-o-cake", NULL, &out), 0);
    const char *summary = gateau_game_summary(gateau_game_find("piece-o-cake"));
    cr_assert_eq(strncmp(out, summary, strlen(summary)), 0, "the summary first:\n%s", out);
    cr_assert_not_null(strstr(out, "option rounds"), "the options are explained:\n%s", out);
    /* The key to the letters and their values, between the two (issue 14). */
    char *key = gateau_game_key(gateau_game_find("piece-o-cake"));
    const char *at = strstr(out, "\nKey:\n");
    cr_assert_not_null(at, "a key:\n%s", out);
    cr_expect_eq(strncmp(at + 6, key, strlen(key)), 0, "the game's key:\n%s", out);
    cr_expect_lt(at, strstr(out, "option rounds"));
    free(key);
    free(out);
}

Test(cli, rules_of_an_unknown_game)
{
    char *out, *err;
    int status = run_split("rules nosuch", NULL, &out, &err);
    cr_assert_eq(status, 1);
    cr_assert_str_eq(out, "");
    cr_assert_not_null(strstr(err, "unknown game"), "%s", err);
    cr_assert_not_null(strstr(err, "nosuch"), "%s", err);
    cr_assert_not_null(strstr(err, "piece-o-cake"), "the known games are listed: %s", err);
    expect_one_line(err, "rules nosuch");
    free(out), free(err);
}

Test(cli, version_and_help)
{
    char *out;
    /* The version and the commit the build comes from (CMake's git
     * describe, or "unknown"), the same for both spellings. */
    cr_assert_eq(run("version", NULL, &out), 0);
    cr_assert_str_eq(out, "gateau " GATEAU_VERSION " (commit " GATEAU_COMMIT ")\n");
    free(out);
    cr_assert_eq(run("--version", NULL, &out), 0);
    cr_assert_str_eq(out, "gateau " GATEAU_VERSION " (commit " GATEAU_COMMIT ")\n");
    cr_assert_neq(strcmp(GATEAU_COMMIT, ""), 0);
    free(out);
    cr_assert_eq(run("help", NULL, &out), 0);
    cr_assert_not_null(strstr(out, "usage"));
    cr_assert_not_null(strstr(out, "replay"));
    cr_assert_not_null(strstr(out, "Exit status: 0 done; 1 bad data"), "%s", out);
    free(out);
    /* Each command's own usage, and where to read more. */
    const char *commands[][2] = {{"play", "--seats"}, {"arena", "--games"},
                                 {"engine", "docs/protocol.md"}, {"replay", "--json"},
                                 {"hint", "--seat"}, {"tables", "backup"}};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        char arguments[64];
        snprintf(arguments, sizeof arguments, "%s --help", commands[i][0]);
        cr_assert_eq(run(arguments, NULL, &out), 0, "gateau %s: %s", arguments, out);
        cr_assert(strstr(out, commands[i][1]) && strstr(out, "More: "), "gateau %s: %s", arguments,
                  out);
        cr_assert_null(strstr(out, "\n  games "), "gateau %s: only its own lines: %s", arguments,
                       out);
        free(out);
    }
    /* No command at all: the usage, as an error. */
    cr_assert_eq(run("", NULL, &out), 2);
    cr_assert_not_null(strstr(out, "usage"));
    free(out);
}

/* ---- random and replay ------------------------------------------------------- */

Test(cli, random_is_deterministic_and_replays)
{
    char *first, *second;
    const char *arguments = "random piece-o-cake --players 3 --seed 7";
    cr_assert_eq(run(arguments, NULL, &first), 0, "%s", first);
    cr_assert_eq(run(arguments, NULL, &second), 0);
    cr_assert_str_eq(first, second, "the same seed gives the same game");
    cr_assert_not_null(strstr(first, "game: piece-o-cake\n"), "%s", first);
    cr_assert_not_null(strstr(first, "players: 3\n"), "%s", first);
    cr_assert_null(strchr(first, '\033'));

    const char *path = support_temp_path("random.txt");
    support_write_file(path, first);
    json_t *result = replay_json(path);
    cr_assert_str_eq(json_string_value(json_object_get(result, "game")), "piece-o-cake");
    cr_assert_eq(json_int_field(result, "players"), 3);
    cr_assert(json_is_true(json_object_get(result, "terminal")), "a random game is played out");
    json_t *scores = json_object_get(result, "scores");
    cr_assert(json_is_array(scores));
    cr_assert_eq(json_array_size(scores), 3);
    json_t *winners = json_object_get(result, "winners");
    cr_assert(json_is_array(winners));
    cr_assert_geq(json_array_size(winners), 1);
    /* Winners are 1-based seats with the best score. */
    json_int_t best = 0;
    for (size_t i = 0; i < 3; i++)
        if (json_integer_value(json_array_get(scores, i)) > best)
            best = json_integer_value(json_array_get(scores, i));
    for (size_t i = 0; i < json_array_size(winners); i++) {
        json_int_t seat = json_integer_value(json_array_get(winners, i));
        cr_assert(seat >= 1 && seat <= 3, "winner seat %lld", (long long)seat);
        cr_assert_eq(json_integer_value(json_array_get(scores, (size_t)seat - 1)), best);
    }
    cr_assert_eq(json_int_field(result, "moves"), move_lines(first));

    /* The engine agrees on the scores. */
    char error[512] = "";
    int line = 0;
    gateau_record *record = gateau_record_read(first, NULL, error, sizeof error, &line);
    cr_assert_not_null(record, "%s at %d", error, line);
    int expected[GATEAU_MAX_PLAYERS];
    gateau_state_scores(gateau_record_state(record), expected);
    for (size_t i = 0; i < 3; i++)
        cr_assert_eq(json_integer_value(json_array_get(scores, i)), expected[i]);
    gateau_record_free(record);
    json_decref(result);

    /* Another seed, another game. */
    char *other;
    cr_assert_eq(run("random piece-o-cake --players 3 --seed 8", NULL, &other), 0);
    cr_assert_str_neq(other, first);
    free(first), free(second), free(other);
}

Test(cli, random_every_player_count_and_rounds)
{
    for (int players = 2; players <= 5; players++) {
        char arguments[128], *out;
        snprintf(arguments, sizeof arguments,
                 "random piece-o-cake --players %d --seed %d --options rounds=2", players,
                 players * 11);
        cr_assert_eq(run(arguments, NULL, &out), 0, "%s", out);
        cr_assert_not_null(strstr(out, "options: rounds=2\n"), "%s", out);
        const char *path = support_temp_path("game.txt");
        support_write_file(path, out);
        json_t *result = replay_json(path);
        cr_assert_eq(json_int_field(result, "players"), players);
        cr_assert(json_is_true(json_object_get(result, "terminal")));
        cr_assert_eq(json_array_size(json_object_get(result, "scores")), (size_t)players);
        cr_assert_eq(json_int_field(result, "moves"), move_lines(out));
        json_decref(result);
        free(out);
    }
}

Test(cli, replay_json_keys_in_order)
{
    char *record;
    cr_assert_eq(run("random piece-o-cake --players 2 --seed 5", NULL, &record), 0);
    const char *path = support_temp_path("game.txt");
    support_write_file(path, record);
    char arguments[300], *out;
    snprintf(arguments, sizeof arguments, "replay %s --json", path);
    cr_assert_eq(run(arguments, NULL, &out), 0, "%s", out);
    expect_one_line(out, arguments);
    json_t *result = parse_json(out);
    cr_assert(json_is_object(result));
    cr_assert_eq(json_object_size(result), 6, "exactly six keys:\n%s", out);
    static const char *const keys[] = {"\"game\"", "\"players\"", "\"terminal\"",
                                       "\"scores\"", "\"winners\"", "\"moves\""};
    const char *previous = out;
    for (size_t i = 0; i < 6; i++) {
        const char *at = strstr(out, keys[i]);
        cr_assert_not_null(at, "key %s in %s", keys[i], out);
        cr_assert(i == 0 || at > previous, "key %s comes after the one before:\n%s", keys[i],
                  out);
        previous = at;
    }
    cr_assert_eq(out[0], '{');
    cr_assert_eq(strncmp(out + 1, "\"game\"", 6), 0, "game first: %s", out);
    json_decref(result);
    free(out), free(record);
}

Test(cli, replay_of_a_game_in_progress)
{
    const char *path = support_temp_path("part.txt");
    support_write_file(path, "# unfinished\ngame: piece-o-cake\nplayers: 2\nnames: Ann, Bob\n---\n"
                     "deal PPPAAAARRRRRBBBBBBBKKKKKKKKGGGGGGGGGSSSSSSSSSSCCCCCCCCCCC\n"
                     "cut 1-3 4-11\n"
                     "take 4-11 cccccccc\n");
    json_t *result = replay_json(path);
    cr_assert(json_is_false(json_object_get(result, "terminal")));
    cr_assert_eq(json_array_size(json_object_get(result, "winners")), 0, "no winners yet");
    cr_assert_eq(json_int_field(result, "moves"), 3);
    json_decref(result);
    /* The text form says so and uses the names. */
    char arguments[300], *out;
    snprintf(arguments, sizeof arguments, "replay %s", path);
    cr_assert_eq(run(arguments, NULL, &out), 0, "%s", out);
    cr_assert_not_null(strstr(out, "in progress"), "%s", out);
    cr_assert_not_null(strstr(out, "Bob"), "%s", out);
    cr_assert_null(strchr(out, '\033'), "replay writes no colors to a pipe");
    free(out);
}

Test(cli, replay_text_of_a_finished_game)
{
    char *record;
    cr_assert_eq(run("random piece-o-cake --players 4 --seed 21", NULL, &record), 0);
    const char *path = support_temp_path("game.txt");
    support_write_file(path, record);
    char arguments[300], *out;
    snprintf(arguments, sizeof arguments, "replay %s", path);
    cr_assert_eq(run(arguments, NULL, &out), 0, "%s", out);
    cr_assert_not_null(strstr(out, "the game is over"), "%s", out);
    cr_assert_not_null(strstr(out, "Winner"), "%s", out);
    cr_assert_null(strchr(out, '\033'));
    free(out), free(record);
}

/* A record that is illegal at `line`, through replay with and without --json. */
static void check_illegal_record(const char *text, int line, const char *fragment)
{
    const char *path = support_temp_path("bad.txt");
    support_write_file(path, text);
    char arguments[300], *out, *err;
    snprintf(arguments, sizeof arguments, "replay %s --json", path);
    int status = run_split(arguments, NULL, &out, &err);
    cr_assert_eq(status, 1, "%s: exit %d\n%s%s", arguments, status, out, err);
    expect_one_line(out, arguments);
    json_t *result = parse_json(out);
    cr_assert(json_is_object(result));
    cr_assert_eq(json_object_size(result), 2, "only error and line: %s", out);
    json_t *error = json_object_get(result, "error");
    cr_assert(json_is_string(error), "%s", out);
    cr_assert_gt(strlen(json_string_value(error)), 0);
    if (fragment)
        cr_expect_not_null(strstr(json_string_value(error), fragment), "'%s' should mention '%s'",
                           json_string_value(error), fragment);
    cr_expect_eq(json_int_field(result, "line"), line, "line %lld, expected %d: %s",
                 (long long)json_int_field(result, "line"), line, out);
    cr_assert_eq(strncmp(out, "{\"error\"", 8), 0, "error comes first: %s", out);
    json_decref(result);
    free(out), free(err);

    snprintf(arguments, sizeof arguments, "replay %s", path);
    status = run_split(arguments, NULL, &out, &err);
    cr_assert_eq(status, 1);
    cr_assert_str_eq(out, "", "the message goes to stderr, not stdout");
    expect_one_line(err, arguments);
    char where[300];
    if (line > 0) snprintf(where, sizeof where, "%s:%d:", path, line);
    else snprintf(where, sizeof where, "%s:", path);
    cr_expect_not_null(strstr(err, where), "stderr should name %s: %s", where, err);
    if (fragment)
        cr_expect_not_null(strstr(err, fragment), "'%s' should mention '%s'", err, fragment);
    free(out), free(err);
}

#define DEAL "deal PPPAAAARRRRRBBBBBBBKKKKKKKKGGGGGGGGGSSSSSSSSSSCCCCCCCCCCC"

Test(cli, illegal_records_name_the_line)
{
    check_illegal_record("game: piece-o-cake\nplayers: 2\n---\n" DEAL "\ncut 1-12\n", 5, "1-12");
    check_illegal_record("# a comment\n\ngame: piece-o-cake\n\nplayers: 2\n---\n# deal next\n"
                         DEAL "\n\ncut 1-11\n# pass\n2: pass\n2: pass\n",
                         13, "seat 1");
    check_illegal_record("game: piece-o-cake\nplayers: 2\nseed: 3\n---\n", 3, "seed");
    check_illegal_record("game: piece-o-cake\nplayers: 2\n", 0, "---");
    check_illegal_record("game: piece-o-cake\nplayers: 2\n---\n1: " DEAL "\n", 4, "chance");
}

Test(cli, replay_of_a_missing_file)
{
    char *out, *err;
    int status = run_split("replay /nonexistent/gateau.txt", NULL, &out, &err);
    cr_assert_eq(status, 1);
    expect_one_line(err, "replay /nonexistent/gateau.txt");
    cr_assert_not_null(strstr(err, "/nonexistent/gateau.txt"), "%s", err);
    free(out), free(err);
    status = run_split("replay /nonexistent/gateau.txt --json", NULL, &out, &err);
    cr_assert_eq(status, 1);
    json_t *result = parse_json(out);
    cr_assert_eq(json_int_field(result, "line"), 0);
    cr_assert(json_is_string(json_object_get(result, "error")));
    json_decref(result);
    free(out), free(err);
}

Test(cli, replay_of_a_binary_file)
{
    const char *path = support_temp_path("binary.dat");
    FILE *file = fopen(path, "wb");
    cr_assert_not_null(file);
    for (int i = 0; i < 3000; i++) fputc((i * 131) & 0xff, file);
    fclose(file);
    char arguments[300], *out, *err;
    snprintf(arguments, sizeof arguments, "replay %s", path);
    cr_assert_eq(run_split(arguments, NULL, &out, &err), 1);
    expect_one_line(err, arguments);
    free(out), free(err);
    snprintf(arguments, sizeof arguments, "replay %s --json", path);
    cr_assert_eq(run_split(arguments, NULL, &out, &err), 1);
    json_t *result = parse_json(out);
    cr_assert(json_is_string(json_object_get(result, "error")));
    json_decref(result);
    free(out), free(err);
}

/* Issue 14: standard input, directories, byte-order marks, and errors
 * that quote bytes which are not text. */
Test(cli, replay_reads_stdin_and_refuses_directories)
{
    char *record, *out, *err;
    cr_assert_eq(support_run("random mice-cake --seed 3", NULL, &record), 0);
    cr_assert_eq(run_split("replay - --json", record, &out, &err), 0, "%s", err);
    json_t *result = parse_json(out);
    cr_assert(json_is_true(json_object_get(result, "terminal")));
    json_decref(result);
    free(out), free(err);
    /* The same record with a UTF-8 byte-order mark in front. */
    size_t length = strlen(record);
    char *marked = malloc(length + 4);
    memcpy(marked, "\xef\xbb\xbf", 3);
    memcpy(marked + 3, record, length + 1);
    cr_assert_eq(run_split("replay -", marked, &out, &err), 0, "%s", err);
    free(out), free(err), free(marked), free(record);
    char arguments[512];
    snprintf(arguments, sizeof arguments, "replay %s", support_temp_path(""));
    cr_assert_eq(run_split(arguments, NULL, &out, &err), 1);
    cr_assert(strstr(err, "is a directory"), "%s", err);
    expect_one_line(err, arguments);
    free(out), free(err);
}

Test(cli, errors_quoting_bad_bytes_stay_text)
{
    const char *path = support_temp_path("bad-bytes.txt");
    FILE *file = fopen(path, "wb");
    cr_assert_not_null(file);
    fputs("g\xffme: x\n\x1b[2J: y\n---\n", file);
    fclose(file);
    char arguments[512], *out, *err;
    snprintf(arguments, sizeof arguments, "replay %s --json", path);
    cr_assert_eq(run_split(arguments, NULL, &out, &err), 1);
    json_t *result = parse_json(out); /* valid JSON, not "(null)" */
    cr_assert_str_eq(json_string_value(json_object_get(result, "error")),
                     "unknown header key 'g\\xffme'");
    json_decref(result);
    free(out), free(err);
    file = fopen(path, "wb");
    fputs("\x1b[2J: y\n---\n", file);
    fclose(file);
    snprintf(arguments, sizeof arguments, "replay %s", path);
    cr_assert_eq(run_split(arguments, NULL, &out, &err), 1);
    cr_assert_null(strchr(err, '\x1b'), "no escape sequence reaches the terminal: %s", err);
    cr_assert(strstr(err, "\\x1b"), "%s", err);
    free(out), free(err);
}

/* ---- usage errors ------------------------------------------------------------- */

Test(cli, usage_errors_are_one_line_never_a_crash)
{
    static const struct {
        const char *arguments;
        int status; /* 2 for usage, 1 for a refused value */
        const char *fragment;
    } cases[] = {
        {"frobnicate", 2, "frobnicate"},
        {"--frobnicate", 2, "frobnicate"},
        {"random", 2, "usage"},
        {"random piece-o-cake --bogus", 2, "--bogus"},
        {"random piece-o-cake --players", 2, "--players"},
        {"random piece-o-cake --seed", 2, "--seed"},
        {"random piece-o-cake --players x", 2, "x"},
        {"random piece-o-cake --players 0", 2, "0"},
        {"random piece-o-cake --players -3", 2, "-3"},
        {"random piece-o-cake --players 3.5", 2, "3.5"},
        {"random piece-o-cake --players 99999999999999", 2, "99999999999999"},
        {"random piece-o-cake --seed abc", 2, "abc"},
        {"random piece-o-cake --seed -4", 2, "-4"},
        {"random piece-o-cake --seed ' -1'", 2, "-1"},
        {"random piece-o-cake --seed +7", 2, "+7"},
        {"random piece-o-cake --", 2, "'--'"},
        {"replay --", 2, "'--'"},
        {"play piece-o-cake --", 2, "'--'"},
        {"arena piece-o-cake --", 2, "'--'"},
        {"random piece-o-cake --options", 2, "--options"},
        {"random piece-o-cake --json", 2, "--json"},
        {"random piece-o-cake extra", 2, "extra"},
        {"random piece-o-cake --players 6", 1, "2 to 5"},
        {"random piece-o-cake --players 1", 1, "2 to 5"},
        {"random piece-o-cake --options rounds=0", 1, "rounds"},
        {"random piece-o-cake --options rounds=03", 1, "rounds"},
        {"random piece-o-cake --options speed=2", 1, "speed"},
        {"random piece-o-cake --options rounds=2 rounds=3", 1, "rounds"},
        {"random nosuch", 1, "nosuch"},
        {"replay", 2, "usage"},
        {"replay a.txt b.txt", 2, "b.txt"},
        {"replay --players 2", 2, "--players"},
        {"rules", 2, "usage"},
        {"rules a b", 2, "usage"},
        {"play", 2, "usage"},
        {"play nosuch", 1, "nosuch"},
        {"play piece-o-cake --json", 2, "--json"},
        {"play piece-o-cake --seats", 2, "--seats"},
        {"play piece-o-cake --record", 2, "--record"},
        {"play piece-o-cake --players six", 2, "six"},
        {"play piece-o-cake --players 3 --seats human,,random", 1, "seat 2 is empty"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out, *err;
        int status = run_split(cases[i].arguments, "quit\n", &out, &err);
        cr_expect_eq(status, cases[i].status, "gateau %s: exit %d, expected %d\n%s%s",
                     cases[i].arguments, status, cases[i].status, out, err);
        cr_expect_str_eq(out, "", "gateau %s: nothing on stdout", cases[i].arguments);
        expect_one_line(err, cases[i].arguments);
        cr_expect_eq(strncmp(err, "gateau: ", 8), 0, "gateau %s: '%s'", cases[i].arguments, err);
        cr_expect_not_null(strstr(err, cases[i].fragment), "gateau %s: '%s' should mention '%s'",
                           cases[i].arguments, err, cases[i].fragment);
        free(out), free(err);
    }
}

/* A --seed too large for 64 bits was once taken as 2^64-1 (strtoull's
 * ERANGE unchecked): it is refused like any other bad seed. */
Test(cli, seed_out_of_range_is_refused)
{
    char *out, *err;
    int status = run_split("random piece-o-cake --seed 99999999999999999999999", NULL, &out, &err);
    cr_expect_eq(status, 2, "exit %d:\n%.200s", status, out);
    cr_expect_str_eq(out, "");
    cr_expect_not_null(strstr(err, "--seed"), "%s", err);
    free(out), free(err);
}

Test(cli, play_refuses_bad_seats_and_player_counts)
{
    static const struct {
        const char *arguments;
        const char *fragments[3];
    } cases[] = {
        {"play piece-o-cake --players 3 --seats human,random", {"--seats", "2", "3"}},
        {"play piece-o-cake --players 2 --seats human,random,random", {"--seats", "2", NULL}},
        {"play piece-o-cake --players 2 --seats human", {"--seats", "1", "2"}},
        {"play piece-o-cake --players 2 --seats human,alphazero", {"alphazero", "random", NULL}},
        {"play piece-o-cake --players 2 --seats random:depth=3,human", {"random", NULL, NULL}},
        {"play piece-o-cake --players 2 --seats ,", {"--seats", NULL, NULL}},
        {"play piece-o-cake --players 6", {"2 to 5", NULL, NULL}},
        {"play piece-o-cake --players 6 --seats human,random,random,random,random,random",
         {"2 to 5", NULL, NULL}},
        {"play piece-o-cake --players 1 --seats human", {"2 to 5", NULL, NULL}},
        /* A long spec is read whole (an ext: program's settings and paths
         * fit), a spec past the limit is refused with the limit. */
        {"play piece-o-cake --players 2 --seats human,"
         "ismcts:ms=50:nosuch=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
         {"nosuch", "ismcts", NULL}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out, *err;
        int status = run_split(cases[i].arguments, "quit\n", &out, &err);
        cr_expect(status == 1 || status == 2, "gateau %s: exit %d", cases[i].arguments, status);
        expect_one_line(err, cases[i].arguments);
        for (int f = 0; f < 3 && cases[i].fragments[f]; f++)
            cr_expect_not_null(strstr(err, cases[i].fragments[f]),
                               "gateau %s: '%s' should mention '%s'", cases[i].arguments, err,
                               cases[i].fragments[f]);
        cr_expect_null(strstr(out, "Final scores"), "no game is played");
        free(out), free(err);
    }
}

/* A spec up to the limit is read whole (an ext: program's settings and
 * paths fit); one past it is refused, with the limit. */
Test(cli, long_specs_up_to_the_limit)
{
    char arguments[1200], spec[700];
    for (int length = 511; length <= 512; length++) {
        memset(spec, 'x', sizeof spec);
        memcpy(spec, "ext:/nonexistent/", 17);
        spec[length] = '\0';
        snprintf(arguments, sizeof arguments, "play piece-o-cake --players 2 --seats human,%s",
                 spec);
        char *out, *err;
        int status = run_split(arguments, "quit\n", &out, &err);
        cr_expect(status == 1 || status == 2, "%d characters: exit %d", length, status);
        expect_one_line(err, "a long spec");
        if (length == 511)
            cr_expect(strstr(err, "cannot start /nonexistent/xxx"), "%d characters: %s", length, err);
        else
            cr_expect(strstr(err, "too long (at most 511 characters)"), "%d characters: %s", length,
                      err);
        free(out), free(err);
    }
}

/* ---- play ---------------------------------------------------------------------- */

#define PLAY2 "play piece-o-cake --players 2 --seats human,random --seed 3"

Test(cli, play_through_stdin_to_the_end)
{
    char *script = progress_script(40);
    size_t length = strlen(script);
    char *input = malloc(length + 64);
    snprintf(input, length + 64, "help\nmoves\ntake 99 x\n%s", script);
    char *out;
    int status = run(PLAY2, input, &out);
    cr_assert_eq(status, 0, "exit %d:\n%s", status, out);
    cr_assert_not_null(strstr(out, "seed 3"), "the seed is shown");
    /* help and moves answered. */
    cr_assert_not_null(strstr(out, "undo"), "help lists undo");
    cr_assert_not_null(strstr(out, "save FILE"), "help lists save");
    cr_assert_not_null(strstr(out, "cut 1-3 4-7 8-11"), "moves explains the cut");
    /* The illegal move is refused, then the same decision is asked again. */
    const char *refusal = strstr(out, "Not a legal move");
    cr_assert_not_null(refusal, "an illegal move is refused:\n%s", out);
    cr_assert_not_null(strstr(refusal, "seat 1: cut 1-11"), "and play goes on");
    /* The game ends. */
    const char *final = strstr(out, "Final scores");
    cr_assert_not_null(final, "%s", out);
    cr_assert_not_null(strstr(out, "Game over"));
    cr_assert_null(strstr(out, "Game stopped"));
    cr_assert_null(strchr(out, '\033'), "no escape sequences when stdout is not a terminal");
    /* Five cakes: seat 1 cut three of them. */
    cr_assert_eq(support_count_of(out, "seat 1: cut"), 3, "%s", out);
    cr_assert_eq(support_count_of(out, "seat 2: cut"), 2, "%s", out);

    /* The same seed and input give the same session. */
    char *again;
    cr_assert_eq(run(PLAY2, input, &again), 0);
    cr_assert_str_eq(out, again);
    free(out), free(again), free(input), free(script);
}

Test(cli, play_without_colors)
{
    char *script = progress_script(40);
    setenv("NO_COLOR", "1", 1);
    char *out;
    cr_assert_eq(run(PLAY2, script, &out), 0, "%s", out);
    cr_assert_null(strchr(out, '\033'), "NO_COLOR: no escape sequences");
    cr_assert_not_null(strstr(out, "Final scores"));
    free(out);
    unsetenv("NO_COLOR");
    free(script);
}

Test(cli, play_with_record_writes_a_record_that_replays)
{
    char *script = progress_script(40);
    const char *path = support_temp_path("played.txt");
    char arguments[300], *out;
    snprintf(arguments, sizeof arguments, PLAY2 " --record %s", path);
    cr_assert_eq(run(arguments, script, &out), 0, "%s", out);
    cr_assert_not_null(strstr(out, "Final scores"));
    cr_assert(support_file_exists(path), "the record is written");
    char *record = support_read_file(path);
    cr_assert_not_null(strstr(record, "game: piece-o-cake\n"), "%s", record);
    cr_assert_not_null(strstr(record, "players: 2\n"), "%s", record);
    json_t *result = replay_json(path);
    cr_assert(json_is_true(json_object_get(result, "terminal")));
    cr_assert_eq(json_int_field(result, "moves"), move_lines(record));
    /* The scores shown at the end are the record's. */
    char expected[128];
    snprintf(expected, sizeof expected, "Final scores:  Seat 1 %lld  Seat 2 %lld",
             (long long)json_integer_value(json_array_get(json_object_get(result, "scores"), 0)),
             (long long)json_integer_value(json_array_get(json_object_get(result, "scores"), 1)));
    cr_assert_not_null(strstr(out, expected), "'%s' in:\n%s", expected, out);
    json_decref(result);
    free(record), free(out), free(script);
}

Test(cli, play_quit_stops_and_still_writes_the_record)
{
    const char *path = support_temp_path("stopped.txt");
    char arguments[300], *out;
    snprintf(arguments, sizeof arguments, PLAY2 " --record %s", path);
    int status = run(arguments, "cut 1-11\nquit\ncut 1-11\n", &out);
    cr_assert_neq(status, 0, "quit is not a finished game:\n%s", out);
    cr_assert_null(strstr(out, "Final scores"));
    cr_assert(support_file_exists(path), "the record is written anyway");
    json_t *result = replay_json(path);
    cr_assert(json_is_false(json_object_get(result, "terminal")));
    /* Seat 2 takes the whole cake, so seat 1 has nothing to choose: his
     * passes are forced, played without a prompt, and said (issue 14). */
    cr_assert_eq(json_int_field(result, "moves"), 7,
                 "deal, cut, take, forced pass, the bot's forfeit, forced pass, the bot's cut");
    cr_assert_eq(support_count_of(out, "seat 1: pass (the only legal move: played without asking)"), 2,
                 "%s", out);
    cr_assert_eq(support_count_of(out, "seat 1> "), 2, "a prompt for the cut and the quit only:\n%s", out);
    json_decref(result);
    char *record = support_read_file(path);
    cr_assert_not_null(strstr(record, "\ncut 1-11\n"), "%s", record);
    free(record), free(out);
}

Test(cli, play_end_of_input_stops)
{
    char *out;
    int status = run(PLAY2, "cut 1-11\n", &out);
    cr_assert_neq(status, 0, "%s", out);
    cr_assert_null(strstr(out, "Final scores"));
    free(out);
    status = run(PLAY2, "", &out);
    cr_assert_neq(status, 0, "%s", out);
    free(out);
}

Test(cli, play_save_writes_a_record_that_replays)
{
    const char *path = support_temp_path("saved.txt");
    char input[512], *out;
    snprintf(input, sizeof input, "save\ncut 1-11\nsave %s\nsave %s\nquit\n", path,
             support_temp_path("no/such/dir/x.txt"));
    int status = run(PLAY2, input, &out);
    cr_assert_neq(status, 0);
    cr_assert_not_null(strstr(out, "save needs a file name"), "%s", out);
    cr_assert_not_null(strstr(out, "Saved to"), "%s", out);
    cr_assert_not_null(strstr(out, "cannot write"), "an unwritable path is reported:\n%s", out);
    cr_assert(support_file_exists(path));
    json_t *result = replay_json(path);
    cr_assert(json_is_false(json_object_get(result, "terminal")));
    cr_assert_eq(json_int_field(result, "moves"), 7, "as in play_quit_stops...");
    json_decref(result);

    /* The saved game resumes: its moves are a legal start of a full game. */
    char *saved = support_read_file(path);
    char error[512] = "";
    int line = 0;
    gateau_record *record = gateau_record_read(saved, NULL, error, sizeof error, &line);
    cr_assert_not_null(record, "%s at %d", error, line);
    gateau_rng rng;
    gateau_rng_seed(&rng, 1);
    support_play_out(record, &rng);
    cr_assert(gateau_state_is_over(gateau_record_state(record)));
    gateau_record_free(record);
    free(saved), free(out);
}

/* undo goes back to the seat's previous decision (it once went nowhere:
 * the entry it popped was the current position's). */
Test(cli, play_undo_goes_back_to_the_previous_decision)
{
    const char *path = support_temp_path("undone.txt");
    char input[512], *out;
    snprintf(input, sizeof input, "cut 1-11\nundo\nsave %s\nquit\n", path);
    int status = run(PLAY2, input, &out);
    cr_assert_neq(status, 0);
    cr_assert_not_null(strstr(out, "Back to"), "%s", out);
    cr_expect_eq(support_count_of(out, "Seat 1 cuts the cake."), 2,
                 "after undo the cut prompt appears again:\n%s", out);
    cr_assert(support_file_exists(path), "%s", out);
    json_t *result = replay_json(path);
    cr_expect_eq(json_int_field(result, "moves"), 1, "only the deal is left after undo");
    json_decref(result);
    free(out);
}

/* Input is read in bounded lines (issue 14: `play < /dev/zero` grew to
 * gigabytes). */
Test(cli, play_refuses_an_endless_line)
{
    char *input = malloc(6002);
    memset(input, 'x', 6000);
    strcpy(input + 6000, "\n");
    char *out, *err;
    int status = run_split("play piece-o-cake --players 2 --seats human,random --seed 1", input,
                           &out, &err);
    cr_expect_eq(status, 3, "exit %d", status);
    cr_expect(strstr(err, "not lines of text"), "%s", err);
    free(input), free(out), free(err);
}

/* The rules are at hand during a game (issue 14). */
Test(cli, play_prompt_knows_the_rules)
{
    char *out;
    cr_assert_eq(run("play piece-o-cake --players 2 --seats human,random --seed 1", "rules\nquit\n",
                     &out), 3);
    cr_assert(strstr(out, "57 slices in 8 varieties"), "%s", out);
    free(out);
}

Test(cli, a_solver_without_a_solver_is_told)
{
    char *out;
    cr_assert_eq(run("play mice-cake --seats human,solver --seed 1", "quit\n", &out), 3);
    cr_assert(strstr(out, "Seat 2: solver plays heuristic in Mice Cake"), "%s", out);
    free(out);
}

/* undo at the first decision says so and the game goes on (it once wrote
 * before the start of play.c's list of decisions). */
Test(cli, play_undo_with_nothing_to_undo)
{
    char *out;
    int status = support_run(PLAY2, "undo\ncut 1-11\nundo\nundo\nquit\n", &out);
    cr_expect(status > 0 && status < 126 && !strstr(out, "Sanitizer"),
              "quit ends the session normally (exit %d):\n%s", status, out);
    cr_expect_not_null(strstr(out, "Nothing to undo"), "%s", out);
    cr_expect_null(strstr(out, "invalid"), "%s", out);
    cr_expect_not_null(strstr(out, "Game stopped"), "%s", out);
    free(out);
}

Test(cli, play_bots_only)
{
    char *out, *again;
    const char *arguments = "play piece-o-cake --players 4 --seats random,random,random,random "
                            "--seed 9";
    cr_assert_eq(run(arguments, NULL, &out), 0, "%s", out);
    cr_assert_not_null(strstr(out, "Final scores"), "%s", out);
    cr_assert_null(strchr(out, '\033'));
    cr_assert_eq(run(arguments, NULL, &again), 0);
    cr_assert_str_eq(out, again, "the seed fixes the bots and the deal");
    free(out), free(again);
}

Test(cli, play_writes_to_an_unwritable_record_path)
{
    char arguments[300], *out;
    snprintf(arguments, sizeof arguments,
             "play piece-o-cake --players 2 --seats random,random --seed 2 --record %s",
             support_temp_path("no/dir/x.txt"));
    int status = run(arguments, NULL, &out);
    cr_assert_eq(status, 1, "%s", out);
    cr_assert_not_null(strstr(out, "cannot write"), "%s", out);
    /* Refused before the game, not after it (issue 14). */
    cr_assert_null(strstr(out, "Final scores"), "%s", out);
    free(out);
}
