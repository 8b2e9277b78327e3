// Bug: one thread-argument struct reused for every pthread_create().  The
// creator fills `arg.id`, starts a worker with &arg, and goes on to fill in
// the next id while the worker it just started may not have read its own:
//
//     for (i = 0; i < n; i++) { arg.id = i; pthread_create(.., &arg); }
//
// Two workers can end up checksumming the same shard and one shard is
// never looked at.
//
// TRIES: 12
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in start_workers / worker_main$
// EXPECT: ^read to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^write to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^read to 0x => ^ worker_main\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*reused_arg\.c:60$
// EXPECT-FRAME: ^write to 0x => ^ start_workers\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*reused_arg\.c:78$

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "oneshot.h"

#define NWORKERS 4
#define SHARD_WORDS 8192

struct dataset {
	uint32_t words[NWORKERS][SHARD_WORDS];
};

struct worker_arg {
	const struct dataset *ds;
	int id;
};

struct pool {
	pthread_t tid[NWORKERS];
#ifdef FIXED
	struct worker_arg arg[NWORKERS];
#else
	struct worker_arg arg;
#endif
};

static uint32_t checksum_shard(const struct dataset *ds, int shard)
{
	uint32_t sum = 0;
	int i;

	for (i = 0; i < SHARD_WORDS; i++)
		sum = (sum << 5) + sum + ds->words[shard][i];
	spin_for_us(300);		/* and compare it with the stored one */
	return sum;
}

NOINLINE void *worker_main(void *p)
{
	const struct worker_arg *arg = p;
	const struct dataset *ds = arg->ds;
	int id = arg->id;		/* racy read */

	return (void *)(uintptr_t)checksum_shard(ds, id);
}

NOINLINE void start_workers(struct pool *pool, const struct dataset *ds)
{
	int i;

#ifdef FIXED
	for (i = 0; i < NWORKERS; i++) {
		pool->arg[i].ds = ds;
		pool->arg[i].id = i;
		pthread_create(&pool->tid[i], NULL, worker_main, &pool->arg[i]);
	}
#else
	pool->arg.ds = ds;
	for (i = 0; i < NWORKERS; i++) {
		pool->arg.id = i;	/* racy write: the last worker may not have read it yet */
		pthread_create(&pool->tid[i], NULL, worker_main, &pool->arg);
	}
#endif
}

int main(void)
{
	static struct dataset ds;
	struct pool pool;
	uint32_t total = 0;
	int i, j;

	for (i = 0; i < NWORKERS; i++)
		for (j = 0; j < SHARD_WORDS; j++)
			ds.words[i][j] = (uint32_t)(i * 7919 + j * 31);
	start_workers(&pool, &ds);
	for (i = 0; i < NWORKERS; i++) {
		void *ret;

		pthread_join(pool.tid[i], &ret);
		total += (uint32_t)(uintptr_t)ret;
	}
	printf("dataset checksum %08x\n", total);
	return 0;
}
