/*
 * external_process.c: the program of an ext: bot, started with
 * posix_spawn (no shell) in a process group of its own, its standard input
 * and output one end of a socket pair (send() with MSG_NOSIGNAL: a program
 * that dies cannot kill the host with SIGPIPE); logged; and killed with
 * its group and reaped.
 */
#define _GNU_SOURCE /* SOCK_CLOEXEC */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bots/external.h"

extern char **environ;

double external_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1000.0 + (double)t.tv_nsec / 1e6;
}

/* One line on stderr, and in the log file when there is one. */
void external_log(const external_bot *e, int seat, const char *format, ...)
{
    char message[512];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    char line[1024];
    snprintf(line, sizeof line, "gateau: seat %d (%s): %s\n", seat + 1, e->spec, message);
    fputs(line, stderr);
    if (e->log_path) {
        FILE *file = fopen(e->log_path, "a");
        if (file) {
            fputs(line, file);
            fclose(file);
        }
    }
}

void external_stop_program(external_bot *e)
{
    if (e->fd >= 0) close(e->fd);
    e->fd = -1;
    if (e->pid > 0) {
        kill(-e->pid, SIGKILL); /* the group: what the program started dies too */
        kill(e->pid, SIGKILL);
        while (waitpid(e->pid, NULL, 0) < 0 && errno == EINTR) {
        }
    }
    e->pid = 0;
    e->input.length = 0;
}

bool external_start_program(external_bot *e, char *reason, size_t reason_size)
{
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
        snprintf(reason, reason_size, "cannot make a socket pair: %s", strerror(errno));
        return false;
    }
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pair[1], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, pair[1], STDOUT_FILENO);
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
    pid_t pid;
    int failure = posix_spawnp(&pid, e->argv[0], &actions, &attributes, e->argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    close(pair[1]);
    if (failure != 0) {
        close(pair[0]);
        snprintf(reason, reason_size, "cannot start %s: %s", e->argv[0], strerror(failure));
        return false;
    }
    e->pid = pid;
    e->fd = pair[0];
    fcntl(e->fd, F_SETFL, fcntl(e->fd, F_GETFL) | O_NONBLOCK);
    return true;
}

