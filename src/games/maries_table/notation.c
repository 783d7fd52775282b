/*
 * notation.c: Marie's Table's move notation: reading a move (parse_move),
 * writing it (format_move) and naming one action (action_name).
 *
 *   deal 123456/712334/...   the decks, in play order (a chance move)
 *   keep 3 7                 the two cards kept, in either order
 *   up, down                 a vote ("3: down" in a record)
 *   take 2                   the seat whose pair is taken
 *   eat, eat 5, eat 3 6      the cards eaten of the pair taken, if any
 *
 * Errors say what was expected and why the move does not fit the table
 * ("your hand (1 2 3 3 5 7) has no 4").  Which lines a seat may read as
 * they are played: move_visible.
 */
#include <string.h>

#include "core/notation.h"
#include "games/maries_table/maries_table.h"

/* "1 2 3 3 5 7" */
void mt_append_counts(gateau_text *out, const uint8_t *counts)
{
    int shown = 0;
    for (int v = 1; v <= MT_VALUES; v++)
        for (int c = 0; c < counts[v]; c++) text_append(out, shown++ ? " %d" : "%d", v);
    if (!shown) text_append(out, "nothing");
}

void mt_format_move(const gateau_state *before, int seat, const gateau_action *actions,
                    int count, gateau_text *out)
{
    const mt_state *g = GAME_STATE_CONST(mt_state, before);
    gateau_action first = actions[0];
    if (first < MT_KEEP_LOW) {
        text_append(out, "deal ");
        for (int i = 0; i < count; i++) {
            if (i && i % g->deck_size == 0) text_append_char(out, '/');
            text_append_char(out, (char)('0' + actions[i] - MT_DEAL));
        }
    } else if (first < MT_KEEP_HIGH) {
        text_append(out, "keep %d %d", first - MT_KEEP_LOW,
                    count > 1 ? actions[1] - MT_KEEP_HIGH : 0);
    } else if (first <= MT_VOTE_DOWN) {
        text_append(out, first == MT_VOTE_UP ? "up" : "down");
    } else if (first < MT_EAT_NONE) {
        text_append(out, "take %d", first - MT_TAKE + 1);
    } else {
        int eaten[2];
        int n = mt_eaten_by(first, mt_taken_pair(g, seat), eaten);
        text_append(out, "eat");
        for (int i = 0; i < n; i++) text_append(out, " %d", eaten[i]);
    }
}

static int parse_deal(const mt_state *g, const notation_words *w, gateau_action *actions,
                      char *error, size_t error_size)
{
    if (w->count < 2) {
        set_error(error, error_size, "a deal is 'deal' and %d decks of %d card values 1 to 7, "
                                     "separated by '/'", g->rounds, g->deck_size);
        return -1;
    }
    int counts[MT_VALUES + 1] = {0}, decks = 1, in_deck = 0, total = 0;
    for (int i = 1; i < w->count; i++) {
        for (const char *c = w->word[i]; *c; c++) {
            if (*c == '/') {
                if (in_deck != g->deck_size) {
                    set_error(error, error_size, "deck %d has %d cards, not %d (%d players)",
                              decks, in_deck, g->deck_size, g->players);
                    return -1;
                }
                decks++;
                in_deck = 0;
                continue;
            }
            if (*c < '1' || *c > '0' + MT_VALUES) {
                set_error(error, error_size, "'%c' is neither a card value (1 to 7) nor '/'", *c);
                return -1;
            }
            if (decks > g->rounds) {
                set_error(error, error_size, "a %d-player deal has %d decks, not more",
                          g->players, g->rounds);
                return -1;
            }
            int v = *c - '0';
            if (++counts[v] > MT_COPIES) {
                set_error(error, error_size, "the deal has more than %d cards of value %d",
                          MT_COPIES, v);
                return -1;
            }
            actions[total++] = MT_DEAL + v;
            in_deck++;
        }
    }
    if (in_deck != g->deck_size) {
        set_error(error, error_size, "deck %d has %d cards, not %d (%d players)", decks, in_deck,
                  g->deck_size, g->players);
        return -1;
    }
    if (decks != g->rounds) {
        set_error(error, error_size, "a %d-player deal has %d decks of %d cards, not %d",
                  g->players, g->rounds, g->deck_size, decks);
        return -1;
    }
    return total;
}

static int parse_keep(const mt_state *g, const notation_words *w, gateau_action *actions,
                      char *error, size_t error_size)
{
    int a, b;
    if (w->count != 3 || !notation_int(w->word[1], 1, MT_VALUES, &a) ||
        !notation_int(w->word[2], 1, MT_VALUES, &b)) {
        set_error(error, error_size, "a keep is 'keep a b' with two card values 1 to 7");
        return -1;
    }
    if (a > b) {
        int swap = a;
        a = b;
        b = swap;
    }
    if (!g->hand[a] || !g->hand[b] || (a == b && g->hand[a] < 2)) {
        int missing = g->hand[a] ? b : a;
        gateau_text hand = {0};
        mt_append_counts(&hand, g->hand);
        set_error(error, error_size, "your hand (%s) has %s %d", hand.data,
                  g->hand[missing] ? "only one" : "no", missing);
        text_free(&hand);
        return -1;
    }
    actions[0] = MT_KEEP_LOW + a;
    actions[1] = MT_KEEP_HIGH + b;
    return 2;
}

static void list_open_pairs(const mt_state *g, gateau_text *out)
{
    int listed = 0;
    for (int t = 0; t < g->players; t++)
        if (mt_taker_of(g, g->round, t) < 0) text_append(out, listed++ ? ", %d" : "%d", t + 1);
}

static int parse_take(const mt_state *g, int seat, const notation_words *w,
                      gateau_action *actions, char *error, size_t error_size)
{
    int t;
    if (w->count != 2 || !notation_int(w->word[1], 1, g->players, &t)) {
        set_error(error, error_size, "a take is 'take s' with s the seat (1 to %d) whose pair "
                                     "you take", g->players);
        return -1;
    }
    t--;
    int by = mt_taker_of(g, g->round, t);
    if (by >= 0) {
        set_error(error, error_size, "seat %d's pair was already taken by seat %d", t + 1, by + 1);
        return -1;
    }
    int open = 0; /* other pairs still on the table */
    for (int u = 0; u < g->players; u++) open += u != seat && mt_taker_of(g, g->round, u) < 0;
    if (t == seat && open) {
        gateau_text left = {0};
        list_open_pairs(g, &left);
        set_error(error, error_size, "seat %d's pair is your own: take another one (on the "
                                     "table: seats %s)", t + 1, left.data);
        text_free(&left);
        return -1;
    }
    actions[0] = MT_TAKE + t;
    return 1;
}

static int parse_eat(const mt_state *g, int seat, const notation_words *w,
                     gateau_action *actions, char *error, size_t error_size)
{
    const uint8_t *p = mt_taken_pair(g, seat);
    int n = w->count - 1, left = mt_eats_left(g, seat);
    if (n > 2) {
        set_error(error, error_size, "'eat' takes 0, 1 or 2 values of your pair (%d %d)", p[0],
                  p[1]);
        return -1;
    }
    uint8_t in_pair[MT_VALUES + 1] = {0};
    in_pair[p[0]]++;
    in_pair[p[1]]++;
    for (int i = 1; i <= n; i++) {
        int v;
        if (!notation_int(w->word[i], 1, MT_VALUES, &v)) {
            set_error(error, error_size, "'%s' is not a card value (1 to 7)", w->word[i]);
            return -1;
        }
        if (!in_pair[v]) {
            set_error(error, error_size, "your pair is %d %d: there is no %s%d to eat", p[0], p[1],
                      n == 2 && (p[0] == v || p[1] == v) ? "second " : "", v);
            return -1;
        }
        in_pair[v]--;
        actions[0] = MT_EAT_ONE + v;
    }
    if (n > left) {
        set_error(error, error_size, "seat %d has eaten %d card%s already and may eat %d more "
                                     "(at most %d per game)", seat + 1, g->eaten_count[seat],
                  g->eaten_count[seat] == 1 ? "" : "s", left, MT_EAT_LIMIT);
        return -1;
    }
    if (n == 0) actions[0] = MT_EAT_NONE;
    if (n == 2) actions[0] = MT_EAT_BOTH;
    return 1;
}

int mt_parse_move(const gateau_state *state, int seat, const char *text,
                  gateau_action *actions, char *error, size_t error_size)
{
    const mt_state *g = GAME_STATE_CONST(mt_state, state);
    /* The verbs each phase allows; none once the game is over. */
    static const char *const verbs[] = {
        [MT_PHASE_DEAL] = "deal", [MT_PHASE_DRAFT] = "keep", [MT_PHASE_VOTE] = "up|down",
        [MT_PHASE_TAKE] = "take", [MT_PHASE_EAT] = "eat",    [MT_PHASE_OVER] = "",
    };
    static const char *const expected[] = {
        [MT_PHASE_DEAL] = "the deal ('deal' and the decks, as in 'deal 123456/712334/...')",
        [MT_PHASE_DRAFT] = "a keep, as in 'keep 3 7'",
        [MT_PHASE_VOTE] = "a vote, 'up' or 'down'",
        [MT_PHASE_TAKE] = "a take, as in 'take 2'",
        [MT_PHASE_EAT] = "'eat' and the values eaten, if any, as in 'eat', 'eat 5'",
        [MT_PHASE_OVER] = "nothing: the game is over",
    };
    notation_words w;
    if (!notation_open(text, verbs[g->phase], expected[g->phase], &w, error, error_size))
        return -1;
    switch (g->phase) {
    case MT_PHASE_DEAL: return parse_deal(g, &w, actions, error, error_size);
    case MT_PHASE_DRAFT: return parse_keep(g, &w, actions, error, error_size);
    case MT_PHASE_TAKE: return parse_take(g, seat, &w, actions, error, error_size);
    case MT_PHASE_EAT: return parse_eat(g, seat, &w, actions, error, error_size);
    default: break;
    }
    if (w.count != 1) {
        set_error(error, error_size, "a vote is just 'up' or 'down'");
        return -1;
    }
    actions[0] = !strcmp(w.word[0], "up") ? MT_VOTE_UP : MT_VOTE_DOWN;
    return 1;
}

void mt_action_name(const gateau_state *state, int seat, gateau_action action,
                    gateau_text *out)
{
    const mt_state *g = GAME_STATE_CONST(mt_state, state);
    if (action < MT_KEEP_LOW) text_append(out, "deal %d", action - MT_DEAL);
    else if (action < MT_KEEP_HIGH) text_append(out, "keep %d", action - MT_KEEP_LOW);
    else if (action < MT_VOTE_UP) text_append(out, "and %d", action - MT_KEEP_HIGH);
    else if (action <= MT_VOTE_DOWN) text_append(out, action == MT_VOTE_UP ? "up" : "down");
    else if (action < MT_EAT_NONE) text_append(out, "take %d", action - MT_TAKE + 1);
    else {
        int eaten[2];
        int n = mt_eaten_by(action, mt_taken_pair(g, seat), eaten);
        text_append(out, "eat");
        for (int i = 0; i < n; i++) text_append(out, " %d", eaten[i]);
    }
}

/*
 * Hidden from every seat: the shuffle (the decks to come, the cards left
 * in the box).  Hidden from the other seats: a draft pick, kept face down,
 * and a vote while others still have to vote.  Two moves give their
 * secret away at once and so are visible: the last pick with a choice,
 * after which the youngest takes the last two cards and every pair is
 * turned up, and the last vote, after which the votes are shown.  Takes
 * and what is eaten of a pair turned up are public.
 */
bool mt_move_visible(const gateau_state *before, int seat, const gateau_action *actions,
                     int count, int viewer)
{
    const mt_state *g = GAME_STATE_CONST(mt_state, before);
    (void)actions;
    (void)count;
    (void)viewer;
    if (seat == GATEAU_CHANCE) return false;
    if (g->phase == MT_PHASE_DRAFT) return g->turn == g->players - 2;
    if (g->phase == MT_PHASE_VOTE) return state_completes_phase(before, seat);
    return true;
}

/* ---- Moves built in any order (gateau_move_order) ---------------------------- */

/*
 * A keep is two cards, chosen either one first, any copy of a value: each
 * part is a card's value (as KEEP_LOW or KEEP_HIGH, either), and the keep
 * is the lower as KEEP_LOW, then the higher as KEEP_HIGH; a card alone is
 * KEEP_LOW.  Every other move is one action.
 */
int mt_order_move(const gateau_state *state, int seat, const gateau_action *parts, int count,
                  gateau_action *ordered, char *error, size_t error_size)
{
    const mt_state *g = GAME_STATE_CONST(mt_state, state);
    (void)seat;
    if (g->phase != MT_PHASE_DRAFT) {
        if (count > 1) {
            set_error(error, error_size, "this move is one part, not %d", count);
            return -1;
        }
        memcpy(ordered, parts, (size_t)count * sizeof *parts);
        return count;
    }
    if (count > 2) {
        set_error(error, error_size, "a keep is two cards, not %d", count);
        return -1;
    }
    int values[2];
    for (int i = 0; i < count; i++) {
        gateau_action a = parts[i];
        bool low = a >= MT_KEEP_LOW + 1 && a <= MT_KEEP_LOW + MT_VALUES;
        bool high = a >= MT_KEEP_HIGH + 1 && a <= MT_KEEP_HIGH + MT_VALUES;
        if (!low && !high) {
            set_error(error, error_size, "part %d (%d) is not a card to keep", i + 1, (int)a);
            return -1;
        }
        values[i] = a - (low ? MT_KEEP_LOW : MT_KEEP_HIGH);
    }
    if (count == 2 && values[0] > values[1]) {
        int swap = values[0];
        values[0] = values[1];
        values[1] = swap;
    }
    for (int i = 0; i < count; i++) ordered[i] = (i ? MT_KEEP_HIGH : MT_KEEP_LOW) + values[i];
    return count;
}
