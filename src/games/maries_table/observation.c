/*
 * observation.c: Marie's Table as numbers for learning agents
 * (gateau/observation.h; the fields are listed in docs/observations.md).
 *
 * What a seat knows, as its views show it: the pairs of every round once
 * they are turned up, its own pair as soon as it has kept it, the hand it
 * was passed, its own vote and everyone's once the votes are revealed,
 * the takes and eats, the kept and eaten cards.  The decks to come, the
 * box, the others' pairs during a draft and their votes before the
 * reveal are left out; how many cards of each value are unaccounted for
 * (mt_unseen_cards) is written instead.
 */
#include "games/maries_table/maries_table.h"

enum { MT_MIN_SEATS = 3, MT_SCORE_SCALE = 30 };

static void observe_values(observation_writer *out, const uint8_t counts[MT_VALUES + 1],
                           double scale)
{
    for (int v = 1; v <= MT_VALUES; v++) observe_value(out, counts[v] / scale);
}

/* The eat action as one of: keep both, eat a 1 .. eat a 7, eat both. */
static int eat_index(int ate)
{
    if (!ate) return -1;
    return ate == MT_EAT_BOTH ? MT_VALUES + 1 : ate - MT_EAT_NONE;
}

/* Whether seat knows the pair other kept in round r. */
static bool pair_known(const mt_state *g, int seat, int other, int r)
{
    return r < mt_revealed_rounds(g) || (r == g->round && other == seat);
}

/* Whether seat knows how other voted in round r. */
static bool vote_known(const mt_state *g, int seat, int other, int r)
{
    return other == seat || r != g->round || g->phase != MT_PHASE_VOTE;
}

/* Every round's pairs, votes, takes and eats, seats in relative order. */
static void observe_rounds(const mt_state *g, int seat, observation_writer *out)
{
    for (int r = 0; r < MT_MAX_ROUNDS; r++)
        for (int k = 0; k < MT_MAX_SEATS; k++) {
            bool real = r < g->rounds && k < g->players;
            int s = real ? observe_seat_at(seat, k, g->players) : 0;
            uint8_t counts[MT_VALUES + 1] = {0};
            bool known = real && pair_known(g, seat, s, r);
            if (known) {
                counts[g->pair[r][s][0]]++;
                counts[g->pair[r][s][1]]++;
                counts[0] = 0; /* no card yet */
            }
            observe_values(out, counts, 2.0);
            observe_flag(out, known && g->pair[r][s][0]);
            int vote = real && vote_known(g, seat, s, r) ? g->vote[r][s] : MT_NO_VOTE;
            observe_flag(out, vote == MT_UP);
            observe_flag(out, vote == MT_DOWN);
            int took = real ? g->took[r][s] : -1;
            observe_one_hot(out, took >= 0 ? observe_relative(seat, took, g->players) : -1,
                            MT_MAX_SEATS);
            observe_one_hot(out, real ? eat_index(g->ate[r][s]) : -1, MT_VALUES + 2);
        }
}

void mt_observe(const gateau_state *state, int seat, observation_writer *out)
{
    const mt_state *g = GAME_STATE_CONST(mt_state, state);
    int players = g->players;
    observe_one_hot(out, seat, MT_MAX_SEATS);
    observe_one_hot(out, players - MT_MIN_SEATS, MT_MAX_SEATS - MT_MIN_SEATS + 1);
    observe_one_hot(out, g->round, MT_MAX_ROUNDS);
    observe_value(out, mt_decks_to_come(g) / (double)MT_MAX_ROUNDS);
    observe_one_hot(out, g->phase, MT_PHASE_OVER + 1);
    observe_one_hot(out, seat >= 0 ? mt_position_of(g, seat) : -1, MT_MAX_SEATS);
    observe_one_hot(out, observe_relative(seat, mt_eldest(g), players), MT_MAX_SEATS);
    bool drafting = g->phase == MT_PHASE_DRAFT;
    observe_one_hot(out, drafting ? observe_relative(seat, mt_drafter(g), players) : -1,
                    MT_MAX_SEATS);
    observe_value(out, drafting ? mt_hand_count(g->hand) / (double)MT_MAX_DECK : 0.0);
    for (int k = 0; k < MT_MAX_SEATS; k++)
        observe_flag(out, k < players &&
                              (state->actors >> observe_seat_at(seat, k, players) & 1u));
    uint8_t seen[MT_VALUES + 1] = {0};
    observe_flag(out, mt_hand_seen(g, seat, seen));
    observe_values(out, seen, MT_COPIES);
    observe_one_hot(out, seat >= 0 ? mt_keep_started(g, seat) - 1 : -1, MT_VALUES);
    uint8_t unseen[MT_VALUES + 1];
    mt_unseen_cards(g, seat, unseen);
    observe_values(out, unseen, MT_COPIES);
    observe_rounds(g, seat, out);
    for (int k = 0; k < MT_MAX_SEATS; k++) {
        static const uint8_t none[MT_VALUES + 1] = {0};
        int s = k < players ? observe_seat_at(seat, k, players) : -1;
        observe_values(out, s >= 0 ? g->kept[s] : none, MT_COPIES);
        observe_values(out, s >= 0 ? g->eaten[s] : none, MT_EAT_LIMIT);
        observe_value(out, s >= 0 ? g->eaten_count[s] / (double)MT_EAT_LIMIT : 0.0);
        observe_value(out, s >= 0 ? mt_score_of(g, s) / (double)MT_SCORE_SCALE : 0.0);
    }
}
