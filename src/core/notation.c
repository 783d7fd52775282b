/* notation.c: strict helpers for reading move notation (see notation.h). */
#include "core/notation.h"

#include <ctype.h>
#include <string.h>

bool notation_split(const char *text, notation_words *words)
{
    size_t length = strlen(text);
    words->count = 0;
    if (length >= sizeof words->storage) return false;
    memcpy(words->storage, text, length + 1);
    char *p = words->storage;
    for (;;) {
        while (*p && isspace((unsigned char)*p)) *p++ = '\0';
        if (!*p) break;
        if (words->count == NOTATION_MAX_WORDS) return false;
        words->word[words->count++] = p;
        while (*p && !isspace((unsigned char)*p)) p++;
    }
    return true;
}

bool notation_int(const char *word, int min, int max, int *value)
{
    if (!word[0] || (word[0] == '0' && word[1])) return false;
    long result = 0;
    for (const char *p = word; *p; p++) {
        if (!isdigit((unsigned char)*p)) return false;
        result = result * 10 + (*p - '0');
        if (result > max) return false;
    }
    if (result < min) return false;
    *value = (int)result;
    return true;
}
