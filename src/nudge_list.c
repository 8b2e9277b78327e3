// SPDX-License-Identifier: Apache-2.0
/*
 * The threads the sampler thread nudges that have no table of the site
 * pool (site_tables.c keeps the pool tables' owners): the 65th and later
 * threads alive at once, which share the all-warm table. Listed, their
 * samples are left to the time floor as the pool owners' are, and their
 * stores are not counted (check.h, time_sampled). Past NUDGE_LIST threads,
 * a thread counts its stores as before.
 *
 * Each entry has a lock of its own, as each pool owner does: the context
 * lives in the thread's TLS, which goes when the thread ends.
 */
#include "internal.h"

#define NUDGE_LIST 1024
#define NUDGE_WORDS (NUDGE_LIST / 64)

static struct ucsan_ctx *listed[NUDGE_LIST];
static _Atomic bool listed_lock[NUDGE_LIST];
static _Atomic uint64_t listed_used[NUDGE_WORDS];

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

void ucsan_nudge_listed_due(uint64_t now)
{
	for (int w = 0; w < NUDGE_WORDS; w++) {
		uint64_t used = atomic_load_explicit(&listed_used[w], memory_order_relaxed);
		while (used) {
			const int i = w * 64 + __builtin_ctzll(used);
			used &= used - 1;
			entry_lock(i);
			struct ucsan_ctx *const ctx = listed[i];
			/* One not yet taken (a thread blocked in a wait) is
			 * left as it is. */
			if (ctx && !atomic_load_explicit(&ctx->nudged, memory_order_relaxed) &&
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
	}
	for (int w = 0; w < NUDGE_WORDS; w++)
		atomic_store(&listed_used[w], 0);
	if (self->nudge_entry) {
		const int i = self->nudge_entry - 1;
		atomic_store(&listed_used[i / 64], 1ULL << (i % 64));
	}
}
