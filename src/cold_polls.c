// SPDX-License-Identifier: Apache-2.0
/*
 * Polled variables: what threads read just after their sleeps, and how
 * long they slept.
 *
 * A worker that polls a stop flag between sleeps reads it once per period
 * and sleeps the rest. The thread that sets the flag once stalls on its
 * store for the usual cold stall, which, for a period longer than that
 * stall, ends while the poller still sleeps: the next poll comes after
 * the watch, and the race goes unseen. So the reads made just after a
 * sleep are noted here (address, size, the sleep, the thread), and a
 * cold-watched store to such a variable by another thread stalls at
 * least one period and a quarter (cold_sites.c; option cold_poll_stores):
 * the poller wakes within it, and its read meets the watchpoint.
 *
 * A small table, overwritten in turn, of atomics only: no lock, safe in a
 * signal handler and across fork. Its fields are written one by one, so a
 * reader may see an entry half replaced; the worst that does is stretch
 * one stall to another poll's period, and it is bounded anyway.
 */
#include <string.h>

#include "internal.h"

#define N_POLLS 16

static struct poll {
	_Atomic uintptr_t addr;
	_Atomic uint32_t size, period_us;
	_Atomic int tid;
	_Atomic uint64_t ns; /* when it was read */
} polls[N_POLLS];
static _Atomic unsigned polls_next;

void ucsan_cold_poll_note(const volatile void *ptr, size_t size, uint32_t period_us, int tid, uint64_t now)
{
	struct poll *p = NULL;
	for (unsigned i = 0; i < N_POLLS && !p; i++)
		if (atomic_load_explicit(&polls[i].addr, memory_order_relaxed) == (uintptr_t)ptr)
			p = &polls[i];
	if (!p)
		p = &polls[atomic_fetch_add_explicit(&polls_next, 1, memory_order_relaxed) % N_POLLS];
	atomic_store_explicit(&p->addr, (uintptr_t)ptr, memory_order_relaxed);
	atomic_store_explicit(&p->size, (uint32_t)size, memory_order_relaxed);
	atomic_store_explicit(&p->period_us, period_us, memory_order_relaxed);
	atomic_store_explicit(&p->tid, tid, memory_order_relaxed);
	atomic_store_explicit(&p->ns, now, memory_order_relaxed);
}

/* A poll is current for four of its periods, and 20 ms more: a poller that
 * stopped polling (it left its loop, or exited) stretches nothing. */
static bool poll_current(const struct poll *p, uint64_t now)
{
	const uint64_t ns = atomic_load_explicit(&p->ns, memory_order_relaxed);
	const uint64_t period_ns = (uint64_t)atomic_load_explicit(&p->period_us, memory_order_relaxed) * 1000;
	return now >= ns && now - ns <= 4 * period_ns + 20000000;
}

uint32_t ucsan_cold_poll_period(const volatile void *ptr, size_t size, int tid, uint64_t now)
{
	uint32_t longest = 0;
	for (unsigned i = 0; i < N_POLLS; i++) {
		struct poll *p = &polls[i];
		const uintptr_t addr = atomic_load_explicit(&p->addr, memory_order_relaxed);
		if (!addr || atomic_load_explicit(&p->tid, memory_order_relaxed) == tid || !poll_current(p, now) ||
		    !ranges_overlap(addr, atomic_load_explicit(&p->size, memory_order_relaxed), (uintptr_t)ptr, size))
			continue;
		const uint32_t period = atomic_load_explicit(&p->period_us, memory_order_relaxed);
		if (period > longest)
			longest = period;
	}
	return longest;
}

/* A forked child's pollers are not there. */
void ucsan_cold_polls_after_fork(void)
{
	memset((void *)polls, 0, sizeof(polls));
	atomic_store(&polls_next, 0);
}
