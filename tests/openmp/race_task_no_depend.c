// Racy: tasks without depend.  A producer task fills buf and a consumer
// task computes running maxima from the right end of it; without
// depend(out:)/depend(in:) clauses the two tasks run at the same time on
// different threads (norace_task_depend.c has the clauses).
//
// OPTIONS: skip_watch=0 halt_on_error=1
// CFLAGS: -O2 -g -fopenmp
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in (pipeline\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*|\.omp_task_entry\.[.0-9]*) / (pipeline\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*|\.omp_task_entry\.[.0-9]*)$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (pipeline\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\.[._0-9a-z]*(\+0x[0-9a-f]+/0x[0-9a-f]+)?) [^ ]*race_task_no_depend\.c:33( \[inline\])?$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (pipeline\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\.[._0-9a-z]*(\+0x[0-9a-f]+/0x[0-9a-f]+)?) [^ ]*race_task_no_depend\.c:27( \[inline\])?$

#include "omp_test.h"

#define M 256

static double src[M], buf[M], suffix_max[M];

NOINLINE void pipeline(int rounds)
{
#pragma omp parallel
#pragma omp single
	for (int r = 0; r < rounds; r++) {
#pragma omp task   /* should be: depend(out: buf) */
		for (int k = 0; k < M; k++)
			buf[k] = 0.5 * src[(k * 5 + r) % M];   /* RACE-B */
#pragma omp task   /* should be: depend(in: buf) */
		{
			double m = -1.0;

			for (int k = M - 1; k >= 0; k--) {
				double b = buf[k];   /* RACE-A */

				if (b > m)
					m = b;
				suffix_max[k] = m;
			}
		}
#pragma omp taskwait
	}
}

int main(void)
{
	int rep = 0;

	omp_test_start();
	for (int k = 0; k < M; k++)
		src[k] = (double)((k * 11) % 23);
	do {
		pipeline(8);
		rep++;
	} while (omp_test_again());
	printf("%d repetitions, suffix_max[0] = %g\n", rep, suffix_max[0]);
	return 0;
}
