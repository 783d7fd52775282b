/*
 * serve_settings.c: see serve_settings.h.  One table of settings serves
 * the flags, the GATEAU_* variables, the config file, --help and --check,
 * so that none of them can forget one.
 */
#include "cli/serve_settings.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "store/store.h"

#define NUMBER(flag, field, low, high, shown, text)                                         \
    {flag, SETTING_NUMBER, offsetof(server_options, field), low, high, shown, text}
#define TEXT(flag, field, shown, text) {flag, SETTING_TEXT, offsetof(server_options, field), 0, 0, shown, text}

const serve_setting serve_settings[] = {
    TEXT("bind", bind, "ADDRESS", "the address to listen on (IPv4 or IPv6, such as :: or ::1)"),
    NUMBER("port", port, 0, 65535, "P", "the port (0: any free one)"),
    TEXT("db", db, "FILE|URL", "the SQLite file, or a postgresql:// URL (password: PGPASSWORD "
         "or ~/.pgpass)"),
    TEXT("web", web, "DIR", "the browser files served at /"),
    NUMBER("bot-threads", bot_threads, 1, 64, "N", "bots thinking at once"),
    TEXT("origin", origins, "URL,...", "other origins allowed to use the API"),
    TEXT("host", hosts, "NAME,...", "names the server answers to besides its address"),
    TEXT("trusted-proxy", trusted_proxies, "ADDRESS,...",
         "proxies whose X-Forwarded-For names the client"),
    NUMBER("connections", connections, 0, 1000000, "N", "open connections in all (0: no limit)"),
    NUMBER("address-connections", address_connections, 0, 1000000, "N",
           "open connections from one address"),
    NUMBER("address-websockets", address_websockets, 0, 1000000, "N",
           "open WebSockets from one address"),
    NUMBER("address-requests", address_requests, 0, 1000000, "N",
           "requests a second from one address (bursts of 4x)"),
    NUMBER("address-tables", address_tables, 0, 1000000, "N",
           "tables created a minute from one address"),
    NUMBER("spectators", spectators, 0, SERVER_MAX_SPECTATORS, "N",
           "spectators' WebSockets on one table"),
    NUMBER("websocket-ping", websocket_ping, 0, 3600, "S",
           "a quiet WebSocket is pinged after S s, closed after 2S"),
    NUMBER("keep-alive", keep_alive, 1, 3600, "S", "an idle keep-alive connection is closed after S s"),
    NUMBER("max-bot-ms", max_bot_ms, 1, 3600000, "MS",
           "the largest thinking time a table's bot may ask for (ms=)"),
    NUMBER("max-bot-iters", max_bot_iters, 1, 1000000000, "N",
           "the most iterations a table's search may ask for (iters=)"),
    NUMBER("store-retry", store_retry, 1, 86400, "S",
           "a table whose move the store keeps refusing is marked broken after S s"),
    NUMBER("expire-days", expire_days, 0, 36500, "N",
           "an unfinished table without a move for N days expires (0: never)"),
    NUMBER("review-threads", review_threads, 1, SERVER_MAX_REVIEW_THREADS, "N",
           "game reviews searching at once (never on the bots' threads)"),
    NUMBER("review-queue", review_queue, 1, 10000, "N", "game reviews waiting at most"),
    NUMBER("review-iters", review_iters, 0, 1000000, "N",
           "iterations of each search of a review (0: the library's default)"),
    TEXT("ext-bots", ext_bots, "SPEC,...", "the ext: bot specs tables may name (they run programs)"),
    TEXT("log", log, "FILE", "the request log's file, reopened on SIGHUP (none: stderr)"),
    {"quiet", SETTING_SWITCH, offsetof(server_options, quiet), 0, 1, "", "no request log"},
};
const int serve_setting_count = sizeof serve_settings / sizeof *serve_settings;

static const serve_setting *setting_named(const char *name)
{
    for (int i = 0; i < serve_setting_count; i++)
        if (!strcmp(serve_settings[i].name, name)) return &serve_settings[i];
    return NULL;
}

/* A text that lives as long as the request. */
static const char *keep(serve_request *request, const char *text, size_t length)
{
    if (request->owned_count == request->owned_capacity) {
        request->owned_capacity = request->owned_capacity ? 2 * request->owned_capacity : 16;
        request->owned = realloc(request->owned, sizeof *request->owned * (size_t)request->owned_capacity);
        if (!request->owned) abort();
    }
    char *copy = strndup(text, length);
    if (!copy) abort();
    return request->owned[request->owned_count++] = copy;
}

void serve_settings_free(serve_request *request)
{
    for (int i = 0; i < request->owned_count; i++) free(request->owned[i]);
    free(request->owned);
    request->owned = NULL;
    request->owned_count = request->owned_capacity = 0;
}

/* The checks of a text setting that can be made where it is read, so
 * that the error names its source: a database that is not a libpq
 * key=value string (never shown: it may hold a password), a web root
 * that is a folder ("": none). */
static bool text_acceptable(const serve_setting *setting, const char *text, const char *where)
{
    if (!strcmp(setting->name, "db") && store_path_is_conninfo(text)) {
        cli_error("serve: %s: %s", where, STORE_CONNINFO_REFUSED);
        return false;
    }
    struct stat info;
    if (!strcmp(setting->name, "web") && text[0] &&
        (stat(text, &info) != 0 || !S_ISDIR(info.st_mode))) {
        cli_error("serve: %s: %s is not a folder", where, text);
        return false;
    }
    return true;
}

/* Sets one setting from text; where names the source for an error
 * ("--port", "GATEAU_PORT", "gateau.conf:3: port"). */
static bool set(const serve_setting *setting, const char *text, const char *where,
                server_options *options)
{
    void *field = (char *)options + setting->offset;
    if (setting->kind == SETTING_TEXT) {
        if (!text_acceptable(setting, text, where)) return false;
        *(const char **)field = text;
        return true;
    }
    if (setting->kind == SETTING_SWITCH) {
        static const char *const yes[] = {"true", "yes", "on", "1"}, *const no[] = {"false", "no", "off", "0"};
        for (int i = 0; i < 4; i++) {
            if (!strcasecmp(text, yes[i])) return *(bool *)field = true;
            if (!strcasecmp(text, no[i])) return !(*(bool *)field = false);
        }
        cli_error("serve: %s is true or false, not '%s'", where, text);
        return false;
    }
    uint64_t number;
    if (!cli_parse_integer("serve", where, text, setting->min, setting->max, &number)) return false;
    *(int *)field = (int)number;
    return true;
}

/* text without the blanks around it: its start, and its length in *length. */
static const char *trimmed(const char *text, size_t *length)
{
    while (*length && isspace((unsigned char)*text)) text++, --*length;
    while (*length && isspace((unsigned char)text[*length - 1])) --*length;
    return text;
}

/* One line of the config file: "name = value", blank, or a '#' comment. */
static bool read_line(serve_request *request, const char *path, int number, const char *line,
                      server_options *options)
{
    size_t length = strcspn(line, "\r\n");
    line = trimmed(line, &length);
    if (!length || line[0] == '#') return true;
    const char *equals = memchr(line, '=', length);
    if (!equals) {
        cli_error("serve: %s:%d: not 'name = value'", path, number);
        return false;
    }
    size_t name_length = (size_t)(equals - line), value_length = length - name_length - 1;
    const char *name = trimmed(line, &name_length), *value = trimmed(equals + 1, &value_length);
    char shown[64];
    snprintf(shown, sizeof shown, "%.*s", (int)(name_length < 40 ? name_length : 40), name);
    const serve_setting *setting = setting_named(shown);
    if (!setting || name_length >= 40) {
        cli_error("serve: %s:%d: unknown setting '%s' (gateau serve --help lists them)", path,
                  number, shown);
        return false;
    }
    char where[512];
    snprintf(where, sizeof where, "%s:%d: %s", path, number, setting->name);
    return set(setting, keep(request, value, value_length), where, options);
}

static bool read_file(serve_request *request, const char *path, server_options *options)
{
    FILE *file = fopen(path, "r");
    if (!file) {
        cli_error("serve: --config %s: cannot read it: %s", path, strerror(errno));
        return false;
    }
    char line[4096];
    bool good = true;
    for (int number = 1; good && fgets(line, sizeof line, file); number++) {
        if (!strchr(line, '\n') && !feof(file)) {
            cli_error("serve: %s:%d: the line is over %zu bytes", path, number, sizeof line - 2);
            good = false;
        } else {
            good = read_line(request, path, number, line, options);
        }
    }
    fclose(file);
    return good;
}

/* GATEAU_BOT_THREADS for bot-threads. */
static void variable_name(const serve_setting *setting, char *out, size_t size)
{
    int used = snprintf(out, size, "GATEAU_");
    for (const char *c = setting->name; *c && (size_t)used + 1 < size; c++)
        out[used++] = *c == '-' ? '_' : (char)toupper((unsigned char)*c);
    out[used] = '\0';
}

static bool read_environment(server_options *options)
{
    for (int i = 0; i < serve_setting_count; i++) {
        char name[64];
        variable_name(&serve_settings[i], name, sizeof name);
        const char *value = getenv(name);
        if (value && !set(&serve_settings[i], value, name, options)) return false;
    }
    return true;
}

/* The flags: settings, and --config, --check, --help (config_only: only
 * --config is taken, the rest skipped for the second pass). */
static bool read_flags(int argc, char **argv, bool config_only, server_options *options,
                       serve_request *request)
{
    for (int i = 0; i < argc; i++) {
        const char *flag = argv[i];
        if (!strcmp(flag, "--help") || !strcmp(flag, "-h")) {
            request->help = true;
            continue;
        }
        if (!strcmp(flag, "--check")) {
            request->check = true;
            continue;
        }
        const serve_setting *setting =
            !strncmp(flag, "--", 2) && strcmp(flag, "--config") ? setting_named(flag + 2) : NULL;
        if (!setting && strcmp(flag, "--config")) {
            if (config_only) continue;
            cli_error("serve: unknown option '%s' (gateau serve --help lists them)", flag);
            return false;
        }
        if (setting && setting->kind == SETTING_SWITCH) {
            if (!config_only) *(bool *)((char *)options + setting->offset) = true;
            continue;
        }
        if (i + 1 >= argc) {
            if (config_only) continue;
            cli_error("serve: %s needs a value", flag);
            return false;
        }
        const char *value = argv[++i];
        if (!setting && config_only) request->config = value;
        if (setting && !config_only && !set(setting, value, flag, options)) return false;
    }
    return true;
}

bool serve_settings_read(int argc, char **argv, server_options *options, serve_request *request)
{
    request->config = getenv("GATEAU_CONFIG");
    read_flags(argc, argv, true, options, request);
    if (request->help) return true; /* (whatever else is wrong) */
    if (request->config && !read_file(request, request->config, options)) return false;
    return read_environment(options) && read_flags(argc, argv, false, options, request);
}

void serve_setting_text(const serve_setting *setting, const server_options *options, char *out,
                        size_t size)
{
    const void *field = (const char *)options + setting->offset;
    if (setting->kind == SETTING_NUMBER) snprintf(out, size, "%d", *(const int *)field);
    else if (setting->kind == SETTING_SWITCH) snprintf(out, size, "%s", *(const bool *)field ? "true" : "false");
    else store_path_shown(*(const char *const *)field ? *(const char *const *)field : "", out, size);
}
