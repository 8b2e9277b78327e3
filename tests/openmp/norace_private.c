// Race-free: private, firstprivate and lastprivate.  The scratch row of
// race_missing_private.c is private, the generator state of
// race_missing_firstprivate.c is firstprivate (every thread starts from
// the same seed), and the last scratch value is copied out with
// lastprivate.
//
// OPTIONS: skip_watch=0 udelay_task=20 assume_plain_writes_atomic=0 report_value_change_only=0 print_stats=1
// CFLAGS: -O2 -g -fopenmp
// TIMEOUT: 120
// EXPECT: ^UCSAN: stats: setup_watchpoints: ([2-9][0-9]{4}|[1-9][0-9]{5,})$
// EXPECT: ^UCSAN: stats: data_races: 0$
// NOT: BUG|UCSAN: reported

#include "omp_test.h"

#define ROWS 64
#define COLS 32
#define DRAWS 64
#define REPS 14

static double img[ROWS][COLS], out[ROWS][COLS];
static unsigned samples[OMP_TEST_THREADS][DRAWS];

NOINLINE unsigned next_random(unsigned *state)
{
	*state = *state * 1103515245u + 12345u;
	return *state >> 16;
}

NOINLINE double blur_rows(void)
{
	double tmp[COLS];
	double last = 0;

#pragma omp parallel for private(tmp) lastprivate(last)
	for (int r = 0; r < ROWS; r++) {
		for (int c = 0; c < COLS; c++)
			tmp[c] = 0.25 * img[r][c];
		for (int c = 1; c < COLS - 1; c++)
			out[r][c] = tmp[c - 1] + 2 * tmp[c] + tmp[c + 1];
		last = tmp[COLS - 1];
	}
	return last;
}

NOINLINE void draw(unsigned seed)
{
	unsigned state = seed;

#pragma omp parallel firstprivate(state)
	{
		int t = omp_get_thread_num();

		for (int k = 0; k < DRAWS; k++)
			samples[t][k] = next_random(&state);
	}
}

int main(void)
{
	omp_test_start();
	omp_test_check_team();
	for (int r = 0; r < ROWS; r++)
		for (int c = 0; c < COLS; c++)
			img[r][c] = (double)((r * 31 + c * 7) % 17);
	for (int rep = 0; rep < REPS; rep++) {
		E2E_CHECK(blur_rows() == 0.25 * img[ROWS - 1][COLS - 1]);
		draw((unsigned)rep * 2654435761u);
		for (int t = 1; t < OMP_TEST_THREADS; t++)
			for (int k = 0; k < DRAWS; k++)
				E2E_CHECK(samples[t][k] == samples[0][k]);
	}
	E2E_CHECK(out[1][1] == 0.25 * (img[1][0] + 2 * img[1][1] + img[1][2]));
	return 0;
}
