/*
 * from_view.c: a piece o' Cake position read back from a seat's JSON view
 * (the game's from_view, core/engine.h; views.c writes the view).
 *
 * All but the order of the unserved slices is on the table, so the view
 * tells the whole position, the same for every seat: the round and phase,
 * the cake being served (its slices, the cut, who took which piece, the
 * choosing turn) and every seat's counts.  The rest follows from the
 * rules: who serves and chooses, how much is dealt.  The unseen slices
 * (the cakes to come and the set-aside pair) are laid out in variety
 * order, as determinize sorts them before it shuffles.  What a cake
 * leaves behind is cleared by the rules (rules.c, clear_table), so a
 * fresh state has it right already.
 *
 * Beyond each value's range the counts must add up: every slice of a
 * variety is collected, eaten, removed, on the plate or unseen, and no
 * seat has taken more pieces of the cake than it has had turns.  The
 * fields the view only shows (scores, to_act, the pieces' names) the core
 * checks by writing the view again.
 */
#include <stdio.h>
#include <string.h>

#include "core/view_read.h"
#include "games/piece_o_cake/piece_o_cake.h"

/* More than a seat can score in a round: every majority, every slice
 * eaten (a slice is one or the other, so no seat reaches it). */
static int round_points_bound(void)
{
    int points = 0;
    for (int v = 0; v < POC_VARIETIES; v++) points += POC_BONUS[v] * (1 + POC_DOLLOPS[v]);
    return points;
}

/* The server of the cake served last, as apply leaves it between cakes:
 * cake c of round r is served by seat (r + c) mod N; seat 1 before any. */
static int last_server(const poc_state *g)
{
    int served = g->round * POC_CAKES + g->cake; /* cakes served before this point */
    if (served == 0) return 0;
    int round = (served - 1) / POC_CAKES, cake = (served - 1) % POC_CAKES;
    return (round + cake) % g->players;
}

static bool read_phase(const json_t *view, poc_phase *phase, view_error *error)
{
    const char *name;
    if (!view_string(view, "phase", &name, error)) return false;
    for (int p = 0; p <= POC_PHASE_OVER; p++) {
        if (strcmp(name, POC_PHASE_NAME[p]) == 0) {
            *phase = (poc_phase)p;
            return true;
        }
    }
    return view_fail(error, "'phase' must be deal, cut, choose, slices or over");
}

/* The round, which the phase bounds: a game is over after its last. */
static bool read_round(poc_state *g, const json_t *view, poc_phase phase, view_error *error)
{
    long rounds, round;
    if (!view_int(view, "rounds", 1, 255, &rounds, error)) return false;
    if (rounds != g->rounds)
        return view_fail(error, "'rounds' must be %d, as this game's options have it", g->rounds);
    long first = phase == POC_PHASE_OVER ? g->rounds : 1;
    if (!view_int(view, "round", first, g->rounds, &round, error)) return false;
    g->round = (uint8_t)(round - 1);
    return true;
}

/* {"P":n,...}: a count per variety, each at most the variety's slices;
 * path names the field in a reason. */
static bool read_counts(const json_t *object, const char *key, const char *path,
                        uint8_t counts[POC_VARIETIES], view_error *error)
{
    const json_t *field = json_object_get(object, key);
    if (!json_is_object(field)) return view_fail(error, "'%s' must be an object", path);
    for (int v = 0; v < POC_VARIETIES; v++) {
        char letter[2] = {POC_VARIETY_LETTER[v], '\0'}, name[64];
        snprintf(name, sizeof name, "%s.%s", path, letter);
        long count;
        if (!view_int_value(json_object_get(field, letter), name, 0, POC_BONUS[v], &count, error))
            return false;
        counts[v] = (uint8_t)count;
    }
    return true;
}

/* Each seat's collected and eaten slices and the points of finished
 * rounds (rounds_scored of them). */
static bool read_seats(poc_state *g, const json_t *view, int rounds_scored, view_error *error)
{
    const json_t *seats;
    if (!view_array(view, "seats", g->players, g->players, &seats, error)) return false;
    for (int s = 0; s < g->players; s++) {
        const json_t *entry = json_array_get(seats, (size_t)s);
        char path[64];
        snprintf(path, sizeof path, "seats[%d]", s);
        if (!json_is_object(entry)) return view_fail(error, "'%s' must be an object", path);
        snprintf(path, sizeof path, "seats[%d].collected", s);
        if (!read_counts(entry, "collected", path, g->collected[s], error)) return false;
        snprintf(path, sizeof path, "seats[%d].eaten", s);
        if (!read_counts(entry, "eaten", path, g->eaten[s], error)) return false;
        snprintf(path, sizeof path, "seats[%d].banked", s);
        long banked;
        if (!view_int_value(json_object_get(entry, "banked"), path, 0,
                            (long)rounds_scored * round_points_bound(), &banked, error))
            return false;
        g->banked[s] = (int16_t)banked;
        g->collected_kinds[s] = 0;
        for (int v = 0; v < POC_VARIETIES; v++)
            if (g->collected[s][v]) g->collected_kinds[s] |= (uint8_t)(1u << v);
    }
    return true;
}

/* The cake being served: which it is and its slices. */
static bool read_cake(poc_state *g, const json_t *view, view_error *error)
{
    long cake;
    const char *letters;
    if (!view_int(view, "cake", 1, POC_CAKES, &cake, error) ||
        !view_string(view, "slices", &letters, error))
        return false;
    g->cake = (uint8_t)(cake - 1);
    g->server = (uint8_t)((g->round + g->cake) % g->players);
    if (strlen(letters) != POC_CAKE_SIZE)
        return view_fail(error, "'slices' must be %d variety letters", POC_CAKE_SIZE);
    for (int p = 0; p < POC_CAKE_SIZE; p++) {
        const char *found = strchr(POC_VARIETY_LETTER, letters[p]);
        if (!found) return view_fail(error, "'slices' must be letters of %s", POC_VARIETY_LETTER);
        g->slice[g->cake * POC_CAKE_SIZE + p] = (uint8_t)(found - POC_VARIETY_LETTER);
    }
    return true;
}

/* The boundaries chosen, ascending: a finished cut while choosing, one
 * being made (more to come) while cutting. */
static bool read_cut(poc_state *g, const json_t *view, bool finished, view_error *error)
{
    int most = poc_max_pieces(g->players);
    const json_t *cut;
    if (!view_array(view, "cut_after", 0, (size_t)most, &cut, error)) return false;
    int count = (int)json_array_size(cut);
    for (int i = 0; i < count; i++) {
        char name[32];
        snprintf(name, sizeof name, "cut_after[%d]", i);
        long boundary;
        /* From just after the previous boundary: ascending, no repeats. */
        if (!view_int_value(json_array_get(cut, (size_t)i), name, i ? g->cut[i - 1] + 1 : 1,
                            POC_CAKE_SIZE, &boundary, error))
            return false;
        g->cut[i] = (uint8_t)boundary;
    }
    g->cut_count = (uint8_t)count;
    if (finished && count == 1)
        return view_fail(error, "'cut_after' cannot be one boundary alone (no cut, or two or more)");
    if (!finished && (count == most || (count > 0 && g->cut[count - 1] == POC_CAKE_SIZE)))
        return view_fail(error, "'cut_after' is a finished cut, but the phase is 'cut'");
    return true;
}

/* Who took which piece of the finished cut. */
static bool read_pieces(poc_state *g, const json_t *view, view_error *error)
{
    poc_lay_out_pieces(g);
    const json_t *pieces;
    if (!view_array(view, "pieces", g->piece_count, g->piece_count, &pieces, error)) return false;
    for (int i = 0; i < g->piece_count; i++) {
        const json_t *entry = json_array_get(pieces, (size_t)i);
        char name[32];
        snprintf(name, sizeof name, "pieces[%d]", i);
        if (!json_is_object(entry)) return view_fail(error, "'%s' must be an object", name);
        if (!view_has(entry, "taken_by")) continue; /* on the plate */
        snprintf(name, sizeof name, "pieces[%d].taken_by", i);
        long taker;
        if (!view_int_value(json_object_get(entry, "taken_by"), name, 1, g->players, &taker,
                            error))
            return false;
        g->pieces[i].taker = (int8_t)(taker - 1);
        g->open_starts &= (uint16_t)~(1u << g->pieces[i].start);
    }
    return true;
}

/* The choosing turn and so the chooser; nobody has taken more pieces
 * than the turns it had before it. */
static bool read_turn(poc_state *g, const json_t *view, view_error *error)
{
    long turn;
    if (!view_int(view, "turn", 1, poc_turns_per_cake(g->players), &turn, error)) return false;
    g->turn = (uint8_t)turn;
    g->chooser = (uint8_t)((g->server + turn) % g->players);
    int turns_had[GATEAU_MAX_PLAYERS] = {0}, taken[GATEAU_MAX_PLAYERS] = {0};
    for (int t = 1; t < turn; t++) turns_had[(g->server + t) % g->players]++;
    for (int i = 0; i < g->piece_count; i++)
        if (g->pieces[i].taker >= 0) taken[g->pieces[i].taker]++;
    for (int s = 0; s < g->players; s++)
        if (taken[s] > turns_had[s])
            return view_fail(error, "'pieces': seat %d took %d piece%s in %d turn%s before turn %ld",
                             s + 1, taken[s], taken[s] == 1 ? "" : "s", turns_had[s],
                             turns_had[s] == 1 ? "" : "s", turn);
    return true;
}

/* Per variety, the slices of the current cake still on the plate. */
static void count_plate(const poc_state *g, int plate[POC_VARIETIES])
{
    memset(plate, 0, sizeof(int) * POC_VARIETIES);
    if (g->phase == POC_PHASE_CUT) {
        for (int p = 1; p <= POC_CAKE_SIZE; p++) plate[poc_cake_slice(g, p)]++;
        return;
    }
    for (int i = 0; i < g->piece_count; i++)
        if (g->pieces[i].taker < 0)
            for (int k = 0; k < g->pieces[i].length; k++)
                plate[poc_cake_slice(g, poc_wrap_position(g->pieces[i].start + k))]++;
}

/* Every slice of the round is accounted for: collected, eaten, removed,
 * on the plate or unseen (over: all but the two set aside, which nobody
 * sees).  unseen is all zero once over. */
static bool check_slices_add_up(const poc_state *g, const uint8_t unseen[POC_VARIETIES],
                                view_error *error)
{
    int plate[POC_VARIETIES], set_aside = 0;
    count_plate(g, plate);
    for (int v = 0; v < POC_VARIETIES; v++) {
        int found = g->removed[v] + plate[v] + unseen[v];
        for (int s = 0; s < g->players; s++) found += g->collected[s][v] + g->eaten[s][v];
        bool fits = g->phase == POC_PHASE_OVER ? found <= POC_BONUS[v] : found == POC_BONUS[v];
        if (!fits)
            return view_fail(error, "the %s slices do not add up: %d collected, eaten, removed, "
                             "on the plate or unseen, of %d", POC_VARIETY_NAME[v], found,
                             POC_BONUS[v]);
        set_aside += POC_BONUS[v] - found;
    }
    if (set_aside != (g->phase == POC_PHASE_OVER ? POC_SET_ASIDE : 0))
        return view_fail(error, "the slices do not add up: %d set aside, not %d", set_aside,
                         POC_SET_ASIDE);
    return true;
}

/* The slices nobody has seen: as many as the cakes to come and the
 * set-aside pair hold, laid out in variety order after the served cakes
 * (before the deal they are still to be dealt, as init left them). */
static bool read_unseen(poc_state *g, const json_t *view, uint8_t unseen[POC_VARIETIES],
                        view_error *error)
{
    if (!read_counts(view, "unseen", "unseen", unseen, error)) return false;
    int first = poc_first_hidden(g), total = 0;
    for (int v = 0; v < POC_VARIETIES; v++) total += unseen[v];
    if (total != POC_SLICES - first)
        return view_fail(error, "'unseen' must count the %d slices not yet served, not %d",
                         POC_SLICES - first, total);
    if (g->phase == POC_PHASE_DEAL) return true;
    for (int v = 0, at = first; v < POC_VARIETIES; v++)
        for (int k = 0; k < unseen[v]; k++) g->slice[at++] = (uint8_t)v;
    g->dealt = POC_SLICES;
    memset(g->undealt, 0, sizeof g->undealt);
    return true;
}

/* The cake on the table, being cut or chosen from, and who acts. */
static bool read_serving(gateau_state *state, poc_state *g, const json_t *view,
                         view_error *error)
{
    bool choosing = g->phase == POC_PHASE_CHOOSE;
    if (!read_cake(g, view, error) || !read_cut(g, view, choosing, error)) return false;
    if (!choosing) {
        state_set_actor(state, g->server);
        state->in_move = g->cut_count > 0; /* a cut is one move */
        return true;
    }
    if (!read_pieces(g, view, error) || !read_turn(g, view, error)) return false;
    state_set_actor(state, g->chooser);
    return true;
}

bool poc_from_view(gateau_state *state, int seat, const json_t *view, char *error,
                   size_t error_size)
{
    poc_state *g = GAME_STATE(poc_state, state);
    view_error reason = {error, error_size};
    (void)seat; /* every seat sees the same */
    poc_phase phase = POC_PHASE_DEAL;
    if (!read_phase(view, &phase, &reason)) return false;
    if (phase == POC_PHASE_SLICES)
        return view_fail(&reason, "'phase' slices is inside a take: the view does not show "
                                  "which of the piece's slices are decided");
    g->phase = (uint8_t)phase;
    bool over = phase == POC_PHASE_OVER;
    uint8_t unseen[POC_VARIETIES] = {0};
    if (!read_round(g, view, phase, &reason) ||
        !read_seats(g, view, g->round + over, &reason) ||
        !read_counts(view, "removed", "removed", g->removed, &reason))
        return false;
    if (over) {
        g->cake = POC_CAKES;
        g->server = (uint8_t)last_server(g);
        g->dealt = POC_SLICES;
        memset(g->undealt, 0, sizeof g->undealt);
        state_set_over(state);
    } else if (phase == POC_PHASE_DEAL) {
        g->server = (uint8_t)last_server(g); /* init left a fresh deal and chance to act */
    } else if (!read_serving(state, g, view, &reason)) {
        return false;
    }
    if (!over && !read_unseen(g, view, unseen, &reason)) return false;
    return check_slices_add_up(g, unseen, &reason);
}
