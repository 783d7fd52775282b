/*
 * from_view.c: a Mice Cake position read back from a seat's JSON view (the
 * game's from_view, core/engine.h), field by field as views.c writes them:
 * the phase and round, the stashes and exhausted mice of the seats, the
 * grid, then what the phase adds (the assignments, the attempts and their
 * dice, the end).
 *
 * What the seat cannot know is filled as the rules allow: the face-down
 * cells get the pieces the view shows nowhere, in piece order (as
 * determinize lays them before it shuffles), and an opponent who has
 * assigned gets a plan of its own (all its mice on its first open column).
 * Everything else is public, or the seat's own, and is read.
 *
 * The view is not trusted: every value is checked before it is stored,
 * and so is what makes the position one the rules can reach (a column
 * loses pieces only at its ends, its end pieces are face up, the
 * assignments add up to the ready mice).  Views are sent between moves
 * (docs/protocol.md), so a position inside a move (half an assignment, a
 * group that has rolled some of its dice) is refused.
 */
#include <stdio.h>
#include <string.h>

#include "core/view_read.h"
#include "games/mice_cake/mice_cake.h"

static const char FACE_DOWN[] = "??";

/* ---- Values ------------------------------------------------------------------- */

/* A piece written "a/b", low half first, as views.c writes it. */
static bool read_piece(const json_t *value, const char *name, int *piece, view_error *error)
{
    const char *text = json_is_string(value) ? json_string_value(value) : "";
    for (int p = 0; p < MC_PIECES; p++) {
        char written[4] = {(char)('0' + MC_LOW[p]), '/', (char)('0' + MC_HIGH[p]), '\0'};
        if (strcmp(text, written) == 0) {
            *piece = p;
            return true;
        }
    }
    return view_fail(error, "'%s' must be a piece a/b, low half first, halves 0 to 6", name);
}

/* A list of distinct pieces, as a set (bit p: piece p). */
static bool read_piece_list(const json_t *object, const char *key, const char *name,
                            uint32_t *set, view_error *error)
{
    const json_t *list = json_object_get(object, key);
    if (!json_is_array(list) || json_array_size(list) > MC_PIECES)
        return view_fail(error, "'%s' must be a list of at most %d pieces", name, MC_PIECES);
    *set = 0;
    for (size_t i = 0; i < json_array_size(list); i++) {
        char element[64];
        snprintf(element, sizeof element, "%s[%zu]", name, i);
        int piece = 0;
        if (!read_piece(json_array_get(list, i), element, &piece, error)) return false;
        if (*set & (1u << piece)) return view_fail(error, "'%s' is listed twice", element);
        *set |= 1u << piece;
    }
    return true;
}

/* object[key] as true or false; name is its path. */
static bool read_flag(const json_t *object, const char *key, const char *name, bool *value,
                      view_error *error)
{
    const json_t *flag = json_object_get(object, key);
    if (!json_is_boolean(flag)) return view_fail(error, "'%s' must be true or false", name);
    *value = json_is_true(flag);
    return true;
}

/* A list of seat numbers (from 1), as a set (bit s: seat s). */
static bool read_seat_list(const json_t *object, const char *key, uint32_t *seats,
                           view_error *error)
{
    const json_t *list;
    if (!view_array(object, key, 0, MC_SEATS, &list, error)) return false;
    *seats = 0;
    for (size_t i = 0; i < json_array_size(list); i++) {
        char name[32];
        long seat;
        snprintf(name, sizeof name, "%s[%zu]", key, i);
        if (!view_int_value(json_array_get(list, i), name, 1, MC_SEATS, &seat, error))
            return false;
        *seats |= 1u << (seat - 1);
    }
    return true;
}

/* {"A":n,...,"D":n}: a count per column, each 0..max. */
static bool read_column_counts(const json_t *object, const char *name, long max,
                               uint8_t counts[MC_COLUMNS], view_error *error)
{
    if (!json_is_object(object)) return view_fail(error, "'%s' must be an object", name);
    for (int c = 0; c < MC_COLUMNS; c++) {
        char key[2] = {MC_COLUMN_LETTER[c], '\0'}, member[64];
        snprintf(member, sizeof member, "%s.%s", name, key);
        long count;
        if (!view_int_value(json_object_get(object, key), member, 0, max, &count, error))
            return false;
        counts[c] = (uint8_t)count;
    }
    return true;
}

/* Adds a piece the view shows to the set of shown pieces: each piece is in
 * one place only. */
static bool show_once(uint32_t *shown, int piece, const char *name, view_error *error)
{
    if (*shown & (1u << piece))
        return view_fail(error, "'%s': %d/%d is shown in two places", name, MC_LOW[piece],
                         MC_HIGH[piece]);
    *shown |= 1u << piece;
    return true;
}

/* ---- The seats, the removed piece and the grid ---------------------------------- */

static bool read_seats(const json_t *view, mc_state *g, uint32_t *shown, view_error *error)
{
    const json_t *seats;
    if (!view_array(view, "seats", MC_SEATS, MC_SEATS, &seats, error)) return false;
    for (int s = 0; s < MC_SEATS; s++) {
        const json_t *seat = json_array_get(seats, (size_t)s);
        char name[64];
        snprintf(name, sizeof name, "seats[%d]", s);
        if (!json_is_object(seat)) return view_fail(error, "'%s' must be an object", name);
        snprintf(name, sizeof name, "seats[%d].exhausted", s);
        if (!read_column_counts(json_object_get(seat, "exhausted"), name, MC_MAX_EXHAUSTED,
                                g->tired[s], error))
            return false;
        if (mc_tired_count(g, s) > MC_MICE)
            return view_fail(error, "'%s': a player has only %d mice", name, MC_MICE);
        snprintf(name, sizeof name, "seats[%d].stash", s);
        uint32_t stash;
        if (!read_piece_list(seat, "stash", name, &stash, error)) return false;
        for (uint32_t rest = stash; rest; rest &= rest - 1)
            if (!show_once(shown, __builtin_ctz(rest), name, error)) return false;
        g->stash[s] = stash;
    }
    return true;
}

/* Only the double-blank leaves the game (a double steal). */
static bool read_removed(const json_t *view, mc_state *g, uint32_t *shown, view_error *error)
{
    uint32_t removed;
    if (!read_piece_list(view, "removed", "removed", &removed, error)) return false;
    if (removed & ~(1u << MC_DOUBLE_BLANK))
        return view_fail(error, "'removed' may hold only 0/0, which a double steal removes");
    if (removed && !show_once(shown, MC_DOUBLE_BLANK, "removed", error)) return false;
    g->removed = removed;
    return true;
}

/* The grid's cells: a face-up piece, "??" face down, null empty.  A
 * face-down cell is left up == false and empty until fill_face_down(). */
static bool read_grid(const json_t *view, mc_state *g, uint32_t *shown, view_error *error)
{
    const json_t *rows;
    if (!view_array(view, "grid", MC_ROWS, MC_ROWS, &rows, error)) return false;
    for (int r = 0; r < MC_ROWS; r++) {
        const json_t *row = json_array_get(rows, (size_t)r);
        if (!json_is_array(row) || json_array_size(row) != MC_COLUMNS)
            return view_fail(error, "'grid[%d]' must be a list of %d", r, MC_COLUMNS);
        for (int c = 0; c < MC_COLUMNS; c++) {
            const json_t *cell = json_array_get(row, (size_t)c);
            char name[32];
            snprintf(name, sizeof name, "grid[%d][%d]", r, c);
            g->grid[r][c] = MC_NO_PIECE;
            g->up[r][c] = true; /* empty cells too: a piece leaves face up */
            if (json_is_null(cell)) continue;
            if (json_is_string(cell) && strcmp(json_string_value(cell), FACE_DOWN) == 0) {
                g->up[r][c] = false;
                continue;
            }
            int piece = 0;
            if (!read_piece(cell, name, &piece, error))
                return view_fail(error, "'%s' must be a piece a/b (low half first), '%s' "
                                 "or null", name, FACE_DOWN);
            if (!show_once(shown, piece, name, error)) return false;
            g->grid[r][c] = (uint8_t)piece;
        }
    }
    return true;
}

/* The face-down cells get the pieces shown nowhere, in piece order: the
 * seat cannot tell which lies where, and determinize shuffles them from
 * that order anyway. */
static bool fill_face_down(mc_state *g, uint32_t shown, view_error *error)
{
    uint32_t unseen = ((1u << MC_PIECES) - 1) & ~shown;
    int face_down = 0;
    for (int r = 0; r < MC_ROWS; r++)
        for (int c = 0; c < MC_COLUMNS; c++) face_down += !g->up[r][c];
    if (face_down != __builtin_popcount(unseen))
        return view_fail(error, "'grid' has %d pieces face down, but %d pieces are neither "
                         "face up, in a stash nor removed", face_down,
                         __builtin_popcount(unseen));
    for (int r = 0; r < MC_ROWS; r++)
        for (int c = 0; c < MC_COLUMNS; c++)
            if (!g->up[r][c]) {
                g->grid[r][c] = (uint8_t)__builtin_ctz(unseen);
                unseen &= unseen - 1;
            }
    return true;
}

/* A column loses pieces only at its ends, its end pieces (the nearest
 * ones) are face up, and rows 1, 3, 5 and 7 are never face down. */
static bool check_columns(const mc_state *g, view_error *error)
{
    for (int c = 0; c < MC_COLUMNS; c++) {
        int first = mc_nearest_row(g, 0, c), last = mc_nearest_row(g, 1, c);
        for (int r = 0; r < MC_ROWS; r++)
            if (!g->up[r][c] && r % 2 == 0)
                return view_fail(error, "'grid[%d][%d]': row %d is face up from the start", r,
                                 c, r + 1);
        if (first < 0) continue;
        for (int r = first; r <= last; r++)
            if (g->grid[r][c] == MC_NO_PIECE)
                return view_fail(error, "'grid[%d][%d]': a column loses pieces only at its "
                                 "ends", r, c);
        if (!g->up[first][c] || !g->up[last][c])
            return view_fail(error, "'grid[%d][%d]': a nearest piece is face up",
                             g->up[first][c] ? last : first, c);
    }
    return true;
}

static bool grid_empty(const mc_state *g)
{
    for (int c = 0; c < MC_COLUMNS; c++)
        if (mc_column_pieces(g, c)) return false;
    return true;
}

/* ---- The round ---------------------------------------------------------------- */

/* What the round's start decided (rules.c, start_round), from the grid,
 * the stashes and the exhausted mice, which do not change until the round
 * resolves. */
static void derive_round_start(mc_state *g)
{
    for (int s = 0; s < MC_SEATS; s++) {
        g->ready[s] = (uint8_t)(MC_MICE - mc_tired_count(g, s));
        g->must_assign[s] = g->ready[s] > 0 && mc_open_columns(g, s, NULL) != 0;
    }
}

/* A whole plan: mice per column and the steal target (MC_NO_PIECE if
 * none), as plan_add() in rules.c leaves it after the last action. */
static void set_plan(mc_plan *p, const uint8_t mice[MC_COLUMNS], int target)
{
    memset(p, 0, sizeof *p);
    for (int c = 0; c < MC_COLUMNS; c++) {
        p->mice[c] = mice[c];
        p->placed = (uint8_t)(p->placed + mice[c]);
        if (mice[c]) p->last_column = (uint8_t)c;
    }
    p->target = (uint8_t)target;
}

/* A legal complete plan for seat: all its mice on its first open column
 * (against the lowest piece of the other stash if that is a steal). */
static void default_plan(const mc_state *g, int seat, mc_plan *p)
{
    uint8_t mice[MC_COLUMNS] = {0};
    int column = __builtin_ctz(mc_open_columns(g, seat, NULL)); /* seat has one */
    mice[column] = g->ready[seat];
    int target = mc_steal_column(g, seat, column) ? __builtin_ctz(g->stash[1 - seat])
                                                  : MC_NO_PIECE;
    set_plan(p, mice, target);
}

/* Mice on column for seat: the column is open, and a steal names a piece
 * of the other stash; a column that is not a steal names none. */
static bool check_group(const mc_state *g, int seat, int column, int target, const char *name,
                        view_error *error)
{
    if (!(mc_open_columns(g, seat, NULL) & (1u << column)))
        return view_fail(error, "'%s': seat %d cannot put mice on column %c", name, seat + 1,
                         MC_COLUMN_LETTER[column]);
    if (!mc_steal_column(g, seat, column)) return true;
    if (target == MC_NO_PIECE || !(g->stash[1 - seat] & (1u << target)))
        return view_fail(error, "'%s': a steal on column %c targets a piece of seat %d's stash",
                         name, MC_COLUMN_LETTER[column], 2 - seat);
    return true;
}

/* The seat's own assignment: empty until it assigns, then whole. */
static bool read_own_plan(const json_t *seat_view, mc_state *g, int seat, view_error *error)
{
    char name[64];
    snprintf(name, sizeof name, "seats[%d].assignment", seat);
    const json_t *assignment = json_object_get(seat_view, "assignment");
    uint8_t mice[MC_COLUMNS];
    if (!read_column_counts(assignment, name, MC_MICE, mice, error)) return false;
    int target = MC_NO_PIECE, placed = 0;
    const json_t *target_view = json_object_get(assignment, "target");
    char target_name[80];
    snprintf(target_name, sizeof target_name, "%s.target", name);
    if (!json_is_null(target_view) && !read_piece(target_view, target_name, &target, error))
        return false;
    for (int c = 0; c < MC_COLUMNS; c++) placed += mice[c];
    if (!g->assigned[seat]) {
        if (placed || target != MC_NO_PIECE)
            return view_fail(error, "'%s' must be empty before the seat assigns (a view "
                             "shows no half-made move)", name);
        return true;
    }
    if (placed != g->ready[seat])
        return view_fail(error, "'%s' places %d mice, not the %d ready", name, placed,
                         g->ready[seat]);
    bool steals = false;
    for (int c = 0; c < MC_COLUMNS; c++) {
        if (!mice[c]) continue;
        if (!check_group(g, seat, c, target, name, error)) return false;
        steals |= mc_steal_column(g, seat, c);
    }
    if (!steals && target != MC_NO_PIECE)
        return view_fail(error, "'%s': a target without a steal", target_name);
    set_plan(&g->plans[seat], mice, target);
    return true;
}

/* Assigning: who has assigned, the seat's own plan; the seats still to
 * assign act together. */
static bool read_assigning(gateau_state *state, const json_t *view, mc_state *g, int seat,
                           view_error *error)
{
    const json_t *seats = json_object_get(view, "seats"); /* read_seats checked it */
    derive_round_start(g);
    uint32_t actors = 0;
    for (int s = 0; s < MC_SEATS; s++) {
        const json_t *seat_view = json_array_get(seats, (size_t)s);
        char name[64];
        snprintf(name, sizeof name, "seats[%d].assigned", s);
        if (!read_flag(seat_view, "assigned", name, &g->assigned[s], error)) return false;
        if (g->assigned[s] && !g->must_assign[s])
            return view_fail(error, "'%s': seat %d has no mouse to place", name, s + 1);
        if (g->must_assign[s] && !g->assigned[s]) actors |= 1u << s;
    }
    if (!actors)
        return view_fail(error, "'seats': nobody is left to assign, so the rolls would have "
                         "begun");
    if (!read_own_plan(json_array_get(seats, (size_t)seat), g, seat, error)) return false;
    int other = 1 - seat;
    if (g->assigned[other]) default_plan(g, other, &g->plans[other]);
    /* Only a seat in the middle of its assignment acts alone while the
     * other still has to assign: a position inside a move. */
    uint32_t listed;
    if (!read_seat_list(view, "to_act", &listed, error)) return false;
    if (listed != actors)
        return view_fail(error, "'to_act' must list the seats still to assign (a view shows "
                         "no half-made move)");
    g->phase = MC_PHASE_ASSIGN;
    state->actors = actors;
    state->chance = false;
    state->simultaneous = true;
    state->in_move = false;
    return true;
}

/* ---- The rolls ---------------------------------------------------------------- */

/* A column written as its letter. */
static bool read_column(const json_t *value, const char *name, int *column, view_error *error)
{
    const char *text = json_is_string(value) ? json_string_value(value) : "";
    const char *letter = text[0] && !text[1] ? strchr(MC_COLUMN_LETTER, text[0]) : NULL;
    if (!letter) return view_fail(error, "'%s' must be a column, A to D", name);
    *column = (int)(letter - MC_COLUMN_LETTER);
    return true;
}

/* One group of mice: whose, on which column, how many, against which
 * piece, and the dice it has rolled (their number in *rolled). */
static bool read_attempt(const json_t *attempt_view, int index, const mc_state *g,
                         mc_attempt *a, int *rolled, view_error *error)
{
    char name[32], field[48];
    snprintf(name, sizeof name, "attempts[%d]", index);
    if (!json_is_object(attempt_view)) return view_fail(error, "'%s' must be an object", name);
    long seat = 0, mice = 0;
    int column = 0, piece = 0;
    snprintf(field, sizeof field, "%s.seat", name);
    if (!view_int_value(json_object_get(attempt_view, "seat"), field, 1, MC_SEATS, &seat, error))
        return false;
    snprintf(field, sizeof field, "%s.column", name);
    if (!read_column(json_object_get(attempt_view, "column"), field, &column, error)) return false;
    snprintf(field, sizeof field, "%s.mice", name);
    if (!view_int_value(json_object_get(attempt_view, "mice"), field, 1, MC_MICE, &mice, error))
        return false;
    snprintf(field, sizeof field, "%s.piece", name);
    if (!read_piece(json_object_get(attempt_view, "piece"), field, &piece, error)) return false;
    int s = (int)seat - 1;
    bool steal = mc_steal_column(g, s, column);
    if (!check_group(g, s, column, steal ? piece : MC_NO_PIECE, name, error)) return false;
    if (!steal && piece != mc_nearest_piece(g, s, column))
        return view_fail(error, "'%s': mice roll against the nearest piece of their column",
                         field);
    memset(a, 0, sizeof *a);
    a->seat = (uint8_t)s;
    a->column = (uint8_t)column;
    a->mice = (uint8_t)mice;
    a->steal = steal;
    a->piece = (uint8_t)piece;
    const json_t *dice = json_object_get(attempt_view, "dice");
    snprintf(field, sizeof field, "%s.dice", name);
    if (!json_is_array(dice) || json_array_size(dice) > (size_t)mice)
        return view_fail(error, "'%s' must be a list of at most %ld dice", field, mice);
    *rolled = (int)json_array_size(dice);
    for (int k = 0; k < *rolled; k++) {
        char die[64];
        long face;
        snprintf(die, sizeof die, "%s[%d]", field, k);
        if (!view_int_value(json_array_get(dice, (size_t)k), die, 1, MC_FACES, &face, error))
            return false;
        a->dice[k] = (uint8_t)face;
    }
    return true;
}

/* The rolls: the groups, listed by column (A first) and yellow before
 * blue as begin_rolls() in rules.c makes them, roll in that order; the
 * plans behind them are public now. */
static bool read_rolls(gateau_state *state, const json_t *view, mc_state *g, view_error *error)
{
    derive_round_start(g);
    const json_t *attempts;
    if (!view_array(view, "attempts", 1, MC_MAX_ATTEMPTS, &attempts, error)) return false;
    int count = (int)json_array_size(attempts), previous = -1;
    uint8_t mice[MC_SEATS][MC_COLUMNS] = {{0}};
    int targets[MC_SEATS] = {MC_NO_PIECE, MC_NO_PIECE};
    g->rolling = (uint8_t)count; /* until a group that has not rolled */
    for (int i = 0; i < count; i++) {
        mc_attempt *a = &g->attempts[i];
        int rolled = 0;
        if (!read_attempt(json_array_get(attempts, (size_t)i), i, g, a, &rolled, error))
            return false;
        int order = a->column * MC_SEATS + a->seat;
        if (order <= previous)
            return view_fail(error, "'attempts[%d]': one group per seat and column, by column "
                             "A first, yellow before blue", i);
        previous = order;
        mice[a->seat][a->column] = a->mice;
        if (a->steal) targets[a->seat] = a->piece;
        if (g->rolling < count && rolled)
            return view_fail(error, "'attempts[%d].dice': the groups roll in order, and one "
                             "before has not rolled", i);
        if (g->rolling == count && rolled < a->mice) {
            if (rolled)
                return view_fail(error, "'attempts[%d].dice': a group rolls all its dice in "
                                 "one move (a view shows no half-made move)", i);
            g->rolling = (uint8_t)i;
        }
    }
    if (g->rolling == count)
        return view_fail(error, "'attempts': every group has rolled, so the round would be over");
    g->attempt_count = (uint8_t)count;
    for (int s = 0; s < MC_SEATS; s++) {
        int placed = 0;
        for (int c = 0; c < MC_COLUMNS; c++) placed += mice[s][c];
        int ready = g->must_assign[s] ? g->ready[s] : 0;
        if (placed != ready)
            return view_fail(error, "'attempts': seat %d rolls with %d mice, not the %d it "
                             "had to place", s + 1, placed, ready);
        g->assigned[s] = g->must_assign[s];
        set_plan(&g->plans[s], mice[s], targets[s]);
    }
    g->rolled = 0;
    g->phase = MC_PHASE_ROLL;
    state_set_chance(state);
    state->simultaneous = false;
    state->in_move = false;
    return true;
}

/* ---- The end ------------------------------------------------------------------ */

/* A game ends with the grid empty, or with pieces left only when the
 * 500-round guard stops it after round 500. */
static bool read_end(gateau_state *state, const json_t *view, mc_state *g, view_error *error)
{
    if (!read_flag(view, "stopped_by_round_limit", "stopped_by_round_limit", &g->stopped, error))
        return false;
    if (g->stopped == grid_empty(g))
        return view_fail(error, "'stopped_by_round_limit': a game ends %s",
                         g->stopped ? "by itself when the grid is empty"
                                    : "with pieces on the grid only by the 500-round guard");
    if (g->stopped && g->round != MC_ROUND_LIMIT)
        return view_fail(error, "'round': the guard stops a game after round %d",
                         MC_ROUND_LIMIT);
    g->phase = MC_PHASE_OVER;
    state_set_over(state);
    return true;
}

/* ---- The view ----------------------------------------------------------------- */

bool mc_from_view(gateau_state *state, int seat, const json_t *view, char *error_text,
                  size_t error_size)
{
    view_error error = {error_text, error_size};
    mc_state *g = GAME_STATE(mc_state, state);
    static const char *const phase_names[] = {"deal", "assign", "roll", "over"};
    const char *phase_name;
    if (!view_string(view, "phase", &phase_name, &error)) return false;
    int phase = -1;
    for (int p = 0; p < (int)(sizeof phase_names / sizeof phase_names[0]); p++)
        if (strcmp(phase_name, phase_names[p]) == 0) phase = p;
    if (phase < 0) return view_fail(&error, "'phase' must be deal, assign, roll or over");
    long round;
    if (!view_int(view, "round", 1, MC_ROUND_LIMIT, &round, &error)) return false;
    /* The deal is one move, so between moves it has not begun: the
     * position is the one init() made, and the core compares the rest. */
    if (phase == MC_PHASE_DEAL) return true;
    g->round = (uint16_t)round;
    uint32_t shown = 0;
    if (!read_seats(view, g, &shown, &error) || !read_removed(view, g, &shown, &error) ||
        !read_grid(view, g, &shown, &error) || !fill_face_down(g, shown, &error) ||
        !check_columns(g, &error))
        return false;
    g->dealt = MC_PIECES;
    g->undealt = 0;
    if (phase == MC_PHASE_OVER) return read_end(state, view, g, &error);
    if (grid_empty(g)) return view_fail(&error, "'grid' is empty, so the game would be over");
    if (phase == MC_PHASE_ASSIGN) return read_assigning(state, view, g, seat, &error);
    return read_rolls(state, view, g, &error);
}
