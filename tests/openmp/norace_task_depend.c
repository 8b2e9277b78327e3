// Race-free: tasks ordered by depend clauses.  The producer/consumer pair
// of race_task_no_depend.c with depend(out: buf) and depend(in: buf), and
// no taskwait between rounds: the next producer's out dependence also
// waits for the previous consumer (write after read), which writes its
// results to its own row.
//
// OPTIONS: skip_watch=0 udelay_task=20 assume_plain_writes_atomic=0 report_value_change_only=0 print_stats=1
// CFLAGS: -O2 -g -fopenmp
// TIMEOUT: 120
// EXPECT: ^UCSAN: stats: setup_watchpoints: ([2-9][0-9]{4}|[1-9][0-9]{5,})$
// EXPECT: ^UCSAN: stats: data_races: 0$
// NOT: BUG|UCSAN: reported

#include "omp_test.h"

#define M 256
#define ROUNDS 60

static double src[M], buf[M], suffix_max[ROUNDS][M];

NOINLINE void pipeline(int rounds)
{
#pragma omp parallel
#pragma omp single
	for (int r = 0; r < rounds; r++) {
#pragma omp task depend(out: buf)
		for (int k = 0; k < M; k++)
			buf[k] = 0.5 * src[(k * 5 + r) % M];
#pragma omp task depend(in: buf)
		{
			double m = -1.0;

			for (int k = M - 1; k >= 0; k--) {
				double b = buf[k];

				if (b > m)
					m = b;
				suffix_max[r][k] = m;
			}
		}
	}
}

OMP_TEST_REFERENCE void check(int rounds)
{
	for (int r = 0; r < rounds; r++) {
		double m = -1.0;

		for (int k = M - 1; k >= 0; k--) {
			double b = 0.5 * src[(k * 5 + r) % M];

			if (b > m)
				m = b;
			E2E_CHECK(suffix_max[r][k] == m);
		}
	}
}

int main(void)
{
	omp_test_start();
	omp_test_check_team();
	for (int k = 0; k < M; k++)
		src[k] = (double)((k * 11) % 23);
	pipeline(ROUNDS);
	check(ROUNDS);
	return 0;
}
