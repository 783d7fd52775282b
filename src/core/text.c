/* text.c: a growable string (see text.h). */
#include "core/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void text_reserve(gateau_text *text, size_t extra)
{
    size_t need = text->length + extra + 1;
    if (need <= text->capacity) return;
    size_t capacity = text->capacity ? text->capacity : 64;
    while (capacity < need) capacity *= 2;
    char *data = realloc(text->data, capacity);
    if (!data) abort(); /* out of memory: nothing sensible is left to do */
    text->data = data;
    text->capacity = capacity;
}

void text_append(gateau_text *text, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    va_list copy;
    va_copy(copy, args);
    int length = vsnprintf(NULL, 0, format, copy);
    va_end(copy);
    if (length > 0) {
        text_reserve(text, (size_t)length);
        vsnprintf(text->data + text->length, (size_t)length + 1, format, args);
        text->length += (size_t)length;
    }
    va_end(args);
}

void text_append_char(gateau_text *text, char c)
{
    text_reserve(text, 1);
    text->data[text->length++] = c;
    text->data[text->length] = '\0';
}

char *text_take(gateau_text *text)
{
    char *data = text->data;
    if (!data) {
        data = malloc(1);
        if (!data) abort();
        data[0] = '\0';
    }
    text->data = NULL;
    text->length = text->capacity = 0;
    return data;
}

void text_free(gateau_text *text)
{
    free(text->data);
    text->data = NULL;
    text->length = text->capacity = 0;
}
