// SPDX-License-Identifier: Apache-2.0
/*
 * Unit tests: the live heap block records (heap_blocks.c) behind a report's
 * location line. Each block must come back with its own size, thread and
 * stack however many distinct ones the program has used -- more than the
 * lookup index holds -- and whether threads record the same ones at once.
 * The addresses are made up, far from the test's own heap: the table keys
 * on the address only.
 */
#define _GNU_SOURCE
#include <pthread.h>

#include "internal.h"

#define UNIT_NAME "heap_blocks"
#include "unit_check.h"

#define BASE ((uintptr_t)0x100000000000ULL) /* 16 TiB */
#define MANY 8000 /* alive at once: two to a bucket */
#define THREADS 4
#define SHARED 300

static int my_tid(void)
{
	const struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	return ctx->tid ? ctx->tid : ctx->thread_info ? ctx->thread_info->tid : 0;
}

/* Whether the block holding addr is the one recorded with these. */
static bool found_as(uintptr_t addr, uintptr_t start, size_t size, int tid, uintptr_t pc0)
{
	struct ucsan_heap_block b;
	if (!ucsan_heap_block_find(addr, &b))
		return false;
	return b.start == start && b.size == size && b.tid == tid && (!pc0 || (b.npcs == 2 && b.pcs[0] == pc0));
}

/* MANY blocks, each of its own size and stack pair: 40 sizes from 200
 * places, twice as many pairs as the index holds. */
static bool many_distinct(void)
{
	for (uintptr_t i = 0; i < MANY; i++) {
		const uintptr_t pcs[2] = { 0x400100 + i / 40 * 8, 0x400200 };
		ucsan_heap_block_add(BASE + i * 64, 24 + i % 40, pcs, 2);
	}
	bool ok = true;
	for (uintptr_t i = 0; i < MANY; i++)
		ok = ok &&
		     found_as(BASE + i * 64 + 23 + i % 40, BASE + i * 64, 24 + i % 40, my_tid(),
			      0x400100 + i / 40 * 8) &&
		     ucsan_heap_block_size(BASE + i * 64) == 24 + i % 40;
	for (uintptr_t i = 0; i < MANY; i++)
		ucsan_heap_block_remove(BASE + i * 64);
	return ok;
}

/* Apart from the others' blocks, and in other buckets. */
static uintptr_t thread_base(long k)
{
	return BASE + ((uintptr_t)1 << 32) * (uintptr_t)(k + 1) + (uintptr_t)k * 64;
}

/* Each thread records SHARED blocks with the same sizes and stacks as the
 * others, at once: its own thread id must stay on its own blocks. */
static void *shared_sizes(void *arg)
{
	const long k = (long)arg;
	for (uintptr_t i = 0; i < SHARED; i++) {
		const uintptr_t pcs[2] = { 0x500000 + i * 16, 0x500008 };
		ucsan_heap_block_add(thread_base(k) + i * 256, 64 + i % 7, pcs, 2);
	}
	for (uintptr_t i = 0; i < SHARED; i++)
		if (!found_as(thread_base(k) + i * 256 + 8, thread_base(k) + i * 256, 64 + i % 7, my_tid(),
			      0x500000 + i * 16))
			return (void *)1;
	return NULL;
}

static bool threads_at_once(void)
{
	pthread_t t[THREADS];
	bool ok = true;
	for (long k = 0; k < THREADS; k++)
		if (pthread_create(&t[k], NULL, shared_sizes, (void *)k) != 0)
			return false;
	for (long k = 0; k < THREADS; k++) {
		void *r;
		pthread_join(t[k], &r);
		ok = ok && r == NULL;
	}
	return ok;
}

int main(void)
{
	CHECK("distinct_sizes_past_the_index", many_distinct());
	CHECK("threads_record_at_once", threads_at_once());

	const uintptr_t at = BASE - 4096;
	ucsan_heap_block_add(at, 100, NULL, 0);
	struct ucsan_heap_block b;
	CHECK("no_stack", ucsan_heap_block_find(at + 99, &b) && b.size == 100 && b.npcs == 0);
	CHECK("past_the_end_not_in_it", !ucsan_heap_block_find(at + 100, &b) || b.start != at);
	ucsan_heap_block_remove(at);
	CHECK("freed_forgotten", !ucsan_heap_block_find(at + 8, &b) || b.start != at);
	CHECK("freed_size_unknown", ucsan_heap_block_size(at) == 0);

	ucsan_heap_block_add(at + 4, 16, NULL, 0);
	CHECK("misaligned_not_recorded", ucsan_heap_block_size(at + 4) == 0);
	ucsan_heap_block_add((uintptr_t)1 << 47, 16, NULL, 0);
	CHECK("above_47_bits_not_recorded", ucsan_heap_block_size((uintptr_t)1 << 47) == 0);
	ucsan_heap_block_add(at, (size_t)1 << 33, NULL, 0);
	CHECK("huge_size_saturated", ucsan_heap_block_size(at) == UINT32_MAX);
	return failures != 0;
}
