// Two threads hammering the same variables with __atomic builtins only:
// marked vs marked is never a data race, so nothing may be reported.
//
// OPTIONS: skip_watch=0
// NOT: UCSAN

#include "e2e.h"

int adds;        /* only fetch_add'ed: the final value is checked */
int mixed;       /* loads, stores, exchanges, CAS */
long mixed64;

static void hammer(long n)
{
	int expected;

	__atomic_fetch_add(&adds, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&mixed, (int)n, __ATOMIC_RELEASE);
	expected = __atomic_load_n(&mixed, __ATOMIC_ACQUIRE);
	__atomic_compare_exchange_n(&mixed, &expected, expected + 1, 0,
				    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
	__atomic_exchange_n(&mixed, (int)n, __ATOMIC_ACQ_REL);
	__atomic_fetch_or(&mixed64, 1L << (n & 63), __ATOMIC_RELAXED);
	__atomic_store_n(&mixed64, n, __ATOMIC_SEQ_CST);
}

int main(void)
{
	struct e2e_race race = E2E_RACE_STEPS(hammer, hammer);
	long na, nb;

	e2e_require_runtime();
	e2e_race_for(&race, 1200);
	na = race.loop[0].calls;
	nb = race.loop[1].calls;
	fprintf(stderr, "iterations: %ld + %ld\n", na, nb);
	E2E_CHECK(na > 0 && nb > 0);
	E2E_CHECK(__atomic_load_n(&adds, __ATOMIC_RELAXED) == (int)(na + nb));
	return 0;
}
