/*
 * move_order.c: moves built in any order (gateau_move_order and
 * gateau_move_choices in gateau/gateau.h).
 *
 * The game puts chosen parts in its canonical order (its order_move);
 * what may still join a selection is found here, the same way for every
 * game: all the seat's legal moves are listed (a few thousand at most: a
 * piece o' Cake take of the whole cake, 2^11 ways to eat or collect), each
 * as the multiset of its parts, and a selection is part of a move when its
 * parts are a sub-multiset of the move's.  Parts are compared by key: a
 * part's key is the part ordered alone, so that two actions that name the
 * same thing in two places (Marie's Table's lower and higher card) are one.
 */
#include <stdlib.h>
#include <string.h>

#include "core/engine.h"

/* The most legal moves listed for one decision: far above any game's
 * (piece o' Cake's takes stay under 4,096). */
enum { MOST_MOVES = 1 << 16 };

static int compare_actions(const void *a, const void *b)
{
    gateau_action x = *(const gateau_action *)a, y = *(const gateau_action *)b;
    return (x > y) - (x < y);
}

/* Says why seat may not build a move now, or returns false if it may. */
static bool refuse_builder(const gateau_state *state, int seat, char *error, size_t error_size)
{
    if (!state) {
        set_error(error, error_size, "no state");
        return true;
    }
    if (seat < 0 || seat >= state->setup->players) {
        set_error(error, error_size, "there is no seat %d in a %d-player game", seat + 1,
                  state->setup->players);
        return true;
    }
    if (state->over || state->chance || !(state->actors & (1u << seat))) {
        set_error(error, error_size, "seat %d is not to move", seat + 1);
        return true;
    }
    if (state->in_move) {
        set_error(error, error_size, "a move is half made: finish it first");
        return true;
    }
    return false;
}

static int order_parts(const gateau_state *state, int seat, const gateau_action *parts, int count,
                       gateau_action *ordered, char *error, size_t error_size)
{
    const gateau_game *game = state->setup->game;
    static const gateau_action none[1];
    if (!parts) parts = none; /* (no parts: the games copy none from here) */
    if (!game->order_move) {
        if (count) memcpy(ordered, parts, (size_t)count * sizeof *parts);
        return count;
    }
    return game->order_move(state, seat, parts, count, ordered, error, error_size);
}

int gateau_move_order(const gateau_state *state, int seat, const gateau_action *parts, int count,
                      gateau_action ordered[GATEAU_MAX_MOVE_ACTIONS], char *error,
                      size_t error_size)
{
    if (refuse_builder(state, seat, error, error_size)) return -1;
    if (count < 0 || count >= GATEAU_MAX_MOVE_ACTIONS || (count && !parts)) {
        set_error(error, error_size, "a move has 0 to %d parts, not %d",
                  GATEAU_MAX_MOVE_ACTIONS - 1, count);
        return -1;
    }
    for (int i = 0; i < count; i++) {
        if (parts[i] < 0) {
            set_error(error, error_size, "part %d (%d) is not an action", i + 1, (int)parts[i]);
            return -1;
        }
    }
    return order_parts(state, seat, parts, count, ordered, error, error_size);
}

/* ---- The legal moves as multisets of part keys ------------------------------- */

typedef struct move_list {
    gateau_action *keys; /* every move's keys, ascending within a move */
    int *start;          /* move m is keys[start[m] .. start[m + 1]) */
    int moves, used, key_room, move_room;
    bool full;           /* more moves than MOST_MOVES */
    /* Each action's key once found (NO_KEY: not yet), by action below the
     * game's action space: a part is in many moves, and its key (the
     * game's order_move) cost more than the rest of the listing. */
    gateau_action *key_of;
    int key_space;
} move_list;

enum { NO_KEY = -2 };

/* A part's key: the part ordered alone, when that gives one action. */
static gateau_action part_key(const gateau_state *state, int seat, gateau_action part)
{
    gateau_action ordered[GATEAU_MAX_MOVE_ACTIONS];
    int n = order_parts(state, seat, &part, 1, ordered, NULL, 0);
    return n == 1 ? ordered[0] : part;
}

/* A move's keys, ascending: sorted by insertion (a move has a few parts;
 * qsort's setup cost more than the sort, once for every legal move). */
static void keys_of(const gateau_state *state, int seat, const gateau_action *actions, int count,
                    gateau_action *keys, move_list *memo)
{
    for (int i = 0; i < count; i++) {
        gateau_action part = actions[i], key;
        if (memo && part >= 0 && part < memo->key_space) {
            if (memo->key_of[part] == NO_KEY) memo->key_of[part] = part_key(state, seat, part);
            key = memo->key_of[part];
        } else {
            key = part_key(state, seat, part);
        }
        int j = i;
        for (; j > 0 && keys[j - 1] > key; j--) keys[j] = keys[j - 1];
        keys[j] = key;
    }
}

static void grow(void **buffer, int *room, int need, size_t size)
{
    if (need <= *room) return;
    int more = *room ? *room : 256;
    while (more < need) more *= 2;
    void *bigger = realloc(*buffer, (size_t)more * size);
    if (!bigger) abort();
    *buffer = bigger;
    *room = more;
}

static void list_add(move_list *list, const gateau_state *start, int seat,
                     const gateau_action *actions, int count)
{
    if (list->moves >= MOST_MOVES) {
        list->full = true;
        return;
    }
    grow((void **)&list->keys, &list->key_room, list->used + count, sizeof *list->keys);
    grow((void **)&list->start, &list->move_room, list->moves + 2, sizeof *list->start);
    keys_of(start, seat, actions, count, list->keys + list->used, list);
    list->start[list->moves] = list->used;
    list->used += count;
    list->start[++list->moves] = list->used;
}

/* Depth-first through the actions of seat's move from states[depth]. */
static void list_moves(move_list *list, const gateau_state *start, int seat,
                       gateau_state **states, gateau_action *path, int depth)
{
    gateau_action actions[GATEAU_MAX_ACTIONS];
    int count = gateau_state_legal_actions(states[depth], seat, actions);
    for (int i = 0; i < count && !list->full; i++) {
        path[depth] = actions[i];
        if (!states[depth + 1]) states[depth + 1] = gateau_state_clone(states[depth]);
        gateau_state_copy(states[depth + 1], states[depth]);
        gateau_state_apply_legal(states[depth + 1], seat, actions[i]);
        if (!gateau_state_in_move(states[depth + 1]) || depth + 2 >= GATEAU_MAX_MOVE_ACTIONS)
            list_add(list, start, seat, path, depth + 1);
        else
            list_moves(list, start, seat, states, path, depth + 1);
    }
}

static move_list legal_moves(const gateau_state *state, int seat)
{
    move_list list = {.key_space = state->setup->game->action_space};
    if (list.key_space > 0) {
        list.key_of = malloc((size_t)list.key_space * sizeof *list.key_of);
        if (!list.key_of) abort();
        for (int a = 0; a < list.key_space; a++) list.key_of[a] = NO_KEY;
    } else {
        list.key_space = 0;
    }
    /* One state a level, cloned as the walk first goes that deep: most
     * moves are a few actions deep. */
    gateau_state *states[GATEAU_MAX_MOVE_ACTIONS] = {0};
    gateau_action path[GATEAU_MAX_MOVE_ACTIONS];
    states[0] = (gateau_state *)state; /* only read */
    list_moves(&list, state, seat, states, path, 0);
    for (int d = 1; d < GATEAU_MAX_MOVE_ACTIONS; d++) gateau_state_free(states[d]);
    return list;
}

/* Whether the ascending keys sub[0 .. n) are a sub-multiset of move m's. */
static bool move_holds(const move_list *list, int m, const gateau_action *sub, int n)
{
    const gateau_action *keys = list->keys + list->start[m];
    int count = list->start[m + 1] - list->start[m], i = 0;
    for (int k = 0; k < count && i < n; k++) {
        if (keys[k] == sub[i]) i++;
        else if (keys[k] > sub[i]) return false;
    }
    return i == n;
}

static bool some_move_holds(const move_list *list, const gateau_action *sub, int n)
{
    for (int m = 0; m < list->moves; m++)
        if (move_holds(list, m, sub, n)) return true;
    return false;
}

/* Whether ordered[0 .. n) is a whole legal move of seat. */
static bool whole_move(const gateau_state *state, int seat, const gateau_action *ordered, int n)
{
    return n > 0 && gateau_move_check(state, seat, ordered, n, NULL, 0);
}

/* A game without an order of its own takes parts in the order given:
 * what may follow chosen, applied in turn. */
static int choices_in_order(const gateau_state *state, int seat, const gateau_action *chosen,
                            int count, gateau_action *choices, bool *complete, char *error,
                            size_t error_size)
{
    gateau_state *scratch = gateau_state_clone(state);
    char reason[256];
    int found = -1;
    for (int i = 0; i < count; i++) {
        if (!gateau_state_apply(scratch, seat, chosen[i], reason, sizeof reason)) {
            set_error(error, error_size, "part %d (%d): %s", i + 1, (int)chosen[i], reason);
            goto done;
        }
        if (i + 1 < count && !gateau_state_in_move(scratch)) {
            set_error(error, error_size, "the move is complete after part %d", i + 1);
            goto done;
        }
    }
    bool whole = count > 0 && !gateau_state_in_move(scratch);
    if (complete) *complete = whole;
    found = whole ? 0 : gateau_state_legal_actions(scratch, seat, choices);
done:
    gateau_state_free(scratch);
    return found;
}

/* The keys of list's moves, each once, ascending, into out (room for
 * list->used); their count.  Keys are actions, below the game's action
 * space: marked in a table of that size, not sorted (sorting thousands
 * of keys was most of the time of a choice at Cake Master's place). */
static int distinct_keys(const gateau_state *state, const move_list *list, gateau_action *out)
{
    int space = state->setup->game->action_space, count = 0;
    bool in_range = space > 0;
    for (int k = 0; k < list->used && in_range; k++)
        in_range = list->keys[k] >= 0 && list->keys[k] < space;
    if (!in_range) { /* (a game without an action space: sorted) */
        if (list->used) memcpy(out, list->keys, (size_t)list->used * sizeof *out);
        qsort(out, (size_t)list->used, sizeof *out, compare_actions);
        for (int k = 0; k < list->used; k++)
            if (!k || out[k] != out[k - 1]) out[count++] = out[k];
        return count;
    }
    bool *seen = calloc((size_t)space, sizeof *seen);
    if (!seen) abort();
    for (int k = 0; k < list->used; k++) seen[list->keys[k]] = true;
    for (int a = 0; a < space; a++)
        if (seen[a]) out[count++] = a;
    free(seen);
    return count;
}

int gateau_move_choices(const gateau_state *state, int seat, const gateau_action *chosen,
                        int count, gateau_action choices[GATEAU_MAX_ACTIONS], bool *complete,
                        char *error, size_t error_size)
{
    gateau_action ordered[GATEAU_MAX_MOVE_ACTIONS], keys[GATEAU_MAX_MOVE_ACTIONS];
    if (complete) *complete = false;
    int n = gateau_move_order(state, seat, chosen, count, ordered, error, error_size);
    if (n < 0) return -1;
    if (!state->setup->game->order_move)
        return choices_in_order(state, seat, chosen, count, choices, complete, error, error_size);
    move_list list = legal_moves(state, seat);
    keys_of(state, seat, ordered, n, keys, &list);
    int found = -1;
    if (list.full) {
        set_error(error, error_size, "more than %d moves: too many to choose from in any order",
                  MOST_MOVES);
    } else if (!some_move_holds(&list, keys, n)) {
        set_error(error, error_size, "the %d part%s chosen %s part of no legal move of seat %d",
                  count, count == 1 ? "" : "s", count == 1 ? "is" : "are", seat + 1);
    } else {
        found = 0;
        if (complete) *complete = whole_move(state, seat, ordered, n);
        /* Candidates: every key of every move there is (ascending, once). */
        gateau_action *candidates = malloc(((size_t)list.used + 1) * sizeof *candidates);
        if (!candidates) abort();
        int distinct = distinct_keys(state, &list, candidates);
        gateau_action more[GATEAU_MAX_MOVE_ACTIONS], grown[GATEAU_MAX_MOVE_ACTIONS];
        for (int c = 0; c < distinct && n + 1 < GATEAU_MAX_MOVE_ACTIONS; c++) {
            if (found == GATEAU_MAX_ACTIONS) break;
            if (count) memcpy(more, chosen, (size_t)count * sizeof *more);
            more[count] = candidates[c];
            int g = order_parts(state, seat, more, count + 1, grown, NULL, 0);
            if (g < 0 || (g == n && !memcmp(grown, ordered, (size_t)n * sizeof *grown))) continue;
            keys_of(state, seat, grown, g, more, &list);
            if (some_move_holds(&list, more, g)) choices[found++] = candidates[c];
        }
        free(candidates);
    }
    free(list.keys);
    free(list.start);
    free(list.key_of);
    return found;
}
