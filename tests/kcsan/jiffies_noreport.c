// kcsan_test: test_jiffies_noreport.  The kernel's jiffies is declared
// volatile and read without READ_ONCE; such accesses count as marked.  Here
// the main thread keeps incrementing a volatile counter with plain code
// while both threads read it with plain code: every access is volatile,
// hence marked, and nothing is ever reported.
//
// OPTIONS: skip_watch=0 udelay_task=5 strict=1
// TIMEOUT: 20
// NOT: BUG: UCSAN|UCSAN: reported|UCSAN: warning

#include "kcsan_test.h"

volatile unsigned long jiffies;

KCSAN_KERNEL(test_kernel_jiffies_reader, sink_value((long)jiffies))

/* The timer tick, instrumented. */
NOINLINE void tick(void)
{
	jiffies++;
}

int main(void)
{
	KCSAN_RUN(.kernel = { test_kernel_jiffies_reader, test_kernel_jiffies_reader },
		  .ms = 1500, .main_loop = tick);
	E2E_CHECK(jiffies > 1000);
	return 0;
}
