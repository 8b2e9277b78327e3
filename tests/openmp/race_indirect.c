// Racy: indirect access through an index array.  scatter_add() adds
// weights into bins chosen by idx[], which is assumed to be a permutation
// but holds duplicates, so two threads can update the same bin
// (norace_indirect.c uses a real permutation).
//
// OPTIONS: skip_watch=0 halt_on_error=1
// CFLAGS: -O2 -g -fopenmp
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in (scatter_add\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*) / (scatter_add\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*)$
// EXPECT-FRAME: ^(read|read-write) to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (scatter_add\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\._debug__) [^ ]*race_indirect\.c:26( \[inline\])?$
// EXPECT-FRAME: ^(write|read-write) to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (scatter_add\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\._debug__) [^ ]*race_indirect\.c:26( \[inline\])?$

#include "omp_test.h"

#define N 2048
#define M 64

static int idx[N];
static double w[N], acc[M];

NOINLINE void scatter_add(const int *index, const double *weight, double *bins)
{
#pragma omp parallel for
	for (int i = 0; i < N; i++)
		bins[index[i]] += weight[i];   /* RACE: index[] repeats bins */
}

int main(void)
{
	int rep = 0;

	omp_test_start();
	for (int i = 0; i < N; i++) {
		idx[i] = (i * 17) % M;
		w[i] = (double)(i % 3) + 0.5;
	}
	do {
		scatter_add(idx, w, acc);
		rep++;
	} while (omp_test_again());
	printf("%d repetitions, acc[0] = %g\n", rep, acc[0]);
	return 0;
}
