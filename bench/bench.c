/*
 * bench.c: the benchmark suite.  Not a test: it measures and prints.
 *
 *   gateau_bench [--seconds S] [--game NAME] [--json FILE]
 *
 * For every game and player count: uniformly random playouts per second
 * through the public API on one thread (each decision uniform over the
 * legal actions, chance sampled), the cost of cloning and of
 * determinizing a mid-game state, and the state's size in bytes.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gateau/gateau.h"

typedef struct bench_row {
    const char *game;
    int players;
    size_t state_bytes;
    double playouts_per_second;
    double actions_per_game;
    double clone_ns;
    double determinize_ns;
} bench_row;

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One uniformly random game from `start` into `state`; returns actions. */
static long random_playout(gateau_state *state, const gateau_state *start, gateau_rng *rng)
{
    gateau_action actions[GATEAU_MAX_ACTIONS];
    long steps = 0;
    gateau_state_copy(state, start);
    while (!gateau_state_is_over(state)) {
        if (gateau_state_is_chance(state)) {
            gateau_state_apply_legal(state, GATEAU_CHANCE, gateau_state_sample_chance(state, rng));
        } else {
            int seat = gateau_state_next_seat(state);
            int count = gateau_state_legal_actions(state, seat, actions);
            gateau_state_apply_legal(state, seat, actions[gateau_rng_below(rng, (uint32_t)count)]);
        }
        steps++;
    }
    return steps;
}

/* A state some way into a random game, for clone and determinize timing. */
static void advance_to_middle(gateau_state *state, gateau_rng *rng, long steps)
{
    gateau_action actions[GATEAU_MAX_ACTIONS];
    for (long i = 0; i < steps && !gateau_state_is_over(state); i++) {
        if (gateau_state_is_chance(state)) {
            gateau_state_apply_legal(state, GATEAU_CHANCE, gateau_state_sample_chance(state, rng));
        } else {
            int seat = gateau_state_next_seat(state);
            int count = gateau_state_legal_actions(state, seat, actions);
            gateau_state_apply_legal(state, seat, actions[gateau_rng_below(rng, (uint32_t)count)]);
        }
    }
}

static bench_row measure(const gateau_game *game, int players, double seconds)
{
    bench_row row = {.game = gateau_game_name(game), .players = players};
    gateau_setup *setup = gateau_setup_new(game, players, NULL, NULL, NULL, 0);
    gateau_state *start = gateau_state_new(setup);
    gateau_state *state = gateau_state_clone(start);
    row.state_bytes = gateau_state_size(setup);
    gateau_rng rng;
    gateau_rng_seed(&rng, 1);

    /* Playouts, in batches until the time is up. */
    long games = 0, actions = 0;
    double begin = now_seconds(), elapsed;
    do {
        for (int i = 0; i < 256; i++, games++) actions += random_playout(state, start, &rng);
        elapsed = now_seconds() - begin;
    } while (elapsed < seconds);
    row.playouts_per_second = (double)games / elapsed;
    row.actions_per_game = (double)actions / (double)games;

    /* Clone and determinize a state about a third into a game. */
    gateau_state *middle = gateau_state_clone(start);
    advance_to_middle(middle, &rng, (long)(row.actions_per_game / 3));
    long reps = 0;
    begin = now_seconds();
    do {
        for (int i = 0; i < 10000; i++, reps++) gateau_state_copy(state, middle);
        elapsed = now_seconds() - begin;
    } while (elapsed < seconds / 4);
    row.clone_ns = elapsed * 1e9 / (double)reps;
    reps = 0;
    begin = now_seconds();
    do {
        for (int i = 0; i < 1000; i++, reps++) {
            gateau_state_copy(state, middle);
            gateau_state_determinize(state, 0, &rng);
        }
        elapsed = now_seconds() - begin;
    } while (elapsed < seconds / 4);
    row.determinize_ns = elapsed * 1e9 / (double)reps - row.clone_ns;

    gateau_state_free(middle);
    gateau_state_free(state);
    gateau_state_free(start);
    gateau_setup_free(setup);
    return row;
}

static void usage(void)
{
    fputs("usage: gateau_bench [--seconds S] [--game NAME] [--json FILE]\n", stderr);
}

int main(int argc, char **argv)
{
    double seconds = 1.0;
    const char *only = NULL, *json_path = NULL;
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && !strcmp(argv[i], "--seconds")) seconds = atof(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--game")) only = argv[++i];
        else if (i + 1 < argc && !strcmp(argv[i], "--json")) json_path = argv[++i];
        else {
            usage();
            return 2;
        }
    }
    if (seconds <= 0) {
        usage();
        return 2;
    }
    if (only && !gateau_game_find(only)) {
        fprintf(stderr, "gateau_bench: unknown game '%s'\n", only);
        return 1;
    }
    json_t *rows = json_array();
    printf("%-14s %7s %11s %14s %13s %10s %14s\n", "game", "players", "state bytes",
           "playouts/s", "actions/game", "clone ns", "determinize ns");
    for (int g = 0; g < gateau_game_count(); g++) {
        const gateau_game *game = gateau_game_at(g);
        if (only && strcmp(only, gateau_game_name(game))) continue;
        for (int p = gateau_game_min_players(game); p <= gateau_game_max_players(game); p++) {
            bench_row row = measure(game, p, seconds);
            printf("%-14s %7d %11zu %14.0f %13.1f %10.1f %14.1f\n", row.game, row.players,
                   row.state_bytes, row.playouts_per_second, row.actions_per_game, row.clone_ns,
                   row.determinize_ns);
            fflush(stdout);
            json_array_append_new(
                rows, json_pack("{s:s, s:i, s:I, s:f, s:f, s:f, s:f}", "game", row.game,
                                "players", row.players, "state_bytes", (json_int_t)row.state_bytes,
                                "playouts_per_second", row.playouts_per_second,
                                "actions_per_game", row.actions_per_game, "clone_ns",
                                row.clone_ns, "determinize_ns", row.determinize_ns));
        }
    }
    if (json_path && json_dump_file(rows, json_path, JSON_INDENT(2)) != 0) {
        fprintf(stderr, "gateau_bench: cannot write %s\n", json_path);
        json_decref(rows);
        return 1;
    }
    json_decref(rows);
    return 0;
}
