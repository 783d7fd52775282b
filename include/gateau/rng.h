/*
 * rng.h: the random generator every random choice in gateau goes through.
 *
 * xoshiro256** seeded through splitmix64: fast, small, and the same
 * sequence on every machine.  The caller owns the generator; the engine
 * never keeps hidden randomness, so a seed fixes everything.
 */
#ifndef GATEAU_RNG_H
#define GATEAU_RNG_H

#include "gateau/api.h"

#include <stdint.h>

typedef struct gateau_rng {
    uint64_t s[4];
} gateau_rng;

GATEAU_API void gateau_rng_seed(gateau_rng *rng, uint64_t seed);
/* An independent stream per (seed, stream): game number, chance move. */
GATEAU_API void gateau_rng_seed_stream(gateau_rng *rng, uint64_t seed, uint64_t stream);
/* The next 64 random bits.  Inline: playouts call this for every action. */
static inline uint64_t gateau_rng_next(gateau_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = ((s[1] * 5) << 7 | (s[1] * 5) >> 57) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = s[3] << 45 | s[3] >> 19;
    return result;
}

/* Uniform in [0, bound), bound > 0, without modulo bias (Lemire's
 * multiply-and-reject: one multiplication, rarely a retry). */
static inline uint32_t gateau_rng_below(gateau_rng *rng, uint32_t bound)
{
    uint64_t product = (gateau_rng_next(rng) >> 32) * (uint64_t)bound;
    uint32_t low = (uint32_t)product;
    if (low < bound) {
        uint32_t threshold = (uint32_t)(-bound) % bound;
        while (low < threshold) {
            product = (gateau_rng_next(rng) >> 32) * (uint64_t)bound;
            low = (uint32_t)product;
        }
    }
    return (uint32_t)(product >> 32);
}
/* Uniform in [0, 1). */
GATEAU_API double gateau_rng_unit(gateau_rng *rng);

#endif
