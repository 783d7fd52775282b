/*
 * libpq.h: PostgreSQL's client library, loaded when gateau first opens a
 * PostgreSQL database instead of when any gateau command starts.
 *
 * Why: libpq brings some twenty libraries with it (TLS, Kerberos, LDAP,
 * SASL), and the dynamic loader's work on them cost every start of the
 * command about 3 ms, three times what the rest of it costs.  That is
 * paid by every `gateau engine` an arena starts through the bot protocol,
 * once per game, and by every short command, while only `gateau serve
 * --db postgresql://...` needs the library.  store_postgres.c calls it
 * through `libpq`, whose members are libpq's functions under their own
 * names: libpq.PQexec(...).
 */
#ifndef GATEAU_STORE_LIBPQ_H
#define GATEAU_STORE_LIBPQ_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct libpq_functions {
    void (*PQclear)(PGresult *);
    char *(*PQcmdTuples)(PGresult *);
    PGconn *(*PQconnectdb)(const char *);
    int (*PQconsumeInput)(PGconn *);
    char *(*PQerrorMessage)(const PGconn *);
    PGresult *(*PQexec)(PGconn *, const char *);
    PGresult *(*PQexecParams)(PGconn *, const char *, int, const Oid *, const char *const *,
                              const int *, const int *, int);
    PGresult *(*PQexecPrepared)(PGconn *, const char *, int, const char *const *, const int *,
                                const int *, int);
    void (*PQfinish)(PGconn *);
    void (*PQfreemem)(void *);
    int (*PQgetisnull)(const PGresult *, int, int);
    char *(*PQgetvalue)(const PGresult *, int, int);
    PGnotify *(*PQnotifies)(PGconn *);
    int (*PQntuples)(const PGresult *);
    PGresult *(*PQprepare)(PGconn *, const char *, const char *, int, const Oid *);
    void (*PQreset)(PGconn *);
    char *(*PQresultErrorField)(const PGresult *, int);
    char *(*PQresultErrorMessage)(const PGresult *);
    ExecStatusType (*PQresultStatus)(const PGresult *);
    PQnoticeProcessor (*PQsetNoticeProcessor)(PGconn *, PQnoticeProcessor, void *);
    int (*PQsocket)(const PGconn *);
    ConnStatusType (*PQstatus)(const PGconn *);
} libpq_functions;

/* Filled by libpq_load; use only after it returned true. */
extern libpq_functions libpq;

/* Loads libpq once (any thread, any number of times): false with a
 * one-line reason when it cannot be loaded. */
bool libpq_load(char *error, size_t error_size);

#endif
