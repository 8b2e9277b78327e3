/*
 * d09_coarse_clock.c -- a request logger avoids calling clock_gettime() on
 * every log line: a ticker thread refreshes a cached millisecond timestamp,
 * g_coarse_now_ms, a few times per millisecond, and log_event() just copies
 * the cached value into the record.  The log ring itself is protected by
 * log_lock, but the cached timestamp is a plain long written by the ticker
 * and read by the two request threads.
 *
 * RACE: d09_coarse_clock.c:53 (write, ticker thread: `g_coarse_now_ms = monotonic_ms();`) vs d09_coarse_clock.c:63 (read, request thread in log_event: `rec.ts_ms = g_coarse_now_ms;`)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define LOG_CAP 256
#define REQS_PER_THREAD 40

struct log_rec {
    long ts_ms;
    int thread;
    int status;
    char path[24];
};

static long g_coarse_now_ms;
static atomic_bool g_ticker_stop;

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static struct log_rec log_ring[LOG_CAP];
static unsigned log_len;

static long monotonic_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static void pause_us(long us)
{
    struct timespec ts = { 0, us * 1000L };
    nanosleep(&ts, NULL);
}

static void *ticker_main(void *arg)
{
    (void)arg;
    while (!atomic_load(&g_ticker_stop)) {
        g_coarse_now_ms = monotonic_ms();
        pause_us(250);
    }
    return NULL;
}

static void log_event(int thread, int status, const char *path)
{
    struct log_rec rec;

    rec.ts_ms = g_coarse_now_ms;
    rec.thread = thread;
    rec.status = status;
    strncpy(rec.path, path, sizeof(rec.path) - 1);
    rec.path[sizeof(rec.path) - 1] = '\0';

    pthread_mutex_lock(&log_lock);
    if (log_len < LOG_CAP)
        log_ring[log_len++] = rec;
    pthread_mutex_unlock(&log_lock);
}

static void *request_main(void *arg)
{
    int id = *(const int *)arg;
    static const char *const paths[] = { "/", "/login", "/cart", "/search?q=tea" };

    for (int i = 0; i < REQS_PER_THREAD; i++) {
        int status = (i % 13 == 12) ? 404 : 200;
        log_event(id, status, paths[(i + id) % 4]);
        if (i % 8 == 7)
            pause_us(150);
    }
    return NULL;
}

int main(void)
{
    pthread_t ticker, req[2];
    static const int ids[2] = { 1, 2 };
    int monotonic = 1, not_found = 0;
    long start_ms = monotonic_ms();

    g_coarse_now_ms = start_ms;
    pthread_create(&ticker, NULL, ticker_main, NULL);
    for (int i = 0; i < 2; i++)
        pthread_create(&req[i], NULL, request_main, (void *)&ids[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(req[i], NULL);
    atomic_store(&g_ticker_stop, 1);
    pthread_join(ticker, NULL);

    for (int t = 1; t <= 2; t++) {
        long last = 0;
        for (unsigned i = 0; i < log_len; i++) {
            if (log_ring[i].thread != t)
                continue;
            if (log_ring[i].ts_ms < last)
                monotonic = 0;
            last = log_ring[i].ts_ms;
        }
    }
    for (unsigned i = 0; i < log_len; i++)
        not_found += log_ring[i].status == 404;
    printf("%u log records (%d x 404), per-thread timestamps %s\n", log_len, not_found,
           monotonic ? "monotonic" : "NOT monotonic");
    return 0;
}
