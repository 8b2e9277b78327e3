/* compress_task_timing.c -- timing field written after the atomic "done".
 *
 * Three compression tasks run on their own threads.  Each publishes its
 * output size and then sets an atomic done flag (release); the main thread
 * polls the flags (acquire) to drive a progress display and collects each
 * result as soon as its flag is seen.  The per-task wall time is stored
 * after the flag is raised, so main may read it too early.
 *
 * RACE: compress_task_timing.c:63 (write, task: `t->elapsed_us = ...;`
 *       after the release store) vs compress_task_timing.c:90 (read,
 *       main: `long us = tasks[i].elapsed_us;`)
 */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define NTASKS 3
#define INPUT_LEN 6000

struct task {
    const unsigned char *in;
    size_t in_len;
    size_t out_len;
    long elapsed_us;
    atomic_int done;
};

static unsigned char input[NTASKS][INPUT_LEN];

static long now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}

/* run-length encode, count the output bytes only */
static size_t rle_size(const unsigned char *p, size_t n)
{
    size_t out = 0;
    for (size_t i = 0; i < n;) {
        size_t run = 1;
        while (i + run < n && p[i + run] == p[i] && run < 255)
            run++;
        out += 2;
        i += run;
    }
    return out;
}

static void *compress_task(void *arg)
{
    struct task *t = arg;
    long start = now_us();

    t->out_len = rle_size(t->in, t->in_len);
    usleep(500);                        /* flush to the output file */
    atomic_store_explicit(&t->done, 1, memory_order_release);
    t->elapsed_us = now_us() - start;
    return NULL;
}

int main(void)
{
    struct task *tasks = calloc(NTASKS, sizeof *tasks);
    pthread_t th[NTASKS];

    for (int i = 0; i < NTASKS; i++) {
        for (int j = 0; j < INPUT_LEN; j++)
            input[i][j] = (unsigned char)((j / (4 + 3 * i)) & 0xff);
        tasks[i] = (struct task){ .in = input[i], .in_len = INPUT_LEN };
        atomic_init(&tasks[i].done, 0);
        pthread_create(&th[i], NULL, compress_task, &tasks[i]);
    }

    size_t total_out = 0;
    long slowest_us = 0;
    int collected[NTASKS] = { 0 }, ncollected = 0;
    while (ncollected < NTASKS) {
        for (int i = 0; i < NTASKS; i++) {
            if (collected[i] || !atomic_load_explicit(&tasks[i].done, memory_order_acquire))
                continue;
            collected[i] = 1;
            ncollected++;
            total_out += tasks[i].out_len;
            long us = tasks[i].elapsed_us;
            if (us > slowest_us)
                slowest_us = us;
        }
        if (ncollected < NTASKS)
            usleep(100);
    }
    for (int i = 0; i < NTASKS; i++)
        pthread_join(th[i], NULL);
    free(tasks);

    printf("compressed %d inputs into %zu bytes, slowest %ld us\n", NTASKS, total_out,
           slowest_us);
    return 0;
}
