/* RACE: job_result.c:44 (write, job worker thread: `j->elapsed_us = now_us() - t0 + 1`) vs job_result.c:66 (read, main/waiter thread: `long us = job.elapsed_us`) */
/*
 * Offloading a thumbnail render to a worker thread.  The worker publishes
 * the result and wakes the waiter under the job lock, then records how
 * long the job took as an afterthought -- outside the lock.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <time.h>

struct job {
    pthread_mutex_t lock;
    pthread_cond_t  cv;
    int             done;                   /* guarded by lock */
    unsigned        checksum;               /* guarded by lock */
    long            elapsed_us;
    int             width, height;
};

static long now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}

static void *render_thumbnail(void *arg)
{
    struct job *j = arg;
    long t0 = now_us();
    unsigned sum = 0;

    for (int y = 0; y < j->height; y++)
        for (int x = 0; x < j->width; x++)
            sum = sum * 31 + (unsigned)((x * 3 + y * 5) & 0xff);

    pthread_mutex_lock(&j->lock);
    j->checksum = sum;
    j->done = 1;
    pthread_cond_signal(&j->cv);
    pthread_mutex_unlock(&j->lock);

    j->elapsed_us = now_us() - t0 + 1;
    return NULL;
}

int main(void)
{
    struct job job = {
        .lock = PTHREAD_MUTEX_INITIALIZER,
        .cv = PTHREAD_COND_INITIALIZER,
        .elapsed_us = -1,
        .width = 320, .height = 240,
    };
    pthread_t worker;

    pthread_create(&worker, NULL, render_thumbnail, &job);

    pthread_mutex_lock(&job.lock);
    while (!job.done)
        pthread_cond_wait(&job.cv, &job.lock);
    unsigned sum = job.checksum;
    pthread_mutex_unlock(&job.lock);

    long us = job.elapsed_us;
    printf("thumbnail %dx%d checksum %08x (%s)\n", job.width, job.height,
           sum, us >= 0 ? "timed" : "untimed");

    pthread_join(worker, NULL);
    return 0;
}
