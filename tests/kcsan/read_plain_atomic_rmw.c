// kcsan_test: test_read_plain_atomic_rmw.  A plain read racing with an atomic
// read-modify-write (__atomic_fetch_add): reported, the RMW shown as
// "read-write (marked)".
//
// OPTIONS: skip_watch=10 halt_on_error=1
// TRIES: 5
// TIMEOUT: 15
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in test_kernel_atomic_rmw / test_kernel_read$
// EXPECT: ^read to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^read-write \(marked\) to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^read to 0x => ^ test_kernel_read\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*read_plain_atomic_rmw\.c:[0-9]+$
// EXPECT-FRAME: ^read-write \(marked\) to 0x => ^ test_kernel_atomic_rmw\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*read_plain_atomic_rmw\.c:[0-9]+$
// EXPECT: ^value changed: 0x[0-9a-f]{16} -> 0x[0-9a-f]{16}$
// NOT: ^read \(marked\)|^(write|read-write) to|scoped

#include "kcsan_test.h"

KCSAN_KERNEL(test_kernel_read, sink_value(test_var))
KCSAN_KERNEL(test_kernel_atomic_rmw,
	     __atomic_fetch_add(&test_var, 1, __ATOMIC_RELAXED))

int main(void)
{
	kcsan_run2(test_kernel_read, test_kernel_atomic_rmw, 3000);
	return 0;
}
