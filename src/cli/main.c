/*
 * main.c: the `gateau` command: dispatch to subcommands, shared flag parsing.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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

uint64_t cli_fresh_seed(void)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    uint64_t seed = (uint64_t)now.tv_sec * 1000003u ^ (uint64_t)now.tv_nsec ^
                    ((uint64_t)getpid() << 32);
    return seed % 1000000000000ULL;
}

const gateau_game *cli_find_game(const char *name)
{
    const gateau_game *game = gateau_game_find(name);
    if (!game) {
        fprintf(stderr, "gateau: unknown game '%s' (games:", name ? name : "");
        for (int i = 0; i < gateau_game_count(); i++)
            fprintf(stderr, " %s", gateau_game_name(gateau_game_at(i)));
        fprintf(stderr, ")\n");
    }
    return game;
}

bool cli_check_writable(const char *command, const char *flag, const char *path)
{
    struct stat info;
    if (stat(path, &info) == 0) {
        if (S_ISDIR(info.st_mode)) {
            cli_error("%s: %s %s is a directory", command, flag, path);
            return false;
        }
        if (access(path, W_OK) != 0) {
            cli_error("%s: %s: cannot write %s: %s", command, flag, path, strerror(errno));
            return false;
        }
        return true;
    }
    /* A new file: its folder must be there and writable. */
    char folder[4096];
    snprintf(folder, sizeof folder, "%s", path);
    char *slash = strrchr(folder, '/');
    if (slash == folder) folder[1] = '\0';
    else if (slash) *slash = '\0';
    else snprintf(folder, sizeof folder, ".");
    if (access(folder, W_OK) != 0) {
        cli_error("%s: %s: cannot write %s: %s", command, flag, path, strerror(errno));
        return false;
    }
    return true;
}

gateau_setup *cli_setup(const char *command, cli_flags *flags)
{
    const gateau_game *game = cli_find_game(flags->game);
    if (!game) return NULL;
    if (!flags->players) flags->players = gateau_game_min_players(game);
    char error[512];
    gateau_setup *setup = gateau_setup_new(game, flags->players, flags->options, NULL, error,
                                           sizeof error);
    if (!setup) cli_error("%s: %s", command, error);
    return setup;
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
            cli_error("%s: the spec '%.*s...' is too long", command, 20, cursor);
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

static int cli_games(void)
{
    for (int i = 0; i < gateau_game_count(); i++) {
        const gateau_game *game = gateau_game_at(i);
        printf("%-14s %-16s %d-%d players", gateau_game_name(game), gateau_game_title(game),
               gateau_game_min_players(game), gateau_game_max_players(game));
        for (int o = 0; o < gateau_game_option_count(game); o++) {
            const gateau_option_info *option = gateau_game_option(game, o);
            if (option->is_path) printf("  %s=FILE", option->name);
            else printf("  %s=%d (%d-%d)", option->name, option->default_value,
                        option->min_value, option->max_value);
        }
        printf("\n");
    }
    return 0;
}

static int cli_rules(int argc, char **argv)
{
    if (argc != 1) {
        cli_error("rules: usage: gateau rules GAME");
        return 2;
    }
    const gateau_game *game = cli_find_game(argv[0]);
    if (!game) return 1;
    fputs(gateau_game_summary(game), stdout);
    char *key = gateau_game_key(game);
    if (key[0]) printf("\nKey:\n%s", key);
    free(key);
    for (int o = 0; o < gateau_game_option_count(game); o++) {
        const gateau_option_info *option = gateau_game_option(game, o);
        printf("%s option %s: %s\n", o ? "" : "\n", option->name, option->help);
    }
    return 0;
}

static void usage(FILE *out)
{
    fputs("usage: gateau COMMAND ...\n"
          "  games                         list the games\n"
          "  rules GAME                    the rules in brief\n"
          "  play GAME --players N --seats human,random,... [--seed S] [--record FILE]\n"
          "       [--options k=v ...]      play in the terminal\n"
          "  replay FILE|- [--json]        check a record (- : standard input), show the result\n"
          "  random GAME --players N [--seed S] [--options k=v ...]\n"
          "                                a random legal game as a record\n"
          "  arena GAME --players N --seats A,B,... --games G [--threads T] [--seed S]\n"
          "       [--options k=v ...] [--records DIR] [--json FILE] [--csv FILE]\n"
          "       [--plot FILE.png|.svg]   a tournament between bots, with statistics\n"
          "  hint RECORD [--seat S] [--ms N] [--json]\n"
          "                                the best moves for a seat where a record stands\n"
          "  version                       the version\n"
          "\n"
          "Exit status: 0 done; 1 bad data (a record, a deck, an option value, a file);\n"
          "2 usage (an unknown command or flag, a missing value); 3 a game stopped\n"
          "before its end (quit in play).\n",
          out);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *command = argv[1];
    if (!strcmp(command, "games")) return cli_games();
    if (!strcmp(command, "rules")) return cli_rules(argc - 2, argv + 2);
    if (!strcmp(command, "play")) return cli_play(argc - 2, argv + 2);
    if (!strcmp(command, "replay")) return cli_replay(argc - 2, argv + 2);
    if (!strcmp(command, "random")) return cli_random(argc - 2, argv + 2);
    if (!strcmp(command, "hint")) return cli_hint(argc - 2, argv + 2);
    if (!strcmp(command, "arena")) return cli_arena(argc - 2, argv + 2);
    if (!strcmp(command, "version") || !strcmp(command, "--version")) {
        printf("gateau %s\n", GATEAU_VERSION);
        return 0;
    }
    if (!strcmp(command, "help") || !strcmp(command, "--help") || !strcmp(command, "-h")) {
        usage(stdout);
        return 0;
    }
    cli_error("unknown command '%s' (try gateau help)", command);
    return 2;
}
