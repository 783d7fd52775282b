/*
 * sha256.c: SHA-256 as FIPS 180-4 describes it (sections 4.1.2, 4.2.2,
 * 5.1.1, 6.2).  One call hashes a whole buffer: tokens are short, so there
 * is no streaming interface.
 */
#include "store/sha256.h"

#include <string.h>

/* The first 32 bits of the fractional parts of the cube roots of the
 * first 64 primes (section 4.2.2). */
static const uint32_t round_constants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static uint32_t rotate_right(uint32_t x, int n)
{
    return (x >> n) | (x << (32 - n));
}

static uint32_t read_big_endian(const uint8_t *bytes)
{
    return (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | bytes[3];
}

/* Mixes one 64-byte block into the hash value (section 6.2.2). */
static void compress(uint32_t hash[8], const uint8_t block[64])
{
    uint32_t schedule[64];
    for (int t = 0; t < 16; t++) schedule[t] = read_big_endian(block + 4 * t);
    for (int t = 16; t < 64; t++) {
        uint32_t w15 = schedule[t - 15], w2 = schedule[t - 2];
        uint32_t sigma0 = rotate_right(w15, 7) ^ rotate_right(w15, 18) ^ (w15 >> 3);
        uint32_t sigma1 = rotate_right(w2, 17) ^ rotate_right(w2, 19) ^ (w2 >> 10);
        schedule[t] = sigma1 + schedule[t - 7] + sigma0 + schedule[t - 16];
    }
    uint32_t a = hash[0], b = hash[1], c = hash[2], d = hash[3];
    uint32_t e = hash[4], f = hash[5], g = hash[6], h = hash[7];
    for (int t = 0; t < 64; t++) {
        uint32_t big_sigma1 = rotate_right(e, 6) ^ rotate_right(e, 11) ^ rotate_right(e, 25);
        uint32_t choose = (e & f) ^ (~e & g);
        uint32_t temp1 = h + big_sigma1 + choose + round_constants[t] + schedule[t];
        uint32_t big_sigma0 = rotate_right(a, 2) ^ rotate_right(a, 13) ^ rotate_right(a, 22);
        uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
        uint32_t temp2 = big_sigma0 + majority;
        h = g;
        g = f;
        f = e;
        e = d + temp1;
        d = c;
        c = b;
        b = a;
        a = temp1 + temp2;
    }
    hash[0] += a, hash[1] += b, hash[2] += c, hash[3] += d;
    hash[4] += e, hash[5] += f, hash[6] += g, hash[7] += h;
}

void store_sha256(const void *data, size_t size, uint8_t out[32])
{
    /* The first 32 bits of the fractional parts of the square roots of
     * the first 8 primes (section 5.3.3). */
    uint32_t hash[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    const uint8_t *bytes = data;
    size_t whole = size - size % 64;
    for (size_t offset = 0; offset < whole; offset += 64) compress(hash, bytes + offset);

    /* Padding (section 5.1.1): the rest, a 1 bit, zeros, and the length
     * in bits as 64 bits big-endian, making one or two last blocks. */
    uint8_t tail[128] = {0};
    size_t rest = size - whole;
    if (rest) memcpy(tail, bytes + whole, rest);
    tail[rest] = 0x80;
    size_t tail_size = rest < 56 ? 64 : 128;
    uint64_t bits = (uint64_t)size * 8;
    for (int i = 0; i < 8; i++) tail[tail_size - 1 - i] = (uint8_t)(bits >> (8 * i));
    for (size_t offset = 0; offset < tail_size; offset += 64) compress(hash, tail + offset);

    for (int i = 0; i < 8; i++) {
        out[4 * i] = (uint8_t)(hash[i] >> 24);
        out[4 * i + 1] = (uint8_t)(hash[i] >> 16);
        out[4 * i + 2] = (uint8_t)(hash[i] >> 8);
        out[4 * i + 3] = (uint8_t)hash[i];
    }
}

bool store_hash_equal(const uint8_t a[32], const uint8_t b[32])
{
    /* Every byte is compared whatever the earlier ones were; volatile
     * keeps the compiler from turning the loop into an early exit. */
    volatile uint8_t difference = 0;
    for (int i = 0; i < 32; i++) difference |= a[i] ^ b[i];
    return difference == 0;
}
