// kcsan_test: test_assert_exclusive_bits_change.  ASSERT_EXCLUSIVE_BITS(var,
// mask) claims no one else changes the bits in mask; another thread's
// marked write flipping exactly those bits violates it.  The report shows
// the value change and the bits that changed.
//
// OPTIONS: skip_watch=10 halt_on_error=1
// TRIES: 5
// TIMEOUT: 15
// EXIT: 66
// EXPECT: ^BUG: UCSAN: assert: race in test_kernel_assert_bits_change / test_kernel_change_bits$
// EXPECT: ^assert no writes to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^write \(marked\) to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^assert no writes to 0x => ^ test_kernel_assert_bits_change\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*assert_exclusive_bits_change\.c:[0-9]+$
// EXPECT-FRAME: ^write \(marked\) to 0x => ^ test_kernel_change_bits\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*assert_exclusive_bits_change\.c:[0-9]+$
// EXPECT-FRAME: ^value changed: 0x[0-9a-f]{16} -> 0x[0-9a-f]{16}$ => ^ bits changed: 0x00000000ff00ff00 with mask 0x00000000ff00ff00$
// NOT: data-race|scoped|^(read|write|read-write) to

#include "kcsan_test.h"

#define TEST_CHANGE_BITS 0xff00ff00UL

KCSAN_KERNEL(test_kernel_assert_bits_change,
	     ASSERT_EXCLUSIVE_BITS(test_var, TEST_CHANGE_BITS))
KCSAN_KERNEL(test_kernel_change_bits,
	     WRITE_ONCE(test_var, READ_ONCE(test_var) ^ TEST_CHANGE_BITS))

int main(void)
{
	kcsan_run2(test_kernel_assert_bits_change, test_kernel_change_bits, 3000);
	return 0;
}
