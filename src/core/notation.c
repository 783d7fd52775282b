/* notation.c: strict helpers for reading move notation (see notation.h). */
#include "core/notation.h"

#include <ctype.h>
#include <string.h>

#include "core/engine.h"

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

/* True when word is one of the '|'-separated verbs. */
static bool is_one_of(const char *word, const char *verbs)
{
    size_t length = strlen(word);
    for (const char *p = verbs; *p;) {
        size_t verb_length = strcspn(p, "|");
        if (verb_length == length && !strncmp(p, word, length)) return true;
        p += verb_length;
        if (*p == '|') p++;
    }
    return false;
}

bool notation_open(const char *text, const char *verbs, const char *expected,
                   notation_words *words, char *error, size_t error_size)
{
    if (!notation_split(text, words) || words->count == 0) {
        set_error(error, error_size, "empty or overlong move");
        return false;
    }
    if (!is_one_of(words->word[0], verbs)) {
        set_error(error, error_size, "expected %s, not '%s'", expected, words->word[0]);
        return false;
    }
    return true;
}
