/*
 * main.c: the `gateau` command: dispatch to subcommands, the setup and
 * files they share.  (The flag parsers are in flags.c.)
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "commit.h" /* GATEAU_COMMIT: generated at each build */

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

/* The commands' lines of the usage, each with the page that tells more:
 * `gateau help` prints them all, `gateau COMMAND --help` its own. */
static const struct command_usage {
    const char *name, *lines, *page;
} usages[] = {
    {"games", "  games                         list the games\n", "README.md"},
    {"rules", "  rules GAME                    the rules in brief\n", "README.md"},
    {"play",
     "  play GAME --players N --seats human,random,... [--seed S] [--record FILE]\n"
     "       [--names A,B,...] [--options k=v ...]\n"
     "                                play in the terminal\n"
     "  play RECORD [--seats ...] [--names ...]\n"
     "                                resume a saved game (also --resume RECORD)\n",
     "docs/bots.md (the seats), docs/protocol.md (ext: seats)"},
    {"replay", "  replay FILE|- [--json]        check a record (- : standard input), show the result\n",
     "README.md"},
    {"random",
     "  random GAME --players N [--seed S] [--options k=v ...]\n"
     "                                a random legal game as a record\n",
     "README.md"},
    {"arena",
     "  arena GAME --players N --seats A,B,... --games G [--threads T] [--seed S]\n"
     "       [--options k=v ...] [--records DIR] [--json FILE] [--csv FILE]\n"
     "       [--plot FILE.png|.svg]   a tournament between bots, with statistics\n"
     "       [--shard I/N --part FILE] only shard I of N, its games into a part file\n",
     "docs/arena.md, docs/cluster.md"},
    {"arena-merge",
     "  arena-merge PART... [--json FILE] [--csv FILE] [--plot FILE] [--partial]\n"
     "                                the report of a run from its shards' parts\n",
     "docs/cluster.md"},
    {"hint",
     "  hint RECORD [--seat S] [--ms N] [--json]\n"
     "                                the best moves for a seat where a record stands\n",
     "docs/bots.md"},
    {"review",
     "  review RECORD [--seat S] [--iters N | --ms N] [--repeats R] [--threads T]\n"
     "       [--seed S] [--json]      every move of a game judged by a search from\n"
     "                                its mover's information (docs/review.md)\n",
     "docs/review.md"},
    {"serve",
     "  serve [--config FILE] [--bind A] [--port P] [--db FILE|URL] ... [--check]\n"
     "                                the game server of web tables (docs/server.md;\n"
     "                                gateau serve --help lists its settings)\n",
     "docs/server.md"},
    {"tables",
     "  tables list|show ID|delete ID|expire [--days N]|backup FILE --db FILE|URL\n"
     "                                a server's tables, for its operator\n",
     "docs/server.md"},
    {"engine",
     "  engine [--bot SPEC] [--seed S]\n"
     "                                a bot on stdin/stdout through the bot protocol\n"
     "                                (docs/protocol.md)\n",
     "docs/protocol.md"},
    {"version",
     "  version                       the version and the commit it was built from\n"
     "                                (also --version)\n",
     "README.md"},
};

static const char exit_statuses[] =
    "Exit status: 0 done; 1 bad data (a record, a deck, an option value, a file);\n"
    "2 usage (an unknown command or flag, a missing value); 3 a game stopped\n"
    "before its end (quit, or an ext: seat's forfeit, in play).\n";

static void usage(FILE *out)
{
    fputs("usage: gateau COMMAND ...\n", out);
    for (size_t i = 0; i < sizeof usages / sizeof usages[0]; i++) fputs(usages[i].lines, out);
    fprintf(out, "\n%s", exit_statuses);
}

/* `gateau COMMAND --help` (or -h anywhere among its arguments): its usage,
 * and where to read more; false when the arguments ask for none.  (serve
 * answers its own --help: every setting, with its default.) */
static bool command_help(const char *command, int argc, char **argv)
{
    bool asked = false;
    for (int i = 0; i < argc; i++) asked |= !strcmp(argv[i], "--help") || !strcmp(argv[i], "-h");
    if (!asked || !strcmp(command, "serve")) return false;
    for (size_t i = 0; i < sizeof usages / sizeof usages[0]; i++) {
        if (strcmp(usages[i].name, command) != 0) continue;
        printf("usage: gateau ...\n%s\nMore: %s\n\n%s", usages[i].lines, usages[i].page,
               exit_statuses);
        return true;
    }
    return false;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *command = argv[1];
    if (command_help(command, argc - 2, argv + 2)) return 0;
    if (!strcmp(command, "games")) return cli_games();
    if (!strcmp(command, "rules")) return cli_rules(argc - 2, argv + 2);
    if (!strcmp(command, "play")) return cli_play(argc - 2, argv + 2);
    if (!strcmp(command, "replay")) return cli_replay(argc - 2, argv + 2);
    if (!strcmp(command, "random")) return cli_random(argc - 2, argv + 2);
    if (!strcmp(command, "hint")) return cli_hint(argc - 2, argv + 2);
    if (!strcmp(command, "review")) return cli_review(argc - 2, argv + 2);
    if (!strcmp(command, "arena")) return cli_arena(argc - 2, argv + 2);
    if (!strcmp(command, "arena-merge")) return cli_arena_merge(argc - 2, argv + 2);
    if (!strcmp(command, "serve")) return cli_serve(argc - 2, argv + 2);
    if (!strcmp(command, "tables")) return cli_tables(argc - 2, argv + 2);
    if (!strcmp(command, "engine")) return cli_engine(argc - 2, argv + 2);
    if (!strcmp(command, "version") || !strcmp(command, "--version")) {
        printf("gateau %s (commit %s)\n", GATEAU_VERSION, GATEAU_COMMIT);
        return 0;
    }
    if (!strcmp(command, "help") || !strcmp(command, "--help") || !strcmp(command, "-h")) {
        usage(stdout);
        return 0;
    }
    cli_error("unknown command '%s' (try gateau help)", command);
    return 2;
}
