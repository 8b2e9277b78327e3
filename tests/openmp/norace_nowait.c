// Race-free: nowait used correctly.  The two first loops have the same
// iteration count and both say schedule(static), so OpenMP gives every
// iteration to the same thread in both: the second loop reads only the y[i]
// its own thread wrote, and needs no barrier.  The mirrored read of
// race_nowait.c comes only after an explicit barrier.
//
// OPTIONS: skip_watch=0 udelay_task=20 assume_plain_writes_atomic=0 report_value_change_only=0 print_stats=1
// CFLAGS: -O2 -g -fopenmp
// TIMEOUT: 120
// EXPECT: ^UCSAN: stats: setup_watchpoints: ([2-9][0-9]{4}|[1-9][0-9]{5,})$
// EXPECT: ^UCSAN: stats: data_races: 0$
// NOT: BUG|UCSAN: reported

#include "omp_test.h"

#define N 96
#define REPS 5

static double lower[N][N], xv[N], yv[N], zv[N], mirror[N];

NOINLINE void matvec_then_mirror(double *y, double (*m)[N], const double *x,
				 double *z, double *d)
{
#pragma omp parallel
	{
#pragma omp for schedule(static) nowait
		for (int i = 0; i < N; i++) {
			y[i] = 0;
			for (int j = 0; j <= i; j++)
				y[i] += m[i][j] * x[j];
		}
#pragma omp for schedule(static) nowait
		for (int i = 0; i < N; i++)
			z[i] = 2 * y[i];
#pragma omp barrier
#pragma omp for
		for (int i = 0; i < N; i++)
			d[i] = z[i] - z[N - 1 - i];
	}
}

OMP_TEST_REFERENCE void check(void)
{
	for (int i = 0; i < N; i++) {
		double s = 0;

		for (int j = 0; j <= i; j++)
			s += lower[i][j] * xv[j];
		E2E_CHECK(zv[i] == 2 * s);
	}
	for (int i = 0; i < N; i++)
		E2E_CHECK(mirror[i] == zv[i] - zv[N - 1 - i]);
}

int main(void)
{
	omp_test_start();
	omp_test_check_team();
	for (int i = 0; i < N; i++) {
		xv[i] = (double)(i % 5) - 2;
		for (int j = 0; j <= i; j++)
			lower[i][j] = (double)((i + 3 * j) % 7);
	}
	for (int rep = 0; rep < REPS; rep++) {
		xv[rep % N] += 1;
		matvec_then_mirror(yv, lower, xv, zv, mirror);
		check();
	}
	return 0;
}
