// Race-free: single with its implied barrier.  The coefficients of
// race_single_nowait.c are computed inside single (no nowait), so the team
// waits for them before filtering; then single copyprivate broadcasts one
// value computed by one thread into every thread's private copy.
//
// OPTIONS: skip_watch=0 udelay_task=20 assume_plain_writes_atomic=0 report_value_change_only=0 print_stats=1
// CFLAGS: -O2 -g -fopenmp
// TIMEOUT: 120
// EXPECT: ^UCSAN: stats: setup_watchpoints: ([2-9][0-9]{4}|[1-9][0-9]{5,})$
// EXPECT: ^UCSAN: stats: data_races: 0$
// NOT: BUG|UCSAN: reported

#include "omp_test.h"

#define N 2048
#define K 16
#define REPS 10

static double coef[K], in[N], out[N];
static double offsets[OMP_TEST_THREADS];

NOINLINE void filter(int rep)
{
#pragma omp parallel
	{
		double offset;

#pragma omp single
		{
			double energy = 0;

			for (int i = 0; i < N / 8; i++)
				energy += in[i] * in[i];
			for (int k = 0; k < K; k++)
				coef[k] = (k + 1 + rep % 3) / energy;
		}
#pragma omp for
		for (int i = 0; i < N; i++)
			out[i] = in[i] * coef[i % K];
#pragma omp single copyprivate(offset)
		offset = out[rep % N] + rep;
		offsets[omp_get_thread_num()] = offset;
	}
}

int main(void)
{
	omp_test_start();
	omp_test_check_team();
	for (int i = 0; i < N; i++)
		in[i] = (double)(i % 9) - 4;
	for (int rep = 0; rep < REPS; rep++) {
		filter(rep);
		for (int t = 0; t < OMP_TEST_THREADS; t++)
			E2E_CHECK(offsets[t] == out[rep % N] + rep);
		E2E_CHECK(out[N - 1] == in[N - 1] * coef[(N - 1) % K]);
	}
	return 0;
}
