/*
 * json_schema.h: a JSON Schema (draft 2020-12) validator for the subset the
 * protocol's view schemas use (docs/protocol/views/), for the tests.
 *
 * Keywords: type, const, enum, minimum, maximum, pattern (POSIX extended,
 * which the patterns keep to), properties, required, additionalProperties,
 * minProperties, dependentRequired, items, minItems, maxItems, uniqueItems,
 * allOf, anyOf, if/then/else, $ref to "#/$defs/NAME"; the annotations
 * $schema, $id, $comment, title, description and $defs.  Any other keyword
 * is an error, so a schema never says more than is checked.
 */
#ifndef GATEAU_TEST_JSON_SCHEMA_H
#define GATEAU_TEST_JSON_SCHEMA_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* Whether value is valid against schema (one json_schema_check passed);
 * false with the first reason ("seats/0/score: -1 is below the minimum 0"). */
bool json_schema_valid(const json_t *schema, const json_t *value, char *error, size_t error_size);

/* Whether every keyword of the schema, in every branch, is one of the
 * subset, every $ref resolves and every pattern compiles; false with where. */
bool json_schema_check(const json_t *schema, char *error, size_t error_size);

#endif
