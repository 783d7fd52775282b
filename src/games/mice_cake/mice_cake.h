/*
 * mice_cake.h: Mice Cake's insides, shared by the files of the game
 * (rules.c the rules and the game table, notation.c the moves as text,
 * views.c what a seat sees, from_view.c a view read back) and by its bots
 * (src/bots/heuristic_mice_cake.c, search_mice_cake.c), which read a
 * determinized state directly for speed: the rule constants, the state,
 * the actions and the rule helpers.  Rules: ../shared/rules/mice-cake.md.
 */
#ifndef GATEAU_MICE_CAKE_H
#define GATEAU_MICE_CAKE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/engine.h"

enum {
    MC_ROWS = 7,
    MC_COLUMNS = 4,
    MC_PIECES = 28,
    MC_MICE = 4,
    MC_SEATS = 2,
    MC_FACES = 6,
    MC_NO_PIECE = 0xFF,
    MC_DOUBLE_BLANK = 0, /* piece 0/0 */
    MC_DOUBLE_SIX = 27,  /* piece 6/6 */
    MC_MAX_ATTEMPTS = MC_SEATS * MC_COLUMNS,
    MC_MAX_SUM = MC_MICE * MC_FACES, /* the highest dice sum of one attempt */
    MC_MAX_EXHAUSTED = 2,            /* the most mice one attempt exhausts */
    MC_ROUND_LIMIT = 500, /* the engine's guard, not the rules': a game stops there */
};

/* Actions (how a move breaks into them: rules.c). */
enum {
    MC_DEAL = 0,    /* + piece, 0..27 */
    MC_PLACE = 30,  /* + column, 0..3: one mouse on that column */
    MC_TARGET = 40, /* + piece: the steal target, from the opponent's stash */
    MC_DIE = 70,    /* + face - 1 */
};

typedef enum { MC_PHASE_DEAL, MC_PHASE_ASSIGN, MC_PHASE_ROLL, MC_PHASE_OVER } mc_phase;

/* Pieces are numbered 0..27 in the order 0/0 0/1 .. 0/6 1/1 .. 6/6. */
extern const uint8_t MC_LOW[MC_PIECES], MC_HIGH[MC_PIECES];

static inline int mc_pips(int piece) { return MC_LOW[piece] + MC_HIGH[piece]; }

/* One seat's secret assignment, built mouse by mouse. */
typedef struct mc_plan {
    uint8_t mice[MC_COLUMNS]; /* mice per column */
    uint8_t placed;           /* mice placed so far */
    uint8_t last_column;      /* column of the last mouse placed */
    uint8_t target;           /* steal target, MC_NO_PIECE if none */
    bool wants_target;        /* a steal column was just opened: its target comes next */
} mc_plan;

/* One group of mice rolling against one piece. */
typedef struct mc_attempt {
    uint8_t seat, column, mice;
    uint8_t piece; /* rolled against: the nearest piece, or the steal target */
    bool steal;
    uint8_t dice[MC_MICE];
} mc_attempt;

typedef struct mc_state {
    uint8_t phase;
    uint8_t dealt;                     /* pieces dealt so far */
    uint16_t round;                    /* the current round, 1-based */
    bool stopped;                      /* ended by the 500-round guard */
    uint32_t undealt;                  /* bit p: piece p not dealt yet */
    uint8_t grid[MC_ROWS][MC_COLUMNS]; /* row 1 first; piece or MC_NO_PIECE */
    bool up[MC_ROWS][MC_COLUMNS];      /* face up */
    uint32_t stash[MC_SEATS];          /* bit p: piece p */
    uint32_t removed;                  /* the double-blank after a double steal */

    /* Mice.  tired: exhausted in the last round, by the column they were
     * exhausted on; they sit out the current round. */
    uint8_t tired[MC_SEATS][MC_COLUMNS];
    uint8_t ready[MC_SEATS];       /* mice to place this round */
    bool must_assign[MC_SEATS];    /* has mice and a column to put them on */
    bool assigned[MC_SEATS];       /* has completed its assignment */
    mc_plan plans[MC_SEATS];

    /* The rolls of the round. */
    uint8_t attempt_count, rolling, rolled;
    mc_attempt attempts[MC_MAX_ATTEMPTS];
} mc_state;

/* seat's nearest piece in column (yellow looks from row 1 up, blue from
 * row 7 down), or MC_NO_PIECE when the column is empty. */
int mc_nearest_piece(const mc_state *g, int seat, int column);

/* Bit c: seat may put mice on column c (it has a piece, and it is not a
 * steal while the opponent's stash is empty).  When nearest is not NULL
 * it receives mc_nearest_piece of every column. */
unsigned mc_open_columns(const mc_state *g, int seat, uint8_t *nearest);

/* Pieces left in column. */
int mc_column_pieces(const mc_state *g, int column);

/* Pips of the pieces in a stash (bit p: piece p). */
int mc_stash_pips(uint32_t stash);

/* Mice these count dice exhaust on piece: the rules' exhaustion, 0 to
 * MC_MAX_EXHAUSTED. */
int mc_exhaustion(int piece, const uint8_t *dice, int count);

/* ---- rules.c: more helpers, for the game's own files ---------------------- */

/* The row of seat's nearest piece in column, or -1 if the column is empty. */
int mc_nearest_row(const mc_state *g, int seat, int column);

/* A column whose nearest piece (for seat) is the double-blank is a steal. */
bool mc_steal_column(const mc_state *g, int seat, int column);

/* The sum of an attempt's dice. */
int mc_dice_sum(const mc_attempt *a);

/* Success: the sum reaches the value and no mouse is exhausted. */
bool mc_attempt_succeeds(const mc_attempt *a);

/* Mice of seat exhausted in the last round, sitting out this one. */
int mc_tired_count(const mc_state *g, int seat);

/* Most pips; tied: more pieces; still tied: the owner of 6/6; else shared. */
uint32_t mc_winners(const gateau_state *state);

/* ---- notation.c ------------------------------------------------------------ */

extern const char MC_COLUMN_LETTER[MC_COLUMNS + 1]; /* "ABCD" */

/* A piece as "a/b", low half first. */
void mc_append_piece(gateau_text *out, int piece);
/* The pieces of a set (bit p: piece p), ascending; "nothing" when empty. */
void mc_list_stash(uint32_t stash, gateau_text *out);

int mc_parse_move(const gateau_state *state, int seat, const char *text,
                  gateau_action *actions, char *error, size_t error_size);
void mc_format_move(const gateau_state *before, int seat, const gateau_action *actions,
                    int count, gateau_text *out);
void mc_action_name(const gateau_state *state, int seat, gateau_action action,
                    gateau_text *out);
/* A move's parts chosen in any order, in the order of the notation
 * (gateau_move_order). */
int mc_order_move(const gateau_state *state, int seat, const gateau_action *parts, int count,
                  gateau_action *ordered, char *error, size_t error_size);
bool mc_move_visible(const gateau_state *before, int seat, const gateau_action *actions,
                     int count, int viewer);

/* ---- views.c --------------------------------------------------------------- */

void mc_view_text(const gateau_state *state, int seat, bool color, gateau_text *out);
void mc_view_json(const gateau_state *state, int seat, json_writer *out);
void mc_describe_move(const gateau_state *before, int seat, const gateau_action *actions,
                      int count, int viewer, gateau_text *out);
void mc_describe_legal(const gateau_state *state, int seat, gateau_text *out);
void mc_key(gateau_text *out);

/* ---- from_view.c ------------------------------------------------------------ */

/* A position read back from seat's JSON view (the game's from_view). */
bool mc_from_view(gateau_state *state, int seat, const json_t *view, char *error,
                  size_t error_size);

/* ---- observation.c --------------------------------------------------------- */

void mc_observe(const gateau_state *state, int seat, observation_writer *out);

#endif
