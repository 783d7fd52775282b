/*
 * lessons.c: the tables of "Learn to play" (docs/web.md, "Lessons").
 *
 * A lesson is a table like any other (the real engine, the real bots),
 * made with a fixed seed so that its deal and its bots' moves are the same
 * every time: the page's lesson script (web/js/learn/) was written for
 * that one game.  The bots are `heuristic`, which draws only from the
 * table's seed and the move number (workers.c): no clock, no threads, so
 * nothing in its moves depends on the machine.  The seed stays here, as
 * every table's does: a seat's snapshot never holds it.
 *
 * Changing a lesson's seed, seats or options changes its game: the page's
 * script must be recorded again (scripts/record-lesson.mjs).
 */
#include <string.h>

#include "server/server.h"

static const server_lesson lessons[] = {
    {"piece-o-cake", 3, "rounds=1", {"human", "heuristic", "heuristic"}, 0x6c6573736f6e0001ull},
    {"maries-table", 3, "", {"human", "heuristic", "heuristic"}, 11},
    {"cake-master", 2, "", {"human", "heuristic"}, 0x6c6573736f6e0003ull},
    {"mice-cake", 2, "", {"human", "heuristic"}, 0x6c6573736f6e0004ull},
};

const server_lesson *lesson_find(const char *game)
{
    for (size_t i = 0; i < sizeof lessons / sizeof *lessons; i++)
        if (!strcmp(lessons[i].game, game)) return &lessons[i];
    return NULL;
}

bool lesson_table(const char *game, uint64_t seed)
{
    /* (another table's seed comes from the system's generator: it meets a
     * lesson's one time in 2^64) */
    const server_lesson *lesson = lesson_find(game);
    return lesson && lesson->seed == seed;
}
