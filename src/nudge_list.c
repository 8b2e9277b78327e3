// SPDX-License-Identifier: Apache-2.0
/*
 * The threads the sampler thread nudges (the time floor, core.c): every
 * thread lists itself when it gets its site table and unlists itself
 * when it gives it back. Listed, its samples are left to the time floor
 * and its stores are not counted (check.h, time_sampled). Past NUDGE_LIST
 * threads alive at once, a thread counts its stores as before.
 *
 * Each entry has a lock of its own: the context lives in the thread's
 * TLS, which goes when the thread ends, and the sampler must not touch it
 * after that.
 */
#include "internal.h"

/* The 64 tables of the site pool's owners and 1024 threads more. */
#define NUDGE_LIST 1088
#define NUDGE_WORDS (NUDGE_LIST / 64)

static struct ucsan_ctx *listed[NUDGE_LIST];
static _Atomic bool listed_lock[NUDGE_LIST];
static _Atomic uint64_t listed_used[NUDGE_WORDS];
/* The thread is blocked in a wait only another thread can end. */
static _Atomic bool listed_waiting[NUDGE_LIST];

static void entry_lock(int i)
{
	while (atomic_exchange_explicit(&listed_lock[i], true, memory_order_acquire))
		ucsan_cpu_relax();
}

static void entry_unlock(int i)
{
	atomic_store_explicit(&listed_lock[i], false, memory_order_release);
}

void ucsan_nudge_enlist(struct ucsan_ctx *ctx)
{
	if (ctx->nudge_entry)
		return;
	for (int w = 0; w < NUDGE_WORDS; w++) {
		uint64_t used = atomic_load(&listed_used[w]);
		while (~used) {
			const int b = __builtin_ctzll(~used);
			if (!atomic_compare_exchange_weak(&listed_used[w], &used, used | (1ULL << b)))
				continue;
			const int i = w * 64 + b;
			atomic_store_explicit(&listed_waiting[i], false, memory_order_relaxed);
			entry_lock(i);
			listed[i] = ctx;
			entry_unlock(i);
			ctx->nudge_entry = i + 1;
			return;
		}
	}
}

void ucsan_nudge_delist(struct ucsan_ctx *ctx)
{
	if (!ctx->nudge_entry)
		return;
	const int i = ctx->nudge_entry - 1;
	ctx->nudge_entry = 0;
	entry_lock(i);
	listed[i] = NULL;
	entry_unlock(i);
	atomic_fetch_and(&listed_used[i / 64], ~(1ULL << (i % 64)));
}

bool ucsan_nudge_listed(const struct ucsan_ctx *ctx)
{
	return ctx->nudge_entry != 0;
}

void ucsan_nudge_waiting(const struct ucsan_ctx *ctx, bool waiting)
{
	if (ctx->nudge_entry)
		atomic_store_explicit(&listed_waiting[ctx->nudge_entry - 1], waiting, memory_order_relaxed);
}

void ucsan_nudge_listed_due(uint64_t now)
{
	for (int w = 0; w < NUDGE_WORDS; w++) {
		uint64_t used = atomic_load_explicit(&listed_used[w], memory_order_relaxed);
		while (used) {
			const int i = w * 64 + __builtin_ctzll(used);
			used &= used - 1;
			entry_lock(i);
			struct ucsan_ctx *const ctx = listed[i];
			/* Blocked in a wait: nothing to sample until it is woken.
			 * Otherwise nudged again while it has not taken the last
			 * one: it may have put its own table back since
			 * (ucsan_ctx_set_sites()), and would never come out. */
			if (ctx && !atomic_load_explicit(&listed_waiting[i], memory_order_relaxed) &&
			    atomic_load_explicit(&ctx->nudge_after_ns, memory_order_relaxed) - 1 < now)
				ucsan_ctx_nudge(ctx);
			entry_unlock(i);
		}
	}
}

/* The child has the forking thread only. */
void ucsan_nudge_list_after_fork(struct ucsan_ctx *self)
{
	for (int i = 0; i < NUDGE_LIST; i++) {
		if (i + 1 != self->nudge_entry)
			listed[i] = NULL;
		atomic_store_explicit(&listed_lock[i], false, memory_order_relaxed);
		atomic_store_explicit(&listed_waiting[i], false, memory_order_relaxed);
	}
	for (int w = 0; w < NUDGE_WORDS; w++)
		atomic_store(&listed_used[w], 0);
	if (self->nudge_entry) {
		const int i = self->nudge_entry - 1;
		atomic_store(&listed_used[i / 64], 1ULL << (i % 64));
	}
}
