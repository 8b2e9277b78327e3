/* RACE: c05_signal_then_write.c:55 (write) vs c05_signal_then_write.c:86 (read) */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rle_job {
    const unsigned char *in;
    size_t in_len;
    unsigned char *out;
    size_t out_len;
    uint32_t out_sum; /* adler32 of the encoded stream */
    int done;         /* protected by lock */
    pthread_mutex_t lock;
    pthread_cond_t cv;
};

static size_t rle_encode(const unsigned char *in, size_t n, unsigned char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t run = 1;
        while (i + run < n && in[i + run] == in[i] && run < 255)
            run++;
        out[o++] = (unsigned char)run;
        out[o++] = in[i];
        i += run;
    }
    return o;
}

static uint32_t adler32(const unsigned char *p, size_t n)
{
    uint32_t a = 1, b = 0;
    while (n--) {
        a = (a + *p++) % 65521;
        b = (b + a) % 65521;
    }
    return (b << 16) | a;
}

static void *encoder(void *arg)
{
    struct rle_job *j = arg;
    size_t n = rle_encode(j->in, j->in_len, j->out);

    pthread_mutex_lock(&j->lock);
    j->out_len = n;
    j->done = 1;
    pthread_cond_signal(&j->cv);
    pthread_mutex_unlock(&j->lock);

    j->out_sum = adler32(j->out, n);
    return NULL;
}

int main(void)
{
    size_t n = 16384;
    unsigned char *img = malloc(n);
    struct rle_job *job = calloc(1, sizeof *job);
    pthread_t th;

    if (!img || !job)
        return 1;
    /* a fake 128x128 scanline image with long flat runs */
    for (size_t i = 0; i < n; i++)
        img[i] = (unsigned char)(((i % 128) / 24) * 40 + ((i / 128) % 7 == 0 ? 3 : 0));

    job->in = img;
    job->in_len = n;
    job->out = malloc(2 * n);
    if (!job->out)
        return 1;
    pthread_mutex_init(&job->lock, NULL);
    pthread_cond_init(&job->cv, NULL);
    pthread_create(&th, NULL, encoder, job);

    pthread_mutex_lock(&job->lock);
    while (!job->done)
        pthread_cond_wait(&job->cv, &job->lock);
    pthread_mutex_unlock(&job->lock);

    uint32_t sum = job->out_sum;
    printf("encoded %zu -> %zu bytes (%.1f%%), adler32=%08x\n", job->in_len, job->out_len,
           100.0 * (double)job->out_len / (double)job->in_len, sum);

    pthread_join(th, NULL);
    pthread_mutex_destroy(&job->lock);
    pthread_cond_destroy(&job->cv);
    free(job->out);
    free(img);
    free(job);
    return 0;
}
