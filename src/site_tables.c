// SPDX-License-Identifier: Apache-2.0
/*
 * The per-thread code-site tables the hot path reads (check.h,
 * site_cold()): one byte per site bucket, which cold_sites.c sets and
 * reads. This file hands the tables out and takes them back, and keeps
 * for each pool table what the same-code rule asks of its owner (its
 * first site, its thread argument, whether it waits for another).
 *
 * One 4 KiB table per thread: the first SITE_POOL threads alive at once
 * take theirs from a static pool (untouched pages cost no memory). Later
 * ones share the all-warm table: they are checked and sampled like any
 * thread, and meet the others' watchpoints, but watch no cold sites of
 * their own. By then the first threads have watched the sites the pool's
 * threads share (cold_site_limit), and a page per thread would cost a
 * program of hundreds of threads a MiB. A thread that ends points at the
 * all-warm table, so what its remaining TLS destructors run never touches
 * a table that has gone to another thread.
 */
#include <string.h>

#include "internal.h"

const uint8_t ucsan_sites_warm[UCSAN_SITES] __attribute__((aligned(4096))) = { [0 ... UCSAN_SITES - 1] = SITE_WARM };

#define SITE_POOL 64
static uint8_t site_pool[SITE_POOL][UCSAN_SITES] __attribute__((aligned(4096)));
static _Atomic uint64_t site_pool_used;
/* Each pool table's first site, plus one (0: none yet); and whether its
 * owner is in a wait only another thread can end. */
static _Atomic uint16_t pool_first[SITE_POOL];
static _Atomic uintptr_t pool_arg[SITE_POOL];
static _Atomic bool pool_waiting[SITE_POOL];
/* Wake-ups handed out (a condition signalled, a semaphore posted, a
 * thread ended), and how many there had been when each waiting owner
 * began its wait: one woken since is on its way out of it. */
static _Atomic uint32_t wake_calls;
static _Atomic uint32_t pool_wait_stamp[SITE_POOL];
/* How many pool tables' owners wait: the common answer, "not all", in
 * one load. */
static _Atomic int pool_waiters;

/* The pool slot of a table, or -1 for the shared ones. */
static int pool_slot(const uint8_t *t)
{
	const uintptr_t off = (uintptr_t)t - (uintptr_t)site_pool;
	return off < sizeof(site_pool) ? (int)(off / UCSAN_SITES) : -1;
}

uint8_t *ucsan_sites_take(void)
{
	uint64_t used = atomic_load(&site_pool_used);
	while (~used) {
		const int i = __builtin_ctzll(~used);
		if (atomic_compare_exchange_weak(&site_pool_used, &used, used | (1ULL << i)))
			return site_pool[i];
	}
	return NULL;
}

void ucsan_sites_give_back(uint8_t *t)
{
	const int i = pool_slot(t);
	if (i < 0)
		return;
	/* memset is the runtime's own, which checks its caller. */
	ucsan_ctx_tls.disable_count++;
	memset(t, 0, UCSAN_SITES);
	ucsan_ctx_tls.disable_count--;
	atomic_store_explicit(&pool_first[i], 0, memory_order_relaxed);
	atomic_store_explicit(&pool_arg[i], 0, memory_order_relaxed);
	if (atomic_exchange(&pool_waiting[i], false))
		atomic_fetch_sub(&pool_waiters, 1);
	atomic_fetch_and(&site_pool_used, ~(1ULL << i));
}

void ucsan_sites_pool_after_fork(const uint8_t *mine)
{
	const int slot = pool_slot(mine);
	const uint64_t keep = slot >= 0 ? 1ULL << slot : 0;
	ucsan_ctx_tls.disable_count++;
	for (int i = 0; i < SITE_POOL; i++) {
		if (!(keep & (1ULL << i)) && (atomic_load(&site_pool_used) & (1ULL << i))) {
			memset(site_pool[i], 0, UCSAN_SITES);
			atomic_store_explicit(&pool_first[i], 0, memory_order_relaxed);
			atomic_store_explicit(&pool_arg[i], 0, memory_order_relaxed);
		}
		atomic_store_explicit(&pool_waiting[i], false, memory_order_relaxed);
	}
	atomic_store(&pool_waiters, 0);
	ucsan_ctx_tls.disable_count--;
	atomic_store(&site_pool_used, keep);
}

void ucsan_sites_reset(struct ucsan_ctx *ctx)
{
	/* Its own table, also while it runs parked on the all-warm one. */
	uint8_t *t = (uint8_t *)(uintptr_t)(ctx->parked_sites ? ctx->parked_sites : ctx->sites);
	if (t == ucsan_sites_cold || t == ucsan_sites_warm)
		return;
	/* memset is the runtime's own, which checks its caller's writes. */
	ctx->disable_count++;
	memset(t, 0, UCSAN_SITES);
	ctx->disable_count--;
}

void ucsan_sites_first(const uint8_t *t, uint16_t site, uintptr_t arg)
{
	const int i = pool_slot(t);
	uint16_t none = 0;
	if (i >= 0 && !atomic_load_explicit(&pool_first[i], memory_order_relaxed) &&
	    atomic_compare_exchange_strong(&pool_first[i], &none, (uint16_t)(site + 1)))
		atomic_store_explicit(&pool_arg[i], arg, memory_order_relaxed);
}

/* How far past a thread's argument its own object is taken to reach. */
#define ARG_SPAN 256

const uint8_t *ucsan_sites_behind(const uint8_t *mine, uint16_t site, uintptr_t addr)
{
	const int me = pool_slot(mine);
	const uint16_t first = me >= 0 ? atomic_load_explicit(&pool_first[me], memory_order_relaxed) : 0;
	if (!first)
		return NULL;
	const uintptr_t arg = atomic_load_explicit(&pool_arg[me], memory_order_relaxed);
	const bool in_own_arg = arg && addr - arg < ARG_SPAN;
	const uint64_t used = atomic_load(&site_pool_used);
	for (int i = 0; i < SITE_POOL; i++) {
		/* Another thread's bytes, which it writes as it goes. */
		if (i != me && (used & (1ULL << i)) && !atomic_load_explicit(&pool_waiting[i], memory_order_relaxed) &&
		    atomic_load_explicit(&pool_first[i], memory_order_relaxed) == first &&
		    !__atomic_load_n(&site_pool[i][site], __ATOMIC_RELAXED) &&
		    !(in_own_arg && atomic_load_explicit(&pool_arg[i], memory_order_relaxed) != arg))
			return site_pool[i];
	}
	return NULL;
}

bool ucsan_sites_running(const uint8_t *t)
{
	const int i = pool_slot(t);
	return i >= 0 && (atomic_load(&site_pool_used) & (1ULL << i)) &&
	       !atomic_load_explicit(&pool_waiting[i], memory_order_relaxed);
}

void ucsan_sites_waiting(bool waiting)
{
	ucsan_thread_info_waiting(waiting);
	/* A thread that waits before its first access has a table too. */
	const struct ucsan_ctx *const ctx = waiting ? ucsan_api_ctx() : &ucsan_ctx_tls;
	ucsan_nudge_waiting(ctx, waiting);
	const int i = pool_slot(ucsan_ctx_sites(ctx));
	if (i < 0)
		return;
	if (waiting)
		atomic_store(&pool_wait_stamp[i], atomic_load(&wake_calls));
	if (atomic_exchange(&pool_waiting[i], waiting) != waiting)
		atomic_fetch_add(&pool_waiters, waiting ? 1 : -1);
}

void ucsan_sites_wake_call(void)
{
	atomic_fetch_add(&wake_calls, 1);
}

bool ucsan_sites_others_blocked(const uint8_t *mine, int others)
{
	const int me = pool_slot(mine);
	if (me < 0 || others <= 0 || atomic_load_explicit(&pool_waiters, memory_order_relaxed) < others)
		return false;
	const uint32_t calls = atomic_load(&wake_calls);
	const uint64_t used = atomic_load(&site_pool_used);
	int blocked = 0;
	for (int i = 0; i < SITE_POOL; i++)
		if (i != me && (used & (1ULL << i)) && atomic_load(&pool_waiting[i]) &&
		    atomic_load(&pool_wait_stamp[i]) == calls)
			blocked++;
	/* Re-read: a wake-up handed out meanwhile may have been counted. */
	return blocked == others && atomic_load(&wake_calls) == calls;
}
