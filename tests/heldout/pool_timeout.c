/* A tiny database connection pool: callers borrow a connection, waiting
 * up to a deadline; broken connections are counted as failures. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

struct pool {
    pthread_mutex_t lock;
    pthread_cond_t avail;
    int idle;                    /* idle connections */
    unsigned long borrowed;      /* statistics, under lock */
    unsigned long failures;
};

static struct pool db = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .avail = PTHREAD_COND_INITIALIZER,
    .idle = 1,
};

static int pool_get(struct pool *p, int wait_ms)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += wait_ms * 1000000L;
    while (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&p->lock);
    while (p->idle == 0) {
        if (pthread_cond_timedwait(&p->avail, &p->lock, &ts) == ETIMEDOUT) {
            pthread_mutex_unlock(&p->lock);
            p->failures++;               /* timed out waiting for a connection */
            return -ETIMEDOUT;
        }
    }
    p->idle--;
    p->borrowed++;
    pthread_mutex_unlock(&p->lock);
    return 0;
}

static void pool_put(struct pool *p, int broken)
{
    pthread_mutex_lock(&p->lock);
    if (broken)
        p->failures++;
    p->idle++;
    pthread_cond_signal(&p->avail);
    pthread_mutex_unlock(&p->lock);
}

static void *health_probe(void *arg)
{
    int *ok = arg;
    *ok = pool_get(&db, 1) == 0;         /* probes give up quickly */
    if (*ok)
        pool_put(&db, 0);
    return NULL;
}

int main(void)
{
    pthread_t probe;
    int probe_ok = 0;

    /* Start-up: the schema migration runs on the pool's connection while
     * the health endpoint already answers probes. */
    if (pool_get(&db, 50) != 0)
        return 1;
    pthread_create(&probe, NULL, health_probe, &probe_ok);
    usleep(3000);                        /* long migration query */
    pool_put(&db, 1);                    /* server closed the connection */
    pthread_join(probe, NULL);
    printf("pool idle %d\n", db.idle);
    return 0;
}
