// kcsan_test: test_atomic_builtins.  The __atomic builtins compute the right
// results under the sanitizer (checked with E2E_CHECK while other threads
// race on the same variables with relaxed atomic loads) and count as marked
// accesses: they never set watchpoints, so the racing loads and the checked
// sequence are never reported, even with strict=1.  The checks' own plain
// reads do watch (skip_watch=0), and nothing but atomic loads races with
// them.
//
// OPTIONS: skip_watch=0 udelay_task=5 strict=1
// TIMEOUT: 20
// NOT: BUG: UCSAN|UCSAN: reported|UCSAN: warning

#include "kcsan_test.h"

int test_var32;
short test_var16;
signed char test_var8;

NOINLINE void test_kernel_atomic_builtins(void)
{
	long v = __atomic_load_n(&test_var, __ATOMIC_RELAXED);

	v += __atomic_load_n(&test_var32, __ATOMIC_RELAXED);
	v += __atomic_load_n(&test_var16, __ATOMIC_RELAXED);
	v += __atomic_load_n(&test_var8, __ATOMIC_RELAXED);
	sink_value(v);
}

/*
 * One round of every builtin on variable X of type T; the values stay in
 * 0..127 so that they fit every T.
 */
#define ROUND(T, X)                                                             \
	do {                                                                    \
		T e;                                                            \
                                                                                \
		__atomic_store_n(&X, 17, __ATOMIC_RELAXED);                     \
		E2E_CHECK(__atomic_load_n(&X, __ATOMIC_RELAXED) == 17);         \
		__atomic_store_n(&X, 18, __ATOMIC_RELEASE);                     \
		E2E_CHECK(__atomic_load_n(&X, __ATOMIC_ACQUIRE) == 18);         \
		E2E_CHECK(__atomic_exchange_n(&X, 64, __ATOMIC_RELAXED) == 18); \
		E2E_CHECK(X == 64);                                             \
		e = 64;                                                         \
		E2E_CHECK(__atomic_compare_exchange_n(&X, &e, 96, 0,            \
			__ATOMIC_RELAXED, __ATOMIC_RELAXED));                   \
		E2E_CHECK(e == 64 && X == 96);                                  \
		E2E_CHECK(!__atomic_compare_exchange_n(&X, &e, 5, 1,            \
			__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));                   \
		E2E_CHECK(e == 96 && X == 96);                                  \
		E2E_CHECK(__atomic_fetch_add(&X, 3, __ATOMIC_RELAXED) == 96);   \
		E2E_CHECK(__atomic_fetch_sub(&X, 9, __ATOMIC_SEQ_CST) == 99);   \
		E2E_CHECK(__atomic_fetch_and(&X, 0x3c, __ATOMIC_RELAXED) == 90);\
		E2E_CHECK(__atomic_fetch_xor(&X, 0x21, __ATOMIC_RELAXED) == 24);\
		E2E_CHECK(__atomic_fetch_or(&X, 0x42, __ATOMIC_RELAXED) == 57); \
		E2E_CHECK(__atomic_add_fetch(&X, 1, __ATOMIC_RELAXED) == 124);  \
		E2E_CHECK(__atomic_fetch_nand(&X, 0x0f, __ATOMIC_RELAXED)       \
			  == 124);                                              \
		E2E_CHECK(X == (T)~(124 & 0x0f));                               \
		__atomic_thread_fence(__ATOMIC_SEQ_CST);                        \
		__atomic_signal_fence(__ATOMIC_SEQ_CST);                        \
	} while (0)

/* Instrumented, unlike the rest of the main thread's loop. */
NOINLINE void check_builtins(void)
{
	ROUND(long, test_var);
	ROUND(int, test_var32);
	ROUND(short, test_var16);
	ROUND(signed char, test_var8);
}

int main(void)
{
	KCSAN_RUN(.kernel = { test_kernel_atomic_builtins, test_kernel_atomic_builtins },
		  .ms = 1500, .main_loop = check_builtins);
	return 0;
}
