// Racy: output dependence.  find_last() wants the index of the last element
// equal to key, but every matching iteration stores its index into the one
// shared variable `found`: a write-write race, and which index survives
// depends on the schedule (the fix is reduction(max:found), see
// norace_output_dep.c).  Aligned word-size plain writes are only watched
// with assume_plain_writes_atomic=0: by default ucsan, like KCSAN, treats
// them as atomic and reports them only against plain reads.  The if and
// the store share a line: gcc sinks the store out of the loop and gives it
// the if's line.
//
// OPTIONS: skip_watch=0 assume_plain_writes_atomic=0 halt_on_error=1
// CFLAGS: -O2 -g -fopenmp
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in (find_last\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*) / (find_last\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*)$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (find_last\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\._debug__) [^ ]*race_output_dep\.c:30( \[inline\])?$
// NOT: ^read

#include "omp_test.h"

#define N 1024

static int keys[N];
static int found;

NOINLINE void find_last(int key)
{
#pragma omp parallel for schedule(dynamic, 4)
	for (int i = 0; i < N; i++)
		if (keys[i] == key) found = i;   /* RACE: every match stores to the one shared index */
}

int main(void)
{
	int rep = 0;

	omp_test_start();
	do {
		for (int i = 0; i < N; i++)
			keys[i] = (i * 7 + rep) % 13;
		found = -1;
		find_last(rep % 13);
		rep++;
	} while (omp_test_again());
	printf("%d repetitions, found = %d\n", rep, found);
	return 0;
}
