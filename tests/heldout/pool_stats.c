/* RACE: pool_stats.c:58 (write, pool worker thread: `g_stats.completed++`) vs pool_stats.c:58 (write, another pool worker thread: `g_stats.completed++`) */
/*
 * A fixed-size thread pool for image-resize tasks.  Submission and the
 * queue are protected by pool_lock; the "completed" statistic is bumped
 * by each worker after running a task, once the lock has been dropped.
 */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define NWORKERS 3
#define NTASKS   30
#define QCAP     64

struct task {
    void (*fn)(void *);
    void *arg;
};

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t  pool_cv = PTHREAD_COND_INITIALIZER;
static struct task     queue[QCAP];
static int             q_head, q_count, shutting_down;   /* pool_lock */

static struct {
    unsigned long submitted;                /* guarded by pool_lock */
    unsigned long completed;
} g_stats;

static void pool_submit(void (*fn)(void *), void *arg)
{
    pthread_mutex_lock(&pool_lock);
    queue[(q_head + q_count) % QCAP] = (struct task){ fn, arg };
    q_count++;
    g_stats.submitted++;
    pthread_cond_signal(&pool_cv);
    pthread_mutex_unlock(&pool_lock);
}

static void *pool_worker(void *arg)
{
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&pool_lock);
        while (q_count == 0 && !shutting_down)
            pthread_cond_wait(&pool_cv, &pool_lock);
        if (q_count == 0) {
            pthread_mutex_unlock(&pool_lock);
            return NULL;
        }
        struct task t = queue[q_head];
        q_head = (q_head + 1) % QCAP;
        q_count--;
        pthread_mutex_unlock(&pool_lock);

        t.fn(t.arg);
        g_stats.completed++;
    }
}

struct resize_job {
    int      w, h;
    unsigned digest;
};

static void resize_image(void *p)
{
    struct resize_job *j = p;
    unsigned d = 0;
    for (int i = 0; i < j->w * j->h / 64; i++)
        d = d * 2654435761u + (unsigned)i;
    usleep(300);                            /* write the thumbnail out */
    j->digest = d | 1;
}

int main(void)
{
    pthread_t workers[NWORKERS];
    struct resize_job jobs[NTASKS];

    for (int i = 0; i < NWORKERS; i++)
        pthread_create(&workers[i], NULL, pool_worker, NULL);

    for (int i = 0; i < NTASKS; i++) {
        jobs[i] = (struct resize_job){ 64 + i * 8, 48 + i * 6, 0 };
        pool_submit(resize_image, &jobs[i]);
    }

    pthread_mutex_lock(&pool_lock);
    shutting_down = 1;
    pthread_cond_broadcast(&pool_cv);
    pthread_mutex_unlock(&pool_lock);
    for (int i = 0; i < NWORKERS; i++)
        pthread_join(workers[i], NULL);

    int ok = 0;
    for (int i = 0; i < NTASKS; i++)
        ok += jobs[i].digest != 0;
    printf("pool: %lu submitted, %d resized\n", g_stats.submitted, ok);
    return g_stats.completed > 0 ? 0 : 1;
}
