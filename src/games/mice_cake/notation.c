/*
 * notation.c: Mice Cake's moves as text: reading them (parse_move), writing
 * them (format_move) and naming single actions (action_name).
 *
 *   deal    "deal 1/2 3/4 ..."         the 28 pieces, row by row, columns A..D
 *   assign  "assign A1 C3"             columns in order, each with its mice;
 *           "assign B2>5/6 D2"         >target after a steal column
 *   roll    "roll 1 C 6 6 5"           the seat, the column, one die a mouse
 *
 * A piece is written a/b; a/b and b/a are the same piece, written low half
 * first.  Columns are read in either case ("assign a1 c3"), written in
 * upper case.  Which lines a seat may read as they are played: move_visible.
 */
#include <stdio.h>
#include <string.h>

#include "core/notation.h"
#include "games/mice_cake/mice_cake.h"

const char MC_COLUMN_LETTER[MC_COLUMNS + 1] = "ABCD";

/* ---- Pieces -------------------------------------------------------------- */

/* The number of piece a/b (either order): 0/0 0/1 .. 0/6 1/1 .. 6/6. */
static int piece_of(int a, int b)
{
    if (a > b) {
        int swap = a;
        a = b;
        b = swap;
    }
    return a * 7 - a * (a - 1) / 2 + (b - a);
}

void mc_append_piece(gateau_text *out, int piece)
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

void mc_list_stash(uint32_t stash, gateau_text *out)
{
    if (!stash) text_append(out, "nothing");
    for (uint32_t s = stash; s; s &= s - 1) {
        if (s != stash) text_append_char(out, ' ');
        mc_append_piece(out, __builtin_ctz(s));
    }
}

/* ---- Writing moves ------------------------------------------------------- */

void mc_format_move(const gateau_state *before, int seat, const gateau_action *actions,
                    int count, gateau_text *out)
{
    const mc_state *g = GAME_STATE_CONST(mc_state, before);
    (void)seat; /* an assign's columns and target say it all */
    if (actions[0] < MC_PLACE) {
        text_append(out, "deal");
        for (int i = 0; i < count; i++) {
            text_append_char(out, ' ');
            mc_append_piece(out, actions[i] - MC_DEAL);
        }
    } else if (actions[0] >= MC_DIE) {
        const mc_attempt *a = &g->attempts[g->rolling];
        text_append(out, "roll %d %c", a->seat + 1, MC_COLUMN_LETTER[a->column]);
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
            text_append(out, " %c%d", MC_COLUMN_LETTER[c], mice[c]);
            if (target[c] != MC_NO_PIECE) {
                text_append_char(out, '>');
                mc_append_piece(out, target[c]);
            }
        }
    }
}

/* ---- Reading moves ------------------------------------------------------- */

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
    char buffer[16], letter = notation_upper(word[0]);
    *target = MC_NO_PIECE;
    if (strlen(word) < sizeof buffer && letter >= 'A' && letter <= 'D') {
        strcpy(buffer, word);
        *column = letter - 'A';
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
                      "%c comes after %c", MC_COLUMN_LETTER[column], MC_COLUMN_LETTER[previous]);
            return -1;
        }
        if (count == 0) {
            set_error(error, error_size, "column %c is named with 0 mice: name only columns "
                      "with at least 1 mouse", MC_COLUMN_LETTER[column]);
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
            set_error(error, error_size, "column %c has no piece left", MC_COLUMN_LETTER[c]);
            return -1;
        }
        if (piece != MC_DOUBLE_BLANK) {
            if (target[c] != MC_NO_PIECE) {
                set_error(error, error_size, "column %c is no steal (the nearest piece is "
                          "%d/%d, not 0/0): '>target' is not allowed there", MC_COLUMN_LETTER[c],
                          MC_LOW[piece], MC_HIGH[piece]);
                return -1;
            }
            continue;
        }
        if (!g->stash[other]) {
            set_error(error, error_size, "column %c is a steal (the nearest piece is 0/0) but "
                      "seat %d's stash is empty: nothing to steal", MC_COLUMN_LETTER[c], other + 1);
            return -1;
        }
        if (target[c] == MC_NO_PIECE) {
            set_error(error, error_size, "column %c is a steal (the nearest piece is 0/0): "
                      "name a target from seat %d's stash, as in '%c%d>%d/%d'",
                      MC_COLUMN_LETTER[c], other + 1, MC_COLUMN_LETTER[c], mice[c],
                      MC_LOW[__builtin_ctz(g->stash[other])], MC_HIGH[__builtin_ctz(g->stash[other])]);
            return -1;
        }
        if (!(g->stash[other] & (1u << target[c]))) {
            gateau_text held = {0};
            mc_list_stash(g->stash[other], &held);
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
    if (w->count >= 3 && strlen(w->word[2]) == 1) {
        const char *letter = strchr(MC_COLUMN_LETTER, notation_upper(w->word[2][0]));
        if (letter) column = (int)(letter - MC_COLUMN_LETTER);
    }
    if (w->count < 3 || !notation_int(w->word[1], 1, MC_SEATS, &seat) || column < 0) {
        set_error(error, error_size, "a roll is 'roll', the seat, the column and the dice, as "
                                     "in 'roll 1 C 6 6 5'");
        return -1;
    }
    if (seat - 1 != a->seat || column != a->column) {
        set_error(error, error_size, "the next roll is seat %d's for column %c ('roll %d %c "
                  "...'), not seat %d's for column %c", a->seat + 1, MC_COLUMN_LETTER[a->column],
                  a->seat + 1, MC_COLUMN_LETTER[a->column], seat, MC_COLUMN_LETTER[column]);
        return -1;
    }
    int dice = w->count - 3;
    if (dice != a->mice) {
        set_error(error, error_size, "seat %d has %d %s on column %c, so the roll needs %d "
                  "%s, not %d", seat, a->mice, a->mice == 1 ? "mouse" : "mice",
                  MC_COLUMN_LETTER[column], a->mice, a->mice == 1 ? "die" : "dice", dice);
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

int mc_parse_move(const gateau_state *state, int seat, const char *text,
                  gateau_action *actions, char *error, size_t error_size)
{
    const mc_state *g = GAME_STATE_CONST(mc_state, state);
    static const char *const verb_of[] = {[MC_PHASE_DEAL] = "deal", [MC_PHASE_ASSIGN] = "assign",
                                          [MC_PHASE_ROLL] = "roll"};
    static const char *const expected[] = {
        [MC_PHASE_DEAL] = "the deal ('deal' and 28 pieces)",
        [MC_PHASE_ASSIGN] = "an assign, as in 'assign A1 C3'",
        [MC_PHASE_ROLL] = "a roll, as in 'roll 1 C 6 6 5'",
    };
    /* The core refuses a move once the game is over (before it gets
     * here); this only keeps the tables above from being read past. */
    if (g->phase == MC_PHASE_OVER) {
        set_error(error, error_size, "the game is over");
        return -1;
    }
    notation_words w;
    if (!notation_open(text, verb_of[g->phase], expected[g->phase], &w, error, error_size))
        return -1;
    if (g->phase == MC_PHASE_DEAL) return parse_deal(g, &w, actions, error, error_size);
    if (g->phase == MC_PHASE_ROLL) return parse_roll(g, &w, actions, error, error_size);
    return parse_assign(g, seat, &w, actions, error, error_size);
}

/* ---- Single actions ------------------------------------------------------ */

void mc_action_name(const gateau_state *state, int seat, gateau_action action,
                    gateau_text *out)
{
    (void)state;
    (void)seat;
    if (action < MC_PLACE) {
        text_append(out, "deal ");
        mc_append_piece(out, action - MC_DEAL);
    } else if (action < MC_TARGET) {
        text_append(out, "mouse on %c", MC_COLUMN_LETTER[action - MC_PLACE]);
    } else if (action < MC_DIE) {
        text_append(out, "steal ");
        mc_append_piece(out, action - MC_TARGET);
    } else {
        text_append(out, "die %d", action - MC_DIE + 1);
    }
}

/*
 * The shuffle is hidden from both seats (it would tell the face-down
 * pieces); the dice are public.  An assignment is hidden from the other
 * seat while that seat still has to assign; the last assignment of a round
 * starts the rolls, which show every group of mice and its target, so its
 * line is visible.
 */
bool mc_move_visible(const gateau_state *before, int seat, const gateau_action *actions,
                     int count, int viewer)
{
    const mc_state *g = GAME_STATE_CONST(mc_state, before);
    (void)actions;
    (void)count;
    (void)viewer;
    if (seat == GATEAU_CHANCE) return g->phase == MC_PHASE_ROLL;
    return state_completes_phase(before, seat);
}

/* ---- Moves built in any order (gateau_move_order) ---------------------------- */

/*
 * An assignment is mice on columns, put on in any column order, and on a
 * steal column (its nearest piece the double-blank) the target: the mice
 * go in column order, the target right after the first mouse on the steal
 * column (last while no mouse is there yet).
 */
int mc_order_move(const gateau_state *state, int seat, const gateau_action *parts, int count,
                  gateau_action *ordered, char *error, size_t error_size)
{
    const mc_state *g = GAME_STATE_CONST(mc_state, state);
    if (g->phase != MC_PHASE_ASSIGN) {
        memcpy(ordered, parts, (size_t)count * sizeof *parts);
        return count;
    }
    int mice[MC_COLUMNS] = {0}, placed = 0, target = -1;
    for (int i = 0; i < count; i++) {
        gateau_action a = parts[i];
        if (a >= MC_PLACE && a < MC_PLACE + MC_COLUMNS) {
            mice[a - MC_PLACE]++;
            if (++placed > MC_MICE) {
                set_error(error, error_size, "more than %d mice", MC_MICE);
                return -1;
            }
        } else if (a >= MC_TARGET && a < MC_TARGET + MC_PIECES) {
            if (target >= 0) {
                set_error(error, error_size, "two steal targets: a steal takes one");
                return -1;
            }
            target = a;
        } else {
            set_error(error, error_size, "part %d (%d) is not a mouse or a steal target: mice "
                      "are assigned now", i + 1, (int)a);
            return -1;
        }
    }
    int steal = -1;
    for (int c = 0; c < MC_COLUMNS; c++)
        if (mc_steal_column(g, seat, c)) steal = c;
    if (target >= 0 && steal < 0) {
        set_error(error, error_size, "a steal target, but no column is a steal");
        return -1;
    }
    int n = 0;
    for (int c = 0; c < MC_COLUMNS; c++) {
        for (int m = 0; m < mice[c]; m++) {
            ordered[n++] = MC_PLACE + c;
            if (c == steal && m == 0 && target >= 0) ordered[n++] = target;
        }
    }
    if (target >= 0 && (steal < 0 || !mice[steal])) ordered[n++] = target;
    return n;
}
