/*
 * fuzz_deck.c: Cake Master deck files (option deck=FILE): the card codes,
 * the customers, the limits, and then a whole game on the deck read.
 *
 * Input: one byte, then the deck file's content:
 *
 *   byte 0     the player count, 2 + byte % 5 (2..6)
 *   the rest   the deck file (`gateau random cake-master --deck FILE`)
 *
 * The library reads decks from files only, so the content is written to a
 * temporary file (one per process, rewritten for every input, removed at
 * exit) and the option names it.  A refused deck must say why on one line;
 * on a deck that is read, a random game is played to its end through a
 * record, and the record must read back to the same text.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "gateau/record.h"

enum { MOST_ACTIONS = 20000 };

static char deck_path[256];
static int deck_file = -1;

static void remove_deck_file(void)
{
    unlink(deck_path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *folder = getenv("TMPDIR");
    if (!folder || !folder[0]) folder = "/tmp";
    snprintf(deck_path, sizeof deck_path, "%s/gateau-fuzz-deck-XXXXXX", folder);
    deck_file = mkstemp(deck_path);
    /* The path goes into an option value, which may not hold a space. */
    FUZZ_REQUIRE(deck_file >= 0 && !strpbrk(deck_path, " \t\n"),
                 "cannot make a deck file without blanks in its path in %s", folder);
    atexit(remove_deck_file);
    return 0;
}

static void write_deck(const uint8_t *content, size_t size)
{
    FUZZ_REQUIRE(ftruncate(deck_file, 0) == 0, "cannot empty %s", deck_path);
    FUZZ_REQUIRE(pwrite(deck_file, content, size, 0) == (ssize_t)size, "cannot write %s",
                 deck_path);
}

/* A random game on the deck, to its end, as a record that reads back. */
static void play_on(const gateau_setup *setup)
{
    gateau_record *record = gateau_record_new(setup);
    gateau_rng rng;
    gateau_rng_seed(&rng, 1);
    gateau_action actions[GATEAU_MAX_ACTIONS];
    for (int played = 0; played < MOST_ACTIONS; played++) {
        const gateau_state *state = gateau_record_state(record);
        if (gateau_state_is_over(state)) break;
        if (gateau_state_is_chance(state)) {
            gateau_record_play_chance(record, &rng);
            continue;
        }
        int seat = gateau_state_next_seat(state);
        int count = gateau_state_legal_actions(state, seat, actions);
        FUZZ_REQUIRE(count > 0, "seat %d may act but has no legal action", seat + 1);
        char error[256];
        FUZZ_REQUIRE(gateau_record_play(record, seat, actions[gateau_rng_below(&rng, (uint32_t)count)],
                                        error, sizeof error),
                     "a legal action refused: %s", error);
    }
    fuzz_views(gateau_record_state(record));
    char *written = gateau_record_text(record);
    char error[512];
    int line;
    gateau_record *again = gateau_record_read(written, NULL, error, sizeof error, &line);
    FUZZ_REQUIRE(again, "a record on this deck is refused at line %d: %s\n%s", line, error,
                 written);
    char *rewritten = gateau_record_text(again);
    FUZZ_REQUIRE(!strcmp(written, rewritten), "written again differently:\n%s\n---\n%s", written,
                 rewritten);
    free(rewritten);
    gateau_record_free(again);
    free(written);
    gateau_record_free(record);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    write_deck(data + 1, size - 1);
    char options[300], error[512];
    snprintf(options, sizeof options, "deck=%s", deck_path);
    gateau_setup *setup = gateau_setup_new(gateau_game_find("cake-master"), 2 + data[0] % 5,
                                           options, NULL, error, sizeof error);
    if (!setup) {
        fuzz_check_error(error);
        return 0;
    }
    play_on(setup);
    gateau_setup_free(setup);
    return 0;
}
