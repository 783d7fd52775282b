/*
 * maries_table.h: Marie's Table's insides, shared by the files of the game
 * (rules.c the rules and the game table, notation.c the move notation,
 * views.c what a seat sees, from_view.c a seat's view read back) and by
 * its bot (src/bots/heuristic_maries_table.c), which reads a state
 * determinized for its seat through the helpers here.  Rules:
 * ../shared/rules/maries-table.md.
 *
 * A bot must read only what its seat knows (what views.c shows it): the
 * kept and eaten cards, the revealed pairs, the takes, the hand it was
 * passed (mt_hand_seen()).  The rest of a determinized state (the others'
 * pairs during a draft, the decks to come, the votes not yet revealed) is
 * a guess.
 */
#ifndef GATEAU_MARIES_TABLE_H
#define GATEAU_MARIES_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/engine.h"

enum {
    MT_VALUES = 7,     /* card values 1..7 */
    MT_COPIES = 8,     /* cards of each value */
    MT_CARDS = MT_VALUES * MT_COPIES,
    MT_MAX_SEATS = 5,
    MT_MAX_ROUNDS = 6,
    MT_MAX_DECK = 10,
    MT_MAX_DEALT = 50, /* 5 decks of 10 */
    MT_EAT_LIMIT = 2,  /* cards a player may eat in the whole game */
};

/* Points for how many cards of one value a player kept (0..8). */
extern const int MT_KEPT_POINTS[MT_COPIES + 1];

/* Actions.  Values are 1..7 everywhere, seats 0-based. */
enum {
    MT_DEAL = 0,       /* + value */
    MT_KEEP_LOW = 10,  /* + value: the lower card of a keep */
    MT_KEEP_HIGH = 20, /* + value: the higher (or equal) card */
    MT_VOTE_UP = 30,
    MT_VOTE_DOWN = 31,
    MT_TAKE = 40,      /* + seat whose pair is taken */
    MT_EAT_NONE = 50,  /* keep both cards */
    MT_EAT_ONE = 50,   /* + value (1..7): eat that card, keep the other */
    MT_EAT_BOTH = 60,
};

typedef enum {
    MT_PHASE_DEAL,
    MT_PHASE_DRAFT,
    MT_PHASE_VOTE,
    MT_PHASE_TAKE,
    MT_PHASE_EAT,
    MT_PHASE_OVER
} mt_phase;

enum { MT_NO_VOTE = 0, MT_UP = 1, MT_DOWN = 2 };

typedef struct mt_state {
    uint8_t players, rounds, deck_size, phase;
    uint8_t round;                  /* 0-based; stays at the last one when over */
    uint8_t dealt;                  /* cards of the decks dealt so far */
    uint8_t outside[MT_VALUES + 1]; /* per value, cards in no deck (the box) */
    uint8_t cards[MT_MAX_DEALT];    /* the decks, in play order */

    /* The round being played. */
    uint8_t turn;                   /* draft: the drafter's position; then takes done */
    uint8_t hand[MT_VALUES + 1];    /* the hand being drafted, per value */
    uint8_t low;                    /* first card of an unfinished keep, 0 if none */

    /* Every round so far, public once the round's pairs are revealed. */
    uint8_t pair[MT_MAX_ROUNDS][MT_MAX_SEATS][2]; /* each seat's pair, ascending; 0 = none */
    uint8_t vote[MT_MAX_ROUNDS][MT_MAX_SEATS];    /* MT_NO_VOTE, MT_UP, MT_DOWN */
    int8_t took[MT_MAX_ROUNDS][MT_MAX_SEATS];     /* whose pair the seat took, -1 = not yet */
    uint8_t ate[MT_MAX_ROUNDS][MT_MAX_SEATS];     /* the seat's eat action, 0 = not yet */

    /* Per seat, the game so far. */
    uint8_t kept[MT_MAX_SEATS][MT_VALUES + 1];
    uint8_t eaten[MT_MAX_SEATS][MT_VALUES + 1];
    uint8_t eaten_count[MT_MAX_SEATS];
} mt_state;

/* ---- Who sits where (rules.c) ---------------------------------------------- */

/* Cards of all the decks of the game; the rest stay in the box. */
static inline int mt_dealt_total(const mt_state *g) { return g->rounds * g->deck_size; }

/* Seat 1 is the eldest of round 1; each round the youngest becomes the next
 * eldest, so the role moves one seat to the right (seat - 1) per round. */
static inline int mt_eldest_of(const mt_state *g, int round)
{
    return (g->players - round % g->players) % g->players;
}

static inline int mt_eldest(const mt_state *g) { return mt_eldest_of(g, g->round); }

/* Position 0 is the eldest, 1 the brother to his left, ... players-1 the
 * youngest. */
static inline int mt_seat_at(const mt_state *g, int position)
{
    return (mt_eldest(g) + position) % g->players;
}
static inline int mt_position_of(const mt_state *g, int seat)
{
    return (seat - mt_eldest(g) + g->players) % g->players;
}
static inline int mt_youngest(const mt_state *g) { return mt_seat_at(g, g->players - 1); }

/* Takes go from the youngest counter-clockwise to the eldest. */
static inline int mt_taker_at(const mt_state *g, int turn)
{
    return mt_seat_at(g, g->players - 1 - turn);
}

/* The seat keeping two cards of the hand now, during a draft. */
static inline int mt_drafter(const mt_state *g) { return mt_seat_at(g, g->turn); }

/* The first card of seat's unfinished keep, 0 if none; only the drafter's
 * own is known to him. */
static inline int mt_keep_started(const mt_state *g, int seat)
{
    return g->phase == MT_PHASE_DRAFT && seat == mt_drafter(g) ? g->low : 0;
}

/* Rounds whose pairs are face up: those before the current one, and the
 * current one too once its draft is over. */
static inline int mt_revealed_rounds(const mt_state *g)
{
    if (g->phase == MT_PHASE_DEAL) return 0;
    return g->phase == MT_PHASE_DRAFT ? g->round : g->round + 1;
}

/* Decks still face down, not counting the one being played. */
static inline int mt_decks_to_come(const mt_state *g)
{
    return g->rounds - g->round - (g->phase != MT_PHASE_DEAL);
}

/* The pair seat took this round (its own when nobody swaps). */
static inline const uint8_t *mt_taken_pair(const mt_state *g, int seat)
{
    return g->pair[g->round][g->took[g->round][seat]];
}

/* Cards seat may still eat this game. */
static inline int mt_eats_left(const mt_state *g, int seat)
{
    return MT_EAT_LIMIT - g->eaten_count[seat];
}

/* ---- Rule helpers (rules.c) -------------------------------------------------- */

/* Cards in a hand of counts per value. */
int mt_hand_count(const uint8_t *counts);
/* Votes down in a round, and whether they make the pairs change hands
 * (inline: every take and eat asks). */
static inline int mt_discontent(const mt_state *g, int round)
{
    int n = 0;
    for (int s = 0; s < g->players; s++) n += g->vote[round][s] == MT_DOWN;
    return n;
}
static inline bool mt_swapping(const mt_state *g, int round) { return mt_discontent(g, round) >= 2; }
/* The seat that took seat's pair in round, or -1. */
int mt_taker_of(const mt_state *g, int round, int seat);
/* A seat's points: its kept sets and 1 per eaten card. */
int mt_score_of(const mt_state *g, int seat);
/* The hand seat was passed this round (the whole deck for the eldest), if
 * the draft has reached him; false otherwise. */
bool mt_hand_seen(const mt_state *g, int seat, uint8_t seen[MT_VALUES + 1]);
/* Can value a be the lower card of a keep from hand, b the higher after low? */
bool mt_low_allowed(const uint8_t *hand, int a);
bool mt_high_allowed(const uint8_t *hand, int low, int b);
/* Per value, the cards whose place seat does not know. */
void mt_unseen_cards(const mt_state *g, int seat, uint8_t pool[MT_VALUES + 1]);
/* The values an eat action eats from pair p: how many, in out. */
int mt_eaten_by(gateau_action action, const uint8_t *p, int out[2]);

int mt_legal_actions(const gateau_state *state, int seat, gateau_action *actions);
uint32_t mt_winners(const gateau_state *state);

/* ---- notation.c ---------------------------------------------------------------- */

/* A hand as "1 2 3 3 5 7", or "nothing". */
void mt_append_counts(gateau_text *out, const uint8_t *counts);
int mt_parse_move(const gateau_state *state, int seat, const char *text,
                  gateau_action *actions, char *error, size_t error_size);
void mt_format_move(const gateau_state *before, int seat, const gateau_action *actions,
                    int count, gateau_text *out);
void mt_action_name(const gateau_state *state, int seat, gateau_action action,
                    gateau_text *out);
/* A move's parts chosen in any order, in the order of the notation
 * (gateau_move_order). */
int mt_order_move(const gateau_state *state, int seat, const gateau_action *parts, int count,
                  gateau_action *ordered, char *error, size_t error_size);
bool mt_move_visible(const gateau_state *before, int seat, const gateau_action *actions,
                     int count, int viewer);

/* ---- views.c ------------------------------------------------------------------- */

/* The phases as the JSON view names them, by mt_phase. */
extern const char *const MT_PHASE_NAMES[MT_PHASE_OVER + 1];

void mt_view_text(const gateau_state *state, int seat, bool color, gateau_text *out);
void mt_view_json(const gateau_state *state, int seat, json_writer *out);
void mt_describe_move(const gateau_state *before, int seat, const gateau_action *actions,
                      int count, int viewer, gateau_text *out);
void mt_describe_legal(const gateau_state *state, int seat, gateau_text *out);
void mt_key(gateau_text *out);

/* ---- from_view.c ---------------------------------------------------------------- */

bool mt_from_view(gateau_state *state, int seat, const json_t *view, char *error,
                  size_t error_size);

/* ---- observation.c ------------------------------------------------------------- */

void mt_observe(const gateau_state *state, int seat, observation_writer *out);

#endif
