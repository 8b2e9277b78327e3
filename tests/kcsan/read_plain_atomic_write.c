// kcsan_test: test_read_plain_atomic_write.  A plain read racing with a
// marked write (WRITE_ONCE) is a data race: the read watches, the marked
// write hits its watchpoint and is shown as "(marked)".
//
// OPTIONS: skip_watch=10 halt_on_error=1
// TRIES: 5
// TIMEOUT: 15
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in test_kernel_read / test_kernel_write_atomic$
// EXPECT: ^read to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^write \(marked\) to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^read to 0x => ^ test_kernel_read\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*read_plain_atomic_write\.c:[0-9]+$
// EXPECT-FRAME: ^write \(marked\) to 0x => ^ test_kernel_write_atomic\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*read_plain_atomic_write\.c:[0-9]+$
// EXPECT: ^value changed: 0x[0-9a-f]{16} -> 0x[0-9a-f]{16}$
// NOT: ^read \(marked\)|^write to|scoped

#include "kcsan_test.h"

KCSAN_KERNEL(test_kernel_read, sink_value(test_var))
KCSAN_KERNEL(test_kernel_write_atomic,
	     WRITE_ONCE(test_var, peek(&test_sink) + 1))

int main(void)
{
	kcsan_run2(test_kernel_read, test_kernel_write_atomic, 3000);
	return 0;
}
