/* RACE: rate_cache.c:44 (write, rate refresher thread: `g_usd_eur = r`) vs rate_cache.c:66 (read, request handler thread: `double rate = g_usd_eur`) */
/*
 * Currency-conversion service: a timer thread refreshes the cached
 * exchange rate every millisecond; handler threads take requests from a
 * condvar-protected queue and convert using the cached rate.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#define NREQ      120
#define NHANDLERS 2
#define QCAP      16

static double g_usd_eur = 0.9100;           /* refreshed by the timer */
static atomic_bool g_stop_refresh;

static pthread_mutex_t q_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t  q_nonempty = PTHREAD_COND_INITIALIZER;
static pthread_cond_t  q_nonfull = PTHREAD_COND_INITIALIZER;
static long   q_cents[QCAP];
static int    q_head, q_count, q_closed;    /* guarded by q_lock */
static int    g_converted;                  /* guarded by q_lock */

static void sleep_us(long us)
{
    struct timespec ts = { 0, us * 1000 };
    nanosleep(&ts, NULL);
}

static double fetch_rate(int tick)
{
    return 0.9100 + 0.0001 * (tick % 50 + 1);   /* "market data feed" */
}

static void *rate_refresher(void *arg)
{
    (void)arg;
    for (int tick = 0; !atomic_load(&g_stop_refresh) && tick < 500; tick++) {
        sleep_us(1000);
        double r = fetch_rate(tick);
        g_usd_eur = r;
    }
    return NULL;
}

static void *request_handler(void *arg)
{
    double *sum_eur = arg;
    for (;;) {
        pthread_mutex_lock(&q_lock);
        while (q_count == 0 && !q_closed)
            pthread_cond_wait(&q_nonempty, &q_lock);
        if (q_count == 0) {
            pthread_mutex_unlock(&q_lock);
            break;
        }
        long cents = q_cents[q_head];
        q_head = (q_head + 1) % QCAP;
        q_count--;
        pthread_cond_signal(&q_nonfull);
        pthread_mutex_unlock(&q_lock);

        double rate = g_usd_eur;
        *sum_eur += (double)cents / 100.0 * rate;

        pthread_mutex_lock(&q_lock);
        g_converted++;
        pthread_mutex_unlock(&q_lock);
    }
    return NULL;
}

int main(void)
{
    pthread_t refresher, handlers[NHANDLERS];
    double sums[NHANDLERS] = { 0 };

    pthread_create(&refresher, NULL, rate_refresher, NULL);
    for (int i = 0; i < NHANDLERS; i++)
        pthread_create(&handlers[i], NULL, request_handler, &sums[i]);

    for (int i = 0; i < NREQ; i++) {
        pthread_mutex_lock(&q_lock);
        while (q_count == QCAP)
            pthread_cond_wait(&q_nonfull, &q_lock);
        q_cents[(q_head + q_count) % QCAP] = 1000 + i;
        q_count++;
        pthread_cond_signal(&q_nonempty);
        pthread_mutex_unlock(&q_lock);
        sleep_us(150);                      /* requests trickle in */
    }
    pthread_mutex_lock(&q_lock);
    q_closed = 1;
    pthread_cond_broadcast(&q_nonempty);
    pthread_mutex_unlock(&q_lock);

    for (int i = 0; i < NHANDLERS; i++)
        pthread_join(handlers[i], NULL);
    atomic_store(&g_stop_refresh, 1);
    pthread_join(refresher, NULL);

    printf("converted %d requests\n", g_converted);
    return sums[0] + sums[1] > 0 ? 0 : 1;
}
