/*
 * bench.c: the benchmark suite.  Not a test: it measures and prints.
 *
 *   gateau_bench [--seconds S] [--game NAME] [--json FILE]
 *
 * For every game and player count: uniformly random playouts per second
 * through the public API on one thread (each decision uniform over the
 * legal actions, chance sampled), the cost of cloning and of
 * determinizing a mid-game state and of reading it back from a seat's
 * view (gateau_state_from_view, what `gateau engine` does at each
 * decision), and the state's size in bytes; then the
 * arena's throughput (gateau/arena.h: whole games between random bots,
 * each decision through gateau_bot_choose, so determinized, with every
 * bot action checked) on one thread and on two, and the ratio.
 *
 * Timings depend on what else the machine runs: they are measurements,
 * never pass/fail.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gateau/arena.h"
#include "gateau/gateau.h"

typedef struct bench_row {
    const char *game;
    int players;
    size_t state_bytes;
    double playouts_per_second;
    double actions_per_game;
    double clone_ns;
    double determinize_ns;
    double from_view_us;
    double arena_one_thread;  /* games/s */
    double arena_two_threads; /* games/s */
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

/* Games per second of an arena of random bots on `threads` threads: the
 * arena grows until one run takes at least `seconds`. */
static double arena_rate(const gateau_setup *setup, int threads, double seconds)
{
    const char *bots[GATEAU_MAX_PLAYERS];
    for (int s = 0; s < gateau_setup_players(setup); s++) bots[s] = "random";
    long games = 64;
    for (;;) {
        gateau_arena_config config = {.setup = setup, .bots = bots, .games = games,
                                      .threads = threads, .seed = 1};
        char error[256];
        gateau_arena *arena = gateau_arena_new(&config, error, sizeof error);
        if (!arena || !gateau_arena_run(arena, error, sizeof error)) {
            fprintf(stderr, "gateau_bench: arena: %s\n", error);
            exit(1);
        }
        double elapsed = gateau_arena_seconds(arena);
        gateau_arena_free(arena);
        if (elapsed >= seconds || games > 100000000L) return (double)games / elapsed;
        /* Aim a little past the target so the next run is the last. */
        double scale = elapsed > 0 ? seconds / elapsed * 1.2 : 16;
        if (scale > 16) scale = 16;
        if (scale < 2) scale = 2;
        games = (long)((double)games * scale);
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

    /* Read back from the view of the seat to move, between moves. */
    while (!gateau_state_is_over(middle) &&
           (gateau_state_is_chance(middle) || gateau_state_in_move(middle)))
        advance_to_middle(middle, &rng, 1);
    int seat = gateau_state_is_over(middle) ? 0 : gateau_state_next_seat(middle);
    char *view = gateau_state_view_json(middle, seat);
    reps = 0;
    begin = now_seconds();
    do {
        for (int i = 0; i < 100; i++, reps++) {
            char error[256];
            gateau_state *read = gateau_state_from_view(setup, seat, view, error, sizeof error);
            if (!read) {
                fprintf(stderr, "gateau_bench: from_view: %s\n", error);
                exit(1);
            }
            gateau_state_free(read);
        }
        elapsed = now_seconds() - begin;
    } while (elapsed < seconds / 4);
    row.from_view_us = elapsed * 1e6 / (double)reps;
    free(view);

    row.arena_one_thread = arena_rate(setup, 1, seconds);
    row.arena_two_threads = arena_rate(setup, 2, seconds);

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
    printf("%-14s %7s %11s %14s %13s %10s %14s %12s %15s %15s %6s\n", "game", "players",
           "state bytes", "playouts/s", "actions/game", "clone ns", "determinize ns",
           "from_view us", "arena 1t game/s", "arena 2t game/s", "2t/1t");
    for (int g = 0; g < gateau_game_count(); g++) {
        const gateau_game *game = gateau_game_at(g);
        if (only && strcmp(only, gateau_game_name(game))) continue;
        for (int p = gateau_game_min_players(game); p <= gateau_game_max_players(game); p++) {
            bench_row row = measure(game, p, seconds);
            printf("%-14s %7d %11zu %14.0f %13.1f %10.1f %14.1f %12.1f %15.0f %15.0f %6.2f\n",
                   row.game, row.players, row.state_bytes, row.playouts_per_second,
                   row.actions_per_game, row.clone_ns, row.determinize_ns, row.from_view_us,
                   row.arena_one_thread, row.arena_two_threads,
                   row.arena_two_threads / row.arena_one_thread);
            fflush(stdout);
            json_array_append_new(
                rows, json_pack("{s:s, s:i, s:I, s:f, s:f, s:f, s:f}", "game", row.game,
                                "players", row.players, "state_bytes", (json_int_t)row.state_bytes,
                                "playouts_per_second", row.playouts_per_second,
                                "actions_per_game", row.actions_per_game, "clone_ns",
                                row.clone_ns, "determinize_ns", row.determinize_ns));
            json_t *last = json_array_get(rows, json_array_size(rows) - 1);
            json_object_set_new(last, "from_view_us", json_real(row.from_view_us));
            json_object_set_new(last, "arena_games_per_second_1_thread",
                                json_real(row.arena_one_thread));
            json_object_set_new(last, "arena_games_per_second_2_threads",
                                json_real(row.arena_two_threads));
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
