// Two threads hammering the same variables with volatile loads and stores
// only: volatile accesses are marked, and marked vs marked is never reported.
//
// OPTIONS: skip_watch=0
// NOT: UCSAN

#include "e2e.h"

volatile int vint;
volatile long vlong;
volatile unsigned char vbyte;

/* What it reads back goes nowhere: volatile reads are never dropped. */
static void hammer(long n)
{
	vint = (int)n;
	(void)vint;
	vlong = n;
	(void)vlong;
	vbyte = (unsigned char)n;
	(void)vbyte;
}

int main(void)
{
	struct e2e_race race = E2E_RACE_STEPS(hammer, hammer);

	e2e_require_runtime();
	e2e_race_for(&race, 1200);
	fprintf(stderr, "iterations: %ld + %ld\n", race.loop[0].calls, race.loop[1].calls);
	E2E_CHECK(race.loop[0].calls > 0 && race.loop[1].calls > 0);
	return 0;
}
