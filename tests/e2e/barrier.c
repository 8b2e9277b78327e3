// No race: threads alternate between writing their own stripe of a shared
// array and reading the whole array, separated by pthread_barrier_wait;
// well over a million plain accesses under skip_watch=0.
//
// OPTIONS: skip_watch=0 udelay_task=1 udelay_interrupt=1 print_stats=1
// TIMEOUT: 120
// EXPECT: ^UCSAN: stats: setup_watchpoints: ([3-9][0-9]{5}|[0-9]{7,})$
// EXPECT: ^UCSAN: stats: data_races: 0$
// NOT: BUG|UCSAN: reported

#include "e2e.h"

#define THREADS 3
#define N 3072
#define PHASES 100   /* x (N writes + THREADS x N reads) */

pthread_barrier_t barrier;
int data[N];

static int expected(int phase, int i)
{
	return phase * 7919 + i;
}

NOINLINE void write_stripe(int phase, int t)
{
	int i;

	for (i = t; i < N; i += THREADS)
		data[i] = expected(phase, i);
}

NOINLINE long check_all(int phase)
{
	long bad = 0;
	int i;

	for (i = 0; i < N; i++)
		bad += data[i] != expected(phase, i);
	return bad;
}

static void *worker(void *arg)
{
	int t = (int)(long)arg;
	int phase;

	for (phase = 0; phase < PHASES; phase++) {
		write_stripe(phase, t);
		pthread_barrier_wait(&barrier);
		if (check_all(phase) != 0) {
			fprintf(stderr, "e2e: phase %d: stale data\n", phase);
			exit(2);
		}
		pthread_barrier_wait(&barrier);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];
	long i;
	int err;

	e2e_require_runtime();
	err = pthread_barrier_init(&barrier, NULL, THREADS);
	if (err)
		e2e_die("pthread_barrier_init", err);
	for (i = 0; i < THREADS; i++)
		t[i] = e2e_spawn(worker, (void *)i);
	for (i = 0; i < THREADS; i++)
		e2e_join(t[i]);
	pthread_barrier_destroy(&barrier);
	fprintf(stderr, "plain accesses to the array: %ld\n",
		(long)PHASES * N * (1 + THREADS));
	return 0;
}
