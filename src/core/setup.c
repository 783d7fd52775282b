/* setup.c: a game with its player count and options chosen. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine.h"
#include "core/notation.h"

/*
 * Errors quote what they refuse, and what they refuse may be anything (a
 * record's bytes): control characters and bytes that are not UTF-8 are
 * written as \xNN, so that an error can neither send escape sequences to
 * a terminal nor make a JSON writer fail.
 */
void set_error(char *error, size_t error_size, const char *format, ...)
{
    if (!error || error_size == 0) return;
    char raw[1024];
    va_list args;
    va_start(args, format);
    vsnprintf(raw, sizeof raw, format, args);
    va_end(args);
    size_t out = 0;
    for (const char *p = raw; *p;) {
        unsigned char c = (unsigned char)*p;
        int length = text_utf8_length(p);
        bool plain = length > 0 && !(length == 1 && (c < 0x20 || c == 0x7f));
        size_t need = plain ? (size_t)length : 4;
        if (out + need >= error_size) break;
        if (plain) memcpy(error + out, p, (size_t)length);
        else snprintf(error + out, 5, "\\x%02x", c);
        out += need;
        p += plain ? length : 1;
    }
    error[out] = '\0';
}

static char *copy_string(const char *s)
{
    size_t length = strlen(s);
    char *copy = malloc(length + 1);
    if (!copy) abort();
    memcpy(copy, s, length + 1);
    return copy;
}

static int find_option(const gateau_game *game, const char *name, size_t length)
{
    for (int i = 0; i < game->option_count; i++)
        if (strlen(game->options[i].name) == length &&
            strncmp(game->options[i].name, name, length) == 0)
            return i;
    return -1;
}

static void list_options(const gateau_game *game, char *out, size_t size)
{
    out[0] = '\0';
    for (int i = 0; i < game->option_count; i++) {
        size_t used = strlen(out);
        snprintf(out + used, size - used, "%s%s", i ? ", " : "", game->options[i].name);
    }
    if (!game->option_count) snprintf(out, size, "none");
}

static char *resolve_path(const char *base_dir, const char *path)
{
    if (!base_dir || !base_dir[0] || path[0] == '/') return copy_string(path);
    size_t length = strlen(base_dir) + strlen(path) + 2;
    char *full = malloc(length);
    if (!full) abort();
    snprintf(full, length, "%s/%s", base_dir, path);
    return full;
}

/* Reads one "key=value" word into setup; given[] marks keys already seen. */
static bool read_option(gateau_setup *setup, const char *word, const char *base_dir,
                        bool given[], char *error, size_t error_size)
{
    const gateau_game *game = setup->game;
    const char *equals = strchr(word, '=');
    if (!equals || equals == word || !equals[1]) {
        set_error(error, error_size, "option '%s' is not of the form key=value", word);
        return false;
    }
    int index = find_option(game, word, (size_t)(equals - word));
    if (index < 0) {
        char known[256];
        list_options(game, known, sizeof known);
        set_error(error, error_size, "unknown option '%.*s' for %s (options: %s)",
                  (int)(equals - word), word, game->name, known);
        return false;
    }
    const gateau_option_info *info = &game->options[index];
    if (given[index]) {
        set_error(error, error_size, "option '%s' is given twice", info->name);
        return false;
    }
    given[index] = true;
    const char *value = equals + 1;
    if (info->is_path) {
        setup->option_paths[index] = resolve_path(base_dir, value);
        return true;
    }
    int number;
    if (!notation_int(value, info->min_value, info->max_value, &number)) {
        set_error(error, error_size, "option %s=%s: expected a whole number from %d to %d",
                  info->name, value, info->min_value, info->max_value);
        return false;
    }
    setup->option_values[index] = number;
    return true;
}

gateau_setup *gateau_setup_new(const gateau_game *game, int players, const char *options,
                               const char *base_dir, char *error, size_t error_size)
{
    if (!game) {
        set_error(error, error_size, "no game given");
        return NULL;
    }
    if (players < game->min_players || players > game->max_players) {
        set_error(error, error_size, "%s is for %d to %d players, not %d", game->name,
                  game->min_players, game->max_players, players);
        return NULL;
    }
    gateau_setup *setup = calloc(1, sizeof *setup);
    if (!setup) abort();
    setup->game = game;
    setup->players = players;
    for (int i = 0; i < game->option_count; i++)
        setup->option_values[i] = game->options[i].default_value;

    notation_words words;
    if (!notation_split(options ? options : "", &words)) {
        set_error(error, error_size, "options are too long");
        gateau_setup_free(setup);
        return NULL;
    }
    bool given[GATEAU_MAX_OPTIONS] = {false};
    for (int i = 0; i < words.count; i++) {
        if (!read_option(setup, words.word[i], base_dir, given, error, error_size)) {
            gateau_setup_free(setup);
            return NULL;
        }
    }
    /* Canonical text: the given options in the game's table order, with
     * paths exactly as written (a record resolves them from its folder). */
    gateau_text text = {0};
    for (int i = 0; i < game->option_count; i++) {
        if (!given[i]) continue;
        for (int w = 0; w < words.count; w++)
            if (find_option(game, words.word[w], strcspn(words.word[w], "=")) == i)
                text_append(&text, "%s%s", text.length ? " " : "", words.word[w]);
    }
    setup->options_text = text_take(&text);
    if (game->prepare && !game->prepare(setup, error, error_size)) {
        gateau_setup_free(setup);
        return NULL;
    }
    setup->observation_size = observation_count(setup);
    return setup;
}

void gateau_setup_free(gateau_setup *setup)
{
    if (!setup) return;
    if (setup->game->release) setup->game->release(setup);
    for (int i = 0; i < GATEAU_MAX_OPTIONS; i++) free(setup->option_paths[i]);
    free(setup->options_text);
    free(setup);
}

const gateau_game *gateau_setup_game(const gateau_setup *setup) { return setup->game; }
int gateau_setup_players(const gateau_setup *setup) { return setup->players; }
const char *gateau_setup_options_text(const gateau_setup *setup) { return setup->options_text; }

int gateau_setup_max_game_length(const gateau_setup *setup)
{
    return setup->game->max_game_length ? setup->game->max_game_length(setup) : -1;
}

int gateau_setup_option(const gateau_setup *setup, const char *name)
{
    int index = find_option(setup->game, name, strlen(name));
    return index < 0 ? 0 : setup->option_values[index];
}
