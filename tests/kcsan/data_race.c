// kcsan_test: test_data_race.  Both threads increment the same variable
// inside data_race(): an intentional race, never reported (even with
// strict=1, under which plain writes watch too).
//
// OPTIONS: skip_watch=0 udelay_task=5 strict=1
// TIMEOUT: 20
// NOT: BUG: UCSAN|UCSAN: reported|UCSAN: warning

#include "kcsan_test.h"

KCSAN_KERNEL(test_kernel_data_race, (void)data_race(test_var++))

int main(void)
{
	kcsan_run2(test_kernel_data_race, test_kernel_data_race, 1500);
	return 0;
}
