/* json_write.c: compact JSON into a gateau_text (see json_write.h). */
#include "core/json_write.h"

#include <string.h>

/*
 * Each value is written in one go: room for its longest form is reserved,
 * the bytes are put there, then the text's length is moved past them
 * (views are thousands of short values; a call per byte was most of their
 * cost).  begin() reserves and puts the comma that separates the value (or
 * key) from the previous one of the same object or array; end() closes.
 */
static char *begin(json_writer *out, size_t longest)
{
    /* (the room is nearly always there: checked without a call) */
    gateau_text *text = out->text;
    if (text->length + longest + 2 > text->capacity) text_reserve(text, longest + 1);
    char *at = out->text->data + out->text->length;
    if (out->after_value) *at++ = ',';
    return at;
}

static void end(json_writer *out, char *at, bool after_value)
{
    *at = '\0';
    out->text->length = (size_t)(at - out->text->data);
    out->after_value = after_value;
}

void json_write_begin_object(json_writer *out)
{
    char *at = begin(out, 1);
    *at++ = '{';
    end(out, at, false);
}

void json_write_end_object(json_writer *out)
{
    out->after_value = false;
    char *at = begin(out, 1);
    *at++ = '}';
    end(out, at, true);
}

void json_write_begin_array(json_writer *out)
{
    char *at = begin(out, 1);
    *at++ = '[';
    end(out, at, false);
}

void json_write_end_array(json_writer *out)
{
    out->after_value = false;
    char *at = begin(out, 1);
    *at++ = ']';
    end(out, at, true);
}

/* A string between quotes, escaped as jansson's dump escapes: the quote,
 * the backslash and control characters; everything else as it is.  At
 * most 6 bytes per byte of value (\u001F), and the quotes. */
static char *put_quoted(char *at, const char *value, size_t length)
{
    static const char HEX[] = "0123456789ABCDEF";
    *at++ = '"';
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)value[i];
        if (c != '"' && c != '\\' && c >= 0x20) {
            *at++ = (char)c;
            continue;
        }
        *at++ = '\\';
        switch (c) {
        case '"': *at++ = '"'; break;
        case '\\': *at++ = '\\'; break;
        case '\b': *at++ = 'b'; break;
        case '\f': *at++ = 'f'; break;
        case '\n': *at++ = 'n'; break;
        case '\r': *at++ = 'r'; break;
        case '\t': *at++ = 't'; break;
        default:
            memcpy(at, "u00", 3);
            at[3] = HEX[c >> 4];
            at[4] = HEX[c & 15];
            at += 5;
        }
    }
    *at++ = '"';
    return at;
}

void json_write_key_length(json_writer *out, const char *key, size_t length)
{
    char *at = put_quoted(begin(out, 6 * length + 3), key, length);
    *at++ = ':';
    end(out, at, false);
}

void json_write_integer(json_writer *out, long long value)
{
    /* Most of a view's numbers are counts and cards below 100. */
    if (value >= 0 && value < 100) {
        char *at = begin(out, 2);
        if (value >= 10) *at++ = (char)('0' + value / 10);
        *at++ = (char)('0' + value % 10);
        end(out, at, true);
        return;
    }
    /* Digits from the right, without printf. */
    char digits[24];
    int start = (int)sizeof digits;
    unsigned long long magnitude = value < 0 ? 0ull - (unsigned long long)value
                                             : (unsigned long long)value;
    do {
        digits[--start] = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude);
    if (value < 0) digits[--start] = '-';
    size_t length = sizeof digits - (size_t)start;
    char *at = begin(out, length);
    memcpy(at, digits + start, length);
    end(out, at + length, true);
}

void json_write_string(json_writer *out, const char *value)
{
    size_t length = strlen(value);
    end(out, put_quoted(begin(out, 6 * length + 2), value, length), true);
}

static void put_word(json_writer *out, const char *word, size_t length)
{
    char *at = begin(out, length);
    memcpy(at, word, length);
    end(out, at + length, true);
}

void json_write_null(json_writer *out) { put_word(out, "null", 4); }

void json_write_boolean(json_writer *out, bool value)
{
    if (value) put_word(out, "true", 4);
    else put_word(out, "false", 5);
}
