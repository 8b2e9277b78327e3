// Racy: an update left outside the ordered block.  The checksum, which
// depends on the order of the results, is folded in inside `ordered`, but
// the count of results written is bumped before it, where the iterations
// still run in parallel (norace_ordered.c moves it inside).
//
// OPTIONS: skip_watch=0 halt_on_error=1
// CFLAGS: -O2 -g -fopenmp
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in (emit_all\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*) / (emit_all\._omp_fn\.[0-9]+|\.omp_outlined\.[.0-9]*)$
// EXPECT-FRAME: ^(read|read-write) to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (emit_all\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\._debug__) [^ ]*race_ordered_outside\.c:38( \[inline\])?$
// EXPECT-FRAME: ^(write|read-write) to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ \(OpenMP thread [0-9]+\) on cpu [0-9]+:$ => ^ (emit_all\._omp_fn\.[0-9]+\+0x[0-9a-f]+/0x[0-9a-f]+|\.omp_outlined\._debug__) [^ ]*race_ordered_outside\.c:38( \[inline\])?$

#include "omp_test.h"

#define N 256
#define T 61

static unsigned long table[T];
static unsigned long checksum;
static long written;

NOINLINE unsigned long mix(int i)
{
	unsigned long h = (unsigned long)i;

	for (int k = 0; k < 4; k++)
		h = h * 31 + table[(h + k) % T];
	return h;
}

NOINLINE void emit_all(void)
{
#pragma omp parallel for ordered schedule(dynamic)
	for (int i = 0; i < N; i++) {
		unsigned long v = mix(i);

		written++;   /* RACE: outside the ordered block */
#pragma omp ordered
		checksum = checksum * 131 + v;
	}
}

int main(void)
{
	int rep = 0;

	omp_test_start();
	for (int k = 0; k < T; k++)
		table[k] = (unsigned long)(k * k + 7);
	do {
		emit_all();
		rep++;
	} while (omp_test_again());
	printf("%d repetitions, %ld written, checksum %lx\n", rep, written,
	       checksum);
	return 0;
}
