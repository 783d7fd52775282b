/*
 * serve.c: `gateau serve [--config FILE] [--check] [--help] [--FLAG VALUE
 * ...]`: the game server of web tables (docs/server.md).  Its settings
 * (flags, GATEAU_* variables, the config file) are read in
 * serve_settings.c.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/serve_settings.h"
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

/* Each setting with its default (as gateau serve would start) and its
 * flag, environment variable and meaning. */
static void print_help(const server_options *defaults)
{
    printf("usage: gateau serve [--config FILE] [--check] [--FLAG VALUE ...]\n"
           "Each setting is a flag, a GATEAU_* environment variable (--bot-threads:\n"
           "GATEAU_BOT_THREADS) or a line 'name = value' of --config's file (or\n"
           "GATEAU_CONFIG's); flags win over the environment, which wins over the file.\n\n");
    for (int i = 0; i < serve_setting_count; i++) {
        const serve_setting *setting = &serve_settings[i];
        char flag[64], shown[1024];
        snprintf(flag, sizeof flag, "--%s%s%s", setting->name, setting->value[0] ? " " : "",
                 setting->value);
        serve_setting_text(setting, defaults, shown, sizeof shown);
        printf("  %-32s %s (default: %s)\n", flag, setting->help,
               shown[0] ? shown : "none");
    }
    printf("  %-32s %s\n  %-32s %s\n  %-32s %s\n", "--config FILE",
           "settings from FILE: 'name = value' lines, '#' comments", "--check",
           "check the settings, print them (secrets hidden), and exit", "--help",
           "this list");
}

/* --check: the settings as a config file would say them; false when one
 * is wrong (said on stderr). */
static bool check_settings(const server_options *options)
{
    char error[512];
    if (!server_check_bind(options->bind, error, sizeof error)) {
        cli_error("serve: %s", error);
        return false;
    }
    if (options->log && options->log[0] && !cli_check_writable("serve", "--log", options->log))
        return false;
    for (int i = 0; i < serve_setting_count; i++) {
        char shown[1024];
        serve_setting_text(&serve_settings[i], options, shown, sizeof shown);
        printf("%s = %s\n", serve_settings[i].name, shown);
    }
    return true;
}

/* --ext-bots: each ext: spec must read (an unknown setting is refused)
 * and, when the server starts, its program must start and shake hands,
 * so that a typo fails the start with one line rather than every table
 * that names it (which would end at its first move, saying so).  false
 * after printing why. */
static bool check_ext_bots(const server_options *options, bool start)
{
    const char *list = options->ext_bots;
    if (!list || !list[0]) return true;
    char *copy = strdup(list), *context = NULL, error[768];
    if (!copy) abort(); /* out of memory */
    bool ok = true;
    for (char *spec = strtok_r(copy, ",", &context); ok && spec;
         spec = strtok_r(NULL, ",", &context)) {
        if (strncmp(spec, "ext:", 4)) continue;
        gateau_bot *bot = gateau_bot_new(spec, error, sizeof error);
        /* A spec no table could name (its time per move over the cap,
         * the protocol's default included) is a mistake of the settings. */
        if (bot && !table_check_budget(spec, options->max_bot_ms, options->max_bot_iters,
                                       error, sizeof error)) {
            cli_error("serve: --ext-bots %s: %s", spec, error);
            gateau_bot_free(bot);
            ok = false;
            break;
        }
        ok = bot && (!start || gateau_bot_start(bot, -1, error, sizeof error));
        gateau_bot_free(bot);
        if (!ok) cli_error("serve: --ext-bots: %s", error);
    }
    free(copy);
    if (ok && start && !gateau_bot_guard_processes(error, sizeof error)) {
        cli_error("serve: %s", error);
        ok = false;
    }
    return ok;
}

/* The command, its settings read into options over the defaults there. */
static int serve(int argc, char **argv, server_options *options, serve_request *request)
{
    if (!serve_settings_read(argc, argv, options, request)) return 2;
    if (request->help) {
        print_help(options);
        return 0;
    }
    if (!options->db || !options->db[0]) {
        cli_error("serve: no HOME to keep the database in: give --db FILE");
        return 2;
    }
    if (options->web && !options->web[0]) options->web = NULL; /* `web =`: the API alone */
    struct stat info;
    if (options->web && (stat(options->web, &info) != 0 || !S_ISDIR(info.st_mode))) {
        cli_error("serve: --web %s is not a folder", options->web);
        return request->check ? 2 : 1;
    }
    if (!check_ext_bots(options, !request->check)) return request->check ? 2 : 1;
    if (request->check) return check_settings(options) ? 0 : 2;
    if (!store_path_is_url(options->db) && !make_parent_folders(options->db)) return 1;
    return server_run(options);
}

int cli_serve(int argc, char **argv)
{
    server_options options = {.bind = "127.0.0.1", .port = 8080, .bot_threads = 0,
                              .origins = "", .expire_days = 30, SERVER_DEFAULT_LIMITS};
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    options.bot_threads = cores > 0 ? (int)cores : 2;
    char database[4096];
    if (default_database(database, sizeof database)) options.db = database;
    options.web = default_web();
    serve_request request = {0};
    int status = serve(argc, argv, &options, &request);
    serve_settings_free(&request);
    return status;
}
