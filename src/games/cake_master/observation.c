/*
 * observation.c: Cake Master as numbers for learning agents
 * (gateau/observation.h; the fields are listed in docs/observations.md).
 *
 * Cards are written by what they are (icing, half-rosettes, rosette,
 * fruit), not by their kind's number in the deck, so that an agent reads
 * any deck alike.  What a seat knows: the customers turned up, its own
 * draw and share this turn, every seat's three cards once they are
 * revealed for placing, its own placements in progress, every table, the
 * rounds' results.  The cards still to be drawn, the others' draws and
 * shares, and where the others are placing are left out.
 */
#include "games/cake_master/cake_master.h"

enum {
    CM_MIN_SEATS = 2,
    CM_CARD_VALUES = CM_COLORS + 5, /* what observe_card writes */
    CM_CUSTOMERS_MET = 6,           /* 1 + 2 + 3 in a game */
    CM_DEMAND_SCALE = 10,
    CM_TASTY_SCALE = 20,
    CM_STARS_SCALE = 15,
};

/* One card (kind < 0: none). */
static void observe_card(const gateau_state *state, int kind, observation_writer *out)
{
    const cm_card *card = kind >= 0 ? &cm_deck_of(state)->kind[kind] : NULL;
    observe_one_hot(out, card ? card->color : -1, CM_COLORS);
    observe_flag(out, card && (card->halves & CM_HALF_CCW));
    observe_flag(out, card && (card->halves & CM_HALF_CW));
    observe_flag(out, card && card->whole);
    observe_value(out, card ? card->raspberries / (double)CM_MAX_FRUIT : 0.0);
    observe_value(out, card ? card->blueberries / (double)CM_MAX_FRUIT : 0.0);
}

/* The customers of the pile turned up so far, in pile order. */
static void observe_customers(const gateau_state *state, const cm_state *g,
                              observation_writer *out)
{
    int revealed = g->phase == CM_PHASE_CUSTOMERS ? 0 : cm_round_first_customer(g->round + 1);
    for (int i = 0; i < CM_CUSTOMERS_MET; i++) {
        const cm_customer *customer =
            i < revealed ? &cm_deck_of(state)->customer[g->pile[i]] : NULL;
        observe_flag(out, customer != NULL);
        for (int f = 0; f < CM_FEATURES; f++) {
            int demand = customer ? customer->demand[f] : -1;
            observe_flag(out, customer && demand < 0);
            observe_value(out, demand > 0 ? demand / (double)CM_DEMAND_SCALE : 0.0);
        }
    }
}

/* The seat's own draw and share, during a share. */
static void observe_share(const gateau_state *state, const cm_state *g, int seat,
                          observation_writer *out)
{
    bool sharing = g->phase == CM_PHASE_SHARE && seat >= 0;
    for (int k = 0; k < CM_HAND; k++) {
        observe_flag(out, sharing);
        observe_card(state, sharing ? cm_drawn(g, g->turn, seat, k) : -1, out);
    }
    int keep = sharing && g->keep[seat] != CM_NONE ? g->keep[seat] : -1;
    int left = sharing && g->left[seat] != CM_NONE ? g->left[seat] : -1;
    observe_one_hot(out, keep, CM_HAND);
    observe_one_hot(out, left, CM_HAND);
}

/* Every seat's held cards while placing, and the seat's own targets. */
static void observe_holdings(const gateau_state *state, const cm_state *g, int seat,
                             observation_writer *out)
{
    bool placing = g->phase == CM_PHASE_PLACE;
    for (int k = 0; k < GATEAU_MAX_PLAYERS; k++) {
        bool held = placing && k < g->players;
        int s = held ? observe_seat_at(seat, k, g->players) : 0;
        for (int slot = 0; slot < CM_HAND; slot++) {
            observe_flag(out, held);
            observe_card(state, held ? g->holding[s][slot] : -1, out);
        }
    }
    for (int slot = 0; slot < CM_HAND; slot++) {
        int target = placing && seat >= 0 ? g->target[seat][slot] : CM_NONE;
        observe_one_hot(out, target == CM_NONE ? -1 : target, CM_POSITIONS);
    }
}

/* This round's tables, seats in relative order. */
static void observe_tables(const gateau_state *state, const cm_state *g, int seat,
                           observation_writer *out)
{
    for (int k = 0; k < GATEAU_MAX_PLAYERS; k++) {
        int s = k < g->players ? observe_seat_at(seat, k, g->players) : -1;
        for (int p = 0; p < CM_POSITIONS; p++) {
            int kind = s >= 0 ? g->cake[g->round][s][p] - 1 : -1;
            observe_flag(out, kind >= 0);
            observe_card(state, kind, out);
        }
    }
}

static void observe_results(const cm_state *g, int seat, observation_writer *out)
{
    for (int r = 0; r < CM_ROUNDS; r++) {
        bool scored = r < g->rounds_scored;
        observe_flag(out, scored);
        for (int k = 0; k < GATEAU_MAX_PLAYERS; k++) {
            bool real = scored && k < g->players;
            int s = real ? observe_seat_at(seat, k, g->players) : 0;
            const cm_result *result = &g->result[r];
            observe_value(out, real ? result->total[s] / (double)CM_TASTY_SCALE : 0.0);
            observe_value(out, real ? result->tasty_stars[s] / 2.0 : 0.0);
            observe_value(out, real ? result->customer_stars[s] / 3.0 : 0.0);
        }
    }
    for (int k = 0; k < GATEAU_MAX_PLAYERS; k++)
        observe_value(out, k < g->players
                               ? g->stars[observe_seat_at(seat, k, g->players)] /
                                     (double)CM_STARS_SCALE
                               : 0.0);
}

void cm_observe(const gateau_state *state, int seat, observation_writer *out)
{
    const cm_state *g = GAME_STATE_CONST(cm_state, state);
    int players = g->players;
    observe_one_hot(out, seat, GATEAU_MAX_PLAYERS);
    observe_one_hot(out, players - CM_MIN_SEATS, GATEAU_MAX_PLAYERS - CM_MIN_SEATS + 1);
    observe_one_hot(out, g->round, CM_ROUNDS);
    observe_one_hot(out, g->turn, CM_TURNS);
    observe_one_hot(out, g->phase, CM_PHASE_OVER + 1);
    for (int k = 0; k < GATEAU_MAX_PLAYERS; k++)
        observe_flag(out, k < players &&
                              (state->actors >> observe_seat_at(seat, k, players) & 1u));
    observe_customers(state, g, out);
    observe_share(state, g, seat, out);
    observe_holdings(state, g, seat, out);
    observe_tables(state, g, seat, out);
    observe_results(g, seat, out);
}
