// The racing read is main's last access before it returns: a thread it
// never waits for stores a result, and main, after a nap, reads it and
// exits. The store's cold watch (a 30 ms stall here) is consumed by that
// read, and its thread reports only when it looks at its watchpoint again,
// after main began to exit: exit waits for that report, which is printed,
// counted in the summary and sets the exit status.
//
// OPTIONS: cold_udelay=30000 delay_randomize=0 cold_sleeper_us=0
// TRIES: 3
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in (main / publish|publish / main)$
// EXPECT-FRAME: ^write to 0x => ^ publish\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*exit_after_racing_read\.c:24$
// EXPECT-FRAME: ^read to 0x => ^ main\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*exit_after_racing_read\.c:37$
// EXPECT: ^UCSAN: reported 1 data races$

#include "e2e.h"

int result;

/* The line numbers of the two accesses are asserted above (24 and 37):
 * keep them in place when editing this file. */
NOINLINE void publish(int v)
{
	result = v;
}

static void *worker(void *arg)
{
	publish((int)(long)arg);
	return NULL;
}

int main(void)
{
	pthread_detach(e2e_spawn(worker, (void *)42L));
	e2e_sleep_ms(5);
	return result == 42 ? 0 : 1;
}
