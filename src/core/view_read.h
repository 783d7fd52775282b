/*
 * view_read.h: reading a seat's JSON view back into a state (internal to
 * libgateau), for the games' from_view functions (core/engine.h).
 *
 * A view comes from outside (a harness of the bot protocol), so every
 * reader checks the value's type and range before handing it over, and
 * on a refusal writes a one-line reason naming the field: "'round' must
 * be a whole number from 1 to 3".  A reader names the key it reads; the
 * *_value readers take the name to give, a path built with view_path()
 * for a nested field ("seats[2].stars").
 */
#ifndef GATEAU_VIEW_READ_H
#define GATEAU_VIEW_READ_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* Where a reader writes its reason: the caller's buffer. */
typedef struct view_error {
    char *text;
    size_t size;
} view_error;

/* object[key] as a whole number in [min, max]. */
bool view_int(const json_t *object, const char *key, long min, long max, long *value,
              view_error *error);
/* The same for a value already taken out (an array element); name names it. */
bool view_int_value(const json_t *value, const char *name, long min, long max, long *out,
                    view_error *error);
/* The same for the array, string and object readers below. */
bool view_array_value(const json_t *value, const char *name, size_t min, size_t max,
                      const json_t **array, view_error *error);
bool view_string_value(const json_t *value, const char *name, const char **out,
                       view_error *error);
bool view_object_value(const json_t *value, const char *name, const json_t **out,
                       view_error *error);
/* A field's path for a reason, printf style into buffer: "seats[2].stars".
 * Returns buffer, to be passed as a reader's name. */
const char *view_path(char *buffer, size_t size, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
/* object[key] as true or false. */
bool view_bool(const json_t *object, const char *key, bool *value, view_error *error);
/* object[key] as a string (borrowed from the JSON). */
bool view_string(const json_t *object, const char *key, const char **value, view_error *error);
/* object[key] as an array of min..max elements (borrowed). */
bool view_array(const json_t *object, const char *key, size_t min, size_t max,
                const json_t **array, view_error *error);
/* object[key] as an object (borrowed). */
bool view_object(const json_t *object, const char *key, const json_t **value,
                 view_error *error);
/* Whether object has key (null counts as absent). */
bool view_has(const json_t *object, const char *key);

/* Writes a refusal, printf style; returns false for `return view_fail(...)`. */
bool view_fail(view_error *error, const char *format, ...) __attribute__((format(printf, 2, 3)));

#endif
