// Fixed twin of done_flag.c: everything the collector reads, the elapsed time
// included, is stored before the release store of `done`.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>

#include "oneshot.h"

#define NJOBS 3

struct job {
	pthread_t tid;
	int n;
	long long start_us;
	unsigned long result;
	atomic_int done;
	long long elapsed_us;
};

NOINLINE void finish_job(struct job *j, unsigned long result)
{
	j->result = result;
	j->elapsed_us = now_us() - j->start_us;
	atomic_store_explicit(&j->done, 1, memory_order_release);
}

NOINLINE void collect_job(struct job *j)
{
	long long us;

	while (!atomic_load_explicit(&j->done, memory_order_acquire))
		sched_yield();
	us = j->elapsed_us;
	printf("job %d: result %lu in %lld us\n", j->n, j->result, us);
}

/* Collatz steps of every number below the job's limit. */
static void *job_main(void *arg)
{
	struct job *j = arg;
	unsigned long steps = 0, i, x;

	j->start_us = now_us();
	for (i = 1; i < (unsigned long)j->n; i++)
		for (x = i; x != 1; steps++)
			x = x % 2 ? 3 * x + 1 : x / 2;
	finish_job(j, steps);
	return NULL;
}

int main(void)
{
	static struct job jobs[NJOBS];
	int i;

	for (i = 0; i < NJOBS; i++) {
		jobs[i].n = 20000 + 5000 * i;
		pthread_create(&jobs[i].tid, NULL, job_main, &jobs[i]);
	}
	for (i = 0; i < NJOBS; i++)
		collect_job(&jobs[i]);
	for (i = 0; i < NJOBS; i++)
		pthread_join(jobs[i].tid, NULL);
	return 0;
}
