// Bug: thread-pool statistics updated outside the queue lock.  Workers pop
// a job under pool->lock, unlock, run it, and then count it:
//
//     pool->stats.completed++;	/* after pthread_mutex_unlock() */
//
// Two workers finishing jobs at the same time lose a count.
//
// TRIES: 20
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in pool_worker / pool_worker$
// EXPECT: ^(read|read-write) to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^(read|read-write) to 0x => ^ pool_worker\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*pool_stats\.c:72$
// EXPECT-FRAME: ^(write|read-write) to 0x => ^ pool_worker\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*pool_stats\.c:72$

#include <pthread.h>
#include <stdio.h>

#include "oneshot.h"

#define NWORKERS 3
#define QSIZE 64
#define NJOBS 48

struct job {
	void (*fn)(void *);
	void *arg;
};

struct pool {
	pthread_mutex_t lock;
	pthread_cond_t more;
	struct job queue[QSIZE];
	unsigned int head, tail;
	int shutdown;
	pthread_t threads[NWORKERS];
	struct {
		unsigned long submitted;
		unsigned long completed;
	} stats;
};

static void pool_submit(struct pool *pool, void (*fn)(void *), void *arg)
{
	pthread_mutex_lock(&pool->lock);
	pool->queue[pool->tail++ % QSIZE] = (struct job){ fn, arg };
	pool->stats.submitted++;
	pthread_cond_signal(&pool->more);
	pthread_mutex_unlock(&pool->lock);
}

NOINLINE void *pool_worker(void *arg)
{
	struct pool *pool = arg;
	struct job job;

	for (;;) {
		pthread_mutex_lock(&pool->lock);
		while (pool->head == pool->tail && !pool->shutdown)
			pthread_cond_wait(&pool->more, &pool->lock);
		if (pool->head == pool->tail) {
			pthread_mutex_unlock(&pool->lock);
			return NULL;
		}
		job = pool->queue[pool->head++ % QSIZE];
		pthread_mutex_unlock(&pool->lock);
		job.fn(job.arg);
#ifdef FIXED
		pthread_mutex_lock(&pool->lock);
		pool->stats.completed++;
		pthread_mutex_unlock(&pool->lock);
#else
		pool->stats.completed++;	/* racy: outside the lock */
#endif
	}
}

static void pool_start(struct pool *pool)
{
	int i;

	pthread_mutex_init(&pool->lock, NULL);
	pthread_cond_init(&pool->more, NULL);
	for (i = 0; i < NWORKERS; i++)
		pthread_create(&pool->threads[i], NULL, pool_worker, pool);
}

static void pool_stop(struct pool *pool)
{
	int i;

	pthread_mutex_lock(&pool->lock);
	pool->shutdown = 1;
	pthread_cond_broadcast(&pool->more);
	pthread_mutex_unlock(&pool->lock);
	for (i = 0; i < NWORKERS; i++)
		pthread_join(pool->threads[i], NULL);
}

/* A job: resize one thumbnail. */
struct thumb {
	int id;
	int width;
};

static void make_thumbnail(void *arg)
{
	struct thumb *t = arg;

	spin_for_us(100 + 10 * (t->id % 5));
	t->width = 128;
}

int main(void)
{
	static struct pool pool;
	static struct thumb thumbs[NJOBS];
	int i, done = 0;

	pool_start(&pool);
	for (i = 0; i < NJOBS; i++) {
		thumbs[i].id = i;
		pool_submit(&pool, make_thumbnail, &thumbs[i]);
	}
	pool_stop(&pool);
	for (i = 0; i < NJOBS; i++)
		done += thumbs[i].width == 128;
	printf("%d thumbnails, %lu submitted, %lu completed\n", done,
	       pool.stats.submitted, pool.stats.completed);
	return 0;
}
