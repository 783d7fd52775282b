/*
 * bot.c: the bot interface and the list of strategies.
 *
 * A strategy is a function that sees only a determinized state (see
 * gateau/bot.h); this file is the one place that does the determinizing.
 */
#include "gateau/bot.h"

#include <stdlib.h>
#include <string.h>

#include "core/engine.h"

typedef gateau_action (*bot_strategy)(const gateau_state *determinized, int seat,
                                      gateau_rng *rng);

struct gateau_bot {
    char *spec;
    bot_strategy strategy;
    gateau_state *scratch; /* reused between moves of one setup */
};

/* Uniform over the legal actions of the decision at hand. */
static gateau_action random_strategy(const gateau_state *state, int seat, gateau_rng *rng)
{
    gateau_action actions[GATEAU_MAX_ACTIONS];
    int count = gateau_state_legal_actions(state, seat, actions);
    return actions[gateau_rng_below(rng, (uint32_t)count)];
}

static const struct {
    const char *name;
    bot_strategy strategy;
} strategies[] = {
    {"random", random_strategy},
};

const char *gateau_bot_names(void) { return "random"; }

gateau_bot *gateau_bot_new(const char *spec, char *error, size_t error_size)
{
    size_t name_length = strcspn(spec, ":");
    for (size_t i = 0; i < sizeof strategies / sizeof strategies[0]; i++) {
        if (strlen(strategies[i].name) != name_length ||
            strncmp(strategies[i].name, spec, name_length) != 0)
            continue;
        if (spec[name_length]) {
            set_error(error, error_size, "bot '%s' takes no parameters", strategies[i].name);
            return NULL;
        }
        gateau_bot *bot = calloc(1, sizeof *bot);
        if (!bot) abort();
        bot->spec = strdup(spec);
        bot->strategy = strategies[i].strategy;
        return bot;
    }
    set_error(error, error_size, "unknown bot '%.*s' (bots: %s)", (int)name_length, spec,
              gateau_bot_names());
    return NULL;
}

void gateau_bot_free(gateau_bot *bot)
{
    if (!bot) return;
    gateau_state_free(bot->scratch);
    free(bot->spec);
    free(bot);
}

const char *gateau_bot_name(const gateau_bot *bot) { return bot->spec; }

gateau_action gateau_bot_choose(gateau_bot *bot, const gateau_state *state, int seat,
                                gateau_rng *rng)
{
    if (bot->scratch && bot->scratch->setup != state->setup) {
        gateau_state_free(bot->scratch);
        bot->scratch = NULL;
    }
    if (!bot->scratch) bot->scratch = gateau_state_clone(state);
    gateau_state_copy(bot->scratch, state);
    gateau_state_determinize(bot->scratch, seat, rng);
    return bot->strategy(bot->scratch, seat, rng);
}
