/*
 * names.c: the names people give themselves at a table (docs/server.md,
 * "Names").  A name is shown to every seat and spectator, so it is
 * bounded and holds no control characters (a line break or an escape
 * would let one person's name forge another line of someone's screen or
 * log); pages show it as text, never as markup.
 */
#include <stdio.h>
#include <string.h>

#include "server/server.h"

/* The length of the UTF-8 character at text and its code point, or 0
 * when the bytes there are not one. */
static int utf8_character(const unsigned char *text, unsigned *point)
{
    if (text[0] < 0x80) {
        *point = text[0];
        return 1;
    }
    int length = text[0] >= 0xf0 ? 4 : text[0] >= 0xe0 ? 3 : text[0] >= 0xc0 ? 2 : 0;
    if (!length || text[0] >= 0xf8) return 0;
    unsigned value = text[0] & (0x7f >> length);
    for (int i = 1; i < length; i++) {
        if ((text[i] & 0xc0) != 0x80) return 0;
        value = value << 6 | (text[i] & 0x3f);
    }
    *point = value;
    return length;
}

/* C0 and C1 controls, DEL, and the line and paragraph separators. */
static bool is_control(unsigned point)
{
    return point < 0x20 || (point >= 0x7f && point < 0xa0) || point == 0x2028 || point == 0x2029;
}

bool name_check(const char *text, const char *what, char *error, size_t error_size)
{
    int characters = 0;
    bool blank = true;
    for (const unsigned char *at = (const unsigned char *)text; *at;) {
        unsigned point;
        int length = utf8_character(at, &point);
        if (!length) {
            snprintf(error, error_size, "%s is not UTF-8 text", what);
            return false;
        }
        if (is_control(point)) {
            snprintf(error, error_size, "%s holds a control character (U+%04X)", what, point);
            return false;
        }
        if (point != ' ') blank = false;
        characters++;
        at += length;
    }
    if (blank) {
        snprintf(error, error_size, "%s is empty", what);
        return false;
    }
    if (characters > NAME_MOST_CHARACTERS) {
        snprintf(error, error_size, "%s is %d characters long: at most %d", what, characters,
                 NAME_MOST_CHARACTERS);
        return false;
    }
    return true;
}
