// kcsan_test: test_write_write_assume_atomic with assume_plain_writes_atomic=0.
// Two threads keep storing changing values with aligned plain 8-byte
// writes: now the writes set watchpoints and the race is reported, both
// accesses being writes in the same function.  The main thread feeds the
// current value back into the sink the writers compute from, so that the
// writes change the value.
//
// OPTIONS: skip_watch=10 halt_on_error=1 assume_plain_writes_atomic=0
// TRIES: 5
// TIMEOUT: 15
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in test_kernel_write / test_kernel_write$
// EXPECT: ^write to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^write to 0x => ^ test_kernel_write\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*write_write_assume_atomic_strict\.c:[0-9]+$
// EXPECT: ^value changed: 0x[0-9a-f]{16} -> 0x[0-9a-f]{16}$
// NOT: ^(read|read-write)( \([a-z, ]+\))? to
// NOT: \(marked|scoped

#include "kcsan_test.h"

/* write_write_assume_atomic.c includes this file with a shorter RUN_MS. */
#ifndef RUN_MS
#define RUN_MS 3000
#endif

KCSAN_KERNEL(test_kernel_write, test_var = peek(&test_sink) + 1)

/* Uninstrumented, like the kernel test's checking loop. */
__no_kcsan NOINLINE void feed_back(void)
{
	sink_value(peek(&test_var));
}

int main(void)
{
	KCSAN_RUN(.kernel = { test_kernel_write, test_kernel_write },
		  .ms = RUN_MS, .main_loop = feed_back);
	return 0;
}
