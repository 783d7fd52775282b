/*
 * external_spec.c: the spec of an ext: bot, "ext:[key=value:]...COMMAND":
 * its settings (docs/protocol.md) and the command split into words, as a
 * shell would split them, without a shell.  A leading "word=value:" is a
 * setting, and one whose word is not a setting's name is refused rather
 * than run as a command (a typo in a setting would otherwise start a
 * program of that name): a command that begins so is quoted.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/external.h"

static bool parse_number(const char *value, long low, long high, long *out)
{
    char *end;
    errno = 0;
    long number = strtol(value, &end, 10);
    if (!value[0] || *end || errno || number < low || number > high) return false;
    *out = number;
    return true;
}

/* One leading "key=value" of the spec: false with the reason. */
static bool parse_setting(external_bot *e, const char *key, const char *value, char *error,
                          size_t error_size)
{
    long number;
    if (!strcmp(key, "ms") || !strcmp(key, "clock") || !strcmp(key, "start")) {
        if (!parse_number(value, 1, 86400000L, &number)) {
            set_error(error, error_size, "ext: %s needs milliseconds 1..86400000, not '%s'", key,
                      value);
            return false;
        }
        if (!strcmp(key, "ms")) e->move_ms = number;
        else if (!strcmp(key, "clock")) e->clock_ms = number;
        else e->start_ms = number;
    } else if (!strcmp(key, "legal")) {
        if (!parse_number(value, 0, 100000, &number)) {
            set_error(error, error_size, "ext: legal needs a count 0..100000, not '%s'", value);
            return false;
        }
        e->legal_max = (int)number;
    } else if (!strcmp(key, "onerror")) {
        if (strcmp(value, "heuristic") && strcmp(value, "forfeit")) {
            set_error(error, error_size, "ext: onerror is heuristic or forfeit, not '%s'", value);
            return false;
        }
        e->forfeit = !strcmp(value, "forfeit");
    } else if (!strcmp(key, "log") || !strcmp(key, "stderr")) {
        if (!value[0]) {
            set_error(error, error_size, "ext: %s needs a file name", key);
            return false;
        }
        char **path = !strcmp(key, "log") ? &e->log_path : &e->stderr_path;
        free(*path);
        *path = strdup(value);
        if (!*path) abort(); /* out of memory */
    } else {
        set_error(error, error_size,
                  "ext: unknown setting '%s' (settings: ms, clock, start, legal, onerror, log, "
                  "stderr; a command that begins with %s=...: is quoted, as in ext:'%s=...')",
                  key, key, key);
        return false;
    }
    return true;
}

/* Whether text starts with a setting, "word=value:" (word: letters,
 * digits, '_' and '-'; value: no blank or ':'): its length before the
 * ':', else 0.  The command itself may hold ':' and '=' later on, as in
 * ext:gateau engine --bot ismcts:ms=50, and a quote before them keeps a
 * command that begins so from being taken for a setting. */
static size_t setting_length(const char *text)
{
    size_t word = strspn(text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-");
    if (!word || text[word] != '=') return 0;
    size_t value = strcspn(text + word + 1, ": \t'\"");
    return text[word + 1 + value] == ':' ? word + 1 + value : 0;
}

/* Splits the command into words as a shell would, simply: blanks separate
 * words; '...' keeps everything literally; "..." keeps everything but \"
 * and \\; a backslash outside quotes keeps the next character.  No
 * variables, globs or redirections: no shell is involved. */
static bool split_command(external_bot *e, const char *command, char *error, size_t error_size)
{
    e->words = malloc(strlen(command) + 1);
    if (!e->words) abort(); /* out of memory */
    char *out = e->words;
    int count = 0;
    const char *p = command;
    for (;;) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) break;
        if (count == MAX_ARGUMENTS) {
            set_error(error, error_size, "ext: the command has more than %d words", MAX_ARGUMENTS);
            return false;
        }
        e->argv[count++] = out;
        while (*p && *p != ' ' && *p != '\t') {
            if (*p == '\'') {
                const char *close = strchr(p + 1, '\'');
                if (!close) {
                    set_error(error, error_size, "ext: unclosed ' in the command");
                    return false;
                }
                memcpy(out, p + 1, (size_t)(close - p - 1));
                out += close - p - 1;
                p = close + 1;
            } else if (*p == '"') {
                for (p++; *p && *p != '"'; p++) {
                    if (*p == '\\' && (p[1] == '"' || p[1] == '\\')) p++;
                    *out++ = *p;
                }
                if (!*p) {
                    set_error(error, error_size, "ext: unclosed \" in the command");
                    return false;
                }
                p++;
            } else {
                if (*p == '\\' && p[1]) p++;
                *out++ = *p++;
            }
        }
        *out++ = '\0';
    }
    e->argv[count] = NULL;
    if (!count) {
        set_error(error, error_size, "ext: needs a command, as in ext:python3 my_bot.py");
        return false;
    }
    return true;
}

external_bot *external_new(const char *text, char *error, size_t error_size)
{
    external_bot *e = calloc(1, sizeof *e);
    if (!e) abort(); /* out of memory */
    e->move_ms = DEFAULT_MOVE_MS;
    e->start_ms = DEFAULT_START_MS;
    e->clock_ms = -1;
    e->legal_max = DEFAULT_LEGAL;
    e->fd = e->write_fd = e->stderr_fd = -1;
    e->spec = malloc(strlen(text) + 5);
    if (!e->spec) abort();
    sprintf(e->spec, "ext:%s", text);
    size_t length;
    while ((length = setting_length(text)) > 0) {
        char setting[1024];
        if (length >= sizeof setting) {
            set_error(error, error_size, "ext: a setting of over %zu characters", sizeof setting);
            external_free(e);
            return NULL;
        }
        snprintf(setting, sizeof setting, "%.*s", (int)length, text);
        char *equals = strchr(setting, '=');
        *equals = '\0';
        if (!parse_setting(e, setting, equals + 1, error, error_size)) {
            external_free(e);
            return NULL;
        }
        text += length + 1;
    }
    if (!split_command(e, text, error, error_size)) {
        external_free(e);
        return NULL;
    }
    return e;
}

