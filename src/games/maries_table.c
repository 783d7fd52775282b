/*
 * maries_table.c: Marie's Table / マリーの食卓 (Toshihiro Hachisuka,
 * Toydrop 2016), 3-5 players.
 *
 * Rules: ../shared/rules/maries-table.md.  One chance move deals every deck
 * of the game before round 1 (the cards left over stay in the box, never
 * seen); then one round per deck: draft, reveal, vote, takes.  How the moves
 * break into small actions:
 *
 *   deal   DEAL+value per card, deck after deck    "deal 123456/712334/..."
 *   keep   KEEP_LOW+a, then KEEP_HIGH+b (a <= b)    "keep 3 7"
 *   vote   VOTE_UP or VOTE_DOWN, simultaneous       "3: down"
 *   take   TAKE+seat (0-based) whose pair it is     "take 2"
 *   eat    EAT_NONE, EAT_ONE+value or EAT_BOTH     "eat", "eat 5", "eat 3 6"
 *
 * So a bot picks among at most 7 actions at a time.  The youngest's last
 * two cards of the draft are no decision, hence no move: the keep of the
 * brother before him completes the draft and reveals all pairs.
 *
 * Hidden information: the decks not yet played and the cards in the box;
 * during a draft, what the others kept.  A brother knows the hand he was
 * passed (the eldest saw the whole deck), so he knows the pair he kept and
 * what he passed on, but not how the brothers after him split it.  Those
 * hands are not stored twice: the hand a brother was passed is the hand now
 * being drafted plus the pairs kept from him onwards (hand_seen()), which
 * determinize() preserves.  Votes stay hidden until the last one is cast.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine.h"
#include "core/notation.h"

enum {
    VALUES = 7,     /* card values 1..7 */
    COPIES = 8,     /* cards of each value */
    CARDS = VALUES * COPIES,
    MAX_SEATS = 5,
    MAX_ROUNDS = 6,
    MAX_DECK = 10,
    MAX_DEALT = 50, /* 5 decks of 10 */
    EAT_LIMIT = 2,  /* cards a player may eat in the whole game */
};

/* Points for how many cards of one value a player kept (0..8). */
static const int KEPT_POINTS[COPIES + 1] = {0, -3, -1, 1, 3, 5, 6, 7, 8};

/* Actions.  Values are 1..7 everywhere, seats 0-based. */
enum {
    DEAL = 0,       /* + value */
    KEEP_LOW = 10,  /* + value: the lower card of a keep */
    KEEP_HIGH = 20, /* + value: the higher (or equal) card */
    VOTE_UP = 30,
    VOTE_DOWN = 31,
    TAKE = 40,      /* + seat whose pair is taken */
    EAT_NONE = 50,  /* keep both cards */
    EAT_ONE = 50,   /* + value (1..7): eat that card, keep the other */
    EAT_BOTH = 60,
};

typedef enum { PHASE_DEAL, PHASE_DRAFT, PHASE_VOTE, PHASE_TAKE, PHASE_EAT, PHASE_OVER } phase;

enum { NO_VOTE = 0, UP = 1, DOWN = 2 };

typedef struct mt_state {
    uint8_t players, rounds, deck_size, phase;
    uint8_t round;                  /* 0-based; stays at the last one when over */
    uint8_t dealt;                  /* cards of the decks dealt so far */
    uint8_t outside[VALUES + 1];    /* per value, cards in no deck (the box) */
    uint8_t cards[MAX_DEALT];       /* the decks, in play order */

    /* The round being played. */
    uint8_t turn;                   /* draft: the drafter's position; then takes done */
    uint8_t hand[VALUES + 1];       /* the hand being drafted, per value */
    uint8_t low;                    /* first card of an unfinished keep, 0 if none */

    /* Every round so far, public once the round's pairs are revealed. */
    uint8_t pair[MAX_ROUNDS][MAX_SEATS][2]; /* each seat's pair, ascending; 0 = none */
    uint8_t vote[MAX_ROUNDS][MAX_SEATS];    /* NO_VOTE, UP, DOWN */
    int8_t took[MAX_ROUNDS][MAX_SEATS];     /* whose pair the seat took, -1 = not yet */
    uint8_t ate[MAX_ROUNDS][MAX_SEATS];     /* the seat's eat action, 0 = not yet */

    /* Per seat, the game so far. */
    uint8_t kept[MAX_SEATS][VALUES + 1];
    uint8_t eaten[MAX_SEATS][VALUES + 1];
    uint8_t eaten_count[MAX_SEATS];
} mt_state;

/* ---- Rules helpers ------------------------------------------------------- */

/* 3 players: 6 decks of 6; 4 players: 5 of 8; 5 players: 5 of 10.  Every
 * deck is shared out in pairs, so a deck has two cards per player. */
static int decks_for(int players) { return players == 3 ? 6 : 5; }
static int deck_size_for(int players) { return 2 * players; }
static int dealt_total(const mt_state *g) { return g->rounds * g->deck_size; }

/* Seat 1 is the eldest of round 1; each round the youngest becomes the next
 * eldest, so the role moves one seat to the right (seat - 1) per round. */
static int eldest_of(const mt_state *g, int round)
{
    return (g->players - round % g->players) % g->players;
}

static int eldest(const mt_state *g) { return eldest_of(g, g->round); }

/* Position 0 is the eldest, 1 the brother to his left, ... players-1 the
 * youngest. */
static int seat_at(const mt_state *g, int position) { return (eldest(g) + position) % g->players; }
static int position_of(const mt_state *g, int seat)
{
    return (seat - eldest(g) + g->players) % g->players;
}
static int youngest(const mt_state *g) { return seat_at(g, g->players - 1); }

/* Takes go from the youngest counter-clockwise to the eldest. */
static int taker_at(const mt_state *g, int turn) { return seat_at(g, g->players - 1 - turn); }

static int hand_count(const uint8_t *counts)
{
    int n = 0;
    for (int v = 1; v <= VALUES; v++) n += counts[v];
    return n;
}

static int discontent(const mt_state *g, int round)
{
    int n = 0;
    for (int s = 0; s < g->players; s++) n += g->vote[round][s] == DOWN;
    return n;
}

static bool swapping(const mt_state *g, int round) { return discontent(g, round) >= 2; }

/* The seat that took seat's pair this round, or -1. */
static int taker_of(const mt_state *g, int round, int seat)
{
    for (int s = 0; s < g->players; s++)
        if (g->took[round][s] == seat) return s;
    return -1;
}

static int score_of(const mt_state *g, int seat)
{
    int score = g->eaten_count[seat];
    for (int v = 1; v <= VALUES; v++) score += KEPT_POINTS[g->kept[seat][v]];
    return score;
}

/* > 0 if seat a ranks above seat b: points, then kept 7s, 6s, ... 1s. */
static int compare_seats(const mt_state *g, int a, int b)
{
    int difference = score_of(g, a) - score_of(g, b);
    for (int v = VALUES; v >= 1 && difference == 0; v--)
        difference = g->kept[a][v] - g->kept[b][v];
    return difference;
}

/* The hand seat was passed this round (the whole deck for the eldest), if
 * the draft has reached him: the hand being drafted plus the pairs kept
 * from his position on.  False before he has received one. */
static bool hand_seen(const mt_state *g, int seat, uint8_t seen[VALUES + 1])
{
    if (g->phase != PHASE_DRAFT || seat < 0) return false;
    int k = position_of(g, seat);
    if (k > g->turn) return false;
    memcpy(seen, g->hand, VALUES + 1);
    for (int j = k; j < g->turn; j++) {
        const uint8_t *p = g->pair[g->round][seat_at(g, j)];
        seen[p[0]]++;
        seen[p[1]]++;
    }
    return true;
}

/* Can value a be the lower card of a keep from hand? */
static bool low_allowed(const uint8_t *hand, int a)
{
    if (!hand[a]) return false;
    if (hand[a] >= 2) return true;
    for (int b = a + 1; b <= VALUES; b++)
        if (hand[b]) return true;
    return false;
}

static bool high_allowed(const uint8_t *hand, int low, int b)
{
    return b >= low && hand[b] >= (b == low ? 2 : 1);
}

static void start_round(mt_state *g, gateau_state *state)
{
    g->phase = PHASE_DRAFT;
    g->turn = 0;
    g->low = 0;
    memset(g->hand, 0, sizeof g->hand);
    for (int i = 0; i < g->deck_size; i++) g->hand[g->cards[g->round * g->deck_size + i]]++;
    state_set_actor(state, eldest(g));
    state->in_move = false;
    state->simultaneous = false;
}

/* The next take (or, without a swap, the next eat), or the round's end. */
static void next_taker(mt_state *g, gateau_state *state)
{
    if (g->turn == g->players) {
        if (g->round + 1 == g->rounds) {
            g->phase = PHASE_OVER;
            state_set_over(state);
        } else {
            g->round++;
            start_round(g, state);
        }
        return;
    }
    int seat = taker_at(g, g->turn);
    if (swapping(g, g->round)) {
        g->phase = PHASE_TAKE;
    } else {
        g->took[g->round][seat] = (int8_t)seat;
        g->phase = PHASE_EAT;
    }
    state_set_actor(state, seat);
}

/* The youngest gets the last two cards; everyone turns his pair face up
 * and votes. */
static void reveal(mt_state *g, gateau_state *state)
{
    uint8_t *last = g->pair[g->round][youngest(g)];
    int n = 0;
    for (int v = 1; v <= VALUES; v++)
        while (g->hand[v]) {
            last[n++] = (uint8_t)v;
            g->hand[v]--;
        }
    g->phase = PHASE_VOTE;
    state->actors = (1u << g->players) - 1;
    state->chance = false;
    state->simultaneous = true;
}

/* ---- The game table's functions -------------------------------------------- */

static void mt_init(gateau_state *state)
{
    mt_state *g = GAME_STATE(mt_state, state);
    memset(g, 0, sizeof *g);
    g->players = (uint8_t)state->setup->players;
    g->rounds = (uint8_t)decks_for(g->players);
    g->deck_size = (uint8_t)deck_size_for(g->players);
    g->phase = PHASE_DEAL;
    for (int v = 1; v <= VALUES; v++) g->outside[v] = COPIES;
    memset(g->took, -1, sizeof g->took);
    state_set_chance(state);
    state->in_move = false;
}

static int mt_legal_actions(const gateau_state *state, int seat, gateau_action *actions)
{
    const mt_state *g = GAME_STATE_CONST(mt_state, state);
    int count = 0;
    switch (g->phase) {
    case PHASE_DRAFT:
        for (int v = 1; v <= VALUES; v++) {
            if (!g->low && low_allowed(g->hand, v)) actions[count++] = KEEP_LOW + v;
            if (g->low && high_allowed(g->hand, g->low, v)) actions[count++] = KEEP_HIGH + v;
        }
        break;
    case PHASE_VOTE:
        actions[count++] = VOTE_UP;
        actions[count++] = VOTE_DOWN;
        break;
    case PHASE_TAKE:
        for (int t = 0; t < g->players; t++)
            if (t != seat && taker_of(g, g->round, t) < 0) actions[count++] = TAKE + t;
        /* Only his own pair left: the eldest takes it. */
        if (!count) actions[count++] = TAKE + seat;
        break;
    case PHASE_EAT: {
        const uint8_t *p = g->pair[g->round][g->took[g->round][seat]];
        int left = EAT_LIMIT - g->eaten_count[seat];
        actions[count++] = EAT_NONE;
        if (left >= 1) {
            actions[count++] = EAT_ONE + p[0];
            if (p[1] != p[0]) actions[count++] = EAT_ONE + p[1];
        }
        if (left >= 2) actions[count++] = EAT_BOTH;
        break;
    }
    default:
        break;
    }
    return count;
}

static int mt_chance_outcomes(const gateau_state *state, gateau_action *outcomes,
                              double *probabilities)
{
    const mt_state *g = GAME_STATE_CONST(mt_state, state);
    int count = 0;
    double left = CARDS - g->dealt;
    for (int v = 1; v <= VALUES; v++) {
        if (!g->outside[v]) continue;
        outcomes[count] = DEAL + v;
        probabilities[count++] = g->outside[v] / left;
    }
    return count;
}

/* One card drawn uniformly from pool (counts per value, *left in all). */
static int draw(uint8_t *pool, int *left, gateau_rng *rng)
{
    int r = (int)gateau_rng_below(rng, (uint32_t)*left);
    int v = 1;
    while (r >= pool[v]) r -= pool[v++];
    pool[v]--;
    (*left)--;
    return v;
}

static gateau_action mt_sample_chance(const gateau_state *state, gateau_rng *rng)
{
    const mt_state *g = GAME_STATE_CONST(mt_state, state);
    uint8_t pool[VALUES + 1];
    memcpy(pool, g->outside, sizeof pool);
    int left = CARDS - g->dealt;
    return DEAL + draw(pool, &left, rng);
}

static void apply_keep_high(mt_state *g, gateau_state *state, int high)
{
    int seat = seat_at(g, g->turn);
    uint8_t *p = g->pair[g->round][seat];
    p[0] = g->low;
    p[1] = (uint8_t)high;
    g->hand[g->low]--;
    g->hand[high]--;
    g->low = 0;
    g->turn++;
    state->in_move = false;
    if (g->turn == g->players - 1) reveal(g, state);
    else state_set_actor(state, seat_at(g, g->turn));
}

static void apply_vote(mt_state *g, gateau_state *state, int seat, int vote)
{
    g->vote[g->round][seat] = (uint8_t)vote;
    state->actors &= ~(1u << seat);
    if (state->actors) return;
    state->simultaneous = false;
    g->turn = 0;
    next_taker(g, state);
}

static void apply_eat(mt_state *g, gateau_state *state, int seat, gateau_action action)
{
    const uint8_t *p = g->pair[g->round][g->took[g->round][seat]];
    int eaten[2] = {0, 0}, count = 0;
    if (action == EAT_BOTH) {
        eaten[count++] = p[0];
        eaten[count++] = p[1];
    } else if (action != EAT_NONE) {
        eaten[count++] = action - EAT_ONE;
    }
    uint8_t left[VALUES + 1] = {0};
    left[p[0]]++;
    left[p[1]]++;
    for (int i = 0; i < count; i++) {
        left[eaten[i]]--;
        g->eaten[seat][eaten[i]]++;
    }
    g->eaten_count[seat] = (uint8_t)(g->eaten_count[seat] + count);
    for (int v = 1; v <= VALUES; v++) g->kept[seat][v] = (uint8_t)(g->kept[seat][v] + left[v]);
    g->ate[g->round][seat] = (uint8_t)action;
    g->turn++;
    next_taker(g, state);
}

static void mt_apply(gateau_state *state, int seat, gateau_action action)
{
    mt_state *g = GAME_STATE(mt_state, state);
    if (action < KEEP_LOW) {
        g->cards[g->dealt++] = (uint8_t)(action - DEAL);
        g->outside[action - DEAL]--;
        state->in_move = g->dealt < dealt_total(g);
        if (!state->in_move) start_round(g, state);
    } else if (action < KEEP_HIGH) {
        g->low = (uint8_t)(action - KEEP_LOW);
        state->in_move = true;
    } else if (action < VOTE_UP) {
        apply_keep_high(g, state, action - KEEP_HIGH);
    } else if (action <= VOTE_DOWN) {
        apply_vote(g, state, seat, action == VOTE_UP ? UP : DOWN);
    } else if (action < EAT_NONE) {
        g->took[g->round][seat] = (int8_t)(action - TAKE);
        g->phase = PHASE_EAT;
        state_set_actor(state, seat);
    } else {
        apply_eat(g, state, seat, action);
    }
}

static void mt_scores(const gateau_state *state, int *scores)
{
    const mt_state *g = GAME_STATE_CONST(mt_state, state);
    for (int s = 0; s < g->players; s++) scores[s] = score_of(g, s);
}

static uint32_t mt_winners(const gateau_state *state)
{
    const mt_state *g = GAME_STATE_CONST(mt_state, state);
    uint32_t winners = 0;
    for (int s = 0; s < g->players; s++) {
        bool beaten = false;
        for (int t = 0; t < g->players; t++) beaten |= compare_seats(g, t, s) > 0;
        if (!beaten) winners |= 1u << s;
    }
    return winners;
}

/* The cards whose place seat does not know (GATEAU_OBSERVER: nobody's
 * knowledge but the public): every card, less the revealed pairs, less
 * during a draft the hand seat was passed.  They lie in unplayed decks, in
 * the box, or (during a draft) in pairs or hands seat has not seen. */
static void unseen_cards(const mt_state *g, int seat, uint8_t pool[VALUES + 1])
{
    pool[0] = 0;
    for (int v = 1; v <= VALUES; v++) pool[v] = COPIES;
    if (g->phase == PHASE_DEAL) return;
    int revealed = g->phase == PHASE_DRAFT ? g->round : g->round + 1;
    for (int r = 0; r < revealed; r++)
        for (int s = 0; s < g->players; s++) {
            pool[g->pair[r][s][0]]--;
            pool[g->pair[r][s][1]]--;
        }
    uint8_t seen[VALUES + 1];
    if (hand_seen(g, seat, seen))
        for (int v = 1; v <= VALUES; v++) pool[v] = (uint8_t)(pool[v] - seen[v]);
}

static void draw_pair(uint8_t *pair, uint8_t *pool, int *left, gateau_rng *rng)
{
    int a = draw(pool, left, rng), b = draw(pool, left, rng);
    pair[0] = (uint8_t)(a < b ? a : b);
    pair[1] = (uint8_t)(a < b ? b : a);
}

static void draw_hand(uint8_t *hand, int count, uint8_t *pool, int *left, gateau_rng *rng)
{
    memset(hand, 0, VALUES + 1);
    for (int i = 0; i < count; i++) hand[draw(pool, left, rng)]++;
}

/* Resamples the current draft for seat: the pairs and the hand it has not
 * seen come from the unseen cards; the pairs kept after it, and the hand
 * now drafted, are a reshuffle of what it passed on. */
static void determinize_draft(mt_state *g, int seat, uint8_t *pool, int *left, gateau_rng *rng)
{
    int p = g->turn, size = hand_count(g->hand);
    int k = seat >= 0 ? position_of(g, seat) : g->players;
    uint8_t passed[VALUES + 1] = {0};
    int passed_left = 0;
    if (k < p) {
        hand_seen(g, seat, passed);
        const uint8_t *own = g->pair[g->round][seat];
        passed[own[0]]--;
        passed[own[1]]--;
        passed_left = hand_count(passed);
    }
    for (int j = 0; j < p; j++) {
        uint8_t *pair = g->pair[g->round][seat_at(g, j)];
        if (j < k) draw_pair(pair, pool, left, rng);
        else if (j > k) draw_pair(pair, passed, &passed_left, rng);
    }
    if (k > p) draw_hand(g->hand, size, pool, left, rng);
    else if (k < p) draw_hand(g->hand, size, passed, &passed_left, rng);
    /* An unfinished keep by someone else: its first card is unknown too. */
    if (g->low && k != p) {
        int options[VALUES], n = 0;
        for (int v = 1; v <= VALUES; v++)
            if (low_allowed(g->hand, v)) options[n++] = v;
        g->low = (uint8_t)options[gateau_rng_below(rng, (uint32_t)n)];
    }
    /* Keep the deck consistent with its pairs and hand. */
    uint8_t *deck = g->cards + g->round * g->deck_size;
    int n = 0;
    for (int j = 0; j < p; j++) {
        deck[n++] = g->pair[g->round][seat_at(g, j)][0];
        deck[n++] = g->pair[g->round][seat_at(g, j)][1];
    }
    for (int v = 1; v <= VALUES; v++)
        for (int c = 0; c < g->hand[v]; c++) deck[n++] = (uint8_t)v;
}

static void mt_determinize(gateau_state *state, int seat, gateau_rng *rng)
{
    mt_state *g = GAME_STATE(mt_state, state);
    if (g->phase == PHASE_OVER) return;
    uint8_t pool[VALUES + 1];
    unseen_cards(g, seat, pool);
    int left = hand_count(pool);
    if (g->phase == PHASE_DEAL) {
        for (int i = 0; i < g->dealt; i++) g->cards[i] = (uint8_t)draw(pool, &left, rng);
        memcpy(g->outside, pool, sizeof pool);
        return;
    }
    if (g->phase == PHASE_DRAFT) determinize_draft(g, seat, pool, &left, rng);
    for (int i = (g->round + 1) * g->deck_size; i < dealt_total(g); i++)
        g->cards[i] = (uint8_t)draw(pool, &left, rng);
    memcpy(g->outside, pool, sizeof pool);
    if (g->phase == PHASE_VOTE)
        for (int s = 0; s < g->players; s++)
            if (s != seat && g->vote[g->round][s] != NO_VOTE)
                g->vote[g->round][s] = (uint8_t)(gateau_rng_below(rng, 2) ? DOWN : UP);
}

/* ---- Notation --------------------------------------------------------------- */

/* "1 2 3 3 5 7" */
static void append_counts(gateau_text *out, const uint8_t *counts)
{
    int shown = 0;
    for (int v = 1; v <= VALUES; v++)
        for (int c = 0; c < counts[v]; c++) text_append(out, shown++ ? " %d" : "%d", v);
    if (!shown) text_append(out, "nothing");
}

/* The values a seat eats with an eat action on pair p: how many, in out. */
static int eaten_by(gateau_action action, const uint8_t *p, int out[2])
{
    if (action == EAT_BOTH) {
        out[0] = p[0];
        out[1] = p[1];
        return 2;
    }
    if (action == EAT_NONE) return 0;
    out[0] = action - EAT_ONE;
    return 1;
}

static void mt_format_move(const gateau_state *before, int seat, const gateau_action *actions,
                           int count, gateau_text *out)
{
    const mt_state *g = GAME_STATE_CONST(mt_state, before);
    gateau_action first = actions[0];
    if (first < KEEP_LOW) {
        text_append(out, "deal ");
        for (int i = 0; i < count; i++) {
            if (i && i % g->deck_size == 0) text_append_char(out, '/');
            text_append_char(out, (char)('0' + actions[i] - DEAL));
        }
    } else if (first < KEEP_HIGH) {
        text_append(out, "keep %d %d", first - KEEP_LOW, count > 1 ? actions[1] - KEEP_HIGH : 0);
    } else if (first <= VOTE_DOWN) {
        text_append(out, first == VOTE_UP ? "up" : "down");
    } else if (first < EAT_NONE) {
        text_append(out, "take %d", first - TAKE + 1);
    } else {
        int eaten[2];
        int n = eaten_by(first, g->pair[g->round][g->took[g->round][seat]], eaten);
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
    int counts[VALUES + 1] = {0}, decks = 1, in_deck = 0, total = 0;
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
            if (*c < '1' || *c > '0' + VALUES) {
                set_error(error, error_size, "'%c' is neither a card value (1 to 7) nor '/'", *c);
                return -1;
            }
            if (decks > g->rounds) {
                set_error(error, error_size, "a %d-player deal has %d decks, not more",
                          g->players, g->rounds);
                return -1;
            }
            int v = *c - '0';
            if (++counts[v] > COPIES) {
                set_error(error, error_size, "the deal has more than %d cards of value %d",
                          COPIES, v);
                return -1;
            }
            actions[total++] = DEAL + v;
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
    if (w->count != 3 || !notation_int(w->word[1], 1, VALUES, &a) ||
        !notation_int(w->word[2], 1, VALUES, &b)) {
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
        append_counts(&hand, g->hand);
        set_error(error, error_size, "your hand (%s) has %s %d", hand.data,
                  g->hand[missing] ? "only one" : "no", missing);
        text_free(&hand);
        return -1;
    }
    actions[0] = KEEP_LOW + a;
    actions[1] = KEEP_HIGH + b;
    return 2;
}

static void list_open_pairs(const mt_state *g, gateau_text *out)
{
    int listed = 0;
    for (int t = 0; t < g->players; t++)
        if (taker_of(g, g->round, t) < 0) text_append(out, listed++ ? ", %d" : "%d", t + 1);
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
    int by = taker_of(g, g->round, t);
    if (by >= 0) {
        set_error(error, error_size, "seat %d's pair was already taken by seat %d", t + 1, by + 1);
        return -1;
    }
    int open = 0; /* other pairs still on the table */
    for (int u = 0; u < g->players; u++) open += u != seat && taker_of(g, g->round, u) < 0;
    if (t == seat && open) {
        gateau_text left = {0};
        list_open_pairs(g, &left);
        set_error(error, error_size, "seat %d's pair is your own: take another one (on the "
                                     "table: seats %s)", t + 1, left.data);
        text_free(&left);
        return -1;
    }
    actions[0] = TAKE + t;
    return 1;
}

static int parse_eat(const mt_state *g, int seat, const notation_words *w,
                     gateau_action *actions, char *error, size_t error_size)
{
    const uint8_t *p = g->pair[g->round][g->took[g->round][seat]];
    int n = w->count - 1, left = EAT_LIMIT - g->eaten_count[seat];
    if (n > 2) {
        set_error(error, error_size, "'eat' takes 0, 1 or 2 values of your pair (%d %d)", p[0],
                  p[1]);
        return -1;
    }
    uint8_t in_pair[VALUES + 1] = {0};
    in_pair[p[0]]++;
    in_pair[p[1]]++;
    for (int i = 1; i <= n; i++) {
        int v;
        if (!notation_int(w->word[i], 1, VALUES, &v)) {
            set_error(error, error_size, "'%s' is not a card value (1 to 7)", w->word[i]);
            return -1;
        }
        if (!in_pair[v]) {
            set_error(error, error_size, "your pair is %d %d: there is no %s%d to eat", p[0], p[1],
                      n == 2 && (p[0] == v || p[1] == v) ? "second " : "", v);
            return -1;
        }
        in_pair[v]--;
        actions[0] = EAT_ONE + v;
    }
    if (n > left) {
        set_error(error, error_size, "seat %d has eaten %d card%s already and may eat %d more "
                                     "(at most %d per game)", seat + 1, g->eaten_count[seat],
                  g->eaten_count[seat] == 1 ? "" : "s", left, EAT_LIMIT);
        return -1;
    }
    if (n == 0) actions[0] = EAT_NONE;
    if (n == 2) actions[0] = EAT_BOTH;
    return 1;
}

static int mt_parse_move(const gateau_state *state, int seat, const char *text,
                         gateau_action *actions, char *error, size_t error_size)
{
    const mt_state *g = GAME_STATE_CONST(mt_state, state);
    notation_words w;
    if (!notation_split(text, &w) || w.count == 0) {
        set_error(error, error_size, "empty or overlong move");
        return -1;
    }
    const char *verb = w.word[0];
    static const char *const expected[] = {
        [PHASE_DEAL] = "the deal ('deal' and the decks, as in 'deal 123456/712334/...')",
        [PHASE_DRAFT] = "a keep, as in 'keep 3 7'",
        [PHASE_VOTE] = "a vote, 'up' or 'down'",
        [PHASE_TAKE] = "a take, as in 'take 2'",
        [PHASE_EAT] = "'eat' and the values eaten, if any, as in 'eat', 'eat 5'",
        [PHASE_OVER] = "nothing: the game is over",
    };
    static const char *const verbs[] = {
        [PHASE_DEAL] = "deal", [PHASE_DRAFT] = "keep", [PHASE_TAKE] = "take", [PHASE_EAT] = "eat"};
    bool fits = g->phase == PHASE_VOTE ? !strcmp(verb, "up") || !strcmp(verb, "down")
                                       : g->phase != PHASE_OVER && !strcmp(verb, verbs[g->phase]);
    if (!fits) {
        set_error(error, error_size, "expected %s, not '%s'", expected[g->phase], verb);
        return -1;
    }
    switch (g->phase) {
    case PHASE_DEAL: return parse_deal(g, &w, actions, error, error_size);
    case PHASE_DRAFT: return parse_keep(g, &w, actions, error, error_size);
    case PHASE_TAKE: return parse_take(g, seat, &w, actions, error, error_size);
    case PHASE_EAT: return parse_eat(g, seat, &w, actions, error, error_size);
    default: break;
    }
    if (w.count != 1) {
        set_error(error, error_size, "a vote is just 'up' or 'down'");
        return -1;
    }
    actions[0] = !strcmp(verb, "up") ? VOTE_UP : VOTE_DOWN;
    return 1;
}

static void mt_action_name(const gateau_state *state, int seat, gateau_action action,
                           gateau_text *out)
{
    const mt_state *g = GAME_STATE_CONST(mt_state, state);
    if (action < KEEP_LOW) text_append(out, "deal %d", action - DEAL);
    else if (action < KEEP_HIGH) text_append(out, "keep %d", action - KEEP_LOW);
    else if (action < VOTE_UP) text_append(out, "and %d", action - KEEP_HIGH);
    else if (action <= VOTE_DOWN) text_append(out, action == VOTE_UP ? "up" : "down");
    else if (action < EAT_NONE) text_append(out, "take %d", action - TAKE + 1);
    else {
        int eaten[2];
        int n = eaten_by(action, g->pair[g->round][g->took[g->round][seat]], eaten);
        text_append(out, "eat");
        for (int i = 0; i < n; i++) text_append(out, " %d", eaten[i]);
    }
}

/* ---- Views -------------------------------------------------------------------- */

static const char *const VALUE_COLOR[VALUES + 1] = {
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
    for (int v = 1; v <= VALUES; v++)
        for (int c = 0; c < counts[v]; c++) {
            if (shown++) text_append_char(out, ' ');
            append_card(out, v, color);
        }
    if (!shown) text_append(out, "nothing");
}

static const char *role_name(const mt_state *g, int seat)
{
    if (seat == eldest(g)) return "eldest";
    if (seat == youngest(g)) return "youngest";
    return "";
}

/* What the viewer knows of the current draft. */
static void view_draft(const mt_state *g, int viewer, bool color, gateau_text *out)
{
    int drafter = seat_at(g, g->turn);
    text_append(out, "Draft: ");
    for (int j = 0; j < g->turn; j++)
        text_append(out, "%sseat %d", j ? ", " : "", seat_at(g, j) + 1);
    if (g->turn) text_append(out, " kept 2 cards face down; ");
    text_append(out, "seat %d%s keeps 2 of %d cards.\n", drafter + 1,
                drafter == viewer ? " (you)" : "", hand_count(g->hand));
    uint8_t seen[VALUES + 1];
    if (!hand_seen(g, viewer, seen)) {
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
    uint8_t passed[VALUES + 1];
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
    int n = eaten_by(g->ate[round][seat], p, eaten);
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
    bool votes_in = g->phase != PHASE_VOTE;
    text_append(out, "Pairs on the table:\n");
    for (int j = 0; j < g->players; j++) {
        int s = seat_at(g, j);
        const uint8_t *p = g->pair[r][s];
        text_append(out, "  seat %d %-9s ", s + 1, role_name(g, s));
        append_card(out, p[0], color);
        text_append(out, " ");
        append_card(out, p[1], color);
        int vote = g->vote[r][s];
        if (vote == NO_VOTE)
            text_append(out, "   %-5s", "...");
        else if (votes_in || s == viewer)
            text_append(out, "   %-5s", vote == UP ? "up" : "down");
        else
            text_append(out, "   %s%-5s%s", color ? COLOR_DIM : "", "voted",
                        color ? COLOR_RESET : "");
        int by = taker_of(g, r, s);
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
        int n = discontent(g, r);
        text_append(out, "  %d discontent: %s\n", n,
                    n >= 2 ? "the pairs change hands, youngest first"
                           : "everyone takes his own pair, youngest first");
    }
}

static void view_seats(const mt_state *g, int viewer, bool color, gateau_text *out)
{
    text_append(out, "\n  %-14s", "kept cards");
    for (int v = 1; v <= VALUES; v++) {
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
        for (int v = 1; v <= VALUES; v++) {
            if (g->kept[s][v]) text_append(out, "%3d", g->kept[s][v]);
            else text_append(out, "  .");
        }
        text_append(out, "  %3d/%d  %6d\n", g->eaten_count[s], EAT_LIMIT, score_of(g, s));
    }
}

static void view_unseen(const mt_state *g, int viewer, gateau_text *out)
{
    uint8_t pool[VALUES + 1];
    unseen_cards(g, viewer, pool);
    int to_come = g->rounds - g->round - (g->phase != PHASE_DEAL);
    text_append(out, "\nCards %s: %d (of 1..7:",
                viewer >= 0 ? "you have not seen" : "not shown yet", hand_count(pool));
    for (int v = 1; v <= VALUES; v++) text_append(out, " %d", pool[v]);
    text_append(out, ")");
    if (to_come) text_append(out, "; %d deck%s to come", to_come, to_come == 1 ? "" : "s");
    text_append(out, "; %d in the box.\n", CARDS - dealt_total(g));
}

/* The value that broke the tie between two seats on equal points, or 0. */
static int deciding_value(const mt_state *g, int a, int b)
{
    if (score_of(g, a) != score_of(g, b)) return 0;
    for (int v = VALUES; v >= 1; v--)
        if (g->kept[a][v] != g->kept[b][v]) return v;
    return 0;
}

static void view_result(const gateau_state *state, const mt_state *g, bool color,
                        gateau_text *out)
{
    text_append(out, "\nFinal scoring (kept cards of a value: points):\n  value   ");
    for (int s = 0; s < g->players; s++) text_append(out, "  seat %d ", s + 1);
    text_append_char(out, '\n');
    for (int v = VALUES; v >= 1; v--) {
        text_append(out, "  ");
        append_card(out, v, color);
        text_append(out, "       ");
        for (int s = 0; s < g->players; s++) {
            int n = g->kept[s][v];
            if (n) text_append(out, "  %d: %+-3d ", n, KEPT_POINTS[n]);
            else text_append(out, "  .      ");
        }
        text_append_char(out, '\n');
    }
    text_append(out, "  eaten   ");
    for (int s = 0; s < g->players; s++)
        text_append(out, "  %d: %+-3d ", g->eaten_count[s], g->eaten_count[s]);
    text_append(out, "\n  total   ");
    for (int s = 0; s < g->players; s++) text_append(out, "  %-6d ", score_of(g, s));
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
    case PHASE_DEAL: text_append(out, "The cards are being shuffled into decks.\n"); break;
    case PHASE_DRAFT:
        text_append(out, "Seat %d is to keep 2 cards.\n", seat_at(g, g->turn) + 1);
        break;
    case PHASE_VOTE:
        text_append(out, "Vote (everyone, secretly): still to vote:");
        for (int s = 0, listed = 0; s < g->players; s++)
            if (state->actors & (1u << s))
                text_append(out, "%s seat %d%s", listed++ ? "," : "", s + 1,
                            s == viewer ? " (you)" : "");
        text_append_char(out, '\n');
        break;
    case PHASE_TAKE:
        text_append(out, "Seat %d is to take a pair.\n", taker_at(g, g->turn) + 1);
        break;
    case PHASE_EAT: {
        int s = taker_at(g, g->turn);
        const uint8_t *p = g->pair[g->round][g->took[g->round][s]];
        text_append(out, "Seat %d is to keep or eat %d %d (eaten so far: %d of %d).\n", s + 1,
                    p[0], p[1], g->eaten_count[s], EAT_LIMIT);
        break;
    }
    default: break;
    }
}

static void mt_view_text(const gateau_state *state, int seat, bool color, gateau_text *out)
{
    const mt_state *g = GAME_STATE_CONST(mt_state, state);
    text_append(out, "Marie's Table, round %d of %d (%d players, decks of %d)\n", g->round + 1,
                g->rounds, g->players, g->deck_size);
    if (g->phase != PHASE_DEAL) {
        text_append(out, "Brothers, eldest first:");
        for (int j = 0; j < g->players; j++) {
            int s = seat_at(g, j);
            const char *role = j == 0 ? "eldest" : j == g->players - 1 ? "youngest" : "";
            text_append(out, "%s seat %d", j ? "," : "", s + 1);
            if (role[0] || s == seat)
                text_append(out, " (%s%s%s)", role, role[0] && s == seat ? ", " : "",
                            s == seat ? "you" : "");
        }
        text_append(out, "\n\n");
    }
    if (g->phase == PHASE_DRAFT) view_draft(g, seat, color, out);
    else if (g->phase != PHASE_DEAL) view_table(g, seat, color, out);
    view_seats(g, seat, color, out);
    view_unseen(g, seat, out);
    if (g->phase == PHASE_OVER) view_result(state, g, color, out);
    else view_to_act(state, g, seat, out);
}

static json_t *counts_json(const uint8_t *counts)
{
    json_t *object = json_object();
    for (int v = 1; v <= VALUES; v++) {
        char key[2] = {(char)('0' + v), '\0'};
        json_object_set_new(object, key, json_integer(counts[v]));
    }
    return object;
}

static json_t *cards_json(const uint8_t *counts)
{
    json_t *list = json_array();
    for (int v = 1; v <= VALUES; v++)
        for (int c = 0; c < counts[v]; c++) json_array_append_new(list, json_integer(v));
    return list;
}

static json_t *seat_or_null(int seat) { return seat >= 0 ? json_integer(seat + 1) : json_null(); }

/* One revealed round: per seat its pair, its vote (hidden from the others
 * until all have voted), whose pair it took and what it ate. */
static json_t *round_json(const mt_state *g, int r, int viewer)
{
    bool current = r == g->round && g->phase != PHASE_OVER;
    bool votes_in = !(current && g->phase == PHASE_VOTE);
    json_t *item = json_object();
    json_object_set_new(item, "round", json_integer(r + 1));
    json_object_set_new(item, "eldest", json_integer(eldest_of(g, r) + 1));
    json_t *seats = json_array();
    for (int s = 0; s < g->players; s++) {
        json_t *row = json_object();
        const uint8_t *p = g->pair[r][s];
        json_object_set_new(row, "seat", json_integer(s + 1));
        json_object_set_new(row, "pair", json_pack("[ii]", p[0], p[1]));
        int vote = g->vote[r][s];
        const char *shown = vote == NO_VOTE               ? NULL
                            : votes_in || s == viewer     ? (vote == UP ? "up" : "down")
                                                          : "hidden";
        json_object_set_new(row, "vote", shown ? json_string(shown) : json_null());
        json_object_set_new(row, "took", seat_or_null(g->took[r][s]));
        json_object_set_new(row, "taken_by", seat_or_null(taker_of(g, r, s)));
        if (g->ate[r][s]) {
            int eaten[2];
            int n = eaten_by(g->ate[r][s], g->pair[r][g->took[r][s]], eaten);
            json_t *list = json_array();
            for (int i = 0; i < n; i++) json_array_append_new(list, json_integer(eaten[i]));
            json_object_set_new(row, "ate", list);
        } else {
            json_object_set_new(row, "ate", json_null());
        }
        json_array_append_new(seats, row);
    }
    json_object_set_new(item, "seats", seats);
    if (votes_in) {
        json_object_set_new(item, "discontent", json_integer(discontent(g, r)));
        json_object_set_new(item, "swap", json_boolean(swapping(g, r)));
    }
    return item;
}

static json_t *mt_view_json(const gateau_state *state, int seat)
{
    const mt_state *g = GAME_STATE_CONST(mt_state, state);
    static const char *const phase_names[] = {"deal", "draft", "vote", "take", "eat", "over"};
    json_t *view = json_object();
    json_object_set_new(view, "game", json_string("maries-table"));
    json_object_set_new(view, "seat", seat_or_null(seat));
    json_object_set_new(view, "players", json_integer(g->players));
    json_object_set_new(view, "round", json_integer(g->round + 1));
    json_object_set_new(view, "rounds", json_integer(g->rounds));
    json_object_set_new(view, "deck_size", json_integer(g->deck_size));
    json_object_set_new(view, "phase", json_string(phase_names[g->phase]));
    if (g->phase != PHASE_DEAL) {
        json_t *order = json_array();
        for (int j = 0; j < g->players; j++)
            json_array_append_new(order, json_integer(seat_at(g, j) + 1));
        json_object_set_new(view, "brothers", order); /* eldest first, youngest last */
    }
    json_t *to_act = json_array();
    for (int s = 0; s < g->players; s++)
        if (state->actors & (1u << s)) json_array_append_new(to_act, json_integer(s + 1));
    json_object_set_new(view, "to_act", to_act);
    if (g->phase == PHASE_DRAFT) {
        json_t *draft = json_object();
        json_object_set_new(draft, "drafter", json_integer(seat_at(g, g->turn) + 1));
        json_object_set_new(draft, "hand_size", json_integer(hand_count(g->hand)));
        json_t *done = json_array();
        for (int j = 0; j < g->turn; j++)
            json_array_append_new(done, json_integer(seat_at(g, j) + 1));
        json_object_set_new(draft, "kept_face_down", done);
        uint8_t seen[VALUES + 1];
        if (hand_seen(g, seat, seen)) {
            /* The hand this seat was passed: all it knows of the deck. */
            json_object_set_new(draft, "seen", cards_json(seen));
            if (position_of(g, seat) < g->turn) {
                const uint8_t *own = g->pair[g->round][seat];
                json_object_set_new(draft, "kept", json_pack("[ii]", own[0], own[1]));
                seen[own[0]]--;
                seen[own[1]]--;
                json_object_set_new(draft, "passed", cards_json(seen));
            } else if (g->low) {
                json_object_set_new(draft, "keeping", json_integer(g->low));
            }
        }
        json_object_set_new(view, "draft", draft);
    }
    json_t *revealed = json_array();
    int shown = g->phase == PHASE_DRAFT || g->phase == PHASE_DEAL ? g->round : g->round + 1;
    if (g->phase == PHASE_DEAL) shown = 0;
    for (int r = 0; r < shown; r++) json_array_append_new(revealed, round_json(g, r, seat));
    json_object_set_new(view, "revealed", revealed);
    json_t *seats = json_array();
    for (int s = 0; s < g->players; s++) {
        json_t *item = json_object();
        json_object_set_new(item, "seat", json_integer(s + 1));
        json_object_set_new(item, "kept", counts_json(g->kept[s]));
        json_object_set_new(item, "eaten", json_integer(g->eaten_count[s]));
        json_object_set_new(item, "eaten_values", counts_json(g->eaten[s]));
        json_object_set_new(item, "score", json_integer(score_of(g, s)));
        json_array_append_new(seats, item);
    }
    json_object_set_new(view, "seats", seats);
    uint8_t pool[VALUES + 1];
    unseen_cards(g, seat, pool);
    json_object_set_new(view, "unseen", counts_json(pool));
    if (g->phase == PHASE_OVER) {
        uint32_t winners = mt_winners(state);
        json_t *list = json_array();
        for (int s = 0; s < g->players; s++)
            if (winners & (1u << s)) json_array_append_new(list, json_integer(s + 1));
        json_object_set_new(view, "winners", list);
    }
    return view;
}

static void describe_reveal(const mt_state *after, gateau_text *out)
{
    text_append(out, "; seat %d gets the last 2. The pairs are turned up:", youngest(after) + 1);
    for (int j = 0; j < after->players; j++) {
        int s = seat_at(after, j);
        const uint8_t *p = after->pair[after->round][s];
        text_append(out, "%s seat %d %d %d", j ? "," : "", s + 1, p[0], p[1]);
    }
}

static void mt_describe_move(const gateau_state *before, int seat, const gateau_action *actions,
                             int count, int viewer, gateau_text *out)
{
    const mt_state *g = GAME_STATE_CONST(mt_state, before);
    gateau_action first = actions[0];
    if (seat == GATEAU_CHANCE) {
        text_append(out, "The cards are shuffled into %d face-down decks of %d; %d stay in the "
                         "box unseen.", g->rounds, g->deck_size, CARDS - dealt_total(g));
        return;
    }
    /* The state after the move, for what it reveals. */
    gateau_state *after = gateau_state_clone(before);
    for (int i = 0; i < count; i++) gateau_state_apply_legal(after, seat, actions[i]);
    const mt_state *a = GAME_STATE_CONST(mt_state, after);
    if (first < KEEP_HIGH) {
        int next = seat_at(g, g->turn + 1), passed = hand_count(g->hand) - 2;
        if (viewer == seat)
            text_append(out, "seat %d keeps %d %d and passes %d cards to seat %d", seat + 1,
                        first - KEEP_LOW, actions[1] - KEEP_HIGH, passed, next + 1);
        else
            text_append(out, "seat %d keeps 2 cards face down and passes %d to seat %d",
                        seat + 1, passed, next + 1);
        if (a->phase == PHASE_VOTE) describe_reveal(a, out);
    } else if (first <= VOTE_DOWN) {
        if (viewer == seat)
            text_append(out, "seat %d votes %s", seat + 1, first == VOTE_UP ? "up" : "down");
        else text_append(out, "seat %d has voted", seat + 1);
        if (a->phase != PHASE_VOTE) {
            int r = g->round, n = discontent(a, r);
            text_append(out, ". The votes:");
            for (int s = 0; s < g->players; s++)
                text_append(out, "%s seat %d %s", s ? "," : "", s + 1,
                            a->vote[r][s] == UP ? "up" : "down");
            text_append(out, "; %d discontent, so %s", n,
                        n >= 2 ? "the pairs change hands" : "everyone takes his own pair");
        }
    } else if (first < EAT_NONE) {
        int t = first - TAKE;
        const uint8_t *p = g->pair[g->round][t];
        if (t == seat)
            text_append(out, "seat %d takes his own pair %d %d, the only one left", seat + 1,
                        p[0], p[1]);
        else
            text_append(out, "seat %d takes seat %d's pair %d %d", seat + 1, t + 1, p[0], p[1]);
    } else {
        const uint8_t *p = g->pair[g->round][g->took[g->round][seat]];
        int eaten[2];
        int n = eaten_by(first, p, eaten);
        if (n == 0) text_append(out, "seat %d keeps %d %d", seat + 1, p[0], p[1]);
        else if (n == 2) text_append(out, "seat %d eats %d %d", seat + 1, p[0], p[1]);
        else
            text_append(out, "seat %d eats %d and keeps %d", seat + 1, eaten[0],
                        p[0] == eaten[0] ? p[1] : p[0]);
    }
    gateau_state_free(after);
}

static void mt_describe_legal(const gateau_state *state, int seat, gateau_text *out)
{
    const mt_state *g = GAME_STATE_CONST(mt_state, state);
    switch (g->phase) {
    case PHASE_DRAFT: {
        text_append(out, "keep two cards of your hand (");
        append_counts(out, g->hand);
        text_append(out, ") and pass the rest to seat %d:", seat_at(g, g->turn + 1) + 1);
        int listed = 0;
        for (int a = 1; a <= VALUES; a++) {
            if (!low_allowed(g->hand, a)) continue;
            for (int b = a; b <= VALUES; b++)
                if (high_allowed(g->hand, a, b)) {
                    text_append(out, "%skeep %d %d", !listed ? "\n  " : listed % 6 ? ", " : ",\n  ",
                                a, b);
                    listed++;
                }
        }
        break;
    }
    case PHASE_VOTE:
        text_append(out, "up     content with the pairs\n"
                         "down   discontent: with 2 or more down, the pairs change hands");
        break;
    case PHASE_TAKE: {
        gateau_action actions[GATEAU_MAX_ACTIONS];
        int count = mt_legal_actions(state, seat, actions);
        for (int i = 0; i < count; i++) {
            int t = actions[i] - TAKE;
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
    case PHASE_EAT: {
        const uint8_t *p = g->pair[g->round][g->took[g->round][seat]];
        gateau_action actions[GATEAU_MAX_ACTIONS];
        int count = mt_legal_actions(state, seat, actions);
        for (int i = 0; i < count; i++) {
            int eaten[2];
            int n = eaten_by(actions[i], p, eaten);
            if (n == 0) text_append(out, "eat       keep both (%d %d)", p[0], p[1]);
            else if (n == 1)
                text_append(out, "\neat %d     eat it, keep %d", eaten[0],
                            p[0] == eaten[0] ? p[1] : p[0]);
            else text_append(out, "\neat %d %d   eat both", p[0], p[1]);
        }
        text_append(out, "\n(you have eaten %d of the %d cards allowed per game)",
                    g->eaten_count[seat], EAT_LIMIT);
        break;
    }
    default:
        break;
    }
}

static const char summary[] =
    "Marie's Table (Toshihiro Hachisuka, Toydrop 2016), 3-5 players.\n"
    "\n"
    "56 cards, eight each of the values 1 to 7, are shuffled into face-down\n"
    "decks, one per round: 6 decks of 6 cards with 3 players, 5 of 8 with 4,\n"
    "5 of 10 with 5. The other cards stay in the box unseen.\n"
    "\n"
    "Each round has an eldest brother (seat 1 in round 1); the others follow\n"
    "to his left, and the last one is the youngest. The eldest looks at the\n"
    "deck, keeps 2 cards face down and hands the rest on to his left; each\n"
    "brother does the same with what he gets, and the youngest keeps the last\n"
    "2. Then all pairs are turned up and everyone votes at once, up (content)\n"
    "or down (discontent).\n"
    "\n"
    "With 2 or more votes down, the youngest takes someone else's pair, then\n"
    "the next brother to the right, and so on to the eldest, who takes his\n"
    "own pair only if nothing else is left. Otherwise everyone takes his own\n"
    "pair. Whoever takes a pair at once keeps both cards face up or eats one\n"
    "or both (1 point each, at most 2 eaten per game). The youngest is the\n"
    "eldest of the next round.\n"
    "\n"
    "Kept cards score per value, by how many of that value you kept: one\n"
    "-3, two -1, three 1, four 3, five 5, six 6, seven 7, eight 8. Most\n"
    "points wins; ties go to more kept 7s, then 6s, ... down to 1s; still\n"
    "equal shares the win.\n"
    "\n"
    "Moves: deal 123456/... | keep 3 7 | 2: up, 3: down | take 2 | eat, eat 5\n";

const gateau_game maries_table_game = {
    .name = "maries-table",
    .title = "Marie's Table",
    .summary = summary,
    .min_players = 3,
    .max_players = 5,
    .options = NULL,
    .option_count = 0,
    .state_size = sizeof(mt_state),
    .type = {.simultaneous = true, .chance = true, .hidden_information = true,
             .score_unit = "points", .max_actions = 7, .max_chance_outcomes = 7,
             .max_move_actions = 56 /* the deal: at most every card of the box */},
    .init = mt_init,
    .legal_actions = mt_legal_actions,
    .chance_outcomes = mt_chance_outcomes,
    .sample_chance = mt_sample_chance,
    .apply = mt_apply,
    .scores = mt_scores,
    .winners = mt_winners,
    .determinize = mt_determinize,
    .parse_move = mt_parse_move,
    .format_move = mt_format_move,
    .action_name = mt_action_name,
    .view_text = mt_view_text,
    .view_json = mt_view_json,
    .describe_move = mt_describe_move,
    .describe_legal = mt_describe_legal,
};
