// kcsan_test: test_novalue_change_exception.  Like novalue_change.c (a plain
// write storing the value already there races with a plain read, default
// report_value_change_only=1), but the writer's name ends in "_rcu": RCU-style
// publication is exempt from the value-change filter, so the race is
// reported although nothing changed.
//
// Both threads run both kernels (KCSAN_ALTERNATE), so the two writers'
// stores of the same value race too, and with the value filter off
// that pair is reported as well: no halt_on_error, so that a run whose
// first report is that pair still shows the read's.
//
// OPTIONS: skip_watch=10
// TRIES: 5
// TIMEOUT: 15
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in test_kernel_read / test_kernel_write_nochange_rcu$
// EXPECT: ^read to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^write to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^read to 0x => ^ test_kernel_read\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*novalue_change_exception\.c:[0-9]+$
// EXPECT-FRAME: ^write to 0x => ^ test_kernel_write_nochange_rcu\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*novalue_change_exception\.c:[0-9]+$
// NOT: ^value changed
// NOT: \(marked|scoped|race at unknown origin

#include "kcsan_test.h"

KCSAN_KERNEL(test_kernel_read, sink_value(test_var))
KCSAN_KERNEL(test_kernel_write_nochange_rcu, test_var = 42)

int main(void)
{
	test_kernel_write_nochange_rcu();	/* 42 before the race starts */
	kcsan_run2(test_kernel_write_nochange_rcu, test_kernel_read, 3000);
	return 0;
}
