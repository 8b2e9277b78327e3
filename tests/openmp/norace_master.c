// Race-free: master followed by an explicit barrier.  The lookup table of
// race_master_no_barrier.c is built by the master thread and the team
// waits at the barrier before decoding with it.
//
// OPTIONS: skip_watch=0 udelay_task=20 assume_plain_writes_atomic=0 report_value_change_only=0 print_stats=1
// CFLAGS: -O2 -g -fopenmp
// TIMEOUT: 120
// EXPECT: ^UCSAN: stats: setup_watchpoints: ([2-9][0-9]{4}|[1-9][0-9]{5,})$
// EXPECT: ^UCSAN: stats: data_races: 0$
// NOT: BUG|UCSAN: reported

#include "omp_test.h"

#define N 2048
#define LUT 64
#define REPS 7

static int lut[LUT];
static unsigned char codes[N];
static int decoded[N];

NOINLINE void decode(int rep)
{
#pragma omp parallel
	{
#pragma omp master
		{
			lut[0] = rep;
			for (int k = 1; k < LUT; k++)
				lut[k] = lut[k - 1] * 3 + k;
		}
#pragma omp barrier
#pragma omp for
		for (int i = 0; i < N; i++)
			decoded[i] = lut[codes[i] % LUT];
	}
}

int main(void)
{
	omp_test_start();
	omp_test_check_team();
	for (int i = 0; i < N; i++)
		codes[i] = (unsigned char)(i * 29 + 3);
	for (int rep = 0; rep < REPS; rep++) {
		int want[LUT];

		decode(rep);
		want[0] = rep;
		for (int k = 1; k < LUT; k++)
			want[k] = want[k - 1] * 3 + k;
		for (int i = 0; i < N; i++)
			E2E_CHECK(decoded[i] == want[codes[i] % LUT]);
	}
	return 0;
}
