// Racy: missing private.  blur_rows() uses a scratch row, tmp, declared
// outside the parallel loop and forgotten in a private() clause, so it is
// shared: one thread fills tmp for its row while another is still reading
// tmp for its own (norace_private.c has the clause).  Either the fill
// races with the reads or, when the fill is vectorized into 16-byte stores
// (which are watched: only word-size plain writes count as atomic), two
// fills race with each other.
//
// OPTIONS: skip_watch=0 halt_on_error=1
// CFLAGS: -O2 -g -fopenmp
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in (blur_rows\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*) / (blur_rows\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*)$
// EXPECT-FRAME: ^(read|write) to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (blur_rows\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\._debug__) [^ ]*race_missing_private\.c:(33|31)( \[inline\])?$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (blur_rows\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\._debug__) [^ ]*race_missing_private\.c:31( \[inline\])?$

#include "omp_test.h"

#define ROWS 64
#define COLS 32

static double img[ROWS][COLS], out[ROWS][COLS];

NOINLINE void blur_rows(void)
{
	double tmp[COLS];

#pragma omp parallel for
	for (int r = 0; r < ROWS; r++) {
		for (int c = 0; c < COLS; c++)
			tmp[c] = 0.25 * img[r][c];   /* RACE-B: every thread fills the one shared tmp */
		for (int c = 1; c < COLS - 1; c++)
			out[r][c] = tmp[c - 1] + 2 * tmp[c] + tmp[c + 1];   /* RACE-A */
	}
}

int main(void)
{
	int rep = 0;

	omp_test_start();
	for (int r = 0; r < ROWS; r++)
		for (int c = 0; c < COLS; c++)
			img[r][c] = (double)((r * 31 + c * 7) % 17);
	do {
		blur_rows();
		rep++;
	} while (omp_test_again());
	printf("%d repetitions, out[1][1] = %g\n", rep, out[1][1]);
	return 0;
}
