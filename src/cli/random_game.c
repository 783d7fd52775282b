/*
 * random_game.c: `gateau random GAME --players N [--seed S] [--options ...]`:
 * one complete game of the random bot (uniform over complete legal moves)
 * in every seat, as a record.
 */
#include <stdlib.h>

#include "cli/cli.h"

int cli_random(int argc, char **argv)
{
    cli_flags flags;
    if (!cli_parse_flags("random", argc, argv, "players seed options deck", &flags)) return 2;
    if (!flags.game) {
        cli_error("random: usage: gateau random GAME --players N [--seed S] [--options k=v ...]");
        return 2;
    }
    gateau_setup *setup = cli_setup("random", &flags);
    if (!setup) return 1;
    char error[512];
    uint64_t seed = flags.has_seed ? flags.seed : cli_fresh_seed();
    gateau_rng rng;
    gateau_rng_seed(&rng, seed);
    /* One generator for chance and every seat's random bot. */
    gateau_match_config config = {.setup = setup, .chance = &rng, .keep_record = true};
    for (int s = 0; s < flags.players; s++)
        config.seats[s] = (gateau_match_seat){.bot = "random", .rng = &rng};
    gateau_match *match = gateau_match_new(&config, error, sizeof error);
    gateau_match_run(match, error, sizeof error);
    gateau_record *record = gateau_match_record(match);
    char *text = gateau_record_text(record);
    printf("# gateau random %s --players %d --seed %llu\n%s", flags.game, flags.players,
           (unsigned long long)seed, text);
    free(text);
    gateau_match_free(match);
    gateau_setup_free(setup);
    return 0;
}
