/*
 * bench_store.c: how many moves per second the store (src/store/) commits.
 * Not a test: it measures and prints.
 *
 *   gateau_bench_store [--seconds S] [--folder DIR]
 *
 * Appends short moves, each its own commit as the server does, for S
 * seconds (default 2): from one thread to one table, then from 4 threads
 * to 4 tables of one store.  The database is a new file in DIR (default
 * the current folder: a tmpfs /tmp would measure memory, not a disk),
 * removed afterwards.  Times are wall time: the disk is what is measured.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store/store.h"

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct thread_writer {
    store *storage;
    char table_id[STORE_ID_SIZE];
    double seconds;
    long appended;
} thread_writer;

static void *append_moves(void *argument)
{
    thread_writer *writer = argument;
    char error[256], line[64];
    double end = now_seconds() + writer->seconds;
    for (int n = 0; now_seconds() < end; n++) {
        snprintf(line, sizeof line, "take %d-%d ecce", n % 12, (n + 3) % 12);
        store_move move = {.number = n, .seat = n % 4, .line = line, .clock_left = 600000 - n};
        if (!store_append_move(writer->storage, writer->table_id, &move, error, sizeof error)) {
            fprintf(stderr, "%s\n", error);
            exit(1);
        }
        writer->appended++;
    }
    return NULL;
}

static void create_table(store *storage, const char *id)
{
    store_table table;
    memset(&table, 0, sizeof table);
    snprintf(table.id, sizeof table.id, "%s", id);
    snprintf(table.game, sizeof table.game, "piece-o-cake");
    table.players = 4;
    for (int s = 0; s < table.players; s++) snprintf(table.seats[s].spec, STORE_SPEC_SIZE, "human");
    char error[256];
    if (!store_create_table(storage, &table, error, sizeof error)) {
        fprintf(stderr, "%s\n", error);
        exit(1);
    }
}

/* Appends per second of `threads` writers, each on its own new table. */
static double appends_per_second(store *storage, int threads, double seconds, const char *prefix)
{
    thread_writer writers[8];
    pthread_t ids[8];
    for (int w = 0; w < threads; w++) {
        writers[w] = (thread_writer){.storage = storage, .seconds = seconds};
        snprintf(writers[w].table_id, sizeof writers[w].table_id, "%s%d", prefix, w);
        create_table(storage, writers[w].table_id);
    }
    double start = now_seconds();
    for (int w = 0; w < threads; w++) pthread_create(&ids[w], NULL, append_moves, &writers[w]);
    long appended = 0;
    for (int w = 0; w < threads; w++) {
        pthread_join(ids[w], NULL);
        appended += writers[w].appended;
    }
    return (double)appended / (now_seconds() - start);
}

int main(int argc, char **argv)
{
    double seconds = 2;
    const char *folder = ".";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) seconds = atof(argv[++i]);
        else if (strcmp(argv[i], "--folder") == 0 && i + 1 < argc) folder = argv[++i];
        else {
            fprintf(stderr, "usage: gateau_bench_store [--seconds S] [--folder DIR]\n");
            return 2;
        }
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/bench-store-%ld.db", folder, (long)getpid());
    char error[256];
    store *storage = store_open(path, error, sizeof error);
    if (!storage) {
        fprintf(stderr, "%s\n", error);
        return 1;
    }
    printf("store appends per second (%s, each a commit, WAL, synchronous=NORMAL)\n", path);
    printf("  1 thread,  1 table:  %8.0f\n", appends_per_second(storage, 1, seconds, "one"));
    printf("  4 threads, 4 tables: %8.0f\n", appends_per_second(storage, 4, seconds, "four"));
    store_close(storage);
    const char *suffixes[] = {"", "-wal", "-shm"};
    for (int s = 0; s < 3; s++) {
        char file[4200];
        snprintf(file, sizeof file, "%s%s", path, suffixes[s]);
        unlink(file);
    }
    return 0;
}
