// Race-free: teams that change size and nest, so the OpenMP runtime starts
// threads long after the program began (and may retire or reuse them):
// each new thread gets its per-thread state on its first instrumented
// access.  Every thread of an inner team accumulates into its own slot;
// the outer thread reads both slots of its inner team after the inner
// join, and main reads the outer results after the outer join.
//
// OPTIONS: skip_watch=0 udelay_task=20 assume_plain_writes_atomic=0 report_value_change_only=0 print_stats=1
// CFLAGS: -O2 -g -fopenmp
// TIMEOUT: 120
// EXPECT: ^UCSAN: stats: setup_watchpoints: ([2-9][0-9]{4}|[1-9][0-9]{5,})$
// EXPECT: ^UCSAN: stats: data_races: 0$
// NOT: BUG|UCSAN: reported

#include "omp_test.h"

#define K 256
#define MAX_OUTER 4
#define REPS 12

static const int team_sizes[] = { 2, 4, 3, 1, 4 };
static double data[K];
static double slot[MAX_OUTER][2];
static double outer_sum[MAX_OUTER];
static int team_seen[MAX_OUTER][2];

NOINLINE void nested_sums(int outer)
{
#pragma omp parallel num_threads(outer)
	{
		int o = omp_get_thread_num();

#pragma omp parallel num_threads(2)
		{
			int i = omp_get_thread_num();

			slot[o][i] = 0;
			for (int k = i; k < K; k += 2)
				slot[o][i] += data[k] * (o + 1);
			team_seen[o][i] = omp_get_num_threads();
		}
		outer_sum[o] = slot[o][0] + slot[o][1];
	}
}

int main(void)
{
	double base = 0;

	omp_test_start();
	omp_test_check_team();
	omp_set_max_active_levels(2);
	for (int k = 0; k < K; k++) {
		data[k] = (double)(k % 11);
		base += data[k];
	}
	for (int rep = 0; rep < REPS; rep++) {
		for (unsigned s = 0; s < sizeof(team_sizes) / sizeof(team_sizes[0]); s++) {
			int outer = team_sizes[s];

			nested_sums(outer);
			for (int o = 0; o < outer; o++) {
				E2E_CHECK(outer_sum[o] == base * (o + 1));
				E2E_CHECK(team_seen[o][0] == 2 && team_seen[o][1] == 2);
			}
		}
	}
	return 0;
}
