/*
 * external.h: what the three files of ext:COMMAND share (not public).
 *
 *   external_spec.c     the spec: settings and the command's words
 *   external_process.c  the program: started, logged, stopped, reaped
 *   external.c          the conversation of docs/protocol.md and decisions
 */
#ifndef GATEAU_BOTS_EXTERNAL_H
#define GATEAU_BOTS_EXTERNAL_H

#include <stdbool.h>
#include <sys/types.h>

#include "bots/bots.h"
#include "core/engine.h"
#include "core/text.h"

enum {
    PROTOCOL_VERSION = 1,
    MAX_ARGUMENTS = 64,
    MAX_LINE = 16 * 1024,           /* a longer line from the program: a flood */
    OUTPUT_BUDGET = 1024 * 1024,    /* bytes the program may write per request */
    GRACE_MS = 100,                 /* past the budget before a reply is late */
    QUIT_WAIT_MS = 200,             /* for the program to exit after quit */
    DEFAULT_MOVE_MS = 10000,
    DEFAULT_START_MS = 10000,
    DEFAULT_LEGAL = 256,
};

typedef enum { EXCHANGE_OK, EXCHANGE_ERROR, EXCHANGE_TIMEOUT, EXCHANGE_CRASH, EXCHANGE_FLOOD } exchange_result;
typedef enum { WAIT_NOTHING, WAIT_READY, WAIT_MOVE } exchange_wait;

struct external_bot {
    /* From the spec. */
    char *spec;
    char *words;                     /* the command's words, NUL-separated */
    char *argv[MAX_ARGUMENTS + 1];
    long move_ms, clock_ms, start_ms; /* clock_ms < 0: no game clock */
    int legal_max;
    bool forfeit;
    char *log_path;
    /* The program. */
    pid_t pid;      /* 0: not started */
    int fd;         /* our end of the socket pair */
    bool dead;      /* failed: the fallback plays from now on */
    char name[128]; /* as the program gave it */
    gateau_text input; /* read, not yet a whole line */
    /* The game as the program was told it. */
    const gateau_setup *setup;
    int viewer;
    gateau_state *current; /* the position after the moves told (NULL: none told) */
    gateau_state **scratch; /* per depth, for listing the legal moves */
    int scratch_depth;
    int moves;             /* moves told since newgame */
    long clock_left_ms;
    gateau_text out;       /* queued for the program */
    gateau_bot *fallback;
};

/* external_process.c */

/* Milliseconds on a monotonic clock. */
double external_now_ms(void);
/* One line "gateau: seat N (SPEC): ..." on stderr, and in the log file
 * when there is one. */
void external_log(const external_bot *e, int seat, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
/* Starts e->argv in a process group of its own, on a socket pair: false
 * with the reason. */
bool external_start_program(external_bot *e, char *reason, size_t reason_size);
/* Kills the program's process group and reaps the program. */
void external_stop_program(external_bot *e);

#endif
