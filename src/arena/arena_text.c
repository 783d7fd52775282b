/* arena_text.c: see arena_text.h. */
#include "arena/arena_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void arena_append(text_buffer *buffer, const char *format, ...)
{
    for (;;) {
        va_list args;
        va_start(args, format);
        size_t room = buffer->capacity - buffer->length;
        int needed = vsnprintf(buffer->data ? buffer->data + buffer->length : NULL, room,
                               format, args);
        va_end(args);
        if (needed < 0) abort();
        if ((size_t)needed < room) {
            buffer->length += (size_t)needed;
            return;
        }
        size_t capacity = buffer->capacity ? buffer->capacity * 2 : 1024;
        while (capacity - buffer->length <= (size_t)needed) capacity *= 2;
        char *data = realloc(buffer->data, capacity);
        if (!data) abort();
        buffer->data = data;
        buffer->capacity = capacity;
    }
}

void arena_error(char *error, size_t error_size, const char *format, ...)
{
    if (!error || !error_size) return;
    va_list args;
    va_start(args, format);
    vsnprintf(error, error_size, format, args);
    va_end(args);
}
