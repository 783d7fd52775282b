/*
 * views.c: what a Mice Cake seat sees: the terminal drawing, the JSON view,
 * the commentary on moves and the explanation of the legal moves.
 *
 * Public: the face-up pieces, the stashes, the exhausted mice, every
 * assignment once the rolls begin, the dice.  Private: a seat's own
 * assignment while assigning.  Hidden from all: the face-down pieces (all
 * dealt pieces while the deal runs).
 */
#include <stdio.h>
#include <string.h>

#include "games/mice_cake/mice_cake.h"

static const char *const SEAT_COLOR_NAME[MC_SEATS] = {"yellow", "blue"};

/* ---- The drawing --------------------------------------------------------- */

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
    for (int c = 0; c < MC_COLUMNS; c++) text_append(&line, "  %c     ", MC_COLUMN_LETTER[c]);
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
                bool bold = color && (piece == MC_DOUBLE_BLANK || r == mc_nearest_row(g, 0, c) ||
                                      r == mc_nearest_row(g, 1, c));
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
            text_append(out, "%d mice ready, %d exhausted; ", MC_MICE - mc_tired_count(g, s),
                        mc_tired_count(g, s));
        text_append(out, "stash %d pips in %d piece%s: ", mc_stash_pips(stash),
                    __builtin_popcount(stash), __builtin_popcount(stash) == 1 ? "" : "s");
        mc_list_stash(stash, out);
        text_append_char(out, '\n');
    }
    uint32_t unseen = unseen_pieces(g);
    if (unseen && g->phase != MC_PHASE_OVER) {
        text_append(out, "  not yet seen (%d): ", __builtin_popcount(unseen));
        mc_list_stash(unseen, out);
        text_append_char(out, '\n');
    }
    if (g->removed) {
        text_append(out, "  out of the game: ");
        mc_list_stash(g->removed, out);
        text_append_char(out, '\n');
    }
}

static void view_attempt(const mc_attempt *a, int rolled, gateau_text *out)
{
    text_append(out, "    %c  seat %d  %d %-5s  %-6s ", MC_COLUMN_LETTER[a->column], a->seat + 1,
                a->mice, a->mice == 1 ? "mouse" : "mice", a->steal ? "steals" : "on");
    mc_append_piece(out, a->piece);
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
    text_append(out, " = %d, ", mc_dice_sum(a));
    if (tired) text_append(out, "%d exhausted, fails\n", tired);
    else if (mc_dice_sum(a) < mc_pips(a->piece)) text_append(out, "too low\n");
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
                text_append(out, " %c%d", MC_COLUMN_LETTER[c], p->mice[c]);
                if (mc_steal_column(g, viewer, c)) {
                    text_append(out, ">");
                    if (p->target == MC_NO_PIECE) text_append(out, "?");
                    else mc_append_piece(out, p->target);
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

void mc_view_text(const gateau_state *state, int seat, bool color, gateau_text *out)
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

/* ---- The JSON view ------------------------------------------------------- */

/* The JSON view's helpers write one value each (core/json_write.h). */

/* A piece as "3/4". */
static void write_piece(int piece, json_writer *out)
{
    char name[8];
    snprintf(name, sizeof name, "%d/%d", MC_LOW[piece], MC_HIGH[piece]);
    json_write_string(out, name);
}

static void write_pieces(uint32_t set, json_writer *out)
{
    json_write_begin_array(out);
    for (uint32_t s = set; s; s &= s - 1) write_piece(__builtin_ctz(s), out);
    json_write_end_array(out);
}

/* {"A":n,...}: a count per column, inside an object begun by the caller. */
static void write_column_members(const uint8_t *counts, json_writer *out)
{
    for (int c = 0; c < MC_COLUMNS; c++) {
        char key[2] = {MC_COLUMN_LETTER[c], '\0'};
        json_write_key(out, key);
        json_write_integer(out, counts[c]);
    }
}

static void write_grid(const mc_state *g, json_writer *out)
{
    json_write_begin_array(out); /* row 1 first, columns A..D */
    for (int r = 0; r < MC_ROWS; r++) {
        json_write_begin_array(out);
        for (int c = 0; c < MC_COLUMNS; c++) {
            int piece = g->grid[r][c];
            if (piece == MC_NO_PIECE) json_write_null(out);
            else if (cell_hidden(g, r, c)) json_write_string(out, "??");
            else write_piece(piece, out);
        }
        json_write_end_array(out);
    }
    json_write_end_array(out);
}

static void write_seat(const mc_state *g, int s, int viewer, json_writer *out)
{
    json_write_begin_object(out);
    json_write_key(out, "seat");
    json_write_integer(out, s + 1);
    json_write_key(out, "color");
    json_write_string(out, SEAT_COLOR_NAME[s]);
    json_write_key(out, "ready");
    json_write_integer(out, MC_MICE - mc_tired_count(g, s));
    json_write_key(out, "exhausted");
    json_write_begin_object(out);
    write_column_members(g->tired[s], out);
    json_write_end_object(out);
    json_write_key(out, "stash");
    write_pieces(g->stash[s], out);
    json_write_key(out, "pips");
    json_write_integer(out, mc_stash_pips(g->stash[s]));
    json_write_key(out, "pieces");
    json_write_integer(out, __builtin_popcount(g->stash[s]));
    if (g->phase == MC_PHASE_ASSIGN) {
        json_write_key(out, "to_assign");
        json_write_boolean(out, g->must_assign[s]);
        json_write_key(out, "assigned");
        json_write_boolean(out, g->assigned[s]);
        if (s == viewer) {
            const mc_plan *p = &g->plans[s];
            json_write_key(out, "assignment");
            json_write_begin_object(out);
            write_column_members(p->mice, out);
            json_write_key(out, "target");
            if (p->target == MC_NO_PIECE) json_write_null(out);
            else write_piece(p->target, out);
            json_write_end_object(out);
        }
    }
    json_write_end_object(out);
}

static void write_attempts(const mc_state *g, json_writer *out)
{
    json_write_begin_array(out);
    for (int i = 0; i < g->attempt_count; i++) {
        const mc_attempt *a = &g->attempts[i];
        int rolled = i < g->rolling ? a->mice : i == g->rolling ? g->rolled : 0;
        char column[2] = {MC_COLUMN_LETTER[a->column], '\0'};
        json_write_begin_object(out);
        json_write_key(out, "seat");
        json_write_integer(out, a->seat + 1);
        json_write_key(out, "column");
        json_write_string(out, column);
        json_write_key(out, "mice");
        json_write_integer(out, a->mice);
        json_write_key(out, "steal");
        json_write_boolean(out, a->steal);
        json_write_key(out, "piece");
        write_piece(a->piece, out);
        json_write_key(out, "value");
        json_write_integer(out, mc_pips(a->piece));
        json_write_key(out, "dice");
        json_write_begin_array(out);
        for (int k = 0; k < rolled; k++) json_write_integer(out, a->dice[k]);
        json_write_end_array(out);
        json_write_end_object(out);
    }
    json_write_end_array(out);
}

/* The seats (numbered from 1) in mask, as a list. */
static void write_seat_list(uint32_t mask, json_writer *out)
{
    json_write_begin_array(out);
    for (int s = 0; s < MC_SEATS; s++)
        if (mask & (1u << s)) json_write_integer(out, s + 1);
    json_write_end_array(out);
}

void mc_view_json(const gateau_state *state, int seat, json_writer *out)
{
    const mc_state *g = GAME_STATE_CONST(mc_state, state);
    static const char *const phase_names[] = {"deal", "assign", "roll", "over"};
    json_write_begin_object(out);
    json_write_key(out, "game");
    json_write_string(out, "mice-cake");
    json_write_key(out, "seat");
    if (seat >= 0) json_write_integer(out, seat + 1);
    else json_write_null(out);
    json_write_key(out, "round");
    json_write_integer(out, g->round);
    json_write_key(out, "round_limit");
    json_write_integer(out, MC_ROUND_LIMIT);
    json_write_key(out, "phase");
    json_write_string(out, phase_names[g->phase]);
    json_write_key(out, "grid");
    write_grid(g, out);
    json_write_key(out, "unseen");
    write_pieces(unseen_pieces(g), out);
    json_write_key(out, "removed");
    write_pieces(g->removed, out);
    json_write_key(out, "to_act");
    write_seat_list(state->actors, out);
    json_write_key(out, "seats");
    json_write_begin_array(out);
    for (int s = 0; s < MC_SEATS; s++) write_seat(g, s, seat, out);
    json_write_end_array(out);
    if (g->phase == MC_PHASE_ROLL) {
        json_write_key(out, "attempts");
        write_attempts(g, out);
    }
    if (g->phase == MC_PHASE_OVER) {
        json_write_key(out, "winners");
        write_seat_list(mc_winners(state), out);
        json_write_key(out, "stopped_by_round_limit");
        json_write_boolean(out, g->stopped);
    }
    json_write_end_object(out);
}

/* ---- Commentary --------------------------------------------------------------- */

static void describe_roll(const mc_attempt *a, gateau_text *out)
{
    int sum = mc_dice_sum(a), value = mc_pips(a->piece);
    int tired = mc_exhaustion(a->piece, a->dice, a->mice);
    text_append(out, "%d %s %s", a->mice, a->mice == 1 ? "mouse" : "mice",
                a->steal ? "stealing " : "on ");
    mc_append_piece(out, a->piece);
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
    bool ys = mc_attempt_succeeds(y), bs = mc_attempt_succeeds(b);
    if (y->steal) {
        text_append(out, ". Both steal at the last piece, 0/0: ");
        if (ys && bs) text_append(out, "both succeed, so the targets change hands and 0/0 "
                                       "leaves the game");
        else if (ys || bs) text_append(out, "seat %d alone succeeds", ys ? 1 : 2);
        else text_append(out, "neither succeeds");
        return;
    }
    int ysum = mc_dice_sum(y), bsum = mc_dice_sum(b);
    text_append(out, ". Both went for the last piece of column %c: ", MC_COLUMN_LETTER[y->column]);
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
            mc_list_stash(gained, out);
            any = true;
        }
        if (lost) {
            text_append(out, "%s seat %d loses ", any ? ";" : "", s + 1);
            mc_list_stash(lost, out);
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
                mc_append_piece(out, after->grid[r][c]);
                text_append(out, " turns up (row %d, %c)", r + 1, MC_COLUMN_LETTER[c]);
                any = true;
            }
    if (!any) text_append(out, " no piece changes hands");
    if (after->phase == MC_PHASE_OVER) {
        text_append(out, after->stopped ? ". The 500-round guard ends the game."
                                        : ". The grid is empty: game over.");
    } else {
        for (int s = 0; s < MC_SEATS; s++) {
            int tired = mc_tired_count(after, s);
            if (tired)
                text_append(out, ". Seat %d has %d exhausted %s sitting out round %d", s + 1,
                            tired, tired == 1 ? "mouse" : "mice", after->round);
        }
        text_append_char(out, '.');
    }
}

void mc_describe_move(const gateau_state *before, int seat, const gateau_action *actions,
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
        g->attempts[g->rolling + 1].column == rolled.column &&
        mc_column_pieces(g, rolled.column) == 1)
        text_append(out, " (seat 2 goes for this last piece too)");
    if (g->rolling + 1 == g->attempt_count) describe_round_end(g, a, out);
    gateau_state_free(after);
}

/* ---- The legal moves explained ------------------------------------------- */

void mc_describe_legal(const gateau_state *state, int seat, gateau_text *out)
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
        text_append(out, "  %c: ", MC_COLUMN_LETTER[c]);
        if (piece == MC_NO_PIECE) {
            text_append(out, "empty\n");
            continue;
        }
        mc_append_piece(out, piece);
        if (piece != MC_DOUBLE_BLANK) {
            text_append(out, " (%d pips)%s\n", mc_pips(piece),
                        mc_column_pieces(g, c) == 1 ? ", the last piece of the column" : "");
        } else if (!g->stash[other]) {
            text_append(out, ", a steal, closed: seat %d's stash is empty\n", other + 1);
        } else {
            text_append(out, ", a steal: add >target with a piece of seat %d's stash (", other + 1);
            mc_list_stash(g->stash[other], out);
            text_append(out, "), as in '%c1>", MC_COLUMN_LETTER[c]);
            mc_append_piece(out, __builtin_ctz(g->stash[other]));
            text_append(out, "'\n");
        }
    }
}


void mc_key(gateau_text *out)
{
    text_append(out, "Pieces: the dominoes a/b of a double-six set, halves 0 to 6, each worth\n"
                     "a + b pips (0/0 nothing, 6/6 %d); ?? is a piece face down.\n"
                     "Columns %c to %c; row 1 is yellow's side (seat 1), row %d blue's (seat 2).\n"
                     "Mice: m a mouse placed, z an exhausted one (it sits out a round).\n"
                     "Dice: a sum of at least the piece's pips takes it, unless two dice show\n"
                     "both halves (2 mice exhausted) or, on a piece 0/b, a die shows b (1 mouse\n"
                     "exhausted).\n"
                     "0/0 as the nearest piece is a steal: name a piece of the other stash\n"
                     "('assign B2>5/6').\n",
                mc_pips(MC_DOUBLE_SIX), MC_COLUMN_LETTER[0], MC_COLUMN_LETTER[MC_COLUMNS - 1],
                MC_ROWS);
}
