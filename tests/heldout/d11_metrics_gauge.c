/*
 * d11_metrics_gauge.c -- two request-handler threads count served requests in
 * a metrics block under m->lock.  A monitor thread samples the request
 * counter every few hundred microseconds to compute a rate for a dashboard,
 * and reads it without taking the lock, assuming a word-sized read is fine.
 *
 * RACE: d11_metrics_gauge.c:42 (read-modify-write, handler thread under m->lock: `m->requests++;`) vs d11_metrics_gauge.c:65 (read, monitor thread without the lock: `unsigned long now = m->requests;`)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define REQS_PER_HANDLER 60
#define MAX_SAMPLES 256

struct metrics {
    pthread_mutex_t lock;
    unsigned long requests;
    unsigned long long bytes_sent;
    unsigned long errors;
};

struct monitor {
    struct metrics *m;
    atomic_int stop;
    unsigned long samples[MAX_SAMPLES];
    int nsamples;
};

static void snooze_us(long us)
{
    struct timespec ts = { 0, us * 1000L };
    nanosleep(&ts, NULL);
}

static void record_request(struct metrics *m, size_t bytes, int failed)
{
    pthread_mutex_lock(&m->lock);
    m->requests++;
    m->bytes_sent += bytes;
    if (failed)
        m->errors++;
    pthread_mutex_unlock(&m->lock);
}

static void *handler_main(void *arg)
{
    struct metrics *m = arg;

    for (int i = 0; i < REQS_PER_HANDLER; i++) {
        size_t bytes = 180 + (size_t)(i * 97) % 4000;
        record_request(m, bytes, i % 20 == 19);
        if (i % 10 == 9)
            snooze_us(120);
    }
    return NULL;
}

static void take_sample(struct monitor *mon)
{
    struct metrics *m = mon->m;
    unsigned long now = m->requests;

    if (mon->nsamples < MAX_SAMPLES)
        mon->samples[mon->nsamples++] = now;
}

static void *monitor_main(void *arg)
{
    struct monitor *mon = arg;

    do {
        take_sample(mon);
        snooze_us(200);
    } while (!atomic_load(&mon->stop));
    return NULL;
}

int main(void)
{
    struct metrics *m = calloc(1, sizeof(*m));
    struct monitor *mon = calloc(1, sizeof(*mon));
    pthread_t h[2], mt;
    int sane = 1;

    if (m == NULL || mon == NULL)
        return 1;
    pthread_mutex_init(&m->lock, NULL);
    mon->m = m;
    pthread_create(&mt, NULL, monitor_main, mon);
    for (int i = 0; i < 2; i++)
        pthread_create(&h[i], NULL, handler_main, m);
    for (int i = 0; i < 2; i++)
        pthread_join(h[i], NULL);
    atomic_store(&mon->stop, 1);
    pthread_join(mt, NULL);

    for (int i = 1; i < mon->nsamples; i++)
        if (mon->samples[i] < mon->samples[i - 1] || mon->samples[i] > m->requests)
            sane = 0;
    printf("requests=%lu bytes=%llu errors=%lu; gauge samples %s\n", m->requests,
           m->bytes_sent, m->errors, sane ? "consistent" : "INCONSISTENT");
    pthread_mutex_destroy(&m->lock);
    free(mon);
    free(m);
    return 0;
}
