/*
 * rules.c: Marie's Table / マリーの食卓 (Toshihiro Hachisuka, Toydrop
 * 2016), 3-5 players: the rules, the hidden information and the game
 * table.  The notation is in notation.c, what a seat sees in views.c, the
 * state and the helpers the bot shares in maries_table.h.
 *
 * Rules: ../shared/rules/maries-table.md.  One chance move deals every deck
 * of the game before round 1 (the cards left over stay in the box, never
 * seen); then one round per deck: draft, reveal, vote, takes.  How the moves
 * break into small actions:
 *
 *   deal   MT_DEAL+value per card, deck after deck    "deal 123456/712334/..."
 *   keep   MT_KEEP_LOW+a, then MT_KEEP_HIGH+b (a <= b)    "keep 3 7"
 *   vote   MT_VOTE_UP or MT_VOTE_DOWN, simultaneous       "3: down"
 *   take   MT_TAKE+seat (0-based) whose pair it is     "take 2"
 *   eat    MT_EAT_NONE, MT_EAT_ONE+value or MT_EAT_BOTH     "eat", "eat 5", "eat 3 6"
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
 * being drafted plus the pairs kept from him onwards (mt_hand_seen()), which
 * determinize() preserves.  Votes stay hidden until the last one is cast.
 */
#include <string.h>

#include "games/maries_table/maries_table.h"

/* Points for how many cards of one value a player kept (0..8). */
const int MT_KEPT_POINTS[MT_COPIES + 1] = {0, -3, -1, 1, 3, 5, 6, 7, 8};

/* ---- Rules helpers ------------------------------------------------------- */

/* 3 players: 6 decks of 6; 4 players: 5 of 8; 5 players: 5 of 10.  Every
 * deck is shared out in pairs, so a deck has two cards per player. */
static int decks_for(int players) { return players == 3 ? 6 : 5; }
static int deck_size_for(int players) { return 2 * players; }

int mt_hand_count(const uint8_t *counts)
{
    int n = 0;
    for (int v = 1; v <= MT_VALUES; v++) n += counts[v];
    return n;
}

/* The seat that took seat's pair this round, or -1. */
int mt_taker_of(const mt_state *g, int round, int seat)
{
    for (int s = 0; s < g->players; s++)
        if (g->took[round][s] == seat) return s;
    return -1;
}

int mt_score_of(const mt_state *g, int seat)
{
    int score = g->eaten_count[seat];
    for (int v = 1; v <= MT_VALUES; v++) score += MT_KEPT_POINTS[g->kept[seat][v]];
    return score;
}

/* > 0 if seat a ranks above seat b: points, then kept 7s, 6s, ... 1s. */
static int compare_seats(const mt_state *g, int a, int b)
{
    int difference = mt_score_of(g, a) - mt_score_of(g, b);
    for (int v = MT_VALUES; v >= 1 && difference == 0; v--)
        difference = g->kept[a][v] - g->kept[b][v];
    return difference;
}

/* The hand seat was passed this round (the whole deck for the eldest), if
 * the draft has reached him: the hand being drafted plus the pairs kept
 * from his position on.  False before he has received one. */
bool mt_hand_seen(const mt_state *g, int seat, uint8_t seen[MT_VALUES + 1])
{
    if (g->phase != MT_PHASE_DRAFT || seat < 0) return false;
    int k = mt_position_of(g, seat);
    if (k > g->turn) return false;
    memcpy(seen, g->hand, MT_VALUES + 1);
    for (int j = k; j < g->turn; j++) {
        const uint8_t *p = g->pair[g->round][mt_seat_at(g, j)];
        seen[p[0]]++;
        seen[p[1]]++;
    }
    return true;
}

/* Can value a be the lower card of a keep from hand? */
bool mt_low_allowed(const uint8_t *hand, int a)
{
    if (!hand[a]) return false;
    if (hand[a] >= 2) return true;
    for (int b = a + 1; b <= MT_VALUES; b++)
        if (hand[b]) return true;
    return false;
}

bool mt_high_allowed(const uint8_t *hand, int low, int b)
{
    return b >= low && hand[b] >= (b == low ? 2 : 1);
}

/* The values a seat eats with an eat action on pair p: how many, in out. */
int mt_eaten_by(gateau_action action, const uint8_t *p, int out[2])
{
    if (action == MT_EAT_BOTH) {
        out[0] = p[0];
        out[1] = p[1];
        return 2;
    }
    if (action == MT_EAT_NONE) return 0;
    out[0] = action - MT_EAT_ONE;
    return 1;
}

static void start_round(mt_state *g, gateau_state *state)
{
    g->phase = MT_PHASE_DRAFT;
    g->turn = 0;
    g->low = 0;
    memset(g->hand, 0, sizeof g->hand);
    for (int i = 0; i < g->deck_size; i++) g->hand[g->cards[g->round * g->deck_size + i]]++;
    state_set_actor(state, mt_eldest(g));
    state->in_move = false;
    state->simultaneous = false;
}

/* The next take (or, without a swap, the next eat), or the round's end. */
static void next_taker(mt_state *g, gateau_state *state)
{
    if (g->turn == g->players) {
        if (g->round + 1 == g->rounds) {
            g->phase = MT_PHASE_OVER;
            state_set_over(state);
        } else {
            g->round++;
            start_round(g, state);
        }
        return;
    }
    int seat = mt_taker_at(g, g->turn);
    if (mt_swapping(g, g->round)) {
        g->phase = MT_PHASE_TAKE;
    } else {
        g->took[g->round][seat] = (int8_t)seat;
        g->phase = MT_PHASE_EAT;
    }
    state_set_actor(state, seat);
}

/* The youngest gets the last two cards; everyone turns his pair face up
 * and votes. */
static void reveal(mt_state *g, gateau_state *state)
{
    uint8_t *last = g->pair[g->round][mt_youngest(g)];
    int n = 0;
    for (int v = 1; v <= MT_VALUES; v++)
        while (g->hand[v]) {
            last[n++] = (uint8_t)v;
            g->hand[v]--;
        }
    g->phase = MT_PHASE_VOTE;
    state->actors = (1u << g->players) - 1;
    state->chance = false;
    state->simultaneous = true;
}

/* ---- The game table's functions -------------------------------------------- */

/* The deal (one action a card, one deck a round), then per round the
 * draft (a keep of two actions by every seat but the youngest), a vote
 * per seat, and per seat a take (only in rounds with a swap) and an eat. */
static int mt_max_game_length(const gateau_setup *setup)
{
    int players = setup->players, rounds = decks_for(players);
    int per_round = 2 * (players - 1) + players + 2 * players;
    return rounds * deck_size_for(players) + rounds * per_round;
}

static void mt_init(gateau_state *state)
{
    mt_state *g = GAME_STATE(mt_state, state);
    memset(g, 0, sizeof *g);
    g->players = (uint8_t)state->setup->players;
    g->rounds = (uint8_t)decks_for(g->players);
    g->deck_size = (uint8_t)deck_size_for(g->players);
    g->phase = MT_PHASE_DEAL;
    for (int v = 1; v <= MT_VALUES; v++) g->outside[v] = MT_COPIES;
    memset(g->took, -1, sizeof g->took);
    state_set_chance(state);
    state->in_move = false;
}

/* The draft's legal values as bit sets (bit v: value v), with no branch
 * on the hand: whether a value may be kept depends on cards that change
 * from one keep to the next, so tests value by value mispredict, the more
 * so when a batch plays many games in turn (bench/bench_python.py). */
static unsigned values_held(const uint8_t *hand, int at_least)
{
    unsigned held = 0;
    for (int v = 1; v <= MT_VALUES; v++) held |= (unsigned)(hand[v] >= at_least) << v;
    return held;
}

/* mt_low_allowed() for every value: a pair, or a single card below another. */
static unsigned low_values_allowed(const uint8_t *hand)
{
    unsigned single = values_held(hand, 1), pair = values_held(hand, 2);
    unsigned below_highest = single ? (1u << (31 - __builtin_clz(single))) - 1 : 0;
    return pair | (single & below_highest);
}

/* mt_high_allowed() for every value: above low, or low itself if a pair. */
static unsigned high_values_allowed(const uint8_t *hand, int low)
{
    unsigned above_low = ~0u << (low + 1);
    return (values_held(hand, 1) & above_low) | (values_held(hand, 2) & (1u << low));
}

int mt_legal_actions(const gateau_state *state, int seat, gateau_action *actions)
{
    const mt_state *g = GAME_STATE_CONST(mt_state, state);
    int count = 0;
    switch (g->phase) {
    case MT_PHASE_DRAFT: {
        unsigned allowed = g->low ? high_values_allowed(g->hand, g->low)
                                  : low_values_allowed(g->hand);
        int base = g->low ? MT_KEEP_HIGH : MT_KEEP_LOW;
        for (; allowed; allowed &= allowed - 1) actions[count++] = base + __builtin_ctz(allowed);
        break;
    }
    case MT_PHASE_VOTE:
        actions[count++] = MT_VOTE_UP;
        actions[count++] = MT_VOTE_DOWN;
        break;
    case MT_PHASE_TAKE:
        for (int t = 0; t < g->players; t++)
            if (t != seat && mt_taker_of(g, g->round, t) < 0) actions[count++] = MT_TAKE + t;
        /* Only his own pair left: the eldest takes it. */
        if (!count) actions[count++] = MT_TAKE + seat;
        break;
    case MT_PHASE_EAT: {
        const uint8_t *p = mt_taken_pair(g, seat);
        int left = mt_eats_left(g, seat);
        actions[count++] = MT_EAT_NONE;
        if (left >= 1) {
            actions[count++] = MT_EAT_ONE + p[0];
            if (p[1] != p[0]) actions[count++] = MT_EAT_ONE + p[1];
        }
        if (left >= 2) actions[count++] = MT_EAT_BOTH;
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
    double left = MT_CARDS - g->dealt;
    for (int v = 1; v <= MT_VALUES; v++) {
        if (!g->outside[v]) continue;
        outcomes[count] = MT_DEAL + v;
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
    uint8_t pool[MT_VALUES + 1];
    memcpy(pool, g->outside, sizeof pool);
    int left = MT_CARDS - g->dealt;
    return MT_DEAL + draw(pool, &left, rng);
}

static void apply_keep_high(mt_state *g, gateau_state *state, int high)
{
    int seat = mt_drafter(g);
    uint8_t *p = g->pair[g->round][seat];
    p[0] = g->low;
    p[1] = (uint8_t)high;
    g->hand[g->low]--;
    g->hand[high]--;
    g->low = 0;
    g->turn++;
    state->in_move = false;
    if (g->turn == g->players - 1) reveal(g, state);
    else state_set_actor(state, mt_drafter(g));
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
    const uint8_t *p = mt_taken_pair(g, seat);
    int eaten[2] = {0, 0}, count = 0;
    if (action == MT_EAT_BOTH) {
        eaten[count++] = p[0];
        eaten[count++] = p[1];
    } else if (action != MT_EAT_NONE) {
        eaten[count++] = action - MT_EAT_ONE;
    }
    uint8_t left[MT_VALUES + 1] = {0};
    left[p[0]]++;
    left[p[1]]++;
    for (int i = 0; i < count; i++) {
        left[eaten[i]]--;
        g->eaten[seat][eaten[i]]++;
    }
    g->eaten_count[seat] = (uint8_t)(g->eaten_count[seat] + count);
    for (int v = 1; v <= MT_VALUES; v++) g->kept[seat][v] = (uint8_t)(g->kept[seat][v] + left[v]);
    g->ate[g->round][seat] = (uint8_t)action;
    g->turn++;
    next_taker(g, state);
}

static void mt_apply(gateau_state *state, int seat, gateau_action action)
{
    mt_state *g = GAME_STATE(mt_state, state);
    if (action < MT_KEEP_LOW) {
        g->cards[g->dealt++] = (uint8_t)(action - MT_DEAL);
        g->outside[action - MT_DEAL]--;
        state->in_move = g->dealt < mt_dealt_total(g);
        if (!state->in_move) start_round(g, state);
    } else if (action < MT_KEEP_HIGH) {
        g->low = (uint8_t)(action - MT_KEEP_LOW);
        state->in_move = true;
    } else if (action < MT_VOTE_UP) {
        apply_keep_high(g, state, action - MT_KEEP_HIGH);
    } else if (action <= MT_VOTE_DOWN) {
        apply_vote(g, state, seat, action == MT_VOTE_UP ? MT_UP : MT_DOWN);
    } else if (action < MT_EAT_NONE) {
        g->took[g->round][seat] = (int8_t)(action - MT_TAKE);
        g->phase = MT_PHASE_EAT;
        state_set_actor(state, seat);
    } else {
        apply_eat(g, state, seat, action);
    }
}

static void mt_scores(const gateau_state *state, int *scores)
{
    const mt_state *g = GAME_STATE_CONST(mt_state, state);
    for (int s = 0; s < g->players; s++) scores[s] = mt_score_of(g, s);
}

uint32_t mt_winners(const gateau_state *state)
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

/* ---- Hidden information ------------------------------------------------------ */

/* The cards whose place seat does not know (GATEAU_OBSERVER: nobody's
 * knowledge but the public): every card, less the revealed pairs, less
 * during a draft the hand seat was passed.  They lie in unplayed decks, in
 * the box, or (during a draft) in pairs or hands seat has not seen. */
void mt_unseen_cards(const mt_state *g, int seat, uint8_t pool[MT_VALUES + 1])
{
    pool[0] = 0;
    for (int v = 1; v <= MT_VALUES; v++) pool[v] = MT_COPIES;
    int revealed = mt_revealed_rounds(g);
    for (int r = 0; r < revealed; r++)
        for (int s = 0; s < g->players; s++) {
            pool[g->pair[r][s][0]]--;
            pool[g->pair[r][s][1]]--;
        }
    uint8_t seen[MT_VALUES + 1];
    if (mt_hand_seen(g, seat, seen))
        for (int v = 1; v <= MT_VALUES; v++) pool[v] = (uint8_t)(pool[v] - seen[v]);
}

static void draw_pair(uint8_t *pair, uint8_t *pool, int *left, gateau_rng *rng)
{
    int a = draw(pool, left, rng), b = draw(pool, left, rng);
    pair[0] = (uint8_t)(a < b ? a : b);
    pair[1] = (uint8_t)(a < b ? b : a);
}

static void draw_hand(uint8_t *hand, int count, uint8_t *pool, int *left, gateau_rng *rng)
{
    memset(hand, 0, MT_VALUES + 1);
    for (int i = 0; i < count; i++) hand[draw(pool, left, rng)]++;
}

/* Resamples the current draft for seat: the pairs and the hand it has not
 * seen come from the unseen cards; the pairs kept after it, and the hand
 * now drafted, are a reshuffle of what it passed on. */
static void determinize_draft(mt_state *g, int seat, uint8_t *pool, int *left, gateau_rng *rng)
{
    int p = g->turn, size = mt_hand_count(g->hand);
    int k = seat >= 0 ? mt_position_of(g, seat) : g->players;
    uint8_t passed[MT_VALUES + 1] = {0};
    int passed_left = 0;
    if (k < p) {
        mt_hand_seen(g, seat, passed);
        const uint8_t *own = g->pair[g->round][seat];
        passed[own[0]]--;
        passed[own[1]]--;
        passed_left = mt_hand_count(passed);
    }
    for (int j = 0; j < p; j++) {
        uint8_t *pair = g->pair[g->round][mt_seat_at(g, j)];
        if (j < k) draw_pair(pair, pool, left, rng);
        else if (j > k) draw_pair(pair, passed, &passed_left, rng);
    }
    if (k > p) draw_hand(g->hand, size, pool, left, rng);
    else if (k < p) draw_hand(g->hand, size, passed, &passed_left, rng);
    /* An unfinished keep by someone else: its first card is unknown too. */
    if (g->low && k != p) {
        int options[MT_VALUES], n = 0;
        for (int v = 1; v <= MT_VALUES; v++)
            if (mt_low_allowed(g->hand, v)) options[n++] = v;
        g->low = (uint8_t)options[gateau_rng_below(rng, (uint32_t)n)];
    }
    /* Keep the deck consistent with its pairs and hand. */
    uint8_t *deck = g->cards + g->round * g->deck_size;
    int n = 0;
    for (int j = 0; j < p; j++) {
        deck[n++] = g->pair[g->round][mt_seat_at(g, j)][0];
        deck[n++] = g->pair[g->round][mt_seat_at(g, j)][1];
    }
    for (int v = 1; v <= MT_VALUES; v++)
        for (int c = 0; c < g->hand[v]; c++) deck[n++] = (uint8_t)v;
}

/* The decks already shared out in pairs: in what order they were dealt
 * nobody ever saw and nothing depends on, so they are written the same way
 * whatever the deal: the pairs in draft order, eldest first.  A position
 * read back from a view (from_view.c) then determinizes as the true one. */
static void write_played_decks(mt_state *g)
{
    int played = mt_revealed_rounds(g);
    for (int r = 0; r < played; r++) {
        uint8_t *deck = g->cards + r * g->deck_size;
        for (int j = 0; j < g->players; j++) {
            const uint8_t *pair = g->pair[r][(mt_eldest_of(g, r) + j) % g->players];
            deck[2 * j] = pair[0];
            deck[2 * j + 1] = pair[1];
        }
    }
}

static void mt_determinize(gateau_state *state, int seat, gateau_rng *rng)
{
    mt_state *g = GAME_STATE(mt_state, state);
    if (g->phase == MT_PHASE_OVER) return;
    uint8_t pool[MT_VALUES + 1];
    mt_unseen_cards(g, seat, pool);
    int left = mt_hand_count(pool);
    if (g->phase == MT_PHASE_DEAL) {
        for (int i = 0; i < g->dealt; i++) g->cards[i] = (uint8_t)draw(pool, &left, rng);
        memcpy(g->outside, pool, sizeof pool);
        return;
    }
    write_played_decks(g);
    if (g->phase == MT_PHASE_DRAFT) determinize_draft(g, seat, pool, &left, rng);
    for (int i = (g->round + 1) * g->deck_size; i < mt_dealt_total(g); i++)
        g->cards[i] = (uint8_t)draw(pool, &left, rng);
    memcpy(g->outside, pool, sizeof pool);
    if (g->phase == MT_PHASE_VOTE)
        for (int s = 0; s < g->players; s++)
            if (s != seat && g->vote[g->round][s] != MT_NO_VOTE)
                g->vote[g->round][s] = (uint8_t)(gateau_rng_below(rng, 2) ? MT_DOWN : MT_UP);
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
    .order_move = mt_order_move,
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
    .from_view = mt_from_view,
    .describe_move = mt_describe_move,
    .move_visible = mt_move_visible,
    .describe_legal = mt_describe_legal,
    .key = mt_key,
    .max_game_length = mt_max_game_length,
    .action_space = MT_EAT_BOTH + 1,
    .observe = mt_observe,
};
