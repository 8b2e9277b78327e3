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
static pthread_barrier_t all_alive;
long sink;

NOINLINE int hot_reader(void)
{
	return hot;
}

NOINLINE void hot_writer(int v)
{
	hot = v;
}

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

	pthread_barrier_wait(&all_alive);
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
	pthread_attr_t attr;
	char *text;
	int err, nrep;

	e2e_require_runtime();
	pthread_barrier_init(&all_alive, NULL, THREADS + 1);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	for (long i = 0; i < THREADS; i++) {
		err = pthread_create(&t[i], &attr, worker, (void *)i);
		if (err)
			e2e_die("pthread_create", err);
	}
	pthread_barrier_wait(&all_alive);
	e2e_run_for(500);
	for (int i = 0; i < THREADS; i++)
		e2e_join(t[i]);
	text = rel_read_stderr(NULL);
	if (!text) {
		fprintf(stderr, "rel: stderr is not a file: lines not checked\n");
		return 0;
	}
	nrep = rel_reports(text, NULL, 0);
	E2E_CHECK(rel_check_lines(text) == 0);
	free(text);
	fprintf(stderr, "rel: %d threads were alive at once; %d reports, all lines well-formed\n",
		THREADS, nrep);
	return 0;
}
