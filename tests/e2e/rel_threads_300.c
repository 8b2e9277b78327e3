// 300 threads alive at once (a barrier proves it), far more than the 64
// watchpoint slots: all of them race on one variable and touch private data
// for half a second under skip_watch=0, then stop and are joined. The race
// is reported, the private data is never reported, nothing crashes or
// hangs, and the output stays well-formed.
//
// OPTIONS: skip_watch=0 udelay_task=40 report_once_in_ms=50
// TRIES: 3
// TIMEOUT: 120
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in hot_reader / hot_writer$
// EXPECT: ^rel: 300 threads were alive at once; [0-9]+ reports, all lines well-formed$
// NOT: ^BUG: UCSAN: .*private_work

#include "rel_support.h"

#define THREADS 300

static int hot;
static int private_data[THREADS][16];
long sink;

E2E_READER_WRITER(hot, hot_reader, hot_writer)

NOINLINE void private_work(int *p)
{
	p[0] += p[1] + 1;
	p[1] = p[0] & 7;
}

static void *worker(void *arg)
{
	long id = (long)arg;
	long sum = 0;
	int i = 0;

	while (!e2e_stopped()) {
		if (id % 4 == 0)
			hot_writer(++i);
		else
			sum += hot_reader();
		private_work(private_data[id]);
	}
	__atomic_add_fetch(&sink, sum, __ATOMIC_RELAXED);
	return NULL;
}

int main(void)
{
	static pthread_t t[THREADS];
	int nrep;

	e2e_require_runtime();
	e2e_start(t, THREADS, worker);
	e2e_run_for(500);
	e2e_join_all(t, THREADS);
	nrep = rel_check_stderr();
	if (nrep < 0)
		return 0;
	fprintf(stderr, "rel: %d threads were alive at once; %d reports, all lines well-formed\n",
		THREADS, nrep);
	return 0;
}
