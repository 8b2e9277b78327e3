// Racy: sections that are not independent.  One section rescales v in
// place while the other computes the squared norm of v, both at once
// (norace_sections.c gives the sections disjoint data).
//
// OPTIONS: skip_watch=0 halt_on_error=1
// CFLAGS: -O2 -g -fopenmp
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in (rescale_and_measure\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*) / (rescale_and_measure\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*)$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (rescale_and_measure\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\._debug__) [^ ]*race_sections\.c:(32|26)( \[inline\])?$
// EXPECT-FRAME: ^(write|read-write) to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (rescale_and_measure\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\._debug__) [^ ]*race_sections\.c:26( \[inline\])?$

#include "omp_test.h"

#define M 512

static double v[M];
static double norm2;

NOINLINE void rescale_and_measure(double f)
{
#pragma omp parallel sections
	{
#pragma omp section
		for (int k = 0; k < M; k++)
			v[k] *= f;   /* RACE-B */
#pragma omp section
		{
			double s = 0;

			for (int k = 0; k < M; k++)
				s += v[k] * v[k];   /* RACE-A */
			norm2 = s;
		}
	}
}

int main(void)
{
	int rep = 0;

	omp_test_start();
	for (int k = 0; k < M; k++)
		v[k] = (double)(k % 17) + 1;
	do {
		rescale_and_measure((rep & 1) ? 0.5 : 2.0);
		rep++;
	} while (omp_test_again());
	printf("%d repetitions, norm2 = %g\n", rep, norm2);
	return 0;
}
