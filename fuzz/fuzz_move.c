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
 * Its parts, given in another order, must be put back in an order that is
 * a legal move (gateau_move_order), and its beginnings found part of one
 * (gateau_move_choices); the text's bytes as parts must be refused on one
 * line or hold.
 *
 * Reaching a position is most of the work (a Cake Master game of the
 * random bots takes tens of milliseconds under the sanitizers), so each
 * game is played once, as far as headers ask, and the position after
 * each of its moves is kept: a kept position is the one the header makes,
 * so this changes the speed only.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "gateau/match.h"
#include "gateau/observation.h"

enum {
    HEADER_SIZE = 6,
    MOST_MOVES = 4000,           /* K is capped there (games end sooner) */
    MOST_KEPT_STATES = 200000,   /* then every game kept is dropped */
    GAME_SLOTS = 16 * (GATEAU_MAX_PLAYERS + 1) * 256,
};

/*
 * One random game, played as far as a header has asked, with the state
 * after each of its moves: the game of a header's first three bytes.
 * Allocated, because the match keeps a pointer to the generator.
 */
typedef struct kept_game {
    gateau_setup *setup;
    gateau_rng rng;
    gateau_match *match;  /* as `gateau random` plays; NULL for random actions */
    gateau_state *live;   /* the random-actions game's position */
    gateau_state **after; /* after[k]: the position after k moves */
    int count, capacity;
    bool over;
} kept_game;

/* Kept for the whole run (reachable: not leaks). */
static kept_game *games[GAME_SLOTS];
static long kept_states;

static void drop_game(kept_game *game)
{
    for (int k = 0; k < game->count; k++) gateau_state_free(game->after[k]);
    kept_states -= game->count;
    free(game->after);
    gateau_match_free(game->match);
    gateau_state_free(game->live);
    gateau_setup_free(game->setup);
    free(game);
}

static kept_game *start_game(const gateau_game *rules, int players, int seed_byte)
{
    kept_game *game = calloc(1, sizeof *game);
    if (!game) abort();
    char error[256];
    game->setup = gateau_setup_new(rules, players, NULL, NULL, error, sizeof error);
    FUZZ_REQUIRE(game->setup, "%s", error);
    gateau_rng_seed(&game->rng, (uint64_t)(seed_byte & 127));
    if (seed_byte >= 128) {
        /* As src/cli/random_game.c: one generator for chance and every
         * seat's random bot. */
        gateau_match_config config = {.setup = game->setup, .chance = &game->rng};
        for (int s = 0; s < players; s++)
            config.seats[s] = (gateau_match_seat){.bot = "random", .rng = &game->rng};
        game->match = gateau_match_new(&config, error, sizeof error);
        FUZZ_REQUIRE(game->match, "%s", error);
    } else {
        game->live = gateau_state_new(game->setup);
    }
    return game;
}

/* Plays one more move; false when the game is over. */
static bool play_move(kept_game *game)
{
    if (game->match) {
        char error[256];
        return gateau_match_step(game->match, error, sizeof error) == GATEAU_MATCH_PLAYING;
    }
    if (gateau_state_is_over(game->live)) return false;
    do fuzz_play_random(game->live, &game->rng, 1);
    while (gateau_state_in_move(game->live) && !gateau_state_is_over(game->live));
    return true;
}

static void keep_position(kept_game *game)
{
    if (game->count == game->capacity) {
        game->capacity = game->capacity ? game->capacity * 2 : 64;
        game->after = realloc(game->after, sizeof *game->after * (size_t)game->capacity);
        if (!game->after) abort();
    }
    game->after[game->count++] =
        gateau_state_clone(game->match ? gateau_match_state(game->match) : game->live);
    kept_states++;
}

/* The position a header names (bytes 0-4). */
static const gateau_state *position(const uint8_t *header)
{
    int game_index = header[0] % gateau_game_count();
    const gateau_game *rules = gateau_game_at(game_index);
    int players = fuzz_players(rules, header[1]);
    FUZZ_REQUIRE(game_index < 16, "more games than slots");
    kept_game **slot = &games[(game_index * (GATEAU_MAX_PLAYERS + 1) + players) * 256 + header[2]];
    if (kept_states > MOST_KEPT_STATES) {
        for (int i = 0; i < GAME_SLOTS; i++) {
            if (games[i]) drop_game(games[i]);
            games[i] = NULL;
        }
    }
    if (!*slot) {
        *slot = start_game(rules, players, header[2]);
        keep_position(*slot);
    }
    kept_game *game = *slot;
    int moves = header[3] << 8 | header[4];
    if (moves > MOST_MOVES) moves = MOST_MOVES;
    while (game->count <= moves && !game->over) {
        if (play_move(game)) keep_position(game);
        else game->over = true;
    }
    return game->after[moves < game->count ? moves : game->count - 1];
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

/* Moves built in any order (gateau_move_order, gateau_move_choices):
 * a legal move's parts, turned round by `turn` places, are put back in an
 * order that is a whole legal move, and each of its beginnings, turned
 * round too, is part of one, with choices that are actions of the game.  (The same parts may
 * come back in another order: a piece o' Cake take's eat and collect name
 * no slice.) */
static void check_any_order(const gateau_state *state, int seat, const gateau_action *actions,
                            int count, int turn)
{
    gateau_action turned[GATEAU_MAX_MOVE_ACTIONS], ordered[GATEAU_MAX_MOVE_ACTIONS];
    gateau_action choices[GATEAU_MAX_ACTIONS];
    char error[512];
    for (int i = 0; i < count; i++) turned[i] = actions[(i + turn) % count];
    int n = gateau_move_order(state, seat, turned, count, ordered, error, sizeof error);
    FUZZ_REQUIRE(n > 0, "a legal move's %d parts turned round by %d are refused: %s", count, turn,
                 n < 0 ? error : "(none)");
    FUZZ_REQUIRE(gateau_move_check(state, seat, ordered, n, error, sizeof error),
                 "a legal move's parts turned round by %d ordered into no move: %s", turn, error);
    int space = gateau_action_space_size(gateau_state_setup(state));
    for (int k = 0; k <= count && k < 4; k++) { /* (the first few beginnings: a take has 12 parts) */
        /* The move's first k parts, turned round: a beginning in any order
         * (not any k of its parts: an eat names no slice without its take). */
        gateau_action begun[GATEAU_MAX_MOVE_ACTIONS];
        for (int i = 0; i < k; i++) begun[i] = actions[(i + turn) % k];
        bool complete;
        int found = gateau_move_choices(state, seat, begun, k, choices, &complete, error,
                                        sizeof error);
        FUZZ_REQUIRE(found >= 0, "%d parts of a legal move are part of none: %s", k, error);
        for (int c = 0; c < found; c++)
            FUZZ_REQUIRE(choices[c] >= 0 && (space <= 0 || choices[c] < space),
                         "choice %d is no action of the game", (int)choices[c]);
    }
}

/* Bytes as parts of a move: refused on one line, or an order and choices
 * that hold. */
static void check_any_parts(const gateau_state *state, int seat, const uint8_t *bytes,
                            size_t size)
{
    gateau_action parts[GATEAU_MAX_MOVE_ACTIONS], ordered[GATEAU_MAX_MOVE_ACTIONS];
    gateau_action choices[GATEAU_MAX_ACTIONS];
    int count = size < 16 ? (int)size : 16;
    for (int i = 0; i < count; i++) parts[i] = bytes[i];
    char error[512] = "";
    int n = gateau_move_order(state, seat, parts, count, ordered, error, sizeof error);
    if (n < 0) fuzz_check_error(error);
    bool complete;
    error[0] = '\0';
    int found = gateau_move_choices(state, seat, parts, count, choices, &complete, error,
                                    sizeof error);
    if (found < 0) fuzz_check_error(error);
    else FUZZ_REQUIRE(found <= GATEAU_MAX_ACTIONS, "%d choices", found);
    if (found >= 0 && complete)
        FUZZ_REQUIRE(n > 0 && gateau_move_check(state, seat, ordered, n, NULL, 0),
                     "parts called a whole move that is none");
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
    bool builds = seat >= 0 && !gateau_state_is_chance(state) && !gateau_state_in_move(state);
    if (count > 0 && builds) check_any_order(state, seat, actions, count, data[4] % count);
    check_any_parts(state, seat, data + HEADER_SIZE, size - HEADER_SIZE);

    free(text);
    return 0;
}
