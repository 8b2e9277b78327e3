/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Watchpoint encoding and slot arithmetic: pure functions, no state.
 *
 * A watchpoint is one 64-bit word, so that inserting, finding, consuming and
 * removing it are single atomic operations:
 *
 *   [63]         1 if the watched access is a write
 *   [62..49]     size of the watched access in bytes (1 .. UCSAN_MAX_ENCODABLE)
 *   [48..0]      low bits of the address
 *
 * All-zero means "empty" (so a zeroed table is valid), and the otherwise
 * impossible value 1 (size 0) means "consumed by a racing thread".  User-space
 * addresses fit in 47 bits on x86-64 and 48 on arm64, so the address bits are
 * exact there; a wider address only loses high bits, and the full address is
 * compared again before anything is reported.
 */
#ifndef UCSAN_ENCODING_H
#define UCSAN_ENCODING_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define UCSAN_SLOT_SHIFT 12 /* one slot covers one 4 KiB page */
#define UCSAN_SLOT_RANGE (1UL << UCSAN_SLOT_SHIFT)

/* Check the slot of the access and one neighbour on each side, so that an
 * access near a page boundary still meets a watchpoint set on the next page. */
#define UCSAN_CHECK_ADJACENT 1
#define UCSAN_NUM_SLOTS (1 + 2 * UCSAN_CHECK_ADJACENT)

/* The largest access one watchpoint can describe. ucsan_check_range()
 * splits larger ones into pieces of one slot's range (see there). */
#define UCSAN_MAX_ENCODABLE (UCSAN_SLOT_RANGE * (1 + UCSAN_CHECK_ADJACENT))

#define WP_SIZE_BITS 14 /* enough for UCSAN_MAX_ENCODABLE (8192) */
#define WP_ADDR_BITS (64 - 1 - WP_SIZE_BITS)
#define WP_WRITE_MASK (1ULL << 63)
#define WP_SIZE_MASK (((1ULL << WP_SIZE_BITS) - 1) << WP_ADDR_BITS)
#define WP_ADDR_MASK ((1ULL << WP_ADDR_BITS) - 1)

#define WP_INVALID 0ULL
#define WP_CONSUMED 1ULL

_Static_assert(UCSAN_MAX_ENCODABLE < (1UL << WP_SIZE_BITS), "size field too small");

static inline bool wp_encodable(uintptr_t addr, size_t size)
{
	(void)addr;
	return size >= 1 && size <= UCSAN_MAX_ENCODABLE;
}

static inline uint64_t wp_encode(uintptr_t addr, size_t size, bool is_write)
{
	return (is_write ? WP_WRITE_MASK : 0) | ((uint64_t)size << WP_ADDR_BITS) |
	       ((uint64_t)addr & WP_ADDR_MASK);
}

/* Returns false for the empty and the consumed marker. */
static inline bool wp_decode(uint64_t wp, uintptr_t *addr_masked, size_t *size, bool *is_write)
{
	if (wp == WP_INVALID || wp == WP_CONSUMED)
		return false;
	*addr_masked = (uintptr_t)(wp & WP_ADDR_MASK);
	*size = (size_t)((wp & WP_SIZE_MASK) >> WP_ADDR_BITS);
	*is_write = (wp & WP_WRITE_MASK) != 0;
	return true;
}

/* Do [a1, a1+s1) and [a2, a2+s2) overlap? */
static inline bool ranges_overlap(uintptr_t a1, size_t s1, uintptr_t a2, size_t s2)
{
	uintptr_t end1 = a1 + s1 - 1, end2 = a2 + s2 - 1;
	return a1 <= end2 && a2 <= end1;
}

/*
 * The table has nslots + UCSAN_NUM_SLOTS - 1 words, so that the window of
 * neighbours of any base slot is contiguous and needs no wrap-around.
 * wp_base_slot() is the index of the window's first word; the access's own
 * slot is base + UCSAN_CHECK_ADJACENT.
 */
/*
 * nslots is a power of two: the hot path must not divide. Pages keep
 * adjacent slots inside a region of 64 MiB (the window relies on it), and
 * regions start at scattered slots: allocators put alike objects at alike
 * offsets of aligned regions (glibc's per-thread arenas are 64 MiB apart),
 * and those would all crowd into the same few windows. Only an access
 * straddling two regions can miss a watchpoint on the other side.
 */
#define UCSAN_REGION_SHIFT 26
static inline size_t wp_base_slot(uintptr_t addr, size_t nslots)
{
	const uint64_t region = (uint64_t)addr >> UCSAN_REGION_SHIFT;
	const uint64_t scatter = (region * 0x9e3779b97f4a7c15ULL) >> 40;
	return (size_t)(((addr >> UCSAN_SLOT_SHIFT) + scatter) & (nslots - 1));
}

/* Does the armed summary (bit i: word i mod 64 is in use) mark a word of
 * the window that starts at `base`? */
static inline bool wp_window_armed(uint64_t armed, size_t base)
{
	const unsigned r = (unsigned)(base & 63);
	const uint64_t rotated = r ? (armed >> r) | (armed << (64 - r)) : armed;
	return (rotated & ((1ULL << UCSAN_NUM_SLOTS) - 1)) != 0;
}

/* The gate's page filter: a bit per page, UCSAN_GATE_PAGES bits in all. */
#define UCSAN_GATE_PAGES 512

/* The largest access the inlined check takes whole (16 bytes); larger ones
 * come in pieces of at most a page (ucsan_check_range()), which look at
 * the bits of the pages they start and end on. */
#define UCSAN_INLINE_MAX 16

/* The pages whose bits a watch of [addr, addr + size) sets: its own, and
 * the one before if an inlined access starting there can reach it. An
 * access tests the bit of the page it starts on only, so no more is needed,
 * and a thread working on the next page keeps its accesses inline. */
static inline uintptr_t gate_first_page(uintptr_t addr)
{
	return (addr >= UCSAN_INLINE_MAX - 1 ? addr - (UCSAN_INLINE_MAX - 1) : 0) >> UCSAN_SLOT_SHIFT;
}

static inline uintptr_t gate_last_page(uintptr_t addr, size_t size)
{
	return (addr + (size ? size : 1) - 1) >> UCSAN_SLOT_SHIFT;
}

/* A page's bit in the filter: its number with its 64 MiB region's folded
 * in, since glibc's per-thread arenas are 64 MiB apart and put alike
 * blocks at alike offsets: they would all share bits. */
static inline size_t gate_page_bit(uintptr_t page)
{
	return (size_t)((page ^ (page >> (UCSAN_REGION_SHIFT - UCSAN_SLOT_SHIFT))) % UCSAN_GATE_PAGES);
}

/* May an access starting at addr pass without the table, going by the
 * gate's page bits (gate_first_page())? */
static inline bool gate_page_armed(const _Atomic uint64_t *pages, uintptr_t addr)
{
	const size_t b = gate_page_bit(addr >> UCSAN_SLOT_SHIFT);
	return (atomic_load_explicit(&pages[b / 64], memory_order_relaxed) >> (b % 64)) & 1;
}

/* The table size for a requested number of slots: the next power of two. */
static inline size_t wp_table_slots(long requested)
{
	size_t n = 1;
	while ((long)n < requested)
		n <<= 1;
	return n;
}

/* Insertion order inside a window: own slot first, then the neighbours. */
static inline size_t wp_insert_index(size_t base, int i)
{
	return base + (size_t)((i + UCSAN_CHECK_ADJACENT) % UCSAN_NUM_SLOTS);
}

#endif /* UCSAN_ENCODING_H */
