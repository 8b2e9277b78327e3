// SPDX-License-Identifier: Apache-2.0
/* Unit tests: watchpoint encoding round-trips and slot arithmetic. */

#include "encoding.h"

#define UNIT_NAME "encoding"
#include "unit_check.h"

static int round_trip_all(void)
{
	static const uintptr_t addrs[] = { 0x1000, 0x7fffffffeff8, 0x55d0c3a0, 0x1, 0x7ffffffff000 };
	static const size_t sizes[] = { 1, 2, 4, 8, 16, 3, 4095, UCSAN_MAX_ENCODABLE };
	for (size_t i = 0; i < sizeof(addrs) / sizeof(addrs[0]); i++)
		for (size_t j = 0; j < sizeof(sizes) / sizeof(sizes[0]); j++)
			for (int w = 0; w < 2; w++) {
				uint64_t e = wp_encode(addrs[i], sizes[j], w);
				uintptr_t a;
				size_t s;
				bool iw;
				if (!wp_decode(e, &a, &s, &iw) || a != addrs[i] || s != sizes[j] || iw != w)
					return 0;
			}
	return 1;
}

int main(void)
{
	uintptr_t a;
	size_t s;
	bool w;

	CHECK("round_trip", round_trip_all());
	CHECK("empty_is_invalid", !wp_decode(WP_INVALID, &a, &s, &w));
	CHECK("consumed_is_invalid", !wp_decode(WP_CONSUMED, &a, &s, &w));
	CHECK("no_encoding_is_consumed", wp_encode(0, 1, false) != WP_CONSUMED && wp_encode(1, 1, false) != WP_CONSUMED);
	CHECK("zero_size_unencodable", !wp_encodable(0x1000, 0));
	CHECK("max_size_encodable", wp_encodable(0x1000, UCSAN_MAX_ENCODABLE));
	CHECK("over_max_unencodable", !wp_encodable(0x1000, UCSAN_MAX_ENCODABLE + 1));
	/* Addresses wider than the field keep their low bits only. */
	CHECK("high_bits_dropped", (wp_encode((uintptr_t)1 << 60 | 0x1234, 4, 0) & WP_ADDR_MASK) == 0x1234);

	CHECK("overlap_same", ranges_overlap(100, 4, 100, 4));
	CHECK("overlap_inner", ranges_overlap(100, 16, 104, 1));
	CHECK("overlap_partial", ranges_overlap(100, 4, 103, 4));
	CHECK("adjacent_no_overlap", !ranges_overlap(100, 4, 104, 4));
	CHECK("before_no_overlap", !ranges_overlap(104, 4, 100, 4));

	/* Slot arithmetic: one slot per page, window of neighbours. */
	CHECK("same_page_same_slot", wp_base_slot(0x5000, 64) == wp_base_slot(0x5fff, 64));
	CHECK("next_page_next_slot", wp_base_slot(0x6000, 64) == wp_base_slot(0x5000, 64) + 1);
	CHECK("slot_wraps", wp_base_slot(64UL << UCSAN_SLOT_SHIFT, 64) == 0);
	CHECK("table_pow2", wp_table_slots(1) == 1 && wp_table_slots(64) == 64 && wp_table_slots(65) == 128 &&
				    wp_table_slots(4096) == 4096 && wp_table_slots(3) == 4);
	CHECK("slot_in_range", wp_base_slot(0x7fffffffe000, 64) < 64);
	/* Alike offsets of aligned regions (per-thread malloc arenas) must
	 * not all share one slot: 16 regions reach at least 8 slots. */
	unsigned long used = 0;
	for (uintptr_t r = 1; r <= 16; r++)
		used |= 1UL << wp_base_slot(0x7f0000000000UL + (r << UCSAN_REGION_SHIFT) + 0x2000, 64);
	CHECK("regions_scattered", __builtin_popcountl(used) >= 8);
	/* The armed summary: a window sees the bits of its own three words
	 * (mod 64), wrapping around, and no others. */
	CHECK("armed_own_word", wp_window_armed(1ULL << 11, 10));
	CHECK("armed_window_edges", wp_window_armed(1ULL << 10, 10) && wp_window_armed(1ULL << 12, 10));
	CHECK("armed_outside", !wp_window_armed(1ULL << 13, 10) && !wp_window_armed(1ULL << 9, 10));
	CHECK("armed_wraps", wp_window_armed(1ULL, 63) && wp_window_armed(1ULL << 1, 63) &&
				     !wp_window_armed(1ULL << 2, 63));
	CHECK("armed_folded", wp_window_armed(1ULL << 3, 64 + 2));
	CHECK("region_pages_adjacent",
	      wp_base_slot(0x7f0004000000UL + 0x3000, 64) == ((wp_base_slot(0x7f0004000000UL + 0x2000, 64) + 1) & 63));
	CHECK("insert_prefers_own_slot", wp_insert_index(10, 0) == 10 + UCSAN_CHECK_ADJACENT);
	int seen[UCSAN_NUM_SLOTS] = { 0 };
	for (int i = 0; i < UCSAN_NUM_SLOTS; i++)
		seen[wp_insert_index(10, i) - 10]++;
	int all_once = 1;
	for (int i = 0; i < UCSAN_NUM_SLOTS; i++)
		all_once &= seen[i] == 1;
	CHECK("insert_covers_window_once", all_once);
	/* A watchpoint inserted for page p is in the window checked from p-1, p, p+1. */
	size_t nslots = 64, p = 20;
	int found_all = 1;
	for (int i = 0; i < UCSAN_NUM_SLOTS; i++) {
		size_t idx = wp_insert_index(wp_base_slot(p << UCSAN_SLOT_SHIFT, nslots), i);
		if (i == 0) {
			for (int d = -1; d <= 1; d++) {
				size_t b = wp_base_slot((p + d) << UCSAN_SLOT_SHIFT, nslots);
				found_all &= idx >= b && idx < b + UCSAN_NUM_SLOTS;
			}
		}
	}
	CHECK("own_slot_seen_from_neighbours", found_all);

	return failures != 0;
}
