/*
 * serve_settings.h: `gateau serve`'s settings from flags, GATEAU_*
 * environment variables and a config file (docs/server.md, "Operating
 * it"): flags over the environment over the file over the defaults.
 */
#ifndef GATEAU_CLI_SERVE_SETTINGS_H
#define GATEAU_CLI_SERVE_SETTINGS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "server/server.h"

typedef enum serve_setting_kind { SETTING_NUMBER, SETTING_TEXT, SETTING_SWITCH } serve_setting_kind;

/* One setting: its name (the flag's without dashes, the file's), where
 * it goes in server_options, its range, and its line of --help. */
typedef struct serve_setting {
    const char *name;
    serve_setting_kind kind;
    size_t offset;
    uint64_t min, max;  /* numbers */
    const char *value;  /* what --help calls its value ("N", "FILE") */
    const char *help;
} serve_setting;

extern const serve_setting serve_settings[];
extern const int serve_setting_count;

/* What the command line asked besides settings. */
typedef struct serve_request {
    bool help, check;
    const char *config; /* --config's file (or GATEAU_CONFIG's), NULL: none */
    /* Texts read from the file and the environment (they live until
     * serve_settings_free). */
    char **owned;
    int owned_count, owned_capacity;
} serve_request;

/* Fills options from the file, then the environment, then argv (over the
 * defaults already in options).  False after printing a one-line error
 * (exit status 2). */
bool serve_settings_read(int argc, char **argv, server_options *options, serve_request *request);
void serve_settings_free(serve_request *request);

/* A setting's value in options as text ("" when none): a database's
 * password hidden. */
void serve_setting_text(const serve_setting *setting, const server_options *options, char *out,
                        size_t size);

#endif
