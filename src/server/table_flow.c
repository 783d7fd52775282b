/*
 * table_flow.c: a person's take-back of his last move, and handing an
 * absent or timed-out player's seat to a bot (docs/server.md, "Taking a
 * move back" and "Handing a seat to a bot").
 *
 * A take-back is honest only while nobody could have learned anything
 * from the move: no other seat has acted since, no chance followed it,
 * and the move showed its own player nothing hidden (the end of a phase
 * of hidden choices shows him the others'; a move may turn a hidden
 * piece over).  Then the table, and its stored record, go back to
 * exactly where they were before it.
 *
 * The caller holds table->lock for everything here (tables.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/server.h"

/* Determinizations of the position before a move that its result is
 * compared with: a move that shows its player something hidden gives,
 * in some of them, a view other than the real one. */
enum { REVEAL_SAMPLES = 8 };

/* Whether seat's move (the record's move index) showed its player
 * something he did not know before it: why into why, or "" when not. */
static void check_revealed(const server_table *table, int seat, int index,
                           const gateau_state *before, char *why, size_t why_size)
{
    why[0] = '\0';
    const gateau_state *after = gateau_record_state(table->record);
    uint32_t left = gateau_state_actors(before) & ~(1u << seat);
    if (gateau_state_is_simultaneous(before) &&
        !(gateau_state_is_simultaneous(after) && gateau_state_actors(after) == left)) {
        snprintf(why, why_size, "the move ended a phase of hidden choices: the other seats' "
                 "were shown");
        return;
    }
    int count;
    const gateau_action *actions = gateau_record_move_actions(table->record, index, &count);
    char *real = gateau_state_view_json(after, seat);
    for (int sample = 0; sample < REVEAL_SAMPLES && !why[0]; sample++) {
        gateau_state *guess = gateau_state_clone(before);
        gateau_rng rng;
        /* (the seed's own stream, apart from the bots' and chance's) */
        gateau_rng_seed_stream(&rng, table->seed ^ 0x7461626c65666c6fULL, (uint64_t)sample);
        gateau_state_determinize(guess, seat, &rng);
        bool legal = true;
        for (int a = 0; a < count && legal; a++)
            legal = gateau_state_apply(guess, seat, actions[a], NULL, 0);
        char *seen = legal ? gateau_state_view_json(guess, seat) : NULL;
        if (seen && strcmp(seen, real) != 0)
            snprintf(why, why_size, "the move showed seat %d something that was hidden", seat + 1);
        free(seen);
        gateau_state_free(guess);
    }
    free(real);
}

void table_flow_forget(server_table *table)
{
    gateau_state_free(table->undo.before);
    table->undo = (table_undo){0};
}

void table_flow_remember(server_table *table, int seat, int index, const gateau_state *before,
                         int64_t clock_before, int phase_start)
{
    table_undo *undo = &table->undo;
    gateau_state *kept = undo->before;
    if (kept) gateau_state_copy(kept, before);
    else kept = gateau_state_clone(before);
    *undo = (table_undo){.valid = true, .index = index, .seat = seat,
                         .clock_before = clock_before, .turn_started = table->turn_started,
                         .phase_start = phase_start, .timeouts = table->seats[seat].timeouts,
                         .before = kept};
}

/* Why seat's last move may not be taken back, into error; "" when it may. */
static void take_back_refusal(const server_table *table, int seat, char *error, size_t size)
{
    error[0] = '\0';
    int last = table->version - 1;
    int mine = last;
    while (mine >= 0 && gateau_record_move_seat(table->record, mine) != seat) mine--;
    if (table->over) {
        snprintf(error, size, "the game is over");
    } else if (table->store && store_is_shared(table->store)) {
        /* (the other servers would keep the move in their memory) */
        snprintf(error, size, "moves are not taken back where several servers share the "
                 "database");
    } else if (mine < 0) {
        snprintf(error, size, "seat %d has no move to take back", seat + 1);
    } else if (mine != last && gateau_record_move_seat(table->record, last) < 0) {
        snprintf(error, size, "chance followed seat %d's last move (a deal, a roll): it cannot "
                 "be taken back", seat + 1);
    } else if (mine != last) {
        snprintf(error, size, "seat %d has acted since seat %d's last move: it cannot be taken "
                 "back", gateau_record_move_seat(table->record, last) + 1, seat + 1);
    } else if (!table->undo.valid || table->undo.index != mine || table->undo.seat != seat) {
        snprintf(error, size, "seat %d's last move was not made by its player (a bot or the "
                 "clock made it), or before the server started", seat + 1);
    } else {
        /* (the move is the record's last: its state is the one after it) */
        char why[160];
        check_revealed(table, seat, mine, table->undo.before, why, sizeof why);
        if (why[0]) snprintf(error, size, "%s: it cannot be taken back", why);
    }
}

int table_take_back(server_table *table, int seat, char *error, size_t error_size)
{
    take_back_refusal(table, seat, error, error_size);
    if (error[0]) return 409;
    int index = table->version - 1;
    char reason[512];
    if (table->store &&
        !store_remove_last_move(table->store, table->id, index, reason, sizeof reason)) {
        server_log("table %s: %s", table->id, reason);
        snprintf(error, error_size, "storage unavailable");
        return 503;
    }
    table_undo *undo = &table->undo;
    gateau_record_truncate(table->record, index);
    table_drop_last_log(table);
    table->version = index;
    table->takebacks++;
    table->phase_start = undo->phase_start;
    table->phase_continued = false;
    table->turn_started = undo->turn_started; /* (the time since counts: no time is given) */
    table_seat *back = &table->seats[seat];
    back->clock_left = undo->clock_before;
    back->timeouts = undo->timeouts;
    undo->valid = false;
    table_forget_snapshots(table);
    workers_notice(table);
    websocket_push(table);
    return 0;
}

/* Why seat may not be handed to a bot now, into error; "" when it may. */
static void hand_over_refusal(const server_table *table, int seat, char *error, size_t size)
{
    error[0] = '\0';
    const table_seat *handed = &table->seats[seat];
    int64_t away = table_elapsed(handed->absent_since);
    if (table->over) {
        snprintf(error, size, "the game is over");
    } else if (handed->zombie) {
        snprintf(error, size, "seat %d is played by a bot already", seat + 1);
    } else if (!handed->claimed) {
        snprintf(error, size, "seat %d is open: nobody has it to hand over", seat + 1);
    } else if (handed->timeouts >= TABLE_TIMEOUTS_TO_HAND_OVER) {
        return; /* (connected or not: his clock ran out move after move) */
    } else if (handed->connections > 0) {
        snprintf(error, size, "seat %d's player is here: a seat goes to a bot only after %d s "
                 "away or %d moves in a row out of time", seat + 1,
                 TABLE_ABSENCE_TO_HAND_OVER_MS / 1000, TABLE_TIMEOUTS_TO_HAND_OVER);
    } else if (away < TABLE_ABSENCE_TO_HAND_OVER_MS) {
        snprintf(error, size, "seat %d's player has been away %lld s: a seat goes to a bot only "
                 "after %d s away or %d moves in a row out of time", seat + 1,
                 (long long)(away / 1000), TABLE_ABSENCE_TO_HAND_OVER_MS / 1000,
                 TABLE_TIMEOUTS_TO_HAND_OVER);
    }
}

int table_hand_over(server_table *table, int by, int seat, bool back, char *error,
                    size_t error_size)
{
    if (seat < 0 || seat >= table->players || !table->seats[seat].human) {
        snprintf(error, error_size, "seat %d is not a person's seat", seat + 1);
        return 422;
    }
    table_seat *handed = &table->seats[seat];
    if (back) {
        if (by != seat) {
            snprintf(error, error_size, "only seat %d's own player takes it back", seat + 1);
            return 403;
        }
        if (!handed->zombie) {
            snprintf(error, error_size, "seat %d is not played by a bot", seat + 1);
            return 409;
        }
    } else {
        if (by == seat) {
            snprintf(error, error_size, "a player does not hand his own seat over: another seat "
                     "does, when he is away");
            return 422;
        }
        hand_over_refusal(table, seat, error, error_size);
        if (error[0]) return 409;
    }
    int64_t away = table_elapsed(handed->absent_since);
    const char *why = handed->timeouts >= TABLE_TIMEOUTS_TO_HAND_OVER ? "timeouts" : "away";
    int status = table_set_zombie(table, seat, !back, "heuristic", error, error_size);
    if (status) return status;
    handed->handed_by = back ? -1 : by;
    handed->handed_why = back ? NULL : why;
    handed->handed_away = back ? 0 : away;
    handed->timeouts = 0;
    table_forget_snapshots(table);
    websocket_push(table);
    return 0;
}
