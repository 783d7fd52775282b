/*
 * text.h: a growable string for building views, moves and records.
 *
 * Not for hot paths: views and notation are for people and files.
 */
#ifndef GATEAU_TEXT_H
#define GATEAU_TEXT_H

#include <stdarg.h>
#include <stddef.h>

typedef struct gateau_text {
    char *data; /* always NUL-terminated once anything was added */
    size_t length, capacity;
} gateau_text;

void text_append(gateau_text *text, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
void text_append_char(gateau_text *text, char c);
/* Room for extra more bytes and the NUL after data + length, for a writer
 * that puts them there itself (then sets length and the NUL). */
void text_reserve(gateau_text *text, size_t extra);
/* length bytes of data, as they are (no formatting). */
void text_append_bytes(gateau_text *text, const char *data, size_t length);
/* Hands the string over (never NULL) and leaves text empty. */
char *text_take(gateau_text *text);
void text_free(gateau_text *text);

/* The length (1-4) of the valid UTF-8 sequence that starts at p, or 0 when
 * the bytes there are not valid UTF-8 (a stray continuation byte, an
 * overlong form, a surrogate, past U+10FFFF, cut short). */
int text_utf8_length(const char *p);

#endif
