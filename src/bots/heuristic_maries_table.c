/*
 * heuristic_maries_table.c: a rule-of-thumb Marie's Table player.
 *
 * Everything is judged by one valuation of a seat's kept cards: per value,
 * the scoring table (1 card -3, 2 -1, 3 +1, 4 +3, 5 +5, 6 +6, 7 +7, 8 +8),
 * softened while rounds remain for the sets that can still grow (a single
 * counts -1.5 and a pair 0 when two or more rounds are to come, halfway
 * with one), plus 1 per eaten card.  An eat still in hand is worth
 * keeping for later: 1.5 points while rounds remain, nothing in the last.
 *
 * - Draft: keep the two cards that raise the valuation most (sets first).
 * - Keep or eat: of the legal choices, the best valuation after it, minus
 *   the eats it spends; so a card that would stay a lonely -3 is eaten.
 * - Take (pairs change hands): the pair that is best for the seat after
 *   its own keep-or-eat choice.
 * - Vote: the taking is played out in the head: youngest first, each
 *   brother takes the pair best for him by the same valuation (never his
 *   own, the eldest's last one excepted).  The seat votes down when the
 *   pair it would end with then is worth more to it than its own pair.
 *
 * It reads the game only through its public view and the legal actions'
 * names, so it uses nothing the seat does not know.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/bots.h"

/* The seat's view as parsed JSON (json_decref it). */
static json_t *bot_view(const gateau_state *state, int seat)
{
    char *text = gateau_state_view_json(state, seat);
    json_t *view = json_loads(text, 0, NULL);
    free(text);
    if (!view) abort(); /* the engine writes valid JSON */
    return view;
}

/* The legal action of seat whose name (gateau_action_name) is `name`, or -1. */
static gateau_action bot_find_action(const gateau_state *state, int seat, const char *name)
{
    gateau_action actions[GATEAU_MAX_ACTIONS];
    int count = gateau_state_legal_actions(state, seat, actions);
    for (int i = 0; i < count; i++) {
        char *text = gateau_action_name(state, seat, actions[i]);
        bool match = !strcmp(text, name);
        free(text);
        if (match) return actions[i];
    }
    return -1;
}

enum { VALUES = 7, MAX_SEATS = 5 };

static const double TABLE[9] = {0, -3, -1, 1, 3, 5, 6, 7, 8};

typedef struct mt_view {
    int players, rounds_left; /* rounds after this one */
    int kept[MAX_SEATS][VALUES + 1];
    int eaten[MAX_SEATS];
    int pair[MAX_SEATS][2];   /* this round's revealed pairs (0: unknown) */
    int took[MAX_SEATS];      /* whose pair each seat took (-1: none yet) */
    int brothers[MAX_SEATS];  /* eldest first */
} mt_view;

static double set_value(int k, int rounds_left)
{
    if (k > 8) k = 8;
    double value = TABLE[k];
    double soften = rounds_left >= 2 ? 1.0 : rounds_left == 1 ? 0.5 : 0.0;
    if (k == 1) value += 1.5 * soften;
    if (k == 2) value += 1.0 * soften;
    return value;
}

static double eat_reserve(int rounds_left) { return rounds_left > 0 ? 1.5 : 0.0; }

/* Seat's gain from adding cards a and b (0: none) kept, e eaten. */
static double keep_gain(const mt_view *v, int seat, const int *add, int count, int eat)
{
    int k[VALUES + 1];
    memcpy(k, v->kept[seat], sizeof k);
    double before = 0, after = 0;
    for (int x = 1; x <= VALUES; x++) before += set_value(k[x], v->rounds_left);
    for (int i = 0; i < count; i++) k[add[i]]++;
    for (int x = 1; x <= VALUES; x++) after += set_value(k[x], v->rounds_left);
    return after - before + eat * (1.0 - eat_reserve(v->rounds_left));
}

/* The best keep-or-eat of a pair for seat: its gain (and how, in eat_out:
 * 0, 1 (the first value), 2 (the second), 3 (both)). */
static double best_with_pair(const mt_view *v, int seat, const int *pair, int *eat_out)
{
    int allowed = 2 - v->eaten[seat];
    double best = keep_gain(v, seat, pair, 2, 0);
    int how = 0;
    if (allowed >= 1) {
        for (int i = 0; i < 2; i++) {
            double g = keep_gain(v, seat, &pair[1 - i], 1, 1);
            if (g > best + 1e-12) {
                best = g;
                how = 1 + i;
            }
        }
    }
    if (allowed >= 2) {
        double g = keep_gain(v, seat, pair, 0, 2);
        if (g > best + 1e-12) {
            best = g;
            how = 3;
        }
    }
    if (eat_out) *eat_out = how;
    return best;
}

static bool read_view(const gateau_state *state, int seat, mt_view *v, json_t **out)
{
    json_t *view = bot_view(state, seat);
    memset(v, 0, sizeof *v);
    v->players = gateau_state_players(state);
    int round = (int)json_integer_value(json_object_get(view, "round"));
    int rounds = (int)json_integer_value(json_object_get(view, "rounds"));
    v->rounds_left = rounds - round;
    json_t *seats = json_object_get(view, "seats");
    for (int s = 0; s < v->players && s < MAX_SEATS; s++) {
        json_t *item = json_array_get(seats, (size_t)s);
        json_t *kept = json_object_get(item, "kept");
        for (int x = 1; x <= VALUES; x++) {
            char key[2] = {(char)('0' + x), '\0'};
            v->kept[s][x] = (int)json_integer_value(json_object_get(kept, key));
        }
        v->eaten[s] = (int)json_integer_value(json_object_get(item, "eaten"));
        v->took[s] = -1;
    }
    json_t *brothers = json_object_get(view, "brothers");
    for (int i = 0; i < v->players; i++)
        v->brothers[i] = (int)json_integer_value(json_array_get(brothers, (size_t)i)) - 1;
    json_t *revealed = json_object_get(view, "revealed");
    size_t rounds_revealed = json_array_size(revealed);
    if (rounds_revealed) {
        json_t *last = json_array_get(revealed, rounds_revealed - 1);
        if (json_integer_value(json_object_get(last, "round")) == round) {
            json_t *list = json_object_get(last, "seats");
            for (size_t i = 0; i < json_array_size(list); i++) {
                json_t *item = json_array_get(list, i);
                int s = (int)json_integer_value(json_object_get(item, "seat")) - 1;
                if (s < 0 || s >= MAX_SEATS) continue;
                json_t *pair = json_object_get(item, "pair");
                v->pair[s][0] = (int)json_integer_value(json_array_get(pair, 0));
                v->pair[s][1] = (int)json_integer_value(json_array_get(pair, 1));
                json_t *took = json_object_get(item, "took");
                v->took[s] = json_is_integer(took) ? (int)json_integer_value(took) - 1 : -1;
            }
        }
    }
    *out = view;
    return true;
}

/* The pair seat ends with if the pairs change hands: youngest first, each
 * takes the best for him that is not his own (the last may be left his). */
static int pair_after_swap(const mt_view *v, int seat)
{
    bool gone[MAX_SEATS] = {false};
    for (int i = v->players - 1; i >= 0; i--) {
        int s = v->brothers[i], best = -1;
        double best_gain = 0;
        for (int p = 0; p < v->players; p++) {
            if (gone[p] || p == s) continue;
            double g = best_with_pair(v, s, v->pair[p], NULL);
            if (best < 0 || g > best_gain + 1e-12) {
                best = p;
                best_gain = g;
            }
        }
        if (best < 0) best = s; /* only his own is left */
        gone[best] = true;
        if (s == seat) return best;
    }
    return seat;
}

static gateau_action mt_heuristic(const gateau_state *state, int seat, gateau_rng *rng)
{
    mt_view v;
    json_t *view;
    read_view(state, seat, &v, &view);
    const char *phase = json_string_value(json_object_get(view, "phase"));
    char name[32] = "";
    gateau_action action = -1;
    if (phase && !strcmp(phase, "draft")) {
        json_t *draft = json_object_get(view, "draft");
        json_t *seen = json_object_get(draft, "seen");
        json_t *keeping = json_object_get(draft, "keeping");
        int hand[16], n = 0;
        for (size_t i = 0; i < json_array_size(seen) && n < 16; i++)
            hand[n++] = (int)json_integer_value(json_array_get(seen, i));
        /* The best two (ascending values, the first of equals). */
        int best_a = 0, best_b = 0;
        double best = -1e300;
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++) {
                int pair[2] = {hand[i] < hand[j] ? hand[i] : hand[j],
                               hand[i] < hand[j] ? hand[j] : hand[i]};
                double g = keep_gain(&v, seat, pair, 2, 0);
                if (g > best + 1e-12 || (g > best - 1e-12 && (pair[0] < best_a ||
                                                             (pair[0] == best_a && pair[1] < best_b)))) {
                    best = g;
                    best_a = pair[0];
                    best_b = pair[1];
                }
            }
        if (json_is_integer(keeping)) snprintf(name, sizeof name, "and %d", best_b);
        else snprintf(name, sizeof name, "keep %d", best_a);
        action = bot_find_action(state, seat, name);
        if (action < 0 && json_is_integer(keeping)) {
            /* The first card kept was not this plan's: best second card. */
            int first = (int)json_integer_value(keeping);
            double second_best = -1e300;
            for (int i = 0; i < n; i++) {
                int pair[2] = {first, hand[i]};
                snprintf(name, sizeof name, "and %d", hand[i]);
                gateau_action a = bot_find_action(state, seat, name);
                double g = keep_gain(&v, seat, pair, 2, 0);
                if (a >= 0 && g > second_best + 1e-12) {
                    second_best = g;
                    action = a;
                }
            }
        }
    } else if (phase && !strcmp(phase, "vote")) {
        double stay = best_with_pair(&v, seat, v.pair[seat], NULL);
        int other = pair_after_swap(&v, seat);
        double swap = best_with_pair(&v, seat, v.pair[other], NULL);
        action = bot_find_action(state, seat, swap > stay + 1e-9 ? "down" : "up");
    } else if (phase && !strcmp(phase, "take")) {
        double best = -1e300;
        for (int p = 0; p < v.players; p++) {
            snprintf(name, sizeof name, "take %d", p + 1);
            gateau_action a = bot_find_action(state, seat, name);
            if (a < 0) continue;
            double g = best_with_pair(&v, seat, v.pair[p], NULL);
            if (g > best + 1e-12) {
                best = g;
                action = a;
            }
        }
    } else if (phase && !strcmp(phase, "eat")) {
        int from = v.took[seat] >= 0 ? v.took[seat] : seat;
        int how;
        best_with_pair(&v, seat, v.pair[from], &how);
        const int *pair = v.pair[from];
        if (how == 0) snprintf(name, sizeof name, "eat");
        else if (how == 3) snprintf(name, sizeof name, "eat %d %d", pair[0], pair[1]);
        else snprintf(name, sizeof name, "eat %d", pair[how - 1]);
        action = bot_find_action(state, seat, name);
    }
    json_decref(view);
    return action >= 0 ? action : bot_random_policy(state, seat, rng);
}

const bot_game maries_table_bots = {
    .heuristic = mt_heuristic,
};
