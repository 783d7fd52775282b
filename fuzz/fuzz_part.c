/*
 * fuzz_part.c: arena part files (gateau_arena_part_read), what a shard of
 * `gateau arena --shard I/N --part FILE` writes and `gateau arena-merge`
 * and a resumed shard read (docs/cluster.md).
 *
 * Input: the file's bytes.  A refused file must say why on one line, at a
 * line of the file; a file that is read must write back (its header, then
 * its games' lines in file order) to the very bytes it was read from, up
 * to its last complete line, and every game must be in the header's shard.
 */
#include "fuzz.h"
#include "gateau/arena.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    gateau_arena_part part;
    char error[512] = "";
    int line = -1;
    if (!gateau_arena_part_read(text, size, &part, error, sizeof error, &line)) {
        fuzz_check_error(error);
        int lines = 1;
        for (size_t i = 0; i < size; i++) lines += data[i] == '\n';
        FUZZ_REQUIRE(line >= 0 && line <= lines, "line %d of a text of %d lines", line, lines);
        return 0;
    }
    FUZZ_REQUIRE(part.complete_length <= size && part.torn == (part.complete_length < size),
                 "complete length %zu of %zu", part.complete_length, size);
    char *header = gateau_arena_part_header_text(&part.header, error, sizeof error);
    FUZZ_REQUIRE(header, "a header read is not written: %s", error);
    size_t length = strlen(header);
    FUZZ_REQUIRE(length <= part.complete_length && !memcmp(header, text, length),
                 "the header writes back differently:\n%s", header);
    free(header);
    long first, count;
    gateau_arena_shard_range(part.header.games, part.header.shard, part.header.shards, &first,
                             &count);
    for (long i = 0; i < part.count; i++) {
        const gateau_arena_part_game *game = &part.games[i];
        FUZZ_REQUIRE(game->game >= first && game->game < first + count,
                     "game %ld outside the shard", game->game + 1);
        char written[GATEAU_ARENA_PART_LINE_SIZE];
        int written_length = gateau_arena_part_line(game->game, &game->result,
                                                    part.header.players, written);
        FUZZ_REQUIRE(length + (size_t)written_length <= part.complete_length &&
                         !memcmp(written, text + length, (size_t)written_length),
                     "game %ld (line %d) writes back differently: %s", game->game + 1,
                     game->line, written);
        length += (size_t)written_length;
    }
    FUZZ_REQUIRE(length == part.complete_length, "%zu bytes written back of %zu", length,
                 part.complete_length);
    gateau_arena_part_free(&part);
    return 0;
}
