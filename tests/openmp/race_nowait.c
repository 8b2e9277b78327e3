// Racy: nowait followed by a dependent loop.  w = B (A x) with two sparse
// matrix-vector products; the first loop's nowait lets a thread start on
// w while other threads are still accumulating their rows of y = A x.
// A is lower triangular, so the first rows are short and the threads that
// own them are the first to go on (norace_nowait.c only lets a thread
// read, after nowait, what it wrote itself).
//
// OPTIONS: skip_watch=0 halt_on_error=1
// CFLAGS: -O2 -g -fopenmp
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in (chained_products\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*) / (chained_products\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*)$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (chained_products\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\._debug__) [^ ]*race_nowait\.c:44( \[inline\])?$
// EXPECT-FRAME: ^(write|read-write) to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (chained_products\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\._debug__) [^ ]*race_nowait\.c:(36|34)( \[inline\])?$

#include "omp_test.h"

#define N 48
#define ANZ (N * (N + 1) / 2)
#define BNZ 8   /* nonzeros per row of B */

static int a_row[N + 1], a_col[ANZ], b_col[N * BNZ];
static double a_val[ANZ], b_val[N * BNZ];
static double xv[N], yv[N], wv[N];

NOINLINE void chained_products(const int *arow, const int *acol, const double *aval,
			       const int *bcol, const double *bval,
			       const double *x, double *y, double *w)
{
#pragma omp parallel
	{
#pragma omp for nowait
		for (int i = 0; i < N; i++) {
			y[i] = 0;   /* RACE-C */
			for (int k = arow[i]; k < arow[i + 1]; k++)
				y[i] += aval[k] * x[acol[k]];   /* RACE-B: row i of y still accumulating ... */
		}
		/* missing: a barrier (drop the nowait above) */
#pragma omp for
		for (int i = 0; i < N; i++) {
			double s = 0;

			for (int k = i * BNZ; k < (i + 1) * BNZ; k++)
				s += bval[k] * y[bcol[k]];   /* RACE-A: ... while it is read here */
			w[i] = s;
		}
	}
}

int main(void)
{
	int rep = 0, nz = 0;

	omp_test_start();
	for (int i = 0; i < N; i++) {
		a_row[i] = nz;
		for (int j = 0; j <= i; j++, nz++) {
			a_col[nz] = j;
			a_val[nz] = (double)((i + 3 * j) % 7) - 3;
		}
		for (int k = 0; k < BNZ; k++) {
			b_col[i * BNZ + k] = (i * 7 + k * 13) % N;
			b_val[i * BNZ + k] = (double)(k + 1);
		}
		xv[i] = (double)(i % 5) - 2;
	}
	a_row[N] = nz;
	do {
		xv[rep % N] += 1;
		chained_products(a_row, a_col, a_val, b_col, b_val, xv, yv, wv);
		rep++;
	} while (omp_test_again());
	printf("%d repetitions, w[0] = %g\n", rep, wv[0]);
	return 0;
}
