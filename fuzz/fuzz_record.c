/*
 * fuzz_record.c: records read from text (gateau_record_read): the header,
 * the options, the names, every game's notation of every move, replayed.
 *
 * Input: the text of a record, as `gateau replay` reads it.  A record that
 * is read must be written back (gateau_record_text) as a record that reads
 * again to the same text; a refused one must say why on one line, at a
 * line of the input.  The position reached is then shown to every seat
 * (the same view after what the seat cannot know is drawn again), and
 * every JSON written must be a JSON object.
 * Deck files are looked up in tests/data (cake-master-small.deck); a deck
 * path with a '/' is skipped (fuzz.h).
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "gateau/record.h"

static int line_count(const char *text)
{
    int lines = 1;
    for (const char *p = text; (p = strchr(p, '\n')) != NULL; p++) lines++;
    return lines;
}

/* What was written reads back the same. */
static void check_written(const gateau_record *record)
{
    char *written = gateau_record_text(record);
    char error[512];
    int line;
    gateau_record *again = gateau_record_read(written, GATEAU_FUZZ_DATA_DIR, error,
                                              sizeof error, &line);
    FUZZ_REQUIRE(again, "a record as written is refused at line %d: %s\n%s", line, error,
                 written);
    FUZZ_REQUIRE(gateau_record_move_count(again) == gateau_record_move_count(record),
                 "%d moves read back as %d", gateau_record_move_count(record),
                 gateau_record_move_count(again));
    char *rewritten = gateau_record_text(again);
    FUZZ_REQUIRE(!strcmp(written, rewritten), "written again differently:\n%s\n---\n%s", written,
                 rewritten);
    free(rewritten);
    gateau_record_free(again);
    free(written);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (fuzz_names_outside_deck(text)) {
        free(text);
        return 0;
    }
    char error[512];
    int line = -1;
    gateau_record *record = gateau_record_read(text, GATEAU_FUZZ_DATA_DIR, error, sizeof error,
                                               &line);
    if (!record) {
        fuzz_check_error(error);
        FUZZ_REQUIRE(line >= 0 && line <= line_count(text), "error line %d: %s", line, error);
        free(text);
        return 0;
    }
    FUZZ_REQUIRE(line == 0, "a record read with error line %d", line);
    check_written(record);
    char *json = gateau_record_result_json(record);
    fuzz_check_json(json);
    free(json);
    const gateau_state *state = gateau_record_state(record);
    fuzz_views(state);
    int seat = gateau_state_next_seat(state);
    if (seat >= 0) free(gateau_state_describe_legal(state, seat));
    gateau_record_free(record);
    free(text);
    return 0;
}
