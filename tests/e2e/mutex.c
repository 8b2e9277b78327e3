// No race: two threads update shared data only while holding a
// pthread_mutex, well over a million plain accesses in total under
// skip_watch=0 (every plain read sets a watchpoint; the delay is kept short
// so the test stays fast).
//
// OPTIONS: skip_watch=0 udelay_task=1 udelay_interrupt=1 print_stats=1
// TIMEOUT: 120
// EXPECT: ^UCSAN: stats: setup_watchpoints: ([3-9][0-9]{5}|[0-9]{7,})$
// EXPECT: ^UCSAN: stats: data_races: 0$
// NOT: BUG|UCSAN: reported

#include "e2e.h"

#define THREADS 2
#define ITERS 110000            /* x 6 plain accesses x 2 threads */

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
struct {
	long count;
	long sum;
	int slots[16];
} data;

NOINLINE void update(long i)
{
	data.count = data.count + 1;          /* read + write */
	data.sum += i;                        /* read + write */
	data.slots[i & 15]++;                 /* read + write */
}

static void *worker(void *arg)
{
	long i;

	(void)arg;
	for (i = 0; i < ITERS; i++) {
		if (i & 1) {
			pthread_mutex_lock(&mu);
		} else {
			while (pthread_mutex_trylock(&mu) != 0)
				;
		}
		update(i);
		pthread_mutex_unlock(&mu);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];
	long total = 0;
	int i;

	e2e_require_runtime();
	for (i = 0; i < THREADS; i++)
		t[i] = e2e_spawn(worker, NULL);
	for (i = 0; i < THREADS; i++)
		e2e_join(t[i]);
	for (i = 0; i < 16; i++)
		total += data.slots[i];
	fprintf(stderr, "plain accesses under the mutex: %ld\n",
		6L * THREADS * ITERS);
	E2E_CHECK(data.count == (long)THREADS * ITERS);
	E2E_CHECK(total == (long)THREADS * ITERS);
	E2E_CHECK(data.sum == (long)THREADS * ((long)ITERS * (ITERS - 1) / 2));
	return 0;
}
