/*
 * served.h: `gateau serve` run by a test as a child process
 * (test_server.c, test_server_postgres.c, test_server_hostile.c), and
 * the JSON it answers.
 */
#ifndef GATEAU_TESTS_SERVED_H
#define GATEAU_TESTS_SERVED_H

#include <jansson.h>
#include <sys/types.h>

typedef struct served {
    pid_t pid;
    int port;
} served;

/* Starts GATEAU_BINARY's `serve` on a free port with the database db (a
 * file or a URL); returns once it has printed its URL.  The server is
 * killed if the test process dies first. */
served served_start(const char *db);
/* The same with more arguments (a NULL-ended list, at most 22). */
served served_start_with(const char *db, const char *const *extra);
/* The same with its standard error (its log) appended to the file log
 * (NULL: the test's own). */
served served_start_logged(const char *db, const char *const *extra, const char *log);
/* The arguments of a server that a test polls as fast as it can from
 * 127.0.0.1 (`--address-requests 0`: no limit on one address's requests
 * a second), for served_start_with. */
extern const char *const served_polling[];

/* The finished table's record, from GET /api/tables/ID/record, replayed by
 * `gateau replay --json`, gives the scores the server reported in final
 * (its last snapshot). */
void served_check_record(const served *running, const char *table_id, json_t *final);

/* SIGTERM: the server stops cleanly, with status 0 (the test fails
 * otherwise). */
void served_stop(served *running);

/* text as JSON; the test fails when it is not. */
json_t *served_parse(const char *text);

/* A request with token in `Authorization: Bearer` (NULL: none) that must
 * answer `expected`: its JSON (the test fails when it is not). */
json_t *served_request(const served *running, const char *method, const char *path,
                       const char *body, const char *token, int expected);

/* A table as POST /api/tables answered it: its id, the creator's token,
 * and each seat's token by seat number ("" for seats without one). */
typedef struct served_table {
    char id[32];
    char creator[64];
    char tokens[6][64];
} served_table;
served_table served_table_from(json_t *answer);

/* The snapshot of seat (1-based, with its token) once it is the only seat
 * to move or the table is over: the bots have played (a seat that chooses
 * at the same time as a bot, as in Cake Master, waits for its choice).
 * The test fails when that never comes. */
json_t *served_seat_alone(const served *running, const served_table *table, int seat);

#endif
