/* json_write.c: compact JSON into a gateau_text (see json_write.h). */
#include "core/json_write.h"


/* Every value and key starts here: a comma after the previous value of the
 * same object or array. */
static void separate(json_writer *out)
{
    if (out->after_value) text_append_char(out->text, ',');
}

void json_write_begin_object(json_writer *out)
{
    separate(out);
    text_append_char(out->text, '{');
    out->after_value = false;
}

void json_write_end_object(json_writer *out)
{
    text_append_char(out->text, '}');
    out->after_value = true;
}

void json_write_begin_array(json_writer *out)
{
    separate(out);
    text_append_char(out->text, '[');
    out->after_value = false;
}

void json_write_end_array(json_writer *out)
{
    text_append_char(out->text, ']');
    out->after_value = true;
}

/* A string between quotes, escaped as jansson's dump escapes: the quote,
 * the backslash and control characters; everything else as it is. */
static void append_quoted(gateau_text *text, const char *value)
{
    static const char HEX[] = "0123456789ABCDEF";
    text_append_char(text, '"');
    const char *plain = value;
    for (const char *p = value;; p++) {
        unsigned char c = (unsigned char)*p;
        if (c && c != '"' && c != '\\' && c >= 0x20) continue;
        text_append_bytes(text, plain, (size_t)(p - plain));
        if (!c) break;
        plain = p + 1;
        text_append_char(text, '\\');
        switch (c) {
        case '"': text_append_char(text, '"'); break;
        case '\\': text_append_char(text, '\\'); break;
        case '\b': text_append_char(text, 'b'); break;
        case '\f': text_append_char(text, 'f'); break;
        case '\n': text_append_char(text, 'n'); break;
        case '\r': text_append_char(text, 'r'); break;
        case '\t': text_append_char(text, 't'); break;
        default: {
            char escape[5] = {'u', '0', '0', HEX[c >> 4], HEX[c & 15]};
            text_append_bytes(text, escape, sizeof escape);
        }
        }
    }
    text_append_char(text, '"');
}

void json_write_key(json_writer *out, const char *key)
{
    separate(out);
    append_quoted(out->text, key);
    text_append_char(out->text, ':');
    out->after_value = false;
}

void json_write_integer(json_writer *out, long long value)
{
    separate(out);
    /* Digits from the right, without printf (views are mostly numbers). */
    char digits[24];
    int start = (int)sizeof digits;
    unsigned long long magnitude = value < 0 ? 0ull - (unsigned long long)value
                                             : (unsigned long long)value;
    do {
        digits[--start] = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude);
    if (value < 0) digits[--start] = '-';
    text_append_bytes(out->text, digits + start, sizeof digits - (size_t)start);
    out->after_value = true;
}

void json_write_string(json_writer *out, const char *value)
{
    separate(out);
    append_quoted(out->text, value);
    out->after_value = true;
}

void json_write_null(json_writer *out)
{
    separate(out);
    text_append_bytes(out->text, "null", 4);
    out->after_value = true;
}

void json_write_boolean(json_writer *out, bool value)
{
    separate(out);
    if (value) text_append_bytes(out->text, "true", 4);
    else text_append_bytes(out->text, "false", 5);
    out->after_value = true;
}
