/*
 * piece_o_cake.c: piece o' Cake (Jeffrey D. Allers), 2-5 players.
 *
 * Rules: ../shared/rules/piece-o-cake.md.  One round: a deal (57 chance
 * actions, one slice each), then five cakes, each a cut by the server and
 * a turn per chooser.  How the moves break into small actions:
 *
 *   deal     57 x DEAL+variety                 "deal PARBKG..."
 *   cut      CUT_AFTER+b ... (ascending boundaries, b = 1..11 meaning
 *            between b and b+1), then CUT_DONE unless no boundary can follow;
 *            no boundary at all is the whole cake   "cut 1-3 4-7 8-11"
 *   take     TAKE+start, then EAT_SLICE or COLLECT_SLICE per slice,
 *            clockwise                          "take 4-7 ecce"
 *   forfeit  FORFEIT_EAT+variety or PASS        "eat G", "pass"
 *
 * So a bot picks among at most 20 actions at a time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine.h"
#include "core/notation.h"

enum {
    VARIETIES = 8,
    SLICES = 57,
    CAKE_SIZE = 11,
    CAKES = 5,
    SET_ASIDE = 2,
};

/* Varieties in order of their count: plum, apricot, cherry, blackberry,
 * kiwi, gooseberry, strawberry, chocolate. */
static const char VARIETY_LETTER[VARIETIES + 1] = "PARBKGSC";
static const char *const VARIETY_NAME[VARIETIES] = {
    "plum", "apricot", "cherry", "blackberry", "kiwi", "gooseberry", "strawberry", "chocolate"};
static const int VARIETY_SLICES[VARIETIES] = {3, 4, 5, 7, 8, 9, 10, 11}; /* = majority bonus */
static const int VARIETY_DOLLOPS[VARIETIES] = {1, 1, 1, 2, 2, 2, 2, 3};   /* points eaten */

/* Actions. */
enum {
    DEAL = 0,             /* + variety */
    CUT_AFTER = 10,       /* + boundary - 1, boundary 1..11 */
    CUT_DONE = 21,
    TAKE = 30,            /* + start - 1, start 1..11 */
    FORFEIT_EAT = 50,     /* + variety */
    PASS = 60,
    EAT_SLICE = 61,
    COLLECT_SLICE = 62,
};

typedef enum { PHASE_DEAL, PHASE_CUT, PHASE_CHOOSE, PHASE_SLICES, PHASE_OVER } phase;

typedef struct piece {
    uint8_t start;  /* position 1..11 */
    uint8_t length; /* slices, 1..11 */
    int8_t taker;   /* seat, or -1 while on the plate */
} piece;

typedef struct poc_state {
    uint8_t players, rounds, round, cake; /* round and cake 0-based */
    uint8_t phase;
    uint8_t server;
    uint8_t dealt;                 /* slices dealt so far this round */
    uint8_t undealt[VARIETIES];    /* per variety, still to be dealt */
    uint8_t slice[SLICES];         /* the deal: cakes 1..5, then set aside */

    /* The cake being served. */
    uint8_t cut_count;             /* boundaries chosen */
    uint8_t cut[CAKE_SIZE];        /* ascending */
    uint8_t piece_count;
    piece pieces[CAKE_SIZE];
    uint16_t open_starts;          /* bit p: an untaken piece starts at p */
    int8_t piece_starting_at[CAKE_SIZE + 1]; /* piece index by start, -1 none */
    uint8_t turn;                  /* choosing turn, 0-based */
    uint8_t chooser;
    uint8_t taking;                /* index of the piece being taken */
    uint8_t next_slice;            /* slices of it decided so far */
    uint8_t next_position;         /* position of the next slice to decide */

    /* Per seat, this round. */
    uint8_t collected[GATEAU_MAX_PLAYERS][VARIETIES];
    uint8_t collected_kinds[GATEAU_MAX_PLAYERS]; /* bit v: collected[seat][v] > 0 */
    uint8_t eaten[GATEAU_MAX_PLAYERS][VARIETIES];
    uint8_t removed[VARIETIES];    /* from pieces nobody took */
    int16_t banked[GATEAU_MAX_PLAYERS]; /* scores of finished rounds */
} poc_state;

static const gateau_option_info options[] = {
    {"rounds", "rounds of five cakes each, scores added up", false, 1, 1, 20},
};

/* ---- Rules helpers ------------------------------------------------------- */

static int max_pieces(int players) { return players == 2 ? 4 : players; }
static int turns_per_cake(int players) { return players == 2 ? 4 : players; }

/* Position p (1..11) of the current cake, as a variety. */
static int cake_slice(const poc_state *g, int position)
{
    return g->slice[g->cake * CAKE_SIZE + position - 1];
}

static int wrap_position(int position) { return (position - 1) % CAKE_SIZE + 1; }

/* This round's points per seat: majorities (every tied holder scores the
 * variety's count in full) plus the dollops of eaten slices. */
static void round_scores(const poc_state *g, int *scores)
{
    for (int s = 0; s < g->players; s++) scores[s] = 0;
    for (int v = 0; v < VARIETIES; v++) {
        int most = 0;
        for (int s = 0; s < g->players; s++)
            if (g->collected[s][v] > most) most = g->collected[s][v];
        for (int s = 0; s < g->players; s++) {
            if (most > 0 && g->collected[s][v] == most) scores[s] += VARIETY_SLICES[v];
            scores[s] += g->eaten[s][v] * VARIETY_DOLLOPS[v];
        }
    }
}

/* Cake c of round r is served by seat ((r-1) + (c-1)) mod N + 1. */
static void serve_cake(poc_state *g, gateau_state *state)
{
    g->phase = PHASE_CUT;
    g->server = (uint8_t)((g->round + g->cake) % g->players);
    g->open_starts = 0;
    g->cut_count = 0;
    g->piece_count = 0;
    g->turn = 0;
    state_set_actor(state, g->server);
    state->in_move = false;
}

static void start_round(poc_state *g, gateau_state *state)
{
    g->phase = PHASE_DEAL;
    g->cake = 0;
    g->dealt = 0;
    for (int v = 0; v < VARIETIES; v++) g->undealt[v] = (uint8_t)VARIETY_SLICES[v];
    memset(g->collected, 0, sizeof g->collected);
    memset(g->collected_kinds, 0, sizeof g->collected_kinds);
    memset(g->eaten, 0, sizeof g->eaten);
    memset(g->removed, 0, sizeof g->removed);
    state_set_chance(state);
    state->in_move = false;
}

static void end_round(poc_state *g, gateau_state *state)
{
    int scores[GATEAU_MAX_PLAYERS];
    round_scores(g, scores);
    for (int s = 0; s < g->players; s++) g->banked[s] = (int16_t)(g->banked[s] + scores[s]);
    if (g->round + 1 < g->rounds) {
        g->round++;
        start_round(g, state);
    } else {
        g->phase = PHASE_OVER;
        state_set_over(state);
    }
}

/* The next choosing turn, or the end of the cake. */
static void next_turn(poc_state *g, gateau_state *state)
{
    if (g->turn == turns_per_cake(g->players)) {
        /* Pieces nobody took leave the game. */
        for (unsigned open = g->open_starts; open; open &= open - 1) {
            int position = __builtin_ctz(open);
            for (int k = g->pieces[g->piece_starting_at[position]].length; k > 0; k--) {
                g->removed[cake_slice(g, position)]++;
                position = position == CAKE_SIZE ? 1 : position + 1;
            }
        }
        if (++g->cake == CAKES) end_round(g, state);
        else serve_cake(g, state);
        return;
    }
    g->phase = PHASE_CHOOSE;
    /* Turn t (0-based) belongs to seat server + 1 + t, wrapping: each
     * chooser sits after the one before; with two players that alternates
     * other, server, other, server. */
    int chooser = (g->turn == 0 ? g->server : g->chooser) + 1;
    if (chooser == g->players) chooser = 0;
    g->chooser = (uint8_t)chooser;
    g->turn++;
    state_set_actor(state, g->chooser);
    state->in_move = false;
}

/* Turns ascending cut boundaries into pieces, listed from the piece that
 * holds position 1.  No boundary at all is the whole cake. */
static int pieces_of_cut(const uint8_t *cut, int cut_count, piece *pieces)
{
    if (cut_count == 0) {
        pieces[0] = (piece){1, CAKE_SIZE, -1};
        return 1;
    }
    int count = 0, last = cut[cut_count - 1];
    if (last != CAKE_SIZE) /* a piece wraps past 11 to 1 */
        pieces[count++] = (piece){(uint8_t)(last + 1), (uint8_t)(CAKE_SIZE - last + cut[0]), -1};
    else
        pieces[count++] = (piece){1, cut[0], -1};
    for (int i = 0; i + 1 < cut_count; i++)
        pieces[count++] = (piece){(uint8_t)(cut[i] + 1), (uint8_t)(cut[i + 1] - cut[i]), -1};
    return count;
}

static void finish_cut(poc_state *g, gateau_state *state)
{
    g->piece_count = (uint8_t)pieces_of_cut(g->cut, g->cut_count, g->pieces);
    g->open_starts = 0;
    memset(g->piece_starting_at, -1, sizeof g->piece_starting_at);
    for (int i = 0; i < g->piece_count; i++) {
        g->open_starts |= (uint16_t)(1u << g->pieces[i].start);
        g->piece_starting_at[g->pieces[i].start] = (int8_t)i;
    }
    next_turn(g, state);
}

static bool cut_can_continue(const poc_state *g)
{
    return g->cut_count < max_pieces(g->players) &&
           (g->cut_count == 0 || g->cut[g->cut_count - 1] < CAKE_SIZE);
}

/* ---- The game table's functions -------------------------------------------- */

static void poc_init(gateau_state *state)
{
    poc_state *g = GAME_STATE(poc_state, state);
    memset(g, 0, sizeof *g);
    g->players = (uint8_t)state->setup->players;
    g->rounds = (uint8_t)setup_option(state->setup, 0);
    start_round(g, state);
}

static int poc_legal_actions(const gateau_state *state, int seat, gateau_action *actions)
{
    const poc_state *g = GAME_STATE_CONST(poc_state, state);
    (void)seat;
    int count = 0;
    switch (g->phase) {
    case PHASE_CUT: {
        /* Boundaries after the last one chosen, while pieces may be added;
         * the first leaves room for a second (one cut alone is no cut). */
        int first = g->cut_count ? g->cut[g->cut_count - 1] + 1 : 1;
        int last = g->cut_count ? CAKE_SIZE : CAKE_SIZE - 1;
        if (g->cut_count == max_pieces(g->players)) last = 0;
        for (int b = first; b <= last; b++) actions[count++] = CUT_AFTER + b - 1;
        if (g->cut_count != 1) actions[count++] = CUT_DONE;
        break;
    }
    case PHASE_CHOOSE: {
        /* Ascending: takes by start position, then forfeits, then pass. */
        for (unsigned open = g->open_starts; open; open &= open - 1)
            actions[count++] = TAKE + __builtin_ctz(open) - 1;
        for (unsigned kinds = g->collected_kinds[seat]; kinds; kinds &= kinds - 1)
            actions[count++] = FORFEIT_EAT + __builtin_ctz(kinds);
        actions[count++] = PASS;
        break;
    }
    case PHASE_SLICES:
        actions[count++] = EAT_SLICE;
        actions[count++] = COLLECT_SLICE;
        break;
    default:
        break;
    }
    return count;
}

static int poc_chance_outcomes(const gateau_state *state, gateau_action *outcomes,
                               double *probabilities)
{
    const poc_state *g = GAME_STATE_CONST(poc_state, state);
    int count = 0;
    double left = SLICES - g->dealt;
    for (int v = 0; v < VARIETIES; v++) {
        if (!g->undealt[v]) continue;
        outcomes[count] = DEAL + v;
        probabilities[count++] = g->undealt[v] / left;
    }
    return count;
}

static gateau_action poc_sample_chance(const gateau_state *state, gateau_rng *rng)
{
    const poc_state *g = GAME_STATE_CONST(poc_state, state);
    /* r picks one of the undealt slices, lined up from chocolate down to
     * plum.  Its variety is found by counting the running totals r has
     * reached, without branches: a walk that stops at the variety
     * mispredicts about once a slice, and the deal is 57 of a game's 130
     * actions. */
    int r = (int)gateau_rng_below(rng, (uint32_t)(SLICES - g->dealt));
    int v = VARIETIES - 1, total = 0;
    for (int k = VARIETIES - 1; k > 0; k--) {
        total += g->undealt[k];
        v -= r >= total;
    }
    return DEAL + v;
}

static void apply_deal(poc_state *g, gateau_state *state, int variety)
{
    g->slice[g->dealt++] = (uint8_t)variety;
    g->undealt[variety]--;
    state->in_move = g->dealt < SLICES;
    if (g->dealt == SLICES) serve_cake(g, state);
}

static void apply_slice_decision(poc_state *g, gateau_state *state, bool eat)
{
    int variety = cake_slice(g, g->next_position);
    /* One path for both, so no branch to mispredict: in random play
     * eating or collecting is a coin toss. */
    uint8_t *const piles[2] = {g->collected[g->chooser], g->eaten[g->chooser]};
    piles[eat][variety]++;
    g->collected_kinds[g->chooser] |= (uint8_t)(!eat << variety);
    g->next_position = g->next_position == CAKE_SIZE ? 1 : g->next_position + 1;
    if (++g->next_slice == g->pieces[g->taking].length) next_turn(g, state);
}

static void poc_apply(gateau_state *state, int seat, gateau_action action)
{
    poc_state *g = GAME_STATE(poc_state, state);
    (void)seat;
    /* The most frequent actions first: deals and slice decisions. */
    if (action < CUT_AFTER) {
        apply_deal(g, state, action - DEAL);
    } else if (action >= EAT_SLICE) {
        apply_slice_decision(g, state, action == EAT_SLICE);
    } else if (action < CUT_DONE) {
        g->cut[g->cut_count++] = (uint8_t)(action - CUT_AFTER + 1);
        state->in_move = true;
        if (!cut_can_continue(g)) finish_cut(g, state);
    } else if (action == CUT_DONE) {
        finish_cut(g, state);
    } else if (action < FORFEIT_EAT) {
        int start = action - TAKE + 1;
        g->taking = (uint8_t)g->piece_starting_at[start];
        g->pieces[g->taking].taker = (int8_t)g->chooser;
        g->open_starts &= (uint16_t)~(1u << start);
        g->next_slice = 0;
        g->next_position = (uint8_t)start;
        g->phase = PHASE_SLICES;
        state->in_move = true;
    } else if (action < PASS) {
        int variety = action - FORFEIT_EAT;
        g->eaten[g->chooser][variety] += g->collected[g->chooser][variety];
        g->collected[g->chooser][variety] = 0;
        g->collected_kinds[g->chooser] &= (uint8_t)~(1u << variety);
        next_turn(g, state);
    } else {
        next_turn(g, state); /* PASS */
    }
}

static void poc_scores(const gateau_state *state, int *scores)
{
    const poc_state *g = GAME_STATE_CONST(poc_state, state);
    /* Once over, the last round is already banked. */
    int round[GATEAU_MAX_PLAYERS] = {0};
    if (g->phase != PHASE_OVER) round_scores(g, round);
    for (int s = 0; s < g->players; s++) scores[s] = g->banked[s] + round[s];
}

/* No tiebreak: every seat with the top score wins. */
static uint32_t poc_winners(const gateau_state *state)
{
    int scores[GATEAU_MAX_PLAYERS];
    poc_scores(state, scores);
    int players = state->setup->players, best = scores[0];
    for (int s = 1; s < players; s++)
        if (scores[s] > best) best = scores[s];
    uint32_t winners = 0;
    for (int s = 0; s < players; s++)
        if (scores[s] == best) winners |= 1u << s;
    return winners;
}

/* Slices nobody has seen: positions [first_hidden, dealt). */
static int first_hidden(const poc_state *g)
{
    return g->phase == PHASE_DEAL ? 0 : (g->cake + 1) * CAKE_SIZE;
}

/* Everybody knows the same here: the unserved stacks and the set-aside
 * slices are hidden from all, so seat does not matter. */
static void poc_determinize(gateau_state *state, int seat, gateau_rng *rng)
{
    poc_state *g = GAME_STATE(poc_state, state);
    (void)seat;
    if (g->phase == PHASE_OVER) return;
    int first = first_hidden(g), n = g->dealt - first;
    /* Sorted first, so the result depends only on what is known (which
     * slices are unseen) and rng, not on the order they had: two states a
     * seat cannot tell apart determinize alike (bots rely on it). */
    int counts[VARIETIES] = {0};
    for (int i = 0; i < n; i++) counts[g->slice[first + i]]++;
    for (int v = 0, i = 0; v < VARIETIES; v++)
        for (int k = 0; k < counts[v]; k++) g->slice[first + i++] = (uint8_t)v;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)gateau_rng_below(rng, (uint32_t)(i + 1));
        uint8_t swap = g->slice[first + i];
        g->slice[first + i] = g->slice[first + j];
        g->slice[first + j] = swap;
    }
}

/* ---- Notation --------------------------------------------------------------- */

static int variety_of_letter(char letter)
{
    const char *found = letter ? strchr(VARIETY_LETTER, letter) : NULL;
    return found ? (int)(found - VARIETY_LETTER) : -1;
}

static void append_piece(gateau_text *out, int start, int length)
{
    if (length == CAKE_SIZE) text_append(out, "1-11");
    else if (length == 1) text_append(out, "%d", start);
    else text_append(out, "%d-%d", start, wrap_position(start + length - 1));
}

static void poc_format_move(const gateau_state *before, int seat, const gateau_action *actions,
                            int count, gateau_text *out)
{
    const poc_state *g = GAME_STATE_CONST(poc_state, before);
    (void)seat;
    gateau_action first = actions[0];
    if (first < CUT_AFTER) {
        text_append(out, "deal ");
        for (int i = 0; i < count; i++) text_append_char(out, VARIETY_LETTER[actions[i] - DEAL]);
    } else if (first <= CUT_DONE) {
        uint8_t cut[CAKE_SIZE];
        int cut_count = 0;
        for (int i = 0; i < count && actions[i] != CUT_DONE; i++)
            cut[cut_count++] = (uint8_t)(actions[i] - CUT_AFTER + 1);
        piece pieces[CAKE_SIZE];
        int piece_count = pieces_of_cut(cut, cut_count, pieces);
        text_append(out, "cut");
        for (int i = 0; i < piece_count; i++) {
            text_append(out, " ");
            append_piece(out, pieces[i].start, pieces[i].length);
        }
    } else if (first < FORFEIT_EAT) {
        int start = first - TAKE + 1, length = 0;
        for (int i = 0; i < g->piece_count; i++)
            if (g->pieces[i].start == start) length = g->pieces[i].length;
        text_append(out, "take ");
        append_piece(out, start, length);
        text_append(out, " ");
        for (int i = 1; i < count; i++) text_append_char(out, actions[i] == EAT_SLICE ? 'e' : 'c');
    } else if (first < PASS) {
        text_append(out, "eat %c", VARIETY_LETTER[first - FORFEIT_EAT]);
    } else {
        text_append(out, "pass");
    }
}

/* Reads "a-b" or "a" into start and length. */
static bool parse_piece(const char *word, int *start, int *length)
{
    char buffer[16];
    if (strlen(word) >= sizeof buffer) return false;
    strcpy(buffer, word);
    char *dash = strchr(buffer, '-');
    int a, b;
    if (dash) *dash = '\0';
    if (!notation_int(buffer, 1, CAKE_SIZE, &a)) return false;
    if (!dash) b = a;
    else if (!notation_int(dash + 1, 1, CAKE_SIZE, &b)) return false;
    *start = a;
    *length = b >= a ? b - a + 1 : CAKE_SIZE - a + 1 + b;
    /* The whole cake has one spelling, 1-11. */
    return *length < CAKE_SIZE || (a == 1 && b == CAKE_SIZE);
}

static int parse_deal(const poc_state *g, const notation_words *w, gateau_action *actions,
                      char *error, size_t error_size)
{
    if (w->count != 2) {
        set_error(error, error_size, "a deal is 'deal' and %d variety letters in one word", SLICES);
        return -1;
    }
    const char *letters = w->word[1];
    if ((int)strlen(letters) != SLICES - g->dealt || g->dealt) {
        set_error(error, error_size, "a deal has %d variety letters, not %zu", SLICES,
                  strlen(letters));
        return -1;
    }
    int counts[VARIETIES] = {0};
    for (int i = 0; i < SLICES; i++) {
        int v = variety_of_letter(letters[i]);
        if (v < 0) {
            set_error(error, error_size, "'%c' is not a variety (%s)", letters[i], VARIETY_LETTER);
            return -1;
        }
        if (++counts[v] > VARIETY_SLICES[v]) {
            set_error(error, error_size, "the deal has more than %d %s slices (%c)",
                      VARIETY_SLICES[v], VARIETY_NAME[v], letters[i]);
            return -1;
        }
        actions[i] = DEAL + v;
    }
    return SLICES;
}

static int parse_cut(const poc_state *g, const notation_words *w, gateau_action *actions,
                     char *error, size_t error_size)
{
    int pieces = w->count - 1, most = max_pieces(g->players);
    if (pieces < 1 || pieces > most) {
        set_error(error, error_size, "a cut has 1 to %d pieces, not %d", most, pieces);
        return -1;
    }
    bool covered[CAKE_SIZE + 1] = {false}, boundary[CAKE_SIZE + 1] = {false};
    for (int i = 1; i <= pieces; i++) {
        int start, length;
        if (!parse_piece(w->word[i], &start, &length)) {
            set_error(error, error_size, "'%s' is not a piece: write a-b or a with positions 1 "
                                         "to 11, and the whole cake as 1-11", w->word[i]);
            return -1;
        }
        for (int k = 0; k < length; k++) {
            int position = wrap_position(start + k);
            if (covered[position]) {
                set_error(error, error_size, "position %d is in two pieces", position);
                return -1;
            }
            covered[position] = true;
        }
        if (pieces > 1) boundary[wrap_position(start + length - 1)] = true;
    }
    for (int p = 1; p <= CAKE_SIZE; p++) {
        if (!covered[p]) {
            set_error(error, error_size, "position %d is in no piece", p);
            return -1;
        }
    }
    int count = 0;
    for (int b = 1; b <= CAKE_SIZE; b++)
        if (boundary[b]) actions[count++] = CUT_AFTER + b - 1;
    /* CUT_DONE closes the cut unless no further boundary was possible. */
    bool full = count == most || (count > 0 && boundary[CAKE_SIZE]);
    if (!full) actions[count++] = CUT_DONE;
    return count;
}

static int find_piece(const poc_state *g, int start, int length)
{
    for (int i = 0; i < g->piece_count; i++)
        if (g->pieces[i].taker < 0 && g->pieces[i].start == start &&
            g->pieces[i].length == length)
            return i;
    return -1;
}

static void list_remaining(const poc_state *g, gateau_text *out)
{
    int listed = 0;
    for (int i = 0; i < g->piece_count; i++) {
        if (g->pieces[i].taker >= 0) continue;
        text_append(out, listed++ ? " " : "");
        append_piece(out, g->pieces[i].start, g->pieces[i].length);
    }
    if (!listed) text_append(out, "none");
}

static int parse_take(const poc_state *g, const notation_words *w, gateau_action *actions,
                      char *error, size_t error_size)
{
    int start, length;
    if (w->count != 3 || !parse_piece(w->word[1], &start, &length)) {
        set_error(error, error_size, "a take is 'take a-b' and one letter per slice, e (eat) "
                                     "or c (collect), as in 'take 4-7 ecce'");
        return -1;
    }
    if (find_piece(g, start, length) < 0) {
        gateau_text remaining = {0};
        list_remaining(g, &remaining);
        set_error(error, error_size, "%s is not a remaining piece (remaining: %s)", w->word[1],
                  remaining.data);
        text_free(&remaining);
        return -1;
    }
    const char *decisions = w->word[2];
    if ((int)strlen(decisions) != length) {
        set_error(error, error_size, "piece %s has %d slices, so it needs %d letters e/c, not %zu",
                  w->word[1], length, length, strlen(decisions));
        return -1;
    }
    actions[0] = TAKE + start - 1;
    for (int i = 0; i < length; i++) {
        if (decisions[i] != 'e' && decisions[i] != 'c') {
            set_error(error, error_size, "'%c' is neither e (eat) nor c (collect)", decisions[i]);
            return -1;
        }
        actions[1 + i] = decisions[i] == 'e' ? EAT_SLICE : COLLECT_SLICE;
    }
    return 1 + length;
}

static int parse_forfeit(const poc_state *g, int seat, const notation_words *w,
                         gateau_action *actions, char *error, size_t error_size)
{
    int v = w->count == 2 && strlen(w->word[1]) == 1 ? variety_of_letter(w->word[1][0]) : -1;
    if (v < 0) {
        set_error(error, error_size, "a forfeit is 'eat X' with X one of %s, or 'pass'",
                  VARIETY_LETTER);
        return -1;
    }
    if (!g->collected[seat][v]) {
        set_error(error, error_size, "seat %d has collected no %s (%c) this round", seat + 1,
                  VARIETY_NAME[v], VARIETY_LETTER[v]);
        return -1;
    }
    actions[0] = FORFEIT_EAT + v;
    return 1;
}

static int poc_parse_move(const gateau_state *state, int seat, const char *text,
                          gateau_action *actions, char *error, size_t error_size)
{
    const poc_state *g = GAME_STATE_CONST(poc_state, state);
    notation_words w;
    if (!notation_split(text, &w) || w.count == 0) {
        set_error(error, error_size, "empty or overlong move");
        return -1;
    }
    const char *verb = w.word[0];
    static const char *const expected[] = {
        [PHASE_DEAL] = "a deal ('deal' and 57 letters)",
        [PHASE_CUT] = "a cut, as in 'cut 1-3 4-7 8-11'",
        [PHASE_CHOOSE] = "'take a-b ...', 'eat X' or 'pass'",
    };
    bool fits = (g->phase == PHASE_DEAL && strcmp(verb, "deal") == 0) ||
                (g->phase == PHASE_CUT && strcmp(verb, "cut") == 0) ||
                (g->phase == PHASE_CHOOSE &&
                 (!strcmp(verb, "take") || !strcmp(verb, "eat") || !strcmp(verb, "pass")));
    if (!fits) {
        set_error(error, error_size, "expected %s, not '%s'",
                  g->phase <= PHASE_CHOOSE ? expected[g->phase] : "nothing", verb);
        return -1;
    }
    if (!strcmp(verb, "deal")) return parse_deal(g, &w, actions, error, error_size);
    if (!strcmp(verb, "cut")) return parse_cut(g, &w, actions, error, error_size);
    if (!strcmp(verb, "take")) return parse_take(g, &w, actions, error, error_size);
    if (!strcmp(verb, "eat")) return parse_forfeit(g, seat, &w, actions, error, error_size);
    if (w.count != 1) {
        set_error(error, error_size, "'pass' takes nothing after it");
        return -1;
    }
    actions[0] = PASS;
    return 1;
}

static void poc_action_name(const gateau_state *state, int seat, gateau_action action,
                            gateau_text *out)
{
    const poc_state *g = GAME_STATE_CONST(poc_state, state);
    (void)seat;
    if (action < CUT_AFTER) text_append(out, "deal %c", VARIETY_LETTER[action - DEAL]);
    else if (action < CUT_DONE) text_append(out, "cut after %d", action - CUT_AFTER + 1);
    else if (action == CUT_DONE) text_append(out, "cut done");
    else if (action < FORFEIT_EAT) {
        int start = action - TAKE + 1;
        for (int i = 0; i < g->piece_count; i++)
            if (g->pieces[i].start == start) {
                text_append(out, "take ");
                append_piece(out, start, g->pieces[i].length);
            }
    } else if (action < PASS) text_append(out, "eat %c", VARIETY_LETTER[action - FORFEIT_EAT]);
    else if (action == PASS) text_append(out, "pass");
    else text_append(out, action == EAT_SLICE ? "eat" : "collect");
}

/* ---- Views -------------------------------------------------------------------- */

/* Everything in this game is public except the unserved stacks and the
 * set-aside slices, so the views only differ in marking "you". */

static const char *const VARIETY_COLOR[VARIETIES] = {
    "\033[1;35m", "\033[1;38;5;214m", "\033[1;31m", "\033[1;34m",
    "\033[1;32m", "\033[1;38;5;148m", "\033[1;38;5;205m", "\033[1;38;5;130m"};
#define COLOR_RESET "\033[0m"
#define COLOR_DIM "\033[2m"
#define COLOR_BOLD "\033[1m"

/* The ring: where each position's letter sits on a small canvas, and the
 * mark drawn on the boundary after it when the cake is cut there. */
enum { CANVAS_ROWS = 9, CANVAS_COLUMNS = 36 };
static const struct { int row, column; } RING[CAKE_SIZE + 1] = {
    {0, 0}, {1, 7}, {1, 13}, {1, 19}, {1, 25}, {3, 30}, {5, 30},
    {7, 22}, {7, 16}, {7, 10}, {5, 4}, {3, 4}};
static const struct { int row, column; char mark; } BOUNDARY[CAKE_SIZE + 1] = {
    {0, 0, ' '}, {1, 10, '|'}, {1, 16, '|'}, {1, 22, '|'}, {2, 28, '\\'}, {4, 30, '-'},
    {6, 26, '/'}, {7, 19, '|'}, {7, 13, '|'}, {6, 7, '\\'}, {4, 4, '-'}, {2, 5, '/'}};

typedef struct canvas_cell {
    char c;
    int8_t variety; /* color of a slice letter, -1 plain, -2 bold */
} canvas_cell;

static void canvas_write(canvas_cell canvas[CANVAS_ROWS][CANVAS_COLUMNS], int row, int column,
                         const char *s, int variety)
{
    for (; *s && column < CANVAS_COLUMNS; s++, column++)
        canvas[row][column] = (canvas_cell){*s, (int8_t)variety};
}

/* Which piece holds position p of the current cake, or -1 before the cut. */
static int piece_at(const poc_state *g, int position)
{
    for (int i = 0; i < g->piece_count; i++) {
        const piece *p = &g->pieces[i];
        int offset = (position - p->start + CAKE_SIZE) % CAKE_SIZE;
        if (offset < p->length) return i;
    }
    return -1;
}

static bool is_boundary(const poc_state *g, int b)
{
    if (g->phase == PHASE_CUT || g->phase == PHASE_DEAL) {
        for (int i = 0; i < g->cut_count; i++)
            if (g->cut[i] == b) return true;
        return false;
    }
    if (g->piece_count < 2) return false;
    return piece_at(g, b) != piece_at(g, wrap_position(b + 1));
}

static void view_ring(const poc_state *g, bool color, gateau_text *out)
{
    canvas_cell canvas[CANVAS_ROWS][CANVAS_COLUMNS];
    for (int r = 0; r < CANVAS_ROWS; r++)
        for (int c = 0; c < CANVAS_COLUMNS; c++) canvas[r][c] = (canvas_cell){' ', -1};
    for (int p = 1; p <= CAKE_SIZE; p++) {
        int row = RING[p].row, column = RING[p].column;
        char number[4];
        snprintf(number, sizeof number, "%d", p);
        if (row == 1) canvas_write(canvas, 0, column, number, -1);
        else if (row == 7) canvas_write(canvas, 8, column, number, -1);
        else if (column > 20) canvas_write(canvas, row, column + 2, number, -1);
        else canvas_write(canvas, row, column - 3, number, -1);
        int holder = piece_at(g, p);
        bool gone = holder >= 0 && g->pieces[holder].taker >= 0;
        int v = cake_slice(g, p);
        char letter[2] = {gone ? '.' : VARIETY_LETTER[v], '\0'};
        canvas_write(canvas, row, column, letter, gone ? -1 : v);
        if (is_boundary(g, p)) {
            char mark[2] = {BOUNDARY[p].mark, '\0'};
            canvas_write(canvas, BOUNDARY[p].row, BOUNDARY[p].column, mark, -2);
        }
    }
    char line[40];
    snprintf(line, sizeof line, "cake %d of %d", g->cake + 1, CAKES);
    canvas_write(canvas, 3, 12, line, -1);
    snprintf(line, sizeof line, "server: seat %d", g->server + 1);
    canvas_write(canvas, 5, 12, line, -1);
    for (int r = 0; r < CANVAS_ROWS; r++) {
        text_append(out, "   ");
        int end = CANVAS_COLUMNS;
        while (end > 0 && canvas[r][end - 1].c == ' ') end--;
        for (int c = 0; c < end; c++) {
            canvas_cell cell = canvas[r][c];
            if (color && cell.variety >= 0)
                text_append(out, "%s%c%s", VARIETY_COLOR[cell.variety], cell.c, COLOR_RESET);
            else if (color && cell.variety == -2)
                text_append(out, "%s%c%s", COLOR_BOLD, cell.c, COLOR_RESET);
            else
                text_append_char(out, cell.c);
        }
        text_append_char(out, '\n');
    }
}

static void view_letters(const poc_state *g, const piece *p, bool color, gateau_text *out)
{
    for (int k = 0; k < p->length; k++) {
        int v = cake_slice(g, wrap_position(p->start + k));
        if (color) text_append(out, "%s%c%s", VARIETY_COLOR[v], VARIETY_LETTER[v], COLOR_RESET);
        else text_append_char(out, VARIETY_LETTER[v]);
    }
}

static void view_pieces(const poc_state *g, bool color, gateau_text *out)
{
    if (g->phase != PHASE_CHOOSE && g->phase != PHASE_SLICES) return;
    text_append(out, "Pieces:");
    for (int i = 0; i < g->piece_count; i++) {
        const piece *p = &g->pieces[i];
        text_append(out, "  ");
        append_piece(out, p->start, p->length);
        text_append(out, " ");
        view_letters(g, p, color, out);
        if (p->taker >= 0) text_append(out, " (seat %d)", p->taker + 1);
    }
    text_append_char(out, '\n');
}

static bool has_majority(const poc_state *g, int seat, int v)
{
    for (int s = 0; s < g->players; s++)
        if (g->collected[s][v] > g->collected[seat][v]) return false;
    return g->collected[seat][v] > 0;
}

static void view_seats(const gateau_state *state, const poc_state *g, int viewer, bool color,
                       gateau_text *out)
{
    text_append(out, "\n  seat            collected this round       eaten         score\n"
                     "                ");
    for (int v = 0; v < VARIETIES; v++) {
        if (color) text_append(out, " %s%c%s ", VARIETY_COLOR[v], VARIETY_LETTER[v], COLOR_RESET);
        else text_append(out, " %c ", VARIETY_LETTER[v]);
    }
    text_append_char(out, '\n');
    int scores[GATEAU_MAX_PLAYERS] = {0};
    poc_scores(state, scores);
    for (int s = 0; s < g->players; s++) {
        int eaten = 0, points = 0;
        for (int v = 0; v < VARIETIES; v++) {
            eaten += g->eaten[s][v];
            points += g->eaten[s][v] * VARIETY_DOLLOPS[v];
        }
        text_append(out, "%s seat %d%s  ", s == viewer ? ">" : " ", s + 1,
                    s == viewer ? " (you)" : "      ");
        for (int v = 0; v < VARIETIES; v++) {
            if (!g->collected[s][v]) text_append(out, " . ");
            else text_append(out, "%2d%c", g->collected[s][v], has_majority(g, s, v) ? '*' : ' ');
        }
        text_append(out, "  %2d (%2d pts)   %4d\n", eaten, points, scores[s]);
    }
    text_append(out, "  (* = holds the majority)\n");
}

static void view_unseen(const poc_state *g, gateau_text *out)
{
    if (g->phase == PHASE_OVER || g->phase == PHASE_DEAL) return;
    int counts[VARIETIES] = {0}, total = 0;
    for (int i = first_hidden(g); i < g->dealt; i++, total++) counts[g->slice[i]]++;
    text_append(out, "Not yet seen: %d slices in %d cakes and %d set aside:", total,
                CAKES - 1 - g->cake, SET_ASIDE);
    for (int v = 0; v < VARIETIES; v++)
        if (counts[v]) text_append(out, " %c%d", VARIETY_LETTER[v], counts[v]);
    text_append_char(out, '\n');
}

/* The final table: per variety who holds the majority, then eaten points. */
static void view_scoring(const poc_state *g, gateau_text *out)
{
    text_append(out, "\nScoring%s:\n  variety          ", g->rounds > 1 ? " of the last round" : "");
    for (int s = 0; s < g->players; s++) text_append(out, " seat %d", s + 1);
    text_append_char(out, '\n');
    for (int v = 0; v < VARIETIES; v++) {
        text_append(out, "  %c %-10s (%2d) ", VARIETY_LETTER[v], VARIETY_NAME[v], VARIETY_SLICES[v]);
        for (int s = 0; s < g->players; s++) {
            if (has_majority(g, s, v)) text_append(out, " %2d:%-3d", g->collected[s][v], VARIETY_SLICES[v]);
            else if (g->collected[s][v]) text_append(out, " %2d:0  ", g->collected[s][v]);
            else text_append(out, "   .   ");
        }
        text_append_char(out, '\n');
    }
    int round_points[GATEAU_MAX_PLAYERS];
    round_scores(g, round_points);
    text_append(out, "  eaten points          ");
    for (int s = 0; s < g->players; s++) {
        int points = 0;
        for (int v = 0; v < VARIETIES; v++) points += g->eaten[s][v] * VARIETY_DOLLOPS[v];
        text_append(out, " %-6d", points);
    }
    if (g->rounds > 1) {
        text_append(out, "\n  earlier rounds        ");
        for (int s = 0; s < g->players; s++) text_append(out, " %-6d", g->banked[s] - round_points[s]);
    }
    text_append(out, "\n  total                 ");
    for (int s = 0; s < g->players; s++) text_append(out, " %-6d", g->banked[s]);
    text_append_char(out, '\n');
}

static void view_to_act(const gateau_state *state, const poc_state *g, gateau_text *out)
{
    switch (g->phase) {
    case PHASE_DEAL: text_append(out, "The slices are being shuffled.\n"); break;
    case PHASE_CUT: text_append(out, "Seat %d cuts the cake.\n", g->server + 1); break;
    case PHASE_CHOOSE:
        text_append(out, "Seat %d chooses (turn %d of %d).\n", g->chooser + 1, g->turn,
                    turns_per_cake(g->players));
        break;
    case PHASE_SLICES:
        text_append(out, "Seat %d decides slice %d of piece ", g->chooser + 1, g->next_slice + 1);
        append_piece(out, g->pieces[g->taking].start, g->pieces[g->taking].length);
        text_append(out, ".\n");
        break;
    default: {
        uint32_t winners = poc_winners(state);
        text_append(out, "Game over. Winner%s:", __builtin_popcount(winners) > 1 ? "s" : "");
        for (int s = 0; s < g->players; s++)
            if (winners & (1u << s)) text_append(out, " seat %d", s + 1);
        text_append_char(out, '\n');
    }
    }
}

static void poc_view_text(const gateau_state *state, int seat, bool color, gateau_text *out)
{
    const poc_state *g = GAME_STATE_CONST(poc_state, state);
    text_append(out, "piece o' Cake, round %d of %d\n\n", g->round + 1, g->rounds);
    if (g->phase != PHASE_DEAL && g->phase != PHASE_OVER) {
        view_ring(g, color, out);
        view_pieces(g, color, out);
    }
    view_seats(state, g, seat, color, out);
    view_unseen(g, out);
    if (g->phase == PHASE_OVER) view_scoring(g, out);
    view_to_act(state, g, out);
}

static json_t *counts_json(const uint8_t *counts)
{
    json_t *object = json_object();
    for (int v = 0; v < VARIETIES; v++) {
        char key[2] = {VARIETY_LETTER[v], '\0'};
        json_object_set_new(object, key, json_integer(counts[v]));
    }
    return object;
}

static json_t *poc_view_json(const gateau_state *state, int seat)
{
    const poc_state *g = GAME_STATE_CONST(poc_state, state);
    static const char *const phase_names[] = {"deal", "cut", "choose", "slices", "over"};
    json_t *view = json_object();
    json_object_set_new(view, "game", json_string("piece-o-cake"));
    json_object_set_new(view, "seat", seat >= 0 ? json_integer(seat + 1) : json_null());
    json_object_set_new(view, "round", json_integer(g->round + 1));
    json_object_set_new(view, "rounds", json_integer(g->rounds));
    json_object_set_new(view, "phase", json_string(phase_names[g->phase]));
    bool serving = g->phase == PHASE_CUT || g->phase == PHASE_CHOOSE || g->phase == PHASE_SLICES;
    if (serving) {
        char letters[CAKE_SIZE + 1];
        for (int p = 1; p <= CAKE_SIZE; p++) letters[p - 1] = VARIETY_LETTER[cake_slice(g, p)];
        letters[CAKE_SIZE] = '\0';
        json_object_set_new(view, "cake", json_integer(g->cake + 1));
        json_object_set_new(view, "server", json_integer(g->server + 1));
        json_object_set_new(view, "slices", json_string(letters));
        json_t *cuts = json_array();
        for (int i = 0; i < g->cut_count; i++) json_array_append_new(cuts, json_integer(g->cut[i]));
        json_object_set_new(view, "cut_after", cuts);
        json_t *pieces = json_array();
        for (int i = 0; i < g->piece_count; i++) {
            gateau_text name = {0};
            append_piece(&name, g->pieces[i].start, g->pieces[i].length);
            json_t *item = json_object();
            json_object_set_new(item, "piece", json_string(name.data));
            json_object_set_new(item, "taken_by", g->pieces[i].taker >= 0
                                                      ? json_integer(g->pieces[i].taker + 1)
                                                      : json_null());
            json_array_append_new(pieces, item);
            text_free(&name);
        }
        json_object_set_new(view, "pieces", pieces);
    }
    json_t *to_act = json_array();
    for (int s = 0; s < g->players; s++)
        if (state->actors & (1u << s)) json_array_append_new(to_act, json_integer(s + 1));
    json_object_set_new(view, "to_act", to_act);
    int scores[GATEAU_MAX_PLAYERS] = {0};
    poc_scores(state, scores);
    json_t *seats = json_array();
    for (int s = 0; s < g->players; s++) {
        json_t *item = json_object();
        json_object_set_new(item, "seat", json_integer(s + 1));
        json_object_set_new(item, "collected", counts_json(g->collected[s]));
        json_object_set_new(item, "eaten", counts_json(g->eaten[s]));
        json_object_set_new(item, "banked", json_integer(g->banked[s]));
        json_object_set_new(item, "score", json_integer(scores[s]));
        json_array_append_new(seats, item);
    }
    json_object_set_new(view, "seats", seats);
    json_object_set_new(view, "removed", counts_json(g->removed));
    if (g->phase != PHASE_OVER) {
        uint8_t unseen[VARIETIES] = {0};
        for (int i = first_hidden(g); i < g->dealt; i++) unseen[g->slice[i]]++;
        for (int v = 0; v < VARIETIES; v++) unseen[v] = (uint8_t)(unseen[v] + g->undealt[v]);
        json_object_set_new(view, "unseen", counts_json(unseen));
    }
    return view;
}


static void poc_describe_move(const gateau_state *before, int seat, const gateau_action *actions,
                              int count, int viewer, gateau_text *out)
{
    const poc_state *g = GAME_STATE_CONST(poc_state, before);
    (void)viewer;
    if (seat == GATEAU_CHANCE) {
        text_append(out, "The slices are shuffled into five cakes (round %d).", g->round + 1);
        return;
    }
    text_append(out, "seat %d: ", seat + 1);
    poc_format_move(before, seat, actions, count, out);
    if (actions[0] < TAKE || actions[0] >= FORFEIT_EAT) return;
    /* Spell out a take: which slices went down the hatch. */
    int start = actions[0] - TAKE + 1;
    for (int pass = 0; pass < 2; pass++) {
        int shown = 0;
        for (int i = 1; i < count; i++) {
            if ((actions[i] == EAT_SLICE) != (pass == 0)) continue;
            int v = cake_slice(g, wrap_position(start + i - 1));
            text_append(out, "%s%c", shown++ ? " " : (pass ? "; collects " : " (eats "), VARIETY_LETTER[v]);
        }
        if (!shown) text_append(out, pass ? "; collects nothing" : " (eats nothing");
    }
    text_append(out, ")");
}

static void poc_describe_legal(const gateau_state *state, int seat, gateau_text *out)
{
    const poc_state *g = GAME_STATE_CONST(poc_state, state);
    if (g->phase == PHASE_CUT) {
        text_append(out, "cut the cake into 1 to %d pieces of neighbouring positions, listed "
                         "from the piece holding position 1:\n"
                         "  cut 1-3 4-7 8-11    cut 10-2 3-9 (a piece may wrap)    cut 1-11 "
                         "(the whole cake)", max_pieces(g->players));
        return;
    }
    if (g->phase != PHASE_CHOOSE) return;
    for (int i = 0; i < g->piece_count; i++) {
        const piece *p = &g->pieces[i];
        if (p->taker >= 0) continue;
        text_append(out, "take ");
        append_piece(out, p->start, p->length);
        text_append(out, " + %d letter%s e/c   (", p->length, p->length > 1 ? "s" : "");
        view_letters(g, p, false, out);
        text_append(out, ")\n");
    }
    for (int v = 0; v < VARIETIES; v++)
        if (g->collected[seat][v])
            text_append(out, "eat %c   (your %d collected %s, %d points)\n", VARIETY_LETTER[v],
                        g->collected[seat][v], VARIETY_NAME[v],
                        g->collected[seat][v] * VARIETY_DOLLOPS[v]);
    text_append(out, "pass");
}

static const char summary[] =
    "piece o' Cake (Jeffrey D. Allers), 2-5 players.\n"
    "\n"
    "57 slices in 8 varieties are shuffled into five cakes of 11 slices; 2\n"
    "slices stay hidden. Each cake is served in turn: the server lays the\n"
    "cake out as a ring (positions 1..11) and cuts it into up to as many\n"
    "pieces as there are players (4 with two players); a piece is a run of\n"
    "neighbouring positions and may wrap from 11 to 1.\n"
    "\n"
    "Then, starting left of the server and ending with him, everyone either\n"
    "takes a remaining piece, deciding slice by slice to eat it (scores its\n"
    "dollops, 1-3) or collect it (for majorities), or forfeits: eats all his\n"
    "collected slices of one variety, or nothing. With two players there\n"
    "are four turns: other, server, other, server. Untaken pieces are lost.\n"
    "\n"
    "After five cakes, each variety pays its count (P3 A4 R5 B7 K8 G9 S10\n"
    "C11) to every player with the most collected slices of it; eaten\n"
    "slices pay their dollops. Most points wins; ties share the win.\n"
    "Option rounds=R plays R rounds and adds the scores up.\n"
    "\n"
    "Moves: deal PAR... | cut 1-3 4-7 8-11 | take 4-7 ecce | eat G | pass\n";

const gateau_game piece_o_cake_game = {
    .name = "piece-o-cake",
    .title = "piece o' Cake",
    .summary = summary,
    .min_players = 2,
    .max_players = 5,
    .options = options,
    .option_count = 1,
    .state_size = sizeof(poc_state),
    .type = {.simultaneous = false, .chance = true, .hidden_information = true,
             .score_unit = "points", .max_actions = 14, /* 5 pieces, 8 varieties to eat, pass */
             .max_chance_outcomes = 8, .max_move_actions = 57 /* the round's deal */},
    .init = poc_init,
    .legal_actions = poc_legal_actions,
    .chance_outcomes = poc_chance_outcomes,
    .sample_chance = poc_sample_chance,
    .apply = poc_apply,
    .scores = poc_scores,
    .winners = poc_winners,
    .determinize = poc_determinize,
    .parse_move = poc_parse_move,
    .format_move = poc_format_move,
    .action_name = poc_action_name,
    .view_text = poc_view_text,
    .view_json = poc_view_json,
    .describe_move = poc_describe_move,
    .describe_legal = poc_describe_legal,
};

/* ---- For the bots (piece_o_cake_bots.h) ------------------------------------- */

#include "games/piece_o_cake_bots.h"

static void snapshot(const gateau_state *state, poc_snapshot *out, bool with_unseen)
{
    const poc_state *g = GAME_STATE_CONST(poc_state, state);
    out->players = g->players;
    out->rounds = g->rounds;
    out->round = g->round;
    out->cake = g->cake;
    out->phase = (poc_phase)g->phase;
    out->server = g->server;
    out->chooser = g->chooser;
    out->turn = g->turn;
    out->turns = turns_per_cake(g->players);
    out->max_pieces = max_pieces(g->players);
    bool serving = g->phase == PHASE_CUT || g->phase == PHASE_CHOOSE || g->phase == PHASE_SLICES;
    for (int p = 1; p <= CAKE_SIZE; p++) out->slice[p - 1] = serving ? (uint8_t)cake_slice(g, p) : 0;
    out->cut_count = g->cut_count;
    memcpy(out->cut, g->cut, sizeof out->cut);
    out->piece_count = g->phase == PHASE_CUT ? 0 : g->piece_count;
    for (int i = 0; i < out->piece_count; i++) {
        out->pieces[i].start = g->pieces[i].start;
        out->pieces[i].length = g->pieces[i].length;
        out->pieces[i].taker = g->pieces[i].taker;
    }
    out->taking = g->taking;
    out->next_slice = g->next_slice;
    out->next_position = g->next_position;
    memcpy(out->collected, g->collected, sizeof out->collected);
    memcpy(out->eaten, g->eaten, sizeof out->eaten);
    memcpy(out->removed, g->removed, sizeof out->removed);
    memset(out->unseen, 0, sizeof out->unseen);
    if (with_unseen && g->phase != PHASE_OVER) {
        for (int i = first_hidden(g); i < g->dealt; i++) out->unseen[g->slice[i]]++;
        for (int v = 0; v < VARIETIES; v++) out->unseen[v] = (uint8_t)(out->unseen[v] + g->undealt[v]);
    }
    out->dealt = with_unseen ? g->dealt : 0;
    if (with_unseen) memcpy(out->deal, g->slice, sizeof out->deal);
    for (int s = 0; s < GATEAU_MAX_PLAYERS; s++) out->banked[s] = s < g->players ? g->banked[s] : 0;
    out->codes = (poc_action_codes){CUT_AFTER, CUT_DONE, TAKE, FORFEIT_EAT, PASS, EAT_SLICE,
                                    COLLECT_SLICE};
}

void piece_o_cake_snapshot(const gateau_state *state, poc_snapshot *out)
{
    snapshot(state, out, true);
}

void piece_o_cake_snapshot_fast(const gateau_state *state, poc_snapshot *out)
{
    snapshot(state, out, false);
}
