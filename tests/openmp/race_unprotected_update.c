// Racy: unprotected update.  A histogram whose bins are incremented by all
// threads with a plain ++ (norace_critical.c and norace_atomic.c protect
// the same update).
//
// OPTIONS: skip_watch=0 halt_on_error=1
// CFLAGS: -O2 -g -fopenmp
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in (histogram\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*) / (histogram\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*)$
// EXPECT-FRAME: ^(read|read-write) to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (histogram\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\._debug__) [^ ]*race_unprotected_update\.c:25( \[inline\])?$
// EXPECT-FRAME: ^(write|read-write) to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (histogram\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\._debug__) [^ ]*race_unprotected_update\.c:25( \[inline\])?$

#include "omp_test.h"

#define N 2048
#define BINS 8

static unsigned char pixels[N];
static long hist[BINS];

NOINLINE void histogram(void)
{
#pragma omp parallel for
	for (int i = 0; i < N; i++)
		hist[pixels[i] % BINS]++;   /* RACE: plain read-modify-write from every thread */
}

int main(void)
{
	int rep = 0;

	omp_test_start();
	for (int i = 0; i < N; i++)
		pixels[i] = (unsigned char)(i * 13 + i / 7);
	do {
		histogram();
		rep++;
	} while (omp_test_again());
	printf("%d repetitions, hist[0] = %ld\n", rep, hist[0]);
	return 0;
}
