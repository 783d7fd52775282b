/*
 * json_write.h: compact JSON written straight into a gateau_text, for the
 * games' views (view_json in engine.h).
 *
 * The bytes are those jansson's json_dumps(value, JSON_COMPACT |
 * JSON_PRESERVE_ORDER) writes for the same values: no spaces, members in
 * the order written, strings escaped as jansson escapes them.  Building
 * jansson values only to dump and free them was most of a view's cost, and
 * hosts and tests ask for views on nearly every move.
 *
 * Usage: a key, then its value; objects and arrays nest.  The writer puts
 * the commas in; it checks nothing else (a view's shape is fixed by its
 * code, and the tests parse every kind of view).
 *
 *     json_write_begin_object(out);
 *     json_write_key(out, "seat");
 *     json_write_integer(out, 2);
 *     json_write_end_object(out);            {"seat":2}
 */
#ifndef GATEAU_JSON_WRITE_H
#define GATEAU_JSON_WRITE_H

#include <stdbool.h>
#include <string.h>

#include "core/text.h"

typedef struct json_writer {
    gateau_text *text;
    bool after_value; /* the next key or value needs a comma first */
} json_writer;

void json_write_begin_object(json_writer *out);
void json_write_end_object(json_writer *out);
void json_write_begin_array(json_writer *out);
void json_write_end_array(json_writer *out);
/* An object's key; its value comes next.  Inline, so that the length of
 * a literal key (nearly all of them) is counted by the compiler: views
 * write thousands of short keys, and strlen() was a fifth of their cost. */
void json_write_key_length(json_writer *out, const char *key, size_t length);
static inline void json_write_key(json_writer *out, const char *key)
{
    json_write_key_length(out, key, strlen(key));
}
void json_write_integer(json_writer *out, long long value);
/* value must be UTF-8 (the views' strings are ASCII names and codes). */
void json_write_string(json_writer *out, const char *value);
void json_write_null(json_writer *out);
void json_write_boolean(json_writer *out, bool value);

#endif
