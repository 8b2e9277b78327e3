// Race-free: taskwait.  The encountering thread of race_task_no_taskwait.c
// waits for the scaling task before summing; then a recursive tree sum
// whose tasks write their result into the parent's frame, read by the
// parent after its taskwait.
//
// OPTIONS: skip_watch=0 udelay_task=20 assume_plain_writes_atomic=0 report_value_change_only=0 print_stats=1
// CFLAGS: -O2 -g -fopenmp
// TIMEOUT: 120
// EXPECT: ^UCSAN: stats: setup_watchpoints: ([2-9][0-9]{4}|[1-9][0-9]{5,})$
// EXPECT: ^UCSAN: stats: data_races: 0$
// NOT: BUG|UCSAN: reported

#include "omp_test.h"

#define M 256
#define REPS 40

static double src[M], vals[M];

NOINLINE double scale_and_sum(double f)
{
	double s = 0;

#pragma omp parallel
#pragma omp single
	{
#pragma omp task
		for (int k = 0; k < M; k++)
			vals[k] = f * src[k];
#pragma omp taskwait
		for (int k = M - 1; k >= 0; k--)
			s += vals[k];
	}
	return s;
}

NOINLINE double tree_sum(const double *a, int n)
{
	double left, right;

	if (n <= 16) {
		double s = 0;

		for (int i = 0; i < n; i++)
			s += a[i];
		return s;
	}
#pragma omp task shared(left)
	left = tree_sum(a, n / 2);
	right = tree_sum(a + n / 2, n - n / 2);
#pragma omp taskwait
	return left + right;
}

NOINLINE double parallel_tree_sum(const double *a, int n)
{
	double s = 0;

#pragma omp parallel
#pragma omp single
	s = tree_sum(a, n);
	return s;
}

int main(void)
{
	double base = 0;

	omp_test_start();
	omp_test_check_team();
	for (int k = 0; k < M; k++) {
		src[k] = (double)(k % 13);
		base += src[k];
	}
	for (int rep = 0; rep < REPS; rep++) {
		double f = 1.0 + rep % 4;

		E2E_CHECK(scale_and_sum(f) == f * base);
		E2E_CHECK(parallel_tree_sum(vals, M) == f * base);
	}
	return 0;
}
