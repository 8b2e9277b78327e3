// A stop flag that is a plain int: main sets it, then joins the worker,
// which polls it between 2 ms naps and batches of work. The worker's
// next poll comes while main is in pthread_join(), unordered with the
// store before the join, often after the store's own watch has ended.
// The store is held through the join (watch_through_waits=2: joins hold
// only when the program's synchronization is all visible to the runtime)
// and the poll meets it. Measured, 20 runs each: 20 / 20 (gcc / clang);
// with watch_through_waits=1 (the default), 0 / 0.
//
// OPTIONS: watch_through_waits=2
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in (should_stop / request_stop|request_stop / should_stop)$
// EXPECT-FRAME: ^write to 0x => ^ request_stop\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*held_store_join\.c:30$
// EXPECT-FRAME: ^read to 0x => ^ should_stop\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*held_store_join\.c:35$
// NOT: race at unknown origin

#include <unistd.h>

#include "e2e.h"

static struct {
	int stop;
	long batches;
} worker_state;

/* Lines 30 and 35 are asserted above. */
NOINLINE void request_stop(void)
{
	worker_state.stop = 1;
}

NOINLINE int should_stop(void)
{
	return worker_state.stop;
}

static void *worker(void *arg)
{
	long sum = 0;
	(void)arg;
	while (!should_stop()) {
		for (long i = 0; i < 20000; i++)
			sum += i ^ worker_state.batches;
		worker_state.batches++;
		usleep(2000);
	}
	return (void *)sum;
}

int main(void)
{
	pthread_t t = e2e_spawn(worker, NULL);
	e2e_sleep_ms(5);
	request_stop();
	e2e_join(t);
	printf("%ld\n", worker_state.batches);
	return 0;
}
