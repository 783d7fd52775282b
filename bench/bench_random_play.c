/*
 * bench_random_play.c: random play through the public C API, the figure
 * bench/bench_python.py compares Python against.
 *
 *   gateau_bench_random_play GAME PLAYERS SECONDS [observe] [in-turn K]
 *
 * prints "actions_per_second N": the seats' single actions (chance moves
 * are played but not counted, as in a batch) of games played from start
 * to end, each action uniformly among the legal ones; and
 * "cpu_actions_per_second N", the same per second of the process's CPU
 * time, which a machine shared with other jobs changes less (the time the
 * process waited for a core is not in it).
 * With "observe", every seat action also writes the observation and the
 * legal mask of the seat to act, as a batch step does.  With "in-turn K",
 * K games are played one action each in turn, as a batch plays them, but
 * with this loop's own code: what taking turns between games costs the
 * games' code itself (docs/performance.md, Python).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gateau/gateau.h"
#include "gateau/observation.h"

static double seconds_of(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double now(void) { return seconds_of(CLOCK_MONOTONIC); }

/* One seat action of state (the chance before it played), a fresh game
 * from initial when it ends. */
static void play_one_action(gateau_state *state, const gateau_state *initial, gateau_rng *rng)
{
    while (gateau_state_is_chance(state))
        gateau_state_apply_legal(state, GATEAU_CHANCE, gateau_state_sample_chance(state, rng));
    gateau_action legal[GATEAU_MAX_ACTIONS];
    int seat = gateau_state_next_seat(state);
    int count = gateau_state_legal_actions(state, seat, legal);
    gateau_state_apply_legal(state, seat, legal[gateau_rng_below(rng, (uint32_t)count)]);
    while (gateau_state_is_chance(state))
        gateau_state_apply_legal(state, GATEAU_CHANCE, gateau_state_sample_chance(state, rng));
    if (gateau_state_is_over(state)) gateau_state_copy(state, initial);
}

/* Seat actions of count games played one action each in turn for about
 * seconds. */
static long play_in_turn(const gateau_state *initial, int count, double seconds, gateau_rng *rng)
{
    gateau_state **states = malloc(sizeof *states * (size_t)count);
    for (int i = 0; i < count; i++) states[i] = gateau_state_clone(initial);
    long actions = 0;
    for (double start = now(); now() - start < seconds;) {
        for (int round = 0; round < 4096 / count + 1; round++)
            for (int i = 0; i < count; i++) play_one_action(states[i], initial, rng);
        actions += (4096 / count + 1) * (long)count;
    }
    for (int i = 0; i < count; i++) gateau_state_free(states[i]);
    free(states);
    return actions;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr,
                "usage: gateau_bench_random_play GAME PLAYERS SECONDS [observe] [in-turn K]\n");
        return 2;
    }
    char error[256];
    gateau_setup *setup = gateau_setup_new(gateau_game_find(argv[1]), atoi(argv[2]), NULL, NULL,
                                           error, sizeof error);
    if (!setup) {
        fprintf(stderr, "gateau_bench_random_play: %s\n", error);
        return 1;
    }
    double seconds = atof(argv[3]);
    bool observe = false;
    int in_turn = 0;
    for (int a = 4; a < argc; a++) {
        if (strcmp(argv[a], "observe") == 0) {
            observe = true;
        } else if (strcmp(argv[a], "in-turn") == 0 && a + 1 < argc && atoi(argv[a + 1]) > 0) {
            in_turn = atoi(argv[++a]);
        } else {
            fprintf(stderr, "gateau_bench_random_play: argument %d: expected observe or "
                    "in-turn K (K > 0), got %s\n", a, argv[a]);
            return 2;
        }
    }
    if (observe && in_turn) {
        fprintf(stderr, "gateau_bench_random_play: in-turn plays without observe\n");
        return 2;
    }
    float *observation = malloc(sizeof(float) * (size_t)gateau_observation_size(setup));
    uint8_t *mask = malloc((size_t)gateau_action_space_size(setup));
    gateau_rng rng;
    gateau_rng_seed(&rng, 1);
    gateau_state *initial = gateau_state_new(setup), *state = gateau_state_clone(initial);
    long actions = 0;
    double start = now(), elapsed = 0, cpu_start = seconds_of(CLOCK_PROCESS_CPUTIME_ID);
    if (in_turn) {
        actions = play_in_turn(initial, in_turn, seconds, &rng);
        elapsed = now() - start;
    }
    while (elapsed < seconds) {
        for (int game = 0; game < 16; game++) {
            gateau_state_copy(state, initial);
            while (!gateau_state_is_over(state)) {
                if (gateau_state_is_chance(state)) {
                    gateau_state_apply_legal(state, GATEAU_CHANCE,
                                             gateau_state_sample_chance(state, &rng));
                } else {
                    gateau_action legal[GATEAU_MAX_ACTIONS];
                    int seat = gateau_state_next_seat(state);
                    int count = gateau_state_legal_actions(state, seat, legal);
                    if (observe) {
                        gateau_state_observation(state, seat, observation);
                        gateau_state_legal_mask(state, seat, mask);
                    }
                    gateau_state_apply_legal(state, seat,
                                             legal[gateau_rng_below(&rng, (uint32_t)count)]);
                    actions++;
                }
            }
        }
        elapsed = now() - start;
    }
    double cpu = seconds_of(CLOCK_PROCESS_CPUTIME_ID) - cpu_start;
    printf("actions_per_second %.0f\ncpu_actions_per_second %.0f\n", (double)actions / elapsed,
           (double)actions / cpu);
    gateau_state_free(state);
    gateau_state_free(initial);
    free(observation);
    free(mask);
    gateau_setup_free(setup);
    return 0;
}
