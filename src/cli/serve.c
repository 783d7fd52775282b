/*
 * serve.c: `gateau serve [--bind A] [--port P] [--db FILE] [--web DIR]
 * [--bot-threads N] [--connections N] [--origin URL,...] [--ext-bots SPEC,...]
 * [--quiet]`: the
 * game server of web tables (docs/server.md).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "server/server.h"

/* mkdir -p for the folders above path's last '/'. */
static bool make_parent_folders(const char *path)
{
    char folder[4096];
    snprintf(folder, sizeof folder, "%s", path);
    for (char *slash = strchr(folder + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        if (mkdir(folder, 0700) != 0 && errno != EEXIST) {
            cli_error("serve: cannot make the folder %s: %s", folder, strerror(errno));
            return false;
        }
        *slash = '/';
    }
    return true;
}

/* The user's data folder's database: $XDG_DATA_HOME/gateau/gateau.db, or
 * ~/.local/share/gateau/gateau.db. */
static bool default_database(char *path, size_t size)
{
    const char *data = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    if (data && data[0] == '/') snprintf(path, size, "%s/gateau/gateau.db", data);
    else if (home && home[0]) snprintf(path, size, "%s/.local/share/gateau/gateau.db", home);
    else return false;
    return true;
}

/* The browser files: the installed ones, else the source tree's (a build
 * run in place). */
static const char *default_web(void)
{
    static const char *const candidates[] = {GATEAU_INSTALLED_WEB, GATEAU_SOURCE_WEB};
    struct stat info;
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++)
        if (stat(candidates[i], &info) == 0 && S_ISDIR(info.st_mode)) return candidates[i];
    return NULL;
}

int cli_serve(int argc, char **argv)
{
    server_options options = {.bind = "127.0.0.1", .port = 8080, .bot_threads = 0,
                              .connections = 512, .origins = ""};
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    options.bot_threads = cores > 0 ? (int)cores : 2;
    for (int i = 0; i < argc; i++) {
        const char *flag = argv[i];
        if (!strcmp(flag, "--quiet")) {
            options.quiet = true;
            continue;
        }
        bool known = !strcmp(flag, "--bind") || !strcmp(flag, "--port") || !strcmp(flag, "--db") ||
                     !strcmp(flag, "--web") || !strcmp(flag, "--bot-threads") ||
                     !strcmp(flag, "--connections") || !strcmp(flag, "--origin") ||
                     !strcmp(flag, "--ext-bots");
        if (!known) {
            cli_error("serve: unknown option '%s' (usage: gateau serve [--bind ADDRESS] [--port P] "
                      "[--db FILE|URL] [--web DIR] [--bot-threads N] [--connections N] "
                      "[--origin URL,...] [--ext-bots SPEC,...] [--quiet])", flag);
            return 2;
        }
        if (i + 1 >= argc) {
            cli_error("serve: %s needs a value", flag);
            return 2;
        }
        const char *value = argv[++i];
        uint64_t number;
        if (!strcmp(flag, "--bind")) options.bind = value;
        else if (!strcmp(flag, "--db")) options.db = value;
        else if (!strcmp(flag, "--web")) options.web = value;
        else if (!strcmp(flag, "--origin")) options.origins = value;
        else if (!strcmp(flag, "--ext-bots")) options.ext_bots = value;
        else if (!strcmp(flag, "--port")) {
            if (!cli_parse_integer("serve", flag, value, 0, 65535, &number)) return 2;
            options.port = (int)number;
        } else if (!strcmp(flag, "--bot-threads")) {
            if (!cli_parse_integer("serve", flag, value, 1, 64, &number)) return 2;
            options.bot_threads = (int)number;
        } else {
            if (!cli_parse_integer("serve", flag, value, 8, 100000, &number)) return 2;
            options.connections = (int)number;
        }
    }
    char database[4096];
    if (!options.db) {
        if (!default_database(database, sizeof database)) {
            cli_error("serve: no HOME to keep the database in: give --db FILE");
            return 2;
        }
        options.db = database;
    }
    if (!store_path_is_url(options.db) && !make_parent_folders(options.db)) return 1;
    struct stat info;
    if (options.web && (stat(options.web, &info) != 0 || !S_ISDIR(info.st_mode))) {
        cli_error("serve: --web %s is not a folder", options.web);
        return 1;
    }
    if (!options.web) options.web = default_web();
    return server_run(&options);
}
