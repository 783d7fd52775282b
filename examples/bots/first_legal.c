/*
 * first_legal.c: a bot for gateau's bot protocol (docs/protocol.md) in C on
 * libgateau.
 *
 * It reads the position from the `view` line (gateau_state_from_view: a
 * position its seat cannot tell from the real one) and plays the first
 * legal action at every step of its move, which is a legal whole move;
 * without a view it can read it plays the first `legal` line.  It speaks
 * protocol 2 (numbered replies, warnings for lines it cannot use) and, to
 * a controller that offers only that, protocol 1.  It draws nothing, so it
 * sends no `rng` line: the controller's generator stays as it was.
 *
 *   gateau arena mice-cake --seats "ext:build/examples/first_legal,heuristic" --games 10
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gateau/gateau.h"

enum { SPOKEN = 2 }; /* the highest protocol version it speaks */

static int version = 1; /* until the handshake says otherwise */
static gateau_setup *setup;
static gateau_state *state;
static int seat = -1;
static char first_legal_line[4096];

/* A line it cannot use: a warning in protocol 2 (it ends nothing), an
 * error in protocol 1. */
static void complain(const char *what, const char *detail)
{
    printf("%s %s: %s\n", version >= 2 ? "warning" : "error", what, detail);
}

/* protocol V: the controller speaks 1 to V; answer in the highest both speak. */
static void handshake(const char *rest)
{
    int offered = atoi(rest);
    if (offered < 1) {
        printf("error protocol '%s': first_legal speaks protocol 1 and %d\n", rest, SPOKEN);
        return;
    }
    version = offered < SPOKEN ? offered : SPOKEN;
    if (version >= 2) printf("protocol %d\n", version);
    printf("name first_legal\nready\n");
}

static void new_game(char *rest)
{
    gateau_state_free(state);
    gateau_setup_free(setup);
    state = NULL;
    setup = NULL;
    char game[64] = "", *options = strstr(rest, " options ");
    int players = 0;
    if (sscanf(rest, "game %63s players %d seat %d", game, &players, &seat) != 3) {
        complain("newgame", "cannot read it");
        return;
    }
    char error[256];
    const gateau_game *found = gateau_game_find(game);
    setup = found ? gateau_setup_new(found, players, options ? options + 9 : "", NULL, error,
                                     sizeof error)
                  : NULL;
    if (!setup) complain("newgame", found ? error : "unknown game");
    seat--;
}

static void take_view(const char *json)
{
    char error[256];
    gateau_state_free(state);
    state = setup ? gateau_state_from_view(setup, seat, json, error, sizeof error) : NULL;
    if (!state) complain("view", setup ? error : "before newgame");
}

/* "move N " in protocol 2 (N the go's number), "move " in protocol 1. */
static void reply(const char *keyword, long number, const char *text)
{
    if (version >= 2) printf("%s %ld %s\n", keyword, number, text);
    else printf("%s %s\n", keyword, text);
}

/* The first legal action until the move is complete. */
static void go(const char *rest)
{
    long number = atol(rest);
    if (!state) {
        if (first_legal_line[0]) reply("move", number, first_legal_line);
        else reply("error", number, "no position and no legal line");
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
        reply("error", number, "this seat has no move here");
        return;
    }
    char *text = gateau_move_format(state, seat, line, count);
    reply("move", number, text);
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
        if (!strcmp(line, "protocol")) handshake(rest);
        else if (!strcmp(line, "newgame")) new_game(rest);
        else if (!strcmp(line, "view")) take_view(rest);
        else if (!strcmp(line, "legal") && !first_legal_line[0])
            snprintf(first_legal_line, sizeof first_legal_line, "%s", rest);
        else if (!strcmp(line, "go")) {
            go(rest);
            first_legal_line[0] = '\0';
        } else if (!strcmp(line, "isready") && version >= 2) {
            printf("readyok %s\n", rest);
        } else if (!strcmp(line, "quit")) {
            break;
        }
        fflush(stdout);
    }
    gateau_state_free(state);
    gateau_setup_free(setup);
    return 0;
}
