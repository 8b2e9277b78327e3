// Race-free: the anti-dependence of race_anti_dep.c removed.  The row is
// copied first; the implicit barrier after the copy loop orders every
// write of old[] before any read of it, and each iteration then writes
// only its own row[i].
//
// OPTIONS: skip_watch=0 udelay_task=20 assume_plain_writes_atomic=0 report_value_change_only=0 print_stats=1
// CFLAGS: -O2 -g -fopenmp
// TIMEOUT: 120
// EXPECT: ^UCSAN: stats: setup_watchpoints: ([2-9][0-9]{4}|[1-9][0-9]{5,})$
// EXPECT: ^UCSAN: stats: data_races: 0$
// NOT: BUG|UCSAN: reported

#include "omp_test.h"

#define N 512
#define REPS 40

static double row[N + 1], old[N + 1], want[N + 1], tmp[N + 1];

NOINLINE void relax(void)
{
#pragma omp parallel
	{
#pragma omp for
		for (int i = 0; i <= N; i++)
			old[i] = row[i];
#pragma omp for schedule(dynamic, 8)
		for (int i = 0; i < N; i++)
			row[i] = 0.5 * (old[i] + old[i + 1]);
	}
}

OMP_TEST_REFERENCE void relax_reference(void)
{
	for (int i = 0; i <= N; i++)
		tmp[i] = want[i];
	for (int i = 0; i < N; i++)
		want[i] = 0.5 * (tmp[i] + tmp[i + 1]);
}

int main(void)
{
	omp_test_start();
	omp_test_check_team();
	for (int i = 0; i <= N; i++)
		row[i] = want[i] = (double)((i * 37) % 101);
	for (int rep = 0; rep < REPS; rep++) {
		relax();
		relax_reference();
	}
	for (int i = 0; i <= N; i++)
		E2E_CHECK(row[i] == want[i]);
	return 0;
}
