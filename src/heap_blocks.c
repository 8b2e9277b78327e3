// SPDX-License-Identifier: Apache-2.0
/*
 * The live heap blocks, for the report's location line: start, size, the
 * allocating thread and (heap_stacks) a short allocation stack, recorded by
 * the interposed allocation functions (intercept_malloc.c).
 *
 * Bounded and allocation-free: a fixed table of BLOCK_WAYS-way buckets
 * indexed by a hash of the block's start. A program with more live blocks
 * than the table holds loses the record of some (a report then shows the
 * mapping, as without the table). Stacks are kept once each in a fixed depot
 * and named by their index. Everything is lock-free, so fork and signals
 * cannot leave a lock behind; records are only read to print a report, where
 * a record torn by a concurrent update costs a wrong line, never a crash.
 */
#define _GNU_SOURCE
#include "internal.h"

#define BLOCK_BUCKETS 8192 /* x BLOCK_WAYS records of 16 bytes: 512 KiB */
#define BLOCK_WAYS 4
#define DEPOT_SLOTS 4096 /* stacks of UCSAN_HEAP_STACK frames: 224 KiB */

/*
 * A record is 16 bytes, so that the table costs a program little memory
 * (its pages are touched wherever blocks land): the block's start and its
 * stack share one word. User-space addresses have 48 bits; the depot
 * index + 1 (0: none) takes the bits above. A block above 2^48 (5-level
 * paging) is not recorded.
 */
#define KEY_ADDR_BITS 48
#define KEY_ADDR_MASK ((1ULL << KEY_ADDR_BITS) - 1)

struct block {
	_Atomic uint64_t key; /* start | (stack << 48); 0: free */
	uint32_t size_lo;     /* the size, saturated at 4 GiB - 1 */
	int32_t tid;
};

static inline uintptr_t key_start(uint64_t key)
{
	return (uintptr_t)(key & KEY_ADDR_MASK);
}

struct depot_entry {
	_Atomic uint64_t hash; /* 0: free; then the stack's hash, set once */
	_Atomic int ready;     /* the frames are written */
	int n;
	uintptr_t pcs[UCSAN_HEAP_STACK];
};

static struct block blocks[BLOCK_BUCKETS][BLOCK_WAYS];
static struct depot_entry depot[DEPOT_SLOTS];

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

static uint32_t depot_put(const uintptr_t *pcs, int n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (int i = 0; i < n; i++)
		h = (h ^ pcs[i]) * 0x100000001b3ULL;
	h |= 1;
	for (uint32_t i = 0, at = (uint32_t)(h >> 20) & (DEPOT_SLOTS - 1); i < 16; i++) {
		struct depot_entry *e = &depot[(at + i) & (DEPOT_SLOTS - 1)];
		uint64_t cur = atomic_load_explicit(&e->hash, memory_order_acquire);
		if (cur == 0) {
			if (!atomic_compare_exchange_strong(&e->hash, &cur, h) && cur != h)
				continue;
			if (cur == 0) { /* ours: fill it */
				e->n = n;
				copy_pcs(e->pcs, pcs, n);
				atomic_store_explicit(&e->ready, 1, memory_order_release);
			}
			return (uint32_t)((at + i) & (DEPOT_SLOTS - 1)) + 1;
		}
		if (cur == h)
			return (uint32_t)((at + i) & (DEPOT_SLOTS - 1)) + 1;
	}
	return 0; /* depot full here: the block is kept without a stack */
}

/* The thread's last stack and its depot entry: a thread allocating in a
 * loop allocates from one place, and skips the depot's lookup. */
static __thread struct {
	int n;
	uint32_t id;
	uintptr_t pcs[UCSAN_HEAP_STACK];
} last_stack __attribute__((tls_model("initial-exec")));

static uint32_t stack_id(const uintptr_t *pcs, int n)
{
	if (n == last_stack.n && last_stack.id) {
		int i = 0;
		while (i < n && pcs[i] == last_stack.pcs[i])
			i++;
		if (i == n)
			return last_stack.id;
	}
	const uint32_t id = depot_put(pcs, n);
	last_stack.n = n;
	last_stack.id = id;
	copy_pcs(last_stack.pcs, pcs, n);
	return id;
}

void ucsan_heap_block_add(uintptr_t start, size_t size, const uintptr_t *pcs, int npcs)
{
	if (!start || start > KEY_ADDR_MASK)
		return;
	struct block *b = blocks[bucket_of(start)];
	struct block *use = NULL;
	for (int i = 0; i < BLOCK_WAYS; i++) {
		uint64_t cur = atomic_load_explicit(&b[i].key, memory_order_relaxed);
		if (key_start(cur) == start || cur == 0) {
			use = &b[i];
			break;
		}
	}
	/* A full bucket: some record goes, chosen by the address. */
	if (!use)
		use = &b[(start >> 4) & (BLOCK_WAYS - 1)];
	atomic_store_explicit(&use->key, 0, memory_order_relaxed);
	use->size_lo = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size;
	/* No system call here: a thread that never entered the runtime has
	 * its id in its thread record only. */
	const struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	use->tid = ctx->tid ? ctx->tid : ctx->thread_info ? ctx->thread_info->tid : 0;
	const uint64_t stack = npcs > 0 ? stack_id(pcs, npcs) : 0;
	atomic_store_explicit(&use->key, start | stack << KEY_ADDR_BITS, memory_order_release);
}

void ucsan_heap_block_remove(uintptr_t start)
{
	if (!start)
		return;
	struct block *b = blocks[bucket_of(start)];
	/* A plain store, no locked instruction: were the way taken over by
	 * another block in between (an eviction), that record is lost, which
	 * only costs a report its allocation line. */
	for (int i = 0; i < BLOCK_WAYS; i++) {
		if (key_start(atomic_load_explicit(&b[i].key, memory_order_relaxed)) == start) {
			atomic_store_explicit(&b[i].key, 0, memory_order_relaxed);
			return;
		}
	}
}

size_t ucsan_heap_block_size(uintptr_t start)
{
	if (!start || start > KEY_ADDR_MASK)
		return 0;
	const struct block *b = blocks[bucket_of(start)];
	for (int i = 0; i < BLOCK_WAYS; i++) {
		const uint64_t key = atomic_load_explicit(&b[i].key, memory_order_acquire);
		if (key_start(key) != start)
			continue;
		const size_t size = b[i].size_lo;
		/* The way taken over meanwhile: that size may be another's. */
		return atomic_load_explicit(&b[i].key, memory_order_acquire) == key ? size : 0;
	}
	return 0;
}

bool ucsan_heap_block_find(uintptr_t addr, struct ucsan_heap_block *out)
{
	uintptr_t best = 0;
	for (int i = 0; i < BLOCK_BUCKETS; i++) {
		for (int w = 0; w < BLOCK_WAYS; w++) {
			const struct block *b = &blocks[i][w];
			const uint64_t key = atomic_load_explicit(&b->key, memory_order_acquire);
			const uintptr_t start = key_start(key);
			if (!start || start > addr || start <= best)
				continue;
			const size_t size = b->size_lo;
			if (addr - start >= (size ? size : 1))
				continue;
			best = start;
			out->start = start;
			out->size = size;
			out->tid = b->tid;
			out->npcs = 0;
			const uint32_t s = (uint32_t)(key >> KEY_ADDR_BITS);
			if (s && s <= DEPOT_SLOTS && atomic_load_explicit(&depot[s - 1].ready, memory_order_acquire)) {
				out->npcs = depot[s - 1].n;
				copy_pcs(out->pcs, depot[s - 1].pcs, out->npcs);
			}
		}
	}
	return best != 0;
}
