// SPDX-License-Identifier: Apache-2.0
/*
 * Unit tests: a plain access whose watch met nothing stays watched while
 * its thread blocks right after it (held_watches.c) -- in a lock another
 * thread holds while it accesses the same word, or (watch_through_waits=2)
 * a sleep that fails -- unless the thread released something in between,
 * or came to the call too late. Only the lock's owner meets a lock's hold;
 * a held store is reported only if it changed the value.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

#define UNIT_NAME "held_watches"
#include "unit_check.h"
#include "unit_counters.h"

void __tsan_read8(void *p);
void __tsan_write8(void *p);

/* Every watch is one the test makes: nothing sampled, no cold sites; and
 * every report printed (their frames are all alike here). */
const char *__ucsan_default_options(void)
{
	return "overhead_budget=0:skip_watch=1000000000:cold_watches=0:delay_randomize=0:report_once_in_ms=0";
}

static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t other = PTHREAD_MUTEX_INITIALIZER;
static long value_a, value_b, value_c, value_d, value_e, value_f;

/* How the reader gets from its watch to the lock. */
enum between { NOTHING, A_RELEASE, A_LONG_SPIN };

/* A thread that does not own the lock the reader waits for. */
static void *stranger(void *arg)
{
	__tsan_write8(arg);
	*(volatile long *)arg += 1;
	return NULL;
}

struct reader_arg {
	long *p;
	enum between between;
	long store; /* < 0: the access is a read; else a store of this */
};

static void spin_us(long us)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000L + (b.tv_nsec - a.tv_nsec) / 1000 < us);
}

/* Watches one plain access of *p for 1 ms (nothing meets it) and makes
 * it, then takes the lock main holds. */
static void *reader(void *arg)
{
	const struct reader_arg *r = arg;
	const int type = r->store < 0 ? 0 : UCSAN_ACCESS_WRITE;
	if (r->between == A_RELEASE)
		pthread_mutex_lock(&other);
	ucsan_watch(&ucsan_ctx_tls, r->p, sizeof(long), type, (uintptr_t)__builtin_return_address(0), 1000, false);
	if (r->store >= 0)
		*(volatile long *)r->p = r->store;
	if (r->between == A_RELEASE)
		pthread_mutex_unlock(&other);
	else if (r->between == A_LONG_SPIN)
		spin_us(200);
	pthread_mutex_lock(&held);
	pthread_mutex_unlock(&held);
	return NULL;
}

/* Main holds the lock, lets the reader watch and block, then stores to
 * what it read, or reads what it stored (20 ms later: the reader is
 * blocked by then). */
static void access_while_blocked(long *p, enum between between, long store, bool by_stranger)
{
	struct reader_arg r = { p, between, store };
	pthread_t t;
	const long setups = counter(CTR_SETUP_WATCHPOINTS);
	pthread_mutex_lock(&held);
	pthread_create(&t, NULL, reader, &r);
	wait_counter(CTR_SETUP_WATCHPOINTS, setups + 1);
	usleep(20000);
	if (by_stranger) {
		pthread_t s;
		pthread_create(&s, NULL, stranger, p);
		pthread_join(s, NULL);
	} else if (store < 0) {
		__tsan_write8(p);
		*(volatile long *)p += 1;
	} else {
		__tsan_read8(p);
	}
	pthread_mutex_unlock(&held);
	pthread_join(t, NULL);
}

/* A read watch, then a sleep that fails at once. */
static void *failing_sleeper(void *arg)
{
	int *err = arg;
	static long word;
	const struct timespec bad = { 0, 2000000000L };
	ucsan_watch(&ucsan_ctx_tls, &word, sizeof(long), 0, (uintptr_t)__builtin_return_address(0), 100, false);
	errno = 0;
	*err = nanosleep(&bad, NULL) == -1 ? errno : 0;
	return NULL;
}

int main(void)
{
	/* Nothing in between: held through the lock, and the store that
	 * comes while the reader waits for it is reported. */
	long races = counter(CTR_DATA_RACES), heldw = counter(CTR_HELD_WATCHES);
	access_while_blocked(&value_a, NOTHING, -1, false);
	CHECK("read_held_through_lock", counter(CTR_HELD_WATCHES) == heldw + 1);
	CHECK("store_during_wait_reported", counter(CTR_DATA_RACES) == races + 1);

	/* An unlock between the read and the lock: the store may be ordered
	 * after the read through it, and the read is not held. */
	races = counter(CTR_DATA_RACES);
	heldw = counter(CTR_HELD_WATCHES);
	access_while_blocked(&value_b, A_RELEASE, -1, false);
	CHECK("release_ends_hold", counter(CTR_HELD_WATCHES) == heldw && counter(CTR_DATA_RACES) == races);

	/* 200 us of work between them: too late. */
	races = counter(CTR_DATA_RACES);
	heldw = counter(CTR_HELD_WATCHES);
	access_while_blocked(&value_c, A_LONG_SPIN, -1, false);
	CHECK("late_call_not_held", counter(CTR_HELD_WATCHES) == heldw && counter(CTR_DATA_RACES) == races);

	/* A store held through the lock: the read made while its thread
	 * waits is reported, since the store changed the value... */
	long printed = counter(CTR_REPORTS_PRINTED);
	heldw = counter(CTR_HELD_WATCHES);
	access_while_blocked(&value_d, NOTHING, 7, false);
	CHECK("store_held_through_lock", counter(CTR_HELD_WATCHES) == heldw + 1);
	CHECK("read_during_wait_reported", counter(CTR_REPORTS_PRINTED) == printed + 1);

	/* ...and not when it stored what was there already. */
	printed = counter(CTR_REPORTS_PRINTED);
	heldw = counter(CTR_HELD_WATCHES);
	access_while_blocked(&value_e, NOTHING, 0, false);
	CHECK("same_value_store_not_reported",
	      counter(CTR_HELD_WATCHES) == heldw + 1 && counter(CTR_REPORTS_PRINTED) == printed);

	/* A thread that does not own the mutex: its store may be ordered
	 * after the read by a lock the runtime does not see (held_watches.c),
	 * and does not meet the hold. */
	races = counter(CTR_DATA_RACES);
	heldw = counter(CTR_HELD_WATCHES);
	access_while_blocked(&value_f, NOTHING, -1, true);
	CHECK("only_owner_meets_lock_hold", counter(CTR_HELD_WATCHES) == heldw + 1 && counter(CTR_DATA_RACES) == races);

	/* watch_through_waits=2: sleeps hold too, and a held call's failure
	 * reaches the program as it was. */
	ucsan_opts.watch_through_waits = 2;
	heldw = counter(CTR_HELD_WATCHES);
	int err = 0;
	pthread_t t;
	pthread_create(&t, NULL, failing_sleeper, &err);
	pthread_join(t, NULL);
	CHECK("held_call_keeps_errno", counter(CTR_HELD_WATCHES) == heldw + 1 && err == EINVAL);
	fflush(stdout);
	_exit(failures != 0);
}
