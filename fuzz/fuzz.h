/*
 * fuzz.h: what the libFuzzer targets in this folder share (docs/fuzzing.md).
 *
 * Each target feeds its bytes to the library through the public API and,
 * beyond "no crash, no leak, no undefined behaviour" (ASan, UBSan), checks
 * promises the API makes: an error is one non-empty line; what the library
 * writes it reads back the same.  A broken promise aborts with a line
 * saying which, so that libFuzzer keeps the input as a crash.
 *
 * Targets are deterministic: every generator is seeded from the input.
 */
#ifndef GATEAU_FUZZ_H
#define GATEAU_FUZZ_H

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "gateau/gateau.h"

/* libFuzzer's entry points (declared for -Wmissing-prototypes). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Where a broken promise is told: stderr, unless a target that runs with
 * -close_fd_mask=2 kept a copy of it (fuzz_flags.c). */
static FILE *fuzz_report;

/* Stops the run on a broken promise: libFuzzer saves the input. */
#define FUZZ_REQUIRE(condition, ...)                                                    \
    do {                                                                                \
        if (!(condition)) {                                                             \
            FILE *out = fuzz_report ? fuzz_report : stderr;                             \
            fprintf(out, "fuzz: %s:%d: %s: ", __FILE__, __LINE__, #condition);          \
            fprintf(out, __VA_ARGS__);                                                  \
            fputc('\n', out);                                                           \
            fflush(out);                                                                \
            abort();                                                                    \
        }                                                                               \
    } while (0)

/* The input as a C string (malloc'd): the library reads text, so the
 * bytes up to the first NUL are what it sees. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text) abort();
    memcpy(text, data, size);
    text[size] = '\0';
    return text;
}

/* Every refusal comes with a reason on one line. */
static inline void fuzz_check_error(const char *error)
{
    FUZZ_REQUIRE(error[0] != '\0', "a refusal without a reason");
    FUZZ_REQUIRE(strchr(error, '\n') == NULL, "a reason of several lines: %s", error);
}

/*
 * Whether text names a deck file outside the folder the targets give as
 * the base of relative paths (tests/data): a value of "deck=" with a '/'.
 * Such inputs are skipped, so that a target never reads the machine's
 * other files (whose contents would make runs differ from machine to
 * machine); decks themselves are fuzzed by fuzz_deck.
 */
static inline bool fuzz_names_outside_deck(const char *text)
{
    for (const char *p = text; (p = strstr(p, "deck=")) != NULL;) {
        p += strlen("deck=");
        for (; *p && !isspace((unsigned char)*p); p++)
            if (*p == '/') return true;
    }
    return false;
}

/* The game a header byte picks, and a player count for it from another:
 * a count the game takes as is, any other folded into its range. */
static inline const gateau_game *fuzz_game(uint8_t byte)
{
    return gateau_game_at(byte % gateau_game_count());
}

static inline int fuzz_players(const gateau_game *game, uint8_t byte)
{
    int low = gateau_game_min_players(game), high = gateau_game_max_players(game);
    return byte >= low && byte <= high ? byte : low + byte % (high - low + 1);
}

/* Plays uniformly random legal actions (chance sampled) from state until
 * the game ends or max_actions have been played. */
static inline void fuzz_play_random(gateau_state *state, gateau_rng *rng, int max_actions)
{
    gateau_action actions[GATEAU_MAX_ACTIONS];
    for (int played = 0; played < max_actions && !gateau_state_is_over(state); played++) {
        if (gateau_state_is_chance(state)) {
            gateau_state_apply_legal(state, GATEAU_CHANCE, gateau_state_sample_chance(state, rng));
            continue;
        }
        int seat = gateau_state_next_seat(state);
        int count = gateau_state_legal_actions(state, seat, actions);
        FUZZ_REQUIRE(count > 0, "seat %d may act but has no legal action", seat + 1);
        gateau_state_apply_legal(state, seat, actions[gateau_rng_below(rng, (uint32_t)count)]);
    }
}

/* A view in JSON is one JSON object. */
static inline void fuzz_check_json(const char *text)
{
    json_error_t error;
    json_t *parsed = json_loads(text, 0, &error);
    FUZZ_REQUIRE(json_is_object(parsed), "not a JSON object (%s): %s", error.text, text);
    json_decref(parsed);
}

/* Every seat's view of state and the observer's, as text and JSON; a
 * seat's views are the same after everything it cannot know is drawn
 * again (gateau_state_determinize). */
static inline void fuzz_views(const gateau_state *state)
{
    gateau_rng rng;
    gateau_rng_seed(&rng, 1);
    for (int seat = GATEAU_OBSERVER; seat < gateau_state_players(state); seat++) {
        char *text = gateau_state_view_text(state, seat, seat == 0);
        char *json = gateau_state_view_json(state, seat);
        fuzz_check_json(json);
        if (seat >= 0) {
            gateau_state *drawn = gateau_state_clone(state);
            gateau_state_determinize(drawn, seat, &rng);
            char *drawn_text = gateau_state_view_text(drawn, seat, seat == 0);
            char *drawn_json = gateau_state_view_json(drawn, seat);
            FUZZ_REQUIRE(!strcmp(text, drawn_text) && !strcmp(json, drawn_json),
                         "seat %d sees what it cannot know:\n%s\n---\n%s", seat + 1, json,
                         drawn_json);
            free(drawn_text);
            free(drawn_json);
            gateau_state_free(drawn);
        }
        free(text);
        free(json);
    }
}

#endif
