/*
 * rng.h: the random generator every random choice in gateau goes through.
 *
 * xoshiro256** seeded through splitmix64: fast, small, and the same
 * sequence on every machine.  The caller owns the generator; the engine
 * never keeps hidden randomness, so a seed fixes everything.
 */
#ifndef GATEAU_RNG_H
#define GATEAU_RNG_H

#include <stdint.h>

typedef struct gateau_rng {
    uint64_t s[4];
} gateau_rng;

void gateau_rng_seed(gateau_rng *rng, uint64_t seed);
/* An independent stream per (seed, stream): game number, chance move. */
void gateau_rng_seed_stream(gateau_rng *rng, uint64_t seed, uint64_t stream);
uint64_t gateau_rng_next(gateau_rng *rng);
/* Uniform in [0, bound), bound > 0, without modulo bias. */
uint32_t gateau_rng_below(gateau_rng *rng, uint32_t bound);
/* Uniform in [0, 1). */
double gateau_rng_unit(gateau_rng *rng);

#endif
