/* text.c: a growable string (see text.h). */
#include "core/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void text_reserve(gateau_text *text, size_t extra)
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
    /* Written straight into the spare room when it fits (nearly always:
     * the room doubles), formatted a second time only when it did not. */
    text_reserve(text, 32);
    va_list args;
    va_start(args, format);
    va_list copy;
    va_copy(copy, args);
    size_t room = text->capacity - text->length;
    int length = vsnprintf(text->data + text->length, room, format, copy);
    va_end(copy);
    if (length > 0 && (size_t)length >= room) {
        text_reserve(text, (size_t)length);
        vsnprintf(text->data + text->length, (size_t)length + 1, format, args);
    }
    if (length > 0) text->length += (size_t)length;
    text->data[text->length] = '\0';
    va_end(args);
}

void text_append_char(gateau_text *text, char c)
{
    text_reserve(text, 1);
    text->data[text->length++] = c;
    text->data[text->length] = '\0';
}

void text_append_bytes(gateau_text *text, const char *data, size_t length)
{
    text_reserve(text, length);
    memcpy(text->data + text->length, data, length);
    text->length += length;
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

int text_utf8_length(const char *p)
{
    const unsigned char *u = (const unsigned char *)p;
    if (u[0] < 0x80) return 1;
    int length;
    unsigned char low = 0x80, high = 0xbf; /* the second byte's range */
    if (u[0] >= 0xc2 && u[0] <= 0xdf) length = 2;
    else if (u[0] >= 0xe0 && u[0] <= 0xef) length = 3;
    else if (u[0] >= 0xf0 && u[0] <= 0xf4) length = 4;
    else return 0;
    if (u[0] == 0xe0) low = 0xa0;      /* no overlong forms */
    if (u[0] == 0xed) high = 0x9f;     /* no surrogates */
    if (u[0] == 0xf0) low = 0x90;
    if (u[0] == 0xf4) high = 0x8f;     /* nothing past U+10FFFF */
    if (u[1] < low || u[1] > high) return 0;
    for (int i = 2; i < length; i++)
        if (u[i] < 0x80 || u[i] > 0xbf) return 0;
    return length;
}
