// Fixed twin of reused_arg.c: every worker gets its own argument struct, which
// the creator never touches again.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

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
	struct worker_arg arg[NWORKERS];
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
	int id = arg->id;

	return (void *)(uintptr_t)checksum_shard(ds, id);
}

NOINLINE void start_workers(struct pool *pool, const struct dataset *ds)
{
	int i;

	for (i = 0; i < NWORKERS; i++) {
		pool->arg[i].ds = ds;
		pool->arg[i].id = i;
		pthread_create(&pool->tid[i], NULL, worker_main, &pool->arg[i]);
	}
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
