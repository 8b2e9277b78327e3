// Race-free: the last-match search of race_output_dep.c with
// reduction(max:found): every thread keeps its own candidate and the
// runtime combines them.
//
// OPTIONS: skip_watch=0 udelay_task=20 assume_plain_writes_atomic=0 report_value_change_only=0 print_stats=1
// CFLAGS: -O2 -g -fopenmp
// TIMEOUT: 120
// EXPECT: ^UCSAN: stats: setup_watchpoints: ([2-9][0-9]{4}|[1-9][0-9]{5,})$
// EXPECT: ^UCSAN: stats: data_races: 0$
// NOT: BUG|UCSAN: reported

#include "omp_test.h"

#define N 1024
#define REPS 40

static int keys[N];

NOINLINE int find_last(int key)
{
	int found = -1;

#pragma omp parallel for reduction(max:found)
	for (int i = 0; i < N; i++)
		if (keys[i] == key)
			found = i;
	return found;
}

OMP_TEST_REFERENCE int find_last_reference(int key)
{
	int found = -1;

	for (int i = 0; i < N; i++)
		if (keys[i] == key)
			found = i;
	return found;
}

int main(void)
{
	omp_test_start();
	omp_test_check_team();
	for (int rep = 0; rep < REPS; rep++) {
		for (int i = 0; i < N; i++)
			keys[i] = (i * 7 + rep) % 13;
		E2E_CHECK(find_last(rep % 13) == find_last_reference(rep % 13));
	}
	return 0;
}
