/*
 * json_schema.c: the tests' JSON Schema validator (json_schema.h): a walk
 * of the schema beside the value, one keyword at a time.
 */
#include "json_schema.h"

#include <regex.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where a value is: made into text only for an error (formatting every
 * path costs more than the checks). */
typedef struct where {
    const struct where *parent; /* NULL: the top */
    const char *key;            /* a member's name, or NULL for an item */
    size_t index;
} where;

static void where_text(const where *at, char *out, size_t size)
{
    if (!at || !at->parent) {
        snprintf(out, size, "%s", at && at->key ? at->key : "");
        return;
    }
    where_text(at->parent, out, size);
    size_t length = strlen(out);
    if (at->key) snprintf(out + length, size - length, "%s%s", length ? "/" : "", at->key);
    else snprintf(out + length, size - length, "%s%zu", length ? "/" : "", at->index);
}

typedef struct validation {
    const json_t *root; /* for $ref */
    char *error;
    size_t error_size;
    bool quiet;         /* inside if, anyOf: failures are expected */
} validation;

static bool validate(validation *v, const json_t *schema, const json_t *value, const where *path);

static bool fail(validation *v, const where *path, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static bool fail(validation *v, const where *path, const char *format, ...)
{
    if (v->quiet) return false;
    char reason[400], at[400];
    va_list args;
    va_start(args, format);
    vsnprintf(reason, sizeof reason, format, args);
    va_end(args);
    where_text(path, at, sizeof at);
    snprintf(v->error, v->error_size, "%s: %s", at[0] ? at : "(the view)", reason);
    return false;
}

static void child_path(char *out, size_t size, const char *path, const char *key)
{
    snprintf(out, size, "%s%s%s", path, path[0] ? "/" : "", key);
}

static bool type_matches(const char *type, const json_t *value)
{
    if (!strcmp(type, "object")) return json_is_object(value);
    if (!strcmp(type, "array")) return json_is_array(value);
    if (!strcmp(type, "string")) return json_is_string(value);
    if (!strcmp(type, "integer")) return json_is_integer(value);
    if (!strcmp(type, "number")) return json_is_number(value);
    if (!strcmp(type, "boolean")) return json_is_boolean(value);
    if (!strcmp(type, "null")) return json_is_null(value);
    return false;
}

static bool check_type(validation *v, const json_t *type, const json_t *value, const where *path)
{
    if (json_is_string(type)) {
        if (type_matches(json_string_value(type), value)) return true;
        return fail(v, path, "not of type %s", json_string_value(type));
    }
    size_t i;
    const json_t *one;
    json_array_foreach(type, i, one)
        if (type_matches(json_string_value(one), value)) return true;
    return fail(v, path, "not of any type listed");
}

static bool check_enum(validation *v, const json_t *options, const json_t *value, const where *path)
{
    size_t i;
    const json_t *option;
    json_array_foreach(options, i, option)
        if (json_equal(option, value)) return true;
    char *text = json_dumps(value, JSON_ENCODE_ANY);
    bool result = fail(v, path, "%.60s is not one of the values listed", text);
    free(text);
    return result;
}

/* Patterns compiled once each (the schemas hold a handful), and their
 * verdicts on texts remembered: views repeat the same few strings (card
 * codes, positions) by the million, and regexec is slow beside the rest. */
static bool pattern_matches(const char *pattern, const char *text)
{
    enum { PATTERNS = 32, VERDICTS = 8192 };
    static struct {
        char *pattern;
        regex_t regex;
    } compiled[PATTERNS];
    static int compiled_count;
    static struct {
        int pattern; /* index + 1; 0: empty */
        char *text;
        bool matches;
    } verdicts[VERDICTS];
    int p = 0;
    while (p < compiled_count && strcmp(compiled[p].pattern, pattern)) p++;
    if (p == compiled_count) {
        if (p == PATTERNS || regcomp(&compiled[p].regex, pattern, REG_EXTENDED | REG_NOSUB) != 0)
            return false;
        compiled[p].pattern = strdup(pattern);
        compiled_count++;
    }
    uint64_t hash = 1469598103934665603ULL ^ (uint64_t)p;
    for (const char *c = text; *c; c++) hash = (hash ^ (unsigned char)*c) * 1099511628211ULL;
    for (size_t probe = 0; probe < 16; probe++) {
        size_t slot = (size_t)(hash + probe) % VERDICTS;
        if (!verdicts[slot].pattern) {
            verdicts[slot].pattern = p + 1;
            verdicts[slot].text = strdup(text);
            verdicts[slot].matches = regexec(&compiled[p].regex, text, 0, NULL, 0) == 0;
            return verdicts[slot].matches;
        }
        if (verdicts[slot].pattern == p + 1 && !strcmp(verdicts[slot].text, text))
            return verdicts[slot].matches;
    }
    return regexec(&compiled[p].regex, text, 0, NULL, 0) == 0; /* (a crowded neighbourhood) */
}

static bool check_bounds(validation *v, const char *key, const json_t *bound, const json_t *value,
                         const where *path)
{
    if (!json_is_number(value)) return true;
    double number = json_number_value(value), limit = json_number_value(bound);
    if (!strcmp(key, "minimum") && number < limit)
        return fail(v, path, "%g is below the minimum %g", number, limit);
    if (!strcmp(key, "maximum") && number > limit)
        return fail(v, path, "%g is above the maximum %g", number, limit);
    return true;
}

/* properties, additionalProperties, required, minProperties, dependentRequired. */
static bool check_object(validation *v, const json_t *schema, const json_t *value, const where *path)
{
    if (!json_is_object(value)) return true;
    const json_t *properties = json_object_get(schema, "properties");
    const json_t *additional = json_object_get(schema, "additionalProperties");
    const char *key;
    const json_t *member;
    json_object_foreach((json_t *)value, key, member) {
        const json_t *rule = properties ? json_object_get(properties, key) : NULL;
        if (!rule) rule = additional;
        where at = {.parent = path, .key = key};
        if (rule && json_is_false(rule)) return fail(v, &at, "not allowed here");
        if (rule && !validate(v, rule, member, &at)) return false;
    }
    size_t i;
    const json_t *name;
    json_array_foreach(json_object_get(schema, "required"), i, name)
        if (!json_object_get(value, json_string_value(name)))
            return fail(v, path, "'%s' is missing", json_string_value(name));
    const json_t *least = json_object_get(schema, "minProperties");
    if (least && json_object_size(value) < (size_t)json_integer_value(least))
        return fail(v, path, "fewer than %lld members", json_integer_value(least));
    const json_t *needs;
    json_object_foreach(json_object_get(schema, "dependentRequired"), key, needs) {
        if (!json_object_get(value, key)) continue;
        json_array_foreach(needs, i, name)
            if (!json_object_get(value, json_string_value(name)))
                return fail(v, path, "'%s' without '%s'", key, json_string_value(name));
    }
    return true;
}

/* items, minItems, maxItems, uniqueItems. */
static bool check_array(validation *v, const json_t *schema, const json_t *value, const where *path)
{
    if (!json_is_array(value)) return true;
    size_t size = json_array_size(value);
    const json_t *least = json_object_get(schema, "minItems"), *most = json_object_get(schema, "maxItems");
    if (least && size < (size_t)json_integer_value(least))
        return fail(v, path, "%zu items, fewer than %lld", size, json_integer_value(least));
    if (most && size > (size_t)json_integer_value(most))
        return fail(v, path, "%zu items, more than %lld", size, json_integer_value(most));
    const json_t *items = json_object_get(schema, "items");
    for (size_t i = 0; items && i < size; i++) {
        where at = {.parent = path, .index = i};
        if (!validate(v, items, json_array_get(value, i), &at)) return false;
    }
    if (json_is_true(json_object_get(schema, "uniqueItems")))
        for (size_t i = 0; i < size; i++)
            for (size_t j = i + 1; j < size; j++)
                if (json_equal(json_array_get(value, i), json_array_get(value, j)))
                    return fail(v, path, "items %zu and %zu are the same", i, j);
    return true;
}

/* allOf, anyOf, if/then/else. */
static bool check_combined(validation *v, const json_t *schema, const json_t *value, const where *path)
{
    size_t i;
    const json_t *part;
    json_array_foreach(json_object_get(schema, "allOf"), i, part)
        if (!validate(v, part, value, path)) return false;
    const json_t *any = json_object_get(schema, "anyOf");
    if (any) {
        bool quiet = v->quiet, found = false;
        v->quiet = true;
        json_array_foreach(any, i, part) found = found || validate(v, part, value, path);
        v->quiet = quiet;
        if (!found) return fail(v, path, "matches none of anyOf");
    }
    const json_t *condition = json_object_get(schema, "if");
    if (condition) {
        bool quiet = v->quiet;
        v->quiet = true;
        bool holds = validate(v, condition, value, path);
        v->quiet = quiet;
        const json_t *branch = json_object_get(schema, holds ? "then" : "else");
        if (branch && !validate(v, branch, value, path)) return false;
    }
    return true;
}

static const json_t *resolve(validation *v, const char *reference)
{
    if (strncmp(reference, "#/$defs/", 8)) return NULL;
    return json_object_get(json_object_get(v->root, "$defs"), reference + 8);
}

static bool known_keyword(const char *key)
{
    static const char *const known[] = {
        "$schema", "$id", "$comment", "title", "description", "$defs", "type", "const", "enum",
        "minimum", "maximum", "pattern", "properties", "required", "additionalProperties",
        "minProperties", "dependentRequired", "items", "minItems", "maxItems", "uniqueItems",
        "allOf", "anyOf", "if", "then", "else", "$ref"};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strcmp(key, known[i])) return true;
    return false;
}

/* The keywords validate() acts on itself (the rest: check_object,
 * check_array, check_combined, or annotations). */
typedef enum { OTHER, TYPE, CONST, ENUM, MINIMUM, MAXIMUM, PATTERN, REF } keyword;

static keyword keyword_of(const char *key)
{
    switch (key[0]) {
    case 't': return strcmp(key, "type") ? OTHER : TYPE;
    case 'c': return strcmp(key, "const") ? OTHER : CONST;
    case 'e': return strcmp(key, "enum") ? OTHER : ENUM;
    case 'm': return !strcmp(key, "minimum") ? MINIMUM : !strcmp(key, "maximum") ? MAXIMUM : OTHER;
    case 'p': return strcmp(key, "pattern") ? OTHER : PATTERN;
    case '$': return strcmp(key, "$ref") ? OTHER : REF;
    default: return OTHER;
    }
}

/* (The schema's keywords were checked once, by json_schema_check.) */
static bool validate(validation *v, const json_t *schema, const json_t *value, const where *path)
{
    if (json_is_true(schema)) return true;
    if (json_is_false(schema)) return fail(v, path, "not allowed here");
    const char *key;
    const json_t *argument;
    json_object_foreach((json_t *)schema, key, argument) {
        switch (keyword_of(key)) {
        case TYPE:
            if (!check_type(v, argument, value, path)) return false;
            break;
        case CONST:
            if (!json_equal(argument, value)) return fail(v, path, "not the constant the schema says");
            break;
        case ENUM:
            if (!check_enum(v, argument, value, path)) return false;
            break;
        case MINIMUM:
        case MAXIMUM:
            if (!check_bounds(v, key, argument, value, path)) return false;
            break;
        case PATTERN:
            if (json_is_string(value) &&
                !pattern_matches(json_string_value(argument), json_string_value(value)))
                return fail(v, path, "'%.60s' does not match %s", json_string_value(value),
                            json_string_value(argument));
            break;
        case REF: {
            const json_t *target = resolve(v, json_string_value(argument));
            if (!target) return fail(v, path, "unknown reference %s", json_string_value(argument));
            if (!validate(v, target, value, path)) return false;
            break;
        }
        case OTHER:
            break;
        }
    }
    return check_object(v, schema, value, path) && check_array(v, schema, value, path) &&
           check_combined(v, schema, value, path);
}

bool json_schema_valid(const json_t *schema, const json_t *value, char *error, size_t error_size)
{
    validation v = {.root = schema, .error = error, .error_size = error_size};
    if (error_size) error[0] = '\0';
    return validate(&v, schema, value, NULL);
}

/* ---- The schema itself ----------------------------------------------------------------- */

static bool check_schema(const json_t *root, const json_t *schema, const char *path, char *error,
                         size_t error_size);

static bool check_schemas_in(const json_t *root, const json_t *container, bool object,
                             const char *path, char *error, size_t error_size)
{
    char at[512];
    if (object) {
        const char *key;
        const json_t *member;
        json_object_foreach((json_t *)container, key, member) {
            child_path(at, sizeof at, path, key);
            if (!check_schema(root, member, at, error, error_size)) return false;
        }
        return true;
    }
    size_t i;
    const json_t *member;
    json_array_foreach(container, i, member) {
        snprintf(at, sizeof at, "%s/%zu", path, i);
        if (!check_schema(root, member, at, error, error_size)) return false;
    }
    return true;
}

static bool check_schema(const json_t *root, const json_t *schema, const char *path, char *error,
                         size_t error_size)
{
    if (json_is_boolean(schema)) return true;
    if (!json_is_object(schema)) {
        snprintf(error, error_size, "%s: a schema is an object or a boolean", path);
        return false;
    }
    const char *key;
    const json_t *argument;
    char at[512];
    json_object_foreach((json_t *)schema, key, argument) {
        child_path(at, sizeof at, path, key);
        if (!known_keyword(key)) {
            snprintf(error, error_size, "%s: keyword not supported", at);
            return false;
        }
        if (!strcmp(key, "$ref") && !(json_is_string(argument) &&
                                      resolve(&(validation){.root = root}, json_string_value(argument)))) {
            snprintf(error, error_size, "%s: unknown reference", at);
            return false;
        }
        if (!strcmp(key, "pattern")) {
            regex_t regex;
            if (!json_is_string(argument) ||
                regcomp(&regex, json_string_value(argument), REG_EXTENDED | REG_NOSUB) != 0) {
                snprintf(error, error_size, "%s: not a POSIX extended pattern", at);
                return false;
            }
            regfree(&regex);
        }
        bool ok = true;
        if (!strcmp(key, "properties") || !strcmp(key, "$defs"))
            ok = check_schemas_in(root, argument, true, at, error, error_size);
        else if (!strcmp(key, "allOf") || !strcmp(key, "anyOf"))
            ok = check_schemas_in(root, argument, false, at, error, error_size);
        else if (!strcmp(key, "items") || !strcmp(key, "additionalProperties") || !strcmp(key, "if") ||
                 !strcmp(key, "then") || !strcmp(key, "else"))
            ok = check_schema(root, argument, at, error, error_size);
        if (!ok) return false;
    }
    return true;
}

bool json_schema_check(const json_t *schema, char *error, size_t error_size)
{
    return check_schema(schema, schema, "", error, error_size);
}
