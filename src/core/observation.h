/*
 * observation.h: how a game writes an observation (internal to libgateau).
 *
 * A game's observe function (src/games/<game>/observation.c) writes its
 * fields in a fixed order through these helpers; with a NULL destination
 * they only count, which is how the core learns the size.  Values are
 * small: flags and one-hots are 0 or 1, counts are divided by their
 * maximum so that they stay within 0..1 (scores within a few units).
 */
#ifndef GATEAU_CORE_OBSERVATION_H
#define GATEAU_CORE_OBSERVATION_H

#include <stdbool.h>

typedef struct observation_writer {
    float *out; /* NULL: count only */
    int count;  /* values written so far */
} observation_writer;

static inline void observe_value(observation_writer *w, double value)
{
    if (w->out) w->out[w->count] = (float)value;
    w->count++;
}

static inline void observe_flag(observation_writer *w, bool flag)
{
    observe_value(w, flag ? 1.0 : 0.0);
}

/* size values, 1 at index and 0 elsewhere (all 0 for an index outside). */
static inline void observe_one_hot(observation_writer *w, int index, int size)
{
    for (int i = 0; i < size; i++) observe_flag(w, i == index);
}

/* The position of seat `other` in the observer's order: the observer
 * first, then to its left; an observer (seat < 0) keeps the seats' order. */
static inline int observe_relative(int observer, int other, int players)
{
    return observer < 0 ? other : (other - observer + players) % players;
}

/* The seat at relative position `index` for the observer. */
static inline int observe_seat_at(int observer, int index, int players)
{
    return observer < 0 ? index : (observer + index) % players;
}

#endif
