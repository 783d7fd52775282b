/*
 * scoring.c: Cake Master's round scoring: Tasty points of a cake, the
 * customers it satisfies, the best way to serve them, stars and winners.
 */
#include <string.h>

#include "games/cake_master/cake_master.h"

/*
 * Quarters a b c d go clockwise, so quarter i and quarter i+1 (d wrapping
 * to a) share an edge: the clockwise edge of i meets the counter-clockwise
 * edge of i+1.  Two halves there make a complete rosette, one half alone
 * stays a half-rosette.  A printed whole rosette counts as complete.  On a
 * cake still being built (NULL: an empty quarter) a half facing an empty
 * quarter is neither yet: it is open.
 */
void cm_cake_features_so_far(const cm_card *const quarters[CM_QUARTERS],
                             int features[CM_FEATURES], int *filled, int *open)
{
    memset(features, 0, sizeof(int) * CM_FEATURES);
    unsigned colors = 0;
    *filled = *open = 0;
    for (int i = 0; i < CM_QUARTERS; i++) {
        const cm_card *card = quarters[i], *next = quarters[(i + 1) % CM_QUARTERS];
        if (card) {
            (*filled)++;
            colors |= 1u << card->color;
            features[CM_FEATURE_ROSETTES] += card->whole;
            features[CM_FEATURE_RASPBERRIES] += card->raspberries;
            features[CM_FEATURE_BLUEBERRIES] += card->blueberries;
        }
        bool cw = card && (card->halves & CM_HALF_CW), ccw = next && (next->halves & CM_HALF_CCW);
        if (card && next) {
            if (cw && ccw) features[CM_FEATURE_ROSETTES]++;
            else if (cw || ccw) features[CM_FEATURE_HALVES]++;
        } else if (cw || ccw) {
            (*open)++;
        }
    }
    /* Three color bits: counted by hand, since without -mpopcnt the
     * builtin is a library call, and the bots' search calls this in its
     * inner loop. */
    features[CM_FEATURE_COLORS] = (int)((colors & 1) + (colors >> 1 & 1) + (colors >> 2 & 1));
    features[CM_FEATURE_FRUITS] =
        features[CM_FEATURE_RASPBERRIES] + features[CM_FEATURE_BLUEBERRIES];
}

void cm_cake_features(const cm_card *const quarters[CM_QUARTERS], int features[CM_FEATURES])
{
    int filled, open;
    cm_cake_features_so_far(quarters, features, &filled, &open);
}

/* 1 color 3, 2 colors 1, 3 colors 0; +1 per complete rosette; +1 without
 * any half-rosette; +1 per raspberry-blueberry pair on this cake. */
int cm_tasty_points(const int features[CM_FEATURES])
{
    return cm_color_points(features[CM_FEATURE_COLORS]) + features[CM_FEATURE_ROSETTES] +
           (features[CM_FEATURE_HALVES] == 0) + cm_berry_pairs(features);
}

/* A customer asks for exact counts; what he does not name is ignored. */
bool cm_customer_satisfied(const cm_customer *customer, const int features[CM_FEATURES])
{
    for (int f = 0; f < CM_FEATURES; f++)
        if (customer->demand[f] >= 0 && customer->demand[f] != features[f]) return false;
    return true;
}

typedef struct matcher {
    bool fits[CM_CAKES][CM_MAX_CUSTOMERS];
    int customer_count;
    int current[CM_CAKES], best[CM_CAKES];
    int best_count;
    uint64_t taken;
} matcher;

/* Tries every choice for cake c onwards: a customer it satisfies who has no
 * cake yet, or nobody. */
static void match_from(matcher *m, int c, int count)
{
    if (c >= CM_CAKES) { /* (not ==: the compiler then sees that c stays in bounds) */
        if (count > m->best_count) {
            m->best_count = count;
            memcpy(m->best, m->current, sizeof m->best);
        }
        return;
    }
    for (int k = 0; k < m->customer_count; k++) {
        if (!m->fits[c][k] || (m->taken & (1ull << k))) continue;
        m->taken |= 1ull << k;
        m->current[c] = k;
        match_from(m, c + 1, count + 1);
        m->taken &= ~(1ull << k);
    }
    m->current[c] = -1;
    match_from(m, c + 1, count);
}

int cm_match_customers(const int features[CM_CAKES][CM_FEATURES],
                       const cm_customer *const *customers, int customer_count,
                       int served[CM_CAKES])
{
    matcher m;
    memset(&m, 0, sizeof m);
    m.customer_count = customer_count;
    m.best_count = -1;
    for (int c = 0; c < CM_CAKES; c++)
        for (int k = 0; k < customer_count; k++)
            m.fits[c][k] = cm_customer_satisfied(customers[k], features[c]);
    match_from(&m, 0, 0);
    memcpy(served, m.best, sizeof m.best);
    return m.best_count;
}

void cm_tasty_stars(const int *totals, int players, int *stars)
{
    int high = totals[0], low = totals[0];
    for (int s = 1; s < players; s++) {
        if (totals[s] > high) high = totals[s];
        if (totals[s] < low) low = totals[s];
    }
    for (int s = 0; s < players; s++) {
        /* Decision: when all totals are equal, everyone counts as highest. */
        if (totals[s] == high) stars[s] = 2;
        else if (totals[s] == low) stars[s] = 0;
        else stars[s] = 1;
    }
}

uint32_t cm_winners_of(const int *stars, const int *last_tasty, int players)
{
    int best = 0;
    for (int s = 1; s < players; s++)
        if (stars[s] > stars[best] || (stars[s] == stars[best] && last_tasty[s] > last_tasty[best]))
            best = s;
    uint32_t winners = 0;
    for (int s = 0; s < players; s++)
        if (stars[s] == stars[best] && last_tasty[s] == last_tasty[best]) winners |= 1u << s;
    return winners;
}
