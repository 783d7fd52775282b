/*
 * engine.h: the line handling of `gateau engine` (engine.c), apart from its
 * reading loop for the fuzz target fuzz/fuzz_engine.c.
 */
#ifndef GATEAU_CLI_ENGINE_H
#define GATEAU_CLI_ENGINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gateau/bot.h"
#include "gateau/gateau.h"

typedef struct engine_session {
    char bot_spec[256];   /* the bot each new game gets */
    gateau_bot *bot;
    gateau_setup *setup;  /* the game (NULL before newgame) */
    int seat;             /* 0-based, -1 before newgame */
    char *view;           /* the last view line's JSON (malloc'd), or NULL */
    int moves;            /* move lines counted since newgame */
    gateau_rng rng;       /* when go sends none */
    FILE *out;            /* the answers */
} engine_session;

void engine_session_init(engine_session *session, const char *bot_spec, uint64_t seed, FILE *out);
void engine_session_free(engine_session *session);
/* One line from the harness (changed in place); answers on session->out.
 * false after quit. */
bool engine_session_line(engine_session *session, char *line);

#endif
