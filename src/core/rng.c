/* rng.c: xoshiro256** with splitmix64 seeding (see gateau/rng.h). */
#include "gateau/rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void gateau_rng_seed(gateau_rng *rng, uint64_t seed)
{
    for (int i = 0; i < 4; i++) rng->s[i] = splitmix64(&seed);
}

void gateau_rng_seed_stream(gateau_rng *rng, uint64_t seed, uint64_t stream)
{
    /* Mix the stream through splitmix64 first so that neighbouring
     * (seed, stream) pairs give unrelated sequences. */
    uint64_t mixer = stream;
    gateau_rng_seed(rng, seed ^ splitmix64(&mixer));
}

double gateau_rng_unit(gateau_rng *rng)
{
    return (double)(gateau_rng_next(rng) >> 11) * 0x1.0p-53;
}
