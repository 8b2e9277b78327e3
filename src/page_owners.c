// SPDX-License-Identifier: Apache-2.0
/*
 * Pages another thread has been seen on. Under a server's load most of a
 * worker's sampled accesses fall on memory no other thread touches -- its
 * connection buffers, blocks from its own arena, allocated long ago -- and
 * a watch there can meet nothing. Every access a pick falls on notes its
 * page here with the picking thread; a page noted by one thread only is
 * its own so far, and the pick passes its sample on (core.c,
 * pick_passes_on()), so that the budget goes to memory threads share.
 *
 * Learned, not known: a page is shared from the first time a second
 * thread's pick falls on it, and stays so. A fixed table of words hashed
 * by page number (16 KiB): the page number's next bits as a tag, the
 * thread's id (its low 15 bits, plus one) and a shared bit. Lock-free and
 * lossy -- two threads overwriting one word, two pages on one word, two
 * ids alike modulo 2^15 -- and each loss only moves a sample, never a
 * report.
 */
#define _GNU_SOURCE
#include "internal.h"

#define PAGE_SLOTS 4096
#define PAGE_SHIFT_BITS 12
#define SHARED_BIT 0x80000000u
#define TAG_MASK 0x7fff0000u
#define OWNER_MASK 0x0000ffffu

static _Atomic uint32_t page_words[PAGE_SLOTS];

static inline _Atomic uint32_t *word_of(uintptr_t page)
{
	return &page_words[(page ^ (page >> 12) * 7) & (PAGE_SLOTS - 1)];
}

enum ucsan_page_seen ucsan_page_seen(const struct ucsan_ctx *ctx, const volatile void *ptr)
{
	const uintptr_t page = (uintptr_t)ptr >> PAGE_SHIFT_BITS;
	const uint32_t tag = (uint32_t)(page >> 12) << 16 & TAG_MASK;
	const uint32_t me = ((uint32_t)ctx->tid & 0x7fff) + 1;
	_Atomic uint32_t *w = word_of(page);
	uint32_t v = atomic_load_explicit(w, memory_order_relaxed);
	/* First seen (or its word was another page's): whose it is is not
	 * known yet. */
	if ((v & TAG_MASK) != tag || !(v & OWNER_MASK)) {
		atomic_store_explicit(w, tag | me, memory_order_relaxed);
		return PAGE_FIRST_SEEN;
	}
	if (v & SHARED_BIT)
		return PAGE_SHARED;
	if ((v & OWNER_MASK) == me)
		return PAGE_ONLY_MINE;
	atomic_fetch_or_explicit(w, SHARED_BIT, memory_order_relaxed);
	return PAGE_SHARED;
}
