/*
 * d08_pool_stats.c -- a fixed-size thread pool (three workers) runs thumbnail
 * jobs from a queue protected by pool->lock.  Workers account the input bytes
 * while they still hold the queue lock, but bump the completed-task counter
 * after running the task, when the lock has already been dropped.  Two
 * workers finishing tasks at about the same time race on that counter.
 *
 * RACE: d08_pool_stats.c:67 (read-modify-write, pool worker after a task: `pool->stats.tasks_done++;`) vs d08_pool_stats.c:67 (read-modify-write, another pool worker: `pool->stats.tasks_done++;`)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NWORKERS 3
#define QUEUE_CAP 32

struct task {
    void (*fn)(void *arg);
    void *arg;
    size_t in_bytes;
};

struct pool_stats {
    unsigned long tasks_done;
    unsigned long long bytes_in;
};

struct pool {
    pthread_mutex_t lock;
    pthread_cond_t nonempty;
    struct task queue[QUEUE_CAP];
    int head, count;
    int shutting_down;
    struct pool_stats stats;
    pthread_t workers[NWORKERS];
};

struct thumb_job {
    int width, height;
    uint32_t checksum;
};

static void *worker_main(void *arg)
{
    struct pool *pool = arg;

    for (;;) {
        struct task t;

        pthread_mutex_lock(&pool->lock);
        while (pool->count == 0 && !pool->shutting_down)
            pthread_cond_wait(&pool->nonempty, &pool->lock);
        if (pool->count == 0) {
            pthread_mutex_unlock(&pool->lock);
            break;
        }
        t = pool->queue[pool->head];
        pool->head = (pool->head + 1) % QUEUE_CAP;
        pool->count--;
        pool->stats.bytes_in += t.in_bytes;
        pthread_mutex_unlock(&pool->lock);

        t.fn(t.arg);
        pool->stats.tasks_done++;
    }
    return NULL;
}

static struct pool *pool_create(void)
{
    struct pool *pool = calloc(1, sizeof(*pool));

    if (pool == NULL)
        return NULL;
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->nonempty, NULL);
    for (int i = 0; i < NWORKERS; i++)
        pthread_create(&pool->workers[i], NULL, worker_main, pool);
    return pool;
}

static int pool_submit(struct pool *pool, void (*fn)(void *), void *arg, size_t in_bytes)
{
    int ok = 0;

    pthread_mutex_lock(&pool->lock);
    if (pool->count < QUEUE_CAP) {
        struct task *t = &pool->queue[(pool->head + pool->count) % QUEUE_CAP];
        t->fn = fn;
        t->arg = arg;
        t->in_bytes = in_bytes;
        pool->count++;
        pthread_cond_signal(&pool->nonempty);
        ok = 1;
    }
    pthread_mutex_unlock(&pool->lock);
    return ok;
}

static void pool_destroy(struct pool *pool, struct pool_stats *final)
{
    pthread_mutex_lock(&pool->lock);
    pool->shutting_down = 1;
    pthread_cond_broadcast(&pool->nonempty);
    pthread_mutex_unlock(&pool->lock);
    for (int i = 0; i < NWORKERS; i++)
        pthread_join(pool->workers[i], NULL);
    *final = pool->stats;
    pthread_cond_destroy(&pool->nonempty);
    pthread_mutex_destroy(&pool->lock);
    free(pool);
}

static void make_thumbnail(void *arg)
{
    struct thumb_job *j = arg;
    struct timespec io = { 0, 300 * 1000L };   /* read the source image */
    uint32_t h = 0;

    nanosleep(&io, NULL);
    for (int y = 0; y < j->height / 8; y++)
        for (int x = 0; x < j->width / 8; x++)
            h = h * 31u + (uint32_t)(x ^ y);
    j->checksum = h;
}

int main(void)
{
    static struct thumb_job jobs[9];
    struct pool *pool = pool_create();
    struct pool_stats st;
    uint32_t sum = 0;

    if (pool == NULL)
        return 1;
    for (int i = 0; i < 9; i++) {
        jobs[i].width = 640 + 64 * i;
        jobs[i].height = 480 + 48 * i;
        pool_submit(pool, make_thumbnail, &jobs[i], (size_t)jobs[i].width * jobs[i].height * 3);
    }
    pool_destroy(pool, &st);
    for (int i = 0; i < 9; i++)
        sum ^= jobs[i].checksum;
    printf("pool: %lu tasks, %llu bytes in, checksum %08x\n", st.tasks_done, st.bytes_in, (unsigned)sum);
    return 0;
}
