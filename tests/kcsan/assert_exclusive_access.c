// kcsan_test: test_assert_exclusive_access.  ASSERT_EXCLUSIVE_ACCESS(var)
// claims no one else even reads var; another thread's plain read violates
// it.  Thread 0 only asserts and thread 1 only reads (two exclusive-access
// assertions race with each other too: assert_exclusive_access_writer.c).
//
// OPTIONS: skip_watch=10 halt_on_error=1
// TRIES: 5
// TIMEOUT: 15
// EXIT: 66
// EXPECT: ^BUG: UCSAN: assert: race in test_kernel_assert_access / test_kernel_read$
// EXPECT: ^assert no accesses to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^read to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^assert no accesses to 0x => ^ test_kernel_assert_access\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*assert_exclusive_access\.c:[0-9]+$
// EXPECT-FRAME: ^read to 0x => ^ test_kernel_read\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*assert_exclusive_access\.c:[0-9]+$
// NOT: ^value changed|data-race|scoped|\(marked

#include "kcsan_test.h"

KCSAN_KERNEL(test_kernel_assert_access, ASSERT_EXCLUSIVE_ACCESS(test_var))
KCSAN_KERNEL(test_kernel_read, sink_value(test_var))

int main(void)
{
	KCSAN_RUN(.kernel = { test_kernel_assert_access, test_kernel_read },
		  .mode = KCSAN_FIXED, .ms = 3000);
	return 0;
}
