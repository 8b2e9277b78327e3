// kcsan_test: test_assert_exclusive_access_scoped.  A scoped
// ASSERT_EXCLUSIVE_ACCESS holds until the end of the function that opened
// it, which meanwhile calls another function touching unrelated memory (the
// assertion is re-checked there).  Plain reads by another thread violate it
// (and so do other threads' scopes, both threads calling both kernels).
// Wherever it is caught the report names the opener, never the callee.
// Runs to the end (reports of the same pair of frames are rate-limited) so
// that a report from inside the scope naming the callee would show up.
//
// OPTIONS: skip_watch=0 udelay_task=20
// TRIES: 3
// TIMEOUT: 20
// EXIT: 66
// EXPECT: ^BUG: UCSAN: assert: race in test_kernel_assert_access_scoped / test_kernel_read$
// EXPECT: ^assert no accesses \(scoped\) to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^read to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^assert no accesses \(scoped\) to 0x => ^ test_kernel_assert_access_scoped\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*assert_exclusive_access_scoped\.c:[0-9]+$
// EXPECT-FRAME: ^read to 0x => ^ test_kernel_read\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*assert_exclusive_access_scoped\.c:[0-9]+$
// NOT: test_enter_scope
// NOT: data-race|\(marked|^assert no accesses to|race at unknown origin

#include "kcsan_test.h"

NOINLINE void test_kernel_assert_access_scoped(void)
{
	ASSERT_EXCLUSIVE_ACCESS_SCOPED(test_var);
	test_enter_scope();
}

KCSAN_KERNEL(test_kernel_read, sink_value(test_var))

int main(void)
{
	kcsan_run2(test_kernel_assert_access_scoped, test_kernel_read, 2000);
	return 0;
}
