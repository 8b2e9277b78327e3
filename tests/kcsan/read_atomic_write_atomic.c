// kcsan_test: test_read_atomic_write_atomic.  READ_ONCE racing with
// WRITE_ONCE: marked accesses never set watchpoints, so nothing is ever
// reported, however often they race (even with strict=1).
//
// OPTIONS: skip_watch=0 udelay_task=5 strict=1
// TIMEOUT: 20
// NOT: BUG: UCSAN|UCSAN: reported|UCSAN: warning

#include "kcsan_test.h"

KCSAN_KERNEL(test_kernel_read_atomic, sink_value(READ_ONCE(test_var)))
KCSAN_KERNEL(test_kernel_write_atomic,
	     WRITE_ONCE(test_var, peek(&test_sink) + 1))

int main(void)
{
	kcsan_run2(test_kernel_read_atomic, test_kernel_write_atomic, 1500);
	return 0;
}
