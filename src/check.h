/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The hot path: the check every instrumented access makes, inlined into
 * each entry point. It reads the gate (how many watchpoints are armed)
 * and, only while it is not 0, the gate's bit for the access's page;
 * then the thread's byte for the code site. The watchpoint table itself
 * is read out of line, and so is the store countdown: a thread whose
 * stores count reads the all-cold site table. It never writes memory and
 * never calls anything on the common path.
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
 * What a plain access that finds no watchpoint and no cold site does: count
 * towards the next sampled watch. Marked accesses never set watchpoints
 * and do not count as skipped; neither do aligned plain word-size writes
 * under assume_plain_writes_atomic=1 (the kernel treats them as atomic). A
 * thread with annotation state still has scoped checks to run on them.
 * `options` says whether to test that option: the inlined path never
 * does, since the option keeps the gate open and sends every access out
 * of line.
 */
static ALWAYS_INLINE bool treated_as_marked(const volatile void *ptr, size_t size, int type, bool options)
{
	return (type & UCSAN_ACCESS_ATOMIC) ||
	       (options && (type & UCSAN_ACCESS_WRITE) && !(type & (UCSAN_ACCESS_COMPOUND | UCSAN_ACCESS_ASSERT)) &&
		size <= sizeof(long) && ucsan_opts.assume_plain_writes_atomic && ((uintptr_t)ptr & (size - 1)) == 0);
}

static ALWAYS_INLINE void count_access(struct ucsan_ctx *ctx, const volatile void *ptr, size_t size, int type,
				       uintptr_t ip, bool options)
{
	if (treated_as_marked(ptr, size, type, options)) {
		if (unlikely(ctx->lanes[0] < UCSAN_SPECIAL_THRESHOLD))
			ucsan_special_marked();
		return;
	}
	/* Reads are not counted: the decrement's store would be most of
	 * their cost. A special thread's reads still take the slow path:
	 * the program's come out of line (its hot path reads the all-cold
	 * site table), libc's for it (never cold) test here. */
	if (!(type & UCSAN_ACCESS_WRITE) && !(options && ucsan_count_reads)) {
		if ((options || (type & UCSAN_ACCESS_NO_COLD)) && unlikely(ctx->lanes[0] < UCSAN_SPECIAL_THRESHOLD))
			ucsan_slow_path(ptr, size, type, ip);
		return;
	}
	/* Stores count only out of line: a thread whose stores count runs
	 * on the all-cold site table (ucsan_ctx_set_sites()), so the ones
	 * checked inline are a time-sampled thread's. The decrement, a chain
	 * through memory from one store of a site to its next, was most of
	 * what a store cost in a tight loop. */
	if (!options || (ctx->time_sampled && !ctx->special))
		return;
	if (unlikely(--ctx->lanes[site_lane(ip)] < 0))
		ucsan_slow_path(ptr, size, type, ip);
}

/* Is the access at a code site this thread has not finished with? Marked
 * accesses and the reads libc makes for the program never are. */
static ALWAYS_INLINE bool site_cold(const struct ucsan_ctx *ctx, int type, uintptr_t ip)
{
	return !(type & (UCSAN_ACCESS_ATOMIC | UCSAN_ACCESS_NO_COLD)) &&
	       unlikely(ctx->hot_sites[site_index(ip)] != SITE_WARM);
}

/* After the watchpoint check: a cold site, or counted. */
static ALWAYS_INLINE void check_site(struct ucsan_ctx *ctx, const volatile void *ptr, size_t size, int type,
				     uintptr_t ip, bool options)
{
	if (site_cold(ctx, type, ip)) {
		ucsan_cold_site(ptr, size, type, ip);
		return;
	}
	count_access(ctx, ptr, size, type, ip, options);
}

/*
 * Accesses of at most UCSAN_SLOT_RANGE bytes (larger ones go through
 * ucsan_check_range()). `type` is a constant at every call site, so the
 * marked/plain distinction folds away. `ip` is the access's code site: a
 * plain access at a site this thread has not finished with goes to the
 * cold-site path, which may watch it. While a watchpoint is near the
 * access's page (or an option needs it: every page bit is then set), the whole
 * check runs out of line (ucsan_check_armed()): the table scan needs
 * registers the common path would otherwise save on every access, and
 * every call here stays a tail call. While the process has one thread
 * (GATE_ALONE) it returns at once.
 */
static ALWAYS_INLINE void check_access(const volatile void *ptr, size_t size, int type, uintptr_t ip)
{
	const uint64_t gate = atomic_load_explicit(&ucsan_hot.gate, memory_order_relaxed);
	/* Alone, the thread races with nobody: no watch, no count. (A
	 * thread with annotation state is never let off: threads.c.) */
	if (gate_alone(gate))
		return;
	/* Only an access near a watchpoint's page leaves: with many
	 * threads on few CPUs some watch is nearly always armed (a watcher
	 * preempted in its stall keeps it), and the others' accesses must not
	 * all pay the out-of-line check meanwhile. */
	if (unlikely(gate != 0) && gate_page_armed(ucsan_hot.pages, (uintptr_t)ptr)) {
		ucsan_check_armed(ptr, size, type, ip);
		return;
	}
	check_site(&ucsan_ctx_tls, ptr, size, type, ip, false);
}

/*
 * A range (a struct copy, the bytes of a memcpy): the common case in one
 * step, as its chunks would each take it -- nothing watched, a warm site
 * of a time-sampled thread. Returns false where the range needs the whole
 * check, chunk by chunk (ucsan_check_range()).
 */
static ALWAYS_INLINE bool check_range_quick(int type, uintptr_t ip)
{
	struct ucsan_ctx *const ctx = &ucsan_ctx_tls;
	const uint64_t gate = atomic_load_explicit(&ucsan_hot.gate, memory_order_relaxed);
	if (gate_alone(gate))
		return true;
	if (!(type & UCSAN_ACCESS_ATOMIC) && gate == 0 && !site_cold(ctx, type, ip))
		/* A store here is a time-sampled thread's (count_access()). */
		return (type & UCSAN_ACCESS_WRITE) || !(type & UCSAN_ACCESS_NO_COLD) ||
		       ctx->lanes[0] >= UCSAN_SPECIAL_THRESHOLD;
	return false;
}

#ifdef UCSAN_ENTRY_BITCODE
/* Inlined at the access (the LTO linker's choice), its own pc: volatile,
 * so that the compiler does not hoist or merge it across accesses (tail
 * merging of identical code could still fold two into one site). The
 * report's first frame and the code site are the access, as with a call's
 * return address. Not inlined, the pc is in the entry points' section: the
 * return address then. */
extern const char __start_ucsan_entry_text[], __stop_ucsan_entry_text[];
#define CALLER_PC()                                                                                 \
	__extension__({                                                                             \
		uintptr_t pc_;                                                                      \
		__asm__ __volatile__("lea 0(%%rip), %0" : "=r"(pc_));                               \
		if (pc_ - (uintptr_t)__start_ucsan_entry_text <                                     \
		    (uintptr_t)(__stop_ucsan_entry_text - __start_ucsan_entry_text))                \
			pc_ = (uintptr_t)__builtin_return_address(0);                               \
		pc_;                                                                                \
	})
#else
#define CALLER_PC() ((uintptr_t)__builtin_return_address(0))
#endif

#endif /* UCSAN_CHECK_H */
