/*
 * postgres_server.c: see postgres_server.h.
 */
#include "postgres_server.h"

#include <criterion/criterion.h>
#include <libpq-fe.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The environment variables through which the tests' processes learn of
 * the server: its socket folder, or why there is none. */
#define FOLDER_VARIABLE "GATEAU_TEST_POSTGRES_FOLDER"
#define SKIP_VARIABLE "GATEAU_TEST_POSTGRES_SKIPPED"

static char folder[256];

/* The folder of PostgreSQL's server programs: where pg_ctl is on the
 * PATH, else Debian's /usr/lib/postgresql/<version>/bin. */
static bool find_programs(char *bin, size_t size)
{
    FILE *found = popen("command -v pg_ctl 2>/dev/null ||"
                        " ls -d /usr/lib/postgresql/*/bin/pg_ctl 2>/dev/null | sort -V | tail -n 1",
                        "r");
    if (!found) return false;
    char line[512] = "";
    bool got = fgets(line, sizeof line, found) != NULL;
    pclose(found);
    char *slash = strrchr(line, '/');
    if (!got || !slash) return false;
    *slash = '\0';
    snprintf(bin, size, "%s", line);
    return true;
}

/* Runs a shell command of PostgreSQL's programs, as "nobody" when root. */
static bool run_as_owner(const char *command)
{
    char line[2048];
    if (geteuid() == 0) snprintf(line, sizeof line, "runuser -u nobody -- %s", command);
    else snprintf(line, sizeof line, "%s", command);
    return system(line) == 0;
}

/* Says once, for the whole program, why its PostgreSQL tests will skip
 * (each skipped test says it again with --verbose). */
static void skip_because(const char *reason)
{
    setenv(SKIP_VARIABLE, reason, 1);
    fprintf(stderr, "PostgreSQL tests skipped: %s\n", reason);
}

void postgres_server_start(void)
{
    char bin[256];
    if (!find_programs(bin, sizeof bin)) {
        skip_because("no PostgreSQL server programs (pg_ctl; Debian package postgresql)");
        return;
    }
    if (geteuid() == 0 && !getpwnam("nobody")) {
        skip_because("running as root, and there is no user nobody to run PostgreSQL");
        return;
    }
    snprintf(folder, sizeof folder, "/tmp/gateau-postgres-XXXXXX");
    if (!mkdtemp(folder)) {
        skip_because("cannot make a temporary folder");
        return;
    }
    chmod(folder, 0755);
    if (geteuid() == 0) {
        struct passwd *nobody = getpwnam("nobody");
        if (chown(folder, nobody->pw_uid, nobody->pw_gid) != 0) {
            skip_because("cannot give the temporary folder to the user nobody");
            return;
        }
    }
    char command[1536];
    /* trust: only this folder's socket, only this machine's users, reach it. */
    snprintf(command, sizeof command,
             "'%s/initdb' -D '%s/data' -U gateau --auth=trust -E UTF8 --no-sync"
             " >'%s/initdb.log' 2>&1",
             bin, folder, folder);
    if (!run_as_owner(command)) {
        skip_because("initdb failed (its log was in the temporary folder)");
        return;
    }
    /* fsync off: the tests kill gateau's processes, never the machine. */
    snprintf(command, sizeof command,
             "'%s/pg_ctl' -D '%s/data' -l '%s/server.log' -w -t 60 -o \"-c listen_addresses=''"
             " -k %s -c fsync=off -c max_connections=200\" start >/dev/null 2>&1",
             bin, folder, folder, folder);
    if (!run_as_owner(command)) {
        skip_because("pg_ctl could not start the server");
        return;
    }
    setenv(FOLDER_VARIABLE, folder, 1);
}

void postgres_server_stop(void)
{
    if (!getenv(FOLDER_VARIABLE)) {
        if (folder[0]) {
            char command[512];
            snprintf(command, sizeof command, "rm -rf '%s'", folder);
            if (system(command) != 0) fprintf(stderr, "could not remove %s\n", folder);
        }
        return;
    }
    char bin[256], command[1024];
    if (find_programs(bin, sizeof bin)) {
        snprintf(command, sizeof command,
                 "'%s/pg_ctl' -D '%s/data' -m immediate -w stop >/dev/null 2>&1", bin, folder);
        run_as_owner(command);
    }
    snprintf(command, sizeof command, "rm -rf '%s'", folder);
    if (system(command) != 0) fprintf(stderr, "could not remove %s\n", folder);
}

void postgres_private_start(char folder_out[256], char *url, size_t url_size)
{
    postgres_server_require(); /* (skipped as the shared one is) */
    char bin[256];
    cr_assert(find_programs(bin, sizeof bin));
    snprintf(folder_out, 256, "/tmp/gateau-postgres-XXXXXX");
    cr_assert_not_null(mkdtemp(folder_out));
    chmod(folder_out, 0755);
    if (geteuid() == 0) {
        struct passwd *nobody = getpwnam("nobody");
        cr_assert(nobody && chown(folder_out, nobody->pw_uid, nobody->pw_gid) == 0);
    }
    char command[1536];
    snprintf(command, sizeof command,
             "'%s/initdb' -D '%s/data' -U gateau --auth=trust -E UTF8 --no-sync"
             " >'%s/initdb.log' 2>&1",
             bin, folder_out, folder_out);
    cr_assert(run_as_owner(command), "initdb failed: %s/initdb.log", folder_out);
    snprintf(command, sizeof command,
             "'%s/pg_ctl' -D '%s/data' -l '%s/server.log' -w -t 60 -o \"-c listen_addresses=''"
             " -k %s -c fsync=off -c max_connections=50\" start >/dev/null 2>&1",
             bin, folder_out, folder_out, folder_out);
    cr_assert(run_as_owner(command), "pg_ctl could not start: %s/server.log", folder_out);
    snprintf(url, url_size, "postgresql:///postgres?host=%s&user=gateau", folder_out);
}

bool postgres_private_restart(const char *private_folder)
{
    char bin[256], command[1024];
    if (!find_programs(bin, sizeof bin)) return false;
    snprintf(command, sizeof command,
             "'%s/pg_ctl' -D '%s/data' -l '%s/server.log' -m fast -w -t 60 restart"
             " >/dev/null 2>&1",
             bin, private_folder, private_folder);
    return run_as_owner(command);
}

void postgres_private_stop(const char *private_folder)
{
    char bin[256], command[1024];
    if (find_programs(bin, sizeof bin)) {
        snprintf(command, sizeof command,
                 "'%s/pg_ctl' -D '%s/data' -m immediate -w stop >/dev/null 2>&1", bin,
                 private_folder);
        run_as_owner(command);
    }
    snprintf(command, sizeof command, "rm -rf '%s'", private_folder);
    if (system(command) != 0) fprintf(stderr, "could not remove %s\n", private_folder);
}

void postgres_server_require(void)
{
    if (getenv(FOLDER_VARIABLE)) return;
    const char *reason = getenv(SKIP_VARIABLE);
    cr_skip_test("PostgreSQL tests skipped: %s",
                 reason ? reason : "no server was started (postgres_server_start)");
}

const char *postgres_server_database(const char *name)
{
    postgres_server_require();
    static char urls[8][512];
    static int next;
    const char *socket_folder = getenv(FOLDER_VARIABLE);
    char url[512];
    snprintf(url, sizeof url, "postgresql:///postgres?host=%s&user=gateau", socket_folder);
    PGconn *connection = PQconnectdb(url);
    cr_assert_eq(PQstatus(connection), CONNECTION_OK, "%s", PQerrorMessage(connection));
    char sql[256];
    snprintf(sql, sizeof sql, "CREATE DATABASE %s", name);
    PGresult *result = PQexec(connection, sql);
    cr_assert_eq(PQresultStatus(result), PGRES_COMMAND_OK, "%s", PQerrorMessage(connection));
    PQclear(result);
    PQfinish(connection);
    char *out = urls[next++ % 8];
    snprintf(out, sizeof urls[0], "postgresql:///%s?host=%s&user=gateau", name, socket_folder);
    return out;
}
