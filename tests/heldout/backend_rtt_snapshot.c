/*
 * backend_rtt_snapshot.c - load balancer backend table.
 *
 * Request threads pick a backend by copying its whole entry under the pool
 * lock.  The health checker only updates the round-trip-time field and,
 * treating it as "just a statistic", writes it without the lock, so the
 * struct copy can read it while it is being stored.
 *
 * Racing pair:
 *   W :83 be->last_rtt_us = rtt in health_check() (no lock) /
 *   R :56 snap = p->be[i] struct copy in pick_backend() (under pool lock)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <time.h>

struct backend {
    char host[24];
    int weight;
    int active;
    long last_rtt_us;
};

struct pool {
    pthread_mutex_t lock;
    struct backend be[2];
};

static struct pool pool = {
    PTHREAD_MUTEX_INITIALIZER,
    { { "10.2.0.11:8080", 3, 0, 900 }, { "10.2.0.12:8080", 1, 0, 900 } },
};

static void sleep_us(long us)
{
    struct timespec ts = { us / 1000000L, (us % 1000000L) * 1000L };
    nanosleep(&ts, NULL);
}

static long now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000L + ts.tv_nsec / 1000L;
}

/* weighted least-connections over a consistent copy of each entry */
static int pick_backend(struct pool *p, struct backend *out)
{
    int best = -1;
    long best_score = 0;

    pthread_mutex_lock(&p->lock);
    for (int i = 0; i < 2; i++) {
        struct backend snap = p->be[i];
        long score = (snap.active + 1) * 1000L / snap.weight + snap.last_rtt_us / 100;
        if (best < 0 || score < best_score) {
            best = i;
            best_score = score;
            *out = snap;
        }
    }
    p->be[best].active++;
    pthread_mutex_unlock(&p->lock);
    return best;
}

static void release_backend(struct pool *p, int i)
{
    pthread_mutex_lock(&p->lock);
    p->be[i].active--;
    pthread_mutex_unlock(&p->lock);
}

static void *health_check(void *arg)
{
    struct backend *be = arg;
    long t0 = now_us();

    sleep_us(800);                       /* TCP connect + GET /healthz */
    long rtt = now_us() - t0;
    be->last_rtt_us = rtt;
    return NULL;
}

static void *serve_requests(void *arg)
{
    int *served = arg;

    for (int r = 0; r < 4; r++) {
        struct backend chosen;
        int i = pick_backend(&pool, &chosen);
        sleep_us(400);                   /* proxy the request to chosen.host */
        release_backend(&pool, i);
        (*served)++;
    }
    return NULL;
}

int main(void)
{
    pthread_t checker, worker;
    int served = 0;

    if (pthread_create(&worker, NULL, serve_requests, &served) != 0)
        return 1;
    if (pthread_create(&checker, NULL, health_check, &pool.be[1]) != 0)
        return 1;
    pthread_join(checker, NULL);
    pthread_join(worker, NULL);
    printf("served %d requests\n", served);
    return 0;
}
