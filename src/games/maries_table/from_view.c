/*
 * from_view.c: a Marie's Table position read back from a seat's JSON view
 * (the game's from_view, core/engine.h); views.c writes that view.
 *
 * The position is not pieced together field by field: it is played again.
 * The view shows the pairs of every revealed round, the votes, the takes
 * and the eats, and during a draft what the seat was passed.  From them
 * this file makes up a deal that fits them, what the seat cannot know taken
 * from the cards it has not seen, lowest first; then it plays the rounds
 * with the game's own actions, each checked legal.  So the position is one
 * the rules reach, whatever the view says: the kept and eaten cards, the
 * turn, the hand and who acts are what the moves made them, and a view the
 * rules cannot reach is refused at the first action that is not legal (or
 * by the core, when the position does not show the view again).
 *
 * The made-up deal is as good as the true one for the seat: determinize
 * (rules.c) draws again every card the seat has not seen, and writes the
 * decks already played as their pairs in draft order, which is how they
 * are dealt here (no seat ever knows the order of a deck).
 */
#include <stdio.h>
#include <string.h>

#include "core/view_read.h"
#include "games/maries_table/maries_table.h"

/* What the view shows of a round whose pairs are face up, per seat. */
typedef struct shown_round {
    uint8_t pair[MT_MAX_SEATS][2];
    uint8_t vote[MT_MAX_SEATS]; /* MT_NO_VOTE, MT_UP or MT_DOWN */
    int8_t took[MT_MAX_SEATS];  /* whose pair the seat took, -1 if not yet */
    uint8_t eat[MT_MAX_SEATS];  /* the seat's eat action, 0 if not yet */
} shown_round;

/* What the view shows of the draft being played, positions from the
 * eldest (0). */
typedef struct shown_draft {
    int drafter;                   /* the position keeping 2 cards now */
    int position;                  /* the seat's own */
    uint8_t seen[MT_VALUES + 1];   /* the hand passed to the seat, if it was */
    uint8_t kept[2];               /* the pair it kept from that hand, if it has */
    uint8_t passed[MT_VALUES + 1]; /* seen less kept (all of seen while it keeps) */
    int keeping;                   /* the first card of the seat's unfinished keep, or 0 */
} shown_draft;

typedef struct reading {
    const mt_state *g; /* the state being built: players, rounds, deck size */
    int seat;
    int round;         /* 0-based */
    int phase;
    int revealed;      /* rounds whose pairs are face up */
    shown_round rounds[MT_MAX_ROUNDS];
    shown_draft draft;
    uint8_t deal[MT_MAX_DEALT]; /* the decks, in play order */
    view_error *error;
} reading;

/* Seats and positions in round r: position 0 is its eldest. */
static int seat_at(const mt_state *g, int r, int position)
{
    return (mt_eldest_of(g, r) + position) % g->players;
}

static int position_of(const mt_state *g, int r, int seat)
{
    return (seat - mt_eldest_of(g, r) + g->players) % g->players;
}

/* Puts where a reader's refusal happened in front of its reason. */
static bool refuse_at(view_error *error, const char *where)
{
    if (!error || !error->text || !error->size) return false;
    char reason[256];
    snprintf(reason, sizeof reason, "%s", error->text);
    return view_fail(error, "%s: %s", where, reason);
}

/* ---- Reading the view ------------------------------------------------------------ */

/* object[key]: a list of exactly count card values, added up per value. */
static bool read_cards(const json_t *object, const char *key, int count,
                       uint8_t counts[MT_VALUES + 1], view_error *error)
{
    const json_t *list;
    if (!view_array(object, key, (size_t)count, (size_t)count, &list, error)) return false;
    memset(counts, 0, MT_VALUES + 1);
    for (int i = 0; i < count; i++) {
        long value;
        if (!view_int_value(json_array_get(list, (size_t)i), key, 1, MT_VALUES, &value, error))
            return false;
        counts[value]++;
    }
    return true;
}

/* object[key]: two card values, lowest first (as a pair is kept). */
static bool read_pair(const json_t *object, const char *key, uint8_t pair[2],
                      view_error *error)
{
    const json_t *list;
    long low, high;
    if (!view_array(object, key, 2, 2, &list, error) ||
        !view_int_value(json_array_get(list, 0), key, 1, MT_VALUES, &low, error) ||
        !view_int_value(json_array_get(list, 1), key, 1, MT_VALUES, &high, error))
        return false;
    if (low > high) return view_fail(error, "'%s' must be written lowest first", key);
    pair[0] = (uint8_t)low;
    pair[1] = (uint8_t)high;
    return true;
}

/* "vote": null (not yet), "up", "down", or "hidden": another seat's vote
 * before all are in, read as up (the seat cannot know it, and determinize
 * draws it again). */
static bool read_vote(const json_t *row, uint8_t *vote, view_error *error)
{
    *vote = MT_NO_VOTE;
    if (!view_has(row, "vote")) return true;
    const json_t *field = json_object_get(row, "vote");
    const char *text = json_is_string(field) ? json_string_value(field) : "";
    if (strcmp(text, "up") == 0 || strcmp(text, "hidden") == 0) *vote = MT_UP;
    else if (strcmp(text, "down") == 0) *vote = MT_DOWN;
    else return view_fail(error, "'vote' must be null, \"up\", \"down\" or \"hidden\"");
    return true;
}

/* "ate": null (not yet), or the values eaten: [] none, [v] one, [a, b]
 * both (which two the take tells; the core checks they are shown back). */
static bool read_eat(const json_t *row, uint8_t *eat, view_error *error)
{
    *eat = 0;
    if (!view_has(row, "ate")) return true;
    const json_t *list;
    long value = 0;
    if (!view_array(row, "ate", 0, 2, &list, error)) return false;
    for (size_t i = 0; i < json_array_size(list); i++)
        if (!view_int_value(json_array_get(list, i), "ate", 1, MT_VALUES, &value, error))
            return false;
    size_t count = json_array_size(list);
    *eat = (uint8_t)(count == 0 ? MT_EAT_NONE : count == 1 ? MT_EAT_ONE + value : MT_EAT_BOTH);
    return true;
}

/* One seat's row of a revealed round. */
static bool read_row(const reading *read, const json_t *row, int seat, shown_round *shown)
{
    view_error *error = read->error;
    if (!json_is_object(row)) return view_fail(error, "must be an object");
    long took = 0; /* null: not yet */
    if (!read_pair(row, "pair", shown->pair[seat], error) ||
        !read_vote(row, &shown->vote[seat], error))
        return false;
    if (view_has(row, "took") && !view_int(row, "took", 1, read->g->players, &took, error))
        return false;
    shown->took[seat] = (int8_t)(took - 1);
    return read_eat(row, &shown->eat[seat], error);
}

/* "revealed": one entry per round whose pairs are face up. */
static bool read_revealed(reading *read, const json_t *view)
{
    view_error *error = read->error;
    const json_t *list;
    size_t count = (size_t)read->revealed;
    if (!view_array(view, "revealed", count, count, &list, error)) return false;
    for (int r = 0; r < read->revealed; r++) {
        char where[64];
        snprintf(where, sizeof where, "revealed[%d]", r);
        const json_t *round = json_array_get(list, (size_t)r), *seats;
        if (!json_is_object(round)) return view_fail(error, "'%s' must be an object", where);
        size_t players = read->g->players;
        if (!view_array(round, "seats", players, players, &seats, error))
            return refuse_at(error, where);
        for (int s = 0; s < read->g->players; s++) {
            snprintf(where, sizeof where, "revealed[%d].seats[%d]", r, s);
            if (!read_row(read, json_array_get(seats, (size_t)s), s, &read->rounds[r]))
                return refuse_at(error, where);
        }
    }
    return true;
}

/* "draft": whose turn it is and, once the hand has reached the seat, what
 * it was passed, kept and is keeping. */
static bool read_draft_fields(reading *read, const json_t *draft)
{
    const mt_state *g = read->g;
    view_error *error = read->error;
    shown_draft *d = &read->draft;
    long drafter, keeping = 0;
    if (!view_int(draft, "drafter", 1, g->players, &drafter, error)) return false;
    d->drafter = position_of(g, read->round, (int)drafter - 1);
    d->position = position_of(g, read->round, read->seat);
    if (d->drafter == g->players - 1)
        return view_fail(error, "'drafter' cannot be the youngest: he keeps the last 2 "
                                "without choosing");
    if (d->position > d->drafter) return true; /* the hand has not reached the seat */
    if (!read_cards(draft, "seen", g->deck_size - 2 * d->position, d->seen, error)) return false;
    memcpy(d->passed, d->seen, sizeof d->passed);
    if (d->position < d->drafter) {
        if (!read_pair(draft, "kept", d->kept, error)) return false;
        for (int i = 0; i < 2; i++) {
            if (!d->passed[d->kept[i]]) return view_fail(error, "'kept' must be cards of 'seen'");
            d->passed[d->kept[i]]--;
        }
    } else if (view_has(draft, "keeping")) {
        if (!view_int(draft, "keeping", 1, MT_VALUES, &keeping, error)) return false;
    }
    d->keeping = (int)keeping;
    return true;
}

static bool read_draft(reading *read, const json_t *view)
{
    const json_t *draft;
    if (!view_object(view, "draft", &draft, read->error)) return false;
    return read_draft_fields(read, draft) || refuse_at(read->error, "draft");
}

/* "round" and "phase", and so how many rounds are revealed. */
static bool read_position(reading *read, const json_t *view)
{
    view_error *error = read->error;
    long round;
    const char *phase;
    if (!view_int(view, "round", 1, read->g->rounds, &round, error) ||
        !view_string(view, "phase", &phase, error))
        return false;
    read->phase = -1;
    for (int p = MT_PHASE_DEAL; p <= MT_PHASE_OVER; p++)
        if (strcmp(phase, MT_PHASE_NAMES[p]) == 0) read->phase = p;
    if (read->phase < 0)
        return view_fail(error, "'phase' must be deal, draft, vote, take, eat or over");
    read->round = (int)round - 1;
    read->revealed = read->phase == MT_PHASE_DEAL    ? 0
                     : read->phase == MT_PHASE_DRAFT ? read->round
                                                     : read->round + 1;
    return true;
}

/* ---- A deal that fits ------------------------------------------------------------- */

/* Per value, the cards the view does not show: 8 less the revealed pairs
 * and the hand the seat was passed.  false if it shows more than 8. */
static bool count_unseen(const reading *read, uint8_t unseen[MT_VALUES + 1])
{
    uint8_t shown[MT_VALUES + 1];
    memcpy(shown, read->draft.seen, sizeof shown);
    for (int r = 0; r < read->revealed; r++)
        for (int s = 0; s < read->g->players; s++) {
            shown[read->rounds[r].pair[s][0]]++;
            shown[read->rounds[r].pair[s][1]]++;
        }
    unseen[0] = 0;
    for (int v = 1; v <= MT_VALUES; v++) {
        if (shown[v] > MT_COPIES)
            return view_fail(read->error, "'revealed' and 'draft' show %d cards of value %d; "
                                          "there are %d", shown[v], v, MT_COPIES);
        unseen[v] = (uint8_t)(MT_COPIES - shown[v]);
    }
    return true;
}

/* The lowest card left in pool, taken out (0 if none: not a card, so the
 * deal would be refused, but the counts above leave enough). */
static uint8_t take_lowest(uint8_t pool[MT_VALUES + 1])
{
    for (int v = 1; v <= MT_VALUES; v++)
        if (pool[v]) {
            pool[v]--;
            return (uint8_t)v;
        }
    return 0;
}

/* The deck being drafted, in draft order from deal[n]: the pairs kept
 * before the seat and (if the hand has not reached it) the hand from the
 * unseen cards; then its pair; then what it passed on.  Returns the next
 * index. */
static int deal_current_deck(reading *read, uint8_t unseen[MT_VALUES + 1], int n)
{
    const shown_draft *d = &read->draft;
    if (d->position > d->drafter) return n; /* all unseen: dealt as the decks to come */
    for (int i = 0; i < 2 * d->position; i++) read->deal[n++] = take_lowest(unseen);
    if (d->position < d->drafter) {
        read->deal[n++] = d->kept[0];
        read->deal[n++] = d->kept[1];
    }
    for (int v = 1; v <= MT_VALUES; v++)
        for (int c = 0; c < d->passed[v]; c++) read->deal[n++] = (uint8_t)v;
    return n;
}

/* Every deck of the game: the revealed rounds as their pairs in draft
 * order, the deck being drafted as the seat knows it, the rest from the
 * cards the seat has not seen. */
static bool make_deal(reading *read)
{
    const mt_state *g = read->g;
    uint8_t unseen[MT_VALUES + 1];
    if (!count_unseen(read, unseen)) return false;
    int n = 0;
    for (int r = 0; r < read->revealed; r++)
        for (int j = 0; j < g->players; j++) {
            const uint8_t *pair = read->rounds[r].pair[seat_at(g, r, j)];
            read->deal[n++] = pair[0];
            read->deal[n++] = pair[1];
        }
    if (read->phase == MT_PHASE_DRAFT) n = deal_current_deck(read, unseen, n);
    while (n < mt_dealt_total(g)) read->deal[n++] = take_lowest(unseen);
    return true;
}

/* ---- Playing it again ------------------------------------------------------------- */

/* One action, refused with where it comes from if it is not legal. */
static bool play(const reading *read, gateau_state *state, int seat, gateau_action action,
                 const char *where, const char *what)
{
    char reason[128];
    if (gateau_state_apply(state, seat, action, reason, sizeof reason)) return true;
    return view_fail(read->error, "%s: %s cannot be played there (%s)", where, what, reason);
}

static bool play_deal(const reading *read, gateau_state *state)
{
    for (int i = 0; i < mt_dealt_total(read->g); i++)
        if (!play(read, state, GATEAU_CHANCE, MT_DEAL + read->deal[i], "the cards shown",
                  "the deal"))
            return false;
    return true;
}

/* The keeps of the first `keeps` brothers of round r: the pairs as dealt. */
static bool play_keeps(const reading *read, gateau_state *state, int r, int keeps,
                       const char *where)
{
    const mt_state *g = read->g;
    const uint8_t *deck = read->deal + r * g->deck_size;
    for (int j = 0; j < keeps; j++) {
        int a = deck[2 * j], b = deck[2 * j + 1], seat = seat_at(g, r, j);
        if (!play(read, state, seat, MT_KEEP_LOW + (a < b ? a : b), where, "a keep") ||
            !play(read, state, seat, MT_KEEP_HIGH + (a < b ? b : a), where, "a keep"))
            return false;
    }
    return true;
}

/* The votes cast in round r, in seat order (the last one resolves them). */
static bool play_votes(const reading *read, gateau_state *state, int r)
{
    const shown_round *shown = &read->rounds[r];
    for (int s = 0; s < read->g->players; s++) {
        if (shown->vote[s] == MT_NO_VOTE) continue;
        char where[64];
        snprintf(where, sizeof where, "revealed[%d].seats[%d]", r, s);
        if (!play(read, state, s, shown->vote[s] == MT_UP ? MT_VOTE_UP : MT_VOTE_DOWN, where,
                  "'vote'"))
            return false;
    }
    return true;
}

/* The takes and eats of round r, youngest first, as far as the view shows
 * them: a take without its eat yet ends the round's moves. */
static bool play_takes(const reading *read, gateau_state *state, int r)
{
    const mt_state *g = read->g;
    const shown_round *shown = &read->rounds[r];
    for (int turn = 0; turn < g->players; turn++) {
        int seat = seat_at(g, r, g->players - 1 - turn);
        char where[64];
        snprintf(where, sizeof where, "revealed[%d].seats[%d]", r, seat);
        bool taking = g->phase == MT_PHASE_TAKE && shown->took[seat] >= 0;
        if (taking && !play(read, state, seat, MT_TAKE + shown->took[seat], where, "'took'"))
            return false;
        if (!shown->eat[seat]) return true;
        if (!play(read, state, seat, shown->eat[seat], where, "'ate'")) return false;
    }
    return true;
}

static bool play_again(const reading *read, gateau_state *state)
{
    if (!play_deal(read, state)) return false;
    for (int r = 0; r < read->revealed; r++) {
        char where[64];
        snprintf(where, sizeof where, "revealed[%d]", r);
        if (!play_keeps(read, state, r, read->g->players - 1, where) ||
            !play_votes(read, state, r) || !play_takes(read, state, r))
            return false;
    }
    if (read->phase != MT_PHASE_DRAFT) return true;
    const shown_draft *d = &read->draft;
    if (!play_keeps(read, state, read->round, d->drafter, "draft")) return false;
    return !d->keeping || play(read, state, seat_at(read->g, read->round, d->drafter),
                               MT_KEEP_LOW + d->keeping, "draft", "'keeping'");
}

bool mt_from_view(gateau_state *state, int seat, const json_t *view, char *error,
                  size_t error_size)
{
    view_error reasons = {error, error_size};
    reading read = {.g = GAME_STATE_CONST(mt_state, state), .seat = seat, .error = &reasons};
    if (!read_position(&read, view) || !read_revealed(&read, view)) return false;
    if (read.phase == MT_PHASE_DEAL) return true; /* nothing dealt yet: the state of init */
    if (read.phase == MT_PHASE_DRAFT && !read_draft(&read, view)) return false;
    return make_deal(&read) && play_again(&read, state);
}
