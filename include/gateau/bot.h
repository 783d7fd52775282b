/*
 * bot.h: computer players.
 *
 * A bot never sees the true state.  gateau_bot_choose() hands the bot's
 * strategy a copy of the state that went through gateau_state_determinize()
 * for the bot's seat: everything the seat cannot know has been resampled,
 * so a strategy cannot cheat even by accident.
 */
#ifndef GATEAU_BOT_H
#define GATEAU_BOT_H

#include "gateau/gateau.h"

typedef struct gateau_bot gateau_bot;

/* spec: a bot name with optional ":key=value" parameters ("random").
 * NULL with a one-line reason for an unknown bot or parameter. */
gateau_bot *gateau_bot_new(const char *spec, char *error, size_t error_size);
void gateau_bot_free(gateau_bot *bot);
const char *gateau_bot_name(const gateau_bot *bot); /* the spec as given */

/* The bot's next action for seat, which must be able to act in state. */
gateau_action gateau_bot_choose(gateau_bot *bot, const gateau_state *state, int seat,
                                gateau_rng *rng);

/* The names of the bots there are, for help texts: "random, ...". */
const char *gateau_bot_names(void);

#endif
