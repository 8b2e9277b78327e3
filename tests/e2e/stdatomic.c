// C11 <stdatomic.h>: every operation computes the right result single-threaded
// and with two threads; an atomic_flag spinlock protects a plain counter (the
// runtime sees only the flag's atomics and the counter's plain accesses,
// which never overlap).  Nothing may be reported.
//
// OPTIONS: skip_watch=0
// NOT: UCSAN

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "e2e.h"

#define ITERS 100000
#define LOCKED_ITERS 3000

atomic_bool ab;
atomic_char ac;
atomic_short as;
atomic_int ai;
atomic_long al;
atomic_ullong aull;
atomic_uintptr_t aup;
_Atomic(long long) all;

atomic_int sum_add, sum_cas, sum_sub;
atomic_ullong xor_mix;
atomic_flag lock = ATOMIC_FLAG_INIT;
long plain_counter;     /* protected by lock */

static void single(void)
{
	int e;
	long le;
	long long x;

	atomic_init(&ai, 5);
	E2E_CHECK(atomic_load(&ai) == 5);
	atomic_store(&ai, 6);
	E2E_CHECK(atomic_load_explicit(&ai, memory_order_acquire) == 6);
	atomic_store_explicit(&ai, 7, memory_order_release);
	E2E_CHECK(atomic_exchange(&ai, 8) == 7);
	E2E_CHECK(atomic_exchange_explicit(&ai, 9, memory_order_acq_rel) == 8);
	e = 9;
	E2E_CHECK(atomic_compare_exchange_strong(&ai, &e, 10));
	E2E_CHECK(!atomic_compare_exchange_strong(&ai, &e, 11) && e == 10);
	e = 10;
	while (!atomic_compare_exchange_weak(&ai, &e, 12))
		E2E_CHECK(e == 10);
	e = 0;
	E2E_CHECK(!atomic_compare_exchange_weak_explicit(&ai, &e, 1,
		  memory_order_seq_cst, memory_order_relaxed) && e == 12);
	E2E_CHECK(atomic_compare_exchange_strong_explicit(&ai, &e, 13,
		  memory_order_acq_rel, memory_order_acquire));
	E2E_CHECK(atomic_load(&ai) == 13);
	E2E_CHECK(atomic_fetch_add(&ai, 2) == 13);
	E2E_CHECK(atomic_fetch_sub(&ai, 5) == 15);
	E2E_CHECK(atomic_fetch_and(&ai, 6) == 10);
	E2E_CHECK(atomic_fetch_or(&ai, 5) == 2);
	E2E_CHECK(atomic_fetch_xor(&ai, 3) == 7);
	E2E_CHECK(atomic_load(&ai) == 4);
	E2E_CHECK(atomic_fetch_add_explicit(&ai, 1, memory_order_relaxed) == 4);
	E2E_CHECK(atomic_fetch_sub_explicit(&ai, 1, memory_order_release) == 5);
	E2E_CHECK(atomic_fetch_and_explicit(&ai, 1, memory_order_acquire) == 4);
	E2E_CHECK(atomic_fetch_or_explicit(&ai, 8, memory_order_acq_rel) == 0);
	E2E_CHECK(atomic_fetch_xor_explicit(&ai, 8, memory_order_seq_cst) == 8);
	E2E_CHECK(atomic_load(&ai) == 0);

	atomic_store(&ab, true);
	E2E_CHECK(atomic_exchange(&ab, false) == true);
	E2E_CHECK(!atomic_load(&ab));
	atomic_store(&ac, 'a');
	E2E_CHECK(atomic_fetch_add(&ac, 1) == 'a' && atomic_load(&ac) == 'b');
	atomic_store(&as, -2);
	E2E_CHECK(atomic_fetch_add(&as, 3) == -2 && atomic_load(&as) == 1);
	atomic_store(&al, 1L << 40);
	le = 1L << 40;
	E2E_CHECK(atomic_compare_exchange_strong(&al, &le, -1L));
	E2E_CHECK(atomic_load(&al) == -1L);
	atomic_store(&aull, 0xfedcba9876543210ULL);
	E2E_CHECK(atomic_fetch_xor(&aull, 0xffffffffffffffffULL) ==
		  0xfedcba9876543210ULL);
	E2E_CHECK(atomic_load(&aull) == 0x0123456789abcdefULL);
	atomic_store(&aup, (uintptr_t)&aup);
	E2E_CHECK(atomic_load(&aup) == (uintptr_t)&aup);
	atomic_store(&all, -5LL);
	x = atomic_fetch_sub(&all, 1LL << 62);
	E2E_CHECK(x == -5LL && atomic_load(&all) == -5LL - (1LL << 62));

	E2E_CHECK(!atomic_flag_test_and_set(&lock));
	E2E_CHECK(atomic_flag_test_and_set_explicit(&lock, memory_order_acquire));
	atomic_flag_clear_explicit(&lock, memory_order_release);
	E2E_CHECK(!atomic_flag_test_and_set(&lock));
	atomic_flag_clear(&lock);

	atomic_thread_fence(memory_order_seq_cst);
	atomic_signal_fence(memory_order_seq_cst);
	E2E_CHECK(atomic_is_lock_free(&ai));
	E2E_CHECK(atomic_is_lock_free(&all));
}

static void *hammer(void *arg)
{
	int i, old;

	(void)arg;
	for (i = 0; i < ITERS; i++) {
		atomic_fetch_add_explicit(&sum_add, 1, memory_order_relaxed);
		atomic_fetch_sub(&sum_sub, 3);
		old = atomic_load_explicit(&sum_cas, memory_order_relaxed);
		while (!atomic_compare_exchange_weak_explicit(&sum_cas, &old,
				old + 1, memory_order_acq_rel,
				memory_order_relaxed))
			;
		atomic_fetch_xor(&xor_mix, 0x8000000000000001ULL);
		if (i < LOCKED_ITERS) {
			while (atomic_flag_test_and_set_explicit(&lock,
					memory_order_acquire))
				;
			plain_counter++;
			atomic_flag_clear_explicit(&lock, memory_order_release);
		}
	}
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	e2e_require_runtime();
	single();
	a = e2e_spawn(hammer, NULL);
	b = e2e_spawn(hammer, NULL);
	e2e_join(a);
	e2e_join(b);
	E2E_CHECK(atomic_load(&sum_add) == 2 * ITERS);
	E2E_CHECK(atomic_load(&sum_sub) == -3 * 2 * ITERS);
	E2E_CHECK(atomic_load(&sum_cas) == 2 * ITERS);
	E2E_CHECK(atomic_load(&xor_mix) == 0);
	E2E_CHECK(plain_counter == 2 * LOCKED_ITERS);
	return 0;
}
