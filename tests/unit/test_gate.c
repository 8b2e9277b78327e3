// SPDX-License-Identifier: Apache-2.0
/*
 * Unit tests: the gate's page bits (core.c, gate_arm()). A watch sets the
 * bit of its own page, and of the page before only if a 16-byte access
 * starting there can reach it, so that threads working beside it stay
 * inline; a range that reaches into the watched page from the one before
 * still finds the watch. And a watch whose stall should have ended long
 * ago (its watcher preempted) leaves the gate when the sampler says so,
 * without the watcher's own disarm counting twice.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <unistd.h>

#include "internal.h"

#define UNIT_NAME "gate"
#include "unit_check.h"
#include "unit_counters.h"

/* Every watch is one the test makes: nothing sampled, no cold sites. */
const char *__ucsan_default_options(void)
{
	return "overhead_budget=0:skip_watch=1000000000:cold_watches=0:delay_randomize=0";
}

/* Long enough for the main thread to look while it lasts. */
#define WATCH_US 300000L

#define PAGE UCSAN_SLOT_RANGE
static _Alignas(4096) long area[4 * PAGE / sizeof(long)];

static uint64_t gate_count(void)
{
	return atomic_load(&ucsan_hot.gate) & ~GATE_ALONE;
}

static bool page_bit(uintptr_t addr)
{
	return gate_page_armed(ucsan_hot.pages, addr);
}

/* Watches one plain read of *arg, busy-waiting, as a sampled access does. */
static void *watcher(void *arg)
{
	ucsan_watch(&ucsan_ctx_tls, arg, sizeof(long), 0, (uintptr_t)__builtin_return_address(0), WATCH_US,
		    false);
	return NULL;
}

/* Starts a watch of p in another thread; returns once it is set. */
static bool start_watch(pthread_t *t, long *p)
{
	const long setups = counter(CTR_SETUP_WATCHPOINTS);
	pthread_create(t, NULL, watcher, p);
	for (int i = 0; i < 5000 && counter(CTR_SETUP_WATCHPOINTS) == setups; i++)
		usleep(1000);
	return counter(CTR_SETUP_WATCHPOINTS) > setups;
}

int main(void)
{
	const uintptr_t page1 = (uintptr_t)area + PAGE;
	long *const mid = (long *)(page1 + PAGE / 2);
	long *const near_start = (long *)(page1 + 8);
	pthread_t t;

	/* In the middle of a page: that page's bit only. */
	bool set = start_watch(&t, mid);
	CHECK("watch_set", set && gate_count() == 1);
	CHECK("own_page_bit", page_bit((uintptr_t)mid));
	CHECK("next_page_inline", !page_bit((uintptr_t)mid + PAGE));
	CHECK("page_before_inline", !page_bit((uintptr_t)mid - PAGE));
	/* A copy from the page before into the watched word: out of line by
	 * the page it ends on, and the watcher reports it. */
	const long races = counter(CTR_DATA_RACES);
	ucsan_check_range((char *)mid - 3000, 3008, UCSAN_ACCESS_WRITE, (uintptr_t)&main);
	CHECK("range_from_page_before_found", counter(CTR_DATA_RACES) == races + 1);
	pthread_join(t, NULL);
	CHECK("gate_closed_after", gate_count() == 0 && !page_bit((uintptr_t)mid));

	/* Within 16 bytes of the page's start: the page before too. */
	set = start_watch(&t, near_start);
	CHECK("near_start_page_before", set && page_bit((uintptr_t)near_start - PAGE) &&
						page_bit((uintptr_t)near_start));
	pthread_join(t, NULL);
	CHECK("near_start_closed_after", gate_count() == 0 && !page_bit((uintptr_t)near_start - PAGE));

	/* A watch still in its stall stays; one long past its end leaves the
	 * gate, its watchpoint kept; its watcher's own disarm then does not
	 * count twice. */
	set = start_watch(&t, mid);
	ucsan_gate_expire(ucsan_now_ns());
	CHECK("stalling_watch_kept", set && gate_count() == 1 && page_bit((uintptr_t)mid));
	ucsan_gate_expire(ucsan_now_ns() + 10 * (uint64_t)WATCH_US * 1000);
	CHECK("stale_watch_leaves_gate", gate_count() == 0 && !page_bit((uintptr_t)mid));
	CHECK("stale_watchpoint_kept", counter(CTR_USED_WATCHPOINTS) == 1);
	pthread_join(t, NULL);
	CHECK("no_double_disarm", gate_count() == 0 && counter(CTR_USED_WATCHPOINTS) == 0);
	/* And the gate works as before for the next watch. */
	set = start_watch(&t, mid);
	CHECK("next_watch_gated", set && gate_count() == 1 && page_bit((uintptr_t)mid));
	pthread_join(t, NULL);
	CHECK("next_watch_closed", gate_count() == 0 && !page_bit((uintptr_t)mid));

	fflush(stdout);
	_exit(failures != 0);
}
