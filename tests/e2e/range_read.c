// A 64-byte struct copy (clang: a memcpy call the runtime intercepts; gcc:
// __tsan_read_range(p, 64)) racing with a 4-byte write to one of its fields.
//
// OPTIONS: skip_watch=0 halt_on_error=1
// TRIES: 10
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in snapshot / writer$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of 64 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ snapshot\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*range_read\.c:[0-9]+$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ writer\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*range_read\.c:[0-9]+$
// NOT: ^ [^ ]*memcpy[^ ]*\+0x
// NOT: race at unknown origin

#include "e2e.h"

struct big {
	int a[16];
};

struct big g_big __attribute__((aligned(64)));

NOINLINE long consume(const struct big *b)
{
	long sum = 0;
	int i;

	for (i = 0; i < 16; i++)
		sum += b->a[i];
	return sum;
}

NOINLINE long snapshot(void)
{
	struct big copy = g_big;

	return consume(&copy);
}

NOINLINE void writer(long v)
{
	g_big.a[5] = v;
}

int main(void)
{
	e2e_race_rw(snapshot, writer, 4000);
	return 0;
}
