/* registry.c: finding games in the list of src/games.c, and their
 * descriptions. */
#include <string.h>

#include "core/engine.h"

int gateau_game_count(void) { return registry_game_count; }

const gateau_game *gateau_game_at(int index)
{
    return index >= 0 && index < registry_game_count ? registry_games[index].game : NULL;
}

const gateau_game *gateau_game_find(const char *name)
{
    for (int i = 0; i < registry_game_count; i++)
        if (name && strcmp(registry_games[i].game->name, name) == 0) return registry_games[i].game;
    return NULL;
}

const struct bot_game *registry_bots(const gateau_game *game)
{
    for (int i = 0; i < registry_game_count; i++)
        if (registry_games[i].game == game) return registry_games[i].bots;
    return NULL;
}

const char *gateau_game_name(const gateau_game *game) { return game->name; }
const char *gateau_game_title(const gateau_game *game) { return game->title; }
const char *gateau_game_summary(const gateau_game *game) { return game->summary; }

char *gateau_game_key(const gateau_game *game)
{
    gateau_text text = {0};
    if (game->key) game->key(&text);
    return text_take(&text);
}
int gateau_game_min_players(const gateau_game *game) { return game->min_players; }
int gateau_game_max_players(const gateau_game *game) { return game->max_players; }
int gateau_game_option_count(const gateau_game *game) { return game->option_count; }

const gateau_option_info *gateau_game_option(const gateau_game *game, int index)
{
    return index >= 0 && index < game->option_count ? &game->options[index] : NULL;
}

const gateau_game_type *gateau_game_type_of(const gateau_game *game) { return &game->type; }
