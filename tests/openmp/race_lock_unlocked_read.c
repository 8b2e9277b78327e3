// Racy: an omp_lock_t used by the writers but not by a reader.  Workers
// add their results and bump items_done under the lock; thread 0 also
// samples items_done for a progress display, without taking the lock
// (norace_lock.c takes it).
//
// OPTIONS: skip_watch=0 halt_on_error=1
// CFLAGS: -O2 -g -fopenmp
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in (process\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*) / (process\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*)$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (process\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\._debug__) [^ ]*race_lock_unlocked_read\.c:45( \[inline\])?$
// EXPECT-FRAME: ^(write|read-write) to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (process\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\._debug__) [^ ]*race_lock_unlocked_read\.c:42( \[inline\])?$

#include "omp_test.h"

#define N 512
#define W 37

static omp_lock_t lock;
static double weights[W];
static double total;
static long items_done;
static long progress_seen;

NOINLINE double work(int i)
{
	double s = 0;

	for (int k = 0; k < 8; k++)
		s += weights[(i + k) % W];
	return s;
}

NOINLINE void process(void)
{
#pragma omp parallel for schedule(dynamic, 4)
	for (int i = 0; i < N; i++) {
		double v = work(i);

		omp_set_lock(&lock);
		total += v;
		items_done++;   /* RACE-B: under the lock */
		omp_unset_lock(&lock);
		if (omp_get_thread_num() == 0)
			progress_seen = items_done;   /* RACE-A: without it */
	}
}

int main(void)
{
	int rep = 0;

	omp_test_start();
	omp_init_lock(&lock);
	for (int k = 0; k < W; k++)
		weights[k] = (double)(k % 4);
	do {
		process();
		rep++;
	} while (omp_test_again());
	omp_destroy_lock(&lock);
	printf("%d repetitions, %ld items, progress %ld, total %g\n", rep,
	       items_done, progress_seen, total);
	return 0;
}
