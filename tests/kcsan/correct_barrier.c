// kcsan_test: test_correct_barrier.  Message passing with release/acquire: a
// producer fills plain data and publishes it with smp_store_release(), the
// consumer waits for it with smp_load_acquire(), reads the data with plain
// accesses, checks it and hands the buffer back the same way.  The plain
// accesses are ordered, never concurrent: nothing is reported, even with
// strict=1 (plain writes watch, unchanged values count).
//
// OPTIONS: skip_watch=0 udelay_task=5 strict=1 print_stats=1
// TRIES: 2
// TIMEOUT: 20
// EXPECT: ^UCSAN: stats: setup_watchpoints: [1-9][0-9]{2,}$
// NOT: BUG: UCSAN|UCSAN: reported|UCSAN: warning

#include <sched.h>

#include "kcsan_test.h"

static int test_flag;	/* 1: a message is ready for the consumer */
static long messages;	/* messages consumed */

/* Does nothing unless the buffer is free. */
NOINLINE void test_kernel_producer(void)
{
	long seq;

	if (smp_load_acquire(&test_flag) != 0) {
		sched_yield();	/* let the consumer run on a busy machine */
		return;
	}
	seq = test_var + 1;
	test_var = seq;
	test_struct.val[0] = seq * 3;
	test_struct.val[7] = seq * 5;
	smp_store_release(&test_flag, 1);
}

/* Does nothing unless a message is ready. */
NOINLINE void test_kernel_consumer(void)
{
	long seq;

	if (smp_load_acquire(&test_flag) != 1) {
		sched_yield();
		return;
	}
	seq = test_var;
	E2E_CHECK(test_struct.val[0] == seq * 3);
	E2E_CHECK(test_struct.val[7] == seq * 5);
	__atomic_fetch_add(&messages, 1, __ATOMIC_RELAXED);
	smp_store_release(&test_flag, 0);
}

int main(void)
{
	/* One producer, one consumer; a kernel call that finds it is not its
	 * turn yields, which on a busy machine can take a while. */
	KCSAN_RUN(.kernel = { test_kernel_producer, test_kernel_consumer },
		  .mode = KCSAN_FIXED, .ms = 1500, .min_calls = 100);
	/* Messages went through: tens of thousands on an idle machine, a
	 * few hundred when other processes keep both CPUs busy.  The last
	 * one may be unread. */
	E2E_CHECK(__atomic_load_n(&messages, __ATOMIC_RELAXED) >= 20);
	E2E_CHECK(test_var == messages + test_flag);
	return 0;
}
