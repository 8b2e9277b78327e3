// A memset of a global array with a size only known at run time (so gcc
// calls memset instead of expanding it inline without instrumentation; clang
// always calls it): the runtime's memset interceptor checks the 64-byte
// write, which races with a 4-byte read of one element.
//
// OPTIONS: skip_watch=0 halt_on_error=1
// TRIES: 10
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in peek / wipe$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of 64 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ wipe\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*range_memset\.c:[0-9]+$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ peek\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*range_memset\.c:[0-9]+$
// NOT: ^ [^ ]*memset[^ ]*\+0x
// NOT: race at unknown origin

#include "e2e.h"

int g_arr[16] __attribute__((aligned(64)));
size_t wipe_len = sizeof(g_arr);      /* never written after start-up */

NOINLINE void wipe(long i)
{
	memset(g_arr, (int)(i & 0xff), wipe_len);
}

NOINLINE long peek(void)
{
	return g_arr[3];
}

int main(void)
{
	e2e_race_rw(peek, wipe, 4000);
	return 0;
}
