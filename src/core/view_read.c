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

bool view_string_value(const json_t *value, const char *name, const char **out,
                       view_error *error)
{
    if (!json_is_string(value)) return view_fail(error, "'%s' must be a string", name);
    *out = json_string_value(value);
    return true;
}

bool view_string(const json_t *object, const char *key, const char **value, view_error *error)
{
    return view_string_value(json_object_get(object, key), key, value, error);
}

bool view_array_value(const json_t *value, const char *name, size_t min, size_t max,
                      const json_t **array, view_error *error)
{
    if (!json_is_array(value) || json_array_size(value) < min || json_array_size(value) > max) {
        if (min == max) return view_fail(error, "'%s' must be a list of %zu", name, min);
        return view_fail(error, "'%s' must be a list of %zu to %zu", name, min, max);
    }
    *array = value;
    return true;
}

bool view_array(const json_t *object, const char *key, size_t min, size_t max,
                const json_t **array, view_error *error)
{
    return view_array_value(json_object_get(object, key), key, min, max, array, error);
}

bool view_object_value(const json_t *value, const char *name, const json_t **out,
                       view_error *error)
{
    if (!json_is_object(value)) return view_fail(error, "'%s' must be an object", name);
    *out = value;
    return true;
}

bool view_object(const json_t *object, const char *key, const json_t **value,
                 view_error *error)
{
    return view_object_value(json_object_get(object, key), key, value, error);
}

const char *view_path(char *buffer, size_t size, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(buffer, size, format, args);
    va_end(args);
    return buffer;
}
