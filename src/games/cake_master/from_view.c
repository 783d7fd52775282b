/*
 * from_view.c: a Cake Master position read back from a seat's JSON view
 * (the game table's from_view, core/engine.h), the fields in the order
 * views.c writes them.
 *
 * Read: the round, turn and phase, who is to act, the customers met, every
 * table of every round, the seat's draw and share (a share step) or every
 * holding and the seat's placements (a place step).  Recomputed, then
 * compared by the core as the view shows them again: the rounds' scoring
 * and the stars.  Filled as the rules allow, in the order determinize
 * sorts them before it shuffles: the customer pile below those met, in
 * customer order; the cards the seat has not seen this round, in kind
 * order, over the draws it has not seen and the turns to come.  Another
 * seat's share made is "keep the first card, pass the second left", its
 * placement made is its first three empty positions (determinize resamples
 * both).  What no longer matters is written by cm_forget_spent, as
 * determinize writes it.
 */
#include <string.h>

#include "core/view_read.h"
#include "games/cake_master/cake_master.h"

typedef struct reader {
    cm_state *g;
    const cm_deck *deck;
    int seat;
    view_error *error;
} reader;

/* A field's path, for a reason: "seats[1].cakes[2][0]". */
typedef char field_name[64];

/* ---- Values ---------------------------------------------------------------- */

/* A card code of the deck (as views.c writes it: canonical), as a kind. */
static bool read_kind(const reader *r, const json_t *value, const char *name, int *kind)
{
    const char *code;
    if (!view_string_value(value, name, &code, r->error)) return false;
    for (int k = 0; k < r->deck->kind_count; k++)
        if (strcmp(code, r->deck->code[k]) == 0) {
            *kind = k;
            return true;
        }
    return view_fail(r->error, "'%s' is not a card code of this deck", name);
}

/* The phase by its name in the view. */
static bool read_phase(const reader *r, const json_t *view, int *phase)
{
    const char *name;
    if (!view_string(view, "phase", &name, r->error)) return false;
    for (int p = 0; p <= CM_PHASE_OVER; p++)
        if (strcmp(name, CM_PHASE_NAME[p]) == 0) {
            *phase = p;
            return true;
        }
    return view_fail(r->error, "'phase' must be customers, deal, share, place or over");
}

/* ---- Where the game stands --------------------------------------------------- */

static bool read_progress(const reader *r, const json_t *view)
{
    long round, turn;
    int phase = CM_PHASE_CUSTOMERS;
    if (!view_int(view, "round", 1, CM_ROUNDS, &round, r->error) ||
        !view_int(view, "turn", 1, CM_TURNS, &turn, r->error) || !read_phase(r, view, &phase))
        return false;
    /* The steps between turns keep the turn (and round) where they stand. */
    if (phase == CM_PHASE_CUSTOMERS && (round != 1 || turn != 1))
        return view_fail(r->error, "'round' and 'turn' must be 1 while the customers are shuffled");
    if (phase == CM_PHASE_DEAL && turn != 1)
        return view_fail(r->error, "'turn' must be 1 while the cake cards are shuffled");
    if (phase == CM_PHASE_OVER && (round != CM_ROUNDS || turn != CM_TURNS))
        return view_fail(r->error, "'round' and 'turn' must be %d and %d once the game is over",
                         CM_ROUNDS, CM_TURNS);
    r->g->round = (uint8_t)(round - 1);
    r->g->turn = (uint8_t)(turn - 1);
    r->g->phase = (uint8_t)phase;
    return true;
}

/* The seats to act, as a mask: somebody in a share or a place step. */
static bool read_to_act(const reader *r, const json_t *view, uint32_t *actors)
{
    const cm_state *g = r->g;
    const json_t *list;
    if (!view_array(view, "to_act", 0, g->players, &list, r->error)) return false;
    *actors = 0;
    for (size_t i = 0; i < json_array_size(list); i++) {
        field_name name;
        long seat;
        if (!view_int_value(json_array_get(list, i), view_path(name, sizeof name, "to_act[%zu]", i),
                            1, g->players, &seat, r->error))
            return false;
        *actors |= 1u << (seat - 1);
    }
    if (!*actors && (g->phase == CM_PHASE_SHARE || g->phase == CM_PHASE_PLACE))
        return view_fail(r->error, "'to_act' must name a seat in a share or place step");
    return true;
}

/* ---- Customers ------------------------------------------------------------------ */

/* The customers a round meets, from object's "customers" (named with
 * prefix), into their pile positions; met collects them, each once. */
static bool read_round_customers(const reader *r, const json_t *object, const char *prefix,
                                 int round, uint64_t *met)
{
    cm_state *g = r->g;
    field_name name;
    const json_t *list;
    if (!view_array_value(json_object_get(object, "customers"),
                          view_path(name, sizeof name, "%scustomers", prefix), (size_t)round + 1,
                          (size_t)round + 1, &list, r->error))
        return false;
    for (int i = 0; i <= round; i++) {
        const json_t *customer;
        long id;
        if (!view_object_value(json_array_get(list, (size_t)i),
                               view_path(name, sizeof name, "%scustomers[%d]", prefix, i),
                               &customer, r->error) ||
            !view_int_value(json_object_get(customer, "id"),
                            view_path(name, sizeof name, "%scustomers[%d].id", prefix, i), 1,
                            g->customer_count, &id, r->error))
            return false;
        if (*met & (1ull << (id - 1)))
            return view_fail(r->error, "'%s': customer %ld is met twice", name, id);
        *met |= 1ull << (id - 1);
        g->pile[cm_round_first_customer(round) + i] = (uint8_t)(id - 1);
    }
    return true;
}

/* The pile: the customers of the rounds scored (in "results"), those in
 * play, then the rest in customer order. */
static bool read_customers(const reader *r, const json_t *view, const json_t *results)
{
    cm_state *g = r->g;
    uint64_t met = 0;
    for (int round = 0; round < g->round; round++) {
        field_name prefix;
        const json_t *result;
        if (!view_object_value(json_array_get(results, (size_t)round),
                               view_path(prefix, sizeof prefix, "results[%d]", round), &result,
                               r->error) ||
            !read_round_customers(r, result, view_path(prefix, sizeof prefix, "results[%d].",
                                                       round), round, &met))
            return false;
    }
    if (!read_round_customers(r, view, "", g->round, &met)) return false;
    int next = cm_round_first_customer(g->round + 1);
    for (int k = 0; k < g->customer_count; k++)
        if (!(met & (1ull << k))) g->pile[next++] = (uint8_t)k;
    g->customers_dealt = g->customer_count;
    g->customers_used = (1ull << g->customer_count) - 1; /* at most 40 customers */
    return true;
}

/* ---- Tables --------------------------------------------------------------------- */

/* Three cakes of four quarters a b c d, codes or null, holding exactly
 * `cards` cards. */
static bool read_cakes(const reader *r, const json_t *value, const char *prefix, int cards,
                       uint8_t table[CM_POSITIONS])
{
    field_name name;
    const json_t *cakes;
    if (!view_array_value(value, view_path(name, sizeof name, "%s.cakes", prefix), CM_CAKES,
                          CM_CAKES, &cakes, r->error))
        return false;
    int filled = 0;
    for (int c = 0; c < CM_CAKES; c++) {
        const json_t *quarters;
        if (!view_array_value(json_array_get(cakes, (size_t)c),
                              view_path(name, sizeof name, "%s.cakes[%d]", prefix, c), CM_QUARTERS,
                              CM_QUARTERS, &quarters, r->error))
            return false;
        for (int q = 0; q < CM_QUARTERS; q++) {
            const json_t *quarter = json_array_get(quarters, (size_t)q);
            int kind = -1;
            if (!json_is_null(quarter) &&
                !read_kind(r, quarter,
                           view_path(name, sizeof name, "%s.cakes[%d][%d]", prefix, c, q), &kind))
                return false;
            table[c * CM_QUARTERS + q] = (uint8_t)(kind + 1);
            filled += kind >= 0;
        }
    }
    if (filled != cards)
        return view_fail(r->error, "'%s.cakes' must hold %d cards, not %d", prefix, cards, filled);
    return true;
}

/* No round's tables hold more cards of a kind than the deck (each round
 * deals the whole deck anew). */
static bool check_round_cards(const reader *r, int round)
{
    const cm_state *g = r->g;
    int used[CM_MAX_CARDS] = {0};
    for (int s = 0; s < g->players; s++)
        for (int p = 0; p < CM_POSITIONS; p++)
            if (g->cake[round][s][p]) used[g->cake[round][s][p] - 1]++;
    for (int k = 0; k < r->deck->kind_count; k++)
        if (used[k] > r->deck->copies[k])
            return view_fail(r->error, "round %d's tables hold more %s cards than the deck (%d)",
                             round + 1, r->deck->code[k], r->deck->copies[k]);
    return true;
}

/* The tables of the rounds scored, in "results": finished. */
static bool read_past_tables(const reader *r, const json_t *results)
{
    cm_state *g = r->g;
    for (int round = 0; round < g->round; round++) {
        field_name name;
        const json_t *seats;
        if (!view_array_value(json_object_get(json_array_get(results, (size_t)round), "seats"),
                              view_path(name, sizeof name, "results[%d].seats", round),
                              g->players, g->players, &seats, r->error))
            return false;
        for (int s = 0; s < g->players; s++) {
            const json_t *seat;
            if (!view_object_value(json_array_get(seats, (size_t)s),
                                   view_path(name, sizeof name, "results[%d].seats[%d]", round, s),
                                   &seat, r->error) ||
                !read_cakes(r, json_object_get(seat, "cakes"), name, CM_POSITIONS,
                            g->cake[round][s]))
                return false;
        }
        if (!check_round_cards(r, round)) return false;
    }
    return true;
}

/* The cards on this round's tables: three a turn placed. */
static int cards_placed(const cm_state *g)
{
    switch (g->phase) {
    case CM_PHASE_SHARE:
    case CM_PHASE_PLACE: return g->turn * CM_HAND;
    case CM_PHASE_OVER: return CM_POSITIONS;
    default: return 0;
    }
}

/* Every seat's table this round, and in a place step what it holds. */
static bool read_seats(const reader *r, const json_t *view)
{
    cm_state *g = r->g;
    const json_t *seats;
    if (!view_array(view, "seats", g->players, g->players, &seats, r->error)) return false;
    for (int s = 0; s < g->players; s++) {
        field_name name, item;
        const json_t *seat, *holding;
        if (!view_object_value(json_array_get(seats, (size_t)s),
                               view_path(name, sizeof name, "seats[%d]", s), &seat, r->error) ||
            !read_cakes(r, json_object_get(seat, "cakes"), name, cards_placed(g),
                        g->cake[g->round][s]))
            return false;
        if (g->phase != CM_PHASE_PLACE) continue;
        /* The shares are shown too, but the holdings say the same. */
        if (!view_array_value(json_object_get(seat, "holding"),
                              view_path(name, sizeof name, "seats[%d].holding", s), CM_HAND,
                              CM_HAND, &holding, r->error))
            return false;
        for (int k = 0; k < CM_HAND; k++) {
            int kind = 0;
            if (!read_kind(r, json_array_get(holding, (size_t)k),
                           view_path(item, sizeof item, "%s[%d]", name, k), &kind))
                return false;
            g->holding[s][k] = (uint8_t)kind;
        }
    }
    return true;
}

/* ---- The seat's own draw, share and placements ----------------------------------- */

/* A share step: the seat's draw and, once made, its share ("choice"). */
static bool read_draw(const reader *r, const json_t *view, bool choosing)
{
    cm_state *g = r->g;
    const json_t *hand, *choice;
    if (!view_array(view, "hand", CM_HAND, CM_HAND, &hand, r->error)) return false;
    for (int k = 0; k < CM_HAND; k++) {
        field_name name;
        int kind = 0;
        if (!read_kind(r, json_array_get(hand, (size_t)k),
                       view_path(name, sizeof name, "hand[%d]", k), &kind))
            return false;
        g->deal[(g->turn * g->players + r->seat) * CM_HAND + k] = (uint8_t)kind;
    }
    if (choosing) {
        if (view_has(view, "choice"))
            return view_fail(r->error, "'choice': seat %d, still to choose ('to_act'), has chosen",
                             r->seat + 1);
        return true;
    }
    /* A share made: the slots as the move's actions chose them. */
    int keep, left;
    if (!view_object(view, "choice", &choice, r->error) ||
        !read_kind(r, json_object_get(choice, "keep"), "choice.keep", &keep) ||
        !read_kind(r, json_object_get(choice, "left"), "choice.left", &left))
        return false;
    int keep_slot = cm_draw_slot(g, r->seat, keep, -1);
    if (keep_slot < 0) return view_fail(r->error, "'choice.keep' is not a card of 'hand'");
    int left_slot = g->players == 2 ? cm_two_player_left(keep_slot)
                                    : cm_draw_slot(g, r->seat, left, keep_slot);
    if (left_slot < 0) return view_fail(r->error, "'choice.left' is not another card of 'hand'");
    g->keep[r->seat] = (uint8_t)keep_slot;
    g->left[r->seat] = (uint8_t)left_slot;
    return true;
}

/* A place step: the seat's placements, once made ("placing"), each card
 * to the first slot holding it, as the move's actions do. */
static bool read_placing(const reader *r, const json_t *view, bool choosing)
{
    cm_state *g = r->g;
    int seat = r->seat;
    const json_t *placing;
    if (choosing) {
        if (view_has(view, "placing"))
            return view_fail(r->error, "'placing': seat %d, still to place ('to_act'), has placed",
                             seat + 1);
        return true;
    }
    if (!view_array(view, "placing", CM_HAND, CM_HAND, &placing, r->error)) return false;
    for (int i = 0; i < CM_HAND; i++) {
        field_name name;
        const json_t *item;
        const char *where;
        int kind = 0;
        if (!view_object_value(json_array_get(placing, (size_t)i),
                               view_path(name, sizeof name, "placing[%d]", i), &item, r->error) ||
            !read_kind(r, json_object_get(item, "card"),
                       view_path(name, sizeof name, "placing[%d].card", i), &kind) ||
            !view_string_value(json_object_get(item, "position"),
                               view_path(name, sizeof name, "placing[%d].position", i), &where,
                               r->error))
            return false;
        int position = cm_position_parse(where);
        if (position < 0 || g->cake[g->round][seat][position])
            return view_fail(r->error, "'%s' must be an empty position, 1a to 3d", name);
        int slot = -1;
        for (int k = 0; k < CM_HAND; k++)
            if (g->target[seat][k] == position)
                return view_fail(r->error, "'%s' is taken twice", name);
        for (int k = 0; k < CM_HAND && slot < 0; k++)
            if (g->target[seat][k] == CM_NONE && g->holding[seat][k] == kind) slot = k;
        if (slot < 0)
            return view_fail(r->error, "'placing[%d].card' is not a card seat %d holds", i,
                             seat + 1);
        g->target[seat][slot] = (uint8_t)position;
        g->last_position[seat] = (uint8_t)position;
    }
    g->placed[seat] = CM_HAND;
    return true;
}

/* ---- What the seat cannot know --------------------------------------------------- */

/* The other seats' shares or placements, made or not ("to_act"). */
static void fill_others(const reader *r, uint32_t actors)
{
    cm_state *g = r->g;
    for (int s = 0; s < g->players; s++) {
        if (s == r->seat || (actors & (1u << s))) continue;
        if (g->phase == CM_PHASE_SHARE) {
            g->keep[s] = 0;
            g->left[s] = 1; /* cm_two_player_left(0) with 2 players */
        } else if (g->phase == CM_PHASE_PLACE) {
            int k = 0;
            for (int p = 0; p < CM_POSITIONS && k < CM_HAND; p++)
                if (!g->cake[g->round][s][p]) g->last_position[s] = g->target[s][k++] = (uint8_t)p;
            g->placed[s] = CM_HAND;
        }
    }
}

/* This round's deal: what the seat has seen as read, and the cards it has
 * not seen, in kind order, over the draws it has not seen and then the
 * cards not dealt. */
static bool fill_deal(const reader *r)
{
    cm_state *g = r->g;
    const cm_deck *deck = r->deck;
    g->dealt = (uint8_t)(g->phase == CM_PHASE_DEAL ? 0 : cm_deal_size(g->players));
    cm_forget_spent(g);
    int unseen[CM_MAX_CARDS];
    for (int k = 0; k < deck->kind_count; k++) unseen[k] = deck->copies[k];
    for (int i = 0; i < g->dealt; i++)
        if (cm_deal_known(g, r->seat, i)) unseen[g->deal[i]]--;
    for (int k = 0; k < deck->kind_count; k++)
        if (unseen[k] < 0)
            return view_fail(r->error, "round %d shows more %s cards than the deck holds (%d)",
                             g->round + 1, deck->code[k], deck->copies[k]);
    int kind = 0;
    for (int i = 0; i < g->dealt; i++) {
        if (cm_deal_known(g, r->seat, i)) continue;
        while (kind < deck->kind_count && !unseen[kind]) kind++;
        if (kind == deck->kind_count) return view_fail(r->error, "the deck is too small for the deal");
        g->deal[i] = (uint8_t)kind;
        unseen[kind]--;
    }
    for (int k = 0; k < deck->kind_count; k++) g->undealt[k] = (uint8_t)unseen[k];
    g->undealt_total = (int16_t)(deck->card_count - g->dealt);
    cm_count_undealt_blocks(g, deck->kind_count);
    return true;
}

/* ---- Derived ------------------------------------------------------------------------ */

/* The rounds scored, and the stars they gave. */
static void score_rounds(const reader *r)
{
    cm_state *g = r->g;
    g->rounds_scored = (uint8_t)(g->phase == CM_PHASE_OVER ? CM_ROUNDS : g->round);
    for (int round = 0; round < g->rounds_scored; round++) {
        cm_score_tables(g, r->deck, round);
        const cm_result *result = &g->result[round];
        for (int s = 0; s < g->players; s++)
            g->stars[s] = (uint8_t)(g->stars[s] + result->tasty_stars[s] +
                                    result->customer_stars[s]);
    }
}

/* Who acts, as apply leaves it between moves; the empty positions. */
static void set_who_acts(gateau_state *state, cm_state *g, uint32_t actors)
{
    for (int s = 0; s < GATEAU_MAX_PLAYERS; s++) {
        g->empty_positions[s] = (1u << CM_POSITIONS) - 1;
        for (int p = 0; p < CM_POSITIONS && s < g->players; p++)
            if (g->cake[g->round][s][p]) g->empty_positions[s] &= (uint16_t)~(1u << p);
    }
    state->in_move = false;
    switch (g->phase) {
    case CM_PHASE_DEAL:
        state_set_chance(state);
        state->simultaneous = false;
        break;
    case CM_PHASE_OVER: state_set_over(state); break;
    default:
        g->waiting = (uint8_t)actors;
        state->actors = actors;
        state->chance = false;
        state->simultaneous = true;
    }
}

/* ---- The game table's from_view ------------------------------------------------- */

bool cm_from_view(gateau_state *state, int seat, const json_t *view, char *error,
                  size_t error_size)
{
    view_error why = {error, error_size};
    cm_state *g = GAME_STATE(cm_state, state);
    const reader r = {g, cm_deck_of(state), seat, &why};
    if (!read_progress(&r, view)) return false;
    if (g->phase == CM_PHASE_CUSTOMERS) return true; /* nothing is out: the position of init */
    uint32_t actors;
    const json_t *results;
    int scored = g->phase == CM_PHASE_OVER ? CM_ROUNDS : g->round;
    if (!read_to_act(&r, view, &actors) ||
        !view_array(view, "results", (size_t)scored, (size_t)scored, &results, &why) ||
        !read_customers(&r, view, results) || !read_past_tables(&r, results) ||
        !read_seats(&r, view))
        return false;
    memset(g->keep, CM_NONE, sizeof g->keep);
    memset(g->left, CM_NONE, sizeof g->left);
    memset(g->target, CM_NONE, sizeof g->target);
    memset(g->last_position, CM_NONE, sizeof g->last_position);
    bool choosing = actors & (1u << seat);
    if ((g->phase == CM_PHASE_SHARE && !read_draw(&r, view, choosing)) ||
        (g->phase == CM_PHASE_PLACE && !read_placing(&r, view, choosing)))
        return false;
    fill_others(&r, actors);
    if (!fill_deal(&r)) return false;
    score_rounds(&r);
    set_who_acts(state, g, actors);
    return true;
}
