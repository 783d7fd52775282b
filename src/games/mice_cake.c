/*
 * mice_cake.c: Mice Cake v2 (Thomas Gale, 2011), 2 players.
 *
 * Rules: ../shared/rules/mice-cake.md.  A double-six domino set lies in a
 * grid of 7 rows by 4 columns between yellow (seat 1, row 1) and blue
 * (seat 2, row 7).  Each round both players secretly put their ready mice
 * on columns; then every group of mice rolls one die per mouse against the
 * nearest piece of its column (or, on the double-blank, against a piece of
 * the opponent's stash it tries to steal), and all results apply together.
 * How the moves break into small actions:
 *
 *   deal    28 x MC_DEAL+piece, row by row, columns A..D  "deal 1/2 3/4 ..."
 *   assign  MC_PLACE+column per mouse, columns never going back; right after
 *           the first mouse on a steal column, MC_TARGET+piece
 *                                                      "2: assign B2>5/6 D2"
 *   roll    MC_DIE+face-1 per mouse of one group, the groups in the order
 *           columns A..D, yellow before blue           "roll 1 C 6 6 5"
 *
 * So a bot picks among at most 27 actions (steal targets) at a time.
 * A round in which nobody can place a mouse passes inside apply() with no
 * move at all; it still counts toward the 500-round guard.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/notation.h"
#include "games/mice_cake.h"

enum { ROUND_LIMIT = 500 };

static const char COLUMN_LETTER[MC_COLUMNS + 1] = "ABCD";
static const char *const SEAT_COLOR_NAME[MC_SEATS] = {"yellow", "blue"};

/* ---- Rules helpers ------------------------------------------------------- */

const uint8_t MC_LOW[MC_PIECES] = {0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2,
                                   2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 6};
const uint8_t MC_HIGH[MC_PIECES] = {0, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 2,
                                    3, 4, 5, 6, 3, 4, 5, 6, 4, 5, 6, 5, 6, 6};

static int piece_of(int a, int b)
{
    if (a > b) {
        int swap = a;
        a = b;
        b = swap;
    }
    return a * 7 - a * (a - 1) / 2 + (b - a);
}

int mc_stash_pips(uint32_t stash)
{
    int total = 0;
    for (uint32_t s = stash; s; s &= s - 1) total += mc_pips(__builtin_ctz(s));
    return total;
}

/* The row of seat's nearest piece in column, or -1 if the column is empty:
 * yellow looks from row 1 up, blue from row 7 down. */
static int nearest_row(const mc_state *g, int seat, int column)
{
    if (seat == 0) {
        for (int r = 0; r < MC_ROWS; r++)
            if (g->grid[r][column] != MC_NO_PIECE) return r;
    } else {
        for (int r = MC_ROWS - 1; r >= 0; r--)
            if (g->grid[r][column] != MC_NO_PIECE) return r;
    }
    return -1;
}

int mc_nearest_piece(const mc_state *g, int seat, int column)
{
    int r = nearest_row(g, seat, column);
    return r < 0 ? MC_NO_PIECE : g->grid[r][column];
}

int mc_column_pieces(const mc_state *g, int column)
{
    int count = 0;
    for (int r = 0; r < MC_ROWS; r++) count += g->grid[r][column] != MC_NO_PIECE;
    return count;
}

static bool grid_empty(const mc_state *g)
{
    for (int c = 0; c < MC_COLUMNS; c++)
        if (mc_column_pieces(g, c)) return false;
    return true;
}

/* A column whose nearest piece (for seat) is the double-blank is a steal. */
static bool steal_column(const mc_state *g, int seat, int column)
{
    return mc_nearest_piece(g, seat, column) == MC_DOUBLE_BLANK;
}

/* Columns seat may put mice on: any with a piece, except a steal when the
 * opponent's stash is empty. */
unsigned mc_open_columns(const mc_state *g, int seat, uint8_t *nearest)
{
    unsigned open = 0;
    for (int c = 0; c < MC_COLUMNS; c++) {
        int piece = mc_nearest_piece(g, seat, c);
        if (nearest) nearest[c] = (uint8_t)piece;
        if (piece == MC_NO_PIECE) continue;
        if (piece == MC_DOUBLE_BLANK && !g->stash[1 - seat]) continue;
        open |= 1u << c;
    }
    return open;
}

/* How many mice a roll exhausts on piece: 2 when two different dice show
 * both halves of a piece with pips on both (two equal dice for a double),
 * 1 when any die shows the pips of a piece with a blank half, else 0. */
int mc_exhaustion(int piece, const uint8_t *dice, int count)
{
    int seen[MC_FACES + 1] = {0};
    for (int i = 0; i < count; i++) seen[dice[i]]++;
    int a = MC_LOW[piece], b = MC_HIGH[piece];
    if (b == 0) return 0;
    if (a == 0) return seen[b] > 0 ? 1 : 0;
    if (a == b) return seen[a] >= 2 ? 2 : 0;
    return seen[a] > 0 && seen[b] > 0 ? 2 : 0;
}

static int dice_sum(const mc_attempt *a)
{
    int sum = 0;
    for (int i = 0; i < a->mice; i++) sum += a->dice[i];
    return sum;
}

/* Success: the sum reaches the value and no mouse is exhausted. */
static bool attempt_succeeds(const mc_attempt *a)
{
    return dice_sum(a) >= mc_pips(a->piece) && mc_exhaustion(a->piece, a->dice, a->mice) == 0;
}

static int tired_count(const mc_state *g, int seat)
{
    int count = 0;
    for (int c = 0; c < MC_COLUMNS; c++) count += g->tired[seat][c];
    return count;
}

static void plan_clear(mc_plan *p)
{
    memset(p, 0, sizeof *p);
    p->target = MC_NO_PIECE;
}

/* One assign action added to a plan. */
static void plan_add(const mc_state *g, int seat, mc_plan *p, gateau_action action)
{
    if (action >= MC_TARGET) {
        p->target = (uint8_t)(action - MC_TARGET);
        p->wants_target = false;
        return;
    }
    int column = action - MC_PLACE;
    if (p->mice[column]++ == 0 && steal_column(g, seat, column)) p->wants_target = true;
    p->placed++;
    p->last_column = (uint8_t)column;
}

static bool plan_complete(const mc_state *g, int seat, const mc_plan *p)
{
    return p->placed == g->ready[seat] && !p->wants_target;
}

static void set_over(mc_state *g, gateau_state *state)
{
    g->phase = MC_PHASE_OVER;
    state_set_over(state);
}

/* A new round: who has mice to place?  A round in which nobody can place a
 * mouse passes at once (its exhausted mice recover) and still counts. */
static void start_round(mc_state *g, gateau_state *state)
{
    for (;;) {
        uint32_t actors = 0;
        for (int s = 0; s < MC_SEATS; s++) {
            g->ready[s] = (uint8_t)(MC_MICE - tired_count(g, s));
            g->must_assign[s] = g->ready[s] > 0 && mc_open_columns(g, s, NULL) != 0;
            g->assigned[s] = false;
            plan_clear(&g->plans[s]);
            if (g->must_assign[s]) actors |= 1u << s;
        }
        if (actors) {
            g->phase = MC_PHASE_ASSIGN;
            state->actors = actors;
            state->chance = false;
            state->simultaneous = true;
            state->in_move = false;
            return;
        }
        memset(g->tired, 0, sizeof g->tired);
        if (g->round >= ROUND_LIMIT) {
            g->stopped = true;
            set_over(g, state);
            return;
        }
        g->round++;
    }
}

/* All assignments are in: the groups roll column by column, yellow first. */
static void begin_rolls(mc_state *g, gateau_state *state)
{
    g->attempt_count = 0;
    for (int c = 0; c < MC_COLUMNS; c++) {
        for (int s = 0; s < MC_SEATS; s++) {
            const mc_plan *p = &g->plans[s];
            if (!p->mice[c]) continue;
            mc_attempt *a = &g->attempts[g->attempt_count++];
            memset(a, 0, sizeof *a);
            a->seat = (uint8_t)s;
            a->column = (uint8_t)c;
            a->mice = p->mice[c];
            a->steal = steal_column(g, s, c);
            a->piece = a->steal ? p->target : (uint8_t)mc_nearest_piece(g, s, c);
        }
    }
    g->rolling = 0;
    g->rolled = 0;
    g->phase = MC_PHASE_ROLL;
    state->simultaneous = false;
    state->in_move = false;
    state_set_chance(state);
}

/* The piece of a successful attempt changes hands. */
static void take(mc_state *g, const mc_attempt *a)
{
    int seat = a->seat, r = nearest_row(g, seat, a->column);
    if (a->steal) {
        g->stash[1 - seat] &= ~(1u << a->piece);
        g->stash[seat] |= 1u << a->piece;
    }
    g->stash[seat] |= 1u << g->grid[r][a->column];
    g->grid[r][a->column] = MC_NO_PIECE;
}

/* Both attempts on the single last piece of a column. */
static void resolve_conflict(mc_state *g, const mc_attempt *y, const mc_attempt *b, int column)
{
    bool ys = attempt_succeeds(y), bs = attempt_succeeds(b);
    if (ys && bs && y->steal) {
        /* Both steals succeed: the targets change hands, the
         * double-blank leaves the game. */
        g->stash[1] = (g->stash[1] & ~(1u << y->piece)) | (1u << b->piece);
        g->stash[0] = (g->stash[0] & ~(1u << b->piece)) | (1u << y->piece);
        int r = nearest_row(g, 0, column);
        g->removed |= 1u << g->grid[r][column];
        g->grid[r][column] = MC_NO_PIECE;
    } else if (ys && bs) {
        int ysum = dice_sum(y), bsum = dice_sum(b);
        if (ysum != bsum) take(g, ysum > bsum ? y : b); /* equal sums: it stays */
    } else if (ys) {
        take(g, y);
    } else if (bs) {
        take(g, b);
    }
}

/* Every attempt was judged against the grid and stashes as they stood
 * after assigning; now all results apply together. */
static void resolve_round(mc_state *g, gateau_state *state)
{
    int at[MC_COLUMNS][MC_SEATS];
    memset(at, -1, sizeof at);
    memset(g->tired, 0, sizeof g->tired);
    for (int i = 0; i < g->attempt_count; i++) {
        const mc_attempt *a = &g->attempts[i];
        at[a->column][a->seat] = i;
        g->tired[a->seat][a->column] = (uint8_t)mc_exhaustion(a->piece, a->dice, a->mice);
    }
    for (int c = 0; c < MC_COLUMNS; c++) {
        int y = at[c][0], b = at[c][1];
        if (y >= 0 && b >= 0 && mc_column_pieces(g, c) == 1) {
            resolve_conflict(g, &g->attempts[y], &g->attempts[b], c);
            continue;
        }
        if (y >= 0 && attempt_succeeds(&g->attempts[y])) take(g, &g->attempts[y]);
        if (b >= 0 && attempt_succeeds(&g->attempts[b])) take(g, &g->attempts[b]);
    }
    /* The next piece on the taker's side turns up; a nearest piece is
     * always face up, so turning up both ends of every column is the same. */
    for (int c = 0; c < MC_COLUMNS; c++)
        for (int s = 0; s < MC_SEATS; s++) {
            int r = nearest_row(g, s, c);
            if (r >= 0) g->up[r][c] = true;
        }
    g->attempt_count = 0;
    if (grid_empty(g)) {
        set_over(g, state);
    } else if (g->round >= ROUND_LIMIT) {
        g->stopped = true;
        set_over(g, state);
    } else {
        g->round++;
        start_round(g, state);
    }
}

/* ---- The game table's functions -------------------------------------------- */

static void mc_init(gateau_state *state)
{
    mc_state *g = GAME_STATE(mc_state, state);
    memset(g, 0, sizeof *g);
    memset(g->grid, MC_NO_PIECE, sizeof g->grid);
    for (int r = 0; r < MC_ROWS; r++)
        for (int c = 0; c < MC_COLUMNS; c++) g->up[r][c] = r % 2 == 0; /* rows 1 3 5 7 */
    g->undealt = (1u << MC_PIECES) - 1;
    g->round = 1;
    g->phase = MC_PHASE_DEAL;
    for (int s = 0; s < MC_SEATS; s++) plan_clear(&g->plans[s]);
    state_set_chance(state);
    state->in_move = false;
    state->simultaneous = false;
}

static int mc_legal_actions(const gateau_state *state, int seat, gateau_action *actions)
{
    const mc_state *g = GAME_STATE_CONST(mc_state, state);
    int count = 0;
    if (g->phase != MC_PHASE_ASSIGN) return 0;
    const mc_plan *p = &g->plans[seat];
    if (p->wants_target) {
        for (uint32_t s = g->stash[1 - seat]; s; s &= s - 1)
            actions[count++] = MC_TARGET + __builtin_ctz(s);
        return count;
    }
    unsigned open = mc_open_columns(g, seat, NULL);
    for (int c = p->placed ? p->last_column : 0; c < MC_COLUMNS; c++)
        if (open & (1u << c)) actions[count++] = MC_PLACE + c;
    return count;
}

static int mc_chance_outcomes(const gateau_state *state, gateau_action *outcomes,
                              double *probabilities)
{
    const mc_state *g = GAME_STATE_CONST(mc_state, state);
    int count = 0;
    if (g->phase == MC_PHASE_DEAL) {
        double each = 1.0 / (MC_PIECES - g->dealt);
        for (uint32_t u = g->undealt; u; u &= u - 1) {
            outcomes[count] = MC_DEAL + __builtin_ctz(u);
            probabilities[count++] = each;
        }
    } else if (g->phase == MC_PHASE_ROLL) {
        for (int f = 0; f < MC_FACES; f++) {
            outcomes[count] = MC_DIE + f;
            probabilities[count++] = 1.0 / MC_FACES;
        }
    }
    return count;
}

static gateau_action mc_sample_chance(const gateau_state *state, gateau_rng *rng)
{
    const mc_state *g = GAME_STATE_CONST(mc_state, state);
    if (g->phase == MC_PHASE_ROLL) return MC_DIE + (gateau_action)gateau_rng_below(rng, MC_FACES);
    int r = (int)gateau_rng_below(rng, (uint32_t)(MC_PIECES - g->dealt));
    uint32_t u = g->undealt;
    while (r--) u &= u - 1;
    return MC_DEAL + __builtin_ctz(u);
}

static void apply_deal(mc_state *g, gateau_state *state, int piece)
{
    g->grid[g->dealt / MC_COLUMNS][g->dealt % MC_COLUMNS] = (uint8_t)piece;
    g->undealt &= ~(1u << piece);
    g->dealt++;
    state->in_move = g->dealt < MC_PIECES;
    if (g->dealt == MC_PIECES) start_round(g, state);
}

static void apply_assign(mc_state *g, gateau_state *state, int seat, gateau_action action)
{
    mc_plan *p = &g->plans[seat];
    plan_add(g, seat, p, action);
    if (!plan_complete(g, seat, p)) {
        /* Only this seat acts until its assignment is whole. */
        state->in_move = true;
        state->actors = 1u << seat;
        return;
    }
    state->in_move = false;
    g->assigned[seat] = true;
    uint32_t left = 0;
    for (int s = 0; s < MC_SEATS; s++)
        if (g->must_assign[s] && !g->assigned[s]) left |= 1u << s;
    if (left) state->actors = left;
    else begin_rolls(g, state);
}

static void apply_die(mc_state *g, gateau_state *state, int face)
{
    mc_attempt *a = &g->attempts[g->rolling];
    a->dice[g->rolled++] = (uint8_t)face;
    state->in_move = g->rolled < a->mice;
    if (state->in_move) return;
    g->rolled = 0;
    if (++g->rolling == g->attempt_count) resolve_round(g, state);
}

static void mc_apply(gateau_state *state, int seat, gateau_action action)
{
    mc_state *g = GAME_STATE(mc_state, state);
    if (action < MC_PLACE) apply_deal(g, state, action - MC_DEAL);
    else if (action >= MC_DIE) apply_die(g, state, action - MC_DIE + 1);
    else apply_assign(g, state, seat, action);
}

static void mc_scores(const gateau_state *state, int *scores)
{
    const mc_state *g = GAME_STATE_CONST(mc_state, state);
    for (int s = 0; s < MC_SEATS; s++) scores[s] = mc_stash_pips(g->stash[s]);
}

/* Most pips; tied: more pieces; still tied: the owner of 6/6; else shared. */
static uint32_t mc_winners(const gateau_state *state)
{
    const mc_state *g = GAME_STATE_CONST(mc_state, state);
    int p0 = mc_stash_pips(g->stash[0]), p1 = mc_stash_pips(g->stash[1]);
    if (p0 != p1) return p0 > p1 ? 1u : 2u;
    int n0 = __builtin_popcount(g->stash[0]), n1 = __builtin_popcount(g->stash[1]);
    if (n0 != n1) return n0 > n1 ? 1u : 2u;
    if (g->stash[0] & (1u << MC_DOUBLE_SIX)) return 1u;
    if (g->stash[1] & (1u << MC_DOUBLE_SIX)) return 2u;
    return 3u;
}

static const char *mc_end_note(const gateau_state *state)
{
    const mc_state *g = GAME_STATE_CONST(mc_state, state);
    return g->stopped ? "stopped by the 500-round guard with pieces still on the grid; "
                        "scored as it stood"
                      : NULL;
}

/* The assign actions of a whole plan, in the order they are taken. */
static int plan_actions(const mc_state *g, int seat, const uint8_t *mice, int target,
                        gateau_action *actions)
{
    int count = 0;
    for (int c = 0; c < MC_COLUMNS; c++)
        for (int k = 0; k < mice[c]; k++) {
            actions[count++] = MC_PLACE + c;
            if (k == 0 && steal_column(g, seat, c)) actions[count++] = MC_TARGET + target;
        }
    return count;
}

/*
 * A new secret plan for seat, uniform among its complete assignments (a
 * count per open column, adding up to its ready mice, times the choice of
 * target on a steal).  partial: seat is in the middle of its assignment, so
 * keep a random nonempty proper beginning of a plan of at least 2 actions.
 */
static void resample_plan(mc_state *g, int seat, bool partial, gateau_rng *rng)
{
    unsigned open = mc_open_columns(g, seat, NULL);
    int n = g->ready[seat], steal = -1, targets = __builtin_popcount(g->stash[1 - seat]);
    for (int c = 0; c < MC_COLUMNS; c++)
        if ((open & (1u << c)) && steal_column(g, seat, c)) steal = c;
    uint32_t total = 0, pick = 0;
    uint8_t mice[MC_COLUMNS] = {0};
    for (int pass = 0; pass < 2; pass++) {
        /* Every way to put the n (<= MC_MICE) mice in the columns, column A
         * counting fastest (the order of the plans' weights below). */
        for (int m3 = 0; m3 <= n; m3++)
        for (int m2 = 0; m2 <= n - m3; m2++)
        for (int m1 = 0; m1 <= n - m3 - m2; m1++) {
            mice[0] = (uint8_t)(n - m3 - m2 - m1);
            mice[1] = (uint8_t)m1;
            mice[2] = (uint8_t)m2;
            mice[3] = (uint8_t)m3;
            bool fits = true;
            for (int c = 0; c < MC_COLUMNS; c++)
                if (mice[c] && !(open & (1u << c))) fits = false;
            if (!fits) continue;
            bool stealing = steal >= 0 && mice[steal];
            if (partial && n + stealing < 2) continue;
            uint32_t weight = stealing ? (uint32_t)targets : 1;
            if (pass == 0) {
                total += weight;
            } else if (pick < weight) {
                int target = MC_NO_PIECE;
                if (stealing) {
                    uint32_t s = g->stash[1 - seat];
                    while (pick--) s &= s - 1;
                    target = __builtin_ctz(s);
                }
                gateau_action actions[MC_MICE + 1];
                int count = plan_actions(g, seat, mice, target, actions);
                if (partial) count = 1 + (int)gateau_rng_below(rng, (uint32_t)(count - 1));
                plan_clear(&g->plans[seat]);
                for (int i = 0; i < count; i++) plan_add(g, seat, &g->plans[seat], actions[i]);
                return;
            } else {
                pick -= weight;
            }
        }
        if (total == 0) return; /* cannot happen: the seat had a mc_plan */
        pick = gateau_rng_below(rng, total);
    }
}

/* Resamples what seat cannot know: the face-down pieces (during the deal,
 * every piece dealt so far) and the other seat's secret assignment. */
static void mc_determinize(gateau_state *state, int seat, gateau_rng *rng)
{
    mc_state *g = GAME_STATE(mc_state, state);
    if (g->phase == MC_PHASE_OVER) return;
    if (g->phase == MC_PHASE_DEAL) {
        uint8_t pool[MC_PIECES];
        for (int p = 0; p < MC_PIECES; p++) pool[p] = (uint8_t)p;
        g->undealt = (1u << MC_PIECES) - 1;
        for (int i = 0; i < g->dealt; i++) {
            int j = i + (int)gateau_rng_below(rng, (uint32_t)(MC_PIECES - i));
            uint8_t swap = pool[i];
            pool[i] = pool[j];
            pool[j] = swap;
            g->grid[i / MC_COLUMNS][i % MC_COLUMNS] = pool[i];
            g->undealt &= ~(1u << pool[i]);
        }
        return;
    }
    /* The face-down pieces go back in piece order before the shuffle, so
     * that the result depends only on which pieces are face down (what
     * seat knows), not on where they lay: two states seat cannot tell
     * apart determinize alike (bots rely on it). */
    int rows[MC_ROWS * MC_COLUMNS], columns[MC_ROWS * MC_COLUMNS], n = 0;
    uint32_t face_down = 0;
    for (int r = 0; r < MC_ROWS; r++)
        for (int c = 0; c < MC_COLUMNS; c++)
            if (g->grid[r][c] != MC_NO_PIECE && !g->up[r][c]) {
                rows[n] = r;
                columns[n++] = c;
                face_down |= 1u << g->grid[r][c];
            }
    for (int i = 0; face_down; face_down &= face_down - 1, i++)
        g->grid[rows[i]][columns[i]] = (uint8_t)__builtin_ctz(face_down);
    for (int i = n - 1; i > 0; i--) {
        int j = (int)gateau_rng_below(rng, (uint32_t)(i + 1));
        uint8_t swap = g->grid[rows[i]][columns[i]];
        g->grid[rows[i]][columns[i]] = g->grid[rows[j]][columns[j]];
        g->grid[rows[j]][columns[j]] = swap;
    }
    if (g->phase != MC_PHASE_ASSIGN) return;
    for (int s = 0; s < MC_SEATS; s++) {
        if (s == seat) continue;
        if (g->assigned[s]) resample_plan(g, s, false, rng);
        else if (state->in_move && state->actors == 1u << s) resample_plan(g, s, true, rng);
    }
}

/* ---- Notation --------------------------------------------------------------- */

static void append_piece(gateau_text *out, int piece)
{
    text_append(out, "%d/%d", MC_LOW[piece], MC_HIGH[piece]);
}

/* "a/b" with halves 0..6, either order; -1 if not a piece. */
static int parse_piece(const char *word)
{
    if (strlen(word) != 3 || word[1] != '/') return -1;
    if (word[0] < '0' || word[0] > '6' || word[2] < '0' || word[2] > '6') return -1;
    return piece_of(word[0] - '0', word[2] - '0');
}

static void list_stash(uint32_t stash, gateau_text *out)
{
    if (!stash) text_append(out, "nothing");
    for (uint32_t s = stash; s; s &= s - 1) {
        if (s != stash) text_append_char(out, ' ');
        append_piece(out, __builtin_ctz(s));
    }
}

static void mc_format_move(const gateau_state *before, int seat, const gateau_action *actions,
                           int count, gateau_text *out)
{
    const mc_state *g = GAME_STATE_CONST(mc_state, before);
    (void)seat; /* an assign's columns and target say it all */
    if (actions[0] < MC_PLACE) {
        text_append(out, "deal");
        for (int i = 0; i < count; i++) {
            text_append_char(out, ' ');
            append_piece(out, actions[i] - MC_DEAL);
        }
    } else if (actions[0] >= MC_DIE) {
        const mc_attempt *a = &g->attempts[g->rolling];
        text_append(out, "roll %d %c", a->seat + 1, COLUMN_LETTER[a->column]);
        for (int i = 0; i < count; i++) text_append(out, " %d", actions[i] - MC_DIE + 1);
    } else {
        uint8_t mice[MC_COLUMNS] = {0};
        int target[MC_COLUMNS], column = 0;
        for (int c = 0; c < MC_COLUMNS; c++) target[c] = MC_NO_PIECE;
        for (int i = 0; i < count; i++) {
            if (actions[i] >= MC_TARGET) {
                target[column] = actions[i] - MC_TARGET;
            } else {
                column = actions[i] - MC_PLACE;
                mice[column]++;
            }
        }
        text_append(out, "assign");
        for (int c = 0; c < MC_COLUMNS; c++) {
            if (!mice[c]) continue;
            text_append(out, " %c%d", COLUMN_LETTER[c], mice[c]);
            if (target[c] != MC_NO_PIECE) {
                text_append_char(out, '>');
                append_piece(out, target[c]);
            }
        }
    }
}

static int parse_deal(const mc_state *g, const notation_words *w, gateau_action *actions,
                      char *error, size_t error_size)
{
    if (g->dealt) {
        set_error(error, error_size, "the deal is half made");
        return -1;
    }
    if (w->count != MC_PIECES + 1) {
        set_error(error, error_size, "a deal names all %d pieces, row by row, not %d", MC_PIECES,
                  w->count - 1);
        return -1;
    }
    uint32_t seen = 0;
    for (int i = 0; i < MC_PIECES; i++) {
        const char *word = w->word[1 + i];
        int piece = parse_piece(word);
        if (piece < 0) {
            set_error(error, error_size,
                      "'%s' (piece %d of the deal) is not a piece: write a/b with halves 0 to 6, "
                      "as in 2/6", word, i + 1);
            return -1;
        }
        if (seen & (1u << piece)) {
            set_error(error, error_size, "the deal names %d/%d twice", MC_LOW[piece], MC_HIGH[piece]);
            return -1;
        }
        seen |= 1u << piece;
        actions[i] = MC_DEAL + piece;
    }
    return MC_PIECES;
}

/* Reads "B2" or "B2>5/6"; false with a reason. */
static bool parse_group(const char *word, int *column, int *mice, int *target, char *error,
                        size_t error_size)
{
    char buffer[16];
    *target = MC_NO_PIECE;
    if (strlen(word) < sizeof buffer && word[0] >= 'A' && word[0] <= 'D') {
        strcpy(buffer, word);
        *column = word[0] - 'A';
        char *arrow = strchr(buffer, '>');
        if (arrow) *arrow = '\0';
        if (notation_int(buffer + 1, 0, 9, mice)) {
            if (!arrow) return true;
            if ((*target = parse_piece(arrow + 1)) >= 0) return true;
            set_error(error, error_size, "'%s' is not a piece: write a/b with halves 0 to 6, "
                      "as in 'B2>5/6'", arrow + 1);
            return false;
        }
    }
    set_error(error, error_size,
              "'%s' is not a column A-D and a number of mice, as in 'B2' or 'B2>5/6'", word);
    return false;
}

static int parse_assign(const mc_state *g, int seat, const notation_words *w,
                        gateau_action *actions, char *error, size_t error_size)
{
    int other = 1 - seat;
    if (w->count < 2) {
        set_error(error, error_size, "an assign names columns and mice, as in 'assign A1 C3'");
        return -1;
    }
    uint8_t mice[MC_COLUMNS] = {0};
    int target[MC_COLUMNS], total = 0, previous = -1;
    for (int i = 1; i < w->count; i++) {
        int column, count, piece;
        if (!parse_group(w->word[i], &column, &count, &piece, error, error_size)) return -1;
        if (column <= previous) {
            set_error(error, error_size, "columns are named once each, in order A..D: "
                      "%c comes after %c", COLUMN_LETTER[column], COLUMN_LETTER[previous]);
            return -1;
        }
        if (count == 0) {
            set_error(error, error_size, "column %c is named with 0 mice: name only columns "
                      "with at least 1 mouse", COLUMN_LETTER[column]);
            return -1;
        }
        previous = column;
        mice[column] = (uint8_t)count;
        target[column] = piece;
        total += count;
    }
    for (int c = 0; c < MC_COLUMNS; c++) {
        if (!mice[c]) continue;
        int piece = mc_nearest_piece(g, seat, c);
        if (piece == MC_NO_PIECE) {
            set_error(error, error_size, "column %c has no piece left", COLUMN_LETTER[c]);
            return -1;
        }
        if (piece != MC_DOUBLE_BLANK) {
            if (target[c] != MC_NO_PIECE) {
                set_error(error, error_size, "column %c is no steal (the nearest piece is "
                          "%d/%d, not 0/0): '>target' is not allowed there", COLUMN_LETTER[c],
                          MC_LOW[piece], MC_HIGH[piece]);
                return -1;
            }
            continue;
        }
        if (!g->stash[other]) {
            set_error(error, error_size, "column %c is a steal (the nearest piece is 0/0) but "
                      "seat %d's stash is empty: nothing to steal", COLUMN_LETTER[c], other + 1);
            return -1;
        }
        if (target[c] == MC_NO_PIECE) {
            set_error(error, error_size, "column %c is a steal (the nearest piece is 0/0): "
                      "name a target from seat %d's stash, as in '%c%d>%d/%d'",
                      COLUMN_LETTER[c], other + 1, COLUMN_LETTER[c], mice[c],
                      MC_LOW[__builtin_ctz(g->stash[other])], MC_HIGH[__builtin_ctz(g->stash[other])]);
            return -1;
        }
        if (!(g->stash[other] & (1u << target[c]))) {
            gateau_text held = {0};
            list_stash(g->stash[other], &held);
            set_error(error, error_size, "%d/%d is not in seat %d's stash (it holds %s)",
                      MC_LOW[target[c]], MC_HIGH[target[c]], other + 1, held.data);
            text_free(&held);
            return -1;
        }
    }
    if (total != g->ready[seat]) {
        set_error(error, error_size, "seat %d must place all %d ready mice, not %d", seat + 1,
                  g->ready[seat], total);
        return -1;
    }
    int count = 0;
    for (int c = 0; c < MC_COLUMNS; c++)
        for (int k = 0; k < mice[c]; k++) {
            actions[count++] = MC_PLACE + c;
            if (k == 0 && target[c] != MC_NO_PIECE) actions[count++] = MC_TARGET + target[c];
        }
    return count;
}

static int parse_roll(const mc_state *g, const notation_words *w, gateau_action *actions,
                      char *error, size_t error_size)
{
    const mc_attempt *a = &g->attempts[g->rolling];
    int seat = 0, column = -1;
    if (w->count >= 3 && strlen(w->word[2]) == 1 && strchr(COLUMN_LETTER, w->word[2][0]))
        column = (int)(strchr(COLUMN_LETTER, w->word[2][0]) - COLUMN_LETTER);
    if (w->count < 3 || !notation_int(w->word[1], 1, MC_SEATS, &seat) || column < 0) {
        set_error(error, error_size, "a roll is 'roll', the seat, the column and the dice, as "
                                     "in 'roll 1 C 6 6 5'");
        return -1;
    }
    if (seat - 1 != a->seat || column != a->column) {
        set_error(error, error_size, "the next roll is seat %d's for column %c ('roll %d %c "
                  "...'), not seat %d's for column %c", a->seat + 1, COLUMN_LETTER[a->column],
                  a->seat + 1, COLUMN_LETTER[a->column], seat, COLUMN_LETTER[column]);
        return -1;
    }
    int dice = w->count - 3;
    if (dice != a->mice) {
        set_error(error, error_size, "seat %d has %d %s on column %c, so the roll needs %d "
                  "%s, not %d", seat, a->mice, a->mice == 1 ? "mouse" : "mice",
                  COLUMN_LETTER[column], a->mice, a->mice == 1 ? "die" : "dice", dice);
        return -1;
    }
    for (int i = 0; i < dice; i++) {
        int face;
        if (!notation_int(w->word[3 + i], 1, MC_FACES, &face)) {
            set_error(error, error_size, "'%s' is not a die (1 to 6)", w->word[3 + i]);
            return -1;
        }
        actions[i] = MC_DIE + face - 1;
    }
    return dice;
}

static int mc_parse_move(const gateau_state *state, int seat, const char *text,
                         gateau_action *actions, char *error, size_t error_size)
{
    const mc_state *g = GAME_STATE_CONST(mc_state, state);
    notation_words w;
    if (!notation_split(text, &w) || w.count == 0) {
        set_error(error, error_size, "empty or overlong move");
        return -1;
    }
    static const char *const verb_of[] = {[MC_PHASE_DEAL] = "deal", [MC_PHASE_ASSIGN] = "assign",
                                          [MC_PHASE_ROLL] = "roll"};
    static const char *const expected[] = {
        [MC_PHASE_DEAL] = "the deal ('deal' and 28 pieces)",
        [MC_PHASE_ASSIGN] = "an assign, as in 'assign A1 C3'",
        [MC_PHASE_ROLL] = "a roll, as in 'roll 1 C 6 6 5'",
    };
    if (g->phase == MC_PHASE_OVER) {
        set_error(error, error_size, "the game is over");
        return -1;
    }
    if (strcmp(w.word[0], verb_of[g->phase]) != 0) {
        set_error(error, error_size, "expected %s, not '%s'", expected[g->phase], w.word[0]);
        return -1;
    }
    if (g->phase == MC_PHASE_DEAL) return parse_deal(g, &w, actions, error, error_size);
    if (g->phase == MC_PHASE_ROLL) return parse_roll(g, &w, actions, error, error_size);
    return parse_assign(g, seat, &w, actions, error, error_size);
}

static void mc_action_name(const gateau_state *state, int seat, gateau_action action,
                           gateau_text *out)
{
    (void)state;
    (void)seat;
    if (action < MC_PLACE) {
        text_append(out, "deal ");
        append_piece(out, action - MC_DEAL);
    } else if (action < MC_TARGET) {
        text_append(out, "mouse on %c", COLUMN_LETTER[action - MC_PLACE]);
    } else if (action < MC_DIE) {
        text_append(out, "steal ");
        append_piece(out, action - MC_TARGET);
    } else {
        text_append(out, "die %d", action - MC_DIE + 1);
    }
}

/* ---- Views -------------------------------------------------------------------- */

/* Hidden: the face-down pieces (all dealt pieces while the deal runs) and,
 * while assigning, the other seat's assignment. */

#define COLOR_RESET "\033[0m"
#define COLOR_DIM "\033[2m"
#define COLOR_BOLD "\033[1m"
static const char *const SEAT_COLOR[MC_SEATS] = {"\033[1;33m", "\033[1;34m"};

static bool cell_hidden(const mc_state *g, int r, int c)
{
    return g->phase == MC_PHASE_DEAL || !g->up[r][c];
}

/* Pieces nobody sees: face down in the grid, or not dealt yet. */
static uint32_t unseen_pieces(const mc_state *g)
{
    uint32_t unseen = g->phase == MC_PHASE_DEAL ? (1u << MC_PIECES) - 1 : 0;
    for (int r = 0; r < MC_ROWS; r++)
        for (int c = 0; c < MC_COLUMNS; c++)
            if (g->grid[r][c] != MC_NO_PIECE && cell_hidden(g, r, c)) unseen |= 1u << g->grid[r][c];
    return unseen;
}

/* The mice seat shows on column c to viewer: its own plan while assigning,
 * every group once the rolls begin. */
static int shown_mice(const mc_state *g, int seat, int column, int viewer)
{
    if (g->phase == MC_PHASE_ASSIGN) return seat == viewer ? g->plans[seat].mice[column] : 0;
    if (g->phase != MC_PHASE_ROLL) return 0;
    for (int i = 0; i < g->attempt_count; i++)
        if (g->attempts[i].seat == seat && g->attempts[i].column == column)
            return g->attempts[i].mice;
    return 0;
}

/* Ends a line of the drawing without its trailing blanks. */
static void flush_line(gateau_text *line, gateau_text *out)
{
    size_t length = line->length;
    while (length && line->data[length - 1] == ' ') length--;
    text_append(out, "%.*s\n", (int)length, line->length ? line->data : "");
    text_free(line);
}

static void view_mice_row(const mc_state *g, int seat, int viewer, bool color, gateau_text *out)
{
    gateau_text line = {0};
    text_append(&line, "  %s%-8s%s", color ? SEAT_COLOR[seat] : "",
                seat == 0 ? "yellow" : "blue", color ? COLOR_RESET : "");
    for (int c = 0; c < MC_COLUMNS; c++) {
        char cell[16] = "";
        int m = shown_mice(g, seat, c, viewer), z = g->phase == MC_PHASE_OVER ? 0 : g->tired[seat][c];
        int length = 0;
        for (int i = 0; i < m; i++) cell[length++] = 'm';
        if (m && z) cell[length++] = ' ';
        for (int i = 0; i < z; i++) cell[length++] = 'z';
        cell[length] = '\0';
        if (color && length) text_append(&line, "  %s%-6s%s", SEAT_COLOR[seat], cell, COLOR_RESET);
        else text_append(&line, "  %-6s", cell);
    }
    flush_line(&line, out);
}

static void view_grid(const mc_state *g, int viewer, bool color, gateau_text *out)
{
    /* The viewer's own front row nearest the bottom: blue sees row 1 on
     * top, everyone else row 7 on top. */
    int bottom = viewer == 1 ? 1 : 0, top = 1 - bottom;
    gateau_text line = {0};
    text_append(&line, "          ");
    for (int c = 0; c < MC_COLUMNS; c++) text_append(&line, "  %c     ", COLUMN_LETTER[c]);
    flush_line(&line, out);
    view_mice_row(g, top, viewer, color, out);
    for (int i = 0; i < MC_ROWS; i++) {
        int r = bottom == 0 ? MC_ROWS - 1 - i : i;
        text_append(&line, "  row %d   ", r + 1);
        for (int c = 0; c < MC_COLUMNS; c++) {
            int piece = g->grid[r][c];
            if (piece == MC_NO_PIECE) {
                text_append(&line, "  .     ");
            } else if (cell_hidden(g, r, c)) {
                text_append(&line, "  %s??%s    ", color ? COLOR_DIM : "", color ? COLOR_RESET : "");
            } else {
                bool bold = color && (piece == MC_DOUBLE_BLANK || r == nearest_row(g, 0, c) ||
                                      r == nearest_row(g, 1, c));
                text_append(&line, "  %s%d/%d%s   ", bold ? COLOR_BOLD : "", MC_LOW[piece],
                            MC_HIGH[piece], bold ? COLOR_RESET : "");
            }
        }
        flush_line(&line, out);
    }
    view_mice_row(g, bottom, viewer, color, out);
    text_append(out, "  (m: a mouse placed; z: an exhausted mouse, sitting out this round)\n\n");
}

static void view_seats(const mc_state *g, int viewer, bool color, gateau_text *out)
{
    for (int s = 0; s < MC_SEATS; s++) {
        uint32_t stash = g->stash[s];
        text_append(out, "  %sseat %d (%s)%s%s: ", color ? SEAT_COLOR[s] : "", s + 1,
                    SEAT_COLOR_NAME[s], color ? COLOR_RESET : "", s == viewer ? ", you" : "");
        if (g->phase == MC_PHASE_ASSIGN || g->phase == MC_PHASE_ROLL)
            text_append(out, "%d mice ready, %d exhausted; ", MC_MICE - tired_count(g, s),
                        tired_count(g, s));
        text_append(out, "stash %d pips in %d piece%s: ", mc_stash_pips(stash),
                    __builtin_popcount(stash), __builtin_popcount(stash) == 1 ? "" : "s");
        list_stash(stash, out);
        text_append_char(out, '\n');
    }
    uint32_t unseen = unseen_pieces(g);
    if (unseen && g->phase != MC_PHASE_OVER) {
        text_append(out, "  not yet seen (%d): ", __builtin_popcount(unseen));
        list_stash(unseen, out);
        text_append_char(out, '\n');
    }
    if (g->removed) {
        text_append(out, "  out of the game: ");
        list_stash(g->removed, out);
        text_append_char(out, '\n');
    }
}

static void view_attempt(const mc_attempt *a, int rolled, gateau_text *out)
{
    text_append(out, "    %c  seat %d  %d %-5s  %-6s ", COLUMN_LETTER[a->column], a->seat + 1,
                a->mice, a->mice == 1 ? "mouse" : "mice", a->steal ? "steals" : "on");
    append_piece(out, a->piece);
    text_append(out, " (%d):", mc_pips(a->piece));
    if (rolled == 0) {
        text_append(out, " to roll\n");
        return;
    }
    for (int i = 0; i < rolled; i++) text_append(out, " %d", a->dice[i]);
    if (rolled < a->mice) {
        text_append(out, " ...\n");
        return;
    }
    int tired = mc_exhaustion(a->piece, a->dice, a->mice);
    text_append(out, " = %d, ", dice_sum(a));
    if (tired) text_append(out, "%d exhausted, fails\n", tired);
    else if (dice_sum(a) < mc_pips(a->piece)) text_append(out, "too low\n");
    else text_append(out, "success\n");
}

static void view_phase(const gateau_state *state, const mc_state *g, int viewer,
                       gateau_text *out)
{
    switch (g->phase) {
    case MC_PHASE_DEAL:
        text_append(out, "The pieces are being shuffled into the grid.\n");
        break;
    case MC_PHASE_ASSIGN:
        text_append(out, "Assigning, in secret:");
        for (int s = 0; s < MC_SEATS; s++) {
            text_append(out, "%s seat %d ", s ? "," : "", s + 1);
            if (!g->must_assign[s]) text_append(out, "has no mouse to place");
            else if (g->assigned[s]) text_append(out, "has assigned");
            else if (state->in_move && state->actors == 1u << s) text_append(out, "is assigning");
            else text_append(out, "is to assign");
        }
        text_append(out, ".\n");
        if (viewer >= 0 && g->must_assign[viewer] && g->plans[viewer].placed) {
            const mc_plan *p = &g->plans[viewer];
            text_append(out, "Your assignment%s:", g->assigned[viewer] ? "" : " so far");
            for (int c = 0; c < MC_COLUMNS; c++) {
                if (!p->mice[c]) continue;
                text_append(out, " %c%d", COLUMN_LETTER[c], p->mice[c]);
                if (steal_column(g, viewer, c)) {
                    text_append(out, ">");
                    if (p->target == MC_NO_PIECE) text_append(out, "?");
                    else append_piece(out, p->target);
                }
            }
            text_append_char(out, '\n');
        }
        break;
    case MC_PHASE_ROLL:
        text_append(out, "Rolls (columns A..D, yellow before blue):\n");
        for (int i = 0; i < g->attempt_count; i++)
            view_attempt(&g->attempts[i], i < g->rolling ? g->attempts[i].mice
                                          : i == g->rolling ? g->rolled : 0, out);
        break;
    default: {
        uint32_t winners = mc_winners(state);
        int p0 = mc_stash_pips(g->stash[0]), p1 = mc_stash_pips(g->stash[1]);
        text_append(out, "Game over after %d round%s", g->round, g->round == 1 ? "" : "s");
        if (g->stopped) text_append(out, " (stopped by the 500-round guard)");
        if (winners == 3) text_append(out, ": a shared win, %d pips each.\n", p0);
        else text_append(out, ": seat %d wins, %d pips to %d.\n", winners == 1 ? 1 : 2,
                         winners == 1 ? p0 : p1, winners == 1 ? p1 : p0);
    }
    }
}

static void mc_view_text(const gateau_state *state, int seat, bool color, gateau_text *out)
{
    const mc_state *g = GAME_STATE_CONST(mc_state, state);
    text_append(out, "Mice Cake, round %d", g->round);
    if (seat >= 0) text_append(out, " - you are seat %d (%s)", seat + 1, SEAT_COLOR_NAME[seat]);
    text_append(out, "\n\n");
    view_grid(g, seat, color, out);
    view_seats(g, seat, color, out);
    text_append_char(out, '\n');
    view_phase(state, g, seat, out);
}

static json_t *piece_json(int piece)
{
    char name[8];
    snprintf(name, sizeof name, "%d/%d", MC_LOW[piece], MC_HIGH[piece]);
    return json_string(name);
}

static json_t *pieces_json(uint32_t set)
{
    json_t *list = json_array();
    for (uint32_t s = set; s; s &= s - 1) json_array_append_new(list, piece_json(__builtin_ctz(s)));
    return list;
}

static json_t *columns_json(const uint8_t *counts)
{
    json_t *object = json_object();
    for (int c = 0; c < MC_COLUMNS; c++) {
        char key[2] = {COLUMN_LETTER[c], '\0'};
        json_object_set_new(object, key, json_integer(counts[c]));
    }
    return object;
}

static json_t *mc_view_json(const gateau_state *state, int seat)
{
    const mc_state *g = GAME_STATE_CONST(mc_state, state);
    static const char *const phase_names[] = {"deal", "assign", "roll", "over"};
    json_t *view = json_object();
    json_object_set_new(view, "game", json_string("mice-cake"));
    json_object_set_new(view, "seat", seat >= 0 ? json_integer(seat + 1) : json_null());
    json_object_set_new(view, "round", json_integer(g->round));
    json_object_set_new(view, "round_limit", json_integer(ROUND_LIMIT));
    json_object_set_new(view, "phase", json_string(phase_names[g->phase]));
    json_t *grid = json_array(); /* row 1 first, columns A..D */
    for (int r = 0; r < MC_ROWS; r++) {
        json_t *row = json_array();
        for (int c = 0; c < MC_COLUMNS; c++) {
            int piece = g->grid[r][c];
            json_array_append_new(row, piece == MC_NO_PIECE ? json_null()
                                       : cell_hidden(g, r, c) ? json_string("??")
                                                              : piece_json(piece));
        }
        json_array_append_new(grid, row);
    }
    json_object_set_new(view, "grid", grid);
    json_object_set_new(view, "unseen", pieces_json(unseen_pieces(g)));
    json_object_set_new(view, "removed", pieces_json(g->removed));
    json_t *to_act = json_array();
    for (int s = 0; s < MC_SEATS; s++)
        if (state->actors & (1u << s)) json_array_append_new(to_act, json_integer(s + 1));
    json_object_set_new(view, "to_act", to_act);
    json_t *seats = json_array();
    for (int s = 0; s < MC_SEATS; s++) {
        json_t *item = json_object();
        json_object_set_new(item, "seat", json_integer(s + 1));
        json_object_set_new(item, "color", json_string(SEAT_COLOR_NAME[s]));
        json_object_set_new(item, "ready", json_integer(MC_MICE - tired_count(g, s)));
        json_object_set_new(item, "exhausted", columns_json(g->tired[s]));
        json_object_set_new(item, "stash", pieces_json(g->stash[s]));
        json_object_set_new(item, "pips", json_integer(mc_stash_pips(g->stash[s])));
        json_object_set_new(item, "pieces", json_integer(__builtin_popcount(g->stash[s])));
        if (g->phase == MC_PHASE_ASSIGN) {
            json_object_set_new(item, "to_assign", json_boolean(g->must_assign[s]));
            json_object_set_new(item, "assigned", json_boolean(g->assigned[s]));
            if (s == seat) {
                const mc_plan *p = &g->plans[s];
                json_t *mine = columns_json(p->mice);
                json_object_set_new(mine, "target",
                                    p->target == MC_NO_PIECE ? json_null() : piece_json(p->target));
                json_object_set_new(item, "assignment", mine);
            }
        }
        json_array_append_new(seats, item);
    }
    json_object_set_new(view, "seats", seats);
    if (g->phase == MC_PHASE_ROLL) {
        json_t *attempts = json_array();
        for (int i = 0; i < g->attempt_count; i++) {
            const mc_attempt *a = &g->attempts[i];
            int rolled = i < g->rolling ? a->mice : i == g->rolling ? g->rolled : 0;
            json_t *item = json_object();
            char column[2] = {COLUMN_LETTER[a->column], '\0'};
            json_object_set_new(item, "seat", json_integer(a->seat + 1));
            json_object_set_new(item, "column", json_string(column));
            json_object_set_new(item, "mice", json_integer(a->mice));
            json_object_set_new(item, "steal", json_boolean(a->steal));
            json_object_set_new(item, "piece", piece_json(a->piece));
            json_object_set_new(item, "value", json_integer(mc_pips(a->piece)));
            json_t *dice = json_array();
            for (int k = 0; k < rolled; k++) json_array_append_new(dice, json_integer(a->dice[k]));
            json_object_set_new(item, "dice", dice);
            json_array_append_new(attempts, item);
        }
        json_object_set_new(view, "attempts", attempts);
    }
    if (g->phase == MC_PHASE_OVER) {
        json_t *winners = json_array();
        uint32_t mask = mc_winners(state);
        for (int s = 0; s < MC_SEATS; s++)
            if (mask & (1u << s)) json_array_append_new(winners, json_integer(s + 1));
        json_object_set_new(view, "winners", winners);
        json_object_set_new(view, "stopped_by_round_limit", json_boolean(g->stopped));
    }
    return view;
}

/* ---- Commentary --------------------------------------------------------------- */

static void describe_roll(const mc_attempt *a, gateau_text *out)
{
    int sum = dice_sum(a), value = mc_pips(a->piece);
    int tired = mc_exhaustion(a->piece, a->dice, a->mice);
    text_append(out, "%d %s %s", a->mice, a->mice == 1 ? "mouse" : "mice",
                a->steal ? "stealing " : "on ");
    append_piece(out, a->piece);
    text_append(out, ": %d against %d", sum, value);
    if (tired) {
        int l = MC_LOW[a->piece], h = MC_HIGH[a->piece];
        if (l == 0) text_append(out, ", but a %d exhausts 1 mouse: fails", h);
        else if (l == h) text_append(out, ", but two %ds exhaust 2 mice: fails", l);
        else text_append(out, ", but a %d and a %d exhaust 2 mice: fails", l, h);
    } else {
        text_append(out, sum >= value ? ": success" : ": too low");
    }
}

static void describe_conflict(const mc_attempt *y, const mc_attempt *b, gateau_text *out)
{
    bool ys = attempt_succeeds(y), bs = attempt_succeeds(b);
    if (y->steal) {
        text_append(out, ". Both steal at the last piece, 0/0: ");
        if (ys && bs) text_append(out, "both succeed, so the targets change hands and 0/0 "
                                       "leaves the game");
        else if (ys || bs) text_append(out, "seat %d alone succeeds", ys ? 1 : 2);
        else text_append(out, "neither succeeds");
        return;
    }
    int ysum = dice_sum(y), bsum = dice_sum(b);
    text_append(out, ". Both went for the last piece of column %c: ", COLUMN_LETTER[y->column]);
    if (ys && bs && ysum != bsum)
        text_append(out, "seat %d takes it with the higher sum, %d to %d", ysum > bsum ? 1 : 2,
                    ysum > bsum ? ysum : bsum, ysum > bsum ? bsum : ysum);
    else if (ys && bs) text_append(out, "equal sums, so it stays");
    else if (ys || bs) text_append(out, "only seat %d succeeds and takes it", ys ? 1 : 2);
    else text_append(out, "neither succeeds, it stays");
}

/* What the round changed, told after its last roll. */
static void describe_round_end(const mc_state *g, const mc_state *after, gateau_text *out)
{
    text_append(out, ". End of round %d:", g->round);
    bool any = false;
    for (int s = 0; s < MC_SEATS; s++) {
        uint32_t gained = after->stash[s] & ~g->stash[s], lost = g->stash[s] & ~after->stash[s];
        if (gained) {
            text_append(out, "%s seat %d stashes ", any ? ";" : "", s + 1);
            list_stash(gained, out);
            any = true;
        }
        if (lost) {
            text_append(out, "%s seat %d loses ", any ? ";" : "", s + 1);
            list_stash(lost, out);
            any = true;
        }
    }
    if (after->removed & ~g->removed) {
        text_append(out, "%s 0/0 leaves the game", any ? ";" : "");
        any = true;
    }
    for (int r = 0; r < MC_ROWS; r++)
        for (int c = 0; c < MC_COLUMNS; c++)
            if (after->grid[r][c] != MC_NO_PIECE && after->up[r][c] && !g->up[r][c]) {
                text_append(out, "%s ", any ? ";" : "");
                append_piece(out, after->grid[r][c]);
                text_append(out, " turns up (row %d, %c)", r + 1, COLUMN_LETTER[c]);
                any = true;
            }
    if (!any) text_append(out, " no piece changes hands");
    if (after->phase == MC_PHASE_OVER) {
        text_append(out, after->stopped ? ". The 500-round guard ends the game."
                                        : ". The grid is empty: game over.");
    } else {
        for (int s = 0; s < MC_SEATS; s++)
            if (tired_count(after, s))
                text_append(out, ". Seat %d has %d exhausted %s sitting out round %d", s + 1,
                            tired_count(after, s), tired_count(after, s) == 1 ? "mouse" : "mice",
                            after->round);
        text_append_char(out, '.');
    }
}

static void mc_describe_move(const gateau_state *before, int seat, const gateau_action *actions,
                             int count, int viewer, gateau_text *out)
{
    const mc_state *g = GAME_STATE_CONST(mc_state, before);
    if (seat != GATEAU_CHANCE) {
        if (viewer != seat) {
            text_append(out, "seat %d has assigned", seat + 1);
            return;
        }
        text_append(out, "seat %d: ", seat + 1);
        mc_format_move(before, seat, actions, count, out);
        return;
    }
    if (g->phase == MC_PHASE_DEAL) {
        text_append(out, "The 28 pieces are shuffled face down into the grid; rows 1, 3, 5 "
                         "and 7 are turned up.");
        return;
    }
    /* A roll: the dice are public, and so is the verdict. */
    gateau_state *after = gateau_state_clone(before);
    for (int i = 0; i < count; i++) before->setup->game->apply(after, seat, actions[i]);
    const mc_state *a = GAME_STATE_CONST(mc_state, after);
    mc_attempt rolled = g->attempts[g->rolling];
    for (int i = 0; i < count; i++) rolled.dice[i] = (uint8_t)(actions[i] - MC_DIE + 1);
    mc_format_move(before, seat, actions, count, out);
    text_append(out, ": seat %d, ", rolled.seat + 1);
    describe_roll(&rolled, out);
    /* A conflict is settled once both groups have rolled. */
    for (int i = 0; i < g->rolling; i++) {
        const mc_attempt *other = &g->attempts[i];
        if (other->column == rolled.column && mc_column_pieces(g, rolled.column) == 1)
            describe_conflict(other, &rolled, out);
    }
    if (rolled.seat == 0 && g->rolling + 1 < g->attempt_count &&
        g->attempts[g->rolling + 1].column == rolled.column && mc_column_pieces(g, rolled.column) == 1)
        text_append(out, " (seat 2 goes for this last piece too)");
    if (g->rolling + 1 == g->attempt_count) describe_round_end(g, a, out);
    gateau_state_free(after);
}

static void mc_describe_legal(const gateau_state *state, int seat, gateau_text *out)
{
    const mc_state *g = GAME_STATE_CONST(mc_state, state);
    if (g->phase != MC_PHASE_ASSIGN) return;
    int other = 1 - seat;
    text_append(out, "assign all %d ready mice: columns in order A..D, each with its number "
                     "of mice, as in 'assign %s'\n", g->ready[seat],
                g->ready[seat] == 1 ? "B1" : g->ready[seat] == 2 ? "A1 C1" :
                g->ready[seat] == 3 ? "A1 C2" : "A1 C3");
    for (int c = 0; c < MC_COLUMNS; c++) {
        int piece = mc_nearest_piece(g, seat, c);
        text_append(out, "  %c: ", COLUMN_LETTER[c]);
        if (piece == MC_NO_PIECE) {
            text_append(out, "empty\n");
            continue;
        }
        append_piece(out, piece);
        if (piece != MC_DOUBLE_BLANK) {
            text_append(out, " (%d pips)%s\n", mc_pips(piece),
                        mc_column_pieces(g, c) == 1 ? ", the last piece of the column" : "");
        } else if (!g->stash[other]) {
            text_append(out, ", a steal, closed: seat %d's stash is empty\n", other + 1);
        } else {
            text_append(out, ", a steal: add >target with a piece of seat %d's stash (", other + 1);
            list_stash(g->stash[other], out);
            text_append(out, "), as in '%c1>", COLUMN_LETTER[c]);
            append_piece(out, __builtin_ctz(g->stash[other]));
            text_append(out, "'\n");
        }
    }
}

static const char summary[] =
    "Mice Cake v2 (Thomas Gale), 2 players.\n"
    "\n"
    "The 28 dominoes of a double-six set lie in 7 rows of 4 columns (A-D)\n"
    "between yellow (seat 1, row 1) and blue (seat 2, row 7); rows 1, 3, 5, 7\n"
    "are face up. A player's nearest piece in a column is the one closest to\n"
    "his side; when a piece leaves, the next one on that side turns up.\n"
    "\n"
    "Each round both players secretly put all their ready mice (4, less the\n"
    "exhausted ones) on columns. Then each group rolls one die per mouse,\n"
    "column by column, yellow first: a sum of at least the piece's pips takes\n"
    "it, unless the dice match the piece: two dice showing both halves\n"
    "exhaust 2 mice; on a piece with a blank half, a die showing the other\n"
    "half exhausts 1. Exhausted mice sit out the next round. When both go\n"
    "for the last piece of a column, the higher successful sum takes it (a\n"
    "tie leaves it). Mice on the double-blank steal a named piece from the\n"
    "other stash (rolling against it) and take 0/0 too; if both steal, the\n"
    "targets swap and 0/0 leaves the game.\n"
    "\n"
    "When the grid is empty, most pips wins; ties: more pieces, then whoever\n"
    "owns 6/6. The engine stops a game after 500 rounds.\n"
    "\n"
    "Moves: deal 1/2 3/4 ... (28) | 1: assign A1 C3 | 2: assign B2>5/6 D2 |\n"
    "roll 1 C 6 6 5\n";

const gateau_game mice_cake_game = {
    .name = "mice-cake",
    .title = "Mice Cake",
    .summary = summary,
    .min_players = 2,
    .max_players = 2,
    .options = NULL,
    .option_count = 0,
    .state_size = sizeof(mc_state),
    .type = {.simultaneous = true, .chance = true, .hidden_information = true,
             .score_unit = "pips", .max_actions = 27, /* steal targets */
             .max_chance_outcomes = 28, .max_move_actions = 28 /* the deal */},
    .init = mc_init,
    .legal_actions = mc_legal_actions,
    .chance_outcomes = mc_chance_outcomes,
    .sample_chance = mc_sample_chance,
    .apply = mc_apply,
    .scores = mc_scores,
    .winners = mc_winners,
    .determinize = mc_determinize,
    .parse_move = mc_parse_move,
    .format_move = mc_format_move,
    .action_name = mc_action_name,
    .view_text = mc_view_text,
    .view_json = mc_view_json,
    .describe_move = mc_describe_move,
    .describe_legal = mc_describe_legal,
    .end_note = mc_end_note,
};
