/* Session store with a cached clock: a ticker thread refreshes the
 * current time every millisecond so that hot paths need no syscall. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static unsigned long long g_now_ms;       /* refreshed by the ticker */
static atomic_int ticker_running = 1;

struct session {
    int id;
    unsigned long long last_used_ms;
    int hits;
};

static struct session sessions[4];
static pthread_mutex_t sess_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned long long clock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void *ticker(void *arg)
{
    (void)arg;
    while (atomic_load(&ticker_running)) {
        usleep(1000);
        g_now_ms = clock_ms();
    }
    return NULL;
}

static void session_touch(int id)
{
    pthread_mutex_lock(&sess_lock);
    struct session *s = &sessions[id % 4];
    s->id = id;
    s->hits++;
    s->last_used_ms = g_now_ms;
    pthread_mutex_unlock(&sess_lock);
}

static void *frontend(void *arg)
{
    static const int ids[] = { 1, 2, 1, 3 };
    int *served = arg;
    for (int i = 0; i < 4; i++) {
        usleep(700);                      /* next request arrives */
        session_touch(ids[i]);
        (*served)++;
    }
    return NULL;
}

int main(void)
{
    pthread_t tk, fe;
    int served = 0;

    g_now_ms = clock_ms();
    pthread_create(&tk, NULL, ticker, NULL);
    pthread_create(&fe, NULL, frontend, &served);
    pthread_join(fe, NULL);
    atomic_store(&ticker_running, 0);
    pthread_join(tk, NULL);

    /* expiry sweep: sessions idle for a minute are dropped */
    unsigned long long now = clock_ms();
    int hits = 0, expired = 0;
    for (int i = 0; i < 4; i++) {
        hits += sessions[i].hits;
        if (sessions[i].hits && now - sessions[i].last_used_ms > 60000)
            expired++;
    }
    printf("served %d requests, %d hits, %d expired\n", served, hits, expired);
    return 0;
}
