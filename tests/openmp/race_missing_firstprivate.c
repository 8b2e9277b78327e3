// Racy: missing firstprivate.  Every thread is meant to draw its own
// pseudo-random sequence starting from the same seed (firstprivate(state),
// see norace_private.c); without the clause `state` is shared and all
// threads step one generator at the same time.
//
// OPTIONS: skip_watch=0 halt_on_error=1
// CFLAGS: -O2 -g -fopenmp
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in next_random( / next_random)?$
// EXPECT-FRAME: ^(read|read-write) to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ next_random\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*race_missing_firstprivate\.c:24$
// EXPECT-FRAME: ^(write|read-write) to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ next_random\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*race_missing_firstprivate\.c:24$
// EXPECT: ^ (draw\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\.[._0-9a-z]*) [^ ]*race_missing_firstprivate\.c:37( \[inline\])?$

#include "omp_test.h"

#define DRAWS 64

static unsigned samples[OMP_TEST_THREADS][DRAWS];

/* A linear congruential generator; the caller owns *state. */
NOINLINE unsigned next_random(unsigned *state)
{
	*state = *state * 1103515245u + 12345u;   /* RACE: one generator for everyone */
	return *state >> 16;
}

NOINLINE void draw(unsigned seed)
{
	unsigned state = seed;

#pragma omp parallel
	{
		int t = omp_get_thread_num();

		for (int k = 0; k < DRAWS; k++)
			samples[t][k] = next_random(&state);   /* RACE-B: called here */
	}
}

int main(void)
{
	unsigned rep = 0;

	omp_test_start();
	do {
		draw(rep * 2654435761u);
		rep++;
	} while (omp_test_again());
	printf("%u repetitions, samples[0][0] = %u\n", rep, samples[0][0]);
	return 0;
}
