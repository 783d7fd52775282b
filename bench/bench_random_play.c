/*
 * bench_random_play.c: random play through the public C API, the figure
 * bench/bench_python.py compares Python against.
 *
 *   gateau_bench_random_play GAME PLAYERS SECONDS [observe]
 *
 * prints "actions_per_second N": the seats' single actions (chance moves
 * are played but not counted, as in a batch) of games played from start
 * to end, each action uniformly among the legal ones.
 * With "observe", every seat action also writes the observation and the
 * legal mask of the seat to act, as a batch step does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gateau/gateau.h"
#include "gateau/observation.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: gateau_bench_random_play GAME PLAYERS SECONDS [observe]\n");
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
    bool observe = argc > 4 && strcmp(argv[4], "observe") == 0;
    float *observation = malloc(sizeof(float) * (size_t)gateau_observation_size(setup));
    uint8_t *mask = malloc((size_t)gateau_action_space_size(setup));
    gateau_rng rng;
    gateau_rng_seed(&rng, 1);
    gateau_state *initial = gateau_state_new(setup), *state = gateau_state_clone(initial);
    long actions = 0;
    double start = now(), elapsed = 0;
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
    printf("actions_per_second %.0f\n", (double)actions / elapsed);
    gateau_state_free(state);
    gateau_state_free(initial);
    free(observation);
    free(mask);
    gateau_setup_free(setup);
    return 0;
}
