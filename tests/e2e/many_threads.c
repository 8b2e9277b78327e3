// Eight threads incrementing four plain counters without synchronization,
// not halting: several reports may be printed concurrently; each must come
// out whole (no report interleaved with another).
//
// OPTIONS: skip_watch=0 report_once_in_ms=200
// TRIES: 3
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in bump_[0-3] / bump_[0-3]$
// EXPECT: ^UCSAN: reported [0-9]+ data races?$
// NOT: .BUG:|.={66}|={67}|.UCSAN: reported|^ .* (read|write)

#include "e2e.h"

#define THREADS 8

int counters[4][16];    /* one counter per 64-byte line */

NOINLINE void bump_0(void) { counters[0][0]++; }
NOINLINE void bump_1(void) { counters[1][0]++; }
NOINLINE void bump_2(void) { counters[2][0]++; }
NOINLINE void bump_3(void) { counters[3][0]++; }

static void *worker(void *arg)
{
	long t = (long)arg;

	while (!e2e_stopped()) {
		switch (t & 3) {
		case 0: bump_0(); bump_1(); break;
		case 1: bump_1(); bump_2(); break;
		case 2: bump_2(); bump_3(); break;
		default: bump_3(); bump_0(); break;
		}
	}
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];
	long i;

	for (i = 0; i < THREADS; i++)
		t[i] = e2e_spawn(worker, (void *)i);
	e2e_run_for(1500);
	for (i = 0; i < THREADS; i++)
		e2e_join(t[i]);
	return 0;
}
