/* registry.c: the list of games and their descriptions. */
#include <string.h>

#include "core/engine.h"

static const gateau_game *const registry[] = {
    &piece_o_cake_game,
    &maries_table_game,
    &mice_cake_game,
    &cake_master_game,
};

#define REGISTRY_SIZE ((int)(sizeof registry / sizeof registry[0]))

int gateau_game_count(void) { return REGISTRY_SIZE; }

const gateau_game *gateau_game_at(int index)
{
    return index >= 0 && index < REGISTRY_SIZE ? registry[index] : NULL;
}

const gateau_game *gateau_game_find(const char *name)
{
    for (int i = 0; i < REGISTRY_SIZE; i++)
        if (name && strcmp(registry[i]->name, name) == 0) return registry[i];
    return NULL;
}

const char *gateau_game_name(const gateau_game *game) { return game->name; }
const char *gateau_game_title(const gateau_game *game) { return game->title; }
const char *gateau_game_summary(const gateau_game *game) { return game->summary; }
int gateau_game_min_players(const gateau_game *game) { return game->min_players; }
int gateau_game_max_players(const gateau_game *game) { return game->max_players; }
int gateau_game_option_count(const gateau_game *game) { return game->option_count; }

const gateau_option_info *gateau_game_option(const gateau_game *game, int index)
{
    return index >= 0 && index < game->option_count ? &game->options[index] : NULL;
}
