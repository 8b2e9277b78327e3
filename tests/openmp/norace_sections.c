// Race-free: independent sections.  One section rescales v, the other
// computes the squared norm of a different vector w; the implied barrier
// at the end of the sections orders both before the loop that combines
// them.
//
// OPTIONS: skip_watch=0 udelay_task=20 assume_plain_writes_atomic=0 report_value_change_only=0 print_stats=1
// CFLAGS: -O2 -g -fopenmp
// TIMEOUT: 120
// EXPECT: ^UCSAN: stats: setup_watchpoints: ([2-9][0-9]{4}|[1-9][0-9]{5,})$
// EXPECT: ^UCSAN: stats: data_races: 0$
// NOT: BUG|UCSAN: reported

#include "omp_test.h"

#define M 512
#define REPS 24

static double v[M], w[M], mix[M];
static double norm2;

NOINLINE void rescale_measure_mix(double f)
{
#pragma omp parallel
	{
#pragma omp sections
		{
#pragma omp section
			for (int k = 0; k < M; k++)
				v[k] *= f;
#pragma omp section
			{
				double s = 0;

				for (int k = 0; k < M; k++)
					s += w[k] * w[k];
				norm2 = s;
			}
		}
#pragma omp for
		for (int k = 0; k < M; k++)
			mix[k] = v[k] + w[k] / norm2;
	}
}

int main(void)
{
	double want = 0;

	omp_test_start();
	omp_test_check_team();
	for (int k = 0; k < M; k++) {
		v[k] = (double)(k % 17) + 1;
		w[k] = (double)(k % 5) + 1;
		want += w[k] * w[k];
	}
	for (int rep = 0; rep < REPS; rep++) {
		rescale_measure_mix((rep & 1) ? 0.5 : 2.0);
		E2E_CHECK(norm2 == want);
		E2E_CHECK(mix[3] == v[3] + w[3] / want);
	}
	E2E_CHECK(v[5] == 6);
	return 0;
}
