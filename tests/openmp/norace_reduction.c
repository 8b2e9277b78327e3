// Race-free: reductions with the reduction clause instead of by hand
// (race_reduction_by_hand.c): a sum and a maximum in one loop.
//
// OPTIONS: skip_watch=0 udelay_task=20 assume_plain_writes_atomic=0 report_value_change_only=0 print_stats=1
// CFLAGS: -O2 -g -fopenmp
// TIMEOUT: 120
// EXPECT: ^UCSAN: stats: setup_watchpoints: ([2-9][0-9]{4}|[1-9][0-9]{5,})$
// EXPECT: ^UCSAN: stats: data_races: 0$
// NOT: BUG|UCSAN: reported

#include "omp_test.h"

#define N 2048
#define REPS 30

static double v[N];

NOINLINE double sum_and_peak(double *peak)
{
	double total = 0, top = -1;

#pragma omp parallel for reduction(+:total) reduction(max:top)
	for (int i = 0; i < N; i++) {
		total += v[i];
		if (v[i] > top)
			top = v[i];
	}
	*peak = top;
	return total;
}

OMP_TEST_REFERENCE double sum_reference(void)
{
	double total = 0;

	for (int i = 0; i < N; i++)
		total += v[i];
	return total;
}

int main(void)
{
	omp_test_start();
	omp_test_check_team();
	for (int i = 0; i < N; i++)
		v[i] = (double)(i % 10);
	for (int rep = 0; rep < REPS; rep++) {
		double peak;

		v[(rep * 41) % N] = 10 + rep;
		E2E_CHECK(sum_and_peak(&peak) == sum_reference());
		E2E_CHECK(peak == 10 + rep);
	}
	return 0;
}
