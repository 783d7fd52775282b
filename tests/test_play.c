/*
 * test_play.c: `gateau play` beyond one sitting: resuming a saved game,
 * names, two humans at one screen (hot seat), forced moves, undo across a
 * resume.  (test_cli.c has the rest of play: commands, errors, records.)
 *
 * Most runs read a script on stdin; the hot-seat privacy test runs play on
 * a pseudo-terminal, as a person would.
 */
#define _DEFAULT_SOURCE /* forkpty */
#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support.h"

TestSuite(play, .init = support_temp_setup, .fini = support_temp_teardown, .timeout = 300);

static int run(const char *arguments, const char *input, char **out)
{
    int status = support_run(arguments, input, out);
    support_check_no_crash(status, *out, arguments);
    return status;
}

/* A script that always makes progress in a 2-player piece o' Cake game
 * (a refused line only prompts again). */
static char *progress_script(int repeats)
{
    char *script = malloc((size_t)repeats * 16 + 1);
    script[0] = '\0';
    for (int i = 0; i < repeats; i++) strcat(script, "cut 1-11\npass\n");
    return script;
}

/* The first `lines` lines of text (malloc'd), and where the rest begins. */
static char *first_lines(const char *text, int lines, const char **rest)
{
    const char *p = text;
    for (int i = 0; i < lines && *p; i++) p = strchr(p, '\n') + 1;
    *rest = p;
    char *head = malloc((size_t)(p - text) + 8);
    memcpy(head, text, (size_t)(p - text));
    strcpy(head + (p - text), "quit\n");
    return head;
}

#define PLAY2 "play piece-o-cake --players 2 --seats human,random --seed 11"

/* Stopped at any prompt and resumed, a game goes on exactly as it would
 * have: the same chance, the same bot moves, the same record. */
Test(play, a_resumed_game_goes_on_as_if_never_stopped)
{
    char *script = progress_script(40), *out, arguments[512];
    const char *whole = support_temp_path("whole.txt");
    snprintf(arguments, sizeof arguments, PLAY2 " --record %s", whole);
    cr_assert_eq(run(arguments, script, &out), 0, "%s", out);
    free(out);
    char *expected = support_read_file(whole);
    cr_assert(strstr(expected, "# gateau play --seats human,random --seed 11\n") == expected,
              "the record notes how the game started:\n%s", expected);

    for (int stop = 1; stop <= 7; stop += 2) {
        const char *path = support_temp_path("stopped.txt"), *rest;
        char *head = first_lines(script, stop, &rest);
        snprintf(arguments, sizeof arguments, PLAY2 " --record %s", path);
        cr_assert_eq(run(arguments, head, &out), 3, "stopped after %d lines:\n%s", stop, out);
        free(out);
        /* No flags: the seats and the seed come from the record. */
        snprintf(arguments, sizeof arguments, "play %s", path);
        cr_assert_eq(run(arguments, rest, &out), 0, "%s", out);
        cr_assert(strstr(out, "resumed after"), "%s", out);
        cr_assert(strstr(out, "Record written to"), "written back where it came from:\n%s", out);
        char *resumed = support_read_file(path);
        cr_assert_str_eq(resumed, expected, "stopped after %d lines", stop);
        free(resumed), free(head), free(out);
    }
    free(expected), free(script);
}

Test(play, resume_by_flag_and_names)
{
    const char *path = support_temp_path("named.txt");
    char arguments[512], *out;
    snprintf(arguments, sizeof arguments, PLAY2 " --names 'Ann, Bob' --record %s", path);
    cr_assert_eq(run(arguments, "cut 1-11\nquit\n", &out), 3, "%s", out);
    free(out);
    char *record = support_read_file(path);
    cr_assert(strstr(record, "\nnames: Ann, Bob\n"), "%s", record);
    free(record);

    /* Names are kept on resuming, or replaced with --names. */
    snprintf(arguments, sizeof arguments, "play --resume %s", path);
    cr_assert_eq(run(arguments, "quit\n", &out), 3, "%s", out);
    free(out);
    record = support_read_file(path);
    cr_assert(strstr(record, "\nnames: Ann, Bob\n"), "%s", record);
    free(record);
    snprintf(arguments, sizeof arguments, "play %s --names Cy,Di", path);
    cr_assert_eq(run(arguments, "quit\n", &out), 3, "%s", out);
    free(out);
    record = support_read_file(path);
    cr_assert(strstr(record, "\nnames: Cy, Di\n"), "%s", record);
    free(record);

    snprintf(arguments, sizeof arguments, "play %s --names Cy", path);
    cr_assert_eq(run(arguments, "quit\n", &out), 2, "%s", out);
    cr_assert(strstr(out, "--names gives 1 name for 2 players"), "%s", out);
    free(out);
}

/* The seats of a resumed game can be changed: a bot takes over. */
Test(play, resume_with_other_seats)
{
    const char *path = support_temp_path("handed.txt");
    char arguments[512], *out;
    snprintf(arguments, sizeof arguments, PLAY2 " --record %s", path);
    cr_assert_eq(run(arguments, "cut 1-11\nquit\n", &out), 3, "%s", out);
    free(out);
    snprintf(arguments, sizeof arguments, "play %s --seats heuristic,heuristic", path);
    cr_assert_eq(run(arguments, NULL, &out), 0, "%s", out);
    cr_assert(strstr(out, "Final scores"), "%s", out);
    free(out);
    char *record = support_read_file(path);
    cr_assert(strstr(record, "# gateau play --seats heuristic,heuristic --seed 11\n"), "%s",
              record);
    free(record);
}

Test(play, resume_refusals)
{
    const char *path = support_temp_path("refused.txt"), *finished = support_temp_path("done.txt");
    char arguments[512], *out;
    snprintf(arguments, sizeof arguments, PLAY2 " --record %s", path);
    cr_assert_eq(run(arguments, "cut 1-11\nquit\n", &out), 3, "%s", out);
    free(out);
    static const struct {
        const char *flags;
        int status;
        const char *fragment;
    } cases[] = {
        {"--players 3", 1, "the players and options are the record's"},
        {"--options rounds=2", 1, "the players and options are the record's"},
        {"--seats human", 1, "--seats names 1 seat for 2 players"},
        {"--seed x", 2, "--seed"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(arguments, sizeof arguments, "play %s %s", path, cases[i].flags);
        cr_expect_eq(run(arguments, "quit\n", &out), cases[i].status, "%s: %s", arguments, out);
        cr_expect(strstr(out, cases[i].fragment), "%s: %s", arguments, out);
        free(out);
    }
    cr_expect_eq(run("play --resume - ", "quit\n", &out), 1, "%s", out);
    cr_expect(strstr(out, "cannot resume from standard input"), "%s", out);
    free(out);
    cr_expect_eq(run("play /no/such/record.txt", "quit\n", &out), 1, "%s", out);
    cr_expect(strstr(out, "unknown game '/no/such/record.txt'"), "%s", out);
    free(out);
    cr_expect_eq(run("play --resume /no/such/record.txt", "quit\n", &out), 1, "%s", out);
    cr_expect(strstr(out, "cannot open /no/such/record.txt"), "%s", out);
    free(out);
    snprintf(arguments, sizeof arguments, "play --resume %s piece-o-cake", path);
    cr_expect_eq(run(arguments, "quit\n", &out), 2, "%s", out);
    free(out);

    /* A bad seed in the header comment is named as such. */
    char *record = support_read_file(path);
    char *seed = strstr(record, "--seed 11");
    memcpy(seed, "--seed -1", 9);
    support_write_file(path, record);
    free(record);
    snprintf(arguments, sizeof arguments, "play %s", path);
    cr_expect_eq(run(arguments, "quit\n", &out), 1, "%s", out);
    cr_expect(strstr(out, "the header comment's --seed needs a whole number"), "%s", out);
    free(out);

    /* A finished game has nothing to resume but its end. */
    cr_assert_eq(run("random piece-o-cake --players 2 --seed 4", NULL, &out), 0);
    support_write_file(finished, out);
    free(out);
    snprintf(arguments, sizeof arguments, "play %s --seats human,human", finished);
    cr_expect_eq(run(arguments, "", &out), 0, "%s", out);
    cr_expect(strstr(out, "Final scores"), "%s", out);
    free(out);
}

/* undo after a resume goes back to a decision made before it. */
Test(play, undo_reaches_back_across_a_resume)
{
    const char *path = support_temp_path("undo.txt");
    char arguments[512], *out;
    snprintf(arguments, sizeof arguments, PLAY2 " --record %s", path);
    cr_assert_eq(run(arguments, "cut 1-11\nquit\n", &out), 3, "%s", out);
    free(out);
    snprintf(arguments, sizeof arguments, "play %s", path);
    cr_assert_eq(run(arguments, "undo\nquit\n", &out), 3, "%s", out);
    cr_assert(strstr(out, "Back to your previous decision"), "%s", out);
    free(out);
    char *record = support_read_file(path);
    cr_assert_null(strstr(record, "cut 1-11"), "the cut is undone:\n%s", record);
    free(record);
}

/* Two humans: before the second sees his view, the screen is handed over
 * and he reads what happened since his last turn, as he may see it. */
Test(play, hot_seat_hands_over_between_humans)
{
    char *out;
    cr_assert_eq(run("play maries-table --players 3 --seats human,human,heuristic --seed 5",
                     "keep 1 1\nquit\n", &out), 3, "%s", out);
    const char *handover = strstr(out, "Seat 2, your turn: press Enter when only you see");
    cr_assert(handover, "%s", out);
    cr_assert(strstr(handover, "Since your last turn:\n"), "%s", out);
    cr_assert(strstr(handover, "seat 1 keeps 2 cards face down"), "seat 2 does not see which:\n%s",
              out);
    cr_assert_null(strstr(handover, "keeps 1 1"), "%s", out);
    /* One human: nobody to hand over to. */
    free(out);
    cr_assert_eq(run("play maries-table --players 3 --seats human,heuristic,heuristic --seed 5",
                     "keep 1 1\nquit\n", &out), 3, "%s", out);
    cr_assert_null(strstr(out, "your turn: press Enter"), "%s", out);
    free(out);
}

/* Runs gateau on a pseudo-terminal with input typed ahead; returns what
 * the terminal showed (malloc'd). */
static char *run_on_terminal(const char *arguments, const char *input)
{
    const char *binary = getenv("GATEAU_BINARY");
    cr_assert_not_null(binary, "GATEAU_BINARY is set by ctest");
    int terminal;
    pid_t child = forkpty(&terminal, NULL, NULL, NULL);
    cr_assert_geq(child, 0, "forkpty: %s", strerror(errno));
    if (child == 0) {
        setenv("TERM", "dumb", 1);
        setenv("NO_COLOR", "1", 1);
        char command[1024];
        snprintf(command, sizeof command, "exec %s %s", binary, arguments);
        execl("/bin/sh", "sh", "-c", command, (char *)NULL);
        _exit(127);
    }
    size_t size = 0, capacity = 1 << 16, typed = 0, length = strlen(input);
    char *shown = malloc(capacity);
    for (;;) {
        struct pollfd wait = {.fd = terminal, .events = POLLIN | (typed < length ? POLLOUT : 0)};
        if (poll(&wait, 1, 10000) <= 0) break; /* (a hang fails below: no exit) */
        if ((wait.revents & POLLOUT) && typed < length) {
            /* One line at a time, as a person types. */
            size_t line = strcspn(input + typed, "\n") + 1;
            ssize_t wrote = write(terminal, input + typed, line);
            if (wrote > 0) typed += (size_t)wrote;
            usleep(100000);
        }
        if (wait.revents & (POLLIN | POLLHUP)) {
            if (capacity - size < 4096) shown = realloc(shown, capacity *= 2);
            ssize_t got = read(terminal, shown + size, capacity - size - 1);
            if (got <= 0) break; /* EIO: the program ended */
            size += (size_t)got;
        }
    }
    shown[size] = '\0';
    close(terminal);
    int status;
    cr_assert_eq(waitpid(child, &status, 0), child);
    cr_assert(WIFEXITED(status), "gateau %s ended by a signal:\n%s", arguments, shown);
    return shown;
}

/* On a terminal, seat 1's hand is cleared off the screen (and its
 * scrollback) before seat 2's view, and seat 2 confirms he alone looks. */
Test(play, hot_seat_clears_the_screen_between_humans)
{
    char *shown = run_on_terminal("play maries-table --players 3 --seats human,human,heuristic "
                                  "--seed 5", "keep 1 1\n\nquit\n");
    const char *clear = "\033[H\033[2J\033[3J";
    const char *first_hand = strstr(shown, "Your hand: ");
    cr_assert(first_hand, "%s", shown);
    char hand[128];
    snprintf(hand, sizeof hand, "%.*s", (int)strcspn(first_hand, "\r\n"), first_hand);
    const char *cleared = strstr(shown, clear);
    cr_assert(cleared && cleared > first_hand, "the screen is cleared after seat 1's turn:\n%s",
              shown);
    cr_assert(strstr(cleared, "Seat 2, your turn"), "%s", shown);
    cr_assert(strstr(cleared, "seat 2> "), "%s", shown);
    cr_assert_null(strstr(cleared, hand), "'%s' is not shown to seat 2:\n%s", hand, shown);
    cr_assert(strstr(cleared, "Your hand: "), "seat 2 sees his own hand:\n%s", shown);
    free(shown);
}

/* The key to the letters is at hand during a game (issue 14). */
Test(play, key_at_the_prompt)
{
    char *out;
    cr_assert_eq(run("play cake-master --players 2 --seats human,random --seed 1", "key\nquit\n",
                     &out), 3, "%s", out);
    char *key = gateau_game_key(gateau_game_find("cake-master"));
    cr_assert(key[0], "Cake Master has a key");
    cr_assert(strstr(out, key), "the key is printed:\n%s", out);
    free(key), free(out);
}
