/*
 * views.c: what a piece o' Cake seat sees: the terminal drawing (the cake
 * as a ring, the pieces, the seats' counts, the final scoring), the JSON
 * view, the commentary on moves and the explanation of the legal moves.
 *
 * Everything in this game is public except the unserved stacks and the
 * set-aside slices, so the views only differ in marking "you".
 */
#include <stdio.h>
#include <string.h>

#include "games/piece_o_cake/piece_o_cake.h"

static const char *const VARIETY_COLOR[POC_VARIETIES] = {
    "\033[1;35m", "\033[1;38;5;214m", "\033[1;31m", "\033[1;34m",
    "\033[1;32m", "\033[1;38;5;148m", "\033[1;38;5;205m", "\033[1;38;5;130m"};
#define COLOR_RESET "\033[0m"
#define COLOR_BOLD "\033[1m"

/* The ring: where each position's letter sits on a small canvas, and the
 * mark drawn on the boundary after it when the cake is cut there. */
enum { CANVAS_ROWS = 9, CANVAS_COLUMNS = 36 };
static const struct { int row, column; } RING[POC_CAKE_SIZE + 1] = {
    {0, 0}, {1, 7}, {1, 13}, {1, 19}, {1, 25}, {3, 30}, {5, 30},
    {7, 22}, {7, 16}, {7, 10}, {5, 4}, {3, 4}};
static const struct { int row, column; char mark; } BOUNDARY[POC_CAKE_SIZE + 1] = {
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
        const poc_piece *p = &g->pieces[i];
        int offset = (position - p->start + POC_CAKE_SIZE) % POC_CAKE_SIZE;
        if (offset < p->length) return i;
    }
    return -1;
}

static bool is_boundary(const poc_state *g, int b)
{
    if (g->phase == POC_PHASE_CUT || g->phase == POC_PHASE_DEAL) {
        for (int i = 0; i < g->cut_count; i++)
            if (g->cut[i] == b) return true;
        return false;
    }
    if (g->piece_count < 2) return false;
    return piece_at(g, b) != piece_at(g, poc_wrap_position(b + 1));
}

static void view_ring(const poc_state *g, bool color, gateau_text *out)
{
    canvas_cell canvas[CANVAS_ROWS][CANVAS_COLUMNS];
    for (int r = 0; r < CANVAS_ROWS; r++)
        for (int c = 0; c < CANVAS_COLUMNS; c++) canvas[r][c] = (canvas_cell){' ', -1};
    for (int p = 1; p <= POC_CAKE_SIZE; p++) {
        int row = RING[p].row, column = RING[p].column;
        char number[12];
        snprintf(number, sizeof number, "%d", p);
        if (row == 1) canvas_write(canvas, 0, column, number, -1);
        else if (row == 7) canvas_write(canvas, 8, column, number, -1);
        else if (column > 20) canvas_write(canvas, row, column + 2, number, -1);
        else canvas_write(canvas, row, column - 3, number, -1);
        int holder = piece_at(g, p);
        bool gone = holder >= 0 && g->pieces[holder].taker >= 0;
        int v = poc_cake_slice(g, p);
        char letter[2] = {gone ? '.' : POC_VARIETY_LETTER[v], '\0'};
        canvas_write(canvas, row, column, letter, gone ? -1 : v);
        if (is_boundary(g, p)) {
            char mark[2] = {BOUNDARY[p].mark, '\0'};
            canvas_write(canvas, BOUNDARY[p].row, BOUNDARY[p].column, mark, -2);
        }
    }
    char line[40];
    snprintf(line, sizeof line, "cake %d of %d", g->cake + 1, POC_CAKES);
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

static void view_letters(const poc_state *g, const poc_piece *p, bool color, gateau_text *out)
{
    for (int k = 0; k < p->length; k++) {
        int v = poc_cake_slice(g, poc_wrap_position(p->start + k));
        if (color) text_append(out, "%s%c%s", VARIETY_COLOR[v], POC_VARIETY_LETTER[v], COLOR_RESET);
        else text_append_char(out, POC_VARIETY_LETTER[v]);
    }
}

static void view_pieces(const poc_state *g, bool color, gateau_text *out)
{
    if (g->phase != POC_PHASE_CHOOSE && g->phase != POC_PHASE_SLICES) return;
    text_append(out, "Pieces:");
    for (int i = 0; i < g->piece_count; i++) {
        const poc_piece *p = &g->pieces[i];
        text_append(out, "  ");
        poc_append_piece(out, p->start, p->length);
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
    for (int v = 0; v < POC_VARIETIES; v++) {
        if (color)
            text_append(out, " %s%c%s ", VARIETY_COLOR[v], POC_VARIETY_LETTER[v], COLOR_RESET);
        else text_append(out, " %c ", POC_VARIETY_LETTER[v]);
    }
    text_append_char(out, '\n');
    int scores[GATEAU_MAX_PLAYERS] = {0};
    poc_scores(state, scores);
    for (int s = 0; s < g->players; s++) {
        int eaten = 0, points = 0;
        for (int v = 0; v < POC_VARIETIES; v++) {
            eaten += g->eaten[s][v];
            points += g->eaten[s][v] * POC_DOLLOPS[v];
        }
        text_append(out, "%s seat %d%s  ", s == viewer ? ">" : " ", s + 1,
                    s == viewer ? " (you)" : "      ");
        for (int v = 0; v < POC_VARIETIES; v++) {
            if (!g->collected[s][v]) text_append(out, " . ");
            else text_append(out, "%2d%c", g->collected[s][v], has_majority(g, s, v) ? '*' : ' ');
        }
        text_append(out, "  %2d (%2d pts)   %4d\n", eaten, points, scores[s]);
    }
    text_append(out, "  (* = holds the majority)\n");
}

static void view_unseen(const poc_state *g, gateau_text *out)
{
    if (g->phase == POC_PHASE_OVER || g->phase == POC_PHASE_DEAL) return;
    int counts[POC_VARIETIES] = {0}, total = 0;
    for (int i = poc_first_hidden(g); i < g->dealt; i++, total++) counts[g->slice[i]]++;
    int cakes = POC_CAKES - 1 - g->cake;
    text_append(out, "Not yet seen: %d slice%s in %d cake%s and %d set aside:", total,
                total == 1 ? "" : "s", cakes, cakes == 1 ? "" : "s", POC_SET_ASIDE);
    for (int v = 0; v < POC_VARIETIES; v++)
        if (counts[v]) text_append(out, " %c%d", POC_VARIETY_LETTER[v], counts[v]);
    text_append_char(out, '\n');
}

/* What the pieces nobody took have taken out of this round. */
static void view_removed(const poc_state *g, gateau_text *out)
{
    int total = 0;
    for (int v = 0; v < POC_VARIETIES; v++) total += g->removed[v];
    if (!total) return;
    text_append(out, "Removed this round (pieces nobody took): %d slice%s:", total,
                total == 1 ? "" : "s");
    for (int v = 0; v < POC_VARIETIES; v++)
        if (g->removed[v]) text_append(out, " %c%d", POC_VARIETY_LETTER[v], g->removed[v]);
    text_append_char(out, '\n');
}

/* The final table: per variety who holds the majority, then eaten points. */
static void view_scoring(const poc_state *g, gateau_text *out)
{
    text_append(out, "\nScoring%s:\n  variety          ", g->rounds > 1 ? " of the last round" : "");
    for (int s = 0; s < g->players; s++) text_append(out, " seat %d", s + 1);
    text_append_char(out, '\n');
    for (int v = 0; v < POC_VARIETIES; v++) {
        text_append(out, "  %c %-10s (%2d) ", POC_VARIETY_LETTER[v], POC_VARIETY_NAME[v],
                    POC_BONUS[v]);
        for (int s = 0; s < g->players; s++) {
            if (has_majority(g, s, v))
                text_append(out, " %2d:%-3d", g->collected[s][v], POC_BONUS[v]);
            else if (g->collected[s][v]) text_append(out, " %2d:0  ", g->collected[s][v]);
            else text_append(out, "   .   ");
        }
        text_append_char(out, '\n');
    }
    int round_points[GATEAU_MAX_PLAYERS];
    poc_round_scores(g, round_points);
    text_append(out, "  eaten points          ");
    for (int s = 0; s < g->players; s++) {
        int points = 0;
        for (int v = 0; v < POC_VARIETIES; v++) points += g->eaten[s][v] * POC_DOLLOPS[v];
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
    case POC_PHASE_DEAL: text_append(out, "The slices are being shuffled.\n"); break;
    case POC_PHASE_CUT: text_append(out, "Seat %d cuts the cake.\n", g->server + 1); break;
    case POC_PHASE_CHOOSE:
        text_append(out, "Seat %d chooses (turn %d of %d).\n", g->chooser + 1, g->turn,
                    poc_turns_per_cake(g->players));
        break;
    case POC_PHASE_SLICES:
        text_append(out, "Seat %d decides slice %d of piece ", g->chooser + 1, g->next_slice + 1);
        poc_append_piece(out, g->pieces[g->taking].start, g->pieces[g->taking].length);
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

void poc_view_text(const gateau_state *state, int seat, bool color, gateau_text *out)
{
    const poc_state *g = GAME_STATE_CONST(poc_state, state);
    text_append(out, "piece o' Cake, round %d of %d\n\n", g->round + 1, g->rounds);
    if (g->phase != POC_PHASE_DEAL && g->phase != POC_PHASE_OVER) {
        view_ring(g, color, out);
        view_pieces(g, color, out);
    }
    view_seats(state, g, seat, color, out);
    view_unseen(g, out);
    view_removed(g, out);
    if (g->phase == POC_PHASE_OVER) view_scoring(g, out);
    view_to_act(state, g, out);
}

const char *const POC_PHASE_NAME[POC_PHASE_OVER + 1] = {"deal", "cut", "choose", "slices",
                                                         "over"};

/* {"A":n,...}: a count per variety (the JSON view's helpers write one
 * value each, core/json_write.h). */
static void write_counts(const uint8_t *counts, json_writer *out)
{
    json_write_begin_object(out);
    for (int v = 0; v < POC_VARIETIES; v++) {
        char key[2] = {POC_VARIETY_LETTER[v], '\0'};
        json_write_key(out, key);
        json_write_integer(out, counts[v]);
    }
    json_write_end_object(out);
}

/* The cake being served: its slices, cuts and pieces. */
static void write_serving(const poc_state *g, json_writer *out)
{
    char letters[POC_CAKE_SIZE + 1];
    for (int p = 1; p <= POC_CAKE_SIZE; p++) letters[p - 1] = POC_VARIETY_LETTER[poc_cake_slice(g, p)];
    letters[POC_CAKE_SIZE] = '\0';
    json_write_key(out, "cake");
    json_write_integer(out, g->cake + 1);
    json_write_key(out, "server");
    json_write_integer(out, g->server + 1);
    json_write_key(out, "slices");
    json_write_string(out, letters);
    json_write_key(out, "cut_after");
    json_write_begin_array(out);
    for (int i = 0; i < g->cut_count; i++) json_write_integer(out, g->cut[i]);
    json_write_end_array(out);
    json_write_key(out, "pieces");
    json_write_begin_array(out);
    for (int i = 0; i < g->piece_count; i++) {
        gateau_text name = {0};
        poc_append_piece(&name, g->pieces[i].start, g->pieces[i].length);
        json_write_begin_object(out);
        json_write_key(out, "piece");
        json_write_string(out, name.data);
        json_write_key(out, "taken_by");
        if (g->pieces[i].taker >= 0) json_write_integer(out, g->pieces[i].taker + 1);
        else json_write_null(out);
        json_write_end_object(out);
        text_free(&name);
    }
    json_write_end_array(out);
    /* Which choosing turn of the cake it is: with two players the pieces
     * and counts do not tell (turns passed look alike). */
    if (g->phase != POC_PHASE_CUT) {
        json_write_key(out, "turn");
        json_write_integer(out, g->turn);
    }
}

void poc_view_json(const gateau_state *state, int seat, json_writer *out)
{
    const poc_state *g = GAME_STATE_CONST(poc_state, state);
    json_write_begin_object(out);
    json_write_key(out, "game");
    json_write_string(out, "piece-o-cake");
    json_write_key(out, "seat");
    if (seat >= 0) json_write_integer(out, seat + 1);
    else json_write_null(out);
    json_write_key(out, "round");
    json_write_integer(out, g->round + 1);
    json_write_key(out, "rounds");
    json_write_integer(out, g->rounds);
    json_write_key(out, "phase");
    json_write_string(out, POC_PHASE_NAME[g->phase]);
    if (poc_serving(g)) write_serving(g, out);
    json_write_key(out, "to_act");
    json_write_begin_array(out);
    for (int s = 0; s < g->players; s++)
        if (state->actors & (1u << s)) json_write_integer(out, s + 1);
    json_write_end_array(out);
    int scores[GATEAU_MAX_PLAYERS] = {0};
    poc_scores(state, scores);
    json_write_key(out, "seats");
    json_write_begin_array(out);
    for (int s = 0; s < g->players; s++) {
        json_write_begin_object(out);
        json_write_key(out, "seat");
        json_write_integer(out, s + 1);
        json_write_key(out, "collected");
        write_counts(g->collected[s], out);
        json_write_key(out, "eaten");
        write_counts(g->eaten[s], out);
        json_write_key(out, "banked");
        json_write_integer(out, g->banked[s]);
        json_write_key(out, "score");
        json_write_integer(out, scores[s]);
        json_write_end_object(out);
    }
    json_write_end_array(out);
    json_write_key(out, "removed");
    write_counts(g->removed, out);
    if (g->phase != POC_PHASE_OVER) {
        uint8_t unseen[POC_VARIETIES];
        poc_unseen(g, unseen);
        json_write_key(out, "unseen");
        write_counts(unseen, out);
    }
    json_write_end_object(out);
}

/* Spells out a take: which slices went down the hatch. */
static void describe_take(const poc_state *g, const gateau_action *actions, int count,
                          gateau_text *out)
{
    int start = actions[0] - POC_TAKE + 1;
    for (int pass = 0; pass < 2; pass++) {
        int shown = 0;
        for (int i = 1; i < count; i++) {
            if ((actions[i] == POC_EAT_SLICE) != (pass == 0)) continue;
            int v = poc_cake_slice(g, poc_wrap_position(start + i - 1));
            text_append(out, "%s%c", shown++ ? " " : (pass ? "; collects " : " (eats "),
                        POC_VARIETY_LETTER[v]);
        }
        if (!shown) text_append(out, pass ? "; collects nothing" : " (eats nothing");
    }
    text_append(out, ")");
}

/* After the last turn of a cake, the pieces still on the plate (but the
 * one this move takes) leave the game: says which, so nobody wonders
 * where they went. */
static void describe_untaken(const poc_state *g, gateau_action first, gateau_text *out)
{
    if (g->phase != POC_PHASE_CHOOSE || g->turn != poc_turns_per_cake(g->players)) return;
    int taken = first >= POC_TAKE && first < POC_FORFEIT_EAT ? first - POC_TAKE + 1 : 0;
    int pieces = 0, slices = 0;
    for (int i = 0; i < g->piece_count; i++)
        if (g->pieces[i].taker < 0 && g->pieces[i].start != taken) {
            pieces++;
            slices += g->pieces[i].length;
        }
    if (!pieces) return;
    text_append(out, ". Nobody took piece%s", pieces > 1 ? "s" : "");
    for (int i = 0, shown = 0; i < g->piece_count; i++) {
        const poc_piece *p = &g->pieces[i];
        if (p->taker >= 0 || p->start == taken) continue;
        shown++;
        text_append(out, "%s", shown == 1 ? " " : shown == pieces ? " and " : ", ");
        poc_append_piece(out, p->start, p->length);
        text_append(out, " (");
        view_letters(g, p, false, out);
        text_append(out, ")");
    }
    text_append(out, ": %s %d slice%s %s removed from the game and score%s for nobody.",
                pieces > 1 ? "their" : "its", slices, slices == 1 ? "" : "s",
                slices == 1 ? "is" : "are", slices == 1 ? "s" : "");
}

void poc_describe_move(const gateau_state *before, int seat, const gateau_action *actions,
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
    if (actions[0] >= POC_TAKE && actions[0] < POC_FORFEIT_EAT) describe_take(g, actions, count, out);
    describe_untaken(g, actions[0], out);
}

void poc_describe_legal(const gateau_state *state, int seat, gateau_text *out)
{
    const poc_state *g = GAME_STATE_CONST(poc_state, state);
    if (g->phase == POC_PHASE_CUT) {
        text_append(out, "cut the cake into 1 to %d pieces of neighbouring positions, listed "
                         "from the piece holding position 1:\n"
                         "  cut 1-3 4-7 8-11    cut 10-2 3-9 (a piece may wrap)    cut 1-11 "
                         "(the whole cake)", poc_max_pieces(g->players));
        return;
    }
    if (g->phase != POC_PHASE_CHOOSE) return;
    for (int i = 0; i < g->piece_count; i++) {
        const poc_piece *p = &g->pieces[i];
        if (p->taker >= 0) continue;
        text_append(out, "take ");
        poc_append_piece(out, p->start, p->length);
        text_append(out, " + %d letter%s e/c   (", p->length, p->length > 1 ? "s" : "");
        view_letters(g, p, false, out);
        text_append(out, ")\n");
    }
    for (int v = 0; v < POC_VARIETIES; v++)
        if (g->collected[seat][v])
            text_append(out, "eat %c   (your %d collected %s, %d point%s)\n",
                        POC_VARIETY_LETTER[v], g->collected[seat][v], POC_VARIETY_NAME[v],
                        g->collected[seat][v] * POC_DOLLOPS[v],
                        g->collected[seat][v] * POC_DOLLOPS[v] == 1 ? "" : "s");
    text_append(out, "pass");
}


void poc_key(gateau_text *out)
{
    text_append(out, "Varieties: a variety's slices in the game are also its bonus, scored by\n"
                     "whoever collects the most of it; an eaten slice scores its points.\n");
    for (int v = 0; v < POC_VARIETIES; v++)
        text_append(out, "  %c %-11s %2d slices, bonus %2d, eaten %d point%s a slice\n",
                    POC_VARIETY_LETTER[v], POC_VARIETY_NAME[v], POC_BONUS[v], POC_BONUS[v],
                    POC_DOLLOPS[v], POC_DOLLOPS[v] == 1 ? "" : "s");
    text_append(out, "A take has one letter per slice of the piece, clockwise: e eats the\n"
                     "slice, c collects it ('take 4-7 ecce'). Positions 1-11 go clockwise\n"
                     "round the cake; a piece a-b may wrap past 11 to 1.\n");
}
