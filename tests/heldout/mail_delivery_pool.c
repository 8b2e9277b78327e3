/*
 * mail_delivery_pool.c - outbound SMTP delivery pool of a mail relay.
 *
 * Queued messages are handed to two delivery workers through a mutex and
 * condition variable.  After a delivery the worker bumps the pool's
 * statistics counter - outside the queue lock, since the lock "is only for
 * the queue".
 *
 * Racing pair:
 *   RW :65 pool->delivered++ in delivery_worker() (worker 0) /
 *   RW :65 pool->delivered++ in delivery_worker() (worker 1)
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#define NWORKERS 2
#define QCAP 16

struct message {
    const char *rcpt;
    int size_kb;
};

struct delivery_pool {
    pthread_mutex_t lock;
    pthread_cond_t ready;
    struct message queue[QCAP];
    int head, tail;          /* guarded by lock */
    int closed;              /* guarded by lock */
    unsigned long delivered; /* statistics */
    pthread_t workers[NWORKERS];
};

static void sleep_us(long us)
{
    struct timespec ts = { us / 1000000L, (us % 1000000L) * 1000L };
    nanosleep(&ts, NULL);
}

static int smtp_send(const struct message *m)
{
    /* connect, EHLO, MAIL FROM, RCPT TO, DATA ... */
    sleep_us(800 + m->size_kb);
    return 250;
}

static void *delivery_worker(void *arg)
{
    struct delivery_pool *pool = arg;

    for (;;) {
        pthread_mutex_lock(&pool->lock);
        while (pool->head == pool->tail && !pool->closed)
            pthread_cond_wait(&pool->ready, &pool->lock);
        if (pool->head == pool->tail) {
            pthread_mutex_unlock(&pool->lock);
            break;
        }
        struct message m = pool->queue[pool->head++ % QCAP];
        pthread_mutex_unlock(&pool->lock);

        if (smtp_send(&m) == 250)
            pool->delivered++;
    }
    return NULL;
}

static void pool_enqueue(struct delivery_pool *pool, const char *rcpt, int kb)
{
    pthread_mutex_lock(&pool->lock);
    pool->queue[pool->tail % QCAP].rcpt = rcpt;
    pool->queue[pool->tail % QCAP].size_kb = kb;
    pool->tail++;
    pthread_cond_signal(&pool->ready);
    pthread_mutex_unlock(&pool->lock);
}

int main(void)
{
    static struct delivery_pool pool = {
        .lock = PTHREAD_MUTEX_INITIALIZER,
        .ready = PTHREAD_COND_INITIALIZER,
    };
    static const char *rcpts[] = {
        "ops@example.org", "billing@example.com", "alice@example.net", "bob@example.io",
    };

    for (int i = 0; i < NWORKERS; i++)
        if (pthread_create(&pool.workers[i], NULL, delivery_worker, &pool) != 0)
            return 1;
    for (int i = 0; i < 4; i++)
        pool_enqueue(&pool, rcpts[i], 10 * (i + 1));

    pthread_mutex_lock(&pool.lock);
    pool.closed = 1;
    pthread_cond_broadcast(&pool.ready);
    pthread_mutex_unlock(&pool.lock);
    for (int i = 0; i < NWORKERS; i++)
        pthread_join(pool.workers[i], NULL);

    printf("relay: %lu message(s) delivered\n", pool.delivered);
    return 0;
}
