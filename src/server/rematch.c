/*
 * rematch.c: another game with the same people (docs/server.md,
 * "Rematch").  The first seat of a finished table to ask makes the
 * rematch: the same game, options, clock and seats, bots staying bots,
 * each person's seat "invited" (waiting for its person: neither in the
 * lobby nor open to a join).  Each person then asks once and is given
 * the same seat at the new table, with a token of its own, in the answer
 * to its own request only.  The finished table notes the rematch (in
 * the store too), so everybody's page offers to follow it.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/server.h"

/* The rematch of a finished table (locked), made now when it has none:
 * its id in rematch_id, and the new creator's token in creator when this
 * call made it ("" otherwise).  0 or a status with a reason.  A table
 * made here is in *made_here, stored but not yet among the tables: it is
 * added (or, when it is not the rematch after all, discarded) once the
 * finished table's lock is let go (the clock's thread holds the tables'
 * list while it locks each table in turn).  Its bots may have been queued
 * already, so it is never freed here. */
static int make_rematch(server_table *table, int seat, char rematch_id[STORE_ID_SIZE],
                        char creator[SERVER_TOKEN_SIZE], server_table **made_here, char *error,
                        size_t error_size)
{
    creator[0] = '\0';
    *made_here = NULL;
    if (table->rematch[0]) {
        snprintf(rematch_id, STORE_ID_SIZE, "%s", table->rematch);
        return 0;
    }
    const char *specs[GATEAU_MAX_PLAYERS], *names[GATEAU_MAX_PLAYERS];
    for (int s = 0; s < table->players; s++) {
        specs[s] = table->seats[s].human ? "invited" : table->seats[s].spec;
        names[s] = table->seats[s].name[0] ? table->seats[s].name : NULL;
    }
    char options[STORE_OPTIONS_SIZE], tokens[GATEAU_MAX_PLAYERS][SERVER_TOKEN_SIZE];
    snprintf(options, sizeof options, "%s", gateau_setup_options_text(table->setup));
    int status;
    server_table *made = table_create(table->store, gateau_setup_game(table->setup),
                                      table->players, options, specs, names,
                                      names[seat], table->clock_text, NULL, tokens, creator, &status,
                                      error, error_size);
    if (!made) return status;
    *made_here = made;
    char existing[STORE_ID_SIZE] = "", reason[512];
    if (table->store &&
        !store_set_rematch(table->store, table->id, made->id, existing, reason, sizeof reason)) {
        /* Another process made one first: that one is the rematch (the
         * one made here stays in the store, unfinished, until it expires). */
        creator[0] = '\0';
        if (!existing[0]) {
            server_log("table %s: %s", table->id, reason);
            snprintf(error, error_size, "storage unavailable");
            return 503;
        }
        snprintf(table->rematch, sizeof table->rematch, "%s", existing);
    } else {
        snprintf(table->rematch, sizeof table->rematch, "%s", made->id);
    }
    snprintf(rematch_id, STORE_ID_SIZE, "%s", table->rematch);
    table_forget_snapshots(table);
    websocket_push(table);
    return 0;
}

char *rematch_accept(const char *table_id, const char *token, int *status, char *error,
                     size_t error_size)
{
    server_table *table = tables_lock(table_id);
    if (!table) {
        *status = 404;
        snprintf(error, error_size, "no table %.30s", table_id);
        return NULL;
    }
    int seat = token[0] ? table_seat_of(table, token) : -1;
    char rematch_id[STORE_ID_SIZE] = "", creator[SERVER_TOKEN_SIZE] = "";
    server_table *made = NULL;
    *status = 0;
    if (seat < 0) {
        *status = 403;
        snprintf(error, error_size, "a rematch is for the seats: the token opens no seat of "
                 "this table");
    } else if (!table->over) {
        *status = 409;
        snprintf(error, error_size, "a rematch follows a game that is over, and this one is not");
    } else {
        *status = make_rematch(table, seat, rematch_id, creator, &made, error, error_size);
    }
    table_unlock(table);
    /* (another request may have loaded it from the store meanwhile: that
     * copy stays, this one was never seen) */
    if (made && (*status || strcmp(made->id, rematch_id) != 0 || !tables_add_new(made)))
        tables_discard(made);
    if (*status) return NULL;
    /* (the finished table's lock is let go first: tables never wait for
     * each other) */
    server_table *rematch = tables_lock(rematch_id);
    if (!rematch) {
        *status = 503;
        snprintf(error, error_size, "storage unavailable");
        return NULL;
    }
    char seat_token[SERVER_TOKEN_SIZE];
    *status = table_claim_invited(rematch, seat, seat_token, error, error_size);
    table_unlock(rematch);
    if (*status) return NULL;
    json_t *answer = json_pack("{s:s,s:i,s:s}", "id", rematch_id, "seat", seat + 1, "token",
                               seat_token);
    if (creator[0]) json_object_set_new(answer, "creator", json_string(creator));
    char *text = json_dumps(answer, JSON_COMPACT);
    json_decref(answer);
    *status = 200;
    return text;
}
