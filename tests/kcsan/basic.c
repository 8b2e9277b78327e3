// kcsan_test: test_basic.  A plain write racing with a plain read of the same
// long: reported as a data race between the two functions, with both
// accesses.  Two reads never race with each other.
//
// OPTIONS: skip_watch=10 halt_on_error=1
// TRIES: 5
// TIMEOUT: 15
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in test_kernel_read / test_kernel_write$
// EXPECT: ^read to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^write to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^read to 0x => ^ test_kernel_read\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*basic\.c:[0-9]+$
// EXPECT-FRAME: ^write to 0x => ^ test_kernel_write\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*basic\.c:[0-9]+$
// EXPECT: ^value changed: 0x[0-9a-f]{16} -> 0x[0-9a-f]{16}$
// NOT: data-race in test_kernel_read / test_kernel_read
// NOT: \(marked|scoped

#include "kcsan_test.h"

KCSAN_KERNEL(test_kernel_read, sink_value(test_var))
KCSAN_KERNEL(test_kernel_write, test_var = peek(&test_sink) + 1)

int main(void)
{
	kcsan_run2(test_kernel_write, test_kernel_read, 3000);
	return 0;
}
