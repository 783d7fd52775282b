/* view_read.c: checked readers of a JSON view (view_read.h). */
#include <stdarg.h>
#include <stdio.h>

#include "core/view_read.h"

bool view_fail(view_error *error, const char *format, ...)
{
    if (error && error->text && error->size) {
        va_list args;
        va_start(args, format);
        vsnprintf(error->text, error->size, format, args);
        va_end(args);
    }
    return false;
}

bool view_has(const json_t *object, const char *key)
{
    const json_t *value = json_object_get(object, key);
    return value && !json_is_null(value);
}

bool view_int_value(const json_t *value, const char *name, long min, long max, long *out,
                    view_error *error)
{
    if (!json_is_integer(value) || json_integer_value(value) < min ||
        json_integer_value(value) > max)
        return view_fail(error, "'%s' must be a whole number from %ld to %ld", name, min, max);
    *out = (long)json_integer_value(value);
    return true;
}

bool view_int(const json_t *object, const char *key, long min, long max, long *value,
              view_error *error)
{
    return view_int_value(json_object_get(object, key), key, min, max, value, error);
}

bool view_bool(const json_t *object, const char *key, bool *value, view_error *error)
{
    const json_t *field = json_object_get(object, key);
    if (!json_is_boolean(field)) return view_fail(error, "'%s' must be true or false", key);
    *value = json_is_true(field);
    return true;
}

bool view_string(const json_t *object, const char *key, const char **value, view_error *error)
{
    const json_t *field = json_object_get(object, key);
    if (!json_is_string(field)) return view_fail(error, "'%s' must be a string", key);
    *value = json_string_value(field);
    return true;
}

bool view_array(const json_t *object, const char *key, size_t min, size_t max,
                const json_t **array, view_error *error)
{
    const json_t *field = json_object_get(object, key);
    if (!json_is_array(field) || json_array_size(field) < min || json_array_size(field) > max) {
        if (min == max) return view_fail(error, "'%s' must be a list of %zu", key, min);
        return view_fail(error, "'%s' must be a list of %zu to %zu", key, min, max);
    }
    *array = field;
    return true;
}

bool view_object(const json_t *object, const char *key, const json_t **value,
                 view_error *error)
{
    const json_t *field = json_object_get(object, key);
    if (!json_is_object(field)) return view_fail(error, "'%s' must be an object", key);
    *value = field;
    return true;
}
