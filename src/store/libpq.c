/* libpq.c: PostgreSQL's client library, loaded on first use (libpq.h). */
#include "store/libpq.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

libpq_functions libpq;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[256];

/* Each member of libpq by its own name. */
#define LIBPQ_FUNCTIONS(X)                                                                    \
    X(PQclear) X(PQcmdTuples) X(PQconnectdb) X(PQconsumeInput) X(PQerrorMessage) X(PQexec)   \
    X(PQexecParams) X(PQexecPrepared) X(PQfinish) X(PQfreemem) X(PQgetisnull) X(PQgetvalue)  \
    X(PQnotifies) X(PQntuples) X(PQprepare) X(PQreset) X(PQresultErrorField)                 \
    X(PQresultErrorMessage) X(PQresultStatus) X(PQsetNoticeProcessor) X(PQsocket)            \
    X(PQstatus)

static void load(void)
{
    /* The soname of libpq's every release since PostgreSQL 8.2. */
    void *library = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "PostgreSQL needs libpq (libpq.so.5): %s",
                 dlerror());
        return;
    }
#define LOAD(name)                                                                             \
    if (!(*(void **)&libpq.name = dlsym(library, #name))) {                                   \
        snprintf(load_error, sizeof load_error, "libpq.so.5 has no %s", #name);               \
        return;                                                                                \
    }
    LIBPQ_FUNCTIONS(LOAD)
#undef LOAD
}

bool libpq_load(char *error, size_t error_size)
{
    pthread_once(&load_once, load);
    if (load_error[0]) {
        snprintf(error, error_size, "%s", load_error);
        return false;
    }
    return true;
}
