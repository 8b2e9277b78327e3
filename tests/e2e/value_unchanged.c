// The writer keeps storing the value the variable already holds.  With the
// default report_value_change_only=1 such a race is not reported
// (value_unchanged_reported.c runs this program with it off).  The stats
// show that the writer did hit the reader's watchpoints: the races were
// found and suppressed.
//
// OPTIONS: skip_watch=0 print_stats=1
// EXPECT: ^UCSAN: stats: setup_watchpoints: [1-9][0-9]{3,}$
// EXPECT: ^UCSAN: stats: reports_suppressed: [1-9][0-9]{2,}$
// NOT: BUG|UCSAN: reported

#include "e2e.h"

int shared = 42;
int value = 42;
long sink;

NOINLINE int reader(void)
{
	return shared;
}

NOINLINE void writer(int v)
{
	shared = v;
}

static void *reader_thread(void *arg)
{
	long sum = 0;

	(void)arg;
	while (!e2e_stopped())
		sum += reader();
	__atomic_store_n(&sink, sum, __ATOMIC_RELAXED);
	return NULL;
}

static void *writer_thread(void *arg)
{
	/* Read once, before the reader starts: not a compile-time constant. */
	int v = *(int *)arg;

	while (!e2e_stopped())
		writer(v);
	return NULL;
}

int main(void)
{
	pthread_t r, w;

	e2e_require_runtime();
	w = e2e_spawn(writer_thread, &value);
	r = e2e_spawn(reader_thread, NULL);
	e2e_run_for(1500);
	e2e_join(r);
	e2e_join(w);
	return 0;
}
