/*
 * record_text.c: a stored table as the text of a record, so that the
 * engine's own reader replays it (the server's restore) and an operator
 * reads it (`gateau tables show`).  Every player move carries its seat's
 * prefix, so that the reader needs no guess about who made it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"

char *store_record_text(const store_table *table, const store_move *moves, int count)
{
    size_t size = 2048 + strlen(table->options);
    for (int m = 0; m < count; m++) size += strlen(moves[m].line) + 8;
    char *text = malloc(size);
    if (!text) abort(); /* out of memory */
    int used = snprintf(text, size, "game: %s\nplayers: %d\n%s%s%s---\n", table->game,
                        table->players, table->options[0] ? "options: " : "", table->options,
                        table->options[0] ? "\n" : "");
    for (int m = 0; m < count; m++) {
        if (moves[m].seat >= 0)
            used += snprintf(text + used, size - (size_t)used, "%d: ", moves[m].seat + 1);
        used += snprintf(text + used, size - (size_t)used, "%s\n", moves[m].line);
    }
    return text;
}
