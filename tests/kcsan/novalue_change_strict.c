// kcsan_test: test_novalue_change with report_value_change_only=0.  A plain
// write storing the value already there races with a plain read: reported,
// and without a "value changed" line (the value never changes).
//
// Both threads run both kernels (KCSAN_ALTERNATE), so the two writers'
// stores of the same value race too, and with the value filter off
// that pair is reported as well: no halt_on_error, so that a run whose
// first report is that pair still shows the read's.
//
// OPTIONS: skip_watch=10 report_value_change_only=0
// TRIES: 5
// TIMEOUT: 15
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in test_kernel_read / test_kernel_write_nochange$
// EXPECT: ^read to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^write to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^read to 0x => ^ test_kernel_read\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*novalue_change_strict\.c:[0-9]+$
// EXPECT-FRAME: ^write to 0x => ^ test_kernel_write_nochange\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*novalue_change_strict\.c:[0-9]+$
// NOT: ^value changed
// NOT: \(marked|scoped|race at unknown origin

#include "kcsan_test.h"

/* novalue_change.c includes this file with a shorter RUN_MS. */
#ifndef RUN_MS
#define RUN_MS 3000
#endif

KCSAN_KERNEL(test_kernel_read, sink_value(test_var))
KCSAN_KERNEL(test_kernel_write_nochange, test_var = 42)

int main(void)
{
	test_kernel_write_nochange();	/* 42 before the race starts */
	kcsan_run2(test_kernel_write_nochange, test_kernel_read, RUN_MS);
	return 0;
}
