// kcsan_test: test_unknown_origin with report_unknown_origin=1.  The writer
// is not instrumented (__no_kcsan), so only the reader's watchpoint sees the
// value change: "race at unknown origin", naming the reader alone.
//
// OPTIONS: skip_watch=10 halt_on_error=1 report_unknown_origin=1
// TRIES: 5
// TIMEOUT: 15
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in test_kernel_read$
// EXPECT: ^race at unknown origin, with read to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^race at unknown origin, with read to => ^ test_kernel_read\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*unknown_origin\.c:[0-9]+$
// EXPECT: ^value changed: 0x[0-9a-f]{16} -> 0x[0-9a-f]{16}$
// NOT: ^(read|write|read-write)( \([a-z, ]+\))? to
// NOT: test_kernel_write_uninstrumented

#include "kcsan_test.h"

/* unknown_origin_off.c includes this file with a shorter RUN_MS. */
#ifndef RUN_MS
#define RUN_MS 3000
#endif

KCSAN_KERNEL(test_kernel_read, sink_value(test_var))

__no_kcsan NOINLINE void test_kernel_write_uninstrumented(void)
{
	test_var++;
}

int main(void)
{
	kcsan_run2(test_kernel_write_uninstrumented, test_kernel_read, RUN_MS);
	return 0;
}
