/*
 * expiry.c: unfinished tables nobody has moved at for --expire-days end
 * ("expired: ..."), at start and then once an hour (the sweep itself is
 * tables_expire, in tables.c).  Without it a server kept every abandoned
 * table in play forever, restored at every start.  They end rather than
 * go: a player who comes back reads what became of the game, and its
 * record stays (`gateau tables delete` takes a table out for good).
 */
#include <errno.h>
#include <stdio.h>
#include <time.h>

#include "server/server.h"

enum { EXPIRY_SECONDS_BETWEEN = 3600 };

static struct {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    bool running, stopping;
    int days;
    struct store *database;
} expiry = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER};

int64_t expiry_cutoff(int days) { return (int64_t)time(NULL) - (int64_t)days * 86400; }

bool expiry_sweep(struct store *database, int days)
{
    if (days <= 0) return true;
    char error[512];
    int expired = 0;
    if (!tables_expire(database, expiry_cutoff(days), &expired, error, sizeof error)) {
        server_log("cannot expire tables: %s", error);
        return false;
    }
    if (expired)
        printf("Expired %d table%s without a move for %d day%s.\n", expired,
               expired == 1 ? "" : "s", days, days == 1 ? "" : "s");
    fflush(stdout);
    return true;
}

static void *expiry_main(void *argument)
{
    (void)argument;
    pthread_mutex_lock(&expiry.lock);
    while (!expiry.stopping) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += EXPIRY_SECONDS_BETWEEN;
        int waited = 0;
        while (!expiry.stopping && waited != ETIMEDOUT)
            waited = pthread_cond_timedwait(&expiry.wake, &expiry.lock, &until);
        if (expiry.stopping) break;
        pthread_mutex_unlock(&expiry.lock);
        expiry_sweep(expiry.database, expiry.days);
        pthread_mutex_lock(&expiry.lock);
    }
    pthread_mutex_unlock(&expiry.lock);
    return NULL;
}

bool expiry_start(struct store *database, int days)
{
    if (days <= 0) return true;
    expiry.database = database;
    expiry.days = days;
    expiry.stopping = false;
    expiry.running = pthread_create(&expiry.thread, NULL, expiry_main, NULL) == 0;
    return expiry.running;
}

void expiry_stop(void)
{
    if (!expiry.running) return;
    pthread_mutex_lock(&expiry.lock);
    expiry.stopping = true;
    pthread_cond_signal(&expiry.wake);
    pthread_mutex_unlock(&expiry.lock);
    pthread_join(expiry.thread, NULL);
    expiry.running = false;
}
