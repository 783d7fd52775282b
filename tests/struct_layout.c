/*
 * struct_layout.c: the size of every public struct the Python package
 * mirrors with ctypes (python/gateau/_library.py), and the offset of each
 * of their fields, one per line:
 *
 *   gateau_arena_config 96
 *   gateau_arena_config.setup 0
 *   ...
 *
 * python/tests/test_library.py compares them with the ctypes mirrors: a
 * field added, moved or resized in C changes a line here, and a mirror
 * that was not changed with it would pass the library wrong memory
 * without any error.  Not a Criterion program: the comparison is Python's.
 */
#include <stddef.h>
#include <stdio.h>

#include "gateau/arena.h"
#include "gateau/bot.h"
#include "gateau/gateau.h"
#include "gateau/observation.h"
#include "gateau/rng.h"

#define SIZE(type) printf("%s %zu\n", #type, sizeof(type))
#define FIELD(type, field) printf("%s.%s %zu\n", #type, #field, offsetof(type, field))

int main(void)
{
    SIZE(gateau_rng);
    FIELD(gateau_rng, s);

    SIZE(gateau_option_info);
    FIELD(gateau_option_info, name);
    FIELD(gateau_option_info, help);
    FIELD(gateau_option_info, is_path);
    FIELD(gateau_option_info, default_value);
    FIELD(gateau_option_info, min_value);
    FIELD(gateau_option_info, max_value);

    SIZE(gateau_game_type);
    FIELD(gateau_game_type, simultaneous);
    FIELD(gateau_game_type, chance);
    FIELD(gateau_game_type, hidden_information);
    FIELD(gateau_game_type, score_unit);
    FIELD(gateau_game_type, max_actions);
    FIELD(gateau_game_type, max_chance_outcomes);
    FIELD(gateau_game_type, max_move_actions);

    SIZE(gateau_bot_move);
    FIELD(gateau_bot_move, count);
    FIELD(gateau_bot_move, actions);
    FIELD(gateau_bot_move, text);

    SIZE(gateau_arena_config);
    FIELD(gateau_arena_config, setup);
    FIELD(gateau_arena_config, bots);
    FIELD(gateau_arena_config, games);
    FIELD(gateau_arena_config, threads);
    FIELD(gateau_arena_config, seed);
    FIELD(gateau_arena_config, keep_records);
    FIELD(gateau_arena_config, record_dir);
    FIELD(gateau_arena_config, progress);
    FIELD(gateau_arena_config, progress_context);
    FIELD(gateau_arena_config, shard);
    FIELD(gateau_arena_config, shards);
    FIELD(gateau_arena_config, on_game);
    FIELD(gateau_arena_config, on_game_context);

    SIZE(gateau_batch_outputs);
    FIELD(gateau_batch_outputs, observations);
    FIELD(gateau_batch_outputs, masks);
    FIELD(gateau_batch_outputs, legal_actions);
    FIELD(gateau_batch_outputs, legal_counts);
    FIELD(gateau_batch_outputs, seats);
    FIELD(gateau_batch_outputs, rewards);
    FIELD(gateau_batch_outputs, winners);
    FIELD(gateau_batch_outputs, done);
    return 0;
}
