/*
 * first_legal.c: a bot for gateau's bot protocol (docs/protocol.md) in C on
 * libgateau.
 *
 * It reads the position from the `view` line (gateau_state_from_view: a
 * position its seat cannot tell from the real one) and plays the first
 * legal action at every step of its move, which is a legal whole move;
 * without a view it can read it plays the first `legal` line.
 *
 *   gateau arena mice-cake --seats "ext:build/examples/first_legal,heuristic" --games 10
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gateau/gateau.h"

static gateau_setup *setup;
static gateau_state *state;
static int seat = -1;
static char first_legal_line[4096];

static void new_game(char *rest)
{
    gateau_state_free(state);
    gateau_setup_free(setup);
    state = NULL;
    setup = NULL;
    char game[64] = "", *options = strstr(rest, " options ");
    int players = 0;
    if (sscanf(rest, "game %63s players %d seat %d", game, &players, &seat) != 3) {
        printf("error newgame: cannot read '%s'\n", rest);
        return;
    }
    char error[256];
    const gateau_game *found = gateau_game_find(game);
    setup = found ? gateau_setup_new(found, players, options ? options + 9 : "", NULL, error,
                                     sizeof error)
                  : NULL;
    if (!setup) printf("error newgame: %s\n", found ? error : "unknown game");
    seat--;
}

static void take_view(const char *json)
{
    char error[256];
    gateau_state_free(state);
    state = setup ? gateau_state_from_view(setup, seat, json, error, sizeof error) : NULL;
    if (!state) printf("error view: %s\n", setup ? error : "before newgame");
}

/* The first legal action until the move is complete. */
static void go(void)
{
    if (!state) {
        if (first_legal_line[0]) printf("move %s\n", first_legal_line);
        else printf("error no position and no legal line\n");
        return;
    }
    gateau_state *scratch = gateau_state_clone(state);
    gateau_action line[GATEAU_MAX_MOVE_ACTIONS], legal[GATEAU_MAX_ACTIONS];
    int count = 0;
    do {
        if (gateau_state_legal_actions(scratch, seat, legal) == 0) break;
        line[count++] = legal[0];
        gateau_state_apply_legal(scratch, seat, legal[0]);
    } while (count < GATEAU_MAX_MOVE_ACTIONS && gateau_state_in_move(scratch) &&
             (gateau_state_actors(scratch) & (1u << seat)));
    gateau_state_free(scratch);
    if (!count) {
        printf("error seat %d has no move here\n", seat + 1);
        return;
    }
    char *text = gateau_move_format(state, seat, line, count);
    printf("move %s\n", text);
    free(text);
}

int main(void)
{
    static char line[1 << 20];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *rest = strchr(line, ' ');
        if (rest) *rest++ = '\0';
        else rest = line + strlen(line);
        if (!strcmp(line, "protocol")) printf("name first_legal\nready\n");
        else if (!strcmp(line, "newgame")) new_game(rest);
        else if (!strcmp(line, "view")) take_view(rest);
        else if (!strcmp(line, "legal") && !first_legal_line[0])
            snprintf(first_legal_line, sizeof first_legal_line, "%s", rest);
        else if (!strcmp(line, "go")) {
            go();
            first_legal_line[0] = '\0';
        } else if (!strcmp(line, "quit")) break;
        fflush(stdout);
    }
    gateau_state_free(state);
    gateau_setup_free(setup);
    return 0;
}
