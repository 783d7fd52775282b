/*
 * piece_o_cake.h: piece o' Cake's insides, shared by the files of the game
 * (rules.c the rules and the game table, notation.c reading and writing
 * moves, views.c what a seat sees) and by its bots
 * (src/bots/heuristic_piece_o_cake.c, solver_piece_o_cake.c), which read
 * the state struct below and the rule helpers declared here; the rule
 * constants are written here and nowhere else.  Bots only ever read
 * determinized states.
 * Rules: ../shared/rules/piece-o-cake.md.
 */
#ifndef GATEAU_PIECE_O_CAKE_H
#define GATEAU_PIECE_O_CAKE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/engine.h"

enum {
    POC_MAX_PLAYERS = 5,
    POC_VARIETIES = 8,
    POC_SLICES = 57,    /* per round: five cakes and the set-aside slices */
    POC_CAKE_SIZE = 11, /* slices per cake, positions 1..11 round the ring */
    POC_CAKES = 5,      /* per round */
    POC_SET_ASIDE = 2,  /* slices nobody sees */
};

/* Varieties in order of their count: plum, apricot, cherry, blackberry,
 * kiwi, gooseberry, strawberry, chocolate (defined in rules.c). */
extern const char POC_VARIETY_LETTER[POC_VARIETIES + 1]; /* "PARBKGSC" */
extern const char *const POC_VARIETY_NAME[POC_VARIETIES];

/* A variety's slice count, which is also its majority bonus, and the
 * points a slice of it scores eaten.  Static so that the bots' hot loops
 * see constants. */
static const int POC_BONUS[POC_VARIETIES] = {3, 4, 5, 7, 8, 9, 10, 11};
static const int POC_DOLLOPS[POC_VARIETIES] = {1, 1, 1, 2, 2, 2, 2, 3};

/* Actions (how moves break into them: see rules.c). */
enum {
    POC_DEAL = 0,          /* + variety */
    POC_CUT_AFTER = 10,    /* + boundary - 1, boundary 1..11 */
    POC_CUT_DONE = 21,
    POC_TAKE = 30,         /* + start - 1, start 1..11 */
    POC_FORFEIT_EAT = 50,  /* + variety */
    POC_PASS = 60,
    POC_EAT_SLICE = 61,
    POC_COLLECT_SLICE = 62,
};

typedef enum {
    POC_PHASE_DEAL,
    POC_PHASE_CUT,
    POC_PHASE_CHOOSE,
    POC_PHASE_SLICES,
    POC_PHASE_OVER
} poc_phase;

typedef struct poc_piece {
    uint8_t start;  /* position 1..11 */
    uint8_t length; /* slices, 1..11 */
    int8_t taker;   /* seat, or -1 while on the plate */
} poc_piece;

typedef struct poc_state {
    uint8_t players, rounds, round, cake; /* round and cake 0-based */
    uint8_t phase;                 /* poc_phase */
    uint8_t server;
    uint8_t dealt;                 /* slices dealt so far this round */
    uint8_t undealt[POC_VARIETIES]; /* per variety, still to be dealt */
    uint8_t slice[POC_SLICES];     /* the deal: cakes 1..5, then set aside */

    /* The cake being served (all zero, piece_starting_at -1, between
     * cakes: rules.c clears what a cake leaves behind). */
    uint8_t cut_count;             /* boundaries chosen */
    uint8_t cut[POC_CAKE_SIZE];    /* ascending */
    uint8_t piece_count;           /* 0 until the cut is done */
    poc_piece pieces[POC_CAKE_SIZE]; /* from the piece holding position 1 */
    uint16_t open_starts;          /* bit p: an untaken piece starts at p */
    int8_t piece_starting_at[POC_CAKE_SIZE + 1]; /* piece index by start, -1 none */
    uint8_t turn;                  /* choosing turns begun (the chooser's is turn - 1) */
    uint8_t chooser;
    uint8_t taking;                /* index of the piece being taken */
    uint8_t next_slice;            /* slices of it decided so far */
    uint8_t next_position;         /* position of the next slice to decide */

    /* Per seat, this round. */
    uint8_t collected[GATEAU_MAX_PLAYERS][POC_VARIETIES];
    uint8_t collected_kinds[GATEAU_MAX_PLAYERS]; /* bit v: collected[seat][v] > 0 */
    uint8_t eaten[GATEAU_MAX_PLAYERS][POC_VARIETIES];
    uint8_t removed[POC_VARIETIES]; /* from pieces nobody took */
    int16_t banked[GATEAU_MAX_PLAYERS]; /* scores of finished rounds */
} poc_state;

/* ---- Rule helpers (the game's files and the bots) ------------------------------- */

/* Pieces a cut may have: N, or 4 with two players. */
static inline int poc_max_pieces(int players) { return players == 2 ? 4 : players; }
/* Choosing turns per cake: one per seat, or four alternating with two. */
static inline int poc_turns_per_cake(int players) { return players == 2 ? 4 : players; }

/* A cake is on the table: being cut, chosen from or taken. */
static inline bool poc_serving(const poc_state *g)
{
    return g->phase == POC_PHASE_CUT || g->phase == POC_PHASE_CHOOSE ||
           g->phase == POC_PHASE_SLICES;
}

/* The current cake's varieties, position p at [p - 1] (while serving). */
static inline const uint8_t *poc_cake(const poc_state *g)
{
    return &g->slice[g->cake * POC_CAKE_SIZE];
}

/* Position p (1..11) of the current cake, as a variety. */
static inline int poc_cake_slice(const poc_state *g, int position)
{
    return g->slice[g->cake * POC_CAKE_SIZE + position - 1];
}

/* Any position number to 1..11 round the ring. */
static inline int poc_wrap_position(int position) { return (position - 1) % POC_CAKE_SIZE + 1; }

/* Slices nobody has seen: deal positions [first_hidden, dealt). */
static inline int poc_first_hidden(const poc_state *g)
{
    return g->phase == POC_PHASE_DEAL ? 0 : (g->cake + 1) * POC_CAKE_SIZE;
}

/* Per variety, the slices not yet served this round, the set-aside ones
 * and the undealt ones included; all zero once the game is over. */
void poc_unseen(const poc_state *g, uint8_t unseen[POC_VARIETIES]);

/* This round's points per seat: majorities plus eaten dollops. */
void poc_round_scores(const poc_state *g, int *scores);

/* Ascending cut boundaries as pieces, listed from the piece that holds
 * position 1 (no boundary: the whole cake); returns their count. */
int poc_pieces_of_cut(const uint8_t *cut, int cut_count, poc_piece *pieces);

/* Lays out the pieces of the finished cut g->cut, all on the plate (the
 * pieces, their lookup by start and the open starts). */
void poc_lay_out_pieces(poc_state *g);

/* ---- notation.c ------------------------------------------------------------------ */

/* A piece as "a-b", "a" or "1-11". */
void poc_append_piece(gateau_text *out, int start, int length);

int poc_parse_move(const gateau_state *state, int seat, const char *text,
                   gateau_action *actions, char *error, size_t error_size);
void poc_format_move(const gateau_state *before, int seat, const gateau_action *actions,
                     int count, gateau_text *out);
void poc_action_name(const gateau_state *state, int seat, gateau_action action,
                     gateau_text *out);
/* A move's parts chosen in any order, in the order of the notation
 * (gateau_move_order). */
int poc_order_move(const gateau_state *state, int seat, const gateau_action *parts, int count,
                   gateau_action *ordered, char *error, size_t error_size);
bool poc_move_visible(const gateau_state *before, int seat, const gateau_action *actions,
                      int count, int viewer);

/* ---- views.c --------------------------------------------------------------------- */

/* The phases as the JSON view names them ("deal", "cut", ...). */
extern const char *const POC_PHASE_NAME[POC_PHASE_OVER + 1];

void poc_view_text(const gateau_state *state, int seat, bool color, gateau_text *out);
void poc_view_json(const gateau_state *state, int seat, json_writer *out);
void poc_describe_move(const gateau_state *before, int seat, const gateau_action *actions,
                       int count, int viewer, gateau_text *out);
void poc_describe_legal(const gateau_state *state, int seat, gateau_text *out);
void poc_key(gateau_text *out);

/* ---- from_view.c ----------------------------------------------------------------- */

bool poc_from_view(gateau_state *state, int seat, const json_t *view, char *error,
                   size_t error_size);

/* ---- observation.c ---------------------------------------------------------------- */

void poc_observe(const gateau_state *state, int seat, observation_writer *out);

/* ---- rules.c, the game table's (the views use them too) ----------------------------- */

void poc_scores(const gateau_state *state, int *scores);
uint32_t poc_winners(const gateau_state *state);

#endif
