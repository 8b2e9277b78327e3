/* RACE: c09_watchdog.c:43 (write) vs c09_watchdog.c:55 (read) */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define STALL_US 20000

struct worker_state {
    uint64_t last_progress_us; /* heartbeat */
    unsigned items;
    uint64_t digest;
};

static struct worker_state ws;
static pthread_mutex_t wd_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wd_cv;
static int wd_stop;   /* protected by wd_lock */
static int wd_checks, wd_stalls;

static uint64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static void *ingest(void *arg)
{
    (void)arg;
    char rec[256];
    struct timespec io = { 0, 100 * 1000 };

    for (unsigned i = 0; i < 30; i++) {
        int n = snprintf(rec, sizeof rec, "%u,sensor-%02u,%d.%02d,%s", 1700000000u + i * 5, i % 7,
                         20 + (int)(i % 9), (int)(i * 13 % 100), i % 3 ? "ok" : "warn");
        for (int k = 0; k < n; k++)
            ws.digest = (ws.digest ^ (unsigned char)rec[k]) * 1099511628211ull;
        ws.items++;
        ws.last_progress_us = now_us();
        nanosleep(&io, NULL); /* wait for next record from the device */
    }
    return NULL;
}

static void *watchdog(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&wd_lock);
    while (!wd_stop) {
        struct timespec dl;
        uint64_t last = ws.last_progress_us;
        uint64_t now = now_us();
        wd_checks++;
        if (last != 0 && now - last > STALL_US) {
            wd_stalls++;
            fprintf(stderr, "watchdog: ingest stalled for %llu us\n",
                    (unsigned long long)(now - last));
        }
        clock_gettime(CLOCK_MONOTONIC, &dl);
        dl.tv_nsec += 500 * 1000;
        if (dl.tv_nsec >= 1000000000L) {
            dl.tv_sec++;
            dl.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&wd_cv, &wd_lock, &dl);
    }
    pthread_mutex_unlock(&wd_lock);
    return NULL;
}

int main(void)
{
    pthread_condattr_t ca;
    pthread_t tw, td;

    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&wd_cv, &ca);
    pthread_condattr_destroy(&ca);

    pthread_create(&tw, NULL, ingest, NULL);
    pthread_create(&td, NULL, watchdog, NULL);
    pthread_join(tw, NULL);

    pthread_mutex_lock(&wd_lock);
    wd_stop = 1;
    pthread_cond_signal(&wd_cv);
    pthread_mutex_unlock(&wd_lock);
    pthread_join(td, NULL);

    printf("ingested %u records, digest %016llx, watchdog checks=%d stalls=%d\n", ws.items,
           (unsigned long long)ws.digest, wd_checks, wd_stalls);
    pthread_cond_destroy(&wd_cv);
    return 0;
}
