/* ticker_clock.c -- coarse clock cache refreshed by a ticker thread.
 *
 * Like many event-driven servers, this one avoids a clock_gettime() per
 * request: a ticker thread refreshes a cached millisecond timestamp every
 * half millisecond and request handlers read the cached value to compute
 * request latency.  The cache is a plain long long.
 *
 * RACE: ticker_clock.c:42 (write, ticker: `cached_now_ms = mono_ms();`)
 *   vs  ticker_clock.c:34 (read, handler via cached_ms(): `return cached_now_ms;`)
 */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static long long cached_now_ms;
static atomic_bool ticker_stop;

static pthread_mutex_t lat_lock = PTHREAD_MUTEX_INITIALIZER;
static long long worst_latency_ms;
static int handled;

static long long mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static inline long long cached_ms(void)
{
    return cached_now_ms;
}

static void *ticker_main(void *arg)
{
    (void)arg;
    while (!atomic_load_explicit(&ticker_stop, memory_order_relaxed)) {
        usleep(500);
        cached_now_ms = mono_ms();
    }
    return NULL;
}

static void *handler_main(void *arg)
{
    int n = (int)(long)arg;
    for (int i = 0; i < n; i++) {
        long long start = cached_ms();
        usleep(600 + 100 * i);         /* handle the request */
        long long lat = cached_ms() - start;

        pthread_mutex_lock(&lat_lock);
        if (lat > worst_latency_ms)
            worst_latency_ms = lat;
        handled++;
        pthread_mutex_unlock(&lat_lock);
    }
    return NULL;
}

int main(void)
{
    pthread_t ticker, handlers[2];

    cached_now_ms = mono_ms();
    pthread_create(&ticker, NULL, ticker_main, NULL);
    pthread_create(&handlers[0], NULL, handler_main, (void *)4L);
    pthread_create(&handlers[1], NULL, handler_main, (void *)3L);

    pthread_join(handlers[0], NULL);
    pthread_join(handlers[1], NULL);
    atomic_store_explicit(&ticker_stop, 1, memory_order_relaxed);
    pthread_join(ticker, NULL);

    printf("handled %d requests, worst latency %lld ms\n", handled, worst_latency_ms);
    return 0;
}
