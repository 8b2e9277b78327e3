// A 64-byte memcpy into a global array (clang: a memcpy call the runtime
// intercepts; gcc: inline moves plus __tsan_write_range(p, 64)) racing with a
// 4-byte read of one element.
//
// OPTIONS: skip_watch=0 halt_on_error=1
// TRIES: 10
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in fill / peek$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of 64 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ fill\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*range_write\.c:[0-9]+$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ peek\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*range_write\.c:[0-9]+$
// NOT: ^ [^ ]*memcpy[^ ]*\+0x
// NOT: race at unknown origin

#include "e2e.h"

int g_arr[16] __attribute__((aligned(64)));
int g_src[16] __attribute__((aligned(64)));   /* only the filler thread */

NOINLINE void fill(void)
{
	memcpy(g_arr, g_src, sizeof(g_arr));
}

NOINLINE long peek(void)
{
	return g_arr[3];
}

static void refill(long i)
{
	int j;

	for (j = 0; j < 16; j++)
		g_src[j] = (int)i + j;
	fill();
}

int main(void)
{
	e2e_race_rw(peek, refill, 4000);
	return 0;
}
