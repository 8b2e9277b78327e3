// 10,000 short-lived threads racing as they exit: batches of 16 threads
// (half joined, half detached) each make a handful of racing accesses right
// before they return, so watchers report while the racing threads are
// already gone and threads exit in the middle of other threads' reports.
// No crash, no hang; the race is reported and every line of stderr has the
// shape of a report line, in report order (nothing torn or interleaved).
//
// OPTIONS: skip_watch=0 udelay_task=30 report_once_in_ms=5
// TRIES: 3
// TIMEOUT: 120
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in churn_reader / churn_writer$
// EXPECT: ^rel: 10000 threads ran, [0-9]+ reports, all lines well-formed$
// EXPECT: ^UCSAN: reported [0-9]+ data races$

#include "rel_support.h"

#define THREADS 10000
#define BATCH 16

static int churn_shared;
static int finished; /* atomic */
long sink;

E2E_READER_WRITER(churn_shared, churn_reader, churn_writer)

static void *churn_thread(void *arg)
{
	long id = (long)arg;
	long sum = 0;

	for (int k = 0; k < 6; k++) {
		if (id & 1)
			churn_writer((int)id + k);
		else
			sum += churn_reader();
	}
	__atomic_add_fetch(&sink, sum, __ATOMIC_RELAXED);
	__atomic_add_fetch(&finished, 1, __ATOMIC_RELEASE);
	return NULL;
}

int main(void)
{
	pthread_attr_t detached;
	int nrep;

	e2e_require_runtime();
	pthread_attr_init(&detached);
	pthread_attr_setdetachstate(&detached, PTHREAD_CREATE_DETACHED);
	for (long i = 0; i < THREADS; i += BATCH) {
		pthread_t t[BATCH];

		for (long j = 0; j < BATCH; j++) {
			int err;

			if (j < BATCH / 2) {
				t[j] = e2e_spawn(churn_thread, (void *)(i + j));
				continue;
			}
			while ((err = pthread_create(&t[j], &detached, churn_thread,
						     (void *)(i + j))) == EAGAIN)
				e2e_sleep_ms(1);
			if (err)
				e2e_die("pthread_create", err);
		}
		for (long j = 0; j < BATCH / 2; j++)
			e2e_join(t[j]);
	}
	/* The detached ones: wait until all have finished their work. */
	for (int w = 0; __atomic_load_n(&finished, __ATOMIC_ACQUIRE) < THREADS; w++) {
		if (w == 30000) {
			fprintf(stderr, "e2e: only %d of %d threads finished\n",
				__atomic_load_n(&finished, __ATOMIC_ACQUIRE), THREADS);
			exit(2);
		}
		e2e_sleep_ms(1);
	}
	e2e_sleep_ms(100); /* let the last reports be printed */
	nrep = rel_check_stderr();
	if (nrep < 0)
		return 0;
	fprintf(stderr, "rel: %d threads ran, %d reports, all lines well-formed\n", THREADS, nrep);
	return 0;
}
