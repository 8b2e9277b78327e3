// A POSIX timer with SIGEV_THREAD: glibc runs each expiry's callback in a
// thread it makes itself, past the pthread_create() interposer. The
// callback bumps a plain tick count that main() polls without a lock: a
// data race, reported at default options, with the callback's thread
// named as made by main where it called timer_create(). (Uncounted, the
// callback's thread left the process looking single-threaded: nothing
// was ever checked.)
//
// TRIES: 20
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in (main|wait_ticks) / on_tick$|^BUG: UCSAN: data-race in on_tick / (main|wait_ticks)$
// EXPECT-FRAME: ^(write|read-write) to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ on_tick\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*timer_thread\.c:[0-9]+$
// EXPECT-FRAME: ^thread [0-9]+ "[^"]*" \((running|finished)\) created by thread [0-9]+ at:$ => ^ (start_ticker|main)[+ ]

#include "e2e.h"

static long ticks; /* racy: the callback adds, main reads */

static void on_tick(union sigval v)
{
	ticks += v.sival_int;
}

static NOINLINE timer_t start_ticker(void)
{
	struct sigevent ev = e2e_sigev_thread(on_tick, 1);
	timer_t t;

	if (timer_create(CLOCK_MONOTONIC, &ev, &t) != 0)
		e2e_die("timer_create", errno);
	const struct itimerspec every_ms = { { 0, 1000000 }, { 0, 1000000 } };
	if (timer_settime(t, 0, &every_ms, NULL) != 0)
		e2e_die("timer_settime", errno);
	return t;
}

/* Polls the count the way a main loop waits for progress. */
static NOINLINE long wait_ticks(long n)
{
	long seen;

	while ((seen = ticks) < n)
		e2e_sleep_ms(1);
	return seen;
}

int main(void)
{
	e2e_require_runtime();
	timer_t t = start_ticker();
	const long seen = wait_ticks(20);
	timer_delete(t);
	printf("ticks %ld\n", seen >= 20);
	return 0;
}
