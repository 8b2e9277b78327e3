// SPDX-License-Identifier: Apache-2.0
/*
 * The live heap blocks, for the report's location line: start, size, the
 * allocating thread and (heap_stacks) a short allocation stack, recorded by
 * the interposed allocation functions (intercept_malloc.c).
 *
 * Bounded and allocation-free: a fixed table of BLOCK_WAYS-way buckets
 * indexed by a hash of the block's start. A program with more live blocks
 * than the table holds loses the record of some (a report then shows the
 * mapping, as without the table). What a record says beyond the start, and
 * the stacks, are kept once each in fixed tables and named by their ids.
 * Everything is lock-free, so fork and signals cannot leave a lock behind.
 */
#define _GNU_SOURCE
#include "internal.h"

#define BLOCK_BUCKETS 8192 /* x BLOCK_WAYS records of 8 bytes: 256 KiB */
#define BLOCK_WAYS 4
#define INFO_SLOTS (1u << 20) /* sizes, threads and stacks: 12 bytes each */
#define DEPOT_SLOTS 4096 /* stacks of UCSAN_HEAP_STACK frames: 56 bytes each */
#define INDEX_SLOTS 4096 /* the hashed lookup of either: 4-byte ids, 16 KiB */

/*
 * A record is one word, so that the table costs a program little memory
 * (its pages are touched wherever blocks land, and a program with 16384
 * small blocks alive touches all of them): the block's start, and above it
 * the id of an entry holding its size, thread and stack. Entries are
 * shared -- a thread allocating one size from one place uses one -- and
 * never change once made, so a report never reads one half-written.
 * User-space addresses have 47 bits and allocators align blocks to 8 bytes
 * at least: 44 bits hold the start. A block above 2^47 (5-level paging)
 * or not so aligned is not recorded, nor one whose entry no longer fits
 * (a million distinct thread, size and stack triples).
 */
#define KEY_START_BITS 44
#define KEY_START_MASK ((1ULL << KEY_START_BITS) - 1)
/* The bits above the start name any entry, and only entries. */
_Static_assert(INFO_SLOTS == 1ULL << (64 - KEY_START_BITS), "entry ids fill the record's top bits");

static inline bool recordable(uintptr_t start)
{
	return start && !(start & 7) && (start >> 3) <= KEY_START_MASK;
}

static inline uintptr_t key_start(uint64_t key)
{
	return (uintptr_t)(key & KEY_START_MASK) << 3;
}

struct block_info {
	uint32_t size; /* saturated at 4 GiB - 1 */
	int32_t tid;
	uint32_t stack; /* its depot id; 0: none */
};

struct depot_entry {
	int n;
	uintptr_t pcs[UCSAN_HEAP_STACK];
};

static _Atomic uint64_t blocks[BLOCK_BUCKETS][BLOCK_WAYS];

/* Entries are handed out from the front (id 0: none), so that a program
 * with few of them touches few pages; only the indexes are hashed. */
static struct block_info infos[INFO_SLOTS];
static _Atomic uint32_t infos_used = 1;
static _Atomic uint32_t info_index[INDEX_SLOTS];
static struct depot_entry depot[DEPOT_SLOTS];
static _Atomic uint32_t depot_used = 1;
static _Atomic uint32_t depot_index[INDEX_SLOTS];

/* Neighbouring blocks (malloc's smallest chunk is 32 bytes) go to
 * neighbouring buckets: a thread that allocates and frees blocks near each
 * other keeps touching the same lines of the table. Blocks 256 KiB apart
 * share a bucket and its ways; the higher bits are folded in so that
 * arenas at the same offsets do not all meet there. */
static inline uint32_t bucket_of(uintptr_t p)
{
	return (uint32_t)((p >> 5) ^ (p >> 19) * 7) & (BLOCK_BUCKETS - 1);
}

/* Not memcpy: the runtime's memcpy is the program's, which checks its
 * caller's accesses (intercept.c), and these are the runtime's own. */
static void copy_pcs(uintptr_t *dst, const uintptr_t *src, int n)
{
	for (int i = 0; i < n; i++)
		dst[i] = src[i];
}

/* The next unused id of a table of `slots`, or 0 once all are taken. */
static uint32_t take_id(_Atomic uint32_t *used, uint32_t slots)
{
	if (atomic_load_explicit(used, memory_order_relaxed) >= slots)
		return 0;
	const uint32_t id = atomic_fetch_add_explicit(used, 1, memory_order_relaxed);
	return id < slots ? id : 0;
}

/*
 * The id of the entry equal to *want: found through the index, or made
 * (filled before the index names it: release) and entered there. A thread
 * that loses the race to enter an equal entry leaves its own unused; where
 * the index's window is full, the new entry takes its first slot, so that
 * what is asked for now keeps being found.
 */
static uint32_t interned(_Atomic uint32_t *index, uint64_t hash, const void *want,
			 bool (*same)(uint32_t id, const void *want), uint32_t (*make)(const void *want))
{
	uint32_t mine = 0;
	for (uint32_t i = 0; i < 16; i++) {
		_Atomic uint32_t *slot = &index[(hash + i) & (INDEX_SLOTS - 1)];
		uint32_t cur = atomic_load_explicit(slot, memory_order_acquire);
		if (cur == 0) {
			if (!mine && !(mine = make(want)))
				return 0;
			if (atomic_compare_exchange_strong_explicit(slot, &cur, mine, memory_order_release,
								    memory_order_acquire))
				return mine;
		}
		if (same(cur, want))
			return cur;
	}
	if (!mine && !(mine = make(want)))
		return 0;
	atomic_store_explicit(&index[hash & (INDEX_SLOTS - 1)], mine, memory_order_release);
	return mine;
}

struct stack_want {
	const uintptr_t *pcs;
	int n;
};

static bool same_stack(uint32_t id, const void *arg)
{
	const struct stack_want *w = arg;
	const struct depot_entry *e = &depot[id];
	if (e->n != w->n)
		return false;
	for (int i = 0; i < w->n; i++)
		if (e->pcs[i] != w->pcs[i])
			return false;
	return true;
}

static uint32_t make_stack(const void *arg)
{
	const struct stack_want *w = arg;
	const uint32_t id = take_id(&depot_used, DEPOT_SLOTS);
	if (id) {
		depot[id].n = w->n;
		copy_pcs(depot[id].pcs, w->pcs, w->n);
	}
	return id;
}

static bool same_info(uint32_t id, const void *arg)
{
	const struct block_info *a = &infos[id], *b = arg;
	return a->size == b->size && a->tid == b->tid && a->stack == b->stack;
}

static uint32_t make_info(const void *arg)
{
	const uint32_t id = take_id(&infos_used, INFO_SLOTS);
	if (id)
		infos[id] = *(const struct block_info *)arg;
	return id;
}

/* The thread's last stack and entry: a thread allocating in a loop
 * allocates one size from one place, and skips both lookups. */
static __thread struct {
	int n;
	uint32_t stack;
	uintptr_t pcs[UCSAN_HEAP_STACK];
	uint32_t info_id;
} last __attribute__((tls_model("initial-exec")));

static uint32_t stack_id(const uintptr_t *pcs, int n)
{
	if (n == last.n && last.stack) {
		int i = 0;
		while (i < n && pcs[i] == last.pcs[i])
			i++;
		if (i == n)
			return last.stack;
	}
	uint64_t h = 0xcbf29ce484222325ULL;
	for (int i = 0; i < n; i++)
		h = (h ^ pcs[i]) * 0x100000001b3ULL;
	const struct stack_want want = { pcs, n };
	const uint32_t id = interned(depot_index, h ^ h >> 32, &want, same_stack, make_stack);
	last.n = n;
	last.stack = id;
	copy_pcs(last.pcs, pcs, n);
	return id; /* 0: the depot is full, and the block is kept without a stack */
}

static uint32_t info_id(const struct block_info *want)
{
	if (last.info_id && same_info(last.info_id, want))
		return last.info_id;
	uint64_t h = (want->size * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)(uint32_t)want->tid * 0xc2b2ae3d27d4eb4fULL) ^
		     (want->stack * 0x165667b19e3779f9ULL);
	const uint32_t id = interned(info_index, h ^ h >> 29, want, same_info, make_info);
	last.info_id = id;
	return id;
}

void ucsan_heap_block_add(uintptr_t start, size_t size, const uintptr_t *pcs, int npcs)
{
	if (!recordable(start))
		return;
	/* No system call here: a thread that never entered the runtime has
	 * its id in its thread record only. */
	const struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	const struct block_info want = {
		.size = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size,
		.tid = ctx->tid ? ctx->tid : ctx->thread_info ? ctx->thread_info->tid : 0,
		.stack = npcs > 0 ? stack_id(pcs, npcs) : 0,
	};
	const uint64_t info = info_id(&want);
	_Atomic uint64_t *b = blocks[bucket_of(start)];
	_Atomic uint64_t *use = NULL;
	for (int i = 0; i < BLOCK_WAYS; i++) {
		uint64_t cur = atomic_load_explicit(&b[i], memory_order_relaxed);
		if (key_start(cur) == start || cur == 0) {
			use = &b[i];
			break;
		}
	}
	/* A full bucket: some record goes, chosen by the address. */
	if (!use)
		use = &b[(start >> 4) & (BLOCK_WAYS - 1)];
	/* Release: the entry is there before the record names it. Without
	 * one, an earlier record of this start goes, being wrong now. */
	atomic_store_explicit(use, info ? start >> 3 | info << KEY_START_BITS : 0, memory_order_release);
}

void ucsan_heap_block_remove(uintptr_t start)
{
	if (!recordable(start))
		return;
	_Atomic uint64_t *b = blocks[bucket_of(start)];
	/* A plain store, no locked instruction: were the way taken over by
	 * another block in between (an eviction), that record is lost, which
	 * only costs a report its allocation line. */
	for (int i = 0; i < BLOCK_WAYS; i++) {
		if (key_start(atomic_load_explicit(&b[i], memory_order_relaxed)) == start) {
			atomic_store_explicit(&b[i], 0, memory_order_relaxed);
			return;
		}
	}
}

/* The entry a record names (acquire: made before the record), if any. */
static const struct block_info *info_of(const _Atomic uint64_t *record, uintptr_t *start)
{
	const uint64_t key = atomic_load_explicit(record, memory_order_acquire);
	const uint32_t id = (uint32_t)(key >> KEY_START_BITS);
	*start = key_start(key);
	return id ? &infos[id] : NULL;
}

bool ucsan_heap_block_lookup(uintptr_t start, size_t *size)
{
	if (!recordable(start))
		return false;
	const _Atomic uint64_t *b = blocks[bucket_of(start)];
	for (int i = 0; i < BLOCK_WAYS; i++) {
		uintptr_t s;
		const struct block_info *info = info_of(&b[i], &s);
		if (info && s == start) {
			*size = info->size;
			return true;
		}
	}
	return false;
}

size_t ucsan_heap_block_size(uintptr_t start)
{
	size_t size = 0;
	return ucsan_heap_block_lookup(start, &size) ? size : 0;
}

bool ucsan_heap_block_find(uintptr_t addr, struct ucsan_heap_block *out)
{
	uintptr_t best = 0;
	for (int i = 0; i < BLOCK_BUCKETS; i++) {
		for (int w = 0; w < BLOCK_WAYS; w++) {
			uintptr_t start;
			const struct block_info *info = info_of(&blocks[i][w], &start);
			if (!info || start > addr || start <= best || addr - start >= (info->size ? info->size : 1))
				continue;
			best = start;
			out->start = start;
			out->size = info->size;
			out->tid = info->tid;
			out->npcs = 0;
			if (info->stack) {
				out->npcs = depot[info->stack].n;
				copy_pcs(out->pcs, depot[info->stack].pcs, out->npcs);
			}
		}
	}
	return best != 0;
}
