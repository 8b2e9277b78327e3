// Race-free: indirect access through an index array that is a
// permutation, so every iteration updates a different bin
// (race_indirect.c has duplicates).
//
// OPTIONS: skip_watch=0 udelay_task=20 assume_plain_writes_atomic=0 report_value_change_only=0 print_stats=1
// CFLAGS: -O2 -g -fopenmp
// TIMEOUT: 120
// EXPECT: ^UCSAN: stats: setup_watchpoints: ([2-9][0-9]{4}|[1-9][0-9]{5,})$
// EXPECT: ^UCSAN: stats: data_races: 0$
// NOT: BUG|UCSAN: reported

#include "omp_test.h"

#define N 2048
#define REPS 9

static int perm[N];
static double w[N], acc[N];

NOINLINE void scatter_add(const int *index, const double *weight, double *bins)
{
#pragma omp parallel for
	for (int i = 0; i < N; i++)
		bins[index[i]] += weight[i];
}

int main(void)
{
	omp_test_start();
	omp_test_check_team();
	for (int i = 0; i < N; i++) {
		perm[i] = (i * 17) % N;   /* 17 is odd and N a power of 2 */
		w[i] = (double)(i % 3) + 0.5;
	}
	for (int rep = 0; rep < REPS; rep++)
		scatter_add(perm, w, acc);
	for (int i = 0; i < N; i++)
		E2E_CHECK(acc[perm[i]] == REPS * w[i]);
	return 0;
}
