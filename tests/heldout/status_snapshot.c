/* RACE: status_snapshot.c:41 (write, sync worker thread: `g_status.files_done = i + 1`) vs status_snapshot.c:55 (read, status reporter thread: `memcpy(&snap, &g_status, sizeof snap)`) */
/*
 * A folder-sync tool: the worker copies files and bumps files_done in the
 * shared status block; a status thread periodically snapshots the whole
 * block with memcpy() to render a progress line.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define NFILES 40

struct sync_status {
    const char   *job_name;
    unsigned long files_total;
    unsigned long files_done;
    unsigned long bytes_total;
};

static struct sync_status g_status;
static atomic_bool g_sync_finished;

static unsigned long copy_file(unsigned long idx)
{
    unsigned long sz = 1000 + idx * 37, h = 0;
    for (unsigned long k = 0; k < sz * 4; k++)
        h = h * 33 + k;
    struct timespec ts = { 0, 150 * 1000 };
    nanosleep(&ts, NULL);
    return sz + (h & 1);
}

static void *sync_worker(void *arg)
{
    unsigned long *bytes = arg;
    for (unsigned long i = 0; i < NFILES; i++) {
        *bytes += copy_file(i);
        g_status.files_done = i + 1;
    }
    atomic_store(&g_sync_finished, 1);
    return NULL;
}

static void *status_reporter(void *arg)
{
    unsigned long *max_seen = arg;
    struct sync_status snap;

    while (!atomic_load(&g_sync_finished)) {
        struct timespec ts = { 0, 500 * 1000 };
        nanosleep(&ts, NULL);
        memcpy(&snap, &g_status, sizeof snap);
        if (snap.files_done > *max_seen)
            *max_seen = snap.files_done;
    }
    return NULL;
}

int main(void)
{
    pthread_t worker, reporter;
    unsigned long bytes = 0, max_seen = 0;

    g_status.job_name = "photos -> nas";
    g_status.files_total = NFILES;
    g_status.bytes_total = 0;

    pthread_create(&reporter, NULL, status_reporter, &max_seen);
    pthread_create(&worker, NULL, sync_worker, &bytes);
    pthread_join(worker, NULL);
    pthread_join(reporter, NULL);

    printf("%s: %lu/%lu files synced%s\n", g_status.job_name,
           g_status.files_done, g_status.files_total,
           max_seen <= NFILES ? "" : " (bogus progress)");
    return 0;
}
