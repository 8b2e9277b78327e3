// kcsan_test: test_zero_size_access.  A zero-sized check of a struct member
// checks nothing, even while 64-byte writes to the struct race all around
// it.  The struct writes race with each other (both threads call both
// kernels), which shows that the checks were live; a report naming the
// zero-size reader must never appear.  Not halted at the first report.
//
// OPTIONS: skip_watch=0 udelay_task=10
// TRIES: 2
// TIMEOUT: 20
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in test_kernel_write_struct / test_kernel_write_struct$
// EXPECT: ^write to 0x[0-9a-f]+ of 64 bytes by thread [0-9]+ on cpu [0-9]+:$
// NOT: test_kernel_read_struct_zero_size|of 0 bytes|^read
// NOT: race at unknown origin

#include "kcsan_test.h"

KCSAN_KERNEL_WRITE_STRUCT()
KCSAN_KERNEL(test_kernel_read_struct_zero_size,
	     ucsan_check_read(&test_struct.val[3], 0))

int main(void)
{
	kcsan_run2(test_kernel_write_struct, test_kernel_read_struct_zero_size, 1500);
	return 0;
}
