/*
 * sha256.h: SHA-256 (FIPS 180-4), for the store's token hashes.  A token
 * is kept as its hash, so a stolen database gives no seat away; tokens are
 * long random strings, so a plain hash (no salt, no stretching) suffices.
 */
#ifndef GATEAU_STORE_SHA256_H
#define GATEAU_STORE_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void store_sha256(const void *data, size_t size, uint8_t out[32]);

/* Whether two hashes are equal, in a time that does not depend on where
 * they differ (so that timing a refused token tells nothing about the
 * right one). */
bool store_hash_equal(const uint8_t a[32], const uint8_t b[32]);

#endif
