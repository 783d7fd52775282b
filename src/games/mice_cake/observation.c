/*
 * observation.c: Mice Cake as numbers for learning agents
 * (gateau/observation.h; the fields are listed in docs/observations.md).
 *
 * Rows are seen from the seat's own side (its nearest row first), so one
 * policy plays yellow and blue alike.  The face-down pieces (all of them
 * during the deal) are written only as being there; the opponent's
 * assignment is left out until the round's attempts are rolled in the
 * open.
 */
#include "games/mice_cake/mice_cake.h"

enum { MC_DICE_FACES = MC_FACES };

/* Row r as the seat sees it: blue (seat 2) looks from row 7. */
static int row_seen_from(int seat, int index) { return seat == 1 ? MC_ROWS - 1 - index : index; }

static void observe_pieces(observation_writer *out, uint32_t pieces)
{
    for (int p = 0; p < MC_PIECES; p++) observe_flag(out, pieces >> p & 1u);
}

static void observe_grid(const mc_state *g, int seat, observation_writer *out)
{
    for (int i = 0; i < MC_ROWS; i++)
        for (int c = 0; c < MC_COLUMNS; c++) {
            int r = row_seen_from(seat, i);
            bool present = g->grid[r][c] != MC_NO_PIECE;
            bool shown = present && g->up[r][c] && g->phase != MC_PHASE_DEAL;
            observe_flag(out, present);
            observe_flag(out, present && !shown);
            observe_one_hot(out, shown ? g->grid[r][c] : -1, MC_PIECES);
        }
}

/* The seat's own assignment, as far as it has made it. */
static void observe_plan(const mc_state *g, int seat, observation_writer *out)
{
    static const mc_plan none = {.target = MC_NO_PIECE};
    const mc_plan *plan = seat >= 0 ? &g->plans[seat] : &none;
    for (int c = 0; c < MC_COLUMNS; c++) observe_value(out, plan->mice[c] / (double)MC_MICE);
    observe_value(out, plan->placed / (double)MC_MICE);
    observe_one_hot(out, plan->target == MC_NO_PIECE ? -1 : plan->target, MC_PIECES);
    observe_flag(out, plan->wants_target);
}

/* The round's attempts, once they are rolled in the open. */
static void observe_attempts(const mc_state *g, int seat, observation_writer *out)
{
    bool rolling = g->phase == MC_PHASE_ROLL;
    for (int i = 0; i < MC_MAX_ATTEMPTS; i++) {
        const mc_attempt *a = rolling && i < g->attempt_count ? &g->attempts[i] : NULL;
        observe_flag(out, a != NULL);
        observe_one_hot(out, a ? observe_relative(seat, a->seat, MC_SEATS) : -1, MC_SEATS);
        observe_one_hot(out, a ? a->column : -1, MC_COLUMNS);
        observe_value(out, a ? a->mice / (double)MC_MICE : 0.0);
        observe_one_hot(out, a ? a->piece : -1, MC_PIECES);
        observe_flag(out, a && a->steal);
        for (int d = 0; d < MC_MICE; d++)
            observe_value(out, a ? a->dice[d] / (double)MC_DICE_FACES : 0.0);
    }
    observe_one_hot(out, rolling ? g->rolling : -1, MC_MAX_ATTEMPTS);
    observe_value(out, rolling ? g->rolled / (double)MC_MICE : 0.0);
}

void mc_observe(const gateau_state *state, int seat, observation_writer *out)
{
    const mc_state *g = GAME_STATE_CONST(mc_state, state);
    observe_one_hot(out, seat, MC_SEATS);
    observe_value(out, g->round / (double)MC_ROUND_LIMIT);
    observe_one_hot(out, g->phase, MC_PHASE_OVER + 1);
    for (int k = 0; k < MC_SEATS; k++)
        observe_flag(out, state->actors >> observe_seat_at(seat, k, MC_SEATS) & 1u);
    observe_grid(g, seat, out);
    for (int k = 0; k < MC_SEATS; k++) {
        int s = observe_seat_at(seat, k, MC_SEATS);
        observe_pieces(out, g->stash[s]);
        for (int c = 0; c < MC_COLUMNS; c++) observe_value(out, g->tired[s][c] / (double)MC_MICE);
        observe_value(out, g->ready[s] / (double)MC_MICE);
        observe_flag(out, g->must_assign[s]);
        observe_flag(out, g->assigned[s]);
    }
    observe_flag(out, g->removed != 0);
    observe_plan(g, seat, out);
    observe_attempts(g, seat, out);
}
