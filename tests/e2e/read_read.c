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

static void *reader_thread(void *arg)
{
	long *count = arg;
	long n = 0, sum = 0;

	while (!e2e_stopped()) {
		sum += read_table((int)n);
		n++;
	}
	E2E_CHECK(sum >= 0);
	*count = n;
	return NULL;
}

int main(void)
{
	long na = 0, nb = 0;
	pthread_t a, b;
	int i;

	e2e_require_runtime();
	for (i = 0; i < 64; i++)
		table[i] = i;
	a = e2e_spawn(reader_thread, &na);
	b = e2e_spawn(reader_thread, &nb);
	e2e_run_for(1200);
	e2e_join(a);
	e2e_join(b);
	fprintf(stderr, "reads: %ld + %ld\n", na, nb);
	E2E_CHECK(na > 0 && nb > 0);
	return 0;
}
