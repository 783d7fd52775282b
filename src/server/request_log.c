/*
 * request_log.c: the request log (docs/server.md, "Operating it"): one
 * line per request, to standard error or to --log FILE.
 *
 * What the server has to say besides (a store failure, a table broken or
 * skipped) goes to the same place in the same shape (server_log): the
 * time first, then "-" where a request's line has its client, so that one
 * parser reads both, whatever --quiet says.
 *
 * Each line goes out in one write() to a descriptor opened with O_APPEND,
 * so that lines never interleave and nothing waits in a buffer when the
 * process dies.  SIGHUP reopens the file (after logrotate moved it): the
 * new file's descriptor replaces the old one with dup2, in one step, so
 * the loop thread writing meanwhile needs no lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "server/server.h"

static struct {
    char *path;         /* NULL: standard error */
    atomic_int written; /* the descriptor lines go to */
} request_log = {NULL, STDERR_FILENO};

static int open_file(const char *path, char *error, size_t error_size)
{
    int descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
    if (descriptor < 0)
        snprintf(error, error_size, "cannot open the log %s: %s", path, strerror(errno));
    return descriptor;
}

bool request_log_open(const char *path, char *error, size_t error_size)
{
    request_log_close();
    if (!path || !path[0]) return true;
    int descriptor = open_file(path, error, error_size);
    if (descriptor < 0) return false;
    request_log.path = strdup(path);
    if (!request_log.path) abort();
    atomic_store(&request_log.written, descriptor);
    return true;
}

bool request_log_reopen(char *error, size_t error_size)
{
    if (!request_log.path) return true; /* standard error is not ours to reopen */
    int fresh = open_file(request_log.path, error, error_size);
    if (fresh < 0) return false; /* the old file goes on receiving lines */
    int old = atomic_load(&request_log.written);
    bool replaced = dup2(fresh, old) >= 0;
    if (!replaced) snprintf(error, error_size, "cannot reopen the log %s: %s", request_log.path,
                            strerror(errno));
    close(fresh);
    return replaced;
}

void request_log_close(void)
{
    int descriptor = atomic_exchange(&request_log.written, STDERR_FILENO);
    if (request_log.path && descriptor != STDERR_FILENO) close(descriptor);
    free(request_log.path);
    request_log.path = NULL;
}

void request_log_text(const char *line)
{
    size_t length = strlen(line);
    char out[4096];
    if (length > sizeof out - 1) length = sizeof out - 1;
    memcpy(out, line, length);
    out[length++] = '\n';
    /* (A log that cannot be written drops its line: no request waits for it.) */
    if (write(atomic_load(&request_log.written), out, length) < 0) return;
}

/* path with its spaces as %20: a line's fields are split at spaces. */
static void without_spaces(const char *path, char *out, size_t size)
{
    size_t used = 0;
    for (const char *c = path; *c && used + 4 < size; c++) {
        if (*c == ' ') {
            memcpy(out + used, "%20", 3);
            used += 3;
        } else {
            out[used++] = *c;
        }
    }
    out[used] = '\0';
}

/* Now, in ISO 8601 (UTC, milliseconds): the first field of every line. */
static void timestamp(char *out, size_t size)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    struct tm utc;
    gmtime_r(&now.tv_sec, &utc);
    char when[32];
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &utc);
    snprintf(out, size, "%s.%03ldZ", when, now.tv_nsec / 1000000);
}

void request_log_answer(const char *client, const char *method, const char *path, int status,
                        int64_t microseconds)
{
    char spaced[2100];
    without_spaces(path, spaced, sizeof spaced);
    char when[48], line[2400];
    timestamp(when, sizeof when);
    snprintf(line, sizeof line, "%s %s %s %s %d %.1fms", when, client[0] ? client : "-", method,
             spaced, status, (double)microseconds / 1000.0);
    request_log_text(line);
}

void server_log(const char *format, ...)
{
    char message[3000], printable[3200], line[3300], when[48];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(message, sizeof message, format, arguments);
    va_end(arguments);
    one_line(message, printable, sizeof printable); /* (a reason may hold a line break) */
    timestamp(when, sizeof when);
    snprintf(line, sizeof line, "%s - gateau serve: %s", when, printable);
    request_log_text(line);
}
