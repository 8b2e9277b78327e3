// Racy: loop-carried true (flow) dependence.  A first-order recurrence,
// y[i] = decay * y[i - 1] + x[i], parallelized with a cyclic schedule
// (static, 1): iteration i reads y[i - 1] while the thread that runs
// iteration i - 1 is writing it.
//
// OPTIONS: skip_watch=0 halt_on_error=1
// CFLAGS: -O2 -g -fopenmp
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in (smooth\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*) / (smooth\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*)$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (smooth\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\._debug__) [^ ]*race_true_dep\.c:24( \[inline\])?$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (smooth\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\._debug__) [^ ]*race_true_dep\.c:24( \[inline\])?$

#include "omp_test.h"

#define N 256

static double x[N], y[N];

NOINLINE void smooth(double decay)
{
#pragma omp parallel for schedule(static, 1)
	for (int i = 1; i < N; i++)
		y[i] = decay * y[i - 1] + x[i];   /* RACE: reads y[i - 1], which iteration i - 1 writes */
}

int main(void)
{
	int rep = 0;

	omp_test_start();
	for (int i = 0; i < N; i++)
		x[i] = (double)(i % 7);
	do {
		y[0] = (double)rep;
		smooth(0.5 + (rep % 5) * 0.1);
		rep++;
	} while (omp_test_again());
	printf("%d repetitions, y[N - 1] = %g\n", rep, y[N - 1]);
	return 0;
}
