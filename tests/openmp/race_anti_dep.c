// Racy: loop-carried anti-dependence.  relax() updates a row in place, each
// element becoming the mean of itself and its right-hand neighbour, so
// iteration i reads row[i + 1] while iteration i + 1 (on another thread
// under schedule(dynamic)) overwrites it.
//
// OPTIONS: skip_watch=0 halt_on_error=1
// CFLAGS: -O2 -g -fopenmp
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in (relax\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*) / (relax\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*)$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (relax\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\._debug__) [^ ]*race_anti_dep\.c:24( \[inline\])?$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (relax\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\._debug__) [^ ]*race_anti_dep\.c:24( \[inline\])?$

#include "omp_test.h"

#define N 512

static double row[N + 1];

NOINLINE void relax(void)
{
#pragma omp parallel for schedule(dynamic, 8)
	for (int i = 0; i < N; i++)
		row[i] = 0.5 * (row[i] + row[i + 1]);   /* RACE: reads row[i + 1], which iteration i + 1 writes */
}

int main(void)
{
	int rep = 0;

	omp_test_start();
	do {
		for (int i = 0; i <= N; i++)
			row[i] = (double)((i * 37 + rep) % 101);
		relax();
		rep++;
	} while (omp_test_again());
	printf("%d repetitions, row[0] = %g\n", rep, row[0]);
	return 0;
}
