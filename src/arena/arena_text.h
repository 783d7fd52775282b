/*
 * arena_text.h: the growing string and the one-line error that the
 * arena's files share (arena.c, report.c, part.c).  The arena is a host of
 * the engine and uses the public headers only (tests/check_includes.sh),
 * so it keeps these two small helpers of its own rather than the core's.
 */
#ifndef GATEAU_ARENA_TEXT_H
#define GATEAU_ARENA_TEXT_H

#include <stddef.h>

/* A growing string: data is NUL-terminated once anything was appended. */
typedef struct text_buffer {
    char *data;
    size_t length, capacity;
} text_buffer;

/* Appends printf-style text (aborts when out of memory). */
void arena_append(text_buffer *buffer, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* Writes a one-line error, printf style, if error is not NULL. */
void arena_error(char *error, size_t error_size, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

#endif
