/* thumbnail_pool_stats.c -- thread-pool statistics bumped outside the queue lock.
 *
 * A minimal fixed-size thread pool: tasks are pushed and popped under
 * pool->lock; the workers then run the task and account for it in the
 * pool statistics after the lock has been dropped.
 *
 * RACE: thumbnail_pool_stats.c:56 (read+write `pool->stats.completed++;` in one
 *       worker) vs the same line thumbnail_pool_stats.c:56 in the other worker.
 */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define QCAP 16
#define NWORKERS 2

struct task {
    void (*fn)(void *);
    void *arg;
};

struct pool_stats {
    unsigned long submitted;
    unsigned long completed;
};

struct pool {
    pthread_mutex_t lock;
    pthread_cond_t cv;
    struct task q[QCAP];
    int head, tail, count;
    int shutdown;
    struct pool_stats stats;
    pthread_t workers[NWORKERS];
};

static void *worker_main(void *arg)
{
    struct pool *pool = arg;
    for (;;) {
        pthread_mutex_lock(&pool->lock);
        while (pool->count == 0 && !pool->shutdown)
            pthread_cond_wait(&pool->cv, &pool->lock);
        if (pool->count == 0) {
            pthread_mutex_unlock(&pool->lock);
            return NULL;
        }
        struct task t = pool->q[pool->head];
        pool->head = (pool->head + 1) % QCAP;
        pool->count--;
        pthread_mutex_unlock(&pool->lock);

        t.fn(t.arg);
        pool->stats.completed++;
    }
}

static void pool_start(struct pool *pool)
{
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->cv, NULL);
    for (int i = 0; i < NWORKERS; i++)
        pthread_create(&pool->workers[i], NULL, worker_main, pool);
}

static int pool_submit(struct pool *pool, void (*fn)(void *), void *arg)
{
    pthread_mutex_lock(&pool->lock);
    if (pool->count == QCAP) {
        pthread_mutex_unlock(&pool->lock);
        return -1;
    }
    pool->q[pool->tail] = (struct task){ fn, arg };
    pool->tail = (pool->tail + 1) % QCAP;
    pool->count++;
    pool->stats.submitted++;
    pthread_cond_signal(&pool->cv);
    pthread_mutex_unlock(&pool->lock);
    return 0;
}

static void pool_stop(struct pool *pool)
{
    pthread_mutex_lock(&pool->lock);
    pool->shutdown = 1;
    pthread_cond_broadcast(&pool->cv);
    pthread_mutex_unlock(&pool->lock);
    for (int i = 0; i < NWORKERS; i++)
        pthread_join(pool->workers[i], NULL);
    pthread_cond_destroy(&pool->cv);
    pthread_mutex_destroy(&pool->lock);
}

/* --- application: resize thumbnails --- */

struct thumb {
    int w, h;
    int out_w, out_h;
};

static void make_thumbnail(void *arg)
{
    struct thumb *t = arg;
    usleep(700);                       /* decode + scale */
    t->out_w = 128;
    t->out_h = t->h * 128 / t->w;
}

int main(void)
{
    static struct pool pool;
    struct thumb jobs[8];

    pool_start(&pool);
    for (int i = 0; i < 8; i++) {
        jobs[i] = (struct thumb){ .w = 640 + 64 * i, .h = 480 };
        pool_submit(&pool, make_thumbnail, &jobs[i]);
    }
    pool_stop(&pool);

    int tall = 0;
    for (int i = 0; i < 8; i++)
        tall += jobs[i].out_h > 80;
    printf("%lu/%lu thumbnails done, %d taller than 80px\n",
           pool.stats.completed, pool.stats.submitted, tall);
    return 0;
}
