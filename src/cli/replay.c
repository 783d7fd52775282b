/*
 * replay.c: `gateau replay FILE|- [--json]`: check a record (- reads standard input) move by move and
 * show where the game stands.
 */
#include <jansson.h>
#include <stdlib.h>

#include "cli/cli.h"

static void print_json_error(const char *error, int line)
{
    json_t *out = json_pack("{s:s, s:i}", "error", error, "line", line);
    char *text = json_dumps(out, JSON_COMPACT | JSON_PRESERVE_ORDER);
    puts(text);
    free(text);
    json_decref(out);
}

static void print_text_result(const gateau_record *record)
{
    const gateau_state *state = gateau_record_state(record);
    int players = gateau_state_players(state);
    char *view = gateau_state_view_text(state, GATEAU_OBSERVER, false);
    fputs(view, stdout);
    free(view);
    int scores[GATEAU_MAX_PLAYERS];
    gateau_state_scores(state, scores);
    printf("\n%d moves; %s.\nScores%s:", gateau_record_move_count(record),
           gateau_state_is_over(state) ? "the game is over" : "the game is in progress",
           gateau_state_is_over(state) ? "" : " so far");
    for (int s = 0; s < players; s++) printf(" %s %d", gateau_record_name(record, s), scores[s]);
    uint32_t winners = gateau_state_winners(state);
    if (winners) {
        printf("\nWinner%s:", __builtin_popcount(winners) > 1 ? "s" : "");
        for (int s = 0; s < players; s++)
            if (winners & (1u << s)) printf(" %s", gateau_record_name(record, s));
    }
    printf("\n");
}

int cli_replay(int argc, char **argv)
{
    cli_flags flags;
    if (!cli_parse_flags("replay", argc, argv, "json", &flags)) return 2;
    if (!flags.game) {
        cli_error("replay: usage: gateau replay FILE|- [--json]");
        return 2;
    }
    char error[512];
    int line = 0;
    gateau_record *record = gateau_record_read_file(flags.game, error, sizeof error, &line);
    if (!record) {
        if (flags.json) print_json_error(error, line);
        else if (line) cli_error("%s:%d: %s", flags.game, line, error);
        else cli_error("%s: %s", flags.game, error);
        return 1;
    }
    if (flags.json) {
        char *result = gateau_record_result_json(record);
        puts(result);
        free(result);
    }
    else print_text_result(record);
    gateau_record_free(record);
    return 0;
}
