// Race-free: the histogram of race_unprotected_update.c with its update in
// a critical section, and a second, named critical section guarding a
// different total.
//
// OPTIONS: skip_watch=0 udelay_task=20 assume_plain_writes_atomic=0 report_value_change_only=0 print_stats=1
// CFLAGS: -O2 -g -fopenmp
// TIMEOUT: 120
// EXPECT: ^UCSAN: stats: setup_watchpoints: ([2-9][0-9]{4}|[1-9][0-9]{5,})$
// EXPECT: ^UCSAN: stats: data_races: 0$
// NOT: BUG|UCSAN: reported

#include "omp_test.h"

#define N 2048
#define BINS 8
#define REPS 7

static unsigned char pixels[N];
static long hist[BINS];
static long bright;

NOINLINE void histogram(void)
{
#pragma omp parallel for
	for (int i = 0; i < N; i++) {
		int bin = pixels[i] % BINS;

#pragma omp critical
		hist[bin]++;
		if (pixels[i] > 200) {
#pragma omp critical(bright_count)
			bright += pixels[i];
		}
	}
}

int main(void)
{
	long want_hist[BINS] = { 0 }, want_bright = 0;

	omp_test_start();
	omp_test_check_team();
	for (int i = 0; i < N; i++)
		pixels[i] = (unsigned char)(i * 13 + i / 7);
	for (int rep = 0; rep < REPS; rep++)
		histogram();
	for (int i = 0; i < N; i++) {
		want_hist[pixels[i] % BINS] += REPS;
		if (pixels[i] > 200)
			want_bright += (long)REPS * pixels[i];
	}
	for (int b = 0; b < BINS; b++)
		E2E_CHECK(hist[b] == want_hist[b]);
	E2E_CHECK(bright == want_bright);
	return 0;
}
