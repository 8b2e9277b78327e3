// Racy: a reduction done by hand.  Each thread sums its share into a
// private partial sum, correctly, and then adds it to the shared total
// without critical or atomic (norace_reduction.c uses reduction(+:)).
// The loop's nowait lets each thread add as soon as its share is done.
//
// OPTIONS: skip_watch=0 halt_on_error=1
// CFLAGS: -O2 -g -fopenmp
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in (sum_by_hand\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*) / (sum_by_hand\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*)$
// EXPECT-FRAME: ^(read|read-write) to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (sum_by_hand\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\._debug__) [^ ]*race_reduction_by_hand\.c:31( \[inline\])?$
// EXPECT-FRAME: ^(write|read-write) to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (sum_by_hand\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\._debug__) [^ ]*race_reduction_by_hand\.c:31( \[inline\])?$

#include "omp_test.h"

#define N 64

static double v[N];

NOINLINE double sum_by_hand(void)
{
	double total = 0;

#pragma omp parallel
	{
		double mine = 0;

#pragma omp for nowait
		for (int i = 0; i < N; i++)
			mine += v[i];
		total += mine;   /* RACE: needs atomic, critical or reduction(+:total) */
	}
	return total;
}

int main(void)
{
	double s = 0;
	int rep = 0;

	omp_test_start();
	for (int i = 0; i < N; i++)
		v[i] = (double)(i % 10);
	do {
		s = sum_by_hand();
		rep++;
	} while (omp_test_again());
	printf("%d repetitions, last sum %g\n", rep, s);
	return 0;
}
