// kcsan_test: test_assert_exclusive_bits_nochange.  ASSERT_EXCLUSIVE_BITS
// with a mask of all the bits the other thread does NOT flip: the marked
// writes do hit the assertion's watchpoints (data_races counts them), but
// the bits it covers never change, so nothing is reported.
//
// OPTIONS: skip_watch=0 udelay_task=10 print_stats=1
// TRIES: 2
// TIMEOUT: 20
// EXPECT: ^UCSAN: stats: data_races: [1-9][0-9]*$
// NOT: BUG: UCSAN|UCSAN: reported|UCSAN: warning

#include "kcsan_test.h"

#define TEST_CHANGE_BITS 0xff00ff00UL

KCSAN_KERNEL(test_kernel_assert_bits_nochange,
	     ASSERT_EXCLUSIVE_BITS(test_var, ~TEST_CHANGE_BITS))
KCSAN_KERNEL(test_kernel_change_bits,
	     WRITE_ONCE(test_var, READ_ONCE(test_var) ^ TEST_CHANGE_BITS))

int main(void)
{
	kcsan_run2(test_kernel_assert_bits_nochange, test_kernel_change_bits, 1500);
	return 0;
}
