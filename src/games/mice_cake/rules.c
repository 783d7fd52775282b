/*
 * rules.c: Mice Cake v2 (Thomas Gale, 2011), 2 players.
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
 *
 * Here: the rules, from the deal to the winners, the determinization and
 * the game table; the moves as text are in notation.c, what a seat sees in
 * views.c.
 */
#include <string.h>

#include "games/mice_cake/mice_cake.h"

/* ---- Rules helpers ------------------------------------------------------- */

const uint8_t MC_LOW[MC_PIECES] = {0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2,
                                   2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 6};
const uint8_t MC_HIGH[MC_PIECES] = {0, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 2,
                                    3, 4, 5, 6, 3, 4, 5, 6, 4, 5, 6, 5, 6, 6};

int mc_stash_pips(uint32_t stash)
{
    int total = 0;
    for (uint32_t s = stash; s; s &= s - 1) total += mc_pips(__builtin_ctz(s));
    return total;
}

/* The row of seat's nearest piece in column, or -1 if the column is empty:
 * yellow looks from row 1 up, blue from row 7 down. */
int mc_nearest_row(const mc_state *g, int seat, int column)
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
    int r = mc_nearest_row(g, seat, column);
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
bool mc_steal_column(const mc_state *g, int seat, int column)
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

int mc_dice_sum(const mc_attempt *a)
{
    int sum = 0;
    for (int i = 0; i < a->mice; i++) sum += a->dice[i];
    return sum;
}

/* Success: the sum reaches the value and no mouse is exhausted. */
bool mc_attempt_succeeds(const mc_attempt *a)
{
    return mc_dice_sum(a) >= mc_pips(a->piece) && mc_exhaustion(a->piece, a->dice, a->mice) == 0;
}

int mc_tired_count(const mc_state *g, int seat)
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
    if (p->mice[column]++ == 0 && mc_steal_column(g, seat, column)) p->wants_target = true;
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
            g->ready[s] = (uint8_t)(MC_MICE - mc_tired_count(g, s));
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
        if (g->round >= MC_ROUND_LIMIT) {
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
            a->steal = mc_steal_column(g, s, c);
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
    int seat = a->seat, r = mc_nearest_row(g, seat, a->column);
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
    bool ys = mc_attempt_succeeds(y), bs = mc_attempt_succeeds(b);
    if (ys && bs && y->steal) {
        /* Both steals succeed: the targets change hands, the
         * double-blank leaves the game. */
        g->stash[1] = (g->stash[1] & ~(1u << y->piece)) | (1u << b->piece);
        g->stash[0] = (g->stash[0] & ~(1u << b->piece)) | (1u << y->piece);
        int r = mc_nearest_row(g, 0, column);
        g->removed |= 1u << g->grid[r][column];
        g->grid[r][column] = MC_NO_PIECE;
    } else if (ys && bs) {
        int ysum = mc_dice_sum(y), bsum = mc_dice_sum(b);
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
        if (y >= 0 && mc_attempt_succeeds(&g->attempts[y])) take(g, &g->attempts[y]);
        if (b >= 0 && mc_attempt_succeeds(&g->attempts[b])) take(g, &g->attempts[b]);
    }
    /* The next piece on the taker's side turns up; a nearest piece is
     * always face up, so turning up both ends of every column is the same. */
    for (int c = 0; c < MC_COLUMNS; c++)
        for (int s = 0; s < MC_SEATS; s++) {
            int r = mc_nearest_row(g, s, c);
            if (r >= 0) g->up[r][c] = true;
        }
    /* The round's groups are spent: nothing of them stays behind, so that
     * a position is the same bytes however it was reached (a state read
     * back from a view, core/engine.h's from_view, has no past rounds). */
    memset(g->attempts, 0, sizeof g->attempts);
    g->attempt_count = 0;
    g->rolling = 0;
    if (grid_empty(g)) {
        set_over(g, state);
    } else if (g->round >= MC_ROUND_LIMIT) {
        g->stopped = true;
        set_over(g, state);
    } else {
        g->round++;
        start_round(g, state);
    }
}

/* ---- The game table's functions -------------------------------------------- */

/* The deal (one action a piece), then at most MC_ROUND_LIMIT rounds (the
 * engine's guard; rounds count from 1): per round each seat places at
 * most all its mice, with a steal target at most once per column, and
 * each mouse placed rolls one die. */
static int mc_max_game_length(const gateau_setup *setup)
{
    (void)setup;
    int per_round = MC_SEATS * (MC_MICE + MC_COLUMNS) + MC_SEATS * MC_MICE;
    return MC_PIECES + MC_ROUND_LIMIT * per_round;
}

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
uint32_t mc_winners(const gateau_state *state)
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
            if (k == 0 && mc_steal_column(g, seat, c)) actions[count++] = MC_TARGET + target;
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
        if ((open & (1u << c)) && mc_steal_column(g, seat, c)) steal = c;
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
    .order_move = mc_order_move,
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
    .move_visible = mc_move_visible,
    .describe_legal = mc_describe_legal,
    .key = mc_key,
    .max_game_length = mc_max_game_length,
    .action_space = MC_TARGET + MC_PIECES,
    .observe = mc_observe,
    .end_note = mc_end_note,
    .from_view = mc_from_view,
};
