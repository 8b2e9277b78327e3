/* A background checksum service: one worker thread takes jobs from a
 * queue; the submitter waits for a job with job_wait(). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct job {
    const unsigned char *data;
    size_t len;
    unsigned long sum;          /* result, written by the worker */
    int done;                   /* under svc.lock */
    struct job *next;
};

static struct {
    pthread_mutex_t lock;
    pthread_cond_t cv;
    struct job *queue;
    int quit;
} svc = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, 0 };

static unsigned long adler(const unsigned char *p, size_t n)
{
    unsigned long a = 1, b = 0;
    for (size_t i = 0; i < n; i++) {
        a = (a + p[i]) % 65521;
        b = (b + a) % 65521;
    }
    return (b << 16) | a;
}

static void *checksum_worker(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&svc.lock);
    for (;;) {
        while (!svc.queue && !svc.quit)
            pthread_cond_wait(&svc.cv, &svc.lock);
        if (!svc.queue)
            break;
        struct job *j = svc.queue;
        svc.queue = j->next;
        pthread_mutex_unlock(&svc.lock);
        j->sum = adler(j->data, j->len);
        pthread_mutex_lock(&svc.lock);
        j->done = 1;
        pthread_cond_broadcast(&svc.cv);
    }
    pthread_mutex_unlock(&svc.lock);
    return NULL;
}

static void job_submit(struct job *j)
{
    pthread_mutex_lock(&svc.lock);
    j->next = svc.queue;
    svc.queue = j;
    pthread_cond_broadcast(&svc.cv);
    pthread_mutex_unlock(&svc.lock);
}

static unsigned long job_wait(struct job *j)
{
    unsigned long sum = j->sum;         /* already finished? skip the lock */
    if (sum == 0) {
        pthread_mutex_lock(&svc.lock);
        while (!j->done)
            pthread_cond_wait(&svc.cv, &svc.lock);
        sum = j->sum;
        pthread_mutex_unlock(&svc.lock);
    }
    return sum;
}

int main(void)
{
    pthread_t t;
    size_t len = 64 * 1024;

    pthread_create(&t, NULL, checksum_worker, NULL);
    unsigned char *buf = malloc(len);
    for (size_t i = 0; i < len; i++)
        buf[i] = (unsigned char)(i * 131 + 7);
    struct job *j = calloc(1, sizeof *j);
    j->data = buf;
    j->len = len;
    job_submit(j);

    /* while it runs, read the next block (here: wait, then generate it) */
    usleep(200);
    unsigned char *next = malloc(len);
    unsigned x = 12345;
    for (size_t i = 0; i < len; i++) {
        x = x * 1103515245u + 12345u;
        next[i] = (unsigned char)(x >> 16);
    }
    unsigned long sum = job_wait(j);

    pthread_mutex_lock(&svc.lock);
    svc.quit = 1;
    pthread_cond_broadcast(&svc.cv);
    pthread_mutex_unlock(&svc.lock);
    pthread_join(t, NULL);
    printf("adler32 %08lx next %02x\n", sum, next[len - 1]);
    free(next);
    free(buf);
    free(j);
    return 0;
}
