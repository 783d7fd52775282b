/*
 * support.h: helpers shared by the test programs.
 *
 * Every helper fails the current Criterion test with a clear message
 * instead of returning an error.
 */
#ifndef GATEAU_TEST_SUPPORT_H
#define GATEAU_TEST_SUPPORT_H

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <jansson.h>

#include "gateau/bot.h"
#include "gateau/gateau.h"
#include "gateau/record.h"

/* A setup that must exist (options may be NULL).  Free with gateau_setup_free. */
gateau_setup *support_setup(const char *game, int players, const char *options);

/* Reads a record that must be valid. */
gateau_record *support_read(const char *text);

/* Reads a record that must be refused at line `line` with an error that
 * contains `fragment`. */
void support_expect_refused(const char *text, int line, const char *fragment);

/* Plays one whole move in notation that must be legal. */
void support_play(gateau_record *record, int seat, const char *move);
/* Plays a move that must be refused with an error containing fragment, and
 * checks that the record did not change. */
void support_refuse(gateau_record *record, int seat, const char *move, const char *fragment);

/* Plays random legal actions from the record's position to the end
 * (chance sampled), with rng. */
void support_play_out(gateau_record *record, gateau_rng *rng);

/* One random step of state (not over): a chance outcome sampled, or a
 * legal action of the next seat picked uniformly with rng.  Returns who
 * acted (GATEAU_CHANCE or the seat). */
int support_random_step(gateau_state *state, gateau_rng *rng);
/* Which moves of record viewer (a seat, or GATEAU_OBSERVER) may read as
 * they are made (gateau_move_visible, from the position each was made
 * in): one character per move, 'v' visible, '-' hidden.  Static storage,
 * until the next call. */
const char *support_visible_moves(const gateau_record *record, int viewer);

/* A seat's view as parsed JSON (json_decref it). */
json_t *support_view(const gateau_state *state, int seat);
/* A view's text (gateau_state_view_json), which must be JSON, parsed. */
json_t *support_parse_view(const char *text);

/* Scores as an array. */
void support_scores(const gateau_state *state, int scores[GATEAU_MAX_PLAYERS]);

/* How many random games the property tests play per player count: the
 * GATEAU_PROPERTY_GAMES environment variable, or `fallback`. */
int support_property_games(int fallback);

/* Runs the gateau command with arguments (a shell string) and optional
 * stdin text; captures stdout into out (malloc'd) and returns the exit
 * status. */
int support_run(const char *arguments, const char *input, char **out);

/* Runs the gateau command with arguments made printf style (no stdin),
 * which must exit with status; returns its output (free it). */
char *support_run_expect(int status, const char *format, ...) __attribute__((format(printf, 2, 3)));
/* Runs the gateau command with arguments, which must fail with status and
 * one line "gateau: ..." that contains fragment. */
void support_expect_error(const char *arguments, int status, const char *fragment);
/* Fails the test if the command that printed output (run with arguments,
 * exit status `status`, -1 for a signal) crashed or tripped a sanitizer. */
void support_check_no_crash(int status, const char *output, const char *arguments);

/* Files and text for the command's tests: a file written or read whole
 * (failing the test when it cannot be), whether a path exists, and how
 * often fragment occurs in text. */
void support_write_file(const char *path, const char *text);
char *support_read_file(const char *path); /* malloc'd */
bool support_file_exists(const char *path);
int support_count_of(const char *text, const char *fragment);

/* Processes a test starts, and what they start, carry GATEAU_TEST_TAG in
 * their environment (set in the test's own by support_process_tag, once,
 * and inherited: gateau passes it on to ext: programs, and they to
 * theirs).  support_processes_left lists those still alive (zombies
 * are dead) as "pid (name) ...", "" when none, after waiting (bounded)
 * for those killed a moment ago to die. */
const char *support_process_tag(void);
const char *support_processes_left(void);
/* Whether pid is alive (a zombie is dead), after waiting up to 3 s for it
 * to die: a process killed a moment ago may not be dead yet. */
bool support_pid_alive(int pid);

/* One registered game at one player count: the parameter of tests that run
 * over every game (ParameterizedTestParameters returns
 * support_all_game_cases()). */
typedef struct game_case {
    char game[32];
    int players;
} game_case;

struct criterion_test_params support_all_game_cases(void);

/* A private temporary folder per test: support_temp_setup and
 * support_temp_teardown as a suite's .init and .fini; support_temp_path
 * names a file in it (static storage, 8 in rotation). */
void support_temp_setup(void);
void support_temp_teardown(void);
const char *support_temp_path(const char *name);

#endif
