/*
 * from_view.c: a position read back from a seat's JSON view
 * (gateau_state_from_view in gateau.h).
 *
 * The game reads the fields (game->from_view); this file checks what every
 * game shares and then the one thing that makes the result trustworthy
 * whatever the game's reader overlooked: the state must show the seat
 * exactly the view it was read from.  A field the reader ignored, misread
 * or could not reach is caught here, so a harness that sends a view the
 * engine does not understand gets a refusal instead of a wrong position.
 */
#include <stdlib.h>
#include <string.h>

#include "core/engine.h"

/* The first top-level field where two views differ, for the reason. */
static const char *first_difference(const json_t *given, const json_t *shown)
{
    const char *key;
    json_t *value;
    json_object_foreach((json_t *)given, key, value)
        if (!json_equal(value, json_object_get(shown, key))) return key;
    json_object_foreach((json_t *)shown, key, value)
        if (!json_object_get(given, key)) return key;
    return "?";
}

gateau_state *gateau_state_from_view(const gateau_setup *setup, int seat, const char *view,
                                     char *error, size_t error_size)
{
    const gateau_game *game = setup->game;
    if (seat < 0 || seat >= setup->players) {
        set_error(error, error_size, "there is no seat %d in a %d-player game", seat + 1,
                  setup->players);
        return NULL;
    }
    json_error_t parse;
    json_t *given = json_loads(view, JSON_REJECT_DUPLICATES, &parse);
    if (!given) {
        set_error(error, error_size, "the view is not JSON: %s (column %d)", parse.text,
                  parse.column);
        return NULL;
    }
    gateau_state *state = NULL;
    const json_t *name = json_object_get(given, "game");
    const json_t *seat_number = json_object_get(given, "seat");
    if (!json_is_object(given)) {
        set_error(error, error_size, "the view must be a JSON object");
    } else if (!json_is_string(name) || strcmp(json_string_value(name), game->name) != 0) {
        set_error(error, error_size, "the view is not of %s ('game')", game->name);
    } else if (!json_is_integer(seat_number) || json_integer_value(seat_number) != seat + 1) {
        set_error(error, error_size, "the view is not seat %d's ('seat')", seat + 1);
    } else if (!game->from_view) {
        set_error(error, error_size, "%s cannot read its views back", game->name);
    } else {
        state = gateau_state_new(setup);
        if (!game->from_view(state, seat, given, error, error_size)) {
            gateau_state_free(state);
            state = NULL;
        } else {
            char *text = gateau_state_view_json(state, seat);
            json_t *shown = json_loads(text, 0, NULL);
            if (!shown || !json_equal(given, shown)) {
                set_error(error, error_size, "the view is not one %s shows: '%s' does not read "
                          "back the same", game->name, shown ? first_difference(given, shown)
                                                                 : "?");
                gateau_state_free(state);
                state = NULL;
            }
            json_decref(shown);
            free(text);
        }
    }
    json_decref(given);
    return state;
}
