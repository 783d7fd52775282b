/*
 * notation.c: piece o' Cake's moves as text: reading them (parse_move),
 * writing them (format_move) and naming single actions (action_name).
 * The forms are the rules file's Notation table: "deal PARBKG...",
 * "cut 1-3 4-7 8-11", "take 4-7 ecce", "eat G", "pass".  Reading is
 * strict but forgiving where the rules allow it (pieces of a cut in any
 * order, "a-a" for a single slice) and where a letter cannot be mistaken:
 * variety letters in either case ("eat g"), and E for e in a take, but
 * not C, which is chocolate wherever else it is written; writing is
 * always canonical.  Which lines a seat may read as they are played:
 * move_visible.
 */
#include <stdio.h>
#include <string.h>

#include "core/notation.h"
#include "games/piece_o_cake/piece_o_cake.h"

/* A variety letter in either case, or -1. */
static int variety_of_letter(char letter)
{
    const char *found = letter ? strchr(POC_VARIETY_LETTER, notation_upper(letter)) : NULL;
    return found ? (int)(found - POC_VARIETY_LETTER) : -1;
}

void poc_append_piece(gateau_text *out, int start, int length)
{
    if (length == POC_CAKE_SIZE) text_append(out, "1-11");
    else if (length == 1) text_append(out, "%d", start);
    else text_append(out, "%d-%d", start, poc_wrap_position(start + length - 1));
}

void poc_format_move(const gateau_state *before, int seat, const gateau_action *actions,
                     int count, gateau_text *out)
{
    const poc_state *g = GAME_STATE_CONST(poc_state, before);
    (void)seat;
    gateau_action first = actions[0];
    if (first < POC_CUT_AFTER) {
        text_append(out, "deal ");
        for (int i = 0; i < count; i++)
            text_append_char(out, POC_VARIETY_LETTER[actions[i] - POC_DEAL]);
    } else if (first <= POC_CUT_DONE) {
        uint8_t cut[POC_CAKE_SIZE];
        int cut_count = 0;
        for (int i = 0; i < count && actions[i] != POC_CUT_DONE; i++)
            cut[cut_count++] = (uint8_t)(actions[i] - POC_CUT_AFTER + 1);
        poc_piece pieces[POC_CAKE_SIZE];
        int piece_count = poc_pieces_of_cut(cut, cut_count, pieces);
        text_append(out, "cut");
        for (int i = 0; i < piece_count; i++) {
            text_append(out, " ");
            poc_append_piece(out, pieces[i].start, pieces[i].length);
        }
    } else if (first < POC_FORFEIT_EAT) {
        int start = first - POC_TAKE + 1, length = 0;
        for (int i = 0; i < g->piece_count; i++)
            if (g->pieces[i].start == start) length = g->pieces[i].length;
        text_append(out, "take ");
        poc_append_piece(out, start, length);
        text_append(out, " ");
        for (int i = 1; i < count; i++)
            text_append_char(out, actions[i] == POC_EAT_SLICE ? 'e' : 'c');
    } else if (first < POC_PASS) {
        text_append(out, "eat %c", POC_VARIETY_LETTER[first - POC_FORFEIT_EAT]);
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
    if (!notation_int(buffer, 1, POC_CAKE_SIZE, &a)) return false;
    if (!dash) b = a;
    else if (!notation_int(dash + 1, 1, POC_CAKE_SIZE, &b)) return false;
    *start = a;
    *length = b >= a ? b - a + 1 : POC_CAKE_SIZE - a + 1 + b;
    /* The whole cake has one spelling, 1-11. */
    return *length < POC_CAKE_SIZE || (a == 1 && b == POC_CAKE_SIZE);
}

static int parse_deal(const poc_state *g, const notation_words *w, gateau_action *actions,
                      char *error, size_t error_size)
{
    if (w->count != 2) {
        set_error(error, error_size, "a deal is 'deal' and %d variety letters in one word",
                  POC_SLICES);
        return -1;
    }
    const char *letters = w->word[1];
    if ((int)strlen(letters) != POC_SLICES - g->dealt || g->dealt) {
        set_error(error, error_size, "a deal has %d variety letters, not %zu", POC_SLICES,
                  strlen(letters));
        return -1;
    }
    int counts[POC_VARIETIES] = {0};
    for (int i = 0; i < POC_SLICES; i++) {
        int v = variety_of_letter(letters[i]);
        if (v < 0) {
            set_error(error, error_size, "'%c' is not a variety (%s)", letters[i],
                      POC_VARIETY_LETTER);
            return -1;
        }
        if (++counts[v] > POC_BONUS[v]) {
            set_error(error, error_size, "the deal has more than %d %s slices (%c)",
                      POC_BONUS[v], POC_VARIETY_NAME[v], letters[i]);
            return -1;
        }
        actions[i] = POC_DEAL + v;
    }
    return POC_SLICES;
}

static int parse_cut(const poc_state *g, const notation_words *w, gateau_action *actions,
                     char *error, size_t error_size)
{
    int pieces = w->count - 1, most = poc_max_pieces(g->players);
    if (pieces < 1 || pieces > most) {
        set_error(error, error_size, "a cut has 1 to %d pieces, not %d", most, pieces);
        return -1;
    }
    bool covered[POC_CAKE_SIZE + 1] = {false}, boundary[POC_CAKE_SIZE + 1] = {false};
    for (int i = 1; i <= pieces; i++) {
        int start, length;
        if (!parse_piece(w->word[i], &start, &length)) {
            set_error(error, error_size, "'%s' is not a piece: write a-b or a with positions 1 "
                                         "to 11, and the whole cake as 1-11", w->word[i]);
            return -1;
        }
        for (int k = 0; k < length; k++) {
            int position = poc_wrap_position(start + k);
            if (covered[position]) {
                set_error(error, error_size, "position %d is in two pieces", position);
                return -1;
            }
            covered[position] = true;
        }
        if (pieces > 1) boundary[poc_wrap_position(start + length - 1)] = true;
    }
    for (int p = 1; p <= POC_CAKE_SIZE; p++) {
        if (!covered[p]) {
            set_error(error, error_size, "position %d is in no piece", p);
            return -1;
        }
    }
    int count = 0;
    for (int b = 1; b <= POC_CAKE_SIZE; b++)
        if (boundary[b]) actions[count++] = POC_CUT_AFTER + b - 1;
    /* POC_CUT_DONE closes the cut unless no further boundary was possible. */
    bool full = count == most || (count > 0 && boundary[POC_CAKE_SIZE]);
    if (!full) actions[count++] = POC_CUT_DONE;
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
        poc_append_piece(out, g->pieces[i].start, g->pieces[i].length);
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
    actions[0] = POC_TAKE + start - 1;
    for (int i = 0; i < length; i++) {
        char decision = decisions[i];
        if (decision == 'C') {
            /* Upper case C is chocolate: "take 4-5 CC" may well name the
             * piece's slices rather than collect them. */
            set_error(error, error_size, "'C' in '%s' could be chocolate or collect: write c "
                      "(collect) or e (eat) for each slice, as in 'take 4-7 ecce'", decisions);
            return -1;
        }
        if (decision != 'e' && decision != 'E' && decision != 'c') {
            set_error(error, error_size, "'%c' is neither e (eat) nor c (collect)", decision);
            return -1;
        }
        actions[1 + i] = decision == 'c' ? POC_COLLECT_SLICE : POC_EAT_SLICE;
    }
    return 1 + length;
}

static int parse_forfeit(const poc_state *g, int seat, const notation_words *w,
                         gateau_action *actions, char *error, size_t error_size)
{
    int v = w->count == 2 && strlen(w->word[1]) == 1 ? variety_of_letter(w->word[1][0]) : -1;
    if (v < 0) {
        set_error(error, error_size, "a forfeit is 'eat X' with X one of %s, or 'pass'",
                  POC_VARIETY_LETTER);
        return -1;
    }
    if (!g->collected[seat][v]) {
        set_error(error, error_size, "seat %d has collected no %s (%c) this round", seat + 1,
                  POC_VARIETY_NAME[v], POC_VARIETY_LETTER[v]);
        return -1;
    }
    actions[0] = POC_FORFEIT_EAT + v;
    return 1;
}

int poc_parse_move(const gateau_state *state, int seat, const char *text,
                   gateau_action *actions, char *error, size_t error_size)
{
    const poc_state *g = GAME_STATE_CONST(poc_state, state);
    /* The verbs each phase allows, and what the error names instead. */
    static const char *const verbs[] = {
        [POC_PHASE_DEAL] = "deal",
        [POC_PHASE_CUT] = "cut",
        [POC_PHASE_CHOOSE] = "take|eat|pass",
    };
    static const char *const expected[] = {
        [POC_PHASE_DEAL] = "a deal ('deal' and 57 letters)",
        [POC_PHASE_CUT] = "a cut, as in 'cut 1-3 4-7 8-11'",
        [POC_PHASE_CHOOSE] = "'take a-b ...', 'eat X' or 'pass'",
    };
    bool open = g->phase <= POC_PHASE_CHOOSE;
    notation_words w;
    if (!notation_open(text, open ? verbs[g->phase] : "", open ? expected[g->phase] : "nothing",
                       &w, error, error_size))
        return -1;
    const char *verb = w.word[0];
    if (!strcmp(verb, "deal")) return parse_deal(g, &w, actions, error, error_size);
    if (!strcmp(verb, "cut")) return parse_cut(g, &w, actions, error, error_size);
    if (!strcmp(verb, "take")) return parse_take(g, &w, actions, error, error_size);
    if (!strcmp(verb, "eat")) return parse_forfeit(g, seat, &w, actions, error, error_size);
    if (w.count != 1) {
        set_error(error, error_size, "'pass' takes nothing after it");
        return -1;
    }
    actions[0] = POC_PASS;
    return 1;
}

void poc_action_name(const gateau_state *state, int seat, gateau_action action,
                     gateau_text *out)
{
    const poc_state *g = GAME_STATE_CONST(poc_state, state);
    (void)seat;
    if (action < POC_CUT_AFTER) text_append(out, "deal %c", POC_VARIETY_LETTER[action - POC_DEAL]);
    else if (action < POC_CUT_DONE) text_append(out, "cut after %d", action - POC_CUT_AFTER + 1);
    else if (action == POC_CUT_DONE) text_append(out, "cut done");
    else if (action < POC_FORFEIT_EAT) {
        int start = action - POC_TAKE + 1;
        for (int i = 0; i < g->piece_count; i++)
            if (g->pieces[i].start == start) {
                text_append(out, "take ");
                poc_append_piece(out, start, g->pieces[i].length);
            }
    } else if (action < POC_PASS)
        text_append(out, "eat %c", POC_VARIETY_LETTER[action - POC_FORFEIT_EAT]);
    else if (action == POC_PASS) text_append(out, "pass");
    else text_append(out, action == POC_EAT_SLICE ? "eat" : "collect");
}


/* Everything served is public: the cut, who took which piece and ate or
 * collected each slice of it, a forfeit.  The shuffle is hidden from every
 * seat: its line would tell the cakes to come and the two slices set
 * aside, which nobody sees. */
bool poc_move_visible(const gateau_state *before, int seat, const gateau_action *actions,
                      int count, int viewer)
{
    (void)before;
    (void)actions;
    (void)count;
    (void)viewer;
    return seat != GATEAU_CHANCE;
}

/* ---- Moves built in any order (gateau_move_order) ------------------------------ */

/*
 * A cut is its set of gaps: chosen anywhere round the cake, they go in
 * ascending order, and "cut done" follows when the gaps do not close the
 * cut themselves (two or more gaps, fewer than the most pieces, the last
 * not 11|1); a "cut done" chosen with gaps is implied or redundant, and
 * alone it is the whole cake.  A take comes before the slices it decides,
 * which keep their clockwise order (each names no position of its own).
 * Anything else is one action.
 */
static int order_cut(const poc_state *g, const gateau_action *parts, int count,
                     gateau_action *ordered, char *error, size_t error_size)
{
    bool gap[POC_CAKE_SIZE + 1] = {false}, done = false;
    for (int i = 0; i < count; i++) {
        gateau_action a = parts[i];
        if (a == POC_CUT_DONE) {
            done = true;
        } else if (a >= POC_CUT_AFTER && a < POC_CUT_DONE) {
            int b = a - POC_CUT_AFTER + 1;
            if (gap[b]) {
                set_error(error, error_size, "the gap after %d is chosen twice", b);
                return -1;
            }
            gap[b] = true;
        } else {
            set_error(error, error_size, "part %d (%d) is not a cut: the server cuts now", i + 1,
                      (int)a);
            return -1;
        }
    }
    int n = 0;
    for (int b = 1; b <= POC_CAKE_SIZE; b++)
        if (gap[b]) ordered[n++] = POC_CUT_AFTER + b - 1;
    bool closes = n == poc_max_pieces(g->players) || (n && gap[POC_CAKE_SIZE]);
    if ((n == 0 && done) || (n >= 2 && !closes)) ordered[n++] = POC_CUT_DONE;
    return n;
}

static int order_choice(const gateau_action *parts, int count, gateau_action *ordered,
                        char *error, size_t error_size)
{
    int take = -1, n = 0;
    for (int i = 0; i < count; i++) {
        gateau_action a = parts[i];
        if (a >= POC_TAKE && a < POC_FORFEIT_EAT) {
            if (take >= 0) {
                set_error(error, error_size, "two pieces taken: a turn takes one");
                return -1;
            }
            take = i;
        } else if (a != POC_EAT_SLICE && a != POC_COLLECT_SLICE && count > 1) {
            set_error(error, error_size, "part %d (%d) cannot go with another part", i + 1,
                      (int)a);
            return -1;
        }
    }
    if (take < 0 && count && (parts[0] == POC_EAT_SLICE || parts[0] == POC_COLLECT_SLICE)) {
        set_error(error, error_size, "a slice is eaten or collected after its piece is taken");
        return -1;
    }
    if (take >= 0) ordered[n++] = parts[take];
    for (int i = 0; i < count; i++)
        if (i != take) ordered[n++] = parts[i];
    return n;
}

int poc_order_move(const gateau_state *state, int seat, const gateau_action *parts, int count,
                   gateau_action *ordered, char *error, size_t error_size)
{
    const poc_state *g = GAME_STATE_CONST(poc_state, state);
    (void)seat;
    if (g->phase == POC_PHASE_CUT) return order_cut(g, parts, count, ordered, error, error_size);
    if (g->phase == POC_PHASE_CHOOSE) return order_choice(parts, count, ordered, error, error_size);
    memcpy(ordered, parts, (size_t)count * sizeof *parts);
    return count;
}
