/*
 * views.c: what a Cake Master seat sees: the terminal drawing, the JSON
 * view, the commentary on moves and the explanation of the legal moves.
 *
 * Public: the table (every placed card), the customers revealed, every
 * share once all have chosen (so every held card in the place step), the
 * scoring.  Private: a seat's own draw and pending share or placement.
 * Hidden from all: the deck order, the customer pile, others' draws and
 * the choices not yet revealed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/cake_master/cake_master.h"

const char *const CM_PHASE_NAME[CM_PHASE_OVER + 1] = {"customers", "deal", "share", "place",
                                                    "over"};

#define COLOR_RESET "\033[0m"
#define COLOR_DIM "\033[2m"
#define COLOR_BOLD "\033[1m"
#define COLOR_ROSETTE "\033[1;33m"
static const char *const ICING_COLOR[CM_COLORS] = {"\033[1;97m", "\033[1;38;5;205m",
                                                   "\033[1;38;5;130m"};

/* ---- Shared helpers ---------------------------------------------------------- */

/* The kind seat sees at position p this round (with seat's own pending
 * placements when mine is true), or -1. */
static int seen_at(const cm_state *g, int owner, int position, bool mine)
{
    int on_table = g->cake[g->round][owner][position];
    if (on_table) return on_table - 1;
    if (mine && g->phase == CM_PHASE_PLACE)
        for (int k = 0; k < CM_HAND; k++)
            if (g->target[owner][k] == position) return g->holding[owner][k];
    return -1;
}

static bool is_pending(const cm_state *g, int owner, int position)
{
    return !g->cake[g->round][owner][position] && seen_at(g, owner, position, true) >= 0;
}

static void append_customer(const gateau_state *state, int index, gateau_text *out)
{
    text_append(out, "#%d (", index + 1);
    cm_customer_format(&cm_deck_of(state)->customer[index], out);
    text_append(out, ")");
}

/* Customers in play this round; none before the pile is shuffled. */
static int customers_in_play(const cm_state *g, int *indices)
{
    if (g->phase == CM_PHASE_CUSTOMERS) return 0;
    int first = cm_round_first_customer(g->round);
    for (int i = 0; i <= g->round; i++) indices[i] = g->pile[first + i];
    return g->round + 1;
}

/* ---- JSON ------------------------------------------------------------------------ */

/* The JSON view's helpers write one value each (core/json_write.h). */

static void write_customer(const gateau_state *state, int index, json_writer *out)
{
    const cm_customer *customer = &cm_deck_of(state)->customer[index];
    json_write_begin_object(out);
    json_write_key(out, "id");
    json_write_integer(out, index + 1);
    json_write_key(out, "demand");
    json_write_begin_object(out);
    for (int f = 0; f < CM_FEATURES; f++)
        if (customer->demand[f] >= 0) {
            json_write_key(out, CM_FEATURE_NAME[f]);
            json_write_integer(out, customer->demand[f]);
        }
    json_write_end_object(out);
    json_write_end_object(out);
}

static void write_customers(const gateau_state *state, const int *indices, int count,
                            json_writer *out)
{
    json_write_begin_array(out);
    for (int i = 0; i < count; i++) write_customer(state, indices[i], out);
    json_write_end_array(out);
}

static void write_code_or_null(const gateau_state *state, int kind, json_writer *out)
{
    if (kind >= 0) json_write_string(out, cm_kind_code(state, kind));
    else json_write_null(out);
}

/* Three cakes of four quarters a b c d, codes or null. */
static void write_cakes(const gateau_state *state, const uint8_t *table, json_writer *out)
{
    json_write_begin_array(out);
    for (int c = 0; c < CM_CAKES; c++) {
        json_write_begin_array(out);
        for (int q = 0; q < CM_QUARTERS; q++)
            write_code_or_null(state, table[c * CM_QUARTERS + q] - 1, out);
        json_write_end_array(out);
    }
    json_write_end_array(out);
}

static void write_share(const gateau_state *state, const cm_state *g, int seat, json_writer *out)
{
    json_write_begin_object(out);
    json_write_key(out, "keep");
    json_write_string(out, cm_kind_code(state, cm_drawn(g, g->turn, seat, g->keep[seat])));
    if (g->left[seat] != CM_NONE) {
        int left = cm_drawn(g, g->turn, seat, g->left[seat]);
        int right = cm_drawn(g, g->turn, seat, cm_right_slot(g, seat));
        json_write_key(out, "left");
        json_write_string(out, cm_kind_code(state, left));
        json_write_key(out, "right");
        json_write_string(out, cm_kind_code(state, right));
    }
    json_write_end_object(out);
}

static void write_result_seat(const gateau_state *state, const cm_state *g, int r, int s,
                              json_writer *out)
{
    const cm_result *result = &g->result[r];
    json_write_begin_object(out);
    json_write_key(out, "seat");
    json_write_integer(out, s + 1);
    json_write_key(out, "cakes");
    write_cakes(state, g->cake[r][s], out);
    json_write_key(out, "tasty");
    json_write_begin_array(out);
    for (int c = 0; c < CM_CAKES; c++) json_write_integer(out, result->tasty[s][c]);
    json_write_end_array(out);
    json_write_key(out, "total");
    json_write_integer(out, result->total[s]);
    json_write_key(out, "tasty_stars");
    json_write_integer(out, result->tasty_stars[s]);
    json_write_key(out, "served");
    json_write_begin_array(out);
    for (int c = 0; c < CM_CAKES; c++) {
        if (result->served[s][c] < 0) json_write_null(out);
        else json_write_integer(out, result->served[s][c] + 1);
    }
    json_write_end_array(out);
    json_write_key(out, "customer_stars");
    json_write_integer(out, result->customer_stars[s]);
    json_write_end_object(out);
}

static void write_results(const gateau_state *state, const cm_state *g, json_writer *out)
{
    json_write_begin_array(out);
    for (int r = 0; r < g->rounds_scored; r++) {
        json_write_begin_object(out);
        json_write_key(out, "round");
        json_write_integer(out, r + 1);
        int met[CM_ROUNDS];
        for (int i = 0; i <= r; i++) met[i] = g->pile[cm_round_first_customer(r) + i];
        json_write_key(out, "customers");
        write_customers(state, met, r + 1, out);
        json_write_key(out, "seats");
        json_write_begin_array(out);
        for (int s = 0; s < g->players; s++) write_result_seat(state, g, r, s, out);
        json_write_end_array(out);
        json_write_end_object(out);
    }
    json_write_end_array(out);
}

/* What only this seat knows: its draw and pending share, or its pending
 * placements. */
static void write_private(const gateau_state *state, const cm_state *g, int seat, json_writer *out)
{
    if (seat >= 0 && g->phase == CM_PHASE_SHARE) {
        json_write_key(out, "hand");
        json_write_begin_array(out);
        for (int k = 0; k < CM_HAND; k++)
            json_write_string(out, cm_kind_code(state, cm_drawn(g, g->turn, seat, k)));
        json_write_end_array(out);
        if (g->keep[seat] != CM_NONE) {
            json_write_key(out, "choice");
            write_share(state, g, seat, out);
        }
    }
    if (seat >= 0 && g->phase == CM_PHASE_PLACE && g->placed[seat]) {
        json_write_key(out, "placing");
        json_write_begin_array(out);
        for (int p = 0; p < CM_POSITIONS; p++) {
            if (!is_pending(g, seat, p)) continue;
            char name[3];
            cm_position_name(p, name);
            json_write_begin_object(out);
            json_write_key(out, "card");
            json_write_string(out, cm_kind_code(state, seen_at(g, seat, p, true)));
            json_write_key(out, "position");
            json_write_string(out, name);
            json_write_end_object(out);
        }
        json_write_end_array(out);
    }
}

static void write_seat(const gateau_state *state, const cm_state *g, int s, json_writer *out)
{
    json_write_begin_object(out);
    json_write_key(out, "seat");
    json_write_integer(out, s + 1);
    json_write_key(out, "stars");
    json_write_integer(out, g->stars[s]);
    if (g->phase != CM_PHASE_CUSTOMERS) {
        json_write_key(out, "cakes");
        write_cakes(state, g->cake[g->round][s], out);
    }
    if (g->phase == CM_PHASE_PLACE) {
        json_write_key(out, "shared");
        write_share(state, g, s, out);
        json_write_key(out, "holding");
        json_write_begin_array(out);
        for (int k = 0; k < CM_HAND; k++)
            json_write_string(out, cm_kind_code(state, g->holding[s][k]));
        json_write_end_array(out);
    }
    json_write_end_object(out);
}

/* The seats (numbered from 1) in mask, as a list. */
static void write_seat_list(uint32_t mask, int players, json_writer *out)
{
    json_write_begin_array(out);
    for (int s = 0; s < players; s++)
        if (mask & (1u << s)) json_write_integer(out, s + 1);
    json_write_end_array(out);
}

void cm_view_json(const gateau_state *state, int seat, json_writer *out)
{
    const cm_state *g = GAME_STATE_CONST(cm_state, state);
    json_write_begin_object(out);
    json_write_key(out, "game");
    json_write_string(out, "cake-master");
    json_write_key(out, "seat");
    if (seat >= 0) json_write_integer(out, seat + 1);
    else json_write_null(out);
    json_write_key(out, "players");
    json_write_integer(out, g->players);
    json_write_key(out, "round");
    json_write_integer(out, g->round + 1);
    json_write_key(out, "rounds");
    json_write_integer(out, CM_ROUNDS);
    json_write_key(out, "turn");
    json_write_integer(out, g->turn + 1);
    json_write_key(out, "turns");
    json_write_integer(out, CM_TURNS);
    json_write_key(out, "phase");
    json_write_string(out, CM_PHASE_NAME[g->phase]);
    json_write_key(out, "to_act");
    write_seat_list(state->actors, g->players, out);
    json_write_key(out, "customer_count");
    json_write_integer(out, g->customer_count);
    int in_play[CM_ROUNDS], count = customers_in_play(g, in_play);
    json_write_key(out, "customers");
    write_customers(state, in_play, count, out);
    write_private(state, g, seat, out);
    json_write_key(out, "seats");
    json_write_begin_array(out);
    for (int s = 0; s < g->players; s++) write_seat(state, g, s, out);
    json_write_end_array(out);
    json_write_key(out, "results");
    write_results(state, g, out);
    if (g->phase == CM_PHASE_OVER) {
        json_write_key(out, "winners");
        write_seat_list(cm_winners(state), g->players, out);
    }
    json_write_end_object(out);
}

/* ---- Text ---------------------------------------------------------------------------- */

/* The widest card code of the deck, for the cake cells. */
static int code_width(const gateau_state *state)
{
    const cm_deck *deck = cm_deck_of(state);
    int width = 4;
    for (int k = 0; k < deck->kind_count; k++)
        if ((int)strlen(deck->code[k]) > width) width = (int)strlen(deck->code[k]);
    return width;
}

static void append_code(const gateau_state *state, int kind, bool color, gateau_text *out)
{
    const cm_card *card = &cm_deck_of(state)->kind[kind];
    const char *code = cm_kind_code(state, kind);
    if (color) text_append(out, "%s%s%s", ICING_COLOR[card->color], code, COLOR_RESET);
    else text_append(out, "%s", code);
}

static void append_codes(const gateau_state *state, const int *kinds, int n, bool color,
                         gateau_text *out)
{
    for (int i = 0; i < n; i++) {
        if (i) text_append_char(out, ' ');
        append_code(state, kinds[i], color, out);
    }
}

/* One quarter cell: the code (pending ones marked '~'), or the position's
 * name while empty, padded to width + 1. */
static void append_cell(const gateau_state *state, const cm_state *g, int owner, int position,
                        bool mine, bool color, int width, gateau_text *out)
{
    int kind = seen_at(g, owner, position, mine);
    int length;
    if (kind < 0) {
        char name[3];
        cm_position_name(position, name);
        text_append(out, "%s%s%s", color ? COLOR_DIM : "", name, color ? COLOR_RESET : "");
        length = 2;
    } else {
        bool pending = is_pending(g, owner, position);
        if (pending) text_append_char(out, '~');
        append_code(state, kind, color, out);
        length = (int)strlen(cm_kind_code(state, kind)) + pending;
    }
    for (; length < width + 1; length++) text_append_char(out, ' ');
}

/* The mark on the edge where quarter q's clockwise edge meets the next
 * quarter's counter-clockwise edge: '@' a complete rosette, 'o' a lone
 * half-rosette, or the plain line. */
static void append_edge(const gateau_state *state, const cm_state *g, int owner, int cake, int q,
                        bool mine, bool color, char plain, gateau_text *out)
{
    const cm_deck *deck = cm_deck_of(state);
    int here = seen_at(g, owner, cake * CM_QUARTERS + q, mine);
    int next = seen_at(g, owner, cake * CM_QUARTERS + (q + 1) % CM_QUARTERS, mine);
    int halves = (here >= 0 && (deck->kind[here].halves & CM_HALF_CW)) +
                 (next >= 0 && (deck->kind[next].halves & CM_HALF_CCW));
    if (!halves) text_append_char(out, plain);
    else text_append(out, "%s%c%s", color ? COLOR_ROSETTE : "", halves == 2 ? '@' : 'o',
                     color ? COLOR_RESET : "");
}

/* A border line of a cake: "+-----+-----+", the middle one carrying the
 * marks of edges d|a (left) and b|c (right). */
static void append_border(const gateau_state *state, const cm_state *g, int owner, int cake,
                          bool middle, bool mine, bool color, int width, gateau_text *out)
{
    int before = (width + 1) / 2;
    for (int half = 0; half < 2; half++) {
        text_append_char(out, '+');
        for (int i = 0; i < width + 1; i++) {
            if (middle && i == before)
                append_edge(state, g, owner, cake, half == 0 ? 3 : 1, mine, color, '-', out);
            else
                text_append_char(out, '-');
        }
    }
    text_append_char(out, '+');
}

/* The three cakes of owner side by side: quarters a b on top, d c below. */
static void view_cakes(const gateau_state *state, const cm_state *g, int owner, bool mine,
                       bool color, gateau_text *out)
{
    int width = code_width(state);
    text_append(out, "   ");
    for (int c = 0; c < CM_CAKES; c++) {
        text_append(out, "cake %d", c + 1);
        for (int i = 6; i < 2 * width + 9 && c + 1 < CM_CAKES; i++) text_append_char(out, ' ');
    }
    text_append_char(out, '\n');
    for (int line = 0; line < 5; line++) {
        text_append(out, "  ");
        for (int c = 0; c < CM_CAKES; c++) {
            if (line == 0 || line == 2 || line == 4) {
                append_border(state, g, owner, c, line == 2, mine, color, width, out);
            } else {
                int first = line == 1 ? 0 : 3, second = line == 1 ? 1 : 2;
                text_append_char(out, '|');
                append_cell(state, g, owner, c * CM_QUARTERS + first, mine, color, width, out);
                append_edge(state, g, owner, c, line == 1 ? 0 : 2, mine, color, '|', out);
                append_cell(state, g, owner, c * CM_QUARTERS + second, mine, color, width, out);
                text_append_char(out, '|');
            }
            text_append(out, "    ");
        }
        while (out->length && out->data[out->length - 1] == ' ') out->data[--out->length] = '\0';
        text_append_char(out, '\n');
    }
}

static void view_customers(const gateau_state *state, const cm_state *g, gateau_text *out)
{
    int in_play[CM_ROUNDS], count = customers_in_play(g, in_play);
    if (!count) return;
    text_append(out, "Customers in play:");
    for (int i = 0; i < count; i++) {
        text_append(out, "  ");
        append_customer(state, in_play[i], out);
    }
    text_append_char(out, '\n');
}

/* Who gave what in this turn's share (public in the place step). */
static void view_shares(const gateau_state *state, const cm_state *g, int seat, bool color,
                        gateau_text *out)
{
    for (int s = 0; s < g->players; s++) {
        text_append(out, "  seat %d kept ", s + 1);
        append_code(state, g->holding[s][CM_SLOT_KEPT], color, out);
        text_append(out, ", passed ");
        append_code(state, cm_drawn(g, g->turn, s, g->left[s]), color, out);
        text_append(out, " left (seat %d) and ", cm_left_of(g, s) + 1);
        append_code(state, cm_drawn(g, g->turn, s, cm_right_slot(g, s)), color, out);
        text_append(out, " right (seat %d); holds ", cm_right_of(g, s) + 1);
        int held[CM_HAND] = {g->holding[s][0], g->holding[s][1], g->holding[s][2]};
        append_codes(state, held, CM_HAND, color, out);
        text_append(out, "%s\n", s == seat ? " (you)" : "");
    }
}

static void view_private(const gateau_state *state, const cm_state *g, int seat, bool color,
                         gateau_text *out)
{
    if (seat < 0) return;
    if (g->phase == CM_PHASE_SHARE) {
        int draw[CM_HAND];
        for (int k = 0; k < CM_HAND; k++) draw[k] = cm_drawn(g, g->turn, seat, k);
        text_append(out, "Your draw: ");
        append_codes(state, draw, CM_HAND, color, out);
        text_append_char(out, '\n');
        if (g->keep[seat] != CM_NONE) {
            text_append(out, "You keep ");
            append_code(state, draw[g->keep[seat]], color, out);
            if (g->left[seat] != CM_NONE) {
                text_append(out, " and pass ");
                append_code(state, draw[g->left[seat]], color, out);
                text_append(out, " left to seat %d and ", cm_left_of(g, seat) + 1);
                append_code(state, draw[cm_right_slot(g, seat)], color, out);
                text_append(out, " right to seat %d", cm_right_of(g, seat) + 1);
            }
            text_append(out, ".\n");
        }
    } else if (g->phase == CM_PHASE_PLACE) {
        text_append(out, "You hold: ");
        append_code(state, g->holding[seat][CM_SLOT_KEPT], color, out);
        text_append(out, " (kept), ");
        append_code(state, g->holding[seat][CM_SLOT_FROM_RIGHT], color, out);
        text_append(out, " (from seat %d), ", cm_right_of(g, seat) + 1);
        append_code(state, g->holding[seat][CM_SLOT_FROM_LEFT], color, out);
        text_append(out, " (from seat %d)", cm_left_of(g, seat) + 1);
        if (g->placed[seat]) text_append(out, "; ~ marks your placements, hidden until all "
                                              "have placed");
        text_append_char(out, '\n');
    }
}

static void view_scoring(const gateau_state *state, const cm_state *g, gateau_text *out)
{
    for (int r = 0; r < g->rounds_scored; r++) {
        const cm_result *result = &g->result[r];
        text_append(out, "\nRound %d scoring, customers", r + 1);
        for (int i = 0; i <= r; i++) {
            text_append(out, " ");
            append_customer(state, g->pile[cm_round_first_customer(r) + i], out);
        }
        text_append(out, ":\n  seat   tasty per cake   total  stars  customers served       "
                         "stars\n");
        for (int s = 0; s < g->players; s++) {
            text_append(out, "  %-4d   %2d + %2d + %2d      %3d    %d     ", s + 1,
                        result->tasty[s][0], result->tasty[s][1], result->tasty[s][2],
                        result->total[s], result->tasty_stars[s]);
            gateau_text served = {0};
            for (int c = 0; c < CM_CAKES; c++)
                if (result->served[s][c] >= 0)
                    text_append(&served, "%s#%d by cake %d", served.length ? ", " : "",
                                result->served[s][c] + 1, c + 1);
            text_append(out, "%-22s  +%d = %d\n", served.length ? served.data : "none",
                        result->customer_stars[s],
                        result->tasty_stars[s] + result->customer_stars[s]);
            text_free(&served);
        }
    }
}

static void view_to_act(const gateau_state *state, const cm_state *g, gateau_text *out)
{
    gateau_text seats = {0};
    for (int s = 0; s < g->players; s++)
        if (state->actors & (1u << s)) text_append(&seats, "%s%d", seats.length ? ", " : "", s + 1);
    switch (g->phase) {
    case CM_PHASE_CUSTOMERS: text_append(out, "The customer pile is being shuffled.\n"); break;
    case CM_PHASE_DEAL: text_append(out, "The cake cards are being shuffled.\n"); break;
    case CM_PHASE_SHARE:
        text_append(out, "Share, turn %d of %d: seat%s %s to choose%s.\n", g->turn + 1, CM_TURNS,
                    __builtin_popcount(state->actors) > 1 ? "s" : "", seats.data,
                    state->in_move ? " (finishing a share)" : "");
        break;
    case CM_PHASE_PLACE:
        text_append(out, "Place, turn %d of %d: seat%s %s to place%s.\n", g->turn + 1, CM_TURNS,
                    __builtin_popcount(state->actors) > 1 ? "s" : "", seats.data,
                    state->in_move ? " (finishing a placement)" : "");
        break;
    default: {
        uint32_t winners = cm_winners(state);
        text_append(out, "Game over. Winner%s:", __builtin_popcount(winners) > 1 ? "s" : "");
        for (int s = 0; s < g->players; s++)
            if (winners & (1u << s)) text_append(out, " seat %d", s + 1);
        text_append_char(out, '\n');
    }
    }
    text_free(&seats);
}

void cm_view_text(const gateau_state *state, int seat, bool color, gateau_text *out)
{
    const cm_state *g = GAME_STATE_CONST(cm_state, state);
    text_append(out, "Cake Master, round %d of %d", g->round + 1, CM_ROUNDS);
    if (g->phase == CM_PHASE_SHARE || g->phase == CM_PHASE_PLACE)
        text_append(out, ", turn %d of %d", g->turn + 1, CM_TURNS);
    text_append(out, "\n");
    view_customers(state, g, out);
    if (g->phase != CM_PHASE_CUSTOMERS) {
        for (int s = 0; s < g->players; s++) {
            text_append(out, "\n%sSeat %d%s%s: %d star%s\n", color ? COLOR_BOLD : "", s + 1,
                        s == seat ? " (you)" : "", color ? COLOR_RESET : "", g->stars[s],
                        g->stars[s] == 1 ? "" : "s");
            view_cakes(state, g, s, s == seat, color, out);
        }
        text_append(out, "  (quarters a b / d c clockwise; @ rosette, o half-rosette, "
                         "* whole rosette, r raspberry, b blueberry)\n");
    }
    view_scoring(state, g, out);
    text_append_char(out, '\n');
    if (g->phase == CM_PHASE_PLACE) {
        text_append(out, "This turn's shares:\n");
        view_shares(state, g, seat, color, out);
    }
    view_private(state, g, seat, color, out);
    view_to_act(state, g, out);
}

/* ---- Commentary ------------------------------------------------------------------------ */

static void describe_draw(const cm_state *g, const gateau_state *state, int viewer,
                          gateau_text *out)
{
    if (viewer < 0 || g->phase != CM_PHASE_SHARE) return;
    int draw[CM_HAND];
    for (int k = 0; k < CM_HAND; k++) draw[k] = cm_drawn(g, g->turn, viewer, k);
    text_append(out, " You draw ");
    append_codes(state, draw, CM_HAND, false, out);
    text_append(out, ".");
}

static void describe_round_start(const cm_state *g, const gateau_state *state, gateau_text *out)
{
    int in_play[CM_ROUNDS], count = customers_in_play(g, in_play);
    text_append(out, " Round %d: customer%s", g->round + 1, count > 1 ? "s" : "");
    for (int i = 0; i < count; i++) {
        text_append(out, " ");
        append_customer(state, in_play[i], out);
    }
    text_append(out, " in play.");
}

/* What every seat learns once the last seat has moved: all shares, or all
 * placements and what follows them. */
static void describe_reveal(const cm_state *before, const gateau_state *after_state, int viewer,
                            gateau_text *out)
{
    const cm_state *after = GAME_STATE_CONST(cm_state, after_state);
    if (before->phase == CM_PHASE_SHARE) {
        text_append(out, " The shares are revealed:");
        for (int s = 0; s < after->players; s++)
            text_append(out, "%s seat %d keep %s left %s right %s", s ? ";" : "", s + 1,
                        cm_kind_code(after_state, cm_drawn(after, after->turn, s, after->keep[s])),
                        cm_kind_code(after_state, cm_drawn(after, after->turn, s, after->left[s])),
                        cm_kind_code(after_state,
                                     cm_drawn(after, after->turn, s, cm_right_slot(after, s))));
        text_append(out, ".");
        return;
    }
    text_append(out, " The placements are revealed:");
    int round = before->round;
    for (int s = 0; s < after->players; s++) {
        text_append(out, "%s seat %d", s ? ";" : "", s + 1);
        for (int p = 0; p < CM_POSITIONS; p++)
            for (int k = 0; k < CM_HAND; k++)
                if (after->target[s][k] == p) {
                    char name[3];
                    cm_position_name(p, name);
                    text_append(out, " %s:%s",
                                cm_kind_code(after_state, after->cake[round][s][p] - 1), name);
                }
    }
    text_append(out, ".");
    if (after->rounds_scored > before->rounds_scored) {
        const cm_result *result = &after->result[round];
        text_append(out, " Round %d is scored:", round + 1);
        for (int s = 0; s < after->players; s++)
            text_append(out, "%s seat %d %d Tasty point%s, %d + %d star%s", s ? ";" : "", s + 1,
                        result->total[s], result->total[s] == 1 ? "" : "s",
                        result->tasty_stars[s], result->customer_stars[s],
                        result->tasty_stars[s] + result->customer_stars[s] == 1 ? "" : "s");
        text_append(out, ".");
        if (after->phase == CM_PHASE_DEAL) describe_round_start(after, after_state, out);
        else text_append(out, " The game is over.");
    }
    describe_draw(after, after_state, viewer, out);
}

void cm_describe_move(const gateau_state *before, int seat, const gateau_action *actions,
                      int count, int viewer, gateau_text *out)
{
    const cm_state *g = GAME_STATE_CONST(cm_state, before);
    gateau_state *after_state = gateau_state_clone(before);
    for (int i = 0; i < count; i++) gateau_state_apply_legal(after_state, seat, actions[i]);
    const cm_state *after = GAME_STATE_CONST(cm_state, after_state);
    if (seat == GATEAU_CHANCE && g->phase == CM_PHASE_CUSTOMERS) {
        text_append(out, "The customer pile is shuffled.");
        describe_round_start(after, after_state, out);
    } else if (seat == GATEAU_CHANCE) {
        text_append(out, "The cake cards are shuffled for round %d.", g->round + 1);
        describe_draw(after, after_state, viewer, out);
    } else {
        if (seat == viewer) {
            text_append(out, "seat %d: ", seat + 1);
            gateau_text move = {0};
            before->setup->game->format_move(before, seat, actions, count, &move);
            text_append(out, "%s", move.data);
            text_free(&move);
        } else {
            text_append(out, "seat %d has %s", seat + 1,
                        g->phase == CM_PHASE_SHARE ? "chosen" : "placed");
        }
        if (after->phase != g->phase) {
            text_append(out, ".");
            describe_reveal(g, after_state, viewer, out);
        }
    }
    gateau_state_free(after_state);
}

/* ---- The legal moves explained -------------------------------------------------- */

void cm_describe_legal(const gateau_state *state, int seat, gateau_text *out)
{
    const cm_state *g = GAME_STATE_CONST(cm_state, state);
    if (g->phase == CM_PHASE_SHARE) {
        if (g->players == 2)
            text_append(out, "keep one card; the other two go to seat %d:\n",
                        cm_left_of(g, seat) + 1);
        else
            text_append(out, "keep one card, pass one left (to seat %d) and one right (to seat "
                             "%d):\n", cm_left_of(g, seat) + 1, cm_right_of(g, seat) + 1);
        /* Every distinct choice: by kinds, as the actions are. */
        int listed[6][2], n = 0;
        for (int keep = 0; keep < CM_HAND; keep++)
            for (int left = 0; left < CM_HAND; left++) {
                if (left == keep || (g->players == 2 && left > cm_third_slot(keep, left))) continue;
                int kk = cm_drawn(g, g->turn, seat, keep), kl = cm_drawn(g, g->turn, seat, left);
                bool seen = false;
                for (int i = 0; i < n; i++) seen |= listed[i][0] == kk && (g->players == 2 || listed[i][1] == kl);
                if (seen) continue;
                listed[n][0] = kk;
                listed[n++][1] = kl;
                int kr = cm_drawn(g, g->turn, seat, cm_third_slot(keep, left));
                text_append(out, "  keep %s left %s right %s\n", cm_kind_code(state, kk),
                            cm_kind_code(state, kl), cm_kind_code(state, kr));
            }
        if (out->length) out->data[--out->length] = '\0';
        return;
    }
    if (g->phase != CM_PHASE_PLACE) return;
    text_append(out, "place your three cards into empty quarters (cake 1-3, quarter a-d "
                     "clockwise: a b on top, d c below), in any order:\n  place");
    int example = 0;
    for (int p = 0; p < CM_POSITIONS && example < CM_HAND; p++) {
        if (g->cake[g->round][seat][p]) continue;
        char name[3];
        cm_position_name(p, name);
        text_append(out, " %s:%s", cm_kind_code(state, g->holding[seat][example++]), name);
    }
    text_append(out, "\nempty quarters:");
    for (int p = 0; p < CM_POSITIONS; p++) {
        if (g->cake[g->round][seat][p]) continue;
        char name[3];
        cm_position_name(p, name);
        text_append(out, " %s", name);
    }
}

void cm_key(gateau_text *out)
{
    text_append(out, "Card codes, as W0* or P3rb: an icing color, a half-rosette digit, * for\n"
                     "a whole rosette, then a letter per fruit (either case when typed).\n"
                     "  color  ");
    for (int c = 0; c < CM_COLORS; c++)
        text_append(out, "%s%c %s", c ? ", " : "", CM_COLOR_LETTER[c], CM_COLOR_NAME[c]);
    text_append(out, "; Tasty points by the\n         colors of a cake:");
    for (int colors = 1; colors <= CM_COLORS; colors++)
        text_append(out, "%s %d color%s %d", colors > 1 ? "," : "", colors,
                    colors == 1 ? "" : "s", cm_color_points(colors));
    text_append(out, "\n"
                     "  digit  half-rosettes on the straight edges: 0 none, 1 the counter-\n"
                     "         clockwise edge, 2 the clockwise edge, 3 both; two halves meeting\n"
                     "         make a rosette (1 point), a cake with no lone half scores 1\n"
                     "  *      a whole rosette printed on the card (1 point)\n"
                     "  r b    a raspberry, a blueberry: 1 point per pair of them on a cake\n"
                     "Positions: cake 1-3 and quarter a-d clockwise, as 2c. In the view:\n"
                     "@ rosette, o half-rosette, * whole rosette.\n"
                     "Stars each round: 2 for the most Tasty points, 0 for the least, 1 in\n"
                     "between (all equal: 2 each), and 1 per customer served.\n");
}
