/*
 * engine.h: the line handling of `gateau engine` (engine.c), apart from its
 * reading loop for the fuzz target fuzz/fuzz_engine.c.
 */
#ifndef GATEAU_CLI_ENGINE_H
#define GATEAU_CLI_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gateau/bot.h"
#include "gateau/gateau.h"

/* The harness's lines as read from a file descriptor, not yet handled:
 * during a search a watcher thread reads on into it, looking for `stop`. */
typedef struct engine_input {
    int fd;
    char *data;
    size_t length, capacity;
    bool end;      /* the input ended */
    bool skipping; /* inside a line too long to keep */
} engine_input;

typedef struct engine_session {
    char bot_spec[256];   /* the bot each new game gets (option bot) */
    long move_ms;         /* option ms: > 0, an ismcts bot's time per move */
    gateau_bot *bot;
    gateau_setup *setup;  /* the game (NULL before newgame) */
    int seat;             /* 0-based, -1 before newgame */
    char *view;           /* the last view line's JSON (malloc'd), or NULL */
    int moves;            /* move lines counted since newgame */
    bool moves_told;      /* move or hidden lines came since newgame */
    char problem[300];    /* why there is no game (a newgame refused), "" */
    int protocol;         /* the version spoken: 1 until a handshake agrees on 2 */
    gateau_rng rng;       /* when go sends none */
    FILE *out;            /* the answers */
    engine_input *input;  /* watched for `stop` during a search (NULL: not) */
} engine_session;

void engine_session_init(engine_session *session, const char *bot_spec, uint64_t seed, FILE *out);
void engine_session_free(engine_session *session);
/* One line from the harness (changed in place); answers on session->out.
 * false after quit. */
bool engine_session_line(engine_session *session, char *line);

#endif
