// kcsan_test: test_write_write_assume_atomic, the kernel's default setting
// (ucsan's default is 0).  Two threads keep storing changing values with
// aligned plain 8-byte writes.  With assume_plain_writes_atomic=1 such
// writes are treated as
// atomic: they never set watchpoints, so the race is never reported
// (write_write_assume_atomic_strict.c turns the option off).  As in the
// kernel test, the main thread feeds the current value back into the sink
// the writers compute from, so that the writes change the value.
//
// OPTIONS: skip_watch=0 udelay_task=5 assume_plain_writes_atomic=1
// TIMEOUT: 20
// NOT: BUG: UCSAN|UCSAN: reported|UCSAN: warning

#include "kcsan_test.h"

NOINLINE void test_kernel_write(void)
{
	test_var = peek(&test_sink) + 1;
}

/* Uninstrumented, like the kernel test's checking loop. */
__no_kcsan NOINLINE void feed_back(void)
{
	sink_value(peek(&test_var));
}

int main(void)
{
	struct kcsan_config cfg = {
		{ test_kernel_write, test_kernel_write },
		KCSAN_ALTERNATE, 2, 1500, feed_back, 0
	};

	kcsan_run(&cfg);
	return 0;
}
