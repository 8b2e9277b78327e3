// Two threads only reading the same plain variables (written once before the
// threads start): reads never conflict with reads.
//
// OPTIONS: skip_watch=0 print_stats=1
// EXPECT: ^UCSAN: stats: setup_watchpoints: [1-9][0-9]{3,}$
// NOT: BUG|UCSAN: reported

#include "e2e.h"

int table[64];

NOINLINE long read_table(int i)
{
	return table[i & 63];
}

static void read_at(long n)
{
	E2E_CHECK(read_table((int)n) >= 0);
}

int main(void)
{
	struct e2e_race race = E2E_RACE_STEPS(read_at, read_at);
	int i;

	e2e_require_runtime();
	for (i = 0; i < 64; i++)
		table[i] = i;
	e2e_race_for(&race, 1200);
	fprintf(stderr, "reads: %ld + %ld\n", race.loop[0].calls, race.loop[1].calls);
	E2E_CHECK(race.loop[0].calls > 0 && race.loop[1].calls > 0);
	return 0;
}
