/*
 * piece_o_cake_bots.h: what piece o' Cake tells its bots (internal).
 *
 * The bots (src/bots/heuristic_piece_o_cake.c, solver_piece_o_cake.c)
 * read a state through this snapshot instead of the game's own struct, so
 * the game may change its layout freely.  The bots only ever snapshot
 * determinized states.
 */
#ifndef GATEAU_PIECE_O_CAKE_BOTS_H
#define GATEAU_PIECE_O_CAKE_BOTS_H

#include <stdint.h>

#include "gateau/gateau.h"

enum {
    POC_VARIETIES = 8,
    POC_CAKE_SIZE = 11,
    POC_CAKES = 5,
    POC_SLICES = 57,
};

/* From the rules: a variety's slice count is its majority bonus. */
static const int POC_BONUS[POC_VARIETIES] = {3, 4, 5, 7, 8, 9, 10, 11};
static const int POC_DOLLOPS[POC_VARIETIES] = {1, 1, 1, 2, 2, 2, 2, 3};

typedef enum {
    POC_PHASE_DEAL,
    POC_PHASE_CUT,
    POC_PHASE_CHOOSE,
    POC_PHASE_SLICES,
    POC_PHASE_OVER
} poc_phase;

/* The action encoding (the game's). */
typedef struct poc_action_codes {
    gateau_action cut_after, cut_done, take, forfeit_eat, pass, eat_slice, collect_slice;
} poc_action_codes;

typedef struct poc_snapshot {
    int players, rounds, round, cake; /* round and cake 0-based */
    poc_phase phase;
    int server, chooser;
    int turn;            /* choosing turns begun in this cake (the chooser's is turn-1) */
    int turns;           /* choosing turns per cake: N, or 4 with two players */
    int max_pieces;      /* N, or 4 with two players */
    uint8_t slice[POC_CAKE_SIZE]; /* the current cake, position p at [p-1] */
    int cut_count;
    uint8_t cut[POC_CAKE_SIZE];   /* boundaries so far, ascending (phase cut) */
    int piece_count;
    struct {
        uint8_t start, length; /* start 1..11 */
        int8_t taker;          /* seat, or -1 */
    } pieces[POC_CAKE_SIZE];
    int taking;          /* index of the piece being taken (phase slices) */
    int next_slice;      /* its slices decided so far */
    int next_position;   /* position of the next slice to decide */
    uint8_t collected[GATEAU_MAX_PLAYERS][POC_VARIETIES];
    uint8_t eaten[GATEAU_MAX_PLAYERS][POC_VARIETIES];
    uint8_t removed[POC_VARIETIES];
    uint8_t unseen[POC_VARIETIES]; /* not yet served this round, set-aside included */
    int banked[GATEAU_MAX_PLAYERS]; /* scores of finished rounds */
    /* This round's deal as the state holds it (a bot's state is
     * determinized: the unserved part is one sample): cakes 1..5 of 11
     * slices, then the 2 set aside; `dealt` slices of it so far. */
    int dealt;
    uint8_t deal[POC_SLICES];
    poc_action_codes codes;
} poc_snapshot;

/* Fills out from a piece o' Cake state. */
void piece_o_cake_snapshot(const gateau_state *state, poc_snapshot *out);
/* The same without `unseen` and `deal` (left at zero): for rollouts. */
void piece_o_cake_snapshot_fast(const gateau_state *state, poc_snapshot *out);

#endif
