/*
 * cake_master.h: Cake Master's insides, shared by the files of the game
 * (cake_master.c the rules and the game table, deck.c the cards and deck
 * files, scoring.c Tasty points and customers, notation.c moves as text,
 * views.c what a seat sees) and by its bots (heuristic_cake_master.c),
 * which read the state and score cakes with the helpers here rather than
 * a copy of the rules.  Rules: ../shared/rules/cake-master.md.
 */
#ifndef GATEAU_CAKE_MASTER_H
#define GATEAU_CAKE_MASTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/engine.h"

enum {
    CM_ROUNDS = 3,
    CM_TURNS = 4,           /* per round */
    CM_HAND = 3,            /* cards drawn, held and placed per turn */
    CM_KIND_BLOCK = 8,      /* kinds per block of the undealt counts */
    CM_CAKES = 3,           /* per player */
    CM_QUARTERS = 4,        /* per cake: a b c d clockwise */
    CM_POSITIONS = CM_CAKES * CM_QUARTERS,
    CM_MAX_CARDS = 200,     /* most cards a deck may hold */
    CM_DECK_MAX_BYTES = 65536, /* the largest deck file read */
    CM_MAX_CUSTOMERS = 40,  /* most customers a deck may hold */
    CM_MIN_CUSTOMERS = 6,   /* a game meets 1 + 2 + 3 of them */
    CM_MAX_FRUIT = 9,       /* most fruits on one card */
    CM_MAX_DEMAND = 99,     /* most a customer may ask of one characteristic */
    CM_MAX_DEALT = CM_TURNS * GATEAU_MAX_PLAYERS * CM_HAND, /* 72 */
    CM_CODE_SIZE = 16,      /* a card code and its NUL */
    CM_NONE = 0xff,         /* no slot, no position */
};

/* Icing colors, in the order of the default deck. */
enum { CM_WHITE, CM_PINK, CM_CHOCOLATE, CM_COLORS };
extern const char CM_COLOR_LETTER[CM_COLORS + 1]; /* "WPC" */
extern const char *const CM_COLOR_NAME[CM_COLORS];

/* Half-rosette bits of a card: on its counter-clockwise and clockwise edge. */
enum { CM_HALF_CCW = 1, CM_HALF_CW = 2 };

/* One quarter card. */
typedef struct cm_card {
    uint8_t color;       /* CM_WHITE .. */
    uint8_t halves;      /* CM_HALF_* bits, the digit of the code */
    bool whole;          /* a whole rosette printed on the card */
    uint8_t raspberries, blueberries;
} cm_card;

/* What a customer can ask of one cake, and what a finished cake has. */
typedef enum {
    CM_FEATURE_COLORS,
    CM_FEATURE_ROSETTES,
    CM_FEATURE_HALVES,
    CM_FEATURE_RASPBERRIES,
    CM_FEATURE_BLUEBERRIES,
    CM_FEATURE_FRUITS,
    CM_FEATURES
} cm_feature;
extern const char *const CM_FEATURE_NAME[CM_FEATURES]; /* "colors", ... */

typedef struct cm_customer {
    int8_t demand[CM_FEATURES]; /* exact count asked, or -1: ignored */
} cm_customer;

/* A deck: the cake cards, grouped into kinds (cards with the same code are
 * interchangeable), and the customers.  Immutable once loaded; it lives in
 * setup->data. */
typedef struct cm_deck {
    int card_count, kind_count, customer_count;
    cm_card kind[CM_MAX_CARDS];
    uint8_t copies[CM_MAX_CARDS];           /* cards of each kind */
    char code[CM_MAX_CARDS][CM_CODE_SIZE];  /* canonical code of each kind */
    cm_customer customer[CM_MAX_CUSTOMERS]; /* id k+1 at index k */
} cm_deck;

/* ---- deck.c ------------------------------------------------------------------ */

/* Reads a card code ("P3rb", fruit letters in any order).  false with a
 * short reason ("unknown color 'X'"). */
bool cm_card_parse(const char *text, cm_card *card, char *why, size_t why_size);
/* The canonical code: color, halves digit, '*', the r's, the b's. */
void cm_card_format(const cm_card *card, char code[CM_CODE_SIZE]);
/* The kind with this code in the deck, or -1. */
int cm_deck_find(const cm_deck *deck, const cm_card *card);
/* The default deck of the rules file: 72 cards, 12 customers. */
void cm_deck_default(cm_deck *deck);
/* Reads a deck file; false with "PATH:LINE: reason" (or "PATH: reason"). */
bool cm_deck_load(cm_deck *deck, const char *path, char *error, size_t error_size);
/* A customer's demands as "fruits=5 rosettes=1". */
void cm_customer_format(const cm_customer *customer, gateau_text *out);

/* The game table's prepare and release: the deck (option deck=FILE or the
 * default) in setup->data, checked to hold a whole round's deal. */
bool cm_prepare(gateau_setup *setup, char *error, size_t error_size);
void cm_release(gateau_setup *setup);

/* ---- scoring.c ------------------------------------------------------------- */

/* The characteristics of one cake of four cards (a b c d clockwise). */
void cm_cake_features(const cm_card *const quarters[CM_QUARTERS], int features[CM_FEATURES]);
/* The same for a cake still being built, NULL for an empty quarter; filled
 * counts the cards, open the half-rosettes facing an empty quarter (not
 * counted as halves: they may still become rosettes). */
void cm_cake_features_so_far(const cm_card *const quarters[CM_QUARTERS],
                             int features[CM_FEATURES], int *filled, int *open);
/* A finished cake's Tasty points, from its characteristics. */
int cm_tasty_points(const int features[CM_FEATURES]);
/* Tasty points for a cake's icing: 1 color 3, 2 colors 1, 3 colors 0. */
static inline int cm_color_points(int colors)
{
    static const int points[CM_COLORS + 1] = {0, 3, 1, 0};
    return points[colors];
}
/* Tasty points for raspberry-blueberry pairs: the fewer of the two. */
static inline int cm_berry_pairs(const int features[CM_FEATURES])
{
    int raspberries = features[CM_FEATURE_RASPBERRIES];
    int blueberries = features[CM_FEATURE_BLUEBERRIES];
    return raspberries < blueberries ? raspberries : blueberries;
}
/* Does the cake give the customer every count he asks for? */
bool cm_customer_satisfied(const cm_customer *customer, const int features[CM_FEATURES]);
/*
 * The most customers a player's cakes satisfy, each cake serving at most one
 * customer and each customer taking at most one cake; served[c] receives the
 * index (into customers) that cake c serves, or -1.  Exact (every
 * assignment is tried).
 */
int cm_match_customers(const int features[CM_CAKES][CM_FEATURES],
                       const cm_customer *const *customers, int customer_count,
                       int served[CM_CAKES]);
/* Stars for Tasty totals: 2 to the highest, 0 to the lowest, 1 to the
 * rest; 2 to everyone when all totals are equal. */
void cm_tasty_stars(const int *totals, int players, int *stars);
/* Winners: most stars, then most Tasty points in the last round. */
uint32_t cm_winners_of(const int *stars, const int *last_tasty, int players);

/* ---- The state ------------------------------------------------------------------ */

typedef enum { CM_PHASE_CUSTOMERS, CM_PHASE_DEAL, CM_PHASE_SHARE, CM_PHASE_PLACE,
               CM_PHASE_OVER } cm_phase;

/* Actions, by range (how moves break into them: cake_master.c). */
enum {
    CM_CUSTOMER = 0,   /* + customer index */
    CM_DEAL = 1000,    /* + kind */
    CM_KEEP = 2000,    /* + kind */
    CM_LEFT = 3000,    /* + kind */
    CM_PLACE = 4000,   /* + position * CM_MAX_CARDS + kind */
};

/* A round's scoring, kept for the views. */
typedef struct cm_result {
    uint8_t tasty[GATEAU_MAX_PLAYERS][CM_CAKES];
    uint8_t total[GATEAU_MAX_PLAYERS];
    uint8_t tasty_stars[GATEAU_MAX_PLAYERS];
    int8_t served[GATEAU_MAX_PLAYERS][CM_CAKES]; /* customer index, -1 none */
    uint8_t customer_stars[GATEAU_MAX_PLAYERS];
} cm_result;

/* Held slots in the place phase: the kept card, then the card from the
 * right neighbour (seat - 1, who passed it left), then the card from the
 * left neighbour (seat + 1, who passed it right).  With 2 players slots 1
 * and 2 are the opponent's "left" and "right" cards. */
enum { CM_SLOT_KEPT, CM_SLOT_FROM_RIGHT, CM_SLOT_FROM_LEFT };

typedef struct cm_state {
    uint8_t players, phase, round, turn; /* round and turn 0-based */
    uint8_t customer_count, customers_dealt;
    uint8_t pile[CM_MAX_CUSTOMERS]; /* customer indices, top of the pile first */
    uint64_t customers_used;        /* bit k: customer k is in the pile */
    uint8_t dealt;                  /* cards of this round's deal so far */
    int16_t undealt_total;
    uint8_t undealt[CM_MAX_CARDS];  /* per kind: not dealt this round */
    /* The same per block of CM_KIND_BLOCK kinds, so that a draw skips
     * whole blocks (cm_sample_chance); at most 200 cards, so a byte. */
    uint8_t undealt_in_block[(CM_MAX_CARDS + CM_KIND_BLOCK - 1) / CM_KIND_BLOCK];
    /* This round's draws, kinds: turn t, seat s, card k at (t*players+s)*3+k. */
    uint8_t deal[CM_MAX_DEALT];
    uint8_t waiting; /* seats that still have to complete their move */
    /* Share: slots of the current draw, CM_NONE until chosen. */
    uint8_t keep[GATEAU_MAX_PLAYERS], left[GATEAU_MAX_PLAYERS];
    /* Place: the held kinds, the position chosen for each slot. */
    uint8_t holding[GATEAU_MAX_PLAYERS][CM_HAND];
    uint8_t target[GATEAU_MAX_PLAYERS][CM_HAND];
    uint8_t placed[GATEAU_MAX_PLAYERS];        /* actions of the place move so far */
    uint8_t last_position[GATEAU_MAX_PLAYERS]; /* of that move, CM_NONE at first */
    /* The table of every round: kind + 1, 0 for an empty position. */
    uint8_t cake[CM_ROUNDS][GATEAU_MAX_PLAYERS][CM_POSITIONS];
    /* This round's table, bit p: position p is empty (for legal moves). */
    uint16_t empty_positions[GATEAU_MAX_PLAYERS];
    cm_result result[CM_ROUNDS];
    uint8_t rounds_scored;
    uint8_t stars[GATEAU_MAX_PLAYERS];
} cm_state;

static inline const cm_deck *cm_deck_of(const gateau_state *state)
{
    return (const cm_deck *)state->setup->data;
}

/* A kind's card code in the state's deck. */
static inline const char *cm_kind_code(const gateau_state *state, int kind)
{
    return cm_deck_of(state)->code[kind];
}

/* Cards dealt in a round: every seat draws CM_HAND each turn. */
static inline int cm_deal_size(int players) { return CM_TURNS * CM_HAND * players; }

/* The customers a round meets: pile positions first .. first + count - 1. */
static inline int cm_round_first_customer(int round) { return round * (round + 1) / 2; }

/* The kind drawn by seat in turn, card k. */
static inline int cm_drawn(const cm_state *g, int turn, int seat, int k)
{
    return g->deal[(turn * g->players + seat) * CM_HAND + k];
}

/* The neighbours: left is seat + 1, right is seat - 1, wrapping. */
static inline int cm_left_of(const cm_state *g, int seat) { return (seat + 1) % g->players; }
static inline int cm_right_of(const cm_state *g, int seat)
{
    return (seat + g->players - 1) % g->players;
}

/* The first slot of seat's draw (this turn) holding kind, other than
 * `skip`, or -1: a move names cards, the state keeps slots. */
static inline int cm_draw_slot(const cm_state *g, int seat, int kind, int skip)
{
    for (int k = 0; k < CM_HAND; k++)
        if (k != skip && cm_drawn(g, g->turn, seat, k) == kind) return k;
    return -1;
}

/* With 2 players both cards not kept go to the opponent: the first of
 * them stands as the "left" one. */
static inline int cm_two_player_left(int keep) { return keep == 0 ? 1 : 0; }

/* Of the three slots 0 1 2, the one that is neither a nor b. */
static inline int cm_third_slot(int a, int b) { return 3 - a - b; }

/* The slot given right: the one neither kept nor given left. */
static inline int cm_right_slot(const cm_state *g, int seat)
{
    return cm_third_slot(g->keep[seat], g->left[seat]);
}

/* A position as text: "1a" .. "3d"; and back (notation.c: "1A" too), or -1. */
void cm_position_name(int position, char name[3]);
int cm_position_parse(const char *text);

/* The phases' names in the JSON view (views.c). */
extern const char *const CM_PHASE_NAME[CM_PHASE_OVER + 1];

/* ---- cake_master.c ------------------------------------------------------------ */

/* Scores are the stars of the rounds scored so far. */
void cm_scores(const gateau_state *state, int *scores);
/* Most stars, then most Tasty points in the last round scored. */
uint32_t cm_winners(const gateau_state *state);
/* Fills g->result[round] from that round's finished tables and its
 * customers: Tasty points, stars for them, customers served (the stars
 * are not added to g->stars). */
void cm_score_tables(cm_state *g, const cm_deck *deck, int round);
/* The undealt cards per block of kinds (undealt_in_block), from the counts
 * per kind. */
void cm_count_undealt_blocks(cm_state *g, int kind_count);
/* Is position i of this round's deal known to seat (its own draw, and
 * every draw once shared)? */
bool cm_deal_known(const cm_state *g, int seat, int i);
/*
 * Writes one way what no longer matters and no view shows: the draws of
 * the turns placed (as the cards on this round's table), the order of this
 * turn's draws once shared, and what is left of a step that is over.  So
 * two positions no seat can tell apart but by their history determinize
 * alike, and a position read back from a view (from_view.c) is written as
 * determinize writes it.
 */
void cm_forget_spent(cm_state *g);

/* ---- notation.c: the game table's parse_move, format_move, action_name ---- */

int cm_parse_move(const gateau_state *state, int seat, const char *text, gateau_action *actions,
                  char *error, size_t error_size);
void cm_format_move(const gateau_state *before, int seat, const gateau_action *actions,
                    int count, gateau_text *out);
void cm_action_name(const gateau_state *state, int seat, gateau_action action, gateau_text *out);
/* A move's parts chosen in any order, in the order of the notation
 * (gateau_move_order). */
int cm_order_move(const gateau_state *state, int seat, const gateau_action *parts, int count,
                  gateau_action *ordered, char *error, size_t error_size);
bool cm_move_visible(const gateau_state *before, int seat, const gateau_action *actions,
                     int count, int viewer);

/* ---- views.c: the game table's view_text, view_json, describe_* ------------ */

void cm_view_text(const gateau_state *state, int seat, bool color, gateau_text *out);
void cm_view_json(const gateau_state *state, int seat, json_writer *out);
void cm_describe_move(const gateau_state *before, int seat, const gateau_action *actions,
                      int count, int viewer, gateau_text *out);
void cm_describe_legal(const gateau_state *state, int seat, gateau_text *out);
void cm_key(gateau_text *out);

/* ---- from_view.c: the game table's from_view -------------------------------- */

bool cm_from_view(gateau_state *state, int seat, const json_t *view, char *error,
                  size_t error_size);

/* ---- observation.c: the game table's observe ---------------------------------- */

void cm_observe(const gateau_state *state, int seat, observation_writer *out);

#endif
