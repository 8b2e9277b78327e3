// SPDX-License-Identifier: Apache-2.0
/*
 * The sampler thread, for the time floor (core.c): the store count never
 * samples a thread that only reads, and that thread never enters the
 * runtime to look at its clock. Once the program has started a thread, a
 * thread of the runtime's own wakes every millisecond and nudges each
 * listed thread whose sampling period is due by monotonic time and that
 * is not blocked in a wait (nudge_list.c): its next plain access
 * comes out of line and decides by its CPU clock whether to sample. The
 * budget still decides how often; the nudge only lets the thread ask. The
 * sampler is made with the real pthread_create (it is none of the
 * program's threads), with every signal blocked, and runs no instrumented
 * code. A forked child starts its own with its next thread. On each round
 * it also takes out of the gate the watches whose stall should have ended
 * a while ago: their watcher is off its CPU (core.c, ucsan_gate_expire()).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>

#include "internal.h"

#define SAMPLER_PERIOD_NS 1000000L

static _Atomic bool sampler_started;
/* Set once the thread exists: until then nobody is nudged. */
static _Atomic bool sampler_running;

REAL(pthread_create, int, pthread_t *, const pthread_attr_t *, void *(*)(void *), void *)
REAL(nanosleep, int, const struct timespec *, struct timespec *)

static void *sampler_main(void *unused)
{
	(void)unused;
	ucsan_ctx_tls.disable_count++;
	int (*nap)(const struct timespec *, struct timespec *) = get_nanosleep();
	const struct timespec period = { 0, SAMPLER_PERIOD_NS };
	while (nap) {
		nap(&period, NULL);
		const uint64_t now = ucsan_now_ns();
		if (!ucsan_single_threaded())
			ucsan_nudge_listed_due(now);
		ucsan_gate_expire(now);
	}
	return NULL;
}

void ucsan_sampler_start(void)
{
	if (atomic_load_explicit(&sampler_started, memory_order_relaxed) || !ucsan_time_floor_on() ||
	    atomic_exchange(&sampler_started, true))
		return;
	int (*create)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *) = get_pthread_create();
	pthread_attr_t attr;
	if (!create || pthread_attr_init(&attr) != 0)
		return;
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_t t;
	if (create(&t, &attr, sampler_main, NULL) == 0)
		atomic_store_explicit(&sampler_running, true, memory_order_relaxed);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
}

void ucsan_sampler_after_fork(void)
{
	atomic_store_explicit(&sampler_started, false, memory_order_relaxed);
	atomic_store_explicit(&sampler_running, false, memory_order_relaxed);
}

bool ucsan_sampler_running(void)
{
	return atomic_load_explicit(&sampler_running, memory_order_relaxed);
}
