// SPDX-License-Identifier: Apache-2.0
/*
 * The watchpoint engine's slow paths: setting up a watchpoint on a sampled
 * access, and consuming one that a racing access found. The hot path that
 * leads here is check_access() in check.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "internal.h"

/* === Data === */

/* Written by every watcher: kept off the cache lines the hot path only reads. */
_Alignas(64) _Atomic uint64_t ucsan_armed;
/* How many words of each class (index mod 64) are in use: a class's bit in
 * ucsan_armed is cleared only when its last one is freed. */
static _Atomic int armed_users[64];
/* How many watchpoints hold each bit of the gate's pages (gate_arm()). */
static _Atomic int page_users[UCSAN_GATE_PAGES];
/* Each watchpoint word's part in the gate (gate_arm_slot()): when its
 * watch's stall ends (UINT64_MAX for a cold stall, which sleeps and has no
 * set end), 0 while it has none; and the watch whose pages it holds. */
static _Atomic uint64_t gate_until[UCSAN_MAX_WATCHPOINTS + UCSAN_NUM_SLOTS - 1];
static _Atomic uint64_t gate_watch[UCSAN_MAX_WATCHPOINTS + UCSAN_NUM_SLOTS - 1]; /* wp_encode() */
/* Added to the gate while an option sends every access out of line
 * (ucsan_gate_init()). */
#define GATE_FORCED (1ULL << 62)
/* Set while an option sends every access out of line (ucsan_gate_init()). */
static bool gate_forced;
/* ucsan_gate_init() has run: the options GATE_ALONE depends on are known. */
static _Atomic bool gate_ready;
_Alignas(64) _Atomic bool ucsan_enabled = true;
size_t ucsan_nslots = 64;
/* Slot i's window is [i, i + UCSAN_NUM_SLOTS): see wp_base_slot(). */
_Atomic(uint64_t) ucsan_watchpoints[UCSAN_MAX_WATCHPOINTS + UCSAN_NUM_SLOTS - 1];
/* For each word held through a blocked pthread_mutex_lock: that mutex
 * (held_watches.c); NULL for every other watch. */
static _Atomic(const pthread_mutex_t *) slot_mutex[UCSAN_MAX_WATCHPOINTS + UCSAN_NUM_SLOTS - 1];

_Alignas(64) _Atomic long ucsan_counters[CTR_COUNT];
const char *const ucsan_counter_names[CTR_COUNT] = {
	[CTR_USED_WATCHPOINTS] = "used_watchpoints",
	[CTR_SETUP_WATCHPOINTS] = "setup_watchpoints",
	[CTR_DATA_RACES] = "data_races",
	[CTR_ASSERT_FAILURES] = "assert_failures",
	[CTR_NO_CAPACITY] = "no_capacity",
	[CTR_REPORT_RACES] = "report_races",
	[CTR_RACES_UNKNOWN_ORIGIN] = "races_unknown_origin",
	[CTR_UNENCODABLE_ACCESSES] = "unencodable_accesses",
	[CTR_ENCODING_FALSE_POSITIVES] = "encoding_false_positives",
	[CTR_REPORTS_PRINTED] = "reports_printed",
	[CTR_REPORTS_SUPPRESSED] = "reports_suppressed",
	[CTR_RACES_SUPPRESSED] = "races_suppressed",
	[CTR_SLEEPING_WATCHES] = "sleeping_watches",
	[CTR_HELD_WATCHES] = "held_watches",
};
_Static_assert(sizeof(ucsan_counter_names) / sizeof(ucsan_counter_names[0]) == CTR_COUNT,
	       "every counter needs a name");

static _Atomic uint32_t thread_counter;

/* === Per-thread state === */

static uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

uint32_t ucsan_rand32(struct ucsan_ctx *ctx)
{
	uint64_t x = ctx->rng;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	ctx->rng = x;
	return (uint32_t)(x >> 32);
}

void ucsan_ctx_init(struct ucsan_ctx *ctx)
{
	ctx->tid = ucsan_gettid();
	ctx->index = atomic_fetch_add_explicit(&thread_counter, 1, memory_order_relaxed);
	/* A fixed seed gives each thread, by creation order, the same stream
	 * in every run; otherwise mix in time and identity. */
	uint64_t seed = ucsan_opts.seed ? (uint64_t)ucsan_opts.seed
					: ucsan_now_ns() ^ ((uint64_t)ctx->tid << 32) ^ (uintptr_t)ctx;
	ctx->rng = splitmix64(seed + ctx->index) | 1;
	ucsan_sites_attach(ctx);
	ctx->initialized = true;
}

/* Upper bound of an adaptive skip: a thread idle for long still watches. */
#define SKIP_MAX (1L << 30)

/*
 * A new thread's first periods are skip_watch long, whatever the budget:
 * its start-up and, if it is short-lived, its exit are where lifecycle
 * races live (an object published to it, a result handed back), and a
 * budget earned by a thread that runs for microseconds would never pay
 * for one watch. A few watches per thread, then the budget rules.
 */
#define FIXED_START_PERIODS 4

/*
 * The next skip count. With overhead_budget=B (percent), the time a watch
 * cost (`cost_ns`, the stall and its bookkeeping) is paid for by a period
 * of B-fold more run time without watches: the thread's access rate over
 * the period just ended converts that time into a number of accesses.
 * Fast threads thus skip more accesses, slow ones fewer, and the share of
 * time stalled stays near B whatever the program does. With B=0, KCSAN's
 * fixed skip_watch.
 */
static void time_floor_next(struct ucsan_ctx *ctx, uint64_t gap_ns);

static long new_skip(struct ucsan_ctx *ctx, uint64_t cost_ns, uint64_t charge_ns, uint64_t now)
{
	long n = ucsan_opts.skip_watch;
	const long budget = ucsan_opts.overhead_budget;
	const int period = ctx->periods;

	if (period < FIXED_START_PERIODS)
		ctx->periods++;
	double gap_ns = 0; /* 0: none earned yet (the time floor's first gaps) */
	if (budget > 0 && period >= FIXED_START_PERIODS) {
		uint64_t elapsed = now - cost_ns - ctx->period_start_ns;
		double rate = (double)(ctx->period_skip + 1) / (double)(elapsed ? elapsed : 1);
		gap_ns = (double)(cost_ns + charge_ns) * (double)(100 - budget) / (double)budget;
		double want = rate * gap_ns;
		n = want > (double)SKIP_MAX ? SKIP_MAX : (long)want;
	}
	if (n > 0 && ucsan_opts.skip_watch_randomize) {
		const uint32_t r = ucsan_rand32(ctx) % (uint32_t)(n < SKIP_MAX ? n : SKIP_MAX);
		if (period == 0)
			/* A thread starts at a random phase of the period, as
			 * if it continued a count: one that lives for fewer
			 * accesses than a period is still watched now and then. */
			n = (long)r;
		else if (budget > 0)
			/* Uniform in [n/2, 3n/2) keeps the mean (fixed profile:
			 * the kernel's [1, n]). */
			n = n / 2 + (long)r;
		else
			n -= (long)r;
	}
	ctx->period_start_ns = budget > 0 ? now : 0;
	if (budget > 0)
		ctx->period_wall_ns = ucsan_now_ns();
	ctx->period_skip = n;
	time_floor_next(ctx, (uint64_t)gap_ns);
	return n;
}

/* === The time floor ===
 *
 * Only stores count towards the next sample (check.h): a thread in a loop
 * of reads -- a poller, a reader of a shared table, a worker that only
 * looks -- would never be sampled, and its reads race too. So a period
 * also ends with the CPU time it may take under the budget (the gap that
 * pays for the last watch; TIME_START_GAP_NS for a thread's first
 * periods: a short thread's start is the cold sites' business, and picks
 * in its first milliseconds cost tests/oneshot/progress a fifth of its
 * finds with 2 ms). The thread never looks at its clock for it: the sampler thread
 * (sampler.c) nudges each pool-table owner whose period began longer ago
 * in monotonic time than the gap (CPU time can only be shorter), and the
 * thread's next plain access comes out of line, reads the CPU clock, and
 * picks a sample among its next accesses if the period has run its time
 * (ucsan_sample_nudged()). A thread whose stores keep sampling it is
 * nudged a few times a period at most. Off with time_floor=0 or fixed
 * sampling (overhead_budget=0).
 */
#define TIME_START_GAP_NS 10000000ULL

static uint64_t budget_clock(void);

bool ucsan_time_floor_on(void)
{
	return ucsan_opts.time_floor && ucsan_opts.overhead_budget > 0 && !gate_forced;
}

static void time_floor_next(struct ucsan_ctx *ctx, uint64_t gap_ns)
{
	if (!ucsan_time_floor_on())
		return;
	ctx->time_gap_ns = gap_ns ? gap_ns : TIME_START_GAP_NS;
	atomic_store_explicit(&ctx->nudge_after_ns, ctx->period_wall_ns + ctx->time_gap_ns, memory_order_relaxed);
}

static bool start_time_pick(struct ucsan_ctx *ctx);

void ucsan_sample_nudged(struct ucsan_ctx *ctx)
{
	if (!ucsan_time_floor_on() || !ctx->initialized || ctx->signal_depth || ctx->disable_count || ctx->special ||
	    !ctx->period_wall_ns || ucsan_single_threaded())
		return;
	const uint64_t wall = ucsan_now_ns();
	const uint64_t cpu = budget_clock();
	const uint64_t ran = cpu > ctx->period_start_ns ? cpu - ctx->period_start_ns : 0;
	if (ran >= ctx->time_gap_ns && start_time_pick(ctx)) {
		/* Not again before the sample resets the period. */
		atomic_store_explicit(&ctx->nudge_after_ns, wall + ctx->time_gap_ns, memory_order_relaxed);
		return;
	}
	/* Not yet: back when the thread can have run the rest, at the share
	 * of a CPU it had since the period began (a thread among many on
	 * few CPUs runs a fraction of the wall time). */
	const uint64_t since = wall > ctx->period_wall_ns ? wall - ctx->period_wall_ns : 0;
	double share = since ? (double)ran / (double)since : 1.0;
	if (share < 1.0 / 64)
		share = 1.0 / 64;
	if (share > 1.0)
		share = 1.0;
	const uint64_t left = ran < ctx->time_gap_ns ? ctx->time_gap_ns - ran : ctx->time_gap_ns;
	atomic_store_explicit(&ctx->nudge_after_ns, wall + (uint64_t)((double)left / share), memory_order_relaxed);
}

/* === The countdown's lanes ===
 *
 * The countdown is the sum of the lanes; which lane holds how much is only
 * a matter of how often the slow path is asked for credit. */
static long lanes_total(const struct ucsan_ctx *ctx)
{
	long sum = ctx->lanes_tail;
	for (int c = 0; c < UCSAN_LANES; c++)
		sum += ctx->lanes[c];
	return sum;
}

static void lanes_fill(struct ucsan_ctx *ctx, long v)
{
	ctx->lanes_tail = 0;
	for (int c = 0; c < UCSAN_LANES; c++)
		ctx->lanes[c] = ctx->lane_given[c] = v;
}

/*
 * Hands a countdown of n out to the lanes, in proportion to how much each
 * was used lately (lane_used, halved now and then so that it follows the
 * program's phases): the lanes of a steady loop then run out together,
 * near the end of the countdown, so a period costs a few refills. A lane
 * that ran out gets at least twice its last credit, so that a lane new to
 * the loop takes its share after a few refills, not one per access.
 */
static void lanes_set(struct ucsan_ctx *ctx, long n)
{
	long total = 0;
	int busiest = 0, out = -1;
	for (int c = 0; c < UCSAN_LANES; c++) {
		const long u = ctx->lane_given[c] - ctx->lanes[c];
		if (u > 0)
			ctx->lane_used[c] += u < (1L << 40) ? u : (1L << 40);
		if (ctx->lanes[c] < 0 && out < 0)
			out = c;
	}
	ctx->lanes_tail = 0;
	for (int c = 0; c < UCSAN_LANES; c++) {
		if (ctx->lane_used[c] > (1L << 20)) {
			for (int d = 0; d < UCSAN_LANES; d++)
				ctx->lane_used[d] >>= 1;
			c = -1; /* again, halved */
			continue;
		}
	}
	for (int c = 0; c < UCSAN_LANES; c++) {
		total += ctx->lane_used[c];
		if (ctx->lane_used[c] > ctx->lane_used[busiest])
			busiest = c;
	}
	long want = 0;
	if (out >= 0 && n > 0) {
		const long last = ctx->lane_given[out] > 0 ? ctx->lane_given[out] : 0;
		want = last < n / 2 ? 2 * last + 1 : n;
	}
	const long rest = n - want;
	const double per_use = total ? (double)rest / (double)total : 0;
	long handed = 0;
	for (int c = 0; c < UCSAN_LANES; c++) {
		const long share = total ? (long)((double)ctx->lane_used[c] * per_use) : rest / UCSAN_LANES;
		ctx->lanes[c] = share;
		handed += share;
	}
	ctx->lanes[busiest] += rest - handed;
	if (out >= 0)
		ctx->lanes[out] += want;
	for (int c = 0; c < UCSAN_LANES; c++)
		ctx->lane_given[c] = ctx->lanes[c];
}

/*
 * A lane ran out. Credit left in the others: shared out anew, and the
 * access was only counted. Once a few accesses are left, every lane is
 * emptied and they are counted here one by one: the sample then falls on
 * the very access a single counter would pick. (Sampling whichever lane
 * ran out near the end instead favours the first sites of a new phase,
 * whose lanes hold no credit, and leaves the sites after them in the same
 * lanes unwatched, such as a thread's exit path after its main loop.)
 */
#define LANES_TAIL 32
static bool lanes_refill(struct ucsan_ctx *ctx)
{
	const long left = lanes_total(ctx);
	if (left < 0)
		return false;
	if (left <= LANES_TAIL) {
		lanes_fill(ctx, 0);
		ctx->lanes_tail = left;
		return true;
	}
	lanes_set(ctx, left);
	return true;
}

long ucsan_ctx_countdown(const struct ucsan_ctx *ctx)
{
	return ctx->special ? ctx->saved_skip : lanes_total(ctx);
}

/* A special thread (annotation state, weak_memory's pending access, which
 * a watch may have just created) keeps its countdown in saved_skip. */
void ucsan_ctx_set_countdown(struct ucsan_ctx *ctx, long n)
{
	if (ctx->special)
		ctx->saved_skip = n;
	else
		lanes_set(ctx, n);
}

void ucsan_ctx_update_special(struct ucsan_ctx *ctx)
{
	const bool checked = ucsan_ctx_annotated(ctx) || ctx->unpublished.ptr != NULL;
	const bool special = checked || ctx->picking;
	/* Picking a sample does not keep a thread left alone checked: alone,
	 * nothing is sampled, and its pick waits for the next thread. */
	ucsan_threads_special_changed(checked);
	if (special == ctx->special)
		return;
	if (special) {
		ctx->saved_skip = lanes_total(ctx);
		lanes_fill(ctx, UCSAN_SPECIAL_SKIP);
	} else {
		lanes_fill(ctx, 0);
		lanes_set(ctx, ctx->saved_skip > 0 ? ctx->saved_skip : 0);
	}
	ctx->special = special;
	ucsan_ctx_set_sites(ctx, ctx->sites);
}

/* The forking thread is the child's only thread: give it a fresh identity,
 * and forget watchpoints that belonged to threads that do not exist there. */
void ucsan_reset_after_fork(void)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	for (size_t i = 0; i < ucsan_slots_in_use(); i++)
		atomic_store_explicit(&ucsan_watchpoints[i], WP_INVALID, memory_order_relaxed);
	atomic_store_explicit(&ucsan_armed, 0, memory_order_relaxed);
	atomic_store_explicit(&ucsan_hot.gate, gate_forced ? GATE_FORCED : 0, memory_order_relaxed);
	for (int i = 0; i < UCSAN_GATE_PAGES / 64; i++)
		atomic_store_explicit(&ucsan_hot.pages[i], gate_forced ? ~0ULL : 0, memory_order_relaxed);
	for (int i = 0; i < UCSAN_GATE_PAGES; i++)
		atomic_store_explicit(&page_users[i], 0, memory_order_relaxed);
	for (int i = 0; i < 64; i++)
		atomic_store_explicit(&armed_users[i], 0, memory_order_relaxed);
	for (size_t i = 0; i < ucsan_slots_in_use(); i++)
		atomic_store_explicit(&gate_until[i], 0, memory_order_relaxed);
	atomic_store_explicit(&ucsan_counters[CTR_USED_WATCHPOINTS], 0, memory_order_relaxed);
	ctx->watching = NULL;
	if (ctx->initialized)
		ctx->tid = ucsan_gettid();
}

/* === Reading the watched value === */


/* Values are compared for the sizes a single access has; larger ranges are
 * only watched for conflicting accesses, as in the kernel. */
bool ucsan_read_value(const volatile void *ptr, size_t size, struct ucsan_value *v)
{
	union {
		uint8_t u8;
		uint16_t u16;
		uint32_t u32;
		uint64_t u64[2];
	} buf = { .u64 = { 0, 0 } };

	if (size != 1 && size != 2 && size != 4 && size != 8 && size != 16)
		return false;
	if (!ucsan_read_memory(ptr, &buf, size))
		return false;
	switch (size) {
	case 1: v->lo = buf.u8; v->hi = 0; break;
	case 2: v->lo = buf.u16; v->hi = 0; break;
	case 4: v->lo = buf.u32; v->hi = 0; break;
	case 8: v->lo = buf.u64[0]; v->hi = 0; break;
	default: v->lo = buf.u64[0]; v->hi = buf.u64[1]; break;
	}
	return true;
}

/* === Stalling === */

/* A sampled watch's full stall: udelay_task, or udelay_interrupt in a
 * signal handler (microseconds). */
static long full_stall_us(const struct ucsan_ctx *ctx)
{
	return ctx->signal_depth ? ucsan_opts.udelay_interrupt : ucsan_opts.udelay_task;
}

/* The stall of a sampled watch: the full one, randomized if asked. */
static long sample_delay_us(struct ucsan_ctx *ctx)
{
	long us = full_stall_us(ctx);
	if (us > 0 && ucsan_opts.delay_randomize)
		us -= (long)(ucsan_rand32(ctx) % (uint32_t)us);
	return us;
}

/*
 * How a watch waits for the other side's access. Short stalls busy-wait,
 * as the kernel does: sleeping would round up to the timer slack (50 us)
 * and cost a context switch. Long ones sleep: a cold site's
 * (ucsan_cold_stall(), which also ends early), and a sampled watch of
 * shared memory by a thread that mostly waits (watch()). A held access
 * waits in the program's own blocking call (held_watches.c).
 */
enum stall_kind { STALL_SPIN, STALL_COLD, STALL_SLEEP, STALL_CALL };

struct stall {
	enum stall_kind kind;
	long us;
	uint64_t slept_ns;            /* STALL_SLEEP: how long it slept */
	struct ucsan_wait_call *call; /* STALL_CALL */
	/* STALL_CALL, a held store: the value it wrote over, what a change
	 * is judged against (it has landed before the watch begins). */
	const struct ucsan_value *before;
};

static void watch_abandoned(void *wp);

static void delay_access(struct ucsan_ctx *ctx, _Atomic(uint64_t) *wp, struct stall *st)
{
	if (st->kind == STALL_CALL) {
		/* The call may be a cancellation point: a thread cancelled in
		 * it leaves no watchpoint behind. */
		pthread_cleanup_push(watch_abandoned, (void *)wp);
		st->call->ran = true;
		errno = st->call->err; /* as the program left it */
		st->call->ret = st->call->run(st->call);
		st->call->err = errno;
		pthread_cleanup_pop(0);
		return;
	}
	if (st->us <= 0)
		return;
	if (st->kind == STALL_COLD) {
		ucsan_cold_stall(ctx, wp, st->us);
		return;
	}
	if (st->kind == STALL_SLEEP) {
		const uint64_t t0 = ucsan_now_ns();
		ucsan_sleep_us((unsigned)st->us);
		st->slept_ns = ucsan_now_ns() - t0;
		return;
	}
	const uint64_t end = ucsan_now_ns() + (uint64_t)st->us * 1000;
	while (ucsan_now_ns() < end)
		ucsan_cpu_relax();
}

/*
 * permissive=1, the kernel's rule: a plain read (not a write, not an
 * assertion) of up to word size that saw exactly one bit change is
 * ignored -- flag tests racing with flag updates -- unless the values look
 * like booleans (one is zero and bit 0 changed), which usually carry
 * ordering requirements worth a report.
 */
bool ucsan_ignore_value_change(size_t size, int type, struct ucsan_value old, struct ucsan_value new,
			       uint64_t diff)
{
	if (!ucsan_opts.permissive || (type & ~(UCSAN_ACCESS_NO_COLD | UCSAN_ACCESS_HELD)) != 0 || size > sizeof(long))
		return false;
	if (__builtin_popcountll(diff) != 1)
		return false;
	return !((old.lo == 0 || new.lo == 0) && diff == 1);
}

/* === Slow paths === */

static void consume_watchpoint(const volatile void *ptr, size_t size, int type, uintptr_t ip,
			       _Atomic(uint64_t) *wp, uint64_t encoded);

/* Inserts the watch's word; `claim_only`: only takes a free word (as
 * consumed, which no access matches), for the caller to fill in. */
static _Atomic(uint64_t) *insert_watchpoint(uintptr_t addr, size_t size, bool is_write, bool claim_only)
{
	const uint64_t encoded = claim_only ? WP_CONSUMED : wp_encode(addr, size, is_write);
	const size_t base = wp_base_slot(addr, ucsan_nslots);

	for (int i = 0; i < UCSAN_NUM_SLOTS; i++) {
		_Atomic(uint64_t) *wp = &ucsan_watchpoints[wp_insert_index(base, i)];
		uint64_t expect = WP_INVALID;
		if (atomic_compare_exchange_strong_explicit(wp, &expect, encoded, memory_order_relaxed,
							    memory_order_relaxed))
			return wp;
	}
	return NULL;
}

static uint64_t budget_clock(void);

/* The armed summary: bit i is set while a word with index i mod 64 is in
 * use. The runtime's own check tests it before reading the table. */
static void summary_or(uint64_t bit)
{
	atomic_fetch_or(&ucsan_armed, bit);
}

static void summary_and(uint64_t mask)
{
	atomic_fetch_and(&ucsan_armed, mask);
}

/*
 * The gate, which the entry points test: ucsan_hot.gate counts the
 * watchpoints armed (plus GATE_FORCED while an option sends every access
 * out of line), and ucsan_hot.pages has a bit per page number modulo 512,
 * set while a watch lies in that page or an inlined access starting on it
 * can reach one (gate_first_page(); gate_page_bit()). An access leaves the
 * inlined check only if its page's bit is set: a load, two shifts and a
 * bit test while something is watched, no multiply. With 64 threads on 2
 * CPUs some watcher is nearly always stalling or preempted in its stall:
 * 512 bits, and no more pages than a watch can be reached from, keep the
 * others' accesses to their own data inline meanwhile (malloc puts their
 * buffers side by side).
 */
static void gate_arm(uintptr_t addr, size_t size)
{
	atomic_fetch_add(&ucsan_hot.gate, 1);
	const uintptr_t last = gate_last_page(addr, size);
	for (uintptr_t p = gate_first_page(addr); p <= last; p++) {
		const size_t b = gate_page_bit(p);
		atomic_fetch_add(&page_users[b], 1);
		if (!gate_forced)
			atomic_fetch_or(&ucsan_hot.pages[b / 64], 1ULL << (b % 64));
	}
}

/* The last user of a bit clears it; one that arrived meanwhile may have
 * set it just before, so look again and set it back. */
static void gate_disarm(uintptr_t addr, size_t size)
{
	const uintptr_t last = gate_last_page(addr, size);
	for (uintptr_t p = gate_first_page(addr); p <= last; p++) {
		const size_t b = gate_page_bit(p);
		if (atomic_fetch_sub(&page_users[b], 1) == 1 && !gate_forced) {
			atomic_fetch_and(&ucsan_hot.pages[b / 64], ~(1ULL << (b % 64)));
			if (atomic_load(&page_users[b]) > 0)
				atomic_fetch_or(&ucsan_hot.pages[b / 64], 1ULL << (b % 64));
		}
	}
	atomic_fetch_sub(&ucsan_hot.gate, 1);
}

/*
 * A watch's part in the gate. A busy-waiting watcher preempted in its
 * stall (64 threads on 2 CPUs: it waits tens of milliseconds for its next
 * turn) would keep its pages in the gate all that while, and every access
 * to them would come out of line. Its stall is long over by then, so the
 * sampler thread takes the part back (ucsan_gate_expire()). The
 * watchpoint itself stays: an access that comes out of line for another
 * reason still finds it, and the watcher, back on a CPU, still sees a
 * changed value.
 */
static void gate_arm_slot(size_t i, uintptr_t addr, size_t size, uint64_t until)
{
	gate_arm(addr, size);
	atomic_store_explicit(&gate_watch[i], wp_encode(addr, size, false), memory_order_relaxed);
	atomic_store_explicit(&gate_until[i], until, memory_order_release);
}

static void gate_disarm_watch(uint64_t encoded)
{
	uintptr_t addr;
	size_t size;
	bool is_write;
	if (wp_decode(encoded, &addr, &size, &is_write))
		gate_disarm(addr, size);
}

/* Before the word is freed: whoever takes the part, the watcher here or
 * the sampler, gives the pages back, and nobody can have armed the word
 * again meanwhile. */
static void gate_disarm_slot(size_t i)
{
	if (atomic_exchange(&gate_until[i], 0) != 0)
		gate_disarm_watch(atomic_load_explicit(&gate_watch[i], memory_order_relaxed));
}

/* A watcher that has not ended its stall this long after its end is off
 * its CPU. */
#define GATE_EXPIRE_NS 200000

void ucsan_gate_expire(uint64_t now)
{
	for (size_t i = 0; i < ucsan_slots_in_use(); i++) {
		uint64_t until = atomic_load_explicit(&gate_until[i], memory_order_acquire);
		if (!until || now <= until || now - until < GATE_EXPIRE_NS)
			continue;
		/* Read before the exchange: if it succeeds, the word was this
		 * watch's throughout, and so was this. */
		const uint64_t watch = atomic_load_explicit(&gate_watch[i], memory_order_relaxed);
		if (atomic_compare_exchange_strong(&gate_until[i], &until, 0))
			gate_disarm_watch(watch);
	}
}

void ucsan_gate_hold(uintptr_t addr)
{
	gate_arm(addr, 1);
}

void ucsan_gate_let_go(uintptr_t addr)
{
	gate_disarm(addr, 1);
}

bool ucsan_count_reads;

/* After options are parsed (before any watch): the options the hot path
 * would otherwise test on every access send them all out of line. So does
 * skip_watch=0 with fixed sampling: every access watched, reads too, which
 * the hot path does not count. */
void ucsan_gate_init(void)
{
	ucsan_count_reads = ucsan_opts.skip_watch == 0 && ucsan_opts.overhead_budget == 0;
	gate_forced = ucsan_opts.ignore_atomics || ucsan_opts.assume_plain_writes_atomic || ucsan_count_reads;
	atomic_store(&gate_ready, true);
	if (!gate_forced)
		return;
	atomic_fetch_or(&ucsan_hot.gate, GATE_FORCED);
	for (int i = 0; i < UCSAN_GATE_PAGES / 64; i++)
		atomic_store(&ucsan_hot.pages[i], ~0ULL);
}

/* With interrupt_watcher=1 a lone thread watches for its own signal
 * handlers (may_watch()), so it is never let off. */
void ucsan_gate_set_alone(bool alone)
{
	if (!atomic_load(&gate_ready))
		return;
	if (alone && !ucsan_opts.interrupt_watcher)
		atomic_fetch_or(&ucsan_hot.gate, GATE_ALONE);
	else
		atomic_fetch_and(&ucsan_hot.gate, ~GATE_ALONE);
}

static void arm_slot(size_t index)
{
	const int c = (int)(index & 63);
	atomic_fetch_add(&armed_users[c], 1);
	summary_or(1ULL << c);
}

/* The last user of a class clears its bit; one that arrived meanwhile may
 * have set it just before, so look again and set it back. */
static void disarm_slot(size_t index)
{
	const int c = (int)(index & 63);
	if (atomic_fetch_sub(&armed_users[c], 1) == 1) {
		summary_and(~(1ULL << c));
		if (atomic_load(&armed_users[c]) > 0)
			summary_or(1ULL << c);
	}
}

/* What a watch saw. A change of unknown origin is handed back in `held`
 * instead of reported when the caller passes one (watch_and_report(),
 * never for an assertion). */
enum watch_outcome { WATCH_QUIET, WATCH_KNOWN, WATCH_UNKNOWN };

struct unknown_change {
	struct ucsan_value old, new;
	unsigned long mask;
};

static void report_unknown(struct ucsan_ctx *ctx, const volatile void *ptr, size_t size, int type, uintptr_t ip,
			   struct ucsan_value old, struct ucsan_value new, unsigned long mask)
{
	const uint64_t r0 = budget_clock();
	ucsan_report_unknown_origin(ptr, size, type, ip, old, new, mask);
	ctx->report_ns += budget_clock() - r0;
}

/* The watch is over and reported: the word is free again. */
static void release_slot(size_t slot)
{
	atomic_store_explicit(&slot_mutex[slot], NULL, memory_order_relaxed);
	gate_disarm_slot(slot);
	atomic_store_explicit(&ucsan_watchpoints[slot], WP_INVALID, memory_order_release);
	disarm_slot(slot);
	ucsan_counter_add(CTR_USED_WATCHPOINTS, -1);
}

static enum watch_outcome setup_watchpoint(struct ucsan_ctx *ctx, const volatile void *ptr, size_t size,
					   int type, uintptr_t ip, struct stall *st,
					   struct unknown_change *held)
{
	enum watch_outcome outcome = WATCH_QUIET;
	const bool is_write = (type & UCSAN_ACCESS_WRITE) != 0;
	const bool is_assert = (type & UCSAN_ACCESS_ASSERT) != 0;
	enum ucsan_value_change value_change = VALUE_CHANGE_MAYBE;
	struct ucsan_value old = { 0, 0 }, new = { 0, 0 };

	const pthread_mutex_t *held_on = st->kind == STALL_CALL ? st->call->mutex : NULL;
	_Atomic(uint64_t) *wp = insert_watchpoint((uintptr_t)ptr, size, is_write, held_on != NULL);
	if (!wp) {
		/* Too many watchers near this address at once. */
		ucsan_counter_add(CTR_NO_CAPACITY, 1);
		return WATCH_QUIET;
	}
	const size_t slot = (size_t)(wp - ucsan_watchpoints);
	/* A hold's mutex is in place before its word can be met: the word
	 * was claimed as consumed, and is filled in only now. */
	if (held_on) {
		atomic_store_explicit(&slot_mutex[slot], held_on, memory_order_relaxed);
		atomic_store_explicit(wp, wp_encode((uintptr_t)ptr, size, is_write), memory_order_release);
	}
	arm_slot(slot);
	const bool unbounded = st->kind == STALL_COLD || st->kind == STALL_CALL;
	gate_arm_slot(slot, (uintptr_t)ptr, size,
		      unbounded ? UINT64_MAX : ucsan_now_ns() + (uint64_t)(st->us > 0 ? st->us : 0) * 1000);
	ucsan_counter_add(CTR_SETUP_WATCHPOINTS, 1);
	ucsan_counter_add(CTR_USED_WATCHPOINTS, 1);
	ctx->watching = wp;

	/* Read after inserting, so that a change made by a thread that did not
	 * see the watchpoint is still observed. A reordered access is not
	 * really happening now: its value proves nothing. (A plain read would
	 * be safe here, the program makes this very access next; but a store
	 * whose check just missed the watchpoint must land before this read,
	 * or it shows up as a change of unknown origin, and the system call
	 * gives it that time.) */
	const bool is_reorder = (type & UCSAN_ACCESS_SCOPED) && !is_assert;
	bool have_value;
	if (st->before) {
		old = *st->before;
		have_value = true;
	} else {
		have_value = !is_reorder && ucsan_read_value(ptr, size, &old);
	}

	delay_access(ctx, wp, st);

	/* With an access mask (UCSAN_ASSERT_EXCLUSIVE_BITS) only changes
	 * inside it count. */
	const unsigned long mask = ctx->access_mask;
	if (have_value && ucsan_read_value(ptr, size, &new)) {
		uint64_t diff_lo = old.lo ^ new.lo, diff_hi = old.hi ^ new.hi;
		if (mask) {
			diff_lo &= mask;
			diff_hi = 0;
		}
		if ((diff_lo || diff_hi) && !ucsan_ignore_value_change(size, type, old, new, diff_lo | diff_hi))
			value_change = VALUE_CHANGE_TRUE;
	}

	/*
	 * Mark our own watchpoint consumed: no one may consume it any more,
	 * and the slot stays occupied (so its report info stays ours) until
	 * reporting is done. If it already was consumed, a racing access was
	 * seen and its thread left us its stack.
	 */
	const bool consumed = atomic_exchange_explicit(wp, WP_CONSUMED, memory_order_acq_rel) == WP_CONSUMED;
	/* Nothing can consume it any more: a signal handler interrupting the
	 * report below is an ordinary (disabled) runtime entry. */
	ctx->watching = NULL;
	if (consumed) {
		/* A masked check only reports changes inside its mask (races
		 * on the other bits are expected). Without a value to
		 * compare, the conflicting access is all we know: report it.
		 * An assertion always reports. */
		if (value_change == VALUE_CHANGE_MAYBE) {
			if (mask)
				value_change = VALUE_CHANGE_FALSE;
			else if (!have_value || is_assert)
				value_change = VALUE_CHANGE_TRUE;
		}
		/* A reordered access never saw a value (kernel: size > 8 rule). */
		if (is_assert && value_change == VALUE_CHANGE_TRUE)
			ucsan_counter_add(CTR_ASSERT_FAILURES, 1);
		const uint64_t r0 = budget_clock();
		ucsan_report_known_origin(ptr, size, type, ip, value_change, (size_t)(wp - ucsan_watchpoints),
					  old, new, mask);
		ctx->report_ns += budget_clock() - r0;
		outcome = WATCH_KNOWN;
	} else if (value_change == VALUE_CHANGE_TRUE && st->kind != STALL_CALL) {
		/* The value changed, but nobody we can see wrote it. (A held
		 * store's own value shows as a change; a held read's may have
		 * come through an order the hold cannot see: neither counts.) */
		ucsan_counter_add(CTR_RACES_UNKNOWN_ORIGIN, 1);
		if (is_assert)
			ucsan_counter_add(CTR_ASSERT_FAILURES, 1);
		outcome = WATCH_UNKNOWN;
		if (held) {
			held->old = old;
			held->new = new;
			held->mask = mask;
		} else if (ucsan_opts.report_unknown_origin || is_assert) {
			report_unknown(ctx, ptr, size, type, ip, old, new, mask);
		}
	}

	/* A plain access that met nothing may stay watched through a
	 * blocking call that follows it (held_watches.c). */
	if (outcome == WATCH_QUIET && !is_assert && !is_reorder && !mask && st->kind != STALL_CALL)
		ucsan_held_note(ptr, size, type, ip, is_write && have_value ? &old : NULL);
	release_slot(slot);
	return outcome;
}

/* A cancelled thread's held watch: its blocking call never returned. */
static void watch_abandoned(void *arg)
{
	_Atomic(uint64_t) *wp = arg;
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	atomic_store_explicit(wp, WP_CONSUMED, memory_order_release);
	ctx->watching = NULL;
	release_slot((size_t)(wp - ucsan_watchpoints));
	ctx->disable_count--;
}

/*
 * A watch, and its report. A change of unknown origin is most often a
 * writer that passed its check just before the watch began and was
 * preempted before its store: before reporting the reader alone, watch
 * once more (spinning, for as long again and at least eight full sampled
 * stalls: a writer that watches its own stores between two to this word
 * comes back only after those), which usually catches that writer's next
 * access and reports both of them. Only if the second watch sees nothing
 * is the first change reported as it was.
 */
static void watch_and_report(struct ucsan_ctx *ctx, const volatile void *ptr, size_t size, int type,
			     uintptr_t ip, struct stall *st)
{
	const bool hold = ucsan_opts.report_unknown_origin && !(type & UCSAN_ACCESS_ASSERT);
	struct unknown_change held;

	if (setup_watchpoint(ctx, ptr, size, type, ip, st, hold ? &held : NULL) != WATCH_UNKNOWN || !hold)
		return;
	const long full = 8 * full_stall_us(ctx);
	struct stall again = { STALL_SPIN, st->us > full ? st->us : full, 0, NULL, NULL };
	if (setup_watchpoint(ctx, ptr, size, type, ip, &again, NULL) == WATCH_QUIET)
		report_unknown(ctx, ptr, size, type, ip, held.old, held.new, held.mask);
}

/*
 * Our own access happens only after the stall. Another thread may have
 * started watching the same location meanwhile: look again, or it would
 * see our write as a change of unknown origin. Done last, after the signal
 * mask is back, so that as little as possible runs between this look and
 * the access itself.
 */
static void look_again(struct ucsan_ctx *ctx, const volatile void *ptr, size_t size, int type, uintptr_t ip)
{
	uint64_t encoded;
	_Atomic(uint64_t) *other = find_watchpoint((uintptr_t)ptr, size, (type & UCSAN_ACCESS_WRITE) != 0, &encoded);
	if (other) {
		ctx->disable_count++;
		consume_watchpoint(ptr, size, type, ip, other, encoded);
		ctx->disable_count--;
	}
}

/*
 * The clock the budget is kept in: the thread's own CPU time, so that a
 * thread that waits (for a lock, for a core among 64 threads on 2) is not
 * granted stalls for time it did not run. Unused without a budget.
 */
static uint64_t budget_clock(void)
{
	if (ucsan_opts.overhead_budget <= 0)
		return 0;
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* What a watch cost the program, for the budget: its time less any
 * reporting (a found race is the point, not overhead to pay back). */
static uint64_t watch_cost(struct ucsan_ctx *ctx, uint64_t t0, uint64_t t1)
{
	uint64_t cost = t1 - t0, report = ctx->report_ns;
	ctx->report_ns = 0;
	return report < cost ? cost - report : 0;
}

/* May this thread set up a watchpoint at all? Not inside the runtime, not
 * while checking is off, and not while it is alone: a lone thread races with
 * nobody, unless its own signal handlers may hit its watchpoints. */
static bool may_watch(const struct ucsan_ctx *ctx)
{
	return !ctx->disable_count && atomic_load_explicit(&ucsan_enabled, memory_order_relaxed) &&
	       (!ucsan_single_threaded() || ucsan_opts.interrupt_watcher);
}

/* Sets up a watchpoint for an access, if this thread may. */
static bool watch_now(struct ucsan_ctx *ctx, const volatile void *ptr, size_t size, int type, uintptr_t ip,
		      struct stall *st);

bool ucsan_watch(struct ucsan_ctx *ctx, const volatile void *ptr, size_t size, int type, uintptr_t ip, long us,
		 bool sleep)
{
	struct stall st = { sleep ? STALL_COLD : STALL_SPIN, us, 0, NULL, NULL };
	bool watched;
	UCSAN_KEEP_ERRNO(watched = watch_now(ctx, ptr, size, type, ip, &st));
	return watched;
}

static bool watch_now(struct ucsan_ctx *ctx, const volatile void *ptr, size_t size, int type, uintptr_t ip,
		      struct stall *st)
{
	if (!may_watch(ctx))
		return false;
	if (!wp_encodable((uintptr_t)ptr, size)) {
		ucsan_counter_add(CTR_UNENCODABLE_ACCESSES, 1);
		return false;
	}
	/*
	 * Nothing in the runtime may be checked while we watch or report.
	 * Like the kernel disabling interrupts, block signals unless
	 * interrupt_watcher=1: the thread's own handler is not concurrent with
	 * it in the sense a report would claim, yet it could change the value.
	 */
	sigset_t old;
	const bool block = !ucsan_opts.interrupt_watcher;
	if (block)
		ucsan_signals_block(0, &old);
	ctx->disable_count++;
	watch_and_report(ctx, ptr, size, type, ip, st);
	/* weak_memory: this access now stays in flight (see reorder). An
	 * assertion is no access; a masked one has no value to reorder. */
	if (ucsan_opts.weak_memory && !(type & UCSAN_ACCESS_ASSERT) && !ctx->access_mask)
		ucsan_reorder_set(ctx, ptr, size, type, ip);
	ctx->disable_count--;
	if (block)
		ucsan_signals_restore(&old);
	/* A relaxed publication's store was made before its watch: no access
	 * of it comes after the stall (cold_sites.c). */
	if (!ctx->publish_word)
		look_again(ctx, ptr, size, type, ip);
	return true;
}

/*
 * An access held through a blocking call (held_watches.c). Signals stay as
 * the program has them: the call is its own, and a handler that cuts a
 * sleep short must still do so (one that meets the watch is the thread's
 * own, never reported). A change nobody owns up to is not reported: only
 * another thread's access that meets the watchpoint is.
 */
bool ucsan_watch_through_call(const volatile void *ptr, size_t size, int type, uintptr_t ip,
			      const struct ucsan_value *before, struct ucsan_wait_call *call)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	if (!may_watch(ctx) || !wp_encodable((uintptr_t)ptr, size) || ctx->access_mask)
		return false;
	struct stall st = { STALL_CALL, 0, 0, call, before };
	call->ran = false;
	ctx->disable_count++;
	setup_watchpoint(ctx, ptr, size, type | UCSAN_ACCESS_HELD, ip, &st, NULL);
	ctx->disable_count--;
	if (call->ran)
		ucsan_counter_add(CTR_HELD_WATCHES, 1);
	return call->ran;
}

/* The pick's access fell on a page other threads have been seen on
 * (pick_passes_on()). */
static __thread bool pick_on_shared;

/*
 * A thread that spends most of its time waiting -- a server's worker
 * between requests, one of many threads on few CPUs -- earns a budget in
 * CPU time that pays for few short spins, and a spin on a busy machine
 * takes the CPU the other side of the race needs. Its watch of a page
 * other threads have been seen on sleeps instead, sample_sleep_us
 * (randomized to [1/4, 2] times it), and the budget is charged the sleep
 * at the share of a CPU the thread ran since its period began: the time
 * it would have run. Such watches then take about overhead_budget percent
 * of its wall time, and a thread that runs all the time spins as before.
 * Not while it holds a pthread lock (others would queue behind the
 * sleep), in a signal handler, or with fixed sampling
 * (overhead_budget=0). Returns that share, or 0 if this watch spins.
 */
#define SLEEP_BELOW_SHARE 0.5

static double sleep_share(const struct ucsan_ctx *ctx, uint64_t cpu_now)
{
	if (!pick_on_shared || ucsan_opts.sample_sleep_us <= 0 || ucsan_opts.overhead_budget <= 0 ||
	    ctx->signal_depth || ctx->locks_held || !ctx->period_wall_ns || cpu_now < ctx->period_start_ns)
		return 0;
	const uint64_t wall = ucsan_now_ns();
	if (wall <= ctx->period_wall_ns)
		return 0;
	double share = (double)(cpu_now - ctx->period_start_ns) / (double)(wall - ctx->period_wall_ns);
	if (share >= SLEEP_BELOW_SHARE)
		return 0;
	return share > 1.0 / 64 ? share : 1.0 / 64;
}

/* A sampled watch; *charge_ns: what a sleeping one costs the budget. */
static bool watch(struct ucsan_ctx *ctx, const volatile void *ptr, size_t size, int type, uintptr_t ip,
		  uint64_t cpu_now, uint64_t *charge_ns)
{
	const double share = sleep_share(ctx, cpu_now);
	pick_on_shared = false;
	if (share == 0)
		return ucsan_watch(ctx, ptr, size, type, ip, sample_delay_us(ctx), false);
	long us = ucsan_opts.sample_sleep_us;
	if (ucsan_opts.delay_randomize && us >= 4)
		us = us / 4 + (long)(ucsan_rand32(ctx) % (uint32_t)(us * 7 / 4));
	struct stall st = { STALL_SLEEP, us, 0, NULL, NULL };
	bool watched;
	UCSAN_KEEP_ERRNO(watched = watch_now(ctx, ptr, size, type, ip, &st));
	if (watched)
		ucsan_counter_add(CTR_SLEEPING_WATCHES, 1);
	*charge_ns = (uint64_t)((double)st.slept_ns * share);
	return watched;
}

/*
 * The next countdown after a sample that set no watchpoint (the process has
 * one thread, the window was full, checking is off): the period goes on as
 * it was. Timing such a cheap sample as the cost of a watch would shrink
 * the period to a few hundred accesses, and a lone thread would pay the
 * slow path over and over for watches it never sets.
 */
static long unwatched_skip(struct ucsan_ctx *ctx)
{
	/* Alone, nothing is watched until the thread starts another, and
	 * then its countdown starts afresh (ucsan_countdown_threads_begin()). */
	if (ucsan_single_threaded() && !ucsan_opts.interrupt_watcher)
		return SKIP_MAX;
	return ctx->period_skip > ucsan_opts.skip_watch ? ctx->period_skip : ucsan_opts.skip_watch;
}

/* The thread that was alone starts a second one: its next sample comes as
 * soon as at a new thread's, not after the long count of its time alone. */
void ucsan_countdown_threads_begin(struct ucsan_ctx *ctx)
{
	if (!ctx->initialized || ctx->signal_depth)
		return;
	const long period = ctx->period_skip > ucsan_opts.skip_watch ? ctx->period_skip : ucsan_opts.skip_watch;
	const long n = period > 0 ? (long)(ucsan_rand32(ctx) % (uint32_t)(period < SKIP_MAX ? period : SKIP_MAX)) : 0;
	if (ucsan_ctx_countdown(ctx) > n)
		ucsan_ctx_set_countdown(ctx, n);
}

/*
 * No sampled watch inside a pthread lock's critical section
 * (sample_locked=0, with the budget): an access there races only with
 * accesses outside that lock, and those are sampled in their turn, while
 * a stall there holds the lock, so that every thread that wants it waits
 * behind the stall -- blocked, switched out, its cache cold when it comes
 * back (a hash map striped by 64 mutexes ran 15% slower for it, most of
 * its sampled watches' cost). Assertions are still watched there: the
 * kernel's ASSERT_EXCLUSIVE_* go inside critical sections to catch the
 * access that ignores the lock. Fixed sampling keeps the kernel's way.
 */
static bool sample_skips_locked(const struct ucsan_ctx *ctx, int type)
{
	return ctx->locks_held > 0 && !(type & UCSAN_ACCESS_ASSERT) && !ucsan_opts.sample_locked &&
	       ucsan_opts.overhead_budget > 0;
}

/*
 * A thread's stores are counted (out of line: ucsan_ctx_set_sites()) for
 * its first FIXED_START_PERIODS countdowns, watched or not (one under a
 * lock is not), which pick samples among a short thread's first few
 * thousand stores wherever they fall. Then, where the sampler thread
 * nudges it, its samples are the time floor's alone, and its accesses
 * take the inlined check, which counts nothing. The same budget sets the
 * rate either way.
 */
static void time_sampled_update(struct ucsan_ctx *ctx)
{
	/* A handler may have interrupted the runtime moving the thread's
	 * tables (parking): the thread itself decides, later. */
	if (ctx->signal_depth)
		return;
	const bool timed = ctx->countdowns_run >= FIXED_START_PERIODS && ucsan_time_floor_on() &&
			   ucsan_sampler_running() && ucsan_nudge_listed(ctx);
	if (timed == ctx->time_sampled)
		return;
	ctx->time_sampled = timed;
	ucsan_ctx_set_sites(ctx, ctx->sites);
}

/*
 * A thread that reads far more than it stores (a poller, a consumer) would
 * take long to run out its countdowns, every access out of line
 * meanwhile: its first countdowns also end after YOUTH_ACCESSES accesses
 * made while its stores count (and one that stays counted, under fixed
 * sampling or beyond the sampler's reach, asks again after as many).
 */
#define YOUTH_ACCESSES 65536

void ucsan_youth_access(struct ucsan_ctx *ctx)
{
	if (ctx->youth_accesses++ < YOUTH_ACCESSES)
		return;
	ctx->youth_accesses = 0;
	ctx->countdowns_run = FIXED_START_PERIODS;
	time_sampled_update(ctx);
}

/* A pick that ran out of moves on memory no other thread can reach looks
 * on access by access for one that can (pick_passes_on()): since when, by
 * the budget's clock, and whether it gave up. */
static __thread uint64_t pick_search_t0;
static __thread bool pick_search_failed;

/* A sampled access: watched if it may be, and the next countdown -- from
 * the watch's cost under the budget. The budget's clock is a system call,
 * so it is not read when no watch can be set up. */
static long sample(struct ucsan_ctx *ctx, const volatile void *ptr, size_t size, int type, uintptr_t ip)
{
	if (ctx->countdowns_run < FIXED_START_PERIODS)
		ctx->countdowns_run++;
	time_sampled_update(ctx);
	const uint64_t searched_from = pick_search_t0;
	const bool found = !pick_search_failed;
	pick_search_t0 = 0;
	pick_search_failed = false;
	/* Still under a lock after the pick's moves: let go, and the period
	 * goes on (a thread that holds locks most of its time watches less). */
	if (sample_skips_locked(ctx, type)) {
		pick_on_shared = false;
		return unwatched_skip(ctx);
	}
	const uint64_t t0 = may_watch(ctx) ? budget_clock() : 0;
	/* The search out of line is the sample's cost too; one that found
	 * nothing watches nothing, its time alone starts the next period. */
	const uint64_t searched = searched_from && t0 > searched_from ? t0 - searched_from : 0;
	if (!found) {
		pick_on_shared = false;
		return t0 ? new_skip(ctx, 0, searched, t0) : unwatched_skip(ctx);
	}
	uint64_t charge = 0;
	if ((!t0 && ucsan_opts.overhead_budget > 0) || !watch(ctx, ptr, size, type, ip, t0, &charge)) {
		pick_on_shared = false;
		return unwatched_skip(ctx);
	}
	const uint64_t t1 = budget_clock();
	return new_skip(ctx, watch_cost(ctx, t0, t1), charge + searched, t1);
}

/*
 * The kernel's atomic regions: a plain access inside one is treated as
 * marked. Assertions never are, so they keep their meaning inside seqlock
 * readers and the like.
 */
static bool in_atomic_region(struct ucsan_ctx *ctx, int type)
{
	if (type & UCSAN_ACCESS_ASSERT)
		return false;
	if (ctx->atomic_next > 0) {
		ctx->atomic_next--;
		ucsan_ctx_update_special(ctx);
		return true;
	}
	return ctx->atomic_nest_count > 0 || ctx->in_flat_atomic;
}

/* Re-checks every open scoped access of this thread. */
static void check_scoped_accesses(struct ucsan_ctx *ctx)
{
	if (ctx->in_scoped_check)
		return;
	ctx->in_scoped_check = true;
	for (struct ucsan_scoped_access *sa = ctx->scoped; sa; sa = sa->next)
		ucsan_check_range(sa->ptr, sa->size, sa->type | UCSAN_ACCESS_SCOPED, (uintptr_t)sa->ip);
	ctx->in_scoped_check = false;
}

/* The thread runs special until its sample falls, k accesses on; what
 * its countdown had left waits in pick_saved_skip. */
static void begin_pick(struct ucsan_ctx *ctx, long k, bool by_time)
{
	ctx->picking = true;
	ctx->time_pick = by_time;
	ucsan_ctx_update_special(ctx);
	ctx->pick_saved_skip = ctx->saved_skip;
	ctx->saved_skip = k;
}

/* A pick is over: its sample was taken, or given up. */
static void end_pick(struct ucsan_ctx *ctx)
{
	pick_search_t0 = 0;
	pick_search_failed = false;
	ctx->picking = false;
	ctx->time_pick = false;
	ucsan_ctx_update_special(ctx);
}

/* How often in a row this thread's pick passed its sample on (below). In
 * the runtime's own TLS: the entry points never read it. */
static __thread int pick_repicks;
/* Marked accesses since a nudge's pick was last passed on (below), and
 * how many it lets by (special_marked()). */
static __thread int pick_marked;
#define PASSED_ON_MARKED 256
/* Private accesses a nudge's pick looks past, one by one, once its moves
 * are spent (pick_passes_on()), and how many it has. */
#define PICK_SEARCH_ACCESSES 65536
static __thread int pick_searched;

/* The access a pick fell on cannot meet another thread's (a server's
 * worker spends most of its accesses on its own frames and buffers), or
 * falls on a page no other thread has been seen on: the sample moves on
 * to one of the next 16 accesses, sample_repicks times at most, so that
 * the budget pays for watches of shared memory. A nudge's pick whose
 * moves all fell on private memory then takes the next access another
 * thread can reach, PICK_SEARCH_ACCESSES on at most, or none: a time pick
 * falls uniformly over accesses, and a thread that spins on its clock
 * between two reads of a shared flag would otherwise spend every watch on
 * its own frames, and never show the flag's page shared (the page rule
 * above). The search is charged to the budget (sample()). A count's pick
 * does not search: a young thread's come every few thousand stores, and
 * threads64, whose workers fill a fresh buffer, ran 20% slower so. */
static bool pick_passes_on(struct ucsan_ctx *ctx, const volatile void *ptr, int type)
{
	if (!ctx->picking) {
		pick_repicks = 0;
		pick_searched = 0;
		pick_on_shared = false;
		return false;
	}
	const bool private = ucsan_access_private(ctx, ptr, type);
	bool passes = private || sample_skips_locked(ctx, type);
	pick_on_shared = false;
	if (!passes && ucsan_opts.sample_page_owners) {
		const enum ucsan_page_seen seen = ucsan_page_seen(ctx, ptr);
		passes = seen == PAGE_ONLY_MINE;
		pick_on_shared = seen == PAGE_SHARED;
	}
	if (passes && pick_repicks < ucsan_opts.sample_repicks) {
		pick_repicks++;
		pick_marked = 0;
		ctx->saved_skip = (long)(ucsan_rand32(ctx) % 16);
		return true;
	}
	if (passes && private && pick_repicks && ctx->time_pick) {
		if (!pick_search_t0)
			pick_search_t0 = budget_clock();
		if (++pick_searched <= PICK_SEARCH_ACCESSES) {
			ctx->saved_skip = 0;
			return true;
		}
		pick_search_failed = true;
	}
	pick_repicks = 0;
	pick_searched = 0;
	return false;
}

/* A plain access by a thread with annotation state. */
static void special_path(struct ucsan_ctx *ctx, const volatile void *ptr, size_t size, int type, uintptr_t ip)
{
	lanes_fill(ctx, UCSAN_SPECIAL_SKIP);
	ucsan_cold_unpublished_access(ctx, ptr, type);
	if (!in_atomic_region(ctx, type) && --ctx->saved_skip < 0 && !pick_passes_on(ctx, ptr, type)) {
		ctx->saved_skip = sample(ctx, ptr, size, type, ip);
		if (ctx->picking)
			end_pick(ctx);
	}
	if (!(type & UCSAN_ACCESS_SCOPED)) {
		ucsan_reorder_check(ctx);
		if (ctx->scoped)
			check_scoped_accesses(ctx);
	}
}

static void special_marked(void)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	/* A nudge's pick counts marked accesses too, and a marked access is
	 * never watched: given up, so that a loop of atomics does not keep
	 * the thread special. The store count goes on where it was. Once
	 * passed on from a plain access (pick_passes_on()) it counts plain
	 * ones only, or a poll loop that tests an atomic between its plain
	 * reads would lose most picks there; and gives up after
	 * PASSED_ON_MARKED marked ones. */
	if (ctx->time_pick &&
	    (pick_repicks ? ++pick_marked > PASSED_ON_MARKED : --ctx->saved_skip < 0)) {
		ctx->saved_skip = ctx->pick_saved_skip;
		pick_repicks = 0;
		end_pick(ctx);
	}
	ucsan_cold_unpublished_access(ctx, NULL, UCSAN_ACCESS_ATOMIC);
	if (ctx->value_check)
		ucsan_value_check_run(ctx, false);
	ucsan_reorder_check(ctx);
	if (ctx->scoped)
		check_scoped_accesses(ctx);
}

NOINLINE void ucsan_special_marked(void)
{
	UCSAN_KEEP_ERRNO(special_marked());
}

/* First access of this thread (or of the process, before our constructor
 * ran): set up, and start counting from here. */
void ucsan_thread_first_entry(struct ucsan_ctx *ctx)
{
	if (!ucsan_initialized)
		ucsan_init();
	ucsan_ctx_init(ctx);
	/* No rate known yet: the first period is skip_watch long (with
	 * skip_watch=0, this very access is watched). */
	ucsan_ctx_set_countdown(ctx, new_skip(ctx, 0, 0, budget_clock()));
}

/* The calling thread's context for an API call (ucsan.h, TSan's
 * interface), set up if this is the thread's first entry. */
struct ucsan_ctx *ucsan_api_ctx(void)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	if (unlikely(!ctx->initialized)) {
		if (!ucsan_initialized)
			ucsan_init();
		ucsan_ctx_init(ctx);
		lanes_fill(ctx, 0); /* the next access starts a fresh countdown */
	}
	return ctx;
}

static void slow_path(const volatile void *ptr, size_t size, int type, uintptr_t ip);

/* Of the accesses after the store the countdown ran out at, the one sampled
 * is 0 to PICK_SPAN - 1 further on; no further than the period is long, so
 * that a short fixed period (skip_watch=10) keeps its density. */
#define PICK_SPAN 256

/*
 * Only stores count (check.h), but reads race too, and a read may be the
 * only side of a race that runs often (an unlocked test before a locked
 * set). So the store the countdown ran out at hands the sample on to one
 * of the next few accesses, reads included: the thread runs special
 * meanwhile, every access out of line, which for a few accesses per sample
 * costs nothing. Returns true if the sample was handed on.
 */
static bool pick_sample(struct ucsan_ctx *ctx)
{
	if (ucsan_count_reads || ctx->picking)
		return false;
	const long span = ctx->period_skip < PICK_SPAN ? ctx->period_skip + 1 : PICK_SPAN;
	const long k = span > 1 ? (long)(ucsan_rand32(ctx) % (uint32_t)span) : 0;
	if (k == 0)
		return false;
	begin_pick(ctx, k - 1, false);
	return true;
}

/* A nudge found the period over: the sample falls on one of the next
 * PICK_SPAN accesses (reads included), as a store count's does. */
static bool start_time_pick(struct ucsan_ctx *ctx)
{
	if (ucsan_count_reads || ctx->picking)
		return false;
	begin_pick(ctx, (long)(ucsan_rand32(ctx) % PICK_SPAN), true);
	return true;
}

NOINLINE void ucsan_slow_path(const volatile void *ptr, size_t size, int type, uintptr_t ip)
{
	UCSAN_KEEP_ERRNO(slow_path(ptr, size, type, ip));
}

static void slow_path(const volatile void *ptr, size_t size, int type, uintptr_t ip)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;

	if (unlikely(!ctx->initialized)) {
		ucsan_thread_first_entry(ctx);
		if (ucsan_ctx_countdown(ctx) > 0)
			return;
	}
	/* Parked on a stall that has ended: the thread's cold sites back. */
	if (ctx->cold_parked && !ctx->signal_depth)
		ucsan_cold_parked_poll(ctx);
	/* Most visits: one lane ran out while others hold credit. */
	if (!ctx->special && lanes_refill(ctx))
		return;
	if (ctx->value_check)
		ucsan_value_check_run(ctx, false);
	if (ctx->cold_starved)
		ucsan_cold_refresh(ctx);
	if (unlikely(atomic_load_explicit(&ucsan_deferred_reports, memory_order_relaxed)) &&
	    !ctx->signal_depth)
		ucsan_report_flush_deferred();
	if (ctx->special) {
		special_path(ctx, ptr, size, type, ip);
		return;
	}
	if (pick_sample(ctx))
		return;
	ucsan_ctx_set_countdown(ctx, sample(ctx, ptr, size, type, ip));
}

/* The type is a run-time value here, not a constant: this runs only while
 * some thread is watching, or an option forces the gate open. */
NOINLINE void ucsan_check_armed(const volatile void *ptr, size_t size, int type, uintptr_t ip)
{
	if (type & UCSAN_ACCESS_ATOMIC) {
		if (ucsan_opts.ignore_atomics)
			return;
		ucsan_cold_taken(ptr);
	}
	const uint64_t armed = atomic_load_explicit(&ucsan_armed, memory_order_relaxed);
	if (wp_window_armed(armed, wp_base_slot((uintptr_t)ptr, ucsan_nslots))) {
		uint64_t encoded;
		_Atomic(uint64_t) *wp =
			find_watchpoint((uintptr_t)ptr, size, (type & UCSAN_ACCESS_WRITE) != 0, &encoded);
		if (unlikely(wp != NULL)) {
			ucsan_found_watchpoint(ptr, size, type, ip, wp, encoded);
			return;
		}
	}
	check_site(&ucsan_ctx_tls, ptr, size, type, ip, true);
}

/* Consume a watchpoint our access conflicts with; the watcher reports. */
static void consume_watchpoint(const volatile void *ptr, size_t size, int type, uintptr_t ip,
			       _Atomic(uint64_t) *wp, uint64_t encoded)
{
	/* A watch held through a blocked mutex lock is met only by the
	 * mutex's owner (held_watches.c). The fence pairs with the release
	 * that filled the word in: its mutex is seen with it. */
	atomic_thread_fence(memory_order_acquire);
	const pthread_mutex_t *held_on = atomic_load_explicit(&slot_mutex[wp - ucsan_watchpoints], memory_order_relaxed);
	if (held_on && !ucsan_held_lock_owner(held_on))
		return;
	/* Only one racing thread wins the watchpoint and hands its stack over;
	 * others raced too, but the watcher may have left already. */
	if (atomic_compare_exchange_strong_explicit(wp, &encoded, WP_CONSUMED, memory_order_acq_rel,
						    memory_order_relaxed))
		ucsan_report_set_info(ptr, size, type, ip, (size_t)(wp - ucsan_watchpoints),
				      ucsan_ctx_tls.watching != NULL);
	else
		ucsan_counter_add(CTR_REPORT_RACES, 1);
	ucsan_counter_add((type & UCSAN_ACCESS_ASSERT) ? CTR_ASSERT_FAILURES : CTR_DATA_RACES, 1);
}

static void found_watchpoint(const volatile void *ptr, size_t size, int type, uintptr_t ip,
			     _Atomic(uint64_t) *wp, uint64_t encoded);

NOINLINE void ucsan_found_watchpoint(const volatile void *ptr, size_t size, int type, uintptr_t ip,
				     _Atomic(uint64_t) *wp, uint64_t encoded)
{
	UCSAN_KEEP_ERRNO(found_watchpoint(ptr, size, type, ip, wp, encoded));
}

static void found_watchpoint(const volatile void *ptr, size_t size, int type, uintptr_t ip,
			     _Atomic(uint64_t) *wp, uint64_t encoded)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;

	if (!ctx->initialized)
		ucsan_thread_first_entry(ctx);
	/*
	 * ctx->watching set means a signal handler interrupted this thread's
	 * own stall (only possible with interrupt_watcher=1, which leaves
	 * signals unblocked), whose disable_count++ is not the handler's.
	 */
	const bool over_own_watch = ctx->watching != NULL;
	if (ctx->disable_count > (over_own_watch ? 1 : 0) ||
	    !atomic_load_explicit(&ucsan_enabled, memory_order_relaxed))
		return;
	if (over_own_watch && !ucsan_opts.interrupt_watcher)
		return;
	/* A masked check only learns of races through value changes: the
	 * watcher may be the writer of bits outside our mask. */
	if (ctx->access_mask)
		return;

	ctx->disable_count++;
	consume_watchpoint(ptr, size, type, ip, wp, encoded);
	/* Several threads may be watching the location (after a barrier,
	 * say): each of them raced with this access and is owed its stack,
	 * or it would report an unknown origin. A consumed slot no longer
	 * matches, so each lookup finds the next one. */
	for (int i = 1; i < UCSAN_NUM_SLOTS; i++) {
		wp = find_watchpoint((uintptr_t)ptr, size, (type & UCSAN_ACCESS_WRITE) != 0, &encoded);
		if (!wp || wp == ctx->watching)
			break;
		consume_watchpoint(ptr, size, type, ip, wp, encoded);
	}
	ctx->disable_count--;
}

/*
 * Pieces of at most one slot's range (a page): two overlapping pieces then
 * always start on the same or adjacent pages, which is exactly the window
 * find_watchpoint() looks at. (Pieces of two pages, which the encoding
 * could hold, may span three pages and miss each other.)
 */
static NOINLINE void check_chunks(const volatile void *ptr, size_t size, int type, uintptr_t ip)
{
	uintptr_t addr = (uintptr_t)ptr;
	while (size > 0) {
		size_t chunk = size < UCSAN_SLOT_RANGE ? size : UCSAN_SLOT_RANGE;
		/* The inlined check tests the page the piece starts on; one
		 * reaching into the next page tests that page too. */
		const uint64_t gate = atomic_load_explicit(&ucsan_hot.gate, memory_order_relaxed);
		if (gate != 0 && !gate_alone(gate) && gate_page_armed(ucsan_hot.pages, addr + chunk - 1))
			ucsan_check_armed((const volatile void *)addr, chunk, type, ip);
		else
			check_access((const volatile void *)addr, chunk, type, ip);
		addr += chunk;
		size -= chunk;
	}
}

void ucsan_check_range(const volatile void *ptr, size_t size, int type, uintptr_t ip)
{
	if (!check_range_quick(type, ip))
		check_chunks(ptr, size, type, ip);
}
