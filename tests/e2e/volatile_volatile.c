// Two threads hammering the same variables with volatile loads and stores
// only: volatile accesses are marked, and marked vs marked is never reported.
//
// OPTIONS: skip_watch=0
// NOT: UCSAN

#include "e2e.h"

volatile int vint;
volatile long vlong;
volatile unsigned char vbyte;
long sink;

static void *hammer(void *arg)
{
	long *count = arg;
	long n = 0;
	long sum = 0;

	while (!e2e_stopped()) {
		vint = (int)n;
		sum += vint;
		vlong = n;
		sum += vlong;
		vbyte = (unsigned char)n;
		sum += vbyte;
		n++;
	}
	__atomic_store_n(&sink, sum, __ATOMIC_RELAXED);
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
	return 0;
}
