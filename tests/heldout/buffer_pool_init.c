/* buffer_pool_init.c -- lazily initialised buffer pool.
 *
 * The pool is set up on first use.  pool_get()/pool_put() hold pool.lock,
 * but ensure_pool() "optimises" the common case by testing pool.inited
 * without the lock.  Three connection threads start together and each grabs
 * buffers.  The pool contents are only touched under the lock; the flag is
 * the only thing accessed outside it.
 *
 * RACE: buffer_pool_init.c:45 (write, `pool.inited = 1;` under lock)
 *   vs  buffer_pool_init.c:36 (read, unlocked `if (pool.inited)`)
 */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define POOL_BUFS 8
#define BUF_SIZE 2048

struct buf {
    struct buf *next;
    char data[BUF_SIZE];
};

static struct {
    pthread_mutex_t lock;
    int inited;
    struct buf *free_list;
    struct buf *storage;
    int in_use, peak;
} pool = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void ensure_pool(void)
{
    if (pool.inited)
        return;
    pthread_mutex_lock(&pool.lock);
    if (!pool.inited) {
        pool.storage = calloc(POOL_BUFS, sizeof(struct buf));
        for (int i = 0; i < POOL_BUFS; i++) {
            pool.storage[i].next = pool.free_list;
            pool.free_list = &pool.storage[i];
        }
        pool.inited = 1;
    }
    pthread_mutex_unlock(&pool.lock);
}

static struct buf *pool_get(void)
{
    ensure_pool();
    pthread_mutex_lock(&pool.lock);
    struct buf *b = pool.free_list;
    if (b) {
        pool.free_list = b->next;
        if (++pool.in_use > pool.peak)
            pool.peak = pool.in_use;
    }
    pthread_mutex_unlock(&pool.lock);
    return b;
}

static void pool_put(struct buf *b)
{
    pthread_mutex_lock(&pool.lock);
    b->next = pool.free_list;
    pool.free_list = b;
    pool.in_use--;
    pthread_mutex_unlock(&pool.lock);
}

static void *connection_main(void *arg)
{
    int id = (int)(long)arg;
    for (int msg = 0; msg < 3; msg++) {
        struct buf *b = pool_get();
        if (!b)
            continue;
        snprintf(b->data, sizeof b->data, "conn %d msg %d", id, msg);
        usleep(200);                   /* wait for the socket to drain */
        pool_put(b);
    }
    return NULL;
}

int main(void)
{
    pthread_t th[3];
    for (long i = 0; i < 3; i++)
        pthread_create(&th[i], NULL, connection_main, (void *)i);
    for (int i = 0; i < 3; i++)
        pthread_join(th[i], NULL);
    printf("pool peak usage %d of %d buffers\n", pool.peak, POOL_BUFS);
    free(pool.storage);
    return 0;
}
