/*
 * test_match.c: the match loop (gateau/match.h) and the game metadata
 * (gateau_game_type): seats that are bots, host seats and callbacks,
 * refusals, records, and the same games as the arena plays.
 */
#include <stdlib.h>
#include <string.h>

#include "gateau/arena.h"
#include "gateau/match.h"
#include "support.h"

/* A callback player that plays the bot it is given. */
typedef struct bot_player {
    gateau_bot *bot;
    gateau_rng rng;
    int calls;
    int stop_after; /* > 0: stop at that call */
    const char *forced; /* a fixed move to send instead */
} bot_player;

static bool play_by_bot(void *context, const gateau_state *state, int seat, char *move,
                        size_t size)
{
    bot_player *player = context;
    if (++player->calls == player->stop_after) return false;
    if (player->forced) {
        snprintf(move, size, "%s", player->forced);
        return true;
    }
    gateau_bot_move chosen;
    cr_assert(gateau_bot_choose_move(player->bot, state, seat, &player->rng, &chosen));
    snprintf(move, size, "%s", chosen.text);
    return true;
}

Test(match, bots_play_to_the_end_with_a_record)
{
    for (int g = 0; g < gateau_game_count(); g++) {
        const gateau_game *game = gateau_game_at(g);
        gateau_setup *setup = support_setup(gateau_game_name(game), gateau_game_min_players(game), NULL);
        gateau_rng chance, bots;
        gateau_rng_seed(&chance, 1);
        gateau_rng_seed(&bots, 2);
        gateau_match_config config = {.setup = setup, .chance = &chance, .keep_record = true};
        for (int s = 0; s < gateau_setup_players(setup); s++)
            config.seats[s] = (gateau_match_seat){.bot = "heuristic", .rng = &bots, .name = "H"};
        gateau_match *match = gateau_match_new(&config, NULL, 0);
        cr_assert(match);
        cr_assert_eq(gateau_match_run(match, NULL, 0), GATEAU_MATCH_OVER);
        gateau_record *record = gateau_match_record(match);
        cr_assert_eq(gateau_match_moves(match), gateau_record_move_count(record));
        cr_assert_str_eq(gateau_record_name(record, 0), "H");
        /* The record replays to the same scores. */
        char *text = gateau_record_text(record);
        gateau_record *replayed = support_read(text);
        int a[GATEAU_MAX_PLAYERS], b[GATEAU_MAX_PLAYERS];
        gateau_state_scores(gateau_match_state(match), a);
        gateau_state_scores(gateau_record_state(replayed), b);
        cr_assert(!memcmp(a, b, sizeof(int) * (size_t)gateau_setup_players(setup)));
        free(text);
        gateau_record_free(replayed);
        gateau_match_free(match);
        gateau_setup_free(setup);
    }
}

Test(match, host_seats_wait_and_callbacks_play)
{
    gateau_setup *setup = support_setup("piece-o-cake", 3, NULL);
    gateau_rng chance, rng;
    gateau_rng_seed(&chance, 5);
    gateau_rng_seed(&rng, 6);
    bot_player player = {.bot = gateau_bot_new("random", NULL, 0)};
    gateau_rng_seed(&player.rng, 7);
    gateau_match_config config = {.setup = setup, .chance = &chance, .keep_record = true};
    config.seats[1] = (gateau_match_seat){.player = play_by_bot, .context = &player};
    config.seats[2] = (gateau_match_seat){.bot = "random", .rng = &rng};
    gateau_match *match = gateau_match_new(&config, NULL, 0);
    gateau_bot *host = gateau_bot_new("heuristic", NULL, 0);
    gateau_rng host_rng;
    gateau_rng_seed(&host_rng, 8);
    int host_moves = 0;
    gateau_match_status status;
    while ((status = gateau_match_run(match, NULL, 0)) == GATEAU_MATCH_WAITING) {
        int seat = gateau_match_waiting_seat(match);
        cr_assert_eq(seat, 0, "only seat 1 is the host's");
        char error[256];
        gateau_bot_move move;
        cr_assert(gateau_bot_choose_move(host, gateau_match_state(match), seat, &host_rng, &move));
        cr_assert(gateau_match_play_actions(match, seat, move.actions, move.count, error,
                                            sizeof error), "%s", error);
        host_moves++;
    }
    cr_assert_eq(status, GATEAU_MATCH_OVER);
    cr_assert_gt(host_moves, 0);
    cr_assert_gt(player.calls, 0);
    gateau_bot_free(host);
    gateau_bot_free(player.bot);
    gateau_match_free(match);
    gateau_setup_free(setup);
}

Test(match, refusals_change_nothing)
{
    gateau_setup *setup = support_setup("mice-cake", 2, NULL);
    gateau_rng chance;
    gateau_rng_seed(&chance, 3);
    bot_player liar = {.forced = "assign Z9"};
    gateau_match_config config = {.setup = setup, .chance = &chance, .keep_record = true};
    config.seats[0] = (gateau_match_seat){.player = play_by_bot, .context = &liar};
    gateau_match *match = gateau_match_new(&config, NULL, 0);
    char error[256] = "";
    cr_assert_eq(gateau_match_run(match, error, sizeof error), GATEAU_MATCH_FAILED);
    cr_assert(strstr(error, "seat 1 made an illegal move"), "%s", error);
    int moves = gateau_match_moves(match);
    /* Seat 2 is the host's: a move out of turn, and half a move, are refused. */
    cr_assert(!gateau_match_play(match, 1, "assign A1", error, sizeof error));
    gateau_action none[1] = {0};
    cr_assert(!gateau_match_play_actions(match, 0, none, 0, error, sizeof error));
    cr_assert_eq(gateau_match_moves(match), moves);
    gateau_match_free(match);

    bot_player quitter = {.stop_after = 1};
    config.seats[0].context = &quitter;
    match = gateau_match_new(&config, NULL, 0);
    cr_assert_eq(gateau_match_run(match, NULL, 0), GATEAU_MATCH_STOPPED);
    gateau_match_free(match);

    config.seats[1] = (gateau_match_seat){.bot = "nonsense", .rng = &chance};
    cr_assert_null(gateau_match_new(&config, error, sizeof error));
    cr_assert(strstr(error, "seat 2: unknown bot 'nonsense'"), "%s", error);
    gateau_setup_free(setup);
}

/* The arena's game g is a match with the arena's generators. */
Test(match, the_arena_plays_matches)
{
    gateau_setup *setup = support_setup("maries-table", 3, NULL);
    const char *specs[] = {"heuristic", "random", "ismcts:iters=30"};
    gateau_arena_config arena_config = {.setup = setup, .bots = specs, .games = 3, .threads = 1,
                                        .seed = 9, .keep_records = true};
    gateau_arena *arena = gateau_arena_new(&arena_config, NULL, 0);
    cr_assert(gateau_arena_run(arena, NULL, 0));
    for (long g = 0; g < 3; g++) {
        gateau_rng chance, rngs[3];
        gateau_rng_seed_stream(&chance, 9, (uint64_t)g * 8);
        gateau_match_config config = {.setup = setup, .chance = &chance, .keep_record = true};
        const gateau_arena_game *result = &gateau_arena_games(arena)[g];
        for (int s = 0; s < 3; s++) {
            gateau_rng_seed_stream(&rngs[s], 9, (uint64_t)g * 8 + 1 + (uint64_t)s);
            config.seats[s] = (gateau_match_seat){.bot = specs[result->bot_at_seat[s]],
                                                  .rng = &rngs[s]};
        }
        gateau_match *match = gateau_match_new(&config, NULL, 0);
        cr_assert_eq(gateau_match_run(match, NULL, 0), GATEAU_MATCH_OVER);
        int scores[GATEAU_MAX_PLAYERS];
        gateau_state_scores(gateau_match_state(match), scores);
        cr_assert(!memcmp(scores, result->scores, sizeof(int) * 3), "game %ld", g + 1);
        cr_assert_eq(gateau_match_moves(match), result->moves);
        cr_assert_eq(gateau_match_actions(match), result->actions);
        gateau_match_free(match);
    }
    gateau_arena_free(arena);
    gateau_setup_free(setup);
}

/* What a spec plays where its game lacks the support it asks for. */
/* A move given as actions is checked whole: legal, complete, nothing more. */
Test(match, moves_as_actions_are_checked_whole)
{
    gateau_record *record = support_read(
        "game: piece-o-cake\nplayers: 3\n---\n"
        "deal CBSBBSKSKBRSKPPCKBGSCGCKKGCCGRGSASCGCBGSABSRARKGCACKCGSRP\n"
        "cut 1-10 11\n");
    const gateau_state *state = gateau_record_state(record);
    gateau_action actions[GATEAU_MAX_MOVE_ACTIONS];
    int count = gateau_move_parse(state, 1, "take 11 e", actions, NULL, 0);
    cr_assert_eq(count, 2);
    char error[256] = "";
    cr_assert(gateau_move_check(state, 1, actions, count, error, sizeof error), "%s", error);
    cr_assert(!gateau_move_check(state, 1, actions, 1, error, sizeof error));
    cr_assert(strstr(error, "not one complete move"), "%s", error);
    cr_assert(!gateau_move_check(state, 0, actions, count, error, sizeof error));
    cr_assert(!gateau_move_check(state, 1, actions, 0, error, sizeof error));
    gateau_record_free(record);
}

Test(match, bot_fallbacks_are_told)
{
    const gateau_game *mice = gateau_game_find("mice-cake"), *cake = gateau_game_find("piece-o-cake");
    cr_assert_str_eq(gateau_bot_fallback("solver", mice), "heuristic");
    cr_assert_null(gateau_bot_fallback("solver", cake), "piece o' Cake has a solver");
    cr_assert_null(gateau_bot_fallback("heuristic", mice));
    cr_assert_null(gateau_bot_fallback("ismcts:ms=5", mice));
    cr_assert_null(gateau_bot_fallback("solverish", mice));
}

/* Every game has a key to its letters and colors and what they are worth
 * (issue 14): whole lines a terminal shows as they are, naming every
 * letter of the game's notation with its value. */
Test(match, every_game_has_a_key)
{
    static const struct { const char *game, *const fragments[4]; } keys[] = {
        {"piece-o-cake", {"P plum         3 slices, bonus  3, eaten 1 point a slice",
                          "C chocolate   11 slices, bonus 11, eaten 3 points a slice",
                          "e eats the\nslice, c collects it"}},
        {"maries-table", {"  kept     1   2   3   4   5   6   7   8\n",
                          "  points  -3  -1   1   3   5   6   7   8\n",
                          "eaten card scores 1 point"}},
        {"mice-cake", {"a + b pips (0/0 nothing, 6/6 12)", "Columns A to D", "?? is a piece"}},
        {"cake-master", {"W white, P pink, C chocolate", "1 color 3, 2 colors 1, 3 colors 0",
                         "r b    a raspberry, a blueberry", "@ rosette, o half-rosette"}},
    };
    cr_assert_eq(gateau_game_count(), (int)(sizeof keys / sizeof keys[0]));
    for (size_t g = 0; g < sizeof keys / sizeof keys[0]; g++) {
        const gateau_game *game = gateau_game_find(keys[g].game);
        cr_assert_not_null(game, "%s", keys[g].game);
        char *key = gateau_game_key(game);
        size_t length = strlen(key);
        cr_assert_gt(length, 0, "%s has a key", keys[g].game);
        cr_expect_eq(key[length - 1], '\n', "%s: whole lines", keys[g].game);
        cr_expect_null(strchr(key, '\033'), "%s: no colors", keys[g].game);
        for (const char *line = key; *line;) {
            size_t width = strcspn(line, "\n");
            cr_expect_leq(width, 80u, "%s: a line of %zu characters: %.*s", keys[g].game, width,
                          (int)width, line);
            line += width + (line[width] == '\n');
        }
        for (int f = 0; f < 4 && keys[g].fragments[f]; f++)
            cr_expect_not_null(strstr(key, keys[g].fragments[f]), "%s's key says '%s':\n%s",
                               keys[g].game, keys[g].fragments[f], key);
        free(key);
    }
}

Test(match, game_types_bound_every_decision)
{
    for (int g = 0; g < gateau_game_count(); g++) {
        const gateau_game *game = gateau_game_at(g);
        const gateau_game_type *type = gateau_game_type_of(game);
        cr_assert(type->chance && type->hidden_information, "%s", gateau_game_name(game));
        cr_assert(type->score_unit && type->score_unit[0]);
        cr_assert(type->max_actions > 0 && type->max_actions <= GATEAU_MAX_ACTIONS);
        cr_assert(type->max_chance_outcomes > 0 && type->max_chance_outcomes <= GATEAU_MAX_ACTIONS);
        cr_assert(type->max_move_actions > 0 && type->max_move_actions <= GATEAU_MAX_MOVE_ACTIONS);
        /* Random games stay within the declared sizes (debug builds also
         * assert it inside the engine, on every test's games). */
        int players = gateau_game_max_players(game);
        gateau_setup *setup = support_setup(gateau_game_name(game), players, NULL);
        gateau_rng rng;
        gateau_rng_seed(&rng, 11);
        gateau_record *record = gateau_record_new(setup);
        support_play_out(record, &rng);
        for (int m = 0; m < gateau_record_move_count(record); m++) {
            int count;
            gateau_record_move_actions(record, m, &count);
            cr_assert_leq(count, type->max_move_actions);
        }
        gateau_record_free(record);
        gateau_setup_free(setup);
    }
    cr_assert(!gateau_game_type_of(gateau_game_find("piece-o-cake"))->simultaneous);
    cr_assert(gateau_game_type_of(gateau_game_find("maries-table"))->simultaneous);
    cr_assert_str_eq(gateau_game_type_of(gateau_game_find("cake-master"))->score_unit, "stars");
}
