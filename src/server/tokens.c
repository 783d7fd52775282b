/*
 * tokens.c: table ids and seat tokens.
 *
 * A token is the only key to a seat, so it comes from the system's
 * generator (getrandom), carries 192 bits, and is kept by the server and
 * the store only as its SHA-256: a copied database opens no seat.  Checks
 * compare hashes in constant time, so that timing tells nothing of how
 * much of a guess was right.
 */
#include <string.h>
#include <sys/random.h>

#include "server/server.h"
#include "store/sha256.h"

static bool random_bytes(uint8_t *bytes, size_t size)
{
    size_t got = 0;
    while (got < size) {
        ssize_t n = getrandom(bytes + got, size - got, 0);
        if (n <= 0) return false;
        got += (size_t)n;
    }
    return true;
}

bool token_new(char token[SERVER_TOKEN_SIZE])
{
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    uint8_t bytes[24]; /* 32 characters of 6 bits */
    if (!random_bytes(bytes, sizeof bytes)) return false;
    for (int i = 0; i < 8; i++) { /* 3 bytes make 4 characters */
        uint32_t bits = (uint32_t)bytes[3 * i] << 16 | (uint32_t)bytes[3 * i + 1] << 8 |
                        bytes[3 * i + 2];
        for (int c = 0; c < 4; c++) token[4 * i + c] = alphabet[(bits >> (18 - 6 * c)) & 63];
    }
    token[32] = '\0';
    return true;
}

bool token_new_id(char id[STORE_ID_SIZE])
{
    static const char alphabet[] = "abcdefghijkmnpqrstuvwxyz23456789"; /* no l, o, 0, 1 */
    uint8_t bytes[12];
    if (!random_bytes(bytes, sizeof bytes)) return false;
    for (int i = 0; i < 12; i++) id[i] = alphabet[bytes[i] & 31];
    id[12] = '\0';
    return true;
}

void token_hash(const char *token, uint8_t hash[STORE_HASH_SIZE])
{
    store_sha256(token, strlen(token), hash);
}

bool token_matches(const char *token, const uint8_t hash[STORE_HASH_SIZE])
{
    uint8_t given[STORE_HASH_SIZE];
    token_hash(token, given);
    return store_hash_equal(given, hash);
}
