/*
 * ismcts.c: information-set Monte Carlo tree search (single observer).
 *
 * The root is a state already determinized for the searching seat.  Every
 * iteration copies it and determinizes the copy again for that seat (for
 * the same seat this keeps the distribution), then walks down one tree
 * keyed by (seat, action), so the tree's nodes stand for the searching
 * seat's information sets as the game goes on:
 *
 * - a decision of a seat with more than one legal action is a tree node;
 *   children carry availability counts (how often they were legal when
 *   their parent was visited), and selection is UCB1 with the
 *   availability in place of the parent's visits (Cowling, Powley and
 *   Whitehouse, 2012); the value of a child is the mover's reward;
 * - chance is sampled and not keyed (the tree is "open loop" over chance),
 *   as are forced decisions (a single legal action);
 * - in a simultaneous phase the other seats' hidden choices are not tree
 *   nodes either: they are drawn from the rollout policy, like chance, so
 *   the searching seat never plans against opponents who saw its secret;
 * - one node is added per iteration, then a rollout (uniformly random, or
 *   the game's rollout heuristic) plays to the end, or stops early where
 *   the game can give exact values (piece o' Cake's last cake);
 * - the reward of a seat is 0.9 x its win share (1/k for a k-way tie)
 *   plus 0.1 x its score's place between the lowest and the highest score
 *   of the game, so that won and lost positions still prefer more points.
 *
 * No allocation per iteration: each tree has a node pool (sized from the
 * iteration budget, doubled when a time budget outgrows it) and one
 * scratch state, kept between searches.  With threads=T there are T trees
 * (root parallelism), each with its own random stream derived from the
 * caller's generator; their root statistics are added up.  For a fixed
 * generator, iteration budget and thread count the result is the same on
 * every run.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bots/bots.h"

#define REWARD_SCORE_WEIGHT 0.1 /* unless the game sets its own */
#define LINE_VISIT_FLOOR 8 /* tree steps of a principal line need this many visits */

typedef struct node {
    gateau_action action;
    int8_t actor;
    uint32_t first_child, next_sibling; /* 0: none (node 0 is the root) */
    uint32_t visits, avail;
    double reward_sum, win_sum, score_sum; /* for the actor */
    double best_reward, best_win, best_score; /* the best rollout's, where values are exact */
} node;

typedef struct run_context run_context;

typedef struct tree {
    node *nodes;
    uint32_t count, capacity;
    gateau_state *state;
    uint32_t *path;
    int path_capacity;
    gateau_rng rng;
    long target;     /* iterations to do (0: until the deadline) */
    long done;
    bool out_of_memory;
    const run_context *run;
    pthread_t thread;
} tree;

struct run_context {
    const gateau_state *root;
    int seat;
    int players;
    double exploration;
    double deadline_ms; /* 0: none */
    bot_policy policy;        /* rollouts, and the others' secret choices */
    bot_policy expand_policy; /* which new child a node tries first */
    gateau_action root_first; /* ... at the root: the heuristic's choice, or -1 */
    bool (*leaf_values)(const gateau_state *state, bot_values *values);
    bool (*playout)(const gateau_state *state, gateau_rng *rng, bot_values *values);
    bool (*chance_values)(const gateau_state *state, double share[], double score[]);
    bool one_move;       /* the tree ends with the seat's move at the root */
    bool best_backup;    /* nodes are worth their best rollout (bot_search_defaults.move_values_exact) */
    double score_weight; /* of the score's place in the reward */
    double score_span;   /* > 0: the place is the margin over the others, over this span */
    int score_scale;     /* scores count 1/score_scale of the game's unit (bot_game) */
};

struct ismcts {
    tree *trees;
    int tree_count;
    const gateau_setup *setup;
};

double bot_now_ms(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec * 1e3 + (double)now.tv_nsec * 1e-6;
}

ismcts *ismcts_new(void)
{
    ismcts *search = calloc(1, sizeof *search);
    if (!search) abort();
    return search;
}

static void tree_release(tree *t)
{
    free(t->nodes);
    free(t->path);
    gateau_state_free(t->state);
    memset(t, 0, sizeof *t);
}

void ismcts_free(ismcts *search)
{
    if (!search) return;
    for (int i = 0; i < search->tree_count; i++) tree_release(&search->trees[i]);
    free(search->trees);
    free(search);
}

/* ---- One tree --------------------------------------------------------------- */

/* ln(x) for x >= 1, to about 1e-3: enough for an exploration term. */
static inline double fast_log(double x)
{
    union {
        float f;
        uint32_t i;
    } v = {(float)x};
    float exponent = (float)((int)(v.i >> 23) - 127);
    v.i = (v.i & 0x7fffffu) | 0x3f800000u;
    float m = v.f;
    float log2 = exponent + (-0.34484843f * m + 2.02466578f) * m - 0.67487759f;
    return (double)log2 * 0.69314718;
}

/* The most nodes reserved before a search starts (64 bytes or so each). */
#define INITIAL_NODES_MAX (1u << 18)

static bool tree_reserve(tree *t, uint32_t needed)
{
    if (needed <= t->capacity) return true;
    uint32_t capacity = t->capacity ? t->capacity : 1024;
    while (capacity < needed) {
        if (capacity > UINT32_MAX / 2) return false;
        capacity *= 2;
    }
    node *nodes = realloc(t->nodes, sizeof(node) * capacity);
    if (!nodes) return false;
    t->nodes = nodes;
    t->capacity = capacity;
    return true;
}

static void path_push(tree *t, int *depth, uint32_t index)
{
    if (*depth == t->path_capacity) {
        t->path_capacity = t->path_capacity ? t->path_capacity * 2 : 256;
        t->path = realloc(t->path, sizeof(uint32_t) * (size_t)t->path_capacity);
        if (!t->path) abort();
    }
    t->path[(*depth)++] = index;
}

static inline bool key_less(const node *n, int actor, gateau_action action)
{
    return n->actor < actor || (n->actor == actor && n->action < action);
}

/* Adds a child (actor, action) to parent, keeping children sorted. */
static uint32_t add_child(tree *t, uint32_t parent, int actor, gateau_action action)
{
    uint32_t index = t->count++;
    node *n = &t->nodes[index];
    *n = (node){.action = action, .actor = (int8_t)actor, .avail = 1};
    uint32_t *link = &t->nodes[parent].first_child;
    while (*link && key_less(&t->nodes[*link], actor, action)) link = &t->nodes[*link].next_sibling;
    n->next_sibling = *link;
    *link = index;
    return index;
}

/* The final values, scores in the scale of the game's hooks: whole
 * numbers times the scale, so the score's place in the reward is the same
 * as unscaled. */
static void terminal_values(const run_context *run, const gateau_state *state, bot_values *values)
{
    gateau_state_scores(state, values->score);
    uint32_t winners = gateau_state_winners(state);
    int count = __builtin_popcount(winners);
    for (int s = 0; s < run->players; s++) {
        values->score[s] *= run->score_scale;
        values->share[s] = count && (winners & (1u << s)) ? 1.0 / count : 0.0;
    }
}

/* With the tree over one move: did actor's last action end the seat's move? */
static bool ends_seat_move(const run_context *run, int actor, const gateau_state *state)
{
    return run->one_move && actor == run->seat && !gateau_state_in_move(state);
}

static void iterate(tree *t)
{
    const run_context *run = t->run;
    gateau_state *state = t->state;
    gateau_action actions[GATEAU_MAX_ACTIONS];
    gateau_action untried[GATEAU_MAX_ACTIONS];
    gateau_state_copy(state, run->root);
    gateau_state_determinize(state, run->seat, &t->rng);

    int depth = 0;
    path_push(t, &depth, 0);
    uint32_t current = 0;
    bool expanded = false;
    bool move_done = false; /* the seat's move at the root is complete */

    /* Selection and expansion. */
    while (!gateau_state_is_over(state)) {
        if (gateau_state_is_chance(state)) {
            /* Where chance can be worked out, the rollout does it. */
            if (run->chance_values && (expanded || move_done)) break;
            gateau_state_apply_legal(state, GATEAU_CHANCE, gateau_state_sample_chance(state, &t->rng));
            continue;
        }
        int actor = gateau_state_next_seat(state);
        if (gateau_state_is_simultaneous(state) && actor != run->seat) {
            gateau_state_apply_legal(state, actor, run->policy(state, actor, &t->rng));
            continue;
        }
        int count = gateau_state_legal_actions(state, actor, actions);
        if (count == 1) {
            gateau_state_apply_legal(state, actor, actions[0]);
            move_done |= ends_seat_move(run, actor, state);
            continue;
        }
        if (expanded || move_done) break;

        /* Walk the sorted children along the ascending legal actions. */
        node *parent = &t->nodes[current];
        uint32_t child = parent->first_child, best = 0;
        double best_value = -1.0;
        int untried_count = 0, found = 0;
        for (int i = 0; i < count; i++) {
            while (child && key_less(&t->nodes[child], actor, actions[i]))
                child = t->nodes[child].next_sibling;
            node *c = child ? &t->nodes[child] : NULL;
            if (c && c->actor == actor && c->action == actions[i]) {
                c->avail++;
                found++;
                double value = (run->best_backup ? c->best_reward : c->reward_sum / c->visits) +
                               run->exploration * sqrt(fast_log(c->avail) / c->visits);
                if (value > best_value) {
                    best_value = value;
                    best = child;
                }
                child = c->next_sibling;
            } else {
                untried[untried_count++] = actions[i];
            }
        }
        gateau_action chosen;
        /* Progressive widening: a node visited n times may have about
         * 1 + sqrt(n) children; the policy's choice comes first. */
        if (untried_count && (found == 0 || (double)found * found <= parent->visits)) {
            gateau_action preferred = current == 0 && run->root_first >= 0
                                          ? run->root_first
                                          : run->expand_policy(state, actor, &t->rng);
            chosen = untried[untried_count == 1 ? 0 : gateau_rng_below(&t->rng, (uint32_t)untried_count)];
            for (int i = 0; i < untried_count; i++)
                if (untried[i] == preferred) chosen = preferred;
            if (t->count == t->capacity && !tree_reserve(t, t->count + 1)) {
                t->out_of_memory = true;
                gateau_state_apply_legal(state, actor, chosen);
                break;
            }
            current = add_child(t, current, actor, chosen);
            expanded = true;
        } else {
            current = best;
            chosen = t->nodes[best].action;
        }
        path_push(t, &depth, current);
        gateau_state_apply_legal(state, actor, chosen);
        move_done |= ends_seat_move(run, actor, state);
    }

    /* Rollout. */
    bot_values values;
    double score[GATEAU_MAX_PLAYERS];
    bool exact = false;    /* values set before the end of the game */
    bool expected = false; /* share and score worked out at a chance point */
    while (!gateau_state_is_over(state)) {
        if (gateau_state_is_chance(state)) {
            if (run->chance_values && !gateau_state_in_move(state) &&
                run->chance_values(state, values.share, score)) {
                expected = true;
                break;
            }
            gateau_state_apply_legal(state, GATEAU_CHANCE, gateau_state_sample_chance(state, &t->rng));
            continue;
        }
        if (!gateau_state_in_move(state)) {
            if (run->leaf_values && run->leaf_values(state, &values)) {
                exact = true;
                break;
            }
            if (run->playout && run->playout(state, &t->rng, &values)) {
                exact = true; /* not exact, but final: the values are set */
                break;
            }
        }
        int actor = gateau_state_next_seat(state);
        gateau_state_apply_legal(state, actor, run->policy(state, actor, &t->rng));
    }
    if (!exact && !expected) terminal_values(run, state, &values);
    if (!expected)
        for (int s = 0; s < run->players; s++) score[s] = values.score[s];

    /* Rewards: mostly the win share, partly the score's place. */
    double low = score[0], high = score[0], total = 0;
    for (int s = 0; s < run->players; s++) {
        if (score[s] < low) low = score[s];
        if (score[s] > high) high = score[s];
        total += score[s];
    }
    double reward[GATEAU_MAX_PLAYERS];
    for (int s = 0; s < run->players; s++) {
        double place;
        if (run->score_span > 0) {
            /* Margin over the others' mean, linear across the span. */
            double others = (total - score[s]) / (run->players - 1);
            place = 0.5 + (score[s] - others) / run->score_span;
            place = place < 0 ? 0 : place > 1 ? 1 : place;
        } else {
            place = high > low ? (score[s] - low) / (high - low) : 0.5;
        }
        reward[s] = (1.0 - run->score_weight) * values.share[s] + run->score_weight * place;
    }

    t->nodes[0].visits++;
    for (int i = 1; i < depth; i++) {
        node *n = &t->nodes[t->path[i]];
        n->visits++;
        n->reward_sum += reward[n->actor];
        n->win_sum += values.share[n->actor];
        n->score_sum += score[n->actor];
        if (n->visits == 1 || reward[n->actor] > n->best_reward) {
            n->best_reward = reward[n->actor];
            n->best_win = values.share[n->actor];
            n->best_score = score[n->actor];
        }
    }
}

static void *tree_work(void *argument)
{
    tree *t = argument;
    const run_context *run = t->run;
    for (t->done = 0; !t->out_of_memory; t->done++) {
        if (t->target) {
            if (t->done >= t->target) break;
        } else if ((t->done & 15) == 0 && t->done > 0 && bot_now_ms() >= run->deadline_ms) {
            break;
        }
        /* The host is stopping (gateau_bot_interrupt): a relaxed load
         * every 16 iterations costs nothing beside them. */
        if ((t->done & 15) == 0 && t->done > 0 && bot_interrupted()) break;
        if (t->count == t->capacity && !tree_reserve(t, t->count + 1)) break;
        iterate(t);
    }
    return NULL;
}

/* ---- Search ------------------------------------------------------------------- */

static void prepare_trees(ismcts *search, const gateau_state *root, int threads)
{
    const gateau_setup *setup = gateau_state_setup(root);
    if (search->setup != setup || search->tree_count < threads) {
        if (search->setup != setup) {
            for (int i = 0; i < search->tree_count; i++) {
                gateau_state_free(search->trees[i].state);
                search->trees[i].state = NULL;
            }
        }
        if (search->tree_count < threads) {
            search->trees = realloc(search->trees, sizeof(tree) * (size_t)threads);
            if (!search->trees) abort();
            memset(search->trees + search->tree_count, 0,
                   sizeof(tree) * (size_t)(threads - search->tree_count));
            search->tree_count = threads;
        }
        search->setup = setup;
    }
    for (int i = 0; i < threads; i++)
        if (!search->trees[i].state) search->trees[i].state = gateau_state_clone(root);
}

/* Is child a better than b: more visits, or with best_backup a better best rollout? */
static bool better_child(const tree *t, const node *a, const node *b)
{
    if (t->run->best_backup && a->best_reward != b->best_reward) return a->best_reward > b->best_reward;
    return a->visits > b->visits;
}

/* The best child of node for actor among the legal actions (most visited,
 * or with best_backup the best rollout's). */
static uint32_t most_visited(const tree *t, uint32_t parent, int actor, const gateau_state *state)
{
    gateau_action actions[GATEAU_MAX_ACTIONS];
    int count = gateau_state_legal_actions(state, actor, actions);
    uint32_t best = 0;
    for (uint32_t c = t->nodes[parent].first_child; c; c = t->nodes[c].next_sibling) {
        const node *n = &t->nodes[c];
        if (n->actor != actor) continue;
        bool legal = false;
        for (int i = 0; i < count && !legal; i++) legal = actions[i] == n->action;
        if (legal && (!best || better_child(t, n, &t->nodes[best]))) best = c;
    }
    return best;
}

/* The principal move from child `start` of the root of t, completed by the
 * policy where the tree stops before the move ends. */
static void principal_line(const tree *t, uint32_t start, const gateau_state *root, int seat,
                           gateau_state *scratch, bot_policy completion, ismcts_child *out)
{
    gateau_action actions[GATEAU_MAX_ACTIONS];
    gateau_state_copy(scratch, root);
    out->line_length = 0;
    out->line[out->line_length++] = out->action;
    gateau_state_apply_legal(scratch, seat, out->action);
    uint32_t current = start;
    /* Exact values need no second look; estimates need a few visits. */
    uint32_t floor = t && t->run->best_backup ? 1 : LINE_VISIT_FLOOR;
    bool in_tree = t && start && t->nodes[start].visits >= floor;
    out->line_tree_length = in_tree ? 1 : 0;
    gateau_rng rng;
    gateau_rng_seed(&rng, 0x9a7ea0);
    while (!gateau_state_is_over(scratch) && gateau_state_in_move(scratch) &&
           gateau_state_next_seat(scratch) == seat &&
           out->line_length < GATEAU_MAX_MOVE_ACTIONS) {
        gateau_action action;
        int count = gateau_state_legal_actions(scratch, seat, actions);
        if (count == 1) {
            action = actions[0];
        } else {
            uint32_t next = in_tree ? most_visited(t, current, seat, scratch) : 0;
            if (next && t->nodes[next].visits >= floor) {
                current = next;
                action = t->nodes[next].action;
            } else {
                in_tree = false;
                action = completion(scratch, seat, &rng);
            }
        }
        gateau_state_apply_legal(scratch, seat, action);
        out->line[out->line_length++] = action;
        if (in_tree) out->line_tree_length = out->line_length;
    }
    out->line_complete = out->line_tree_length == out->line_length;
}

static int compare_children(const void *a, const void *b)
{
    const ismcts_child *x = a, *y = b;
    if (x->visits != y->visits) return x->visits > y->visits ? -1 : 1;
    return x->action < y->action ? -1 : x->action > y->action;
}

/* With best_backup: the best rollout first, then as above. */
static int compare_best_children(const void *a, const void *b)
{
    const ismcts_child *x = a, *y = b;
    if (!x->visits != !y->visits) return x->visits ? -1 : 1;
    if (x->reward != y->reward) return x->reward > y->reward ? -1 : 1;
    return compare_children(a, b);
}

/* With a heuristic margin, the heuristic's move stays first unless the
 * most visited move leads it by that share of the iterations: in games
 * where luck swamps the difference between good moves (Mice Cake's dice),
 * a search that departs from a sound rule only on clear evidence beats
 * one that follows every fluctuation. */
static void keep_heuristic_first(const ismcts_params *params, gateau_action heuristic, long done,
                                 ismcts_child *sorted, int count)
{
    if (params->heuristic_margin <= 0 || heuristic < 0) return;
    int h = 0;
    while (h < count && sorted[h].action != heuristic) h++;
    if (h == 0 || h == count) return;
    if ((double)(sorted[0].visits - sorted[h].visits) >= params->heuristic_margin * (double)done)
        return;
    ismcts_child kept = sorted[h];
    memmove(sorted + 1, sorted, sizeof *sorted * (size_t)h);
    sorted[0] = kept;
}

int ismcts_run(ismcts *search, const ismcts_params *params, const gateau_state *root, int seat,
               gateau_rng *rng, ismcts_child *children, int max, long *iterations)
{
    int threads = params->threads > 0 ? params->threads : 1;
    prepare_trees(search, root, threads);
    const bot_game *game = params->game;
    bool two_players = gateau_state_players(root) == 2; /* (the game's reward weights are for two) */
    run_context run = {
        .root = root,
        .seat = seat,
        .players = gateau_state_players(root),
        .one_move = params->tree_one_move,
        .best_backup = params->tree_one_move && params->heuristic_rollout && game &&
                       game->chance_values && game->search.move_values_exact,
        .score_weight = two_players && game && game->search.score_weight > 0
                            ? game->search.score_weight
                            : REWARD_SCORE_WEIGHT,
        .score_span = two_players && game ? game->search.score_span : 0,
        .score_scale = game && game->score_scale > 1 ? game->score_scale : 1,
        .exploration = params->exploration,
        .policy = params->heuristic_rollout && game && game->rollout ? game->rollout
                                                                     : bot_random_policy,
        .expand_policy = game && game->rollout ? game->rollout : bot_random_policy,
        .root_first = -1,
        .leaf_values = params->exact_leaves && game ? game->leaf_values : NULL,
        .playout = params->heuristic_rollout && game ? game->playout : NULL,
        .chance_values = params->heuristic_rollout && game ? game->chance_values : NULL,
    };
    if (game && game->heuristic) {
        gateau_rng heuristic_rng = *rng;
        run.root_first = game->heuristic(root, seat, &heuristic_rng);
    }
    long total = params->budget.iterations;
    if (total <= 0) run.deadline_ms = bot_now_ms() + (params->budget.ms > 0 ? params->budget.ms : 100);
    uint64_t base = gateau_rng_next(rng);
    for (int i = 0; i < threads; i++) {
        tree *t = &search->trees[i];
        t->run = &run;
        t->count = 0;
        t->done = 0;
        t->out_of_memory = false;
        gateau_rng_seed_stream(&t->rng, base, (uint64_t)i);
        t->target = total > 0 ? total / threads + (i < total % threads) : 0;
        uint32_t wanted = total > 0 ? (uint32_t)(t->target + 2)
                                    : (uint32_t)(params->budget.ms > 0 ? params->budget.ms : 100) * 256u;
        /* A first guess at the tree's size, capped: a large budget's tree
         * grows as it is needed (tree_reserve in the search), and the
         * search stops with what it has where memory runs out. */
        if (wanted > INITIAL_NODES_MAX) wanted = INITIAL_NODES_MAX;
        if (!tree_reserve(t, wanted < 1024 ? 1024 : wanted)) {
            t->target = -1; /* no memory even to start: counts as empty */
            continue;
        }
        t->nodes[0] = (node){.actor = (int8_t)seat, .action = -1};
        t->count = 1;
    }
    if (threads == 1) {
        tree_work(&search->trees[0]);
    } else {
        for (int i = 1; i < threads; i++)
            if (search->trees[i].target >= 0 &&
                pthread_create(&search->trees[i].thread, NULL, tree_work, &search->trees[i]) != 0)
                search->trees[i].target = -1; /* could not start: counts as empty */
        tree_work(&search->trees[0]);
        for (int i = 1; i < threads; i++)
            if (search->trees[i].target >= 0) pthread_join(search->trees[i].thread, NULL);
    }

    /* Merge the trees' root children by action. */
    gateau_action actions[GATEAU_MAX_ACTIONS];
    int count = gateau_state_legal_actions(root, seat, actions);
    ismcts_child *merged = calloc((size_t)count, sizeof *merged);
    int *best_tree = calloc((size_t)count, sizeof *best_tree);
    uint32_t *best_node = calloc((size_t)count, sizeof *best_node);
    if (!merged || !best_tree || !best_node) abort();
    long done = 0;
    for (int i = 0; i < threads; i++) {
        const tree *t = &search->trees[i];
        if (t->target < 0) continue;
        done += t->done;
        for (uint32_t c = t->nodes[0].first_child; c; c = t->nodes[c].next_sibling) {
            const node *n = &t->nodes[c];
            for (int a = 0; a < count; a++) {
                if (actions[a] != n->action || n->actor != seat) continue;
                merged[a].visits += n->visits;
                merged[a].win += n->win_sum;
                merged[a].score += n->score_sum;
                merged[a].reward += n->reward_sum;
                if (!best_node[a] || better_child(t, n, &search->trees[best_tree[a]].nodes[best_node[a]])) {
                    best_tree[a] = i;
                    best_node[a] = c;
                }
            }
        }
    }
    bot_policy completion = game && game->heuristic ? game->heuristic : bot_random_policy;
    for (int a = 0; a < count; a++) {
        merged[a].action = actions[a];
        if (merged[a].visits) {
            merged[a].win /= (double)merged[a].visits;
            merged[a].score /= (double)merged[a].visits;
            merged[a].reward /= (double)merged[a].visits;
        }
        if (run.best_backup && best_node[a]) {
            /* The values of the move's best completion, not the mean. */
            const node *n = &search->trees[best_tree[a]].nodes[best_node[a]];
            merged[a].win = n->best_win;
            merged[a].score = n->best_score;
            merged[a].reward = n->best_reward;
        }
        merged[a].score /= run.score_scale; /* in the game's unit */
    }
    qsort(merged, (size_t)count, sizeof *merged,
          run.best_backup ? compare_best_children : compare_children);
    keep_heuristic_first(params, run.root_first, done, merged, count);
    int written = count < max ? count : max;
    for (int k = 0; k < written; k++) {
        int a = 0;
        while (actions[a] != merged[k].action) a++;
        const tree *t = best_node[a] ? &search->trees[best_tree[a]] : NULL;
        principal_line(t, best_node[a], root, seat, search->trees[0].state, completion, &merged[k]);
        children[k] = merged[k];
    }
    free(merged);
    free(best_tree);
    free(best_node);
    if (iterations) *iterations = done;
    return written;
}
