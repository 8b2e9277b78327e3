// No memory that grows with the number of threads: 10,000 create/join
// cycles (4 threads at a time, each making watched accesses under
// skip_watch=0, with a mutex and a range copy) and the process's peak RSS
// (getrusage ru_maxrss) after the first 1,000 cycles and after all 10,000
// may differ by at most 2 MiB.
//
// OPTIONS: skip_watch=0 udelay_task=2
// TIMEOUT: 120
// EXPECT: ^rel: peak RSS after 1000 cycles [0-9]+ KiB, after 10000 cycles [0-9]+ KiB$
// NOT: UCSAN|Segmentation|Aborted

#include <sys/resource.h>

#include "rel_support.h"

#define CYCLES 10000
#define AT_ONCE 4
#define MAX_GROWTH_KIB 2048

static long counters[AT_ONCE][8];
static long locked_total;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char bufs[AT_ONCE][2][256];
static volatile size_t copy_len = 200; /* keeps memcpy a real call */

static void *worker(void *arg)
{
	long id = (long)arg;
	long *c = counters[id];

	for (int i = 0; i < 16; i++) {
		c[i & 7] += i;
		pthread_mutex_lock(&lock);
		locked_total++;
		pthread_mutex_unlock(&lock);
	}
	memcpy(bufs[id][0], bufs[id][1], copy_len);
	return NULL;
}

static long peak_kib(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) != 0)
		e2e_die("getrusage", errno);
	return ru.ru_maxrss;
}

int main(void)
{
	long first = 0, last;

	e2e_require_runtime();
	for (int n = 0; n < CYCLES; n += AT_ONCE) {
		pthread_t t[AT_ONCE];

		for (long i = 0; i < AT_ONCE; i++)
			t[i] = e2e_spawn(worker, (void *)i);
		for (int i = 0; i < AT_ONCE; i++)
			e2e_join(t[i]);
		if (n + AT_ONCE == 1000)
			first = peak_kib();
	}
	last = peak_kib();
	E2E_CHECK(locked_total == 16L * CYCLES);
	fprintf(stderr, "rel: peak RSS after 1000 cycles %ld KiB, after %d cycles %ld KiB\n",
		first, CYCLES, last);
	if (last - first > MAX_GROWTH_KIB)
		fprintf(stderr, "e2e: peak RSS grew by %ld KiB (more than %d) from 1000 to %d threads\n",
			last - first, MAX_GROWTH_KIB, CYCLES);
	return 0;
}
