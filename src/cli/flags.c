/*
 * flags.c: the flag parsing the `gateau` subcommands share, and its error
 * lines.  Apart from main.c so that a fuzz target (fuzz/fuzz_flags.c) can
 * link these functions without the command's main().
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

void cli_error(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fputs("gateau: ", stderr);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
}

gateau_record *cli_read_record(const char *path)
{
    char error[512];
    int line = 0;
    gateau_record *record = gateau_record_read_file(path, error, sizeof error, &line);
    if (!record) {
        if (line) cli_error("%s:%d: %s", path, line, error);
        else cli_error("%s: %s", path, error);
    }
    return record;
}

static bool flag_allowed(const char *allowed, const char *flag)
{
    size_t length = strlen(flag);
    if (!length) return false; /* a bare "--" (strstr would find "" forever) */
    for (const char *p = allowed; (p = strstr(p, flag)) != NULL; p += length)
        if ((p == allowed || p[-1] == ' ') && (p[length] == ' ' || p[length] == '\0'))
            return true;
    return false;
}

bool cli_parse_integer(const char *command, const char *flag, const char *text, uint64_t min,
                       uint64_t max, uint64_t *out)
{
    /* Digits only: strtoull alone would take " -1" as 2^64-1 and "+7". */
    bool digits = text[0] != '\0';
    for (const char *c = text; *c; c++) digits = digits && isdigit((unsigned char)*c);
    char *end;
    errno = 0;
    unsigned long long value = digits ? strtoull(text, &end, 10) : 0;
    if (!digits || errno == ERANGE || value < min || value > max) {
        cli_error("%s: %s needs a whole number from %llu to %llu, not '%s'", command, flag,
                  (unsigned long long)min, (unsigned long long)max, text);
        return false;
    }
    *out = value;
    return true;
}

bool cli_parse_seats(const char *command, const char *text, int players, cli_seats *seats)
{
    seats->count = 0;
    const char *cursor = text;
    for (;;) {
        size_t length = strcspn(cursor, ",");
        while (length && isspace((unsigned char)*cursor)) cursor++, length--;
        while (length && isspace((unsigned char)cursor[length - 1])) length--;
        if (!length) {
            cli_error("%s: --seats: seat %d is empty (give one spec a seat, separated by "
                      "commas, as in human,random,heuristic)", command, seats->count + 1);
            return false;
        }
        if (seats->count == GATEAU_MAX_PLAYERS) {
            cli_error("%s: --seats names more than %d seats", command, GATEAU_MAX_PLAYERS);
            return false;
        }
        if (length >= sizeof seats->text[0]) {
            cli_error("%s: the spec '%.*s...' is too long (at most %d characters)", command, 20,
                      cursor, GATEAU_MAX_SPEC - 1);
            return false;
        }
        char *slot = seats->text[seats->count];
        memcpy(slot, cursor, length);
        slot[length] = '\0';
        seats->specs[seats->count++] = slot;
        cursor += strcspn(cursor, ",");
        if (!*cursor) break;
        cursor++;
    }
    if (players && seats->count != players) {
        cli_error("%s: --seats names %d seat%s for %d players", command, seats->count,
                  seats->count == 1 ? "" : "s", players);
        return false;
    }
    return true;
}

bool cli_parse_flags(const char *command, int argc, char **argv, const char *allowed,
                     cli_flags *flags)
{
    memset(flags, 0, sizeof *flags);
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strncmp(arg, "--", 2) != 0) {
            if (flags->game) {
                cli_error("%s: unexpected argument '%s'", command, arg);
                return false;
            }
            flags->game = arg;
            continue;
        }
        const char *flag = arg + 2;
        if (!flag_allowed(allowed, flag)) {
            cli_error("%s: unknown option '%s'", command, arg);
            return false;
        }
        if (strcmp(flag, "json") == 0) {
            flags->json = true;
            continue;
        }
        if (strcmp(flag, "options") == 0) {
            /* Every following word up to the next flag is one option. */
            while (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0 && strchr(argv[i + 1], '=')) {
                size_t used = strlen(flags->options);
                snprintf(flags->options + used, sizeof flags->options - used, "%s%s",
                         used ? " " : "", argv[++i]);
            }
            if (!flags->options[0]) {
                cli_error("%s: --options needs key=value words", command);
                return false;
            }
            continue;
        }
        if (i + 1 >= argc) {
            cli_error("%s: %s needs a value", command, arg);
            return false;
        }
        const char *value = argv[++i];
        if (strcmp(flag, "players") == 0) {
            uint64_t players;
            if (!cli_parse_integer(command, arg, value, 1, 1000000000, &players)) return false;
            flags->players = (int)players;
        } else if (strcmp(flag, "seats") == 0) {
            flags->seats = value;
        } else if (strcmp(flag, "record") == 0) {
            flags->record = value;
        } else if (strcmp(flag, "names") == 0) {
            flags->names = value;
        } else if (strcmp(flag, "resume") == 0) {
            flags->resume = value;
        } else if (strcmp(flag, "bot") == 0) {
            flags->bot = value;
        } else if (strcmp(flag, "deck") == 0) {
            /* --deck FILE is short for --options deck=FILE, with the path
             * made absolute: a record names its deck relative to the
             * record's own folder, which need not be the current one. */
            char *absolute = realpath(value, NULL);
            size_t used = strlen(flags->options);
            snprintf(flags->options + used, sizeof flags->options - used, "%sdeck=%s",
                     used ? " " : "", absolute ? absolute : value);
            free(absolute);
        } else if (strcmp(flag, "seed") == 0) {
            if (!cli_parse_integer(command, arg, value, 0, UINT64_MAX, &flags->seed))
                return false;
            flags->has_seed = true;
        }
    }
    return true;
}
