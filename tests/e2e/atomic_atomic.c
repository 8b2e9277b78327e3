// Two threads hammering the same variables with __atomic builtins only:
// marked vs marked is never a data race, so nothing may be reported.
//
// OPTIONS: skip_watch=0
// NOT: UCSAN

#include "e2e.h"

int adds;        /* only fetch_add'ed: the final value is checked */
int mixed;       /* loads, stores, exchanges, CAS */
long mixed64;

static void *hammer(void *arg)
{
	long *count = arg;
	long n = 0;
	int expected;

	while (!e2e_stopped()) {
		__atomic_fetch_add(&adds, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&mixed, (int)n, __ATOMIC_RELEASE);
		expected = __atomic_load_n(&mixed, __ATOMIC_ACQUIRE);
		__atomic_compare_exchange_n(&mixed, &expected, expected + 1, 0,
					    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
		__atomic_exchange_n(&mixed, (int)n, __ATOMIC_ACQ_REL);
		__atomic_fetch_or(&mixed64, 1L << (n & 63), __ATOMIC_RELAXED);
		__atomic_store_n(&mixed64, n, __ATOMIC_SEQ_CST);
		n++;
	}
	*count = n;
	return NULL;
}

int main(void)
{
	long na = 0, nb = 0;
	pthread_t a, b;

	e2e_require_runtime();
	a = e2e_spawn(hammer, &na);
	b = e2e_spawn(hammer, &nb);
	e2e_run_for(1200);
	e2e_join(a);
	e2e_join(b);
	fprintf(stderr, "iterations: %ld + %ld\n", na, nb);
	E2E_CHECK(na > 0 && nb > 0);
	E2E_CHECK(__atomic_load_n(&adds, __ATOMIC_RELAXED) == (int)(na + nb));
	return 0;
}
