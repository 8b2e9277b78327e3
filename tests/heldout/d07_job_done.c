/*
 * d07_job_done.c -- a background compression job: main hands a buffer to a
 * worker thread and blocks in job_wait() until the job is marked done
 * (mutex + condition variable).  The worker marks the job done and wakes the
 * waiter, and only afterwards records the compressed length in job->out_len,
 * which the waiter reads as soon as it wakes up (the thread is joined later,
 * when the job object is torn down).
 *
 * RACE: d07_job_done.c:75 (write, worker thread after job_complete(): `job->out_len = n;`) vs d07_job_done.c:120 (read, main thread after job_wait(): `size_t out_len = job->out_len;`)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct job {
    pthread_mutex_t lock;
    pthread_cond_t done_cv;
    int done;
    int status;
    const unsigned char *in;
    size_t in_len;
    unsigned char *out;
    size_t out_cap;
    size_t out_len;
    pthread_t thread;
};

/* Byte-oriented run-length encoding: (count, byte) pairs. */
static size_t rle_encode(const unsigned char *in, size_t n, unsigned char *out, size_t cap)
{
    size_t o = 0;

    for (size_t i = 0; i < n;) {
        size_t run = 1;
        while (i + run < n && in[i + run] == in[i] && run < 255)
            run++;
        if (o + 2 > cap)
            return 0;
        out[o++] = (unsigned char)run;
        out[o++] = in[i];
        i += run;
    }
    return o;
}

static void job_complete(struct job *job, int status)
{
    pthread_mutex_lock(&job->lock);
    job->status = status;
    job->done = 1;
    pthread_cond_broadcast(&job->done_cv);
    pthread_mutex_unlock(&job->lock);
}

static int job_wait(struct job *job)
{
    int status;

    pthread_mutex_lock(&job->lock);
    while (!job->done)
        pthread_cond_wait(&job->done_cv, &job->lock);
    status = job->status;
    pthread_mutex_unlock(&job->lock);
    return status;
}

static void *compress_worker(void *arg)
{
    struct job *job = arg;
    size_t n = rle_encode(job->in, job->in_len, job->out, job->out_cap);

    job_complete(job, n == 0 ? -1 : 0);
    job->out_len = n;
    return NULL;
}

static struct job *job_start(const unsigned char *in, size_t len)
{
    struct job *job = calloc(1, sizeof(*job));

    if (job == NULL)
        return NULL;
    job->out_cap = 2 * len;
    job->out = malloc(job->out_cap);
    if (job->out == NULL) {
        free(job);
        return NULL;
    }
    pthread_mutex_init(&job->lock, NULL);
    pthread_cond_init(&job->done_cv, NULL);
    job->in = in;
    job->in_len = len;
    pthread_create(&job->thread, NULL, compress_worker, job);
    return job;
}

static void job_free(struct job *job)
{
    pthread_join(job->thread, NULL);
    pthread_cond_destroy(&job->done_cv);
    pthread_mutex_destroy(&job->lock);
    free(job->out);
    free(job);
}

int main(void)
{
    static unsigned char bitmap[64 * 1024];

    /* a mostly-blank scan line image */
    for (size_t i = 0; i < sizeof(bitmap); i++)
        bitmap[i] = (i % 640 < 600) ? 0xff : (unsigned char)(i / 640);

    struct job *job = job_start(bitmap, sizeof(bitmap));
    if (job == NULL)
        return 1;
    int status = job_wait(job);
    size_t out_len = job->out_len;
    if (status == 0)
        printf("compressed %zu bytes -> %zu bytes\n", job->in_len, out_len);
    else
        printf("compression failed\n");
    job_free(job);
    return 0;
}
