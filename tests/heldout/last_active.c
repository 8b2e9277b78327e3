/* A sharded compression pool: each worker has its own mailbox (lock,
 * condvar, one pending job). The pool remembers when a worker last picked
 * up work, for the idle-shrink heuristic. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NWORKERS 2

struct job { unsigned char *buf; size_t len; unsigned long out; };

struct worker {
    pthread_t tid;
    pthread_mutex_t lock;
    pthread_cond_t cv;
    struct job *pending;
    int closing;
};

static struct {
    struct worker w[NWORKERS];
    long long last_active_ns;        /* for the idle-shrink heuristic */
} pool;

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static unsigned long rle_size(const unsigned char *p, size_t n)
{
    unsigned long runs = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || p[i] != p[i - 1])
            runs++;
    return runs * 2;
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    for (;;) {
        pthread_mutex_lock(&w->lock);
        while (!w->pending && !w->closing)
            pthread_cond_wait(&w->cv, &w->lock);
        struct job *j = w->pending;
        w->pending = NULL;
        pthread_mutex_unlock(&w->lock);
        if (!j)
            return NULL;

        pool.last_active_ns = now_ns();
        j->out = rle_size(j->buf, j->len);
    }
}

static void worker_post(struct worker *w, struct job *j, int closing)
{
    pthread_mutex_lock(&w->lock);
    if (j)
        w->pending = j;
    w->closing |= closing;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->lock);
}

int main(void)
{
    struct job jobs[NWORKERS];

    for (int i = 0; i < NWORKERS; i++) {
        pthread_mutex_init(&pool.w[i].lock, NULL);
        pthread_cond_init(&pool.w[i].cv, NULL);
        pthread_create(&pool.w[i].tid, NULL, worker_main, &pool.w[i]);
    }
    for (int i = 0; i < NWORKERS; i++) {
        jobs[i].len = 65536;
        jobs[i].buf = malloc(jobs[i].len);
        for (size_t k = 0; k < jobs[i].len; k++)
            jobs[i].buf[k] = (unsigned char)((k / (i + 3)) & 0xff);
    }
    for (int i = 0; i < NWORKERS; i++)
        worker_post(&pool.w[i], &jobs[i], 1);   /* last batch: drain, then exit */
    for (int i = 0; i < NWORKERS; i++)
        pthread_join(pool.w[i].tid, NULL);

    unsigned long total = 0;
    for (int i = 0; i < NWORKERS; i++) {
        total += jobs[i].out;
        free(jobs[i].buf);
        pthread_mutex_destroy(&pool.w[i].lock);
        pthread_cond_destroy(&pool.w[i].cv);
    }
    printf("compressed size %lu (last active %s)\n", total,
           pool.last_active_ns > 0 ? "set" : "unset");
    return 0;
}
