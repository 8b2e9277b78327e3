/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The hot path: the check every instrumented access makes, inlined into
 * each entry point. It reads the thread's skip counter, the summary of which
 * table words are in use and, only while a word of its window is, that
 * window of the watchpoint table. It never
 * writes shared memory and never calls anything on the common path.
 */
#ifndef UCSAN_CHECK_H
#define UCSAN_CHECK_H

#include "internal.h"

/* Returns the watchpoint in the access's window that conflicts with it. */
static ALWAYS_INLINE _Atomic(uint64_t) *find_watchpoint(uintptr_t addr, size_t size, bool is_write,
							 uint64_t *encoded)
{
	const size_t base = wp_base_slot(addr, ucsan_nslots);
	const uintptr_t addr_masked = addr & WP_ADDR_MASK;

	for (int i = 0; i < UCSAN_NUM_SLOTS; i++) {
		_Atomic(uint64_t) *wp = &ucsan_watchpoints[base + (size_t)i];
		uint64_t w = atomic_load_explicit(wp, memory_order_relaxed);
		uintptr_t wp_addr;
		size_t wp_size;
		bool wp_write;

		if (!wp_decode(w, &wp_addr, &wp_size, &wp_write))
			continue;
		/* Two reads never conflict. */
		if (!is_write && !wp_write)
			continue;
		if (ranges_overlap(wp_addr, wp_size, addr_masked, size)) {
			*encoded = w;
			return wp;
		}
	}
	return NULL;
}

/*
 * Accesses of at most UCSAN_SLOT_RANGE bytes (larger ones go through
 * ucsan_check_range()). `type` is a constant at
 * every call site, so the marked/plain distinction folds away.
 */
static ALWAYS_INLINE void check_access(const volatile void *ptr, size_t size, int type, uintptr_t ip)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;

	if ((type & UCSAN_ACCESS_ATOMIC) && ucsan_opts.ignore_atomics)
		return;
	const uint64_t armed = atomic_load_explicit(&ucsan_armed, memory_order_relaxed);
	if (unlikely(armed != 0) && wp_window_armed(armed, wp_base_slot((uintptr_t)ptr, ucsan_nslots))) {
		uint64_t encoded;
		_Atomic(uint64_t) *wp =
			find_watchpoint((uintptr_t)ptr, size, (type & UCSAN_ACCESS_WRITE) != 0, &encoded);
		if (unlikely(wp != NULL)) {
			ucsan_found_watchpoint(ptr, size, type, ip, wp, encoded);
			return;
		}
	}
	/*
	 * Marked accesses never set watchpoints and do not count as skipped;
	 * neither do aligned plain word-size writes, which the kernel (and
	 * assume_plain_writes_atomic=1) treats as atomic. A thread with
	 * annotation state still has scoped checks to run on them.
	 */
	if ((type & UCSAN_ACCESS_ATOMIC) ||
	    ((type & UCSAN_ACCESS_WRITE) && !(type & (UCSAN_ACCESS_COMPOUND | UCSAN_ACCESS_ASSERT)) &&
	     size <= sizeof(long) && ucsan_opts.assume_plain_writes_atomic &&
	     ((uintptr_t)ptr & (size - 1)) == 0)) {
		if (unlikely(ctx->skip < UCSAN_SPECIAL_THRESHOLD))
			ucsan_special_marked();
		return;
	}
	if (unlikely(--ctx->skip < 0))
		ucsan_slow_path(ptr, size, type, ip);
}

#define CALLER_PC() ((uintptr_t)__builtin_return_address(0))

#endif /* UCSAN_CHECK_H */
