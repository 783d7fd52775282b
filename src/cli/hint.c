/*
 * hint.c: `gateau hint RECORD [--seat S] [--ms N] [--iters N] [--top K]
 * [--seed S] [--json]`: the best few moves for a seat where a record
 * stands, with estimated win chance and mean final score.
 *
 * The analysis is ismcts's (gateau_bot_analyse), from the seat's
 * information only: the record's true state is determinized for the seat
 * before anything looks at it.  Where the game can be solved exactly
 * (piece o' Cake's last cake), the values are exact and say so.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

#define HINT_TOP_DEFAULT 5
#define HINT_MAX 32

/* Prints the hint, the mean final score in the game's unit (stars, pips);
 * also used by `gateau play` (src/cli/play.c). */
void cli_print_hint(FILE *out, const gateau_game *game, const gateau_bot_candidate *results,
                    int count, int seat, const char *budget)
{
    const char *unit = gateau_game_type_of(game)->score_unit;
    fprintf(out, "Best moves for seat %d (%s):\n", seat + 1, budget);
    for (int i = 0; i < count; i++) {
        const gateau_bot_candidate *c = &results[i];
        fprintf(out, "  %d. %-28s win %5.1f%%   mean score %6.1f %s", i + 1, c->move,
                100.0 * c->win, c->score, unit);
        if (c->exact) fprintf(out, "   (exact)\n");
        else fprintf(out, "   (%d simulations)\n", c->visits);
    }
}

static void usage(void)
{
    cli_error("hint: usage: gateau hint RECORD [--seat S] [--ms N | --iters N] [--top K] "
              "[--seed S] [--json]");
}

int cli_hint(int argc, char **argv)
{
    const char *path = NULL;
    uint64_t seat = 0, ms = 0, iterations = 0, top = HINT_TOP_DEFAULT, seed = 1;
    bool json = false;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        bool has_value = i + 1 < argc;
        if (!strcmp(arg, "--json")) {
            json = true;
        } else if (!strcmp(arg, "--seat") && has_value) {
            if (!cli_parse_integer("hint", arg, argv[++i], 1, GATEAU_MAX_PLAYERS, &seat)) return 2;
        } else if (!strcmp(arg, "--ms") && has_value) {
            if (!cli_parse_integer("hint", arg, argv[++i], 1, 3600000, &ms)) return 2;
        } else if (!strcmp(arg, "--iters") && has_value) {
            if (!cli_parse_integer("hint", arg, argv[++i], 1, 1000000000, &iterations)) return 2;
        } else if (!strcmp(arg, "--top") && has_value) {
            if (!cli_parse_integer("hint", arg, argv[++i], 1, HINT_MAX, &top)) return 2;
        } else if (!strcmp(arg, "--seed") && has_value) {
            if (!cli_parse_integer("hint", arg, argv[++i], 0, 2147483647, &seed)) return 2;
        } else if (!strncmp(arg, "--", 2)) {
            cli_error("hint: unknown option '%s'%s", arg,
                      has_value || !strcmp(arg, "--json") ? "" : " (or it needs a value)");
            return 2;
        } else if (path) {
            cli_error("hint: unexpected argument '%s'", arg);
            return 2;
        } else {
            path = arg;
        }
    }
    if (!path) {
        usage();
        return 2;
    }
    if (ms && iterations) {
        cli_error("hint: give --ms or --iters, not both");
        return 2;
    }
    gateau_record *record = cli_read_record(path);
    if (!record) return 1;
    char error[512];
    const gateau_state *state = gateau_record_state(record);
    int status = 1;
    gateau_bot *bot = NULL;
    int players = gateau_state_players(state);
    if (gateau_state_is_over(state)) {
        cli_error("hint: the game is over");
        goto done;
    }
    if (gateau_state_is_chance(state)) {
        cli_error("hint: a chance move comes next, not a seat's");
        goto done;
    }
    int chosen = seat ? (int)seat - 1 : gateau_state_next_seat(state);
    if (chosen >= players) {
        cli_error("hint: there is no seat %d: the seats of this %d-player game are 1..%d",
                  chosen + 1, players, players);
        goto done;
    }
    if (!(gateau_state_actors(state) & (1u << chosen))) {
        cli_error("hint: seat %d is not to move (seat %d is)", chosen + 1,
                  gateau_state_next_seat(state) + 1);
        goto done;
    }
    char spec[64], budget[96];
    if (ms) {
        snprintf(spec, sizeof spec, "ismcts:ms=%ld", (long)ms);
        snprintf(budget, sizeof budget, "ismcts, %ld ms", (long)ms);
    } else if (iterations) {
        snprintf(spec, sizeof spec, "ismcts:iters=%ld", (long)iterations);
        snprintf(budget, sizeof budget, "ismcts, %ld simulations", (long)iterations);
    } else {
        snprintf(spec, sizeof spec, "ismcts");
        snprintf(budget, sizeof budget, "ismcts, default budget");
    }
    bot = gateau_bot_new(spec, error, sizeof error);
    if (!bot) {
        cli_error("hint: %s", error);
        goto done;
    }
    gateau_rng rng;
    gateau_rng_seed_stream(&rng, (uint64_t)seed, (uint64_t)gateau_record_move_count(record));
    gateau_bot_candidate results[HINT_MAX];
    int count = gateau_bot_analyse(bot, state, chosen, &rng, results, (int)top);
    if (json) {
        json_t *moves = json_array();
        for (int i = 0; i < count; i++)
            json_array_append_new(moves, json_pack("{s:s, s:f, s:f, s:i, s:b}", "move",
                                                   results[i].move, "win", results[i].win,
                                                   "score", results[i].score, "visits",
                                                   results[i].visits, "exact", results[i].exact));
        json_t *out = json_pack("{s:s, s:i, s:s, s:o}", "game",
                                gateau_game_name(gateau_setup_game(gateau_record_setup(record))),
                                "seat", chosen + 1, "bot", spec, "moves", moves);
        char *text = json_dumps(out, JSON_COMPACT | JSON_PRESERVE_ORDER);
        puts(text);
        free(text);
        json_decref(out);
    } else {
        cli_print_hint(stdout, gateau_setup_game(gateau_record_setup(record)), results, count,
                       chosen, budget);
    }
    status = 0;
done:
    gateau_bot_free(bot);
    gateau_record_free(record);
    return status;
}
