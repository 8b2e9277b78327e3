/*
 * backup_job_stats.c - backup runner waiting for a worker to finish.
 *
 * The worker publishes its result under the job lock and signals the
 * waiter, then - after unlocking - also stores how long the run took.  The
 * waiter wakes up, sees done == 1 and immediately checks the duration for
 * its "slow backup" warning.
 *
 * Racing pair:
 *   W :59 job->elapsed_ms = ... after signalling in backup_worker() /
 *   R :73 job->elapsed_ms > SLOW_MS check in wait_for_backup()
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define SLOW_MS 5000

struct backup_job {
    pthread_mutex_t lock;
    pthread_cond_t cv;
    const char *src;
    int done;                /* guarded by lock */
    long bytes;              /* guarded by lock */
    long elapsed_ms;
};

static void sleep_us(long us)
{
    struct timespec ts = { us / 1000000L, (us % 1000000L) * 1000L };
    nanosleep(&ts, NULL);
}

static long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static void *backup_worker(void *arg)
{
    struct backup_job *job = arg;
    long start = now_ms();
    long copied = 0;

    for (int f = 0; f < 3; f++) {
        sleep_us(300);                   /* copy one file to the target */
        copied += 64 * 1024;
    }

    pthread_mutex_lock(&job->lock);
    job->bytes = copied;
    job->done = 1;
    pthread_cond_signal(&job->cv);
    pthread_mutex_unlock(&job->lock);
    job->elapsed_ms = now_ms() - start;
    return NULL;
}

static long wait_for_backup(struct backup_job *job)
{
    long bytes;

    pthread_mutex_lock(&job->lock);
    while (!job->done)
        pthread_cond_wait(&job->cv, &job->lock);
    bytes = job->bytes;
    pthread_mutex_unlock(&job->lock);

    if (job->elapsed_ms > SLOW_MS)
        fprintf(stderr, "warning: backup of %s was slow\n", job->src);
    return bytes;
}

int main(void)
{
    struct backup_job *job = calloc(1, sizeof *job);
    pthread_t tid;

    if (!job)
        return 1;
    pthread_mutex_init(&job->lock, NULL);
    pthread_cond_init(&job->cv, NULL);
    job->src = "/home/projects";
    if (pthread_create(&tid, NULL, backup_worker, job) != 0)
        return 1;
    long bytes = wait_for_backup(job);
    printf("backup of %s finished: %ld KiB\n", job->src, bytes / 1024);
    pthread_join(tid, NULL);
    free(job);
    return 0;
}
