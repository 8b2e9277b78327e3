// Race-free: omp_lock_t used by every access.  The workers of
// race_lock_unlocked_read.c update the totals under the lock, and thread 0
// samples the progress count under it too, with omp_test_lock so that it
// never waits for it.
//
// OPTIONS: skip_watch=0 udelay_task=20 assume_plain_writes_atomic=0 report_value_change_only=0 print_stats=1
// CFLAGS: -O2 -g -fopenmp
// TIMEOUT: 120
// EXPECT: ^UCSAN: stats: setup_watchpoints: ([2-9][0-9]{4}|[1-9][0-9]{5,})$
// EXPECT: ^UCSAN: stats: data_races: 0$
// NOT: BUG|UCSAN: reported

#include "omp_test.h"

#define N 512
#define W 37
#define REPS 10

static omp_lock_t lock;
static double weights[W];
static double total;
static long items_done;
static long progress_seen;

NOINLINE double work(int i)
{
	double s = 0;

	for (int k = 0; k < 8; k++)
		s += weights[(i + k) % W];
	return s;
}

NOINLINE void process(void)
{
#pragma omp parallel for schedule(dynamic, 4)
	for (int i = 0; i < N; i++) {
		double v = work(i);

		omp_set_lock(&lock);
		total += v;
		items_done++;
		omp_unset_lock(&lock);
		if (omp_get_thread_num() == 0 && omp_test_lock(&lock)) {
			E2E_CHECK(items_done >= progress_seen);
			progress_seen = items_done;
			omp_unset_lock(&lock);
		}
	}
}

int main(void)
{
	double want = 0;

	omp_test_start();
	omp_test_check_team();
	omp_init_lock(&lock);
	for (int k = 0; k < W; k++)
		weights[k] = (double)(k % 4);
	for (int rep = 0; rep < REPS; rep++)
		process();
	omp_destroy_lock(&lock);
	for (int i = 0; i < N; i++)
		for (int k = 0; k < 8; k++)
			want += REPS * weights[(i + k) % W];
	E2E_CHECK(items_done == (long)REPS * N);
	E2E_CHECK(total == want);
	return 0;
}
