// Race-free: a true dependence across time steps, done right.  Jacobi
// smoothing with two buffers inside one parallel region: step s reads its
// neighbours (including those other threads wrote) from the buffer step
// s - 1 wrote, and the implicit barrier of every worksharing loop orders
// the steps.
//
// OPTIONS: skip_watch=0 udelay_task=20 assume_plain_writes_atomic=0 report_value_change_only=0 print_stats=1
// CFLAGS: -O2 -g -fopenmp
// TIMEOUT: 120
// EXPECT: ^UCSAN: stats: setup_watchpoints: ([2-9][0-9]{4}|[1-9][0-9]{5,})$
// EXPECT: ^UCSAN: stats: data_races: 0$
// NOT: BUG|UCSAN: reported

#include "omp_test.h"

#define N 256
#define STEPS 90

static double a[N], b[N], want[N], tmp[N];

NOINLINE void jacobi(int steps)
{
#pragma omp parallel
	for (int s = 0; s < steps; s++) {
		const double *src = (s & 1) ? b : a;
		double *dst = (s & 1) ? a : b;

#pragma omp for
		for (int i = 1; i < N - 1; i++)
			dst[i] = (src[i - 1] + src[i] + src[i + 1]) / 3;
	}
}

OMP_TEST_REFERENCE void jacobi_reference(int steps)
{
	for (int s = 0; s < steps; s++) {
		for (int i = 0; i < N; i++)
			tmp[i] = want[i];
		for (int i = 1; i < N - 1; i++)
			want[i] = (tmp[i - 1] + tmp[i] + tmp[i + 1]) / 3;
	}
}

int main(void)
{
	omp_test_start();
	omp_test_check_team();
	for (int i = 0; i < N; i++)
		a[i] = b[i] = want[i] = (double)((i * 13) % 29);
	jacobi(STEPS);
	jacobi_reference(STEPS);
	for (int i = 0; i < N; i++)
		E2E_CHECK(a[i] == want[i]);
	return 0;
}
