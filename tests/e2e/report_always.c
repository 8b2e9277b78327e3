// report_once_in_ms=0: the same race is reported every time it is caught.
// The writer writes only every 5 ms, so there are a few dozen reports, not
// thousands.  (report_once.c: the default 3000 ms gives exactly one.)
//
// OPTIONS: skip_watch=0 report_once_in_ms=0
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in reader / slow_writer$
// EXPECT: ^UCSAN: reported ([2-9]|[1-9][0-9]+) data races$

#include "e2e.h"

int shared;
long sink;

NOINLINE int reader(void)
{
	return shared;
}

NOINLINE void slow_writer(int v)
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
	int i = 0;

	(void)arg;
	while (!e2e_stopped()) {
		slow_writer(++i);
		e2e_sleep_ms(5);
	}
	return NULL;
}

int main(void)
{
	e2e_race2(reader_thread, writer_thread, 600);
	return 0;
}
