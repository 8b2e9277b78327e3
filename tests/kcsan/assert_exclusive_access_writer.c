// kcsan_test: test_assert_exclusive_access_writer.  Exclusive-access and
// exclusive-writer assertions on the same variable, both threads calling
// both: an exclusive-access assertion conflicts with either kind, two
// exclusive-writer assertions (neither writes) never conflict.  Runs to the
// end so that both reports can appear.
//
// OPTIONS: skip_watch=0 udelay_task=20
// TRIES: 3
// TIMEOUT: 20
// EXIT: 66
// EXPECT: ^BUG: UCSAN: assert: race in test_kernel_assert_access / test_kernel_assert_writer$
// EXPECT: ^BUG: UCSAN: assert: race in test_kernel_assert_access / test_kernel_assert_access$
// EXPECT: ^assert no accesses to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^assert no writes to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^assert no accesses to 0x => ^ test_kernel_assert_access\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*assert_exclusive_access_writer\.c:[0-9]+$
// EXPECT-FRAME: ^assert no writes to 0x => ^ test_kernel_assert_writer\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*assert_exclusive_access_writer\.c:[0-9]+$
// NOT: test_kernel_assert_writer / test_kernel_assert_writer
// NOT: data-race|^(read|write|read-write)|scoped|race at unknown origin

#include "kcsan_test.h"

KCSAN_KERNEL(test_kernel_assert_access, ASSERT_EXCLUSIVE_ACCESS(test_var))
KCSAN_KERNEL(test_kernel_assert_writer, ASSERT_EXCLUSIVE_WRITER(test_var))

int main(void)
{
	kcsan_run2(test_kernel_assert_access, test_kernel_assert_writer, 1500);
	return 0;
}
