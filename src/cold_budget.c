// SPDX-License-Identifier: Apache-2.0
/*
 * What cold-site stalls may cost (cold_sites.c decides which accesses to
 * watch; this file, whether there is time for it): a bucket per thread
 * and three budgets for the process.
 */
#include "internal.h"

/*
 * May this thread afford a cold watch now? The budget is a bucket of stall
 * time: it fills at cold_budget_percent of the time the thread spends
 * outside cold stalls, holds at most cold_budget_ms, and starts full. A
 * cold site met while it is empty is let go for now; once there is budget
 * again all the thread's sites turn cold (ucsan_cold_refresh()). A thread
 * thus alternates stalls with stretches of real progress instead of
 * stalling through a string of new sites, and reaches the one that races
 * while the other thread is still there.
 */
static bool cold_budget_allows(struct ucsan_ctx *ctx, uint64_t now)
{
	const int64_t cap = (int64_t)ucsan_opts.cold_budget_ms * 1000000;
	if (!ctx->cold_start_ns) {
		ctx->cold_start_ns = now;
		ctx->cold_tokens_ns = cap;
	} else {
		ctx->cold_tokens_ns += (int64_t)((now - ctx->cold_start_ns) / 100 * (uint64_t)ucsan_opts.cold_budget_percent);
		if (ctx->cold_tokens_ns > cap)
			ctx->cold_tokens_ns = cap;
		ctx->cold_start_ns = now;
	}
	/* Any credit pays for a whole stall (the bucket may go into debt):
	 * a site that runs once must not lose its watch to a short balance. */
	return ctx->cold_tokens_ns > 0;
}

/*
 * And the process's: all threads' cold stalls together may take
 * cold_process_ms, plus cold_process_percent of the time since the first
 * one. A program that starts thousands of short threads, each with new
 * sites, would otherwise pay every thread's full budget.
 */
struct ucsan_cold_budget {
	_Atomic uint64_t start_ns, spent_ns;
};
/* Every cold stall; and the stores just after a release, which draw on a
 * budget of their own once the first is spent: they are the likeliest to
 * race, and come late, after start-up took everything (a hit counted
 * after the cache's lock, once the cache has filled). Likewise the reads
 * just after a sleep (a poll): an exporter or a watchdog wakes all
 * through the run, and its first round's new code spent its own budget
 * long before the store it polls for comes. */
static struct ucsan_cold_budget process_cold, process_release, process_woke;
/* And the stores of a thread that sleeps (cold_woke_stores): a pool
 * worker back from its I/O -- a sleep here -- updates the pool's
 * statistics at the end of each job, long after its first jobs' new code
 * spent its own budget. Such a watch waits its turn like a read: it must
 * not park the polls the budget above pays for. */
static struct ucsan_cold_budget process_woke_store;

static bool process_budget_allows(struct ucsan_cold_budget *b, uint64_t now)
{
	uint64_t start = atomic_load_explicit(&b->start_ns, memory_order_relaxed);
	if (!start) {
		uint64_t zero = 0;
		atomic_compare_exchange_strong(&b->start_ns, &zero, now);
		start = atomic_load(&b->start_ns);
	}
	const uint64_t allowed = (uint64_t)ucsan_opts.cold_process_ms * 1000000ULL +
				 (now - start) / 100 * (uint64_t)ucsan_opts.cold_process_percent;
	return atomic_load_explicit(&b->spent_ns, memory_order_relaxed) < allowed;
}

/* The budget a cold watch draws on, or NULL if none has time left: the
 * thread's and the process's, or for a store just after a release, a
 * read just after a sleep or a store by a thread that sleeps, once those
 * are spent, the process's budget for such accesses. */
bool ucsan_cold_budget_left(struct ucsan_ctx *ctx, uint64_t now)
{
	return cold_budget_allows(ctx, now) && process_budget_allows(&process_cold, now);
}

struct ucsan_cold_budget *ucsan_cold_budget_for(struct ucsan_ctx *ctx, uint64_t now, bool release_store, bool poll_read,
						bool woke_store)
{
	if (ucsan_cold_budget_left(ctx, now))
		return &process_cold;
	if (release_store && ucsan_opts.cold_release_wait_us > 0 && process_budget_allows(&process_release, now))
		return &process_release;
	if (poll_read && process_budget_allows(&process_woke, now))
		return &process_woke;
	if (woke_store && ucsan_opts.cold_woke_stores && process_budget_allows(&process_woke_store, now))
		return &process_woke_store;
	return NULL;
}

bool ucsan_cold_budget_waits_turn(const struct ucsan_cold_budget *budget)
{
	return budget == &process_woke_store;
}

/* A cold stall that happened is paid from the thread's bucket and the
 * budget it drew on; the stall itself earns nothing. */
void ucsan_cold_charge(struct ucsan_ctx *ctx, struct ucsan_cold_budget *budget)
{
	ctx->cold_tokens_ns -= (int64_t)ctx->cold_stalled_ns;
	atomic_fetch_add_explicit(&budget->spent_ns, ctx->cold_stalled_ns, memory_order_relaxed);
	ctx->cold_start_ns = ucsan_now_ns();
}


bool ucsan_cold_woke_budget_left(uint64_t now)
{
	return process_budget_allows(&process_woke, now);
}
