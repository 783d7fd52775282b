/*
 * notation.h: small strict helpers for reading move notation.
 */
#ifndef GATEAU_NOTATION_H
#define GATEAU_NOTATION_H

#include <stdbool.h>
#include <stddef.h>

#define NOTATION_MAX_WORDS 160
#define NOTATION_MAX_LENGTH 2048

/* Splits text into whitespace-separated words, copied into storage.
 * Returns the word count, or -1 if the text is too long or has too many
 * words. */
typedef struct notation_words {
    char storage[NOTATION_MAX_LENGTH];
    char *word[NOTATION_MAX_WORDS];
    int count;
} notation_words;

bool notation_split(const char *text, notation_words *words);

/*
 * The opening every game's parse_move shares: splits text into words and
 * checks that the first is one of `verbs` ("take|eat|pass", the verbs the
 * current phase allows).  Otherwise false, with "empty or overlong move"
 * or "expected <expected>, not '<word>'" in error.
 */
bool notation_open(const char *text, const char *verbs, const char *expected,
                   notation_words *words, char *error, size_t error_size);

/* A decimal integer in [min, max]: digits only, no sign, no leading zero. */
bool notation_int(const char *word, int min, int max, int *value);

/* An ASCII letter in upper or lower case, anything else unchanged (no
 * locale): for codes a game reads in either case where that cannot be
 * mistaken. */
static inline char notation_upper(char c) { return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c; }
static inline char notation_lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

#endif
