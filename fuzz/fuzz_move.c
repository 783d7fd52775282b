/*
 * fuzz_move.c: one move in a game's notation (gateau_move_parse), in
 * positions of every game reached by random play.
 *
 * Input: a 6-byte header, then the move's text (no seat prefix):
 *
 *   byte 0     the game: its index in the registry (`gateau games` order)
 *   byte 1     the player count (folded into the game's range)
 *   byte 2     how the position is reached: S + 128 plays the first K
 *              moves of `gateau random GAME --players N --seed S` (the
 *              same match of random bots on one generator), so that line
 *              K+1 of that record is a legal move there: that is how
 *              fuzz/make-corpus.sh makes the seeds; S below 128 plays K
 *              moves of uniformly random actions from seed S, about a
 *              hundred times faster (the random bot counts complete
 *              moves to be uniform over them)
 *   bytes 3-4  how many moves K to play first (big-endian)
 *   byte 5     whose move the text is: 0 whoever is to move (chance, or
 *              the lowest seat to act), 1..N seat N, N+1 chance (folded
 *              modulo N+2)
 *
 * A move that is read must be legal action by action, complete, and
 * written (gateau_move_format) as a text that
 * reads back to the same actions; a refused one must say why on one line.
 *
 * Reaching a position is most of the work (a Cake Master position of the
 * random bots takes tens of milliseconds under the sanitizers), and
 * libFuzzer mutates mostly the text, so positions are kept by their header
 * bytes; a kept position is the one the header makes, so this changes the
 * speed only.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "gateau/match.h"

enum { HEADER_SIZE = 6, POSITION_KEY_SIZE = 5, MOST_MOVES = 4000, KEPT_POSITIONS = 1024 };

/* The position after the first `moves` moves of `gateau random` with
 * seed: a new state the caller frees. */
static gateau_state *random_bots_game(const gateau_setup *setup, uint64_t seed, int moves)
{
    gateau_rng rng;
    gateau_rng_seed(&rng, seed);
    gateau_match_config config = {.setup = setup, .chance = &rng};
    for (int s = 0; s < gateau_setup_players(setup); s++)
        config.seats[s] = (gateau_match_seat){.bot = "random", .rng = &rng};
    char error[256];
    gateau_match *match = gateau_match_new(&config, error, sizeof error);
    FUZZ_REQUIRE(match, "%s", error);
    for (int played = 0; played < moves; played++)
        if (gateau_match_step(match, error, sizeof error) != GATEAU_MATCH_PLAYING) break;
    gateau_state *state = gateau_state_clone(gateau_match_state(match));
    gateau_match_free(match);
    return state;
}

/* The position after `moves` moves of uniformly random actions. */
static gateau_state *random_actions_game(const gateau_setup *setup, uint64_t seed, int moves)
{
    gateau_rng rng;
    gateau_rng_seed(&rng, seed);
    gateau_state *state = gateau_state_new(setup);
    for (int played = 0; played < moves && !gateau_state_is_over(state); played++)
        do fuzz_play_random(state, &rng, 1);
        while (gateau_state_in_move(state) && !gateau_state_is_over(state));
    return state;
}

/* Setups by game and player count, and positions by header, kept for the
 * whole run (reachable: not leaks). */
static gateau_setup *setups[16][GATEAU_MAX_PLAYERS + 1];
typedef struct kept_position {
    uint8_t key[POSITION_KEY_SIZE];
    gateau_state *state;
} kept_position;
static kept_position kept[KEPT_POSITIONS];

static const gateau_state *position(const uint8_t header[POSITION_KEY_SIZE])
{
    int game_index = header[0] % gateau_game_count();
    const gateau_game *game = gateau_game_at(game_index);
    int players = fuzz_players(game, header[1]);
    FUZZ_REQUIRE(game_index < 16, "more games than kept setups");
    gateau_setup **setup = &setups[game_index][players];
    if (!*setup) {
        char error[256];
        *setup = gateau_setup_new(game, players, NULL, NULL, error, sizeof error);
        FUZZ_REQUIRE(*setup, "%s", error);
    }
    uint32_t hash = 2166136261u; /* FNV-1a */
    for (int i = 0; i < POSITION_KEY_SIZE; i++) hash = (hash ^ header[i]) * 16777619u;
    kept_position *slot = &kept[hash % KEPT_POSITIONS];
    if (slot->state && !memcmp(slot->key, header, POSITION_KEY_SIZE) &&
        gateau_state_setup(slot->state) == *setup)
        return slot->state;
    gateau_state_free(slot->state);
    int moves = header[3] << 8 | header[4];
    if (moves > MOST_MOVES) moves = MOST_MOVES;
    slot->state = header[2] >= 128 ? random_bots_game(*setup, header[2] - 128, moves)
                                   : random_actions_game(*setup, header[2], moves);
    memcpy(slot->key, header, POSITION_KEY_SIZE);
    return slot->state;
}

static int chosen_seat(const gateau_state *state, uint8_t byte)
{
    int players = gateau_state_players(state), choice = byte % (players + 2);
    if (choice == 0)
        return gateau_state_is_chance(state) ? GATEAU_CHANCE
                                             : gateau_state_next_seat(state) >= 0
                                                   ? gateau_state_next_seat(state)
                                                   : 0; /* over: any seat is refused */
    return choice <= players ? choice - 1 : GATEAU_CHANCE;
}

/* A move that was read: legal, complete, and written as it reads. */
static void check_move(const gateau_state *state, int seat, const char *text,
                       const gateau_action *actions, int count)
{
    char error[512];
    FUZZ_REQUIRE(gateau_move_check(state, seat, actions, count, error, sizeof error),
                 "'%s' read but not a move: %s", text, error);
    gateau_state *after = gateau_state_clone(state);
    for (int i = 0; i < count; i++)
        FUZZ_REQUIRE(gateau_state_apply(after, seat, actions[i], error, sizeof error),
                     "'%s': action %d refused: %s", text, i + 1, error);
    FUZZ_REQUIRE(!gateau_state_in_move(after), "'%s' leaves a move half made", text);
    gateau_state_free(after);

    char *written = gateau_move_format(state, seat, actions, count);
    gateau_action again[GATEAU_MAX_MOVE_ACTIONS];
    int again_count = gateau_move_parse(state, seat, written, again, error, sizeof error);
    FUZZ_REQUIRE(again_count == count && !memcmp(again, actions, sizeof *actions * (size_t)count),
                 "'%s' is written '%s', which reads as another move (%d actions): %s", text,
                 written, again_count, again_count < 0 ? error : "");
    free(written);
    for (int viewer = GATEAU_OBSERVER; viewer < gateau_state_players(state); viewer++)
        free(gateau_move_describe(state, seat, actions, count, viewer));
    free(gateau_action_name(state, seat, actions[0]));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < HEADER_SIZE) return 0;
    const gateau_state *state = position(data);
    int seat = chosen_seat(state, data[5]);
    char error[512];

    char *text = fuzz_text(data + HEADER_SIZE, size - HEADER_SIZE);
    gateau_action actions[GATEAU_MAX_MOVE_ACTIONS];
    int count = gateau_move_parse(state, seat, text, actions, error, sizeof error);
    if (count < 0) fuzz_check_error(error);
    else check_move(state, seat, text, actions, count);

    free(text);
    return 0;
}
