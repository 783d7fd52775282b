/*
 * fuzz_engine.c: the line handling of `gateau engine` (src/cli/engine.c,
 * engine_session_line), what a harness sends to gateau's bots through the
 * bot protocol (docs/protocol.md).
 *
 * Input: lines, as a harness would send them.  A line "VIEW" becomes a
 * `view` line of a real position of the current game (the initial
 * position after its first chance moves, for the seat of the last
 * newgame), so that `go` plays real moves too; the seeds also hold whole
 * sessions with their views (fuzz/make-corpus.sh), which the fuzzer
 * changes, so the engine's reading of views (gateau_state_from_view) is
 * fuzzed as well.  Every answer must be whole lines of
 * the protocol's answers: protocol, name, option, ready, rng, move, error,
 * readyok, warning.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/engine.h"
#include "fuzz.h"

static void check_answers(const char *text)
{
    static const char *const answers[] = {"protocol ", "name ", "option ", "ready", "rng ",
                                          "move ", "error ", "readyok", "warning "};
    for (const char *line = text; *line;) {
        size_t length = strcspn(line, "\n");
        bool known = false;
        for (size_t a = 0; a < sizeof answers / sizeof answers[0]; a++)
            known = known || !strncmp(line, answers[a], strlen(answers[a]));
        FUZZ_REQUIRE(known && line[length] == '\n', "answer '%.*s'", (int)length, line);
        line += length + 1;
    }
}

/* A view line for the session's game and seat, when it has one. */
static void send_view(engine_session *session)
{
    if (!session->setup) return;
    gateau_state *state = gateau_state_new(session->setup);
    gateau_rng rng;
    gateau_rng_seed(&rng, 1);
    while (gateau_state_is_chance(state))
        gateau_state_apply_legal(state, GATEAU_CHANCE, gateau_state_sample_chance(state, &rng));
    char *view = gateau_state_view_json(state, session->seat);
    size_t size = strlen(view) + 8;
    char *line = malloc(size);
    snprintf(line, size, "view %s", view);
    engine_session_line(session, line);
    free(line);
    free(view);
    gateau_state_free(state);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    char *output = NULL;
    size_t output_size = 0;
    FILE *out = open_memstream(&output, &output_size);
    engine_session session;
    engine_session_init(&session, "random", 1, out);
    for (char *line = text; line;) {
        char *newline = strchr(line, '\n');
        if (newline) *newline = '\0';
        if (!strcmp(line, "VIEW")) send_view(&session);
        else if (!engine_session_line(&session, line)) break;
        line = newline ? newline + 1 : NULL;
    }
    engine_session_free(&session);
    fclose(out);
    check_answers(output);
    free(output);
    free(text);
    return 0;
}
