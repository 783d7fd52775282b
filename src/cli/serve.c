/*
 * serve.c: `gateau serve [--bind A] [--port P] [--db FILE] [--web DIR]
 * [--bot-threads N] [--origin URL,...] [--host NAME,...] [--trusted-proxy A,...]
 * [limits] [--expire-days N] [--ext-bots SPEC,...] [--quiet]` (docs/server.md): the
 * game server of web tables (docs/server.md).
 */
#include <errno.h>
#include <stddef.h>
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

/* The flags that take a number, where it goes, and its range. */
typedef struct number_flag {
    const char *name;
    size_t offset;
    uint64_t min, max;
} number_flag;

static const number_flag number_flags[] = {
    {"--port", offsetof(server_options, port), 0, 65535},
    {"--bot-threads", offsetof(server_options, bot_threads), 1, 64},
    {"--connections", offsetof(server_options, connections), 0, 1000000},
    {"--address-connections", offsetof(server_options, address_connections), 0, 1000000},
    {"--address-websockets", offsetof(server_options, address_websockets), 0, 1000000},
    {"--address-requests", offsetof(server_options, address_requests), 0, 1000000},
    {"--address-tables", offsetof(server_options, address_tables), 0, 1000000},
    {"--spectators", offsetof(server_options, spectators), 0, SERVER_MAX_SPECTATORS},
    {"--websocket-ping", offsetof(server_options, websocket_ping), 0, 3600},
    {"--keep-alive", offsetof(server_options, keep_alive), 1, 3600},
    {"--expire-days", offsetof(server_options, expire_days), 0, 36500},
    {"--max-bot-ms", offsetof(server_options, max_bot_ms), 1, 3600000},
    {"--store-retry", offsetof(server_options, store_retry), 1, 86400},
};

/* The flags that take text, and where it goes. */
typedef struct text_flag {
    const char *name;
    size_t offset;
} text_flag;

static const text_flag text_flags[] = {
    {"--bind", offsetof(server_options, bind)},
    {"--db", offsetof(server_options, db)},
    {"--web", offsetof(server_options, web)},
    {"--origin", offsetof(server_options, origins)},
    {"--host", offsetof(server_options, hosts)},
    {"--trusted-proxy", offsetof(server_options, trusted_proxies)},
    {"--ext-bots", offsetof(server_options, ext_bots)},
};

#define SERVE_USAGE                                                                            \
    "usage: gateau serve [--bind ADDRESS] [--port P] [--db FILE|URL] [--web DIR] "             \
    "[--bot-threads N] [--origin URL,...] [--host NAME,...] [--trusted-proxy ADDRESS,...] "    \
    "[--connections N] [--address-connections N] [--address-websockets N] "                   \
    "[--address-requests N] [--address-tables N] [--spectators N] [--websocket-ping S] "      \
    "[--keep-alive S] [--max-bot-ms MS] [--store-retry S] [--expire-days N] "             \
    "[--ext-bots SPEC,...] [--quiet]"

int cli_serve(int argc, char **argv)
{
    server_options options = {.bind = "127.0.0.1", .port = 8080, .bot_threads = 0,
                              .origins = "", .expire_days = 30, SERVER_DEFAULT_LIMITS};
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    options.bot_threads = cores > 0 ? (int)cores : 2;
    for (int i = 0; i < argc; i++) {
        const char *flag = argv[i];
        if (!strcmp(flag, "--quiet")) {
            options.quiet = true;
            continue;
        }
        const number_flag *as_number = NULL;
        const text_flag *as_text = NULL;
        for (size_t f = 0; f < sizeof number_flags / sizeof *number_flags; f++)
            if (!strcmp(flag, number_flags[f].name)) as_number = &number_flags[f];
        for (size_t f = 0; f < sizeof text_flags / sizeof *text_flags; f++)
            if (!strcmp(flag, text_flags[f].name)) as_text = &text_flags[f];
        if (!as_number && !as_text) {
            cli_error("serve: unknown option '%s' (" SERVE_USAGE ")", flag);
            return 2;
        }
        if (i + 1 >= argc) {
            cli_error("serve: %s needs a value", flag);
            return 2;
        }
        const char *value = argv[++i];
        if (as_text) {
            *(const char **)((char *)&options + as_text->offset) = value;
            continue;
        }
        uint64_t number;
        if (!cli_parse_integer("serve", flag, value, as_number->min, as_number->max, &number))
            return 2;
        *(int *)((char *)&options + as_number->offset) = (int)number;
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
