// Race-free: atomic instead of critical.  The histogram bins are updated
// with omp atomic; omp atomic capture hands out output slots, each written
// by exactly one thread with a plain store; the main thread reads
// everything after the region.
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
#define REPS 6

static unsigned char pixels[N];
static long hist[BINS];
static int slot_of[N];
static int owner[N];
static int next_slot;

NOINLINE void histogram(void)
{
	next_slot = 0;
#pragma omp parallel for
	for (int i = 0; i < N; i++) {
		int bin = pixels[i] % BINS;
		int slot;

#pragma omp atomic update
		hist[bin]++;
#pragma omp atomic capture
		slot = next_slot++;
		owner[slot] = i;
		slot_of[i] = slot;
	}
}

int main(void)
{
	long want[BINS] = { 0 };

	omp_test_start();
	omp_test_check_team();
	for (int i = 0; i < N; i++)
		pixels[i] = (unsigned char)(i * 13 + i / 7);
	for (int rep = 0; rep < REPS; rep++) {
		histogram();
		for (int i = 0; i < N; i++)
			E2E_CHECK(owner[slot_of[i]] == i);
	}
	for (int i = 0; i < N; i++)
		want[pixels[i] % BINS] += REPS;
	for (int b = 0; b < BINS; b++)
		E2E_CHECK(hist[b] == want[b]);
	return 0;
}
