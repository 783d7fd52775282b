/*
 * fuzz_setup.c: setup options (gateau_setup_new's "key=value ...") and bot
 * specs (gateau_bot_new's "ismcts:ms=50:threads=2").
 *
 * Input: a 2-byte header, then text:
 *
 *   byte 0     the game: its index in the registry (`gateau games` order)
 *   byte 1     the player count, taken modulo 8 (so 0, 1, 7 are refused)
 *   text       the options, up to the first newline; after it, a bot spec
 *
 * A setup that is made must be made again, the same, from its canonical
 * options text, and a random game is played on it (an option's extreme
 * values must make a playable game).  A bot that is made must name
 * itself; what it plays instead in each game (gateau_bot_fallback) is
 * asked.  A refusal must say why on one line.  Deck paths are looked up
 * in tests/data; one with a '/' is skipped (fuzz.h).
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "gateau/bot.h"

enum { HEADER_SIZE = 2, MOST_ACTIONS = 20000 };

static void check_setup(const gateau_setup *setup)
{
    const gateau_game *game = gateau_setup_game(setup);
    int players = gateau_setup_players(setup);
    const char *canonical = gateau_setup_options_text(setup);
    char error[512];
    gateau_setup *again = gateau_setup_new(game, players, canonical, GATEAU_FUZZ_DATA_DIR, error,
                                           sizeof error);
    FUZZ_REQUIRE(again, "options '%s' as written are refused: %s", canonical, error);
    FUZZ_REQUIRE(!strcmp(gateau_setup_options_text(again), canonical),
                 "options '%s' are written again as '%s'", canonical,
                 gateau_setup_options_text(again));
    for (int o = 0; o < gateau_game_option_count(game); o++) {
        const char *name = gateau_game_option(game, o)->name;
        FUZZ_REQUIRE(gateau_setup_option(again, name) == gateau_setup_option(setup, name),
                     "option %s changed when written as '%s'", name, canonical);
    }
    gateau_setup_free(again);

    gateau_state *state = gateau_state_new(setup);
    gateau_rng rng;
    gateau_rng_seed(&rng, 1);
    fuzz_play_random(state, &rng, MOST_ACTIONS);
    gateau_state_free(state);
}

static void check_bot(const char *spec)
{
    char error[512];
    gateau_bot *bot = gateau_bot_new(spec, error, sizeof error);
    if (!bot) {
        fuzz_check_error(error);
        return;
    }
    FUZZ_REQUIRE(gateau_bot_name(bot) && gateau_bot_name(bot)[0], "bot '%s' has no name", spec);
    for (int g = 0; g < gateau_game_count(); g++) gateau_bot_fallback(spec, gateau_game_at(g));
    gateau_bot_free(bot);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < HEADER_SIZE) return 0;
    char *options = fuzz_text(data + HEADER_SIZE, size - HEADER_SIZE);
    char *newline = strchr(options, '\n');
    const char *spec = "";
    if (newline) {
        *newline = '\0';
        spec = newline + 1;
    }
    if (!fuzz_names_outside_deck(options)) {
        char error[512];
        gateau_setup *setup = gateau_setup_new(fuzz_game(data[0]), data[1] % 8, options,
                                               GATEAU_FUZZ_DATA_DIR, error, sizeof error);
        if (setup) check_setup(setup);
        else fuzz_check_error(error);
        gateau_setup_free(setup);
    }
    check_bot(spec);
    free(options);
    return 0;
}
