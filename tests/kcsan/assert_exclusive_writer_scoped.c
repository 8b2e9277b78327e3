// kcsan_test: test_assert_exclusive_writer_scoped.  A scoped
// ASSERT_EXCLUSIVE_WRITER holds until the end of the function that opened
// it, which meanwhile calls another function touching unrelated memory (the
// assertion is re-checked there).  Plain writes by another thread violate
// it.  Wherever it is caught -- at the opening, inside the callee, at the
// closing -- the report names the opener, never the callee.  Runs to the end
// (reports of the same pair of frames are rate-limited) so that a report
// from inside the scope naming the callee would show up.
//
// OPTIONS: skip_watch=0 udelay_task=20
// TRIES: 3
// TIMEOUT: 20
// EXIT: 66
// EXPECT: ^BUG: UCSAN: assert: race in test_kernel_assert_writer_scoped / test_kernel_write_nochange$
// EXPECT: ^assert no writes \(scoped\) to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^write to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^assert no writes \(scoped\) to 0x => ^ test_kernel_assert_writer_scoped\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*assert_exclusive_writer_scoped\.c:[0-9]+$
// EXPECT-FRAME: ^write to 0x => ^ test_kernel_write_nochange\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*assert_exclusive_writer_scoped\.c:[0-9]+$
// NOT: test_enter_scope
// NOT: data-race|\(marked|^assert no writes to|race at unknown origin

#include "kcsan_test.h"

NOINLINE void test_kernel_assert_writer_scoped(void)
{
	ASSERT_EXCLUSIVE_WRITER_SCOPED(test_var);
	test_enter_scope();
}

KCSAN_KERNEL(test_kernel_write_nochange, test_var = 42)

int main(void)
{
	test_kernel_write_nochange();	/* 42 before the race starts */
	kcsan_run2(test_kernel_assert_writer_scoped, test_kernel_write_nochange, 1500);
	return 0;
}
