// Racy: a task without taskwait.  The encountering thread hands the
// scaling of vals to a task and then immediately sums vals itself, from the
// top down, without waiting for the task (norace_task_taskwait.c waits).
//
// OPTIONS: skip_watch=0 halt_on_error=1
// CFLAGS: -O2 -g -fopenmp
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in (scale_and_sum\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*|\.omp_task_entry\.[.0-9]*) / (scale_and_sum\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*|\.omp_task_entry\.[.0-9]*)$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (scale_and_sum\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\.[._0-9a-z]*(\+0x[0-9a-f]+/0x[0-9a-f]+)?) [^ ]*race_task_no_taskwait\.c:31( \[inline\])?$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (scale_and_sum\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\.[._0-9a-z]*(\+0x[0-9a-f]+/0x[0-9a-f]+)?) [^ ]*race_task_no_taskwait\.c:28( \[inline\])?$

#include "omp_test.h"

#define M 256

static double src[M], vals[M];

NOINLINE double scale_and_sum(double f)
{
	double s = 0;

#pragma omp parallel
#pragma omp single
	{
#pragma omp task
		for (int k = 0; k < M; k++)
			vals[k] = f * src[k];   /* RACE-B */
		/* missing: #pragma omp taskwait */
		for (int k = M - 1; k >= 0; k--)
			s += vals[k];   /* RACE-A */
	}
	return s;
}

int main(void)
{
	double s = 0;
	int rep = 0;

	omp_test_start();
	for (int k = 0; k < M; k++)
		src[k] = (double)(k % 13);
	do {
		s = scale_and_sum(1.0 + rep % 4);
		rep++;
	} while (omp_test_again());
	printf("%d repetitions, last sum %g\n", rep, s);
	return 0;
}
