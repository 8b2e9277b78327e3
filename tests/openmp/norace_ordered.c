// Race-free: ordered.  The count of results that race_ordered_outside.c
// bumps outside the ordered block is updated inside it, next to the
// order-dependent checksum; the rest of the iteration runs in parallel.
//
// OPTIONS: skip_watch=0 udelay_task=20 assume_plain_writes_atomic=0 report_value_change_only=0 print_stats=1
// CFLAGS: -O2 -g -fopenmp
// TIMEOUT: 120
// EXPECT: ^UCSAN: stats: setup_watchpoints: ([2-9][0-9]{4}|[1-9][0-9]{5,})$
// EXPECT: ^UCSAN: stats: data_races: 0$
// NOT: BUG|UCSAN: reported

#include "omp_test.h"

#define N 256
#define T 61
#define REPS 20

static unsigned long table[T];
static unsigned long checksum;
static long written;
static unsigned long results[N];

NOINLINE unsigned long mix(int i)
{
	unsigned long h = (unsigned long)i;

	for (int k = 0; k < 4; k++)
		h = h * 31 + table[(h + k) % T];
	return h;
}

NOINLINE void emit_all(void)
{
#pragma omp parallel for ordered schedule(dynamic)
	for (int i = 0; i < N; i++) {
		unsigned long v = mix(i);

		results[i] = v;
#pragma omp ordered
		{
			checksum = checksum * 131 + v;
			written++;
		}
	}
}

int main(void)
{
	unsigned long want = 0;

	omp_test_start();
	omp_test_check_team();
	for (int k = 0; k < T; k++)
		table[k] = (unsigned long)(k * k + 7);
	for (int rep = 0; rep < REPS; rep++) {
		emit_all();
		for (int i = 0; i < N; i++)
			want = want * 131 + results[i];
		E2E_CHECK(checksum == want);
	}
	E2E_CHECK(written == (long)REPS * N);
	return 0;
}
