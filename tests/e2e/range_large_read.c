// An 8 KiB struct copy (a read range that starts 64 bytes into a page, so it
// spans three pages) racing with a write to its last element: the write must
// find the watchpoint the copy set.
//
// OPTIONS: skip_watch=0 halt_on_error=1
// TRIES: 3
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in poke_last / snapshot_big$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ snapshot_big\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*range_large_read\.c:[0-9]+$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ poke_last\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*range_large_read\.c:[0-9]+$
// NOT: ^ [^ ]*memcpy[^ ]*\+0x

#include "e2e.h"

#define N 2048          /* ints: 8 KiB */

struct big {
	int a[N];
};

struct {
	char pad[64];
	struct big big;
} area __attribute__((aligned(4096)));

NOINLINE long consume(const struct big *b)
{
	return b->a[0] + b->a[N - 1];
}

NOINLINE long snapshot_big(void)
{
	struct big copy = area.big;

	return consume(&copy);
}

NOINLINE void poke_last(long v)
{
	area.big.a[N - 1] = v;
}

int main(void)
{
	e2e_race_rw(snapshot_big, poke_last, 3000);
	return 0;
}
