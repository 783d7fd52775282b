/*
 * views.c: what a Marie's Table seat sees: the terminal drawing, the JSON
 * view, the commentary on moves and the explanation of the legal moves.
 *
 * Public: the pairs of every round once revealed, the takes and eats, the
 * kept cards and the scores.  Private: during a draft, the hand a seat was
 * passed and the pair it kept; its own vote until all have voted.  Hidden
 * from all: the decks to come and the box.
 */
#include <stdio.h>
#include <string.h>

#include "games/maries_table/maries_table.h"

static const char *const VALUE_COLOR[MT_VALUES + 1] = {
    "",           "\033[1;37m", "\033[1;33m", "\033[1;32m",
    "\033[1;36m", "\033[1;34m", "\033[1;35m", "\033[1;31m"};
#define COLOR_RESET "\033[0m"
#define COLOR_DIM "\033[2m"
#define COLOR_BOLD "\033[1m"

static void append_card(gateau_text *out, int v, bool color)
{
    if (color) text_append(out, "%s%d%s", VALUE_COLOR[v], v, COLOR_RESET);
    else text_append(out, "%d", v);
}

static void append_cards(gateau_text *out, const uint8_t *counts, bool color)
{
    int shown = 0;
    for (int v = 1; v <= MT_VALUES; v++)
        for (int c = 0; c < counts[v]; c++) {
            if (shown++) text_append_char(out, ' ');
            append_card(out, v, color);
        }
    if (!shown) text_append(out, "nothing");
}

static const char *role_name(const mt_state *g, int seat)
{
    if (seat == mt_eldest(g)) return "eldest";
    if (seat == mt_youngest(g)) return "youngest";
    return "";
}

/* What the viewer knows of the current draft. */
static void view_draft(const mt_state *g, int viewer, bool color, gateau_text *out)
{
    int drafter = mt_drafter(g);
    text_append(out, "Draft: ");
    for (int j = 0; j < g->turn; j++)
        text_append(out, "%sseat %d", j ? ", " : "", mt_seat_at(g, j) + 1);
    if (g->turn) text_append(out, " kept 2 cards face down; ");
    text_append(out, "seat %d%s keeps 2 of %d cards.\n", drafter + 1,
                drafter == viewer ? " (you)" : "", mt_hand_count(g->hand));
    uint8_t seen[MT_VALUES + 1];
    if (!mt_hand_seen(g, viewer, seen)) {
        if (viewer >= 0) text_append(out, "  Your hand has not reached you yet.\n");
        return;
    }
    if (viewer == drafter) {
        text_append(out, "  Your hand: ");
        append_cards(out, seen, color);
        if (g->low) text_append(out, "   (keeping %d and ...)", g->low);
        text_append_char(out, '\n');
        return;
    }
    const uint8_t *own = g->pair[g->round][viewer];
    uint8_t passed[MT_VALUES + 1];
    memcpy(passed, seen, sizeof passed);
    passed[own[0]]--;
    passed[own[1]]--;
    text_append(out, "  You were passed ");
    append_cards(out, seen, color);
    text_append(out, "\n  You kept ");
    append_card(out, own[0], color);
    text_append(out, " ");
    append_card(out, own[1], color);
    text_append(out, " and passed on ");
    append_cards(out, passed, color);
    text_append_char(out, '\n');
}

static void append_eat(const mt_state *g, int round, int seat, bool color, gateau_text *out)
{
    const uint8_t *p = g->pair[round][g->took[round][seat]];
    int eaten[2];
    int n = mt_eaten_by(g->ate[round][seat], p, eaten);
    if (!n) {
        text_append(out, "keeps both");
        return;
    }
    text_append(out, "eats ");
    for (int i = 0; i < n; i++) {
        if (i) text_append_char(out, ' ');
        append_card(out, eaten[i], color);
    }
}

/* The revealed pairs of the current round, votes once all are in, takes. */
static void view_table(const mt_state *g, int viewer, bool color, gateau_text *out)
{
    int r = g->round;
    bool votes_in = g->phase != MT_PHASE_VOTE;
    text_append(out, "Pairs on the table:\n");
    for (int j = 0; j < g->players; j++) {
        int s = mt_seat_at(g, j);
        const uint8_t *p = g->pair[r][s];
        text_append(out, "  seat %d %-9s ", s + 1, role_name(g, s));
        append_card(out, p[0], color);
        text_append(out, " ");
        append_card(out, p[1], color);
        int vote = g->vote[r][s];
        if (vote == MT_NO_VOTE)
            text_append(out, "   %-5s", "...");
        else if (votes_in || s == viewer)
            text_append(out, "   %-5s", vote == MT_UP ? "up" : "down");
        else
            text_append(out, "   %s%-5s%s", color ? COLOR_DIM : "", "voted",
                        color ? COLOR_RESET : "");
        int by = mt_taker_of(g, r, s);
        if (by >= 0) {
            text_append(out, "   -> seat %d", by + 1);
            if (g->ate[r][by]) {
                text_append(out, ", ");
                append_eat(g, r, by, color, out);
            }
        }
        text_append_char(out, '\n');
    }
    if (votes_in) {
        int n = mt_discontent(g, r);
        text_append(out, "  %d discontent: %s\n", n,
                    n >= 2 ? "the pairs change hands, youngest first"
                           : "everyone takes his own pair, youngest first");
    }
}

static void view_seats(const mt_state *g, int viewer, bool color, gateau_text *out)
{
    text_append(out, "\n  %-14s", "kept cards");
    for (int v = 1; v <= MT_VALUES; v++) {
        text_append(out, "  ");
        append_card(out, v, color);
    }
    text_append(out, "  eaten  points\n");
    for (int s = 0; s < g->players; s++) {
        bool you = s == viewer;
        char name[24];
        snprintf(name, sizeof name, "seat %d%s", s + 1, you ? " (you)" : "");
        text_append(out, "%s%s %-14s%s", you && color ? COLOR_BOLD : "", you ? ">" : " ", name,
                    you && color ? COLOR_RESET : "");
        for (int v = 1; v <= MT_VALUES; v++) {
            if (g->kept[s][v]) text_append(out, "%3d", g->kept[s][v]);
            else text_append(out, "  .");
        }
        text_append(out, "  %3d/%d  %6d\n", g->eaten_count[s], MT_EAT_LIMIT, mt_score_of(g, s));
    }
}

static void view_unseen(const mt_state *g, int viewer, gateau_text *out)
{
    uint8_t pool[MT_VALUES + 1];
    mt_unseen_cards(g, viewer, pool);
    int to_come = mt_decks_to_come(g);
    text_append(out, "\nCards %s: %d (of 1..7:",
                viewer >= 0 ? "you have not seen" : "not shown yet", mt_hand_count(pool));
    for (int v = 1; v <= MT_VALUES; v++) text_append(out, " %d", pool[v]);
    text_append(out, ")");
    if (to_come) text_append(out, "; %d deck%s to come", to_come, to_come == 1 ? "" : "s");
    text_append(out, "; %d in the box.\n", MT_CARDS - mt_dealt_total(g));
}

/* The value that broke the tie between two seats on equal points, or 0. */
static int deciding_value(const mt_state *g, int a, int b)
{
    if (mt_score_of(g, a) != mt_score_of(g, b)) return 0;
    for (int v = MT_VALUES; v >= 1; v--)
        if (g->kept[a][v] != g->kept[b][v]) return v;
    return 0;
}

static void view_result(const gateau_state *state, const mt_state *g, bool color,
                        gateau_text *out)
{
    text_append(out, "\nFinal scoring (kept cards of a value: points):\n  value   ");
    for (int s = 0; s < g->players; s++) text_append(out, "  seat %d ", s + 1);
    text_append_char(out, '\n');
    for (int v = MT_VALUES; v >= 1; v--) {
        text_append(out, "  ");
        append_card(out, v, color);
        text_append(out, "       ");
        for (int s = 0; s < g->players; s++) {
            int n = g->kept[s][v];
            if (n) text_append(out, "  %d: %+-3d ", n, MT_KEPT_POINTS[n]);
            else text_append(out, "  .      ");
        }
        text_append_char(out, '\n');
    }
    text_append(out, "  eaten   ");
    for (int s = 0; s < g->players; s++)
        text_append(out, "  %d: %+-3d ", g->eaten_count[s], g->eaten_count[s]);
    text_append(out, "\n  total   ");
    for (int s = 0; s < g->players; s++) text_append(out, "  %-6d ", mt_score_of(g, s));
    text_append_char(out, '\n');
    uint32_t winners = mt_winners(state);
    text_append(out, "Game over. Winner%s:", __builtin_popcount(winners) > 1 ? "s" : "");
    int first = -1;
    for (int s = 0; s < g->players; s++)
        if (winners & (1u << s)) {
            text_append(out, " seat %d", s + 1);
            if (first < 0) first = s;
        }
    /* Say which kept value broke a tie on points, if one did. */
    int decided = 0;
    for (int s = 0; s < g->players; s++) {
        if (winners & (1u << s)) continue;
        int v = deciding_value(g, first, s);
        if (v > decided) decided = v;
    }
    if (decided) text_append(out, " (tie on points broken by kept %ds)", decided);
    else if (__builtin_popcount(winners) > 1) text_append(out, " (tied all the way down)");
    text_append_char(out, '\n');
}

static void view_to_act(const gateau_state *state, const mt_state *g, int viewer,
                        gateau_text *out)
{
    switch (g->phase) {
    case MT_PHASE_DEAL: text_append(out, "The cards are being shuffled into decks.\n"); break;
    case MT_PHASE_DRAFT:
        text_append(out, "Seat %d is to keep 2 cards.\n", mt_drafter(g) + 1);
        break;
    case MT_PHASE_VOTE:
        text_append(out, "Vote (everyone, secretly): still to vote:");
        for (int s = 0, listed = 0; s < g->players; s++)
            if (state->actors & (1u << s))
                text_append(out, "%s seat %d%s", listed++ ? "," : "", s + 1,
                            s == viewer ? " (you)" : "");
        text_append_char(out, '\n');
        break;
    case MT_PHASE_TAKE:
        text_append(out, "Seat %d is to take a pair.\n", mt_taker_at(g, g->turn) + 1);
        break;
    case MT_PHASE_EAT: {
        int s = mt_taker_at(g, g->turn);
        const uint8_t *p = mt_taken_pair(g, s);
        text_append(out, "Seat %d is to keep or eat %d %d (eaten so far: %d of %d).\n", s + 1,
                    p[0], p[1], g->eaten_count[s], MT_EAT_LIMIT);
        break;
    }
    default: break;
    }
}

void mt_view_text(const gateau_state *state, int seat, bool color, gateau_text *out)
{
    const mt_state *g = GAME_STATE_CONST(mt_state, state);
    text_append(out, "Marie's Table, round %d of %d (%d players, decks of %d)\n", g->round + 1,
                g->rounds, g->players, g->deck_size);
    if (g->phase != MT_PHASE_DEAL) {
        text_append(out, "Brothers, eldest first:");
        for (int j = 0; j < g->players; j++) {
            int s = mt_seat_at(g, j);
            const char *role = j == 0 ? "eldest" : j == g->players - 1 ? "youngest" : "";
            text_append(out, "%s seat %d", j ? "," : "", s + 1);
            if (role[0] || s == seat)
                text_append(out, " (%s%s%s)", role, role[0] && s == seat ? ", " : "",
                            s == seat ? "you" : "");
        }
        text_append(out, "\n\n");
    }
    if (g->phase == MT_PHASE_DRAFT) view_draft(g, seat, color, out);
    else if (g->phase != MT_PHASE_DEAL) view_table(g, seat, color, out);
    view_seats(g, seat, color, out);
    view_unseen(g, seat, out);
    if (g->phase == MT_PHASE_OVER) view_result(state, g, color, out);
    else view_to_act(state, g, seat, out);
}

/* The phases as the JSON view names them (from_view.c reads them back). */
const char *const MT_PHASE_NAMES[MT_PHASE_OVER + 1] = {"deal", "draft", "vote",
                                                       "take", "eat", "over"};

/* The JSON view's helpers write one value each (core/json_write.h). */

/* {"1":n,...,"6":n}: a count per value. */
static void write_counts(const uint8_t *counts, json_writer *out)
{
    json_write_begin_object(out);
    for (int v = 1; v <= MT_VALUES; v++) {
        char key[2] = {(char)('0' + v), '\0'};
        json_write_key(out, key);
        json_write_integer(out, counts[v]);
    }
    json_write_end_object(out);
}

/* The cards counted, as a list of values, lowest first. */
static void write_cards(const uint8_t *counts, json_writer *out)
{
    json_write_begin_array(out);
    for (int v = 1; v <= MT_VALUES; v++)
        for (int c = 0; c < counts[v]; c++) json_write_integer(out, v);
    json_write_end_array(out);
}

static void write_pair(const uint8_t *pair, json_writer *out)
{
    json_write_begin_array(out);
    json_write_integer(out, pair[0]);
    json_write_integer(out, pair[1]);
    json_write_end_array(out);
}

static void write_seat_or_null(int seat, json_writer *out)
{
    if (seat >= 0) json_write_integer(out, seat + 1);
    else json_write_null(out);
}

/* One seat's row of a revealed round. */
static void write_round_seat(const mt_state *g, int r, int s, bool votes_in, int viewer,
                             json_writer *out)
{
    json_write_begin_object(out);
    json_write_key(out, "seat");
    json_write_integer(out, s + 1);
    json_write_key(out, "pair");
    write_pair(g->pair[r][s], out);
    int vote = g->vote[r][s];
    const char *shown = vote == MT_NO_VOTE               ? NULL
                        : votes_in || s == viewer     ? (vote == MT_UP ? "up" : "down")
                                                      : "hidden";
    json_write_key(out, "vote");
    if (shown) json_write_string(out, shown);
    else json_write_null(out);
    json_write_key(out, "took");
    write_seat_or_null(g->took[r][s], out);
    json_write_key(out, "taken_by");
    write_seat_or_null(mt_taker_of(g, r, s), out);
    json_write_key(out, "ate");
    if (g->ate[r][s]) {
        int eaten[2];
        int n = mt_eaten_by(g->ate[r][s], g->pair[r][g->took[r][s]], eaten);
        json_write_begin_array(out);
        for (int i = 0; i < n; i++) json_write_integer(out, eaten[i]);
        json_write_end_array(out);
    } else {
        json_write_null(out);
    }
    json_write_end_object(out);
}

/* One revealed round: per seat its pair, its vote (hidden from the others
 * until all have voted), whose pair it took and what it ate. */
static void write_round(const mt_state *g, int r, int viewer, json_writer *out)
{
    bool current = r == g->round && g->phase != MT_PHASE_OVER;
    bool votes_in = !(current && g->phase == MT_PHASE_VOTE);
    json_write_begin_object(out);
    json_write_key(out, "round");
    json_write_integer(out, r + 1);
    json_write_key(out, "eldest");
    json_write_integer(out, mt_eldest_of(g, r) + 1);
    json_write_key(out, "seats");
    json_write_begin_array(out);
    for (int s = 0; s < g->players; s++) write_round_seat(g, r, s, votes_in, viewer, out);
    json_write_end_array(out);
    if (votes_in) {
        json_write_key(out, "discontent");
        json_write_integer(out, mt_discontent(g, r));
        json_write_key(out, "swap");
        json_write_boolean(out, mt_swapping(g, r));
    }
    json_write_end_object(out);
}

static void write_draft(const mt_state *g, int seat, json_writer *out)
{
    json_write_begin_object(out);
    json_write_key(out, "drafter");
    json_write_integer(out, mt_drafter(g) + 1);
    json_write_key(out, "hand_size");
    json_write_integer(out, mt_hand_count(g->hand));
    json_write_key(out, "kept_face_down");
    json_write_begin_array(out);
    for (int j = 0; j < g->turn; j++) json_write_integer(out, mt_seat_at(g, j) + 1);
    json_write_end_array(out);
    uint8_t seen[MT_VALUES + 1];
    if (mt_hand_seen(g, seat, seen)) {
        /* The hand this seat was passed: all it knows of the deck. */
        json_write_key(out, "seen");
        write_cards(seen, out);
        if (mt_position_of(g, seat) < g->turn) {
            const uint8_t *own = g->pair[g->round][seat];
            json_write_key(out, "kept");
            write_pair(own, out);
            seen[own[0]]--;
            seen[own[1]]--;
            json_write_key(out, "passed");
            write_cards(seen, out);
        } else if (mt_keep_started(g, seat)) {
            json_write_key(out, "keeping");
            json_write_integer(out, mt_keep_started(g, seat));
        }
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

void mt_view_json(const gateau_state *state, int seat, json_writer *out)
{
    const mt_state *g = GAME_STATE_CONST(mt_state, state);
    json_write_begin_object(out);
    json_write_key(out, "game");
    json_write_string(out, "maries-table");
    json_write_key(out, "seat");
    write_seat_or_null(seat, out);
    json_write_key(out, "players");
    json_write_integer(out, g->players);
    json_write_key(out, "round");
    json_write_integer(out, g->round + 1);
    json_write_key(out, "rounds");
    json_write_integer(out, g->rounds);
    json_write_key(out, "deck_size");
    json_write_integer(out, g->deck_size);
    json_write_key(out, "phase");
    json_write_string(out, MT_PHASE_NAMES[g->phase]);
    if (g->phase != MT_PHASE_DEAL) {
        json_write_key(out, "brothers"); /* eldest first, youngest last */
        json_write_begin_array(out);
        for (int j = 0; j < g->players; j++) json_write_integer(out, mt_seat_at(g, j) + 1);
        json_write_end_array(out);
    }
    json_write_key(out, "to_act");
    write_seat_list(state->actors, g->players, out);
    if (g->phase == MT_PHASE_DRAFT) {
        json_write_key(out, "draft");
        write_draft(g, seat, out);
    }
    json_write_key(out, "revealed");
    json_write_begin_array(out);
    for (int r = 0; r < mt_revealed_rounds(g); r++) write_round(g, r, seat, out);
    json_write_end_array(out);
    json_write_key(out, "seats");
    json_write_begin_array(out);
    for (int s = 0; s < g->players; s++) {
        json_write_begin_object(out);
        json_write_key(out, "seat");
        json_write_integer(out, s + 1);
        json_write_key(out, "kept");
        write_counts(g->kept[s], out);
        json_write_key(out, "eaten");
        json_write_integer(out, g->eaten_count[s]);
        json_write_key(out, "eaten_values");
        write_counts(g->eaten[s], out);
        json_write_key(out, "score");
        json_write_integer(out, mt_score_of(g, s));
        json_write_end_object(out);
    }
    json_write_end_array(out);
    uint8_t pool[MT_VALUES + 1];
    mt_unseen_cards(g, seat, pool);
    json_write_key(out, "unseen");
    write_counts(pool, out);
    if (g->phase == MT_PHASE_OVER) {
        json_write_key(out, "winners");
        write_seat_list(mt_winners(state), g->players, out);
    }
    json_write_end_object(out);
}

static void describe_reveal(const mt_state *after, gateau_text *out)
{
    text_append(out, "; seat %d gets the last 2. The pairs are turned up:", mt_youngest(after) + 1);
    for (int j = 0; j < after->players; j++) {
        int s = mt_seat_at(after, j);
        const uint8_t *p = after->pair[after->round][s];
        text_append(out, "%s seat %d %d %d", j ? "," : "", s + 1, p[0], p[1]);
    }
}

void mt_describe_move(const gateau_state *before, int seat, const gateau_action *actions,
                      int count, int viewer, gateau_text *out)
{
    const mt_state *g = GAME_STATE_CONST(mt_state, before);
    gateau_action first = actions[0];
    if (seat == GATEAU_CHANCE) {
        text_append(out, "The cards are shuffled into %d face-down decks of %d; %d stay in the "
                         "box unseen.", g->rounds, g->deck_size, MT_CARDS - mt_dealt_total(g));
        return;
    }
    /* The state after the move, for what it reveals. */
    gateau_state *after = gateau_state_clone(before);
    for (int i = 0; i < count; i++) gateau_state_apply_legal(after, seat, actions[i]);
    const mt_state *a = GAME_STATE_CONST(mt_state, after);
    if (first < MT_KEEP_HIGH) {
        int next = mt_seat_at(g, g->turn + 1), passed = mt_hand_count(g->hand) - 2;
        if (viewer == seat)
            text_append(out, "seat %d keeps %d %d and passes %d cards to seat %d", seat + 1,
                        first - MT_KEEP_LOW, actions[1] - MT_KEEP_HIGH, passed, next + 1);
        else
            text_append(out, "seat %d keeps 2 cards face down and passes %d to seat %d",
                        seat + 1, passed, next + 1);
        if (a->phase == MT_PHASE_VOTE) describe_reveal(a, out);
    } else if (first <= MT_VOTE_DOWN) {
        if (viewer == seat)
            text_append(out, "seat %d votes %s", seat + 1, first == MT_VOTE_UP ? "up" : "down");
        else text_append(out, "seat %d has voted", seat + 1);
        if (a->phase != MT_PHASE_VOTE) {
            int r = g->round, n = mt_discontent(a, r);
            text_append(out, ". The votes:");
            for (int s = 0; s < g->players; s++)
                text_append(out, "%s seat %d %s", s ? "," : "", s + 1,
                            a->vote[r][s] == MT_UP ? "up" : "down");
            text_append(out, "; %d discontent, so %s", n,
                        n >= 2 ? "the pairs change hands" : "everyone takes his own pair");
        }
    } else if (first < MT_EAT_NONE) {
        int t = first - MT_TAKE;
        const uint8_t *p = g->pair[g->round][t];
        if (t == seat)
            text_append(out, "seat %d takes his own pair %d %d, the only one left", seat + 1,
                        p[0], p[1]);
        else
            text_append(out, "seat %d takes seat %d's pair %d %d", seat + 1, t + 1, p[0], p[1]);
    } else {
        const uint8_t *p = mt_taken_pair(g, seat);
        int eaten[2];
        int n = mt_eaten_by(first, p, eaten);
        if (n == 0) text_append(out, "seat %d keeps %d %d", seat + 1, p[0], p[1]);
        else if (n == 2) text_append(out, "seat %d eats %d %d", seat + 1, p[0], p[1]);
        else
            text_append(out, "seat %d eats %d and keeps %d", seat + 1, eaten[0],
                        p[0] == eaten[0] ? p[1] : p[0]);
    }
    gateau_state_free(after);
}

void mt_describe_legal(const gateau_state *state, int seat, gateau_text *out)
{
    const mt_state *g = GAME_STATE_CONST(mt_state, state);
    switch (g->phase) {
    case MT_PHASE_DRAFT: {
        text_append(out, "keep two cards of your hand (");
        mt_append_counts(out, g->hand);
        text_append(out, ") and pass the rest to seat %d:", mt_seat_at(g, g->turn + 1) + 1);
        int listed = 0;
        for (int a = 1; a <= MT_VALUES; a++) {
            if (!mt_low_allowed(g->hand, a)) continue;
            for (int b = a; b <= MT_VALUES; b++)
                if (mt_high_allowed(g->hand, a, b)) {
                    text_append(out, "%skeep %d %d", !listed ? "\n  " : listed % 6 ? ", " : ",\n  ",
                                a, b);
                    listed++;
                }
        }
        break;
    }
    case MT_PHASE_VOTE:
        text_append(out, "up     content with the pairs\n"
                         "down   discontent: with 2 or more down, the pairs change hands");
        break;
    case MT_PHASE_TAKE: {
        gateau_action actions[GATEAU_MAX_ACTIONS];
        int count = mt_legal_actions(state, seat, actions);
        for (int i = 0; i < count; i++) {
            int t = actions[i] - MT_TAKE;
            const uint8_t *p = g->pair[g->round][t];
            if (t == seat)
                text_append(out, "take %d   (your own pair %d %d: the only one left)", t + 1,
                            p[0], p[1]);
            else
                text_append(out, "%stake %d   (seat %d's pair: %d %d)", i ? "\n" : "", t + 1,
                            t + 1, p[0], p[1]);
        }
        break;
    }
    case MT_PHASE_EAT: {
        const uint8_t *p = mt_taken_pair(g, seat);
        gateau_action actions[GATEAU_MAX_ACTIONS];
        int count = mt_legal_actions(state, seat, actions);
        for (int i = 0; i < count; i++) {
            int eaten[2];
            int n = mt_eaten_by(actions[i], p, eaten);
            if (n == 0) text_append(out, "eat       keep both (%d %d)", p[0], p[1]);
            else if (n == 1)
                text_append(out, "\neat %d     eat it, keep %d", eaten[0],
                            p[0] == eaten[0] ? p[1] : p[0]);
            else text_append(out, "\neat %d %d   eat both", p[0], p[1]);
        }
        text_append(out, "\n(you have eaten %d of the %d cards allowed per game)",
                    g->eaten_count[seat], MT_EAT_LIMIT);
        break;
    }
    default:
        break;
    }
}


void mt_key(gateau_text *out)
{
    text_append(out, "Cards: the values 1 to %d, %d cards of each ('keep 3 7', 'eat 5').\n"
                     "Kept cards score per value, by how many of that value you keep:\n"
                     "  kept  ", MT_VALUES, MT_COPIES);
    for (int n = 1; n <= MT_COPIES; n++) text_append(out, " %3d", n);
    text_append(out, "\n  points");
    for (int n = 1; n <= MT_COPIES; n++) text_append(out, " %3d", MT_KEPT_POINTS[n]);
    text_append(out, "\nAn eaten card scores 1 point; you may eat %d cards in a game.\n"
                     "Votes: up (content), down (discontent). 'take S' takes seat S's pair.\n",
                MT_EAT_LIMIT);
}
