/* cache_warm_ready.c -- "ready" flag set once by a cache warmer.
 *
 * Two request workers block on a job queue (mutex + condvar).  For every job
 * they check whether the price cache has been warmed; if so they look the key
 * up in the cache (under cache_lock), otherwise they take the slow path.
 * The warmer fills the cache under cache_lock but raises the plain flag
 * after dropping the lock.
 *
 * RACE: cache_warm_ready.c:52 (write, warmer: `cache_ready = 1;`)
 *   vs  cache_warm_ready.c:72 (read, worker: `if (cache_ready) {`)
 */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define NKEYS 64
#define NJOBS 16

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static long cache[NKEYS];
static int cache_ready;

static struct {
    pthread_mutex_t lock;
    pthread_cond_t nonempty;
    int keys[NJOBS];
    int head, tail;
    int closed;
    long sum;
    int hits;
} q = { .lock = PTHREAD_MUTEX_INITIALIZER, .nonempty = PTHREAD_COND_INITIALIZER };

static long slow_price(int key)
{
    usleep(300);                       /* pretend to hit the database */
    return 100 + 7L * key;
}

static void *warmer_main(void *arg)
{
    (void)arg;
    long tmp[NKEYS];
    for (int k = 0; k < NKEYS; k++)
        tmp[k] = 100 + 7L * k;
    usleep(1500);                      /* bulk load from the database */

    pthread_mutex_lock(&cache_lock);
    for (int k = 0; k < NKEYS; k++)
        cache[k] = tmp[k];
    pthread_mutex_unlock(&cache_lock);
    cache_ready = 1;
    return NULL;
}

static void *worker_main(void *arg)
{
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&q.lock);
        while (q.head == q.tail && !q.closed)
            pthread_cond_wait(&q.nonempty, &q.lock);
        if (q.head == q.tail) {
            pthread_mutex_unlock(&q.lock);
            break;
        }
        int key = q.keys[q.head++];
        pthread_mutex_unlock(&q.lock);

        long price;
        int hit = 0;
        if (cache_ready) {
            pthread_mutex_lock(&cache_lock);
            price = cache[key];
            pthread_mutex_unlock(&cache_lock);
            hit = 1;
        } else {
            price = slow_price(key);
        }

        pthread_mutex_lock(&q.lock);
        q.sum += price;
        q.hits += hit;
        pthread_mutex_unlock(&q.lock);
    }
    return NULL;
}

int main(void)
{
    pthread_t warmer, workers[2];

    pthread_create(&warmer, NULL, warmer_main, NULL);
    for (int i = 0; i < 2; i++)
        pthread_create(&workers[i], NULL, worker_main, NULL);

    for (int j = 0; j < NJOBS; j++) {
        pthread_mutex_lock(&q.lock);
        q.keys[q.tail++] = (j * 13) % NKEYS;
        pthread_cond_signal(&q.nonempty);
        pthread_mutex_unlock(&q.lock);
        usleep(250);                   /* requests trickle in */
    }
    pthread_mutex_lock(&q.lock);
    q.closed = 1;
    pthread_cond_broadcast(&q.nonempty);
    pthread_mutex_unlock(&q.lock);

    for (int i = 0; i < 2; i++)
        pthread_join(workers[i], NULL);
    pthread_join(warmer, NULL);

    printf("answered %d requests, total %ld\n", NJOBS, q.sum);
    return 0;
}
