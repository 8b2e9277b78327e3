// Racy: single without its barrier.  One thread derives the filter
// coefficients from the signal's energy inside `single nowait`; the others
// skip the single and start filtering with coefficients that are still
// being written (norace_single.c keeps the implied barrier).
//
// OPTIONS: skip_watch=0 halt_on_error=1
// CFLAGS: -O2 -g -fopenmp
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in (filter\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*) / (filter\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*)$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (filter\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\._debug__) [^ ]*race_single_nowait\.c:36( \[inline\])?$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (filter\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\._debug__) [^ ]*race_single_nowait\.c:32( \[inline\])?$

#include "omp_test.h"

#define N 2048
#define K 16

static double coef[K], in[N], out[N];

NOINLINE void filter(int rep)
{
#pragma omp parallel
	{
#pragma omp single nowait
		{
			double energy = 0;

			for (int i = 0; i < N / 8; i++)
				energy += in[i] * in[i];
			for (int k = 0; k < K; k++)
				coef[k] = (k + 1 + rep % 3) / energy;   /* RACE-B */
		}
#pragma omp for
		for (int i = 0; i < N; i++)
			out[i] = in[i] * coef[i % K];   /* RACE-A: coef may not be ready */
	}
}

int main(void)
{
	int rep = 0;

	omp_test_start();
	for (int i = 0; i < N; i++)
		in[i] = (double)(i % 9) - 4;
	do {
		filter(rep);
		rep++;
	} while (omp_test_again());
	printf("%d repetitions, out[1] = %g\n", rep, out[1]);
	return 0;
}
