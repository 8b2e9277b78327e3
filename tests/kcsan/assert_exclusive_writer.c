// kcsan_test: test_assert_exclusive_writer.  ASSERT_EXCLUSIVE_WRITER(var)
// claims no one else writes var; another thread's plain write (storing the
// value already there) violates it.  An assertion is reported even though
// the value does not change.
//
// OPTIONS: skip_watch=10 halt_on_error=1
// TRIES: 5
// TIMEOUT: 15
// EXIT: 66
// EXPECT: ^BUG: UCSAN: assert: race in test_kernel_assert_writer / test_kernel_write_nochange$
// EXPECT: ^assert no writes to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^write to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^assert no writes to 0x => ^ test_kernel_assert_writer\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*assert_exclusive_writer\.c:[0-9]+$
// EXPECT-FRAME: ^write to 0x => ^ test_kernel_write_nochange\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*assert_exclusive_writer\.c:[0-9]+$
// NOT: ^value changed|data-race|scoped|\(marked

#include "kcsan_test.h"

KCSAN_KERNEL(test_kernel_assert_writer, ASSERT_EXCLUSIVE_WRITER(test_var))
KCSAN_KERNEL(test_kernel_write_nochange, test_var = 42)

int main(void)
{
	test_kernel_write_nochange();	/* 42 before the race starts */
	kcsan_run2(test_kernel_assert_writer, test_kernel_write_nochange, 3000);
	return 0;
}
