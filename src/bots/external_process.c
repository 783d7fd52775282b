/*
 * external_process.c: the program of an ext: bot as a process.
 *
 * Started with posix_spawn (no shell) in a process group of its own, its
 * standard input and output each a socket pair of their own (a program
 * that closes its output is noticed at once, though its input stays open;
 * send() with MSG_NOSIGNAL: a program that dies cannot kill the host with
 * SIGPIPE), its standard error a file (stderr=FILE) or a pipe passed
 * through to ours up to STDERR_LIMIT per run.  Its environment gets
 * GATEAU_EXT_BOT=PID:SERIAL, which what it starts inherits: stopping it
 * kills its group, its descendants by their parents in /proc, and every
 * process with that marker, so that a grandchild that left the group
 * (setsid) goes too.  A host that called external_guard is their child
 * subreaper: such orphans come back to it, and are reaped here.
 *
 * Every program running is in a registry of fixed size, which
 * external_kill_all (async-signal-safe: raw system calls on stack
 * buffers) walks when the process ends: at exit, and from the commands'
 * SIGINT and SIGTERM handlers.
 */
#define _GNU_SOURCE /* SOCK_CLOEXEC, pipe2, sigabbrev_np */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bots/external.h"

extern char **environ;

enum {
    REGISTRY_SIZE = 4096,  /* programs running at once (a server's tables) */
    KILL_GRACE_MS = 100,   /* after SIGTERM, before SIGKILL, when the host ends */
    END_WAIT_MS = 100,     /* for the exit status of a program whose output ended */
    REAP_WAIT_MS = 2000,   /* for a killed program to die (else it is left) */
    ORPHAN_WAIT_MS = 200,  /* for its killed descendants to die */
    SCAN_ROUNDS = 8,       /* of /proc, until no new descendant shows */
    KILLED_MAX = 256,      /* descendants remembered for reaping */
};

/* The registry: a slot holds a running program's pid, its negation once
 * it was killed and is being reaped (not to be signalled again, nor
 * reaped by another thread), or 0. */
static atomic_int registry[REGISTRY_SIZE];
static atomic_bool any_started; /* a program was ever started: exit must look */
static atomic_bool guarded;     /* external_guard: orphans come back here */
static atomic_bool ending;      /* external_kill_all ran: no program may live on */
static atomic_uint serial;      /* of the markers */
static unsigned long long own_start; /* this process's start time (stat ticks) */
/* Held while a program is spawned and registered, and while orphans are
 * reaped: a program that exits before it is registered is not taken for
 * an orphan. */
static pthread_mutex_t spawn_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t prepared = PTHREAD_ONCE_INIT;

double external_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1000.0 + (double)t.tv_nsec / 1e6;
}

static void sleep_ms(int milliseconds)
{
    struct timespec pause = {milliseconds / 1000, (long)(milliseconds % 1000) * 1000000L};
    while (nanosleep(&pause, &pause) != 0 && errno == EINTR) {
    }
}

/* ---- /proc, with raw system calls (async-signal-safe) ------------------------------------- */

typedef struct proc_info {
    int pid, ppid, pgrp;
    char state;               /* 'Z': a zombie, dead */
    unsigned long long start; /* clock ticks after boot */
} proc_info;

/* The decimal digits of a non-negative number at out, NUL-terminated,
 * without snprintf; returns the end. */
static char *put_number(char *out, int number)
{
    char digits[16];
    int count = 0;
    do digits[count++] = (char)('0' + number % 10);
    while ((number /= 10) > 0);
    while (count) *out++ = digits[--count];
    *out = '\0';
    return out;
}

static char *put_text(char *out, const char *text)
{
    while (*text) *out++ = *text++;
    *out = '\0';
    return out;
}

/* "/proc/<pid>/<name>" into path (at least 64 bytes). */
static void proc_path(char *path, int pid, const char *name)
{
    put_text(put_text(put_number(put_text(path, "/proc/"), pid), "/"), name);
}

static const char *read_number(const char *p, unsigned long long *value)
{
    while (*p == ' ') p++;
    bool negative = *p == '-';
    if (negative) p++;
    unsigned long long number = 0;
    while (*p >= '0' && *p <= '9') number = number * 10 + (unsigned long long)(*p++ - '0');
    *value = negative ? 0 : number;
    return p;
}

/* The process's parent, group, state and start time from /proc/PID/stat. */
static bool proc_stat(int pid, proc_info *info)
{
    char path[64], text[1024];
    proc_path(path, pid, "stat");
    int file = open(path, O_RDONLY | O_CLOEXEC);
    if (file < 0) return false;
    ssize_t length = read(file, text, sizeof text - 1);
    close(file);
    if (length <= 0) return false;
    text[length] = '\0';
    /* The name in parentheses may hold anything: the fields follow the last ')'. */
    const char *p = NULL;
    for (ssize_t i = length - 1; i >= 0 && !p; i--)
        if (text[i] == ')') p = text + i + 1;
    if (!p || p[0] != ' ' || !p[1]) return false;
    info->pid = pid;
    info->state = p[1];
    p += 2;
    unsigned long long value = 0;
    p = read_number(p, &value); /* 4: ppid */
    info->ppid = (int)value;
    p = read_number(p, &value); /* 5: pgrp */
    info->pgrp = (int)value;
    for (int field = 6; field <= 22 && *p; field++) p = read_number(p, &value);
    info->start = value; /* 22: starttime */
    return true;
}

/* Whether pid's environment holds the entry `wanted` (whole), or one
 * that begins with it. */
static bool environ_has(int pid, const char *wanted, bool whole)
{
    char path[64], chunk[4096], entry[96]; /* (wanted is shorter than entry) */
    proc_path(path, pid, "environ");
    int file = open(path, O_RDONLY | O_CLOEXEC);
    if (file < 0) return false;
    size_t wanted_length = strlen(wanted), length = 0;
    bool found = false;
    ssize_t got;
    while (!found && (got = read(file, chunk, sizeof chunk)) > 0) {
        for (ssize_t i = 0; i < got && !found; i++) {
            if (chunk[i]) { /* an entry goes on: its beginning is kept */
                if (length < sizeof entry) entry[length] = chunk[i];
                length++;
                continue;
            }
            found = (whole ? length == wanted_length : length >= wanted_length) &&
                    !memcmp(entry, wanted, wanted_length);
            length = 0;
        }
    }
    close(file);
    return found;
}

/* The entries getdents64 writes. */
struct proc_entry {
    uint64_t inode;
    int64_t offset;
    unsigned short length;
    unsigned char type;
    char name[];
};

/* Calls visit for every process in /proc from pid min_pid on (the
 * others' stat files are not read), on stack buffers only. */
static void each_process(int min_pid, void (*visit)(const proc_info *info, void *context),
                         void *context)
{
    int directory = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (directory < 0) return;
    _Alignas(8) char buffer[8192];
    long got;
    int self = (int)getpid();
    while ((got = syscall(SYS_getdents64, directory, buffer, sizeof buffer)) > 0) {
        for (long at = 0; at < got;) {
            const struct proc_entry *entry = (const struct proc_entry *)(buffer + at);
            at += entry->length;
            int pid = 0;
            const char *c = entry->name;
            for (; *c >= '0' && *c <= '9'; c++) pid = pid * 10 + (*c - '0');
            proc_info info;
            if (*c || pid < min_pid || pid <= 0 || pid == self || !proc_stat(pid, &info))
                continue;
            visit(&info, context);
        }
    }
    close(directory);
}

/* ---- The registry --------------------------------------------------------------------------- */

/* In a child of fork: the programs are its parent's, not to be killed
 * when the child exits (its atexit handlers are the parent's). */
static void forget_programs(void)
{
    for (int i = 0; i < REGISTRY_SIZE; i++) atomic_store(&registry[i], 0);
    proc_info self;
    own_start = proc_stat((int)getpid(), &self) ? self.start : 0;
}

static void prepare(void)
{
    proc_info self;
    own_start = proc_stat((int)getpid(), &self) ? self.start : 0;
    pthread_atfork(NULL, NULL, forget_programs);
    atexit(external_kill_all);
}

static void register_program(pid_t pid)
{
    for (int i = 0; i < REGISTRY_SIZE; i++) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&registry[i], &expected, (int)pid)) return;
    }
    /* Full: the program is still stopped with its bot, only not at exit. */
}

/* Marks the program killed (value -pid), or forgets it (0). */
static void mark_program(pid_t pid, int value)
{
    for (int i = 0; i < REGISTRY_SIZE; i++) {
        int seen = atomic_load(&registry[i]);
        if (seen == (int)pid || seen == -(int)pid) {
            atomic_store(&registry[i], value);
            return;
        }
    }
}

static bool registered(int pid)
{
    for (int i = 0; i < REGISTRY_SIZE; i++) {
        int seen = atomic_load(&registry[i]);
        if (seen == pid || seen == -pid) return true;
    }
    return false;
}

/* ---- Killing them all when the host ends ------------------------------------------------------ */

typedef struct kill_all_pass {
    int signal_number;
    char prefix[48]; /* "GATEAU_EXT_BOT=<our pid>:" */
    int alive;       /* processes signalled that were not dead yet */
} kill_all_pass;

static void signal_marked(const proc_info *info, void *context)
{
    kill_all_pass *pass = context;
    if (info->state == 'Z' || info->start < own_start) return;
    if (!environ_has(info->pid, pass->prefix, false)) return;
    kill(info->pid, pass->signal_number);
    if (info->pgrp == info->pid && info->pgrp != (int)getpgrp()) kill(-info->pid, pass->signal_number);
    pass->alive++;
}

static int signal_everything(int signal_number)
{
    kill_all_pass pass = {.signal_number = signal_number};
    put_text(put_number(put_text(pass.prefix, "GATEAU_EXT_BOT="), (int)getpid()), ":");
    for (int i = 0; i < REGISTRY_SIZE; i++) {
        int pid = atomic_load(&registry[i]);
        if (pid <= 0) continue;
        proc_info info;
        if (proc_stat(pid, &info) && info.state != 'Z') pass.alive++;
        kill(-pid, signal_number);
        kill(pid, signal_number);
    }
    each_process(1, signal_marked, &pass);
    return pass.alive;
}

void external_kill_all(void)
{
    /* Set before the registry is read: a program spawned meanwhile on
     * another thread is either registered by then (and killed here) or
     * killed by its spawner, which reads this after registering it. */
    atomic_store(&ending, true);
    if (!atomic_load(&any_started)) return;
    int saved = errno;
    if (signal_everything(SIGTERM) > 0) {
        /* A moment to go by themselves; a program that ignores SIGTERM
         * is killed. */
        for (int waited = 0; waited < KILL_GRACE_MS; waited += 10) {
            sleep_ms(10);
            if (signal_everything(0) == 0) break;
        }
        signal_everything(SIGKILL);
    }
    errno = saved;
}

bool external_guard(char *error, size_t error_size)
{
    pthread_once(&prepared, prepare);
    if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) {
        set_error(error, error_size, "cannot become the bots' subreaper: %s", strerror(errno));
        return false;
    }
    atomic_store(&guarded, true);
    return true;
}

/* ---- Logging ---------------------------------------------------------------------------------- */

/* The spec as messages name it: whole up to 100 characters, else its
 * start and its end around "...", so that a long spec (511 characters
 * are allowed) leaves room for the reason in a message of bounded size. */
typedef struct shown_spec {
    char text[101];
} shown_spec;

static shown_spec show_spec(const char *spec)
{
    shown_spec shown;
    size_t length = strlen(spec);
    if (length <= 100) snprintf(shown.text, sizeof shown.text, "%s", spec);
    else snprintf(shown.text, sizeof shown.text, "%.64s...%s", spec, spec + length - 33);
    return shown;
}

void external_log(const external_bot *e, int seat, const char *format, ...)
{
    if (e->quiet) return;
    char message[768];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    char line[1280];
    snprintf(line, sizeof line, "gateau: %s%sseat %d (%s): %s\n", e->label, e->label[0] ? ": " : "",
             seat + 1, show_spec(e->spec).text, message);
    fputs(line, stderr);
    if (e->log_path) {
        FILE *file = fopen(e->log_path, "a");
        if (file) {
            fputs(line, file);
            fclose(file);
        }
    }
}

/* The log file only: a failure the host reports itself (a forfeit, a
 * program that cannot start). */
static void log_to_file(const external_bot *e, const char *text)
{
    if (!e->log_path || e->quiet) return;
    FILE *file = fopen(e->log_path, "a");
    if (!file) return;
    fprintf(file, "gateau: %s%s%s\n", e->label, e->label[0] ? ": " : "", text);
    fclose(file);
}

/* ---- Standard error --------------------------------------------------------------------------- */

static void write_all(int descriptor, const char *data, size_t length)
{
    while (length > 0) {
        ssize_t n = write(descriptor, data, length);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return; /* our stderr is gone: nothing to tell */
        data += n;
        length -= (size_t)n;
    }
}

/* What the program wrote on its standard error since last time: passed
 * to ours up to STDERR_LIMIT, then dropped with one note.  At most 512
 * KiB a call, so that a flood does not hold the conversation. */
static void pass_stderr(external_bot *e)
{
    char buffer[8192];
    for (int round = 0; round < 64 && e->stderr_fd >= 0; round++) {
        ssize_t n = read(e->stderr_fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return; /* EAGAIN: nothing more now */
        if (n == 0) {      /* it closed its standard error */
            close(e->stderr_fd);
            e->stderr_fd = -1;
            return;
        }
        long room = STDERR_LIMIT - e->stderr_passed;
        if (room > 0) write_all(STDERR_FILENO, buffer, (size_t)(n < room ? n : room));
        if (room > 0 && n >= room) {
            if (buffer[room - 1] != '\n') write_all(STDERR_FILENO, "\n", 1);
            bool quiet = e->quiet; /* (a check's failures are quiet, not this) */
            e->quiet = false;
            external_log(e, e->viewer, "its standard error passed %d KiB: the rest is dropped "
                         "(stderr=FILE keeps it all)", STDERR_LIMIT / 1024);
            e->quiet = quiet;
        }
        e->stderr_passed += n;
    }
}

int external_wait(external_bot *e, short events, int timeout_ms)
{
    struct pollfd pollers[3] = {
        {.fd = e->fd, .events = POLLIN},
        {.fd = (events & POLLOUT) ? e->write_fd : -1, .events = POLLOUT},
        {.fd = e->stderr_fd, .events = POLLIN},
    };
    int ready = poll(pollers, 3, timeout_ms);
    if (ready <= 0) return ready;
    if (pollers[2].revents) pass_stderr(e);
    int revents = pollers[0].revents & (POLLIN | POLLHUP | POLLERR);
    if (pollers[1].revents & (POLLOUT | POLLHUP | POLLERR)) revents |= POLLOUT;
    return revents;
}

void external_close_input(external_bot *e)
{
    if (e->write_fd >= 0) close(e->write_fd);
    e->write_fd = -1;
}

/* ---- Starting ------------------------------------------------------------------------------- */

/* The program's environment: its marker first, then ours. */
static char **environment_with(const char *marker)
{
    size_t count = 0;
    while (environ && environ[count]) count++;
    char **list = malloc(sizeof *list * (count + 2));
    if (!list) abort(); /* out of memory */
    list[0] = (char *)marker;
    for (size_t i = 0; i < count; i++) list[i + 1] = environ[i];
    list[count + 1] = NULL;
    return list;
}

static void close_pair(int pair[2])
{
    for (int i = 0; i < 2; i++)
        if (pair[i] >= 0) close(pair[i]);
    pair[0] = pair[1] = -1;
}

/* The channels of a program: its input and output socket pairs, and its
 * standard error (a pipe to pass through, or the stderr= file). */
typedef struct channels {
    int input[2], output[2], errors[2]; /* [0] ours, [1] the program's */
} channels;

/* Whether the log= file can be appended to, without making it: it is
 * made by the first failure, so that no file says there was none.  errno
 * says why not. */
static bool log_writable(const char *path)
{
    int log = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (log >= 0) {
        close(log);
        return true;
    }
    if (errno != ENOENT) return false;
    char folder[4096];
    snprintf(folder, sizeof folder, "%s", path);
    char *slash = strrchr(folder, '/');
    if (!slash) snprintf(folder, sizeof folder, ".");
    else if (slash == folder) folder[1] = '\0';
    else *slash = '\0';
    return access(folder, W_OK | X_OK) == 0;
}

static bool open_channels(const external_bot *e, channels *c, char *reason, size_t reason_size)
{
    *c = (channels){{-1, -1}, {-1, -1}, {-1, -1}};
    if (e->log_path && !log_writable(e->log_path)) {
        /* (failures would go nowhere: said now, as for stderr=) */
        snprintf(reason, reason_size, "cannot open its log file %s: %s", e->log_path,
                 strerror(errno));
        return false;
    }
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, c->input) != 0 ||
        socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, c->output) != 0) {
        snprintf(reason, reason_size, "cannot make a socket pair: %s", strerror(errno));
        return false;
    }
    if (e->stderr_path) {
        c->errors[1] = open(e->stderr_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (c->errors[1] < 0) {
            snprintf(reason, reason_size, "cannot open its stderr file %s: %s", e->stderr_path,
                     strerror(errno));
            return false;
        }
    } else if (pipe2(c->errors, O_CLOEXEC) != 0) {
        snprintf(reason, reason_size, "cannot make a pipe: %s", strerror(errno));
        return false;
    }
    return true;
}

static void close_channels(channels *c)
{
    close_pair(c->input);
    close_pair(c->output);
    close_pair(c->errors);
}

static int spawn(external_bot *e, const channels *c, pid_t *pid)
{
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, c->input[1], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, c->output[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, c->errors[1], STDERR_FILENO);
    posix_spawnattr_init(&attributes);
    sigset_t defaults, empty;
    sigemptyset(&empty);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setsigmask(&attributes, &empty);
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF |
                                              POSIX_SPAWN_SETSIGMASK);
    snprintf(e->marker, sizeof e->marker, "GATEAU_EXT_BOT=%d:%u", (int)getpid(),
             atomic_fetch_add(&serial, 1) + 1);
    char **environment = environment_with(e->marker);
    pthread_mutex_lock(&spawn_lock);
    int failure = posix_spawnp(pid, e->argv[0], &actions, &attributes, e->argv, environment);
    if (failure == 0) register_program(*pid);
    if (failure == 0 && atomic_load(&ending)) { /* the process is ending: not this one too */
        kill(-*pid, SIGKILL);
        kill(*pid, SIGKILL);
    }
    pthread_mutex_unlock(&spawn_lock);
    free(environment);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    return failure;
}

bool external_start_program(external_bot *e, char *reason, size_t reason_size)
{
    pthread_once(&prepared, prepare);
    atomic_store(&any_started, true);
    channels c;
    if (!open_channels(e, &c, reason, reason_size)) {
        close_channels(&c);
        return false;
    }
    pid_t pid;
    int failure = spawn(e, &c, &pid);
    if (failure != 0) {
        close_channels(&c);
        snprintf(reason, reason_size, "cannot start %s: %s", e->argv[0], strerror(failure));
        return false;
    }
    /* The program's ends are its own now. */
    close(c.input[1]);
    close(c.output[1]);
    close(c.errors[1]);
    e->pid = pid;
    e->write_fd = c.input[0];
    e->fd = c.output[0];
    e->stderr_fd = c.errors[0];
    e->stderr_passed = 0;
    int descriptors[3] = {e->write_fd, e->fd, e->stderr_fd};
    for (int i = 0; i < 3; i++)
        if (descriptors[i] >= 0)
            fcntl(descriptors[i], F_SETFL, fcntl(descriptors[i], F_GETFL) | O_NONBLOCK);
    proc_info info;
    e->started = proc_stat(pid, &info) ? info.start : own_start;
    return true;
}

/* ---- Stopping ----------------------------------------------------------------------------------- */

/* The lowest process id that a process started since the program can
 * have: its own, while the kernel's ids have not wrapped around since
 * (then any: 1).  Spares reading every process's stat at every stop. */
static int lowest_pid_since(pid_t program)
{
    char text[32];
    int file = open("/proc/sys/kernel/ns_last_pid", O_RDONLY | O_CLOEXEC);
    ssize_t length = file >= 0 ? read(file, text, sizeof text - 1) : -1;
    if (file >= 0) close(file);
    if (length <= 0) return 1;
    text[length] = '\0';
    return atoi(text) >= (int)program ? (int)program : 1;
}

/* The processes started since the program, and those of them killed. */
typedef struct family {
    const external_bot *e;
    int lowest_pid; /* lowest_pid_since */
    proc_info *recent;
    int recent_count, recent_capacity;
    int killed[KILLED_MAX];
    int killed_count;
} family;

static void note_recent(const proc_info *info, void *context)
{
    family *f = context;
    if (info->start < f->e->started) return; /* older than the program: not its own */
    if (f->recent_count == f->recent_capacity) {
        f->recent_capacity = f->recent_capacity ? 2 * f->recent_capacity : 64;
        f->recent = realloc(f->recent, sizeof *f->recent * (size_t)f->recent_capacity);
        if (!f->recent) abort(); /* out of memory */
    }
    f->recent[f->recent_count++] = *info;
}

/* Whether a recent process descends from the program by its parents. */
static bool descends(const family *f, const proc_info *info)
{
    int parent = info->ppid;
    for (int depth = 0; depth < 64 && parent > 1; depth++) {
        if (parent == f->e->pid) return true;
        int next = 0;
        for (int i = 0; i < f->recent_count && !next; i++)
            if (f->recent[i].pid == parent) next = f->recent[i].ppid;
        parent = next;
    }
    return false;
}

static bool is_member(const family *f, const proc_info *info)
{
    return info->pgrp == f->e->pid || descends(f, info) ||
           environ_has(info->pid, f->e->marker, true);
}

/* One pass: kills the members alive; true when one was new. */
static bool kill_members(family *f)
{
    f->recent_count = 0;
    each_process(f->lowest_pid, note_recent, f);
    bool new_one = false;
    for (int i = 0; i < f->recent_count; i++) {
        const proc_info *info = &f->recent[i];
        if (info->state == 'Z' || info->pid == f->e->pid || !is_member(f, info)) continue;
        kill(info->pid, SIGKILL);
        /* Its own group (setsid, setpgid): what it started with it. */
        if (info->pgrp == info->pid && info->pgrp != (int)getpgrp()) kill(-info->pid, SIGKILL);
        bool known = false;
        for (int k = 0; k < f->killed_count && !known; k++) known = f->killed[k] == info->pid;
        if (!known && f->killed_count < KILLED_MAX) f->killed[f->killed_count++] = info->pid;
        new_one |= !known;
    }
    return new_one;
}

static void reap_program(pid_t pid)
{
    double deadline = external_now_ms() + REAP_WAIT_MS;
    for (;;) {
        pid_t done = waitpid(pid, NULL, WNOHANG);
        if (done == pid || (done < 0 && errno != EINTR)) return;
        if (external_now_ms() > deadline) return; /* (unkillable for now: left to exit) */
        sleep_ms(1);
    }
}

typedef struct orphans {
    int zombies[KILLED_MAX];
    int count;
} orphans;

static void note_zombie_child(const proc_info *info, void *context)
{
    orphans *found = context;
    if (info->state == 'Z' && info->ppid == (int)getpid() && found->count < KILLED_MAX)
        found->zombies[found->count++] = info->pid;
}

/* A subreaper's orphans: the program's killed descendants come back here
 * as they die; each, and any other orphan that died here, is reaped. */
static void reap_orphans(const family *f)
{
    double deadline = external_now_ms() + ORPHAN_WAIT_MS;
    for (;;) {
        orphans found = {.count = 0};
        pthread_mutex_lock(&spawn_lock);
        each_process(f->lowest_pid, note_zombie_child, &found);
        for (int i = 0; i < found.count; i++)
            if (!registered(found.zombies[i])) waitpid(found.zombies[i], NULL, WNOHANG);
        pthread_mutex_unlock(&spawn_lock);
        bool left = false;
        for (int k = 0; k < f->killed_count && !left; k++) {
            proc_info info;
            left = proc_stat(f->killed[k], &info) && info.state != 'Z';
        }
        if (!left || external_now_ms() > deadline) return;
        sleep_ms(2);
    }
}

void external_stop_program(external_bot *e)
{
    if (e->fd >= 0) close(e->fd);
    external_close_input(e);
    e->fd = -1;
    if (e->pid > 0) {
        pass_stderr(e); /* its last words */
        kill(-e->pid, SIGKILL); /* the group: what the program started dies too */
        kill(e->pid, SIGKILL);
        family f = {.e = e, .lowest_pid = lowest_pid_since(e->pid)};
        for (int round = 0; round < SCAN_ROUNDS && kill_members(&f); round++) {
        }
        mark_program(e->pid, -(int)e->pid);
        reap_program(e->pid);
        mark_program(e->pid, 0);
        if (atomic_load(&guarded)) reap_orphans(&f);
        free(f.recent);
    }
    if (e->stderr_fd >= 0) close(e->stderr_fd);
    e->stderr_fd = -1;
    e->pid = 0;
    e->input.length = 0;
}

/* ---- Failures ------------------------------------------------------------------------------------ */

/* How the program ended, " (exited with status 3)", when it has: a
 * moment is given to one whose output ended, which is exiting.  Not
 * reaped here (WNOWAIT): external_stop_program does. */
static void describe_end(const external_bot *e, char *out, size_t size)
{
    out[0] = '\0';
    char peek;
    bool output_ended = e->fd >= 0 && recv(e->fd, &peek, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
    double deadline = external_now_ms() + (output_ended ? END_WAIT_MS : 0);
    for (;;) {
        siginfo_t info;
        memset(&info, 0, sizeof info);
        if (waitid(P_PID, (id_t)e->pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
            info.si_pid == e->pid) {
            if (info.si_code == CLD_EXITED) {
                snprintf(out, size, " (exited with status %d)", info.si_status);
            } else {
                const char *name = sigabbrev_np(info.si_status);
                snprintf(out, size, " (killed by signal %d%s%s)", info.si_status,
                         name ? ", SIG" : "", name ? name : "");
            }
            return;
        }
        if (external_now_ms() >= deadline) break;
        sleep_ms(2);
    }
    if (output_ended) snprintf(out, size, " (its output closed while it still ran)");
}

void external_failed(external_bot *e, int seat, const char *what, bool keep)
{
    e->failures++;
    char ended[96] = "";
    if (!keep && e->pid > 0) describe_end(e, ended, sizeof ended);
    if (e->fatal && seat < 0) { /* a check outside any game */
        snprintf(e->failure, sizeof e->failure, "%s: %s%s", show_spec(e->spec).text, what, ended);
        log_to_file(e, e->failure);
    } else if (e->fatal) {
        snprintf(e->failure, sizeof e->failure, "seat %d (%s): %s%s", seat + 1,
                 show_spec(e->spec).text, what, ended);
        log_to_file(e, e->failure);
    } else if (e->forfeit) {
        snprintf(e->failure, sizeof e->failure, "seat %d (%s) forfeits: %s%s", seat + 1,
                 show_spec(e->spec).text, what, ended);
        log_to_file(e, e->failure);
    } else {
        external_log(e, seat, "%s%s; the heuristic bot moves instead", what, ended);
    }
    if (!keep || e->forfeit || e->fatal) {
        external_stop_program(e);
        e->dead = true;
    }
}

bool external_check(external_bot *e, int seat, char *error, size_t error_size)
{
    e->quiet = true;
    bool ok = external_ensure_started(e, seat);
    e->quiet = false;
    if (!ok) snprintf(error, error_size, "%s", e->failure);
    return ok;
}
