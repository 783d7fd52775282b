/*
 * postgres_server.h: a PostgreSQL server of the tests' own, for the tests
 * of the PostgreSQL store and of several servers on one database.
 *
 * postgres_server_start (in Criterion's PRE_ALL report hook: once per test
 * program, before the tests' processes are forked) makes a cluster with
 * initdb in a temporary folder and starts it on a Unix socket in that
 * folder (no TCP port: nothing to collide with), as the user "nobody"
 * when the tests run as root (PostgreSQL refuses to run as root).  The
 * tests then find it through the environment; postgres_server_stop (in
 * POST_ALL) stops it and removes the folder.
 */
#ifndef GATEAU_TEST_POSTGRES_SERVER_H
#define GATEAU_TEST_POSTGRES_SERVER_H

#include <criterion/criterion.h>
#include <criterion/hooks.h>
#include <stdbool.h>

void postgres_server_start(void);
void postgres_server_stop(void);

/* Skips the calling test (cr_skip_test, one line saying why) when no
 * server could be started. */
void postgres_server_require(void);

/* A URL of a new, empty database named name (letters, digits and '_'),
 * on the tests' server; fails the test when it cannot be made.  Static
 * storage, 8 in rotation. */
const char *postgres_server_database(const char *name);

/* A PostgreSQL server of the calling test's own, for a test that
 * restarts it (the shared one serves the program's other tests at the
 * same time): made as the shared one is, in a new folder of /tmp (whose
 * name goes in folder), its URL (the database "postgres") in url.  The
 * test is skipped when no server can be started; it fails when this one
 * cannot be.  restart: `pg_ctl restart -m fast` (every connection cut,
 * the server back with the same settings), false when it failed; stop:
 * stopped and its folder removed. */
void postgres_private_start(char folder[256], char *url, size_t url_size);
bool postgres_private_restart(const char *folder);
void postgres_private_stop(const char *folder);

/* The report hooks that start the server before a program's tests are
 * forked and stop it after them, once in each program using it, on two
 * lines (Criterion names a hook by its line). */
#define POSTGRES_SERVER_START_HOOK()                                                           \
    ReportHook(PRE_ALL)(struct criterion_test_set * tests_)                                    \
    {                                                                                          \
        (void)tests_;                                                                          \
        postgres_server_start();                                                               \
    }
#define POSTGRES_SERVER_STOP_HOOK()                                                            \
    ReportHook(POST_ALL)(struct criterion_global_stats * stats_)                               \
    {                                                                                          \
        (void)stats_;                                                                          \
        postgres_server_stop();                                                                \
    }

/* A test on both stores: BACKEND_TESTS(suite, name) makes the tests
 * suite/name_sqlite and suite/name_postgres of one body, the function
 * name(backend which) that follows it. */
typedef enum backend { SQLITE, POSTGRES } backend;

#define BACKEND_TESTS(suite, name)                                                             \
    static void name(backend which);                                                           \
    Test(suite, name##_sqlite) { name(SQLITE); }                                               \
    Test(suite, name##_postgres) { name(POSTGRES); }                                           \
    static void name(backend which)

#endif
