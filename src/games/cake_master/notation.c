/*
 * notation.c: Cake Master's moves as text, both ways: reading a move
 * ("keep P3rb left W0* right C1bb"), writing one, and naming one action.
 *
 * A move names cards by their codes (deck.c), never by slot: the seat says
 * which cards it keeps, passes and places, and the game finds them in the
 * draw or the holding.  Card codes and positions are read in either case
 * ("keep p3RB ...", "P3rb:1A"), written canonically.  Errors say what was
 * expected and, for a card the seat does not have, what it has instead.
 * Which lines a seat may read as they are played: move_visible, at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/notation.h"
#include "games/cake_master/cake_master.h"

/* ---- Writing --------------------------------------------------------------- */

void cm_format_move(const gateau_state *before, int seat, const gateau_action *actions,
                    int count, gateau_text *out)
{
    const cm_state *g = GAME_STATE_CONST(cm_state, before);
    gateau_action first = actions[0];
    if (first < CM_DEAL) {
        text_append(out, "customers");
        for (int i = 0; i < count; i++) text_append(out, " %d", actions[i] - CM_CUSTOMER + 1);
    } else if (first < CM_KEEP) {
        text_append(out, "deal");
        for (int i = 0; i < count; i++)
            text_append(out, " %s", cm_kind_code(before, actions[i] - CM_DEAL));
    } else if (first < CM_PLACE) {
        /* A 2-player share is the kept card alone (cm_two_player_left). */
        int keep = cm_draw_slot(g, seat, first - CM_KEEP, -1), left;
        if (count > 1) left = cm_draw_slot(g, seat, actions[1] - CM_LEFT, keep);
        else left = cm_two_player_left(keep);
        int right = cm_third_slot(keep, left);
        text_append(out, "keep %s left %s right %s",
                    cm_kind_code(before, cm_drawn(g, g->turn, seat, keep)),
                    cm_kind_code(before, cm_drawn(g, g->turn, seat, left)),
                    cm_kind_code(before, cm_drawn(g, g->turn, seat, right)));
    } else {
        text_append(out, "place");
        for (int i = 0; i < count; i++) {
            int position = (actions[i] - CM_PLACE) / CM_MAX_CARDS;
            char name[3];
            cm_position_name(position, name);
            text_append(out, " %s:%s",
                        cm_kind_code(before, (actions[i] - CM_PLACE) % CM_MAX_CARDS), name);
        }
    }
}

void cm_action_name(const gateau_state *state, int seat, gateau_action action, gateau_text *out)
{
    (void)seat;
    if (action < CM_DEAL) {
        text_append(out, "customer %d", action - CM_CUSTOMER + 1);
    } else if (action < CM_KEEP) {
        text_append(out, "deal %s", cm_kind_code(state, action - CM_DEAL));
    } else if (action < CM_LEFT) {
        text_append(out, "keep %s", cm_kind_code(state, action - CM_KEEP));
    } else if (action < CM_PLACE) {
        text_append(out, "left %s", cm_kind_code(state, action - CM_LEFT));
    } else {
        char name[3];
        cm_position_name((action - CM_PLACE) / CM_MAX_CARDS, name);
        text_append(out, "%s:%s", cm_kind_code(state, (action - CM_PLACE) % CM_MAX_CARDS), name);
    }
}

/* ---- Reading: cards ---------------------------------------------------------- */

/* A card code of the deck, as a kind; -1 with the reason. */
static int parse_kind(const cm_deck *deck, const char *word, char *error, size_t error_size)
{
    cm_card card;
    char why[160];
    if (!cm_card_parse(word, &card, why, sizeof why)) {
        set_error(error, error_size, "'%s' is not a card code: %s", word, why);
        return -1;
    }
    int kind = cm_deck_find(deck, &card);
    if (kind < 0) set_error(error, error_size, "'%s' is not a card of this deck", word);
    return kind;
}

static void list_codes(const gateau_state *state, const int *kinds, int n, gateau_text *out)
{
    for (int i = 0; i < n; i++)
        text_append(out, "%s%s", i ? " " : "", cm_kind_code(state, kinds[i]));
}

/* Takes kind out of the multiset kinds[0..n); false if it is not there. */
static bool take_kind(int *kinds, int *n, int kind)
{
    for (int i = 0; i < *n; i++)
        if (kinds[i] == kind) {
            kinds[i] = kinds[--*n];
            return true;
        }
    return false;
}

/* The move names kind once more than the seat has it among cards, its
 * draw (drawn) or its holding: says so (the code as written canonically),
 * and lists what it has. */
static void missing_card(const gateau_state *state, const int cards[CM_HAND], int kind,
                         bool drawn, char *error, size_t error_size)
{
    const char *word = cm_kind_code(state, kind);
    gateau_text list = {0};
    list_codes(state, cards, CM_HAND, &list);
    int times = 0;
    for (int k = 0; k < CM_HAND; k++) times += cards[k] == kind;
    const char *how_often = times == 1 ? "once" : "twice";
    if (drawn && times)
        set_error(error, error_size, "you drew %s only %s (your draw: %s)", word, how_often,
                  list.data);
    else if (drawn)
        set_error(error, error_size, "you did not draw %s (your draw: %s)", word, list.data);
    else if (times)
        set_error(error, error_size, "you hold %s only %s (you hold: %s)", word, how_often,
                  list.data);
    else
        set_error(error, error_size, "you do not hold %s (you hold: %s)", word, list.data);
    text_free(&list);
}

/* ---- Reading: the moves of each phase ---------------------------------------- */

static int parse_customers(const cm_state *g, const notation_words *w, gateau_action *actions,
                           char *error, size_t error_size)
{
    if (w->count - 1 != g->customer_count) {
        set_error(error, error_size, "the customer order lists all %d customers, not %d",
                  g->customer_count, w->count - 1);
        return -1;
    }
    uint64_t seen = 0;
    for (int i = 1; i < w->count; i++) {
        int id;
        if (!notation_int(w->word[i], 1, g->customer_count, &id)) {
            set_error(error, error_size, "'%s' is not a customer number 1 to %d", w->word[i],
                      g->customer_count);
            return -1;
        }
        if (seen & (1ull << (id - 1))) {
            set_error(error, error_size, "customer %d is listed twice", id);
            return -1;
        }
        seen |= 1ull << (id - 1);
        actions[i - 1] = CM_CUSTOMER + id - 1;
    }
    return g->customer_count;
}

static int parse_deal(const gateau_state *state, const notation_words *w, gateau_action *actions,
                      char *error, size_t error_size)
{
    const cm_state *g = GAME_STATE_CONST(cm_state, state);
    const cm_deck *deck = cm_deck_of(state);
    int size = cm_deal_size(g->players);
    if (w->count - 1 != size) {
        set_error(error, error_size, "a deal lists %d card codes (12 per player), not %d", size,
                  w->count - 1);
        return -1;
    }
    uint8_t used[CM_MAX_CARDS] = {0};
    for (int i = 1; i < w->count; i++) {
        int kind = parse_kind(deck, w->word[i], error, error_size);
        if (kind < 0) return -1;
        if (++used[kind] > deck->copies[kind]) {
            set_error(error, error_size, "the deal has more %s cards than the deck holds (%d)",
                      deck->code[kind], deck->copies[kind]);
            return -1;
        }
        actions[i - 1] = CM_DEAL + kind;
    }
    return size;
}

/* "keep X left Y right Z": the three cards drawn, each as often as drawn.
 * With 2 players the move is the kept card alone (KEEP+kind). */
static int parse_share(const gateau_state *state, int seat, const notation_words *w,
                       gateau_action *actions, char *error, size_t error_size)
{
    const cm_state *g = GAME_STATE_CONST(cm_state, state);
    if (w->count != 6 || strcmp(w->word[2], "left") != 0 || strcmp(w->word[4], "right") != 0) {
        set_error(error, error_size, "a share is 'keep X left Y right Z' with the three cards "
                                     "you drew, as in 'keep P3rb left W0* right C1bb'");
        return -1;
    }
    int draw[CM_HAND], hand[CM_HAND], left_in_hand = CM_HAND, chosen[3];
    for (int k = 0; k < CM_HAND; k++) draw[k] = hand[k] = cm_drawn(g, g->turn, seat, k);
    for (int i = 0; i < 3; i++) {
        const char *word = w->word[1 + 2 * i];
        chosen[i] = parse_kind(cm_deck_of(state), word, error, error_size);
        if (chosen[i] < 0) return -1;
        if (!take_kind(hand, &left_in_hand, chosen[i])) {
            missing_card(state, draw, chosen[i], true, error, error_size);
            return -1;
        }
    }
    actions[0] = CM_KEEP + chosen[0];
    if (g->players == 2) return 1;
    actions[1] = CM_LEFT + chosen[1];
    return 2;
}

int cm_position_parse(const char *text)
{
    if (strlen(text) != 2) return -1;
    char quarter = notation_lower(text[1]);
    if (text[0] < '1' || text[0] > '0' + CM_CAKES || quarter < 'a' ||
        quarter > 'a' + CM_QUARTERS - 1)
        return -1;
    return (text[0] - '1') * CM_QUARTERS + (quarter - 'a');
}

/* One CODE:POS item of a placement; item receives the code part. */
static bool parse_item(const gateau_state *state, const char *word, char item[NOTATION_MAX_LENGTH],
                       int *position, int *kind, char *error, size_t error_size)
{
    snprintf(item, NOTATION_MAX_LENGTH, "%s", word);
    char *colon = strrchr(item, ':');
    if (!colon) {
        set_error(error, error_size, "'%s' is not CODE:POS, as in P3rb:1a", item);
        return false;
    }
    *colon = '\0';
    *position = cm_position_parse(colon + 1);
    if (*position < 0) {
        set_error(error, error_size, "'%s' is not a position: a cake 1-3 and a quarter a-d, "
                                     "as in 2c", colon + 1);
        return false;
    }
    *kind = parse_kind(cm_deck_of(state), item, error, error_size);
    return *kind >= 0;
}

/* The actions of a placement: by position, as the rules order them. */
static void placement_actions(int position[CM_HAND], int kind[CM_HAND], gateau_action *actions)
{
    for (int i = 0; i < CM_HAND; i++) {
        int smallest = i;
        for (int j = i + 1; j < CM_HAND; j++)
            if (position[j] < position[smallest]) smallest = j;
        int p = position[smallest], k = kind[smallest];
        position[smallest] = position[i];
        kind[smallest] = kind[i];
        position[i] = p;
        kind[i] = k;
        actions[i] = CM_PLACE + p * CM_MAX_CARDS + k;
    }
}

/* "place CODE:POS CODE:POS CODE:POS": the three cards held, each into an
 * empty position of this round's cakes. */
static int parse_place(const gateau_state *state, int seat, const notation_words *w,
                       gateau_action *actions, char *error, size_t error_size)
{
    const cm_state *g = GAME_STATE_CONST(cm_state, state);
    if (w->count != 1 + CM_HAND) {
        set_error(error, error_size, "a placement is 'place' and three CODE:POS items, one per "
                                     "card you hold, as in 'place P3rb:1a C1bb:1b W0*:2c'");
        return -1;
    }
    int all[CM_HAND], held[CM_HAND], held_left = CM_HAND, position[CM_HAND], kind[CM_HAND];
    for (int k = 0; k < CM_HAND; k++) all[k] = held[k] = g->holding[seat][k];
    for (int i = 0; i < CM_HAND; i++) {
        char item[NOTATION_MAX_LENGTH], name[3];
        if (!parse_item(state, w->word[1 + i], item, &position[i], &kind[i], error, error_size))
            return -1;
        cm_position_name(position[i], name);
        for (int j = 0; j < i; j++)
            if (position[j] == position[i]) {
                set_error(error, error_size, "position %s is given twice", name);
                return -1;
            }
        int there = g->cake[g->round][seat][position[i]];
        if (there) {
            set_error(error, error_size, "position %s already holds %s", name,
                      cm_kind_code(state, there - 1));
            return -1;
        }
        if (!take_kind(held, &held_left, kind[i])) {
            missing_card(state, all, kind[i], false, error, error_size);
            return -1;
        }
    }
    placement_actions(position, kind, actions);
    return CM_HAND;
}

int cm_parse_move(const gateau_state *state, int seat, const char *text, gateau_action *actions,
                  char *error, size_t error_size)
{
    const cm_state *g = GAME_STATE_CONST(cm_state, state);
    static const char *const verb_of[] = {
        [CM_PHASE_CUSTOMERS] = "customers", [CM_PHASE_DEAL] = "deal",
        [CM_PHASE_SHARE] = "keep", [CM_PHASE_PLACE] = "place", [CM_PHASE_OVER] = "",
    };
    static const char *const expected[] = {
        [CM_PHASE_CUSTOMERS] = "the customer order ('customers' and every customer number)",
        [CM_PHASE_DEAL] = "a deal ('deal' and the card codes in draw order)",
        [CM_PHASE_SHARE] = "a share, as in 'keep P3rb left W0* right C1bb'",
        [CM_PHASE_PLACE] = "a placement, as in 'place P3rb:1a C1bb:1b W0*:2c'",
        [CM_PHASE_OVER] = "nothing",
    };
    notation_words w;
    if (!notation_open(text, verb_of[g->phase], expected[g->phase], &w, error, error_size))
        return -1;
    switch (g->phase) {
    case CM_PHASE_CUSTOMERS: return parse_customers(g, &w, actions, error, error_size);
    case CM_PHASE_DEAL: return parse_deal(state, &w, actions, error, error_size);
    case CM_PHASE_SHARE: return parse_share(state, seat, &w, actions, error, error_size);
    default: return parse_place(state, seat, &w, actions, error, error_size);
    }
}

/* ---- Who may read a line ------------------------------------------------------ */

/*
 * The shuffles (the customer pile, the order of the cake cards) are hidden
 * from every seat.  Shares and placements are simultaneous and secret: a
 * seat's line is hidden from the others while any of them still has to
 * choose; the last choice of the step reveals them all (every share is
 * shown once all have chosen, every placement once all have placed), so
 * its line is visible.
 */
bool cm_move_visible(const gateau_state *before, int seat, const gateau_action *actions,
                     int count, int viewer)
{
    (void)actions;
    (void)count;
    (void)viewer;
    if (seat == GATEAU_CHANCE) return false;
    return state_completes_phase(before, seat);
}

/* ---- Moves built in any order (gateau_move_order) ---------------------------- */

/*
 * A share is the card kept and the card given left, chosen either first:
 * the keep goes first.  A place is three cards on three positions, chosen
 * in any position order: they go in position order (a place action's
 * number grows with its position).  Nothing else is a seat's move.
 */
static int order_share(const gateau_action *parts, int count, gateau_action *ordered,
                       char *error, size_t error_size)
{
    int keep = -1, left = -1;
    for (int i = 0; i < count; i++) {
        int *slot = parts[i] >= CM_KEEP && parts[i] < CM_LEFT    ? &keep
                    : parts[i] >= CM_LEFT && parts[i] < CM_PLACE ? &left
                                                                 : NULL;
        if (!slot) {
            set_error(error, error_size, "part %d (%d) is not a card kept or given: cards are "
                      "shared now", i + 1, (int)parts[i]);
            return -1;
        }
        if (*slot >= 0) {
            set_error(error, error_size, "two cards %s: a share keeps one and gives one left",
                      slot == &keep ? "kept" : "given left");
            return -1;
        }
        *slot = i;
    }
    int n = 0;
    if (keep >= 0) ordered[n++] = parts[keep];
    if (left >= 0) ordered[n++] = parts[left];
    return n;
}

static int compare_actions(const void *a, const void *b)
{
    gateau_action x = *(const gateau_action *)a, y = *(const gateau_action *)b;
    return (x > y) - (x < y);
}

static int order_place(const gateau_action *parts, int count, gateau_action *ordered,
                       char *error, size_t error_size)
{
    if (count > CM_HAND) {
        set_error(error, error_size, "a place is %d cards, not %d", CM_HAND, count);
        return -1;
    }
    for (int i = 0; i < count; i++) {
        if (parts[i] < CM_PLACE || parts[i] >= CM_PLACE + CM_POSITIONS * CM_MAX_CARDS) {
            set_error(error, error_size, "part %d (%d) is not a card placed: cards are placed now",
                      i + 1, (int)parts[i]);
            return -1;
        }
    }
    memcpy(ordered, parts, (size_t)count * sizeof *parts);
    qsort(ordered, (size_t)count, sizeof *ordered, compare_actions);
    for (int i = 1; i < count; i++) {
        int position = (ordered[i] - CM_PLACE) / CM_MAX_CARDS;
        if (position == (ordered[i - 1] - CM_PLACE) / CM_MAX_CARDS) {
            char name[3];
            cm_position_name(position, name);
            set_error(error, error_size, "two cards on %s", name);
            return -1;
        }
    }
    return count;
}

int cm_order_move(const gateau_state *state, int seat, const gateau_action *parts, int count,
                  gateau_action *ordered, char *error, size_t error_size)
{
    const cm_state *g = GAME_STATE_CONST(cm_state, state);
    (void)seat;
    if (g->phase == CM_PHASE_SHARE) return order_share(parts, count, ordered, error, error_size);
    if (g->phase == CM_PHASE_PLACE) return order_place(parts, count, ordered, error, error_size);
    memcpy(ordered, parts, (size_t)count * sizeof *parts);
    return count;
}
