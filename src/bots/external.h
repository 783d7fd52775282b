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
    PROTOCOL_VERSION = 2,           /* the highest spoken; 1 too, to programs that ask */
    MAX_ARGUMENTS = 64,
    MAX_LINE = 16 * 1024,           /* a longer line from the program: a flood */
    OUTPUT_BUDGET = 1024 * 1024,    /* bytes the program may write per request */
    GRACE_MS = 100,                 /* past the budget before a reply is late */
    QUIT_WAIT_MS = 200,             /* for the program to exit after quit */
    STDERR_LIMIT = 64 * 1024,       /* of the program's stderr passed through, per run */
    DEFAULT_MOVE_MS = 10000,
    DEFAULT_START_MS = 10000,
    DEFAULT_LEGAL = 256,
    WARNINGS_LOGGED = 20,           /* per program; the rest are only counted */
};

/* EXCHANGE_INTERRUPTED: the host is stopping (gateau_bot_interrupt). */
typedef enum {
    EXCHANGE_OK,
    EXCHANGE_ERROR,
    EXCHANGE_TIMEOUT,
    EXCHANGE_CRASH,
    EXCHANGE_FLOOD,
    EXCHANGE_INTERRUPTED
} exchange_result;
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
    char *stderr_path;  /* stderr=FILE: the program's stderr appended there */
    /* The program (external_process.c). */
    pid_t pid;      /* 0: not started */
    int fd;         /* our end of its standard output: what it says (-1: none) */
    int write_fd;   /* our end of its standard input: what it is told (-1: none) */
    int stderr_fd;  /* our end of its standard error, passed through (-1: none) */
    long stderr_passed;          /* bytes of it passed through in this run */
    unsigned long long started;  /* its start time (/proc stat ticks): descendants start later */
    char marker[64];             /* GATEAU_EXT_BOT=... in its environment, inherited by its own */
    bool dead;      /* failed: the fallback plays from now on */
    bool fatal;     /* could not start or shake hands: the run stops (docs/protocol.md) */
    bool interrupted; /* the host stopped it mid-request (gateau_bot_interrupt): it is dead */
    bool quiet;     /* a check before the games: failures are not logged */
    int failures;   /* failure lines so far, for the reports */
    int fallbacks;  /* moves the fallback made instead */
    char label[96]; /* where the bot plays, before its failure lines ("game 3, move 12") */
    char failure[512]; /* the last failure, as a forfeit or a stop says it */
    char name[128]; /* as the program gave it */
    gateau_text input; /* read, not yet a whole line */
    int protocol;      /* the version the program speaks (0: no handshake yet) */
    long request;      /* protocol 2: the number of the last request sent */
    long warnings;     /* its warnings, and its lines dropped (stale, unnumbered) */
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

/* external.c */

/* Starts the program and shakes hands, if not done yet: false (after
 * external_failed) when it cannot. */
bool external_ensure_started(external_bot *e, int seat);

/* external_process.c */

/* Milliseconds on a monotonic clock. */
double external_now_ms(void);
/* One line "gateau: [LABEL: ]seat N (SPEC): ..." on stderr, and in the log
 * file when there is one. */
void external_log(const external_bot *e, int seat, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
/* Starts e->argv in a process group of its own, its standard input,
 * output and error each on a channel of ours (stderr: stderr=FILE or a
 * pipe passed through up to STDERR_LIMIT): false with the reason. */
bool external_start_program(external_bot *e, char *reason, size_t reason_size);
/* Kills the program's process group and its descendants (also those that
 * left it: setsid), and reaps the program. */
void external_stop_program(external_bot *e);
/* Waits up to timeout_ms for the program's output (POLLIN, POLLHUP,
 * POLLERR on e->fd) and, with POLLOUT in events, for room in its input
 * (POLLOUT, also when the input is closed, so that a send says so); its
 * standard error is passed through meanwhile.  The revents, 0 when
 * nothing came, -1 with errno (EINTR). */
int external_wait(external_bot *e, short events, int timeout_ms);
/* Closes the program's input: it reads the end of it. */
void external_close_input(external_bot *e);
/* The program failed (what: the reason): counted and logged with its exit
 * status when it ended, and stopped unless keep (an illegal move, an error
 * answered) and the game goes on; e->failure says it for a forfeit (or,
 * with e->fatal, a stop). */
void external_failed(external_bot *e, int seat, const char *what, bool keep);
/* Starts the program and shakes hands now, before any game, as seat:
 * false with "seat N (SPEC): reason" when it cannot. */
bool external_check(external_bot *e, int seat, char *error, size_t error_size);
/* The process becomes its descendants' child subreaper, so that what an
 * ext: program starts comes back to it when orphaned (setsid, a double
 * fork) and is reaped here: false with the reason. */
bool external_guard(char *error, size_t error_size);
/* Every ext: program this process started and all they started: SIGTERM,
 * up to 100 ms, then SIGKILL.  Async-signal-safe (for the commands'
 * SIGINT and SIGTERM handlers); also run at exit. */
void external_kill_all(void);

#endif
