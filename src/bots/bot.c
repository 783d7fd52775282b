/*
 * bot.c: the bot interface, bot specs and the list of strategies.
 *
 * A strategy only ever sees a determinized state (see gateau/bot.h): this
 * file is the one place that does the determinizing.  Every decision
 * copies the position into the bot's private scratch state and
 * determinizes that for the seat; the strategies (random, the game's
 * heuristic, ISMCTS, the exact solver) get the scratch state, the seat and
 * the generator.
 *
 * Bots answer with whole moves (gateau_bot_choose_move).  A move of
 * several actions is decided action by action on a fresh determinization
 * each time, as a seat decides when it sees the position (which also
 * keeps every seed's games what they were when bots were asked one action
 * at a time: tests/golden); a searching bot
 * (ismcts, solver) decides the whole move at its first action and plays
 * the rest of its line, which the determinizations in between cannot
 * change (they keep what the seat knows).  A game's bot support (its
 * search defaults and policies, src/games.c) is resolved once per setup.
 */
#include "gateau/bot.h"

#include <assert.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/bots.h"
#include "bots/external.h"
#include "core/engine.h"

#define ISMCTS_DEFAULT_ITERATIONS 10000
/* Search nodes the exact solver may spend (about 2.3 million a second):
 * ismcts solves instead of searching when it fits in ISMCTS_SOLVE_LIMIT
 * (well under 100 ms), solver when it fits in SOLVER_SOLVE_LIMIT (a
 * couple of seconds); past that they search or use the heuristic. */
#define ISMCTS_SOLVE_LIMIT 200000L
#define SOLVER_SOLVE_LIMIT 5000000L

/* A spec's parameters before its own: where a game has defaults of its
 * own (bot_search_defaults), resolve_params() puts them in. */
static const ismcts_params ISMCTS_DEFAULT_PARAMS = {
    .budget = {.iterations = ISMCTS_DEFAULT_ITERATIONS},
    .threads = 1,
    .heuristic_rollout = true,
    .exploration = 0.7,
    .exact_leaves = true,
};

typedef enum { BOT_RANDOM, BOT_HEURISTIC, BOT_ISMCTS, BOT_SOLVER, BOT_EXTERNAL } bot_kind;

/* The rest of a searching bot's move: line[next ..) is still to play. */
typedef struct bot_plan {
    gateau_action line[GATEAU_MAX_MOVE_ACTIONS];
    int length, next;
} bot_plan;

struct gateau_bot {
    char *spec;
    char name[160];
    bot_kind kind;
    ismcts_params params;  /* as the spec gave them */
    bool budget_given;     /* the spec named iters or ms */
    bool margin_given;     /* the spec named margin */
    bool tree_given;       /* the spec named tree */
    bool exploration_given; /* the spec named c */
    double random_share;    /* heuristic:random=F: the share of moves played at random */
    bool random_move;       /* this move is one of them */
    /* Resolved once per setup (prepare_for_setup): */
    const gateau_setup *setup;
    const bot_game *game;   /* the game's bot support, or NULL */
    ismcts_params search;   /* params with the game's defaults put in */
    gateau_state *scratch;  /* the determinized copy, reused between calls */
    gateau_state *position; /* the true position inside a move being chosen */
    ismcts *search_tree;
    bot_move_counter move_counter; /* random's */
    bot_plan plan;
    long last_iterations;
    external_bot *external; /* BOT_EXTERNAL's program (external.c) */
    char failure[512];      /* why it last forfeited */
};

static const char *const BOT_NAMES = "random, heuristic, ismcts, solver, ext:COMMAND";

const char *gateau_bot_names(void) { return BOT_NAMES; }

/* ---- Specs ----------------------------------------------------------------- */

static bool parse_long(const char *text, long low, long high, long *out)
{
    char *end;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (!text[0] || *end || errno || value < low || value > high) return false;
    *out = value;
    return true;
}

/* A number low..high (NaN is not one). */
static bool parse_double(const char *text, double low, double high, double *out)
{
    char *end;
    double value = strtod(text, &end);
    if (!text[0] || *end || !(value >= low && value <= high)) return false;
    *out = value;
    return true;
}

/* heuristic's one parameter: random=F, the share of its moves that are
 * the random bot's instead (a weaker level for the lobby: docs/bots.md,
 * "Levels"). */
static bool parse_heuristic_parameter(gateau_bot *bot, const char *key, const char *value,
                                      char *error, size_t error_size)
{
    if (strcmp(key, "random") != 0) {
        set_error(error, error_size, "unknown parameter '%s' for heuristic (random)", key);
        return false;
    }
    if (!parse_double(value, 0, 1, &bot->random_share)) {
        set_error(error, error_size, "heuristic: random needs a number 0..1, not '%s'", value);
        return false;
    }
    return true;
}

static bool parse_parameter(gateau_bot *bot, const char *name, const char *key, const char *value,
                            bool *has_iterations, bool *has_ms, char *error, size_t error_size)
{
    long number;
    if (bot->kind == BOT_HEURISTIC)
        return parse_heuristic_parameter(bot, key, value, error, error_size);
    if (!strcmp(key, "iters")) {
        if (!parse_long(value, 1, 1000000000L, &number)) {
            set_error(error, error_size, "%s: iters needs a whole number 1..1000000000, not '%s'",
                      name, value);
            return false;
        }
        bot->params.budget.iterations = number;
        *has_iterations = true;
    } else if (!strcmp(key, "ms")) {
        if (!parse_long(value, 1, 86400000L, &number)) {
            set_error(error, error_size, "%s: ms needs a whole number 1..86400000, not '%s'",
                      name, value);
            return false;
        }
        bot->params.budget.ms = (int)number;
        bot->params.budget.iterations = 0;
        *has_ms = true;
    } else if (!strcmp(key, "threads")) {
        if (!parse_long(value, 1, 64, &number)) {
            set_error(error, error_size, "%s: threads needs a whole number 1..64, not '%s'", name,
                      value);
            return false;
        }
        bot->params.threads = (int)number;
    } else if (!strcmp(key, "rollout")) {
        if (strcmp(value, "random") && strcmp(value, "heuristic")) {
            set_error(error, error_size, "%s: rollout is random or heuristic, not '%s'", name, value);
            return false;
        }
        bot->params.heuristic_rollout = !strcmp(value, "heuristic");
    } else if (!strcmp(key, "c")) {
        if (!parse_double(value, 0, 100, &bot->params.exploration)) {
            set_error(error, error_size, "%s: c needs a number 0..100, not '%s'", name, value);
            return false;
        }
        bot->exploration_given = true;
    } else if (!strcmp(key, "margin")) {
        if (!parse_double(value, 0, 1, &bot->params.heuristic_margin)) {
            set_error(error, error_size, "%s: margin needs a number 0..1, not '%s'", name, value);
            return false;
        }
        bot->margin_given = true;
    } else if (!strcmp(key, "tree")) {
        if (strcmp(value, "move") && strcmp(value, "game")) {
            set_error(error, error_size, "%s: tree is move or game, not '%s'", name, value);
            return false;
        }
        bot->params.tree_one_move = !strcmp(value, "move");
        bot->tree_given = true;
    } else if (!strcmp(key, "exact")) {
        if (strcmp(value, "0") && strcmp(value, "1")) {
            set_error(error, error_size, "%s: exact is 0 or 1, not '%s'", name, value);
            return false;
        }
        bot->params.exact_leaves = value[0] == '1';
    } else {
        set_error(error, error_size,
                  "unknown parameter '%s' for %s (iters, ms, threads, rollout, c, margin, tree, exact)", key, name);
        return false;
    }
    return true;
}

static const struct {
    const char *name;
    bot_kind kind;
} KINDS[] = {
    {"random", BOT_RANDOM},
    {"heuristic", BOT_HEURISTIC},
    {"ismcts", BOT_ISMCTS},
    {"solver", BOT_SOLVER},
    {"ext", BOT_EXTERNAL},
};

/* The index in KINDS of the bot a spec names (the part before any ':'),
 * or -1. */
static int find_kind(const char *spec)
{
    size_t name_length = strcspn(spec, ":");
    for (int i = 0; i < (int)(sizeof KINDS / sizeof KINDS[0]); i++)
        if (strlen(KINDS[i].name) == name_length && !strncmp(KINDS[i].name, spec, name_length))
            return i;
    return -1;
}

gateau_bot *gateau_bot_new(const char *spec, char *error, size_t error_size)
{
    if (!spec) spec = "";
    size_t name_length = strcspn(spec, ":");
    int found = find_kind(spec);
    if (found < 0) {
        set_error(error, error_size, "unknown bot '%.*s' (bots: %s)", (int)name_length, spec,
                  BOT_NAMES);
        return NULL;
    }
    const char *name = KINDS[found].name;
    if (KINDS[found].kind == BOT_EXTERNAL) return external_bot_new(spec, error, error_size);
    gateau_bot *bot = calloc(1, sizeof *bot);
    if (!bot) abort(); /* out of memory */
    bot->kind = KINDS[found].kind;
    bot->params = ISMCTS_DEFAULT_PARAMS;
    if (spec[name_length] && bot->kind != BOT_ISMCTS && bot->kind != BOT_HEURISTIC) {
        set_error(error, error_size, "bot '%s' takes no parameters", name);
        free(bot);
        return NULL;
    }
    bool has_iterations = false, has_ms = false;
    const char *p = spec + name_length;
    while (*p == ':') {
        p++;
        size_t length = strcspn(p, ":");
        char item[128];
        if (length == 0 || length >= sizeof item) {
            set_error(error, error_size, "%s: empty or overlong parameter in '%s'", name, spec);
            free(bot);
            return NULL;
        }
        memcpy(item, p, length);
        item[length] = '\0';
        p += length;
        char *equals = strchr(item, '=');
        if (!equals) {
            set_error(error, error_size, "%s: parameter '%s' needs key=value", name, item);
            free(bot);
            return NULL;
        }
        *equals = '\0';
        if (!parse_parameter(bot, name, item, equals + 1, &has_iterations, &has_ms, error,
                             error_size)) {
            free(bot);
            return NULL;
        }
    }
    if (has_iterations && has_ms) {
        set_error(error, error_size, "%s: give iters or ms, not both", name);
        free(bot);
        return NULL;
    }
    bot->budget_given = has_iterations || has_ms;
    bot->spec = strdup(spec);
    snprintf(bot->name, sizeof bot->name, "%s", spec);
    return bot;
}

void gateau_bot_free(gateau_bot *bot)
{
    if (!bot) return;
    gateau_state_free(bot->scratch);
    gateau_state_free(bot->position);
    ismcts_free(bot->search_tree);
    bot_move_counter_free(&bot->move_counter);
    external_free(bot->external);
    free(bot->spec);
    free(bot);
}

/* An ext: bot: its spec and name, its program (which external.c starts
 * when it is first needed). */
gateau_bot *external_bot_new(const char *spec, char *error, size_t error_size)
{
    /* ("ext" alone names the kind but no program: found by fuzz_engine) */
    if (strncmp(spec, "ext:", 4) != 0 || !spec[4]) {
        set_error(error, error_size, "ext: needs a command to run, as in ext:python3 bot.py");
        return NULL;
    }
    external_bot *external = external_new(spec + strlen("ext:"), error, error_size);
    if (!external) return NULL;
    gateau_bot *bot = calloc(1, sizeof *bot);
    if (!bot) abort(); /* out of memory */
    bot->kind = BOT_EXTERNAL;
    bot->params = ISMCTS_DEFAULT_PARAMS;
    bot->external = external;
    bot->spec = strdup(spec);
    snprintf(bot->name, sizeof bot->name, "%s", spec);
    return bot;
}

const char *gateau_bot_failure(const gateau_bot *bot) { return bot->failure; }

void gateau_bot_failures(const gateau_bot *bot, int *failures, int *fallbacks)
{
    if (failures) *failures = bot->external ? bot->external->failures : 0;
    if (fallbacks) *fallbacks = bot->external ? bot->external->fallbacks : 0;
}

void gateau_bot_set_label(gateau_bot *bot, const char *label)
{
    if (bot->external)
        snprintf(bot->external->label, sizeof bot->external->label, "%s", label ? label : "");
}

bool gateau_bot_start(gateau_bot *bot, int seat, char *error, size_t error_size)
{
    return !bot->external || external_check(bot->external, seat, error, error_size);
}

bool gateau_bot_guard_processes(char *error, size_t error_size)
{
    return external_guard(error, error_size);
}

void gateau_bot_kill_programs(void) { external_kill_all(); }

bool gateau_bot_observes(const gateau_bot *bot) { return bot->external != NULL; }

void gateau_bot_observe(gateau_bot *bot, int viewer, const gateau_state *before, int seat,
                        const gateau_action *actions, int count)
{
    if (bot->external && count > 0 && viewer >= 0 && viewer < gateau_state_players(before))
        external_observe(bot->external, viewer, before, seat, actions, count);
}

const char *gateau_bot_name(const gateau_bot *bot) { return bot->name; }

const char *gateau_bot_fallback(const char *spec, const gateau_game *game)
{
    const bot_game *bots = registry_bots(game);
    bool has_heuristic = bots && bots->heuristic;
    int found = find_kind(spec);
    bot_kind kind = found < 0 ? BOT_RANDOM : KINDS[found].kind;
    if (kind == BOT_SOLVER && !(bots && bots->solve)) return has_heuristic ? "heuristic" : "random";
    if (kind == BOT_HEURISTIC && !has_heuristic) return "random";
    return NULL;
}

const bot_game *bot_game_find(const gateau_state *state)
{
    return registry_bots(state->setup->game);
}

/* ---- The game's support, once per setup ------------------------------------ */

/* The spec's search parameters with this game's defaults put in where the
 * spec named none. */
static ismcts_params resolve_params(const gateau_bot *bot, const gateau_setup *setup,
                                    const bot_game *game)
{
    ismcts_params params = bot->params;
    params.game = game;
    if (!game) return params;
    const bot_search_defaults *defaults = &game->search;
    if (!bot->budget_given && defaults->iterations) {
        params.budget.iterations = defaults->iterations;
        if (defaults->per_two_players)
            params.budget.iterations = defaults->iterations * 2 / setup->players;
        long measured = defaults->iterations_for_players[setup->players];
        if (measured) params.budget.iterations = measured;
    }
    if (!bot->margin_given) params.heuristic_margin = defaults->heuristic_margin;
    if (!bot->tree_given) params.tree_one_move = defaults->tree_one_move;
    if (!bot->exploration_given) {
        double c = defaults->exploration_for_players[setup->players];
        if (c <= 0) c = defaults->exploration;
        if (c > 0) params.exploration = c;
    }
    return params;
}

/* Readies the bot for states of this setup: its game's support, its
 * parameters, its scratch states. */
static void prepare_for_setup(gateau_bot *bot, const gateau_state *state)
{
    const gateau_setup *setup = gateau_state_setup(state);
    if (bot->setup == setup) return;
    gateau_state_free(bot->scratch);
    gateau_state_free(bot->position);
    bot->setup = setup;
    bot->game = registry_bots(setup->game);
    bot->search = resolve_params(bot, setup, bot->game);
    bot->scratch = gateau_state_clone(state);
    bot->position = gateau_state_clone(state);
}

/* The private copy of state, determinized for seat: all a strategy sees. */
static const gateau_state *determinized(gateau_bot *bot, const gateau_state *state, int seat,
                                        gateau_rng *rng)
{
    gateau_state_copy(bot->scratch, state);
    gateau_state_determinize(bot->scratch, seat, rng);
    return bot->scratch;
}

/* Notes in the bot's name that a game lacks support of its own. */
static void note_fallback(gateau_bot *bot, const gateau_state *state, const char *instead)
{
    const char *game = gateau_game_name(gateau_setup_game(gateau_state_setup(state)));
    char note[160];
    snprintf(note, sizeof note, "%s (%s for %s)", bot->spec, instead, game);
    if (strcmp(note, bot->name) != 0 && strlen(bot->name) == strlen(bot->spec))
        snprintf(bot->name, sizeof bot->name, "%s", note);
}

/* Keeps line[1 ..) to play while the move that line[0] begins goes on
 * (gateau_bot_choose_move stops at the move's end). */
static void plan_set(gateau_bot *bot, const gateau_action *line, int length)
{
    bot->plan.length = bot->plan.next = 0;
    if (length < 2) return;
    memcpy(bot->plan.line, line, sizeof(gateau_action) * (size_t)length);
    bot->plan.length = length;
    bot->plan.next = 1;
}

/* ---- Strategies ------------------------------------------------------------------ */

static gateau_action heuristic_action(gateau_bot *bot, const gateau_state *det, int seat,
                                      gateau_rng *rng)
{
    if (bot->game && bot->game->heuristic) return bot->game->heuristic(det, seat, rng);
    note_fallback(bot, det, "random");
    return bot_random_move(&bot->move_counter, det, seat, rng);
}

/* Exact play where the game can solve the position within limit nodes:
 * the chosen candidate, or -1. */
static int exact_choice(const gateau_bot *bot, const gateau_state *det, int seat, long limit,
                        bool all, bot_exact_candidate *candidates, int *count)
{
    int best = -1;
    if (!bot->game || !bot->game->solve) return -1;
    if (!bot->game->solve(det, seat, limit, all, candidates, count, &best)) return -1;
    return best;
}

static gateau_action exact_action(gateau_bot *bot, const gateau_state *det, int seat, long limit)
{
    bot_exact_candidate *candidates = malloc(sizeof *candidates * GATEAU_MAX_ACTIONS);
    if (!candidates) abort(); /* out of memory */
    int count = 0;
    int best = exact_choice(bot, det, seat, limit, false, candidates, &count);
    gateau_action action = -1;
    if (best >= 0) {
        action = candidates[best].action;
        plan_set(bot, candidates[best].line, candidates[best].line_length);
    }
    free(candidates);
    return action;
}

static ismcts *search_tree(gateau_bot *bot)
{
    if (!bot->search_tree) bot->search_tree = ismcts_new();
    return bot->search_tree;
}

/*
 * The strategies.  Each gets the bot (its parameters, its reusable
 * search and counters), the determinized copy, the seat and the caller's
 * generator.  Forced decisions and planned moves are handled before them
 * (choose_action).
 */
typedef gateau_action (*bot_strategy)(gateau_bot *bot, const gateau_state *det, int seat,
                                      gateau_rng *rng);

static gateau_action random_strategy(gateau_bot *bot, const gateau_state *det, int seat,
                                     gateau_rng *rng)
{
    return bot_random_move(&bot->move_counter, det, seat, rng);
}

/* Exact play where it fits in ISMCTS_SOLVE_LIMIT nodes, else a search. */
static gateau_action ismcts_strategy(gateau_bot *bot, const gateau_state *det, int seat,
                                     gateau_rng *rng)
{
    gateau_action action = exact_action(bot, det, seat, ISMCTS_SOLVE_LIMIT);
    if (action >= 0) return action;
    ismcts_child child;
    ismcts_run(search_tree(bot), &bot->search, det, seat, rng, &child, 1, &bot->last_iterations);
    plan_set(bot, child.line, child.line_tree_length);
    return child.action;
}

/* Exact play where it fits in SOLVER_SOLVE_LIMIT nodes, else the heuristic. */
static gateau_action solver_strategy(gateau_bot *bot, const gateau_state *det, int seat,
                                     gateau_rng *rng)
{
    gateau_action action = exact_action(bot, det, seat, SOLVER_SOLVE_LIMIT);
    if (action >= 0) return action;
    if (!bot->game || !bot->game->solve) note_fallback(bot, det, "heuristic");
    return heuristic_action(bot, det, seat, rng);
}

static const bot_strategy STRATEGIES[] = {
    [BOT_RANDOM] = random_strategy,
    [BOT_HEURISTIC] = heuristic_action,
    [BOT_ISMCTS] = ismcts_strategy,
    [BOT_SOLVER] = solver_strategy,
};

/* One action of seat's move at `position` (the true state), decided on a
 * fresh determinization. */
static gateau_action choose_action(gateau_bot *bot, const gateau_state *position, int seat,
                                   gateau_rng *rng)
{
    const gateau_state *det = determinized(bot, position, seat, rng);
    if (bot->random_move) return random_strategy(bot, det, seat, rng);
    if (bot->kind == BOT_ISMCTS || bot->kind == BOT_SOLVER) {
        /* Searching bots: the rest of the line they chose, a forced decision. */
        if (bot->plan.next < bot->plan.length) return bot->plan.line[bot->plan.next++];
        gateau_action legal[GATEAU_MAX_ACTIONS];
        if (gateau_state_legal_actions(det, seat, legal) == 1) return legal[0];
    }
    return STRATEGIES[bot->kind](bot, det, seat, rng);
}

/* True while seat is inside a move it must go on with. */
static bool continues_move(const gateau_state *state, int seat)
{
    return gateau_state_in_move(state) && (gateau_state_actors(state) & (1u << seat));
}

int gateau_bot_choose_actions(gateau_bot *bot, const gateau_state *state, int seat,
                              gateau_rng *rng, gateau_action actions[GATEAU_MAX_MOVE_ACTIONS])
{
    if (seat < 0 || seat >= gateau_state_players(state) ||
        !(gateau_state_actors(state) & (1u << seat)) || gateau_state_in_move(state))
        return 0;
    if (bot->external) {
        int count = external_choose(bot->external, state, seat, rng, actions, bot->failure,
                                    sizeof bot->failure);
        return count;
    }
    prepare_for_setup(bot, state);
    bot->plan.length = bot->plan.next = 0;
    /* One draw a move, and only for a bot that plays some moves at random
     * and some not, so every other bot's games (random=0 and random=1
     * included) stay what they were for a seed. */
    bot->random_move = bot->random_share >= 1 ||
                       (bot->random_share > 0 && gateau_rng_unit(rng) < bot->random_share);
    /* Most moves are one action: whether the move goes on is read from
     * the determinized copy (who acts is public, so it is the same there
     * as in the true position), and the true position is copied only for
     * a move of several actions. */
    const gateau_state *position = state;
    int count = 0;
    for (;;) {
        gateau_action action = choose_action(bot, position, seat, rng);
        assert(count < GATEAU_MAX_MOVE_ACTIONS);
        actions[count++] = action;
        gateau_state_apply_legal(bot->scratch, seat, action); /* (debug builds check it) */
        bool goes_on = continues_move(bot->scratch, seat);
#ifndef NDEBUG
        gateau_state *check = gateau_state_clone(position);
        gateau_state_apply_legal(check, seat, action);
        assert(continues_move(check, seat) == goes_on);
        gateau_state_free(check);
#endif
        if (!goes_on) break;
        if (position == state) {
            gateau_state_copy(bot->position, state);
            position = bot->position;
        }
        gateau_state_apply_legal(bot->position, seat, action);
    }
    return count;
}

bool gateau_bot_choose_move(gateau_bot *bot, const gateau_state *state, int seat,
                            gateau_rng *rng, gateau_bot_move *move)
{
    move->count = gateau_bot_choose_actions(bot, state, seat, rng, move->actions);
    move->text[0] = '\0';
    if (move->count <= 0) {
        move->count = 0;
        return false;
    }
    char *text = gateau_move_format(state, seat, move->actions, move->count);
    snprintf(move->text, sizeof move->text, "%s", text);
    free(text);
    return true;
}

/* ---- Analysis ---------------------------------------------------------------------- */

/* The candidate's move in notation; inside a move (a position where seat
 * has begun its move), where the notation has no words for the rest of a
 * move, the first action's name. */
static void format_line(const gateau_state *det, int seat, const gateau_action *line, int length,
                        bool complete, gateau_bot_candidate *out)
{
    complete = complete && !gateau_state_in_move(det);
    char *text = complete ? gateau_move_format(det, seat, line, length)
                          : gateau_action_name(det, seat, line[0]);
    snprintf(out->move, sizeof out->move, "%s", text);
    free(text);
}

static int compare_exact(const void *a, const void *b)
{
    const gateau_bot_candidate *x = a, *y = b;
    if (x->win != y->win) return x->win > y->win ? -1 : 1;
    if (x->score != y->score) return x->score > y->score ? -1 : 1;
    return x->action < y->action ? -1 : x->action > y->action;
}

int gateau_bot_analyse(gateau_bot *bot, const gateau_state *state, int seat, gateau_rng *rng,
                       gateau_bot_candidate *results, int max)
{
    if (max <= 0 || gateau_state_is_over(state) || gateau_state_is_chance(state) ||
        !(gateau_state_actors(state) & (1u << seat)))
        return 0;
    prepare_for_setup(bot, state);
    const gateau_state *det = determinized(bot, state, seat, rng);
    int written = 0;

    /* Exact values where the game can solve the position. */
    long limit = bot->kind == BOT_SOLVER ? SOLVER_SOLVE_LIMIT : ISMCTS_SOLVE_LIMIT;
    bot_exact_candidate *candidates = malloc(sizeof *candidates * GATEAU_MAX_ACTIONS);
    if (!candidates) abort(); /* out of memory */
    int count = 0;
    int best = exact_choice(bot, det, seat, limit, true, candidates, &count);
    if (best >= 0) {
        gateau_bot_candidate *all = calloc((size_t)count, sizeof *all);
        if (!all) abort(); /* out of memory */
        for (int i = 0; i < count; i++) {
            all[i].action = candidates[i].action;
            all[i].win = candidates[i].values.share[seat];
            all[i].score = (double)candidates[i].values.score[seat] /
                           (bot->game->score_scale > 1 ? bot->game->score_scale : 1);
            all[i].exact = true;
            format_line(det, seat, candidates[i].line, candidates[i].line_length, true, &all[i]);
        }
        /* The move exact play makes first, then the others by value. */
        gateau_bot_candidate chosen = all[best];
        all[best] = all[count - 1];
        qsort(all, (size_t)count - 1, sizeof *all, compare_exact);
        written = count < max ? count : max;
        results[0] = chosen;
        for (int i = 1; i < written; i++) results[i] = all[i - 1];
        free(all);
        free(candidates);
        return written;
    }
    free(candidates);

    /* Bots that do not search analyse as a plain `ismcts` would. */
    ismcts_params params = bot->search;
    if (bot->kind != BOT_ISMCTS) {
        gateau_bot plain = {.params = ISMCTS_DEFAULT_PARAMS};
        params = resolve_params(&plain, bot->setup, bot->game);
    }
    ismcts_child *children = malloc(sizeof *children * (size_t)max);
    if (!children) abort(); /* out of memory */
    written = ismcts_run(search_tree(bot), &params, det, seat, rng, children, max, &bot->last_iterations);
    for (int i = 0; i < written; i++) {
        gateau_bot_candidate *out = &results[i];
        memset(out, 0, sizeof *out);
        out->action = children[i].action;
        out->visits = (int)children[i].visits;
        out->win = children[i].win;
        out->score = children[i].score;
        format_line(det, seat, children[i].line, children[i].line_length, true, out);
    }
    free(children);
    return written;
}

/* ---- Stopping every search (gateau_bot_interrupt) --------------------------------- */

static atomic_bool interrupted;

void gateau_bot_interrupt(bool stop)
{
    atomic_store_explicit(&interrupted, stop, memory_order_relaxed);
}

bool bot_interrupted(void)
{
    return atomic_load_explicit(&interrupted, memory_order_relaxed);
}
