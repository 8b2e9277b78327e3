// Bug: a result written after the "done" flag.  Each job publishes its
// result with an atomic release store of `done`, and the collector waits
// for `done` with acquire loads before reading the job.  A later change
// added timing to the job and put the store in the wrong place:
//
//     atomic_store_explicit(&j->done, 1, memory_order_release);
//     j->elapsed_us = now_us() - j->start_us;	/* after the flag */
//
// The collector can read `elapsed_us` while the worker is still storing it.
//
// TRIES: 30
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in collect_job / finish_job$
// EXPECT: ^read to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^write to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^write to 0x => ^ finish_job\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*done_flag\.c:45$
// EXPECT-FRAME: ^read to 0x => ^ collect_job\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*done_flag\.c:55$

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
#ifdef FIXED
	j->elapsed_us = now_us() - j->start_us;
	atomic_store_explicit(&j->done, 1, memory_order_release);
#else
	atomic_store_explicit(&j->done, 1, memory_order_release);
	j->elapsed_us = now_us() - j->start_us;	/* racy write: after the flag */
#endif
}

NOINLINE void collect_job(struct job *j)
{
	long long us;

	while (!atomic_load_explicit(&j->done, memory_order_acquire))
		sched_yield();
	us = j->elapsed_us;		/* racy read */
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
