// A 32 KiB memcpy (larger than one watchpoint can describe) racing with a
// read of the last element: the copy must still find the reader's
// watchpoint at its far end (and not leave the reader to see a change of
// unknown origin).  The array is deliberately not page-aligned.
//
// OPTIONS: skip_watch=0 halt_on_error=1
// TRIES: 10
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in fill_big / peek_last$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ fill_big\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*range_large\.c:[0-9]+$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ peek_last\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*range_large\.c:[0-9]+$
// NOT: ^ [^ ]*memcpy[^ ]*\+0x

#include "e2e.h"

#define N 8192          /* ints: 32 KiB */

/* 64 bytes past a page boundary, so the 8 KiB pieces span three pages. */
struct {
	char pad[64];
	int big[N];
} area __attribute__((aligned(4096)));
#define big area.big
int src[N] __attribute__((aligned(64)));   /* only the filler thread */

NOINLINE void fill_big(void)
{
	memcpy(big, src, sizeof(big));
}

NOINLINE long peek_last(void)
{
	return big[N - 1];
}

static void refill(long i)
{
	src[N - 1] = (int)i;
	fill_big();
}

int main(void)
{
	e2e_race_rw(peek_last, refill, 4000);
	return 0;
}
