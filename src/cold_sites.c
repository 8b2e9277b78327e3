// SPDX-License-Identifier: Apache-2.0
/*
 * Cold sites: the first executions of each code site are watched, with a
 * stall long enough to outlast a wake-up.
 *
 * Races in short programs live in code that runs once or a few times per
 * thread -- a flag set at shutdown, a lazy initialisation, a reduction at
 * the end of a worker -- usually within milliseconds of the other thread's
 * access, just after a thread start, a join or a wake-up. Sampling one
 * access in thousands almost never picks those, and a stall of
 * microseconds ends before the other thread is even scheduled. So a thread
 * watches a site the first `cold_watches` times it runs it, unless other
 * threads already did `cold_site_limit` times, and sleeps about
 * `cold_udelay` there, from a budget of its own (cold_budget.c).
 * Nothing is watched while the process has one thread, and a thread that
 * starts during a write stall runs parked on it (ucsan_sites_attach()).
 *
 * The hot path pays one byte load per access for this: ctx->sites[] is
 * SITE_WARM for every site the thread is done with.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <linux/futex.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "internal.h"

/*
 * Cold stalls share time unevenly. A read is watched only while no other
 * cold stall is on: the other threads then run at full speed through the
 * code the stalled one is about to run, and meet its watchpoint (one thread
 * watches the unlocked test of a lazy initialisation while the other does
 * the whole initialisation and stores the flag). A watched write -- the
 * flag set once at shutdown, which catches the threads that poll it -- has
 * the stage to itself: it cuts short the stalls in progress, and their
 * threads run on without new ones ("parked") until it ends, so they meet
 * its watchpoint instead of sleeping through it -- except for the store
 * of a check-then-set, watched beside it (watch_beside()). A site cut
 * short is watched again later; a site that ran before never cuts another
 * write short. cold_seq is odd while a write stall is on, numbers the write
 * stalls, and is the futex stalling threads sleep on, so a write stall
 * wakes the ones it cuts short.
 */
static _Atomic uint32_t cold_seq;
static _Atomic uint32_t cold_stalls; /* cold stalls in progress */
/* The latest unlocked cold-watched read (its address), while such stalls
 * are on (their number): stores under a lock near it wait (take_turn()). */
static _Atomic uint32_t cold_unlocked_reads;
/* Read stalls under a lock on now (cold_start_reads). */
static _Atomic uint32_t cold_locked_reads;
static _Atomic uintptr_t cold_unlocked_read_addr;
/* The latest cold-watched read made under a lock (its address). */
static _Atomic uintptr_t cold_locked_read_addr;
/* The number of a store's stall that waits for the taker of what its
 * thread released, during its usual time and again once the taker came:
 * no store made under a lock takes the stage from it then. The taker's
 * own stores under the lock it took (a queue's head, before it reads the
 * request it popped) would cut it short just before the access that
 * races with it. */
static _Atomic uint32_t cold_waiting_seq;
/* Until when a store watched beside a write stall holds off other stores
 * (a time, not a count: a stall that never returns -- its thread exited
 * from a signal handler -- must not hold them off for good). */
static _Atomic uint64_t cold_beside_until;
/* The number of a relaxed publication's stall (relaxed_store()) while it
 * is on, and its flag: the stall waits for a thread to take the flag,
 * and a poll of the flag itself may watch beside it meanwhile. */
static _Atomic uint32_t cold_publish_seq;
static _Atomic uintptr_t cold_publish_word;

/* A count of stalls going down: never below zero, also when a stall
 * that began before fork() ends in the child, where it was reset. */
static void stalls_done(_Atomic uint32_t *n)
{
	uint32_t cur = atomic_load(n);
	while (cur && !atomic_compare_exchange_weak(n, &cur, cur - 1))
		;
}

/*
 * How often each code site was cold-watched, all threads together, in
 * buckets finer than the threads' tables (untouched pages cost nothing).
 * After cold_site_limit watches (by default one: whichever thread runs the
 * site first) the other threads run it as a warm site. Stalling every
 * thread at every new site pulls apart the very threads whose accesses meet
 * when they run together -- two threads started at once, thousands of short
 * threads running the same code -- while one stall, with the others running
 * past at full speed, is what lets them meet its watchpoint.
 */
#define PROCESS_SITE_BITS 16
static _Atomic uint8_t process_site_watches[1u << PROCESS_SITE_BITS];

static _Atomic uint8_t *process_site(uintptr_t ip)
{
	return &process_site_watches[(ip >> 2) & ((1u << PROCESS_SITE_BITS) - 1)];
}

/* A site's byte: how often it was watched, SITE_RETRY once its watch was
 * cut short (it has run before, so it will again), SITE_WARM when done. */
#define SITE_RETRY 0x80
#define SITE_COUNT 0x7f

static void futex_wait(_Atomic uint32_t *word, uint32_t val, uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ULL), (long)(ns % 1000000000ULL) };
	/* Inside a watch, which may be of errno: a timeout must not show. */
	UCSAN_KEEP_ERRNO(syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, val, &ts, NULL, 0));
}

static void futex_wake_all(_Atomic uint32_t *word)
{
	UCSAN_KEEP_ERRNO(syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0));
}

void ucsan_cold_wake_stalls(void)
{
	futex_wake_all(&cold_seq);
}

/*
 * Does a store under a lock to addr yield to another thread's unlocked
 * read? A double-checked lock: one thread watches its unlocked test of the
 * flag, another takes the lock and initialises what the flag guards --
 * the fields around it -- then stores the flag. Taking the stage at its
 * first store would cut the watch short before the flag's store comes; so
 * stores near the watched read run unwatched meanwhile (and stay cold,
 * to be watched later). Far from it (64 bytes), a store under a lock
 * takes the stage as any other: a reloaded config pointer, a counter;
 * and so does one to the heap: a server's items, whose fields other
 * threads read unlocked all the time, are not lazily set-up singletons.
 */
static bool near_static(uintptr_t addr, uintptr_t other)
{
	return addr - other + 64 < 128 && ucsan_static_data((const void *)addr);
}

static bool yields_to_unlocked_read(bool locked, uintptr_t addr)
{
	return locked && ucsan_opts.cold_locked_stores_yield && atomic_load(&cold_unlocked_reads) &&
	       near_static(addr, atomic_load(&cold_unlocked_read_addr));
}

/* The store holding the stage: its stall's number, then its first and
 * last byte, and whether it was made under a lock. */
static _Atomic uint32_t cold_stage_seq;
static _Atomic uintptr_t cold_stage_addr, cold_stage_last;
static _Atomic bool cold_stage_locked;

/*
 * The same double-checked lock the other way round: the initialisation
 * took the stage first, and the other thread's unlocked test of the flag
 * comes during that stall. Waiting its turn, or parked, the test would
 * run unwatched, long before the flag's store lands; so it takes the
 * stage, cutting the stall short, and the rest of the initialisation
 * yields to its watch (above). For an unlocked read of addr; `seq` is
 * the current stall's number.
 */
static bool tests_locked_init(bool locked, uintptr_t addr, uint32_t seq)
{
	if (locked || !ucsan_opts.cold_locked_stores_yield)
		return false;
	/* No store holds the stage, but a read made under a lock near addr
	 * stalls: the first half of a read-modify-write of the same object
	 * (gcc makes `++t->count` a read and a write; clang makes it one
	 * read-write call, which takes the stage as a store), or the locked
	 * re-check of the flag. Its thread holds the lock for the update
	 * that follows: the unlocked read takes the stage as it would from
	 * that store. */
	if (!(seq & 1))
		return atomic_load(&cold_locked_reads) && near_static(addr, atomic_load(&cold_locked_read_addr));
	if (atomic_load(&cold_stage_seq) != seq || !atomic_load(&cold_stage_locked))
		return false;
	const uintptr_t stage = atomic_load(&cold_stage_addr);
	return ucsan_static_data((const void *)stage) && near_static(addr, stage);
}

/*
 * Does a store to [addr, last] leave the store that holds the stage (stall
 * `cur`) be? Both made under a lock, one beside the other in the same
 * aligned 8 bytes: most likely two fields of one struct that two threads
 * update under different locks, a bit-field and its neighbour (two
 * variables side by side are seldom both under locks; an unlocked store
 * beside a watched one still takes the stage). Cutting that watch short
 * would let its thread go just before this thread's next access to the
 * object, the one that may race with it (the flags byte after a counter).
 * So the store runs unwatched meanwhile (its site stays cold, to be
 * watched later), and the thread's next accesses meet the watch. A store
 * to the same bytes takes the stage as before: it found no watchpoint
 * there, so the stall has not armed one yet, or is over.
 */
static bool yields_to_near_store(uint32_t cur, bool locked, uintptr_t addr, uintptr_t last)
{
	if (!(cur & 1) || !locked || !ucsan_opts.cold_near_stores_yield || atomic_load(&cold_stage_seq) != cur ||
	    !atomic_load(&cold_stage_locked))
		return false;
	const uintptr_t first = atomic_load(&cold_stage_addr), end = atomic_load(&cold_stage_last);
	return (addr ^ first) < 8 && !(addr <= end && first <= last);
}

/* May a cold watch start, and under which number? A read needs no other
 * cold stall on (unless `beside_reads`: just after a sleep, a poll, or it
 * tests a locked initialisation); a write takes the stage, from another
 * write only if its site is new. */
static bool take_turn(bool is_write, bool may_take_over, bool locked, bool beside_reads, uintptr_t addr,
		      size_t size, uint64_t now, uint32_t *seq)
{
	uint32_t cur = atomic_load(&cold_seq);
	if (!is_write) {
		if (tests_locked_init(locked, addr, cur) && atomic_compare_exchange_strong(&cold_seq, &cur, cur + 1)) {
			futex_wake_all(&cold_seq);
			*seq = cur + 1;
			return true;
		}
		*seq = cur;
		return !(cur & 1) && (beside_reads || !atomic_load(&cold_stalls));
	}
	/* A store watched beside a write stall outlasts it: the thread let
	 * go when that stall ends is the one to meet it, and must not
	 * stall on a store of its own meanwhile. */
	if (now < atomic_load(&cold_beside_until) || yields_to_unlocked_read(locked, addr))
		return false;
	do {
		if ((cur & 1) && (!may_take_over || (locked && cur == atomic_load(&cold_waiting_seq)) ||
				  yields_to_near_store(cur, locked, addr, addr + size - 1)))
			return false;
		*seq = (cur | 1) + ((cur & 1) ? 2 : 0);
	} while (!atomic_compare_exchange_weak(&cold_seq, &cur, *seq));
	atomic_store(&cold_stage_addr, addr);
	atomic_store(&cold_stage_last, addr + size - 1);
	atomic_store(&cold_stage_locked, locked);
	atomic_store(&cold_stage_seq, *seq);
	futex_wake_all(&cold_seq);
	return true;
}

/*
 * A store just after a release -- the result written after its "done" flag,
 * a counter bumped just after the unlock -- races with the thread that
 * takes what was released, and that thread comes when it is woken and
 * scheduled, often later than a stall lasts on a busy machine. So its stall
 * waits for that taker: it ends `us` after another thread's first atomic
 * access to the released word or lock of it (ucsan_cold_taken()), or after
 * cold_release_wait_us. One such stall at a time: it holds the stage.
 */
_Atomic uintptr_t ucsan_cold_wake_word;
static _Atomic uintptr_t cold_woken; /* the word last taken */
/* Which threads took it during the stall: bit tid % 64. */
static _Atomic uint64_t cold_takers;

/* The calling thread's bit: its context may not be set up yet (a thread
 * whose first runtime entry is an atomic access). */
static uint64_t own_tid_bit(void)
{
	const int tid = ucsan_ctx_tls.tid ? ucsan_ctx_tls.tid : ucsan_gettid();
	return 1ULL << ((unsigned)tid % 64);
}

void ucsan_cold_woken(uintptr_t word)
{
	atomic_fetch_or(&cold_takers, own_tid_bit());
	if (atomic_exchange(&cold_woken, word) != word)
		futex_wake_all(&cold_seq);
}

/* The stall of ctx's watch begins waiting for a taker: a store's always;
 * a read's only while no write stall holds the stage and no other word
 * is waited for (a read never displaces a store's word, which that stall
 * cannot end without). A write stall that took the stage over may
 * replace the word; each stall looks for its own, and clears only its
 * own. Returns whether the stall waits. */
static bool wake_wait_begin(struct ucsan_ctx *ctx)
{
	if (ctx->cold_wake == COLD_WAKE_READ) {
		uintptr_t none = 0;
		if (atomic_load(&cold_seq) != ctx->cold_turn ||
		    !atomic_compare_exchange_strong(&ucsan_cold_wake_word, &none, ctx->release_word))
			return false;
		atomic_store(&cold_woken, 0);
	} else {
		atomic_store(&cold_woken, 0);
		atomic_store(&cold_takers, 0);
		atomic_store(&ucsan_cold_wake_word, ctx->release_word);
	}
	ucsan_gate_hold(ctx->release_word);
	return true;
}

static void wake_wait_end(struct ucsan_ctx *ctx)
{
	uintptr_t mine = ctx->release_word;
	/* A read's word, unless a write stall is on that may have put the
	 * same word there for itself. */
	const uint32_t seq = atomic_load(&cold_seq);
	if (ctx->cold_wake == COLD_WAKE_STORE || seq == ctx->cold_turn || !(seq & 1))
		atomic_compare_exchange_strong(&ucsan_cold_wake_word, &mine, 0);
	ucsan_gate_let_go(ctx->release_word);
}

/* The stall numbered seq no longer keeps stores under a lock off the
 * stage. */
static void waiting_done(uint32_t seq)
{
	atomic_compare_exchange_strong(&cold_waiting_seq, &seq, 0);
}

/*
 * A store made while the thread's creator sleeps -- it naps "to give the
 * new thread a head start", then reads the result -- is read when the
 * creator wakes, often long after a usual stall. So the stall lasts until
 * that sleep ends, and an eighth of it plus 300 us more for the wake-up,
 * if that comes within cold_sleeper_us. (Any thread's sleep was tried:
 * the threads that sleep between rounds of their own then held every
 * store that long, and the budget ran out before the stores that race.)
 * Returns the stall's end.
 */
static uint64_t creator_woken(uint64_t start, uint64_t end)
{
	const uint64_t cap = start + (uint64_t)ucsan_opts.cold_sleeper_us * 1000;
	const uint64_t wake = ucsan_opts.cold_sleeper_us > 0 ? ucsan_thread_info_creator_wakes(start, cap) : 0;
	if (!wake)
		return end;
	uint64_t until = wake + (wake - start) / 8 + 300000;
	if (until > cap)
		until = cap;
	return until > end ? until : end;
}

/*
 * The watch beside a write stall holds other threads' stores off
 * (take_turn()) so that the thread let go when that stall ends runs on to
 * meet it; once it is let go, for cold_beside_hold_us at most: a thread
 * whose access to the same object did not come by then is on other work
 * -- a main thread still serving requests before it stores the stop flag
 * its flusher polls -- and its stores must be watched again.
 */
static void beside_hold_until(uint64_t let_go)
{
	if (ucsan_opts.cold_beside_hold_us <= 0)
		return;
	const uint64_t until = let_go + (uint64_t)ucsan_opts.cold_beside_hold_us * 1000;
	uint64_t cur = atomic_load(&cold_beside_until);
	while (cur > until && !atomic_compare_exchange_weak(&cold_beside_until, &cur, until))
		;
}

/*
 * A thread argument handed over again, refilled in between: a listener
 * that passes one struct to every handler it starts and refills its fd
 * for the next connection, a loop that rewrites the job index in the one
 * argument. Each thread's read of the refilled field races with the
 * creator's next refill, yet the read comes at the thread's start and
 * the refill only once the creator has the next item -- an accept()
 * later -- long after any usual stall; meanwhile the creator's own store
 * just after pthread_create (a handler count) often holds the stage and
 * parks the new thread, whose reads then go unwatched. So the creator
 * keeps a copy of the first ARG_SNAP bytes at the argument it handed
 * last; handing the same argument again, the bytes that changed since
 * are what it refills (a mask, handed to the new thread with its start).
 * The new thread's first read of those bytes is watched whoever watched
 * the site before, parked or not, beside any stall and never cut short,
 * for at least a taker's wait (cold_release_wait_us), ending early once
 * the creator blocks in a join or an untimed wait, or ends
 * (cold_refilled_reads). A creator that hands every thread its own
 * argument, or one it does not change, gives no mask.
 */
#define ARG_SNAP 64

static __thread struct {
	uintptr_t arg;
	size_t n;
	uint8_t bytes[ARG_SNAP];
} handed_arg;
static __thread uint64_t arg_refilled; /* in the new thread: bytes at its argument */
static __thread bool refill_watch;     /* its stall watches such a read */

uint64_t ucsan_cold_arg_handed(const void *arg)
{
	if (!ucsan_opts.cold_refilled_reads || (uintptr_t)arg < 4096)
		return 0;
	uint8_t now[ARG_SNAP];
	const size_t n = ucsan_read_memory_upto(arg, now, sizeof(now));
	uint64_t mask = 0;
	if (handed_arg.arg == (uintptr_t)arg)
		for (size_t i = 0; i < n && i < handed_arg.n; i++)
			if (now[i] != handed_arg.bytes[i])
				mask |= 1ULL << i;
	handed_arg.arg = (uintptr_t)arg;
	handed_arg.n = n;
	memcpy(handed_arg.bytes, now, n);
	return mask;
}

/* Is the creator still one that may write (not blocked in a join or an
 * untimed wait, not ended)? Its record is looked up here, at the first
 * ask, not as the thread starts: the search of the records would delay
 * every thread's first access. */
static bool creator_writes(struct ucsan_ctx *ctx)
{
	if (!ctx->creator_info)
		ctx->creator_info = ucsan_thread_info_creator();
	const struct ucsan_thread_info *c = ctx->creator_info;
	const struct ucsan_thread_info *self = ctx->thread_info;
	return c && self && c->tid == self->creator &&
	       atomic_load_explicit(&c->state, memory_order_relaxed) == THREAD_RUNNING &&
	       !atomic_load_explicit(&c->waiting, memory_order_relaxed);
}

/* The bytes of this read that the creator refilled before handing the
 * argument over again (0: none, or the creator writes no more). */
static uint64_t refilled_read(struct ucsan_ctx *ctx, const volatile void *ptr, size_t size)
{
	const uintptr_t off = (uintptr_t)ptr - ctx->thread_arg;
	if (!arg_refilled || !ctx->thread_arg || off >= ARG_SNAP)
		return 0;
	const size_t n = size < ARG_SNAP - off ? size : ARG_SNAP - off;
	const uint64_t bits = (n >= 64 ? ~0ULL : ((1ULL << n) - 1)) << off;
	return (arg_refilled & bits) && creator_writes(ctx) ? arg_refilled & bits : 0;
}

void ucsan_cold_stall(struct ucsan_ctx *ctx, _Atomic(uint64_t) *wp, long us)
{
	const uint32_t seq = ctx->cold_turn;
	const uint64_t start = ucsan_now_ns();
	uint64_t end = start + (uint64_t)us * 1000, now = start;
	bool woken = false;
	const bool waits = ctx->cold_wake && wake_wait_begin(ctx);
	if (ctx->cold_wake == COLD_WAKE_STORE) {
		const uint64_t wait = (uint64_t)ucsan_opts.cold_release_wait_us;
		end = start + (wait > (uint64_t)us ? wait : (uint64_t)us) * 1000;
	}
	/* Beside a write stall (watch_beside()): its own starts when that one
	 * ends (or after four of its own at most), since that stall's thread,
	 * let go, is the one that comes to the same code next; and it is not
	 * cut short by another. */
	if (ctx->cold_beside && !refill_watch) {
		const uint64_t limit = start + 4 * (uint64_t)us * 1000;
		while (now < limit && atomic_load_explicit(wp, memory_order_relaxed) != WP_CONSUMED &&
		       atomic_load(&cold_seq) == ctx->cold_parked) {
			futex_wait(&cold_seq, ctx->cold_parked, limit - now < 250000 ? limit - now : 250000);
			now = ucsan_now_ns();
		}
		end = now + (uint64_t)us * 1000;
		beside_hold_until(now);
	}
	/* A store others are expected at: it waits for them (at most the
	 * options' time), ending its usual time after the expected thread
	 * reached the site, ended, or began to wait for another. */
	const uint8_t *const behind = ctx->waited_table;
	if (behind) {
		const uint64_t until = start + (uint64_t)ucsan_opts.cold_same_code_us * 1000;
		if (until > end)
			end = until;
	}
	if (ctx->wait_creator)
		end = creator_woken(start, end);
	/* A store's stall keeps the stage from stores under a lock for its
	 * usual time, and again once its taker came (cold_waiting_seq). */
	uint64_t guard_until = 0;
	if (ctx->cold_wake == COLD_WAKE_STORE) {
		guard_until = start + (uint64_t)us * 1000;
		atomic_store(&cold_waiting_seq, seq);
	}
	while (now < end && atomic_load_explicit(wp, memory_order_relaxed) != WP_CONSUMED) {
		const uint32_t cur = atomic_load(&cold_seq);
		if (refill_watch && !creator_writes(ctx))
			break;
		if (cur != seq && !ctx->cold_beside) {
			ctx->cold_parked = cur;
			ctx->cold_preempted = true;
			break;
		}
		const uint64_t until = guard_until && guard_until < end ? guard_until : end;
		/* Wakes for a take-over at once, for a consumer within 250 us
		 * (100 us while it looks for the thread behind it). */
		const uint64_t step = behind ? 100000 : 250000;
		futex_wait(&cold_seq, cur, until - now < step ? until - now : step);
		now = ucsan_now_ns();
		if (behind && (__atomic_load_n(&behind[ctx->waited_site], __ATOMIC_RELAXED) ||
			       !ucsan_sites_running(behind))) {
			const uint64_t usual = start + (uint64_t)us * 1000;
			if (usual < end)
				end = usual > now ? usual : now;
		}
		if (waits && !woken && atomic_load(&cold_woken) == ctx->release_word) {
			woken = true;
			const uint64_t after = ctx->cold_wake == COLD_WAKE_READ ? now : now + (uint64_t)us * 1000;
			if (after < end)
				end = after;
			if (guard_until) {
				guard_until = end;
				atomic_store(&cold_waiting_seq, seq);
			}
		} else if (guard_until && now >= guard_until) {
			guard_until = 0;
			waiting_done(seq);
		}
	}
	if (guard_until)
		waiting_done(seq);
	if (waits)
		wake_wait_end(ctx);
	ctx->cold_stalled_ns = now - start;
}

/* A write stall is over (or never began): the stage is free again, and the
 * threads it parked may stall. A stall that was taken over leaves it. */
static void end_turn(uint32_t seq)
{
	if (seq & 1)
		atomic_compare_exchange_strong(&cold_seq, &seq, seq + 1);
}

static void cold_site(const volatile void *ptr, size_t size, int type, uintptr_t ip);

#define PARKED_READS (sizeof(((struct ucsan_ctx *)0)->parked_reads) / sizeof(uintptr_t))

/*
 * May a parked thread watch this access, beside the stall that parked it?
 * Only the store of a check-then-set: a store to a static variable that
 * the thread read, holding no lock, while parked (or an unlocked
 * read-modify-write of one: `total += n`) -- the flag of a
 * hand-rolled once, a lazily set pointer, the unlocked test of a
 * double-checked lock. In threads that run the same code, the parked one
 * is often the first to run it, and the one let go when the stall ends
 * comes to the same test next; everything else it runs unwatched, so as
 * not to pull the two apart. A thread parked since it started watches
 * no unlocked store: its creator's store is what it is to meet (a field
 * set just after pthread_create); but a double-checked initialisation,
 * stored under the lock, is watched in it too (worker threads started
 * together, each testing the same lazily set pointer).
 * (No memmove here: the runtime's own checks its caller.)
 */
static bool watch_beside(struct ucsan_ctx *ctx, const volatile void *ptr, int type)
{
	if (!ucsan_opts.cold_parked_stores || !ucsan_static_data(ptr))
		return false;
	if (ctx->cold_born_parked && (type & UCSAN_ACCESS_WRITE) && !ctx->locks_held)
		return false;
	if (!(type & UCSAN_ACCESS_WRITE)) {
		if (!ctx->locks_held) {
			for (size_t i = 0; i + 1 < PARKED_READS; i++)
				ctx->parked_reads[i] = ctx->parked_reads[i + 1];
			ctx->parked_reads[PARKED_READS - 1] = (uintptr_t)ptr;
		}
		return false;
	}
	/* An unlocked read-modify-write is the test and the store at once
	 * (clang makes `total += n` one call). */
	if ((type & UCSAN_ACCESS_COMPOUND) && !ctx->locks_held && !ctx->cold_born_parked)
		return true;
	for (size_t i = 0; i < PARKED_READS; i++)
		if (ctx->parked_reads[i] == (uintptr_t)ptr)
			return true;
	return false;
}

/*
 * A new thread's read, among its first cold_start_reads cold sites, of what
 * its creator handed it -- the first bytes at its argument, or the
 * creator's stack (a local a lambda captured by reference) -- while the
 * creator runs: the creator is the thread that still writes there (the
 * argument refilled for the next thread, the local it goes on to set).
 * Such a read is watched beside other threads' read stalls instead of
 * waiting its turn, so that the creator, done with a stall on a read of
 * its own (the vector it copies next), comes to its store while the watch
 * is on; refused, the new thread's first reads were never watched. Not
 * while the creator is blocked in a join or an untimed wait: it writes
 * nothing then, and the new thread's stalls on its own fields only held
 * it back. Nor (at the caller) beside a read stall made under a lock: a
 * producer reading its ring's head before it moves it, whose store then
 * yields to the consumer's reads watched beside it.
 */
#define START_ARG_SPAN 256

static bool start_read(struct ucsan_ctx *ctx, const volatile void *ptr, bool is_write)
{
	if (ctx->start_sites <= 0)
		return false;
	ctx->start_sites--;
	if (is_write)
		return false;
	if (!creator_writes(ctx))
		return false;
	const struct ucsan_thread_info *c = ctx->creator_info;
	const uintptr_t a = (uintptr_t)ptr;
	return (ctx->thread_arg && a - ctx->thread_arg < START_ARG_SPAN) || a - c->stack_lo < c->stack_hi - c->stack_lo;
}

/*
 * A site met while parked waits, warm, until the stall ends: a loop there
 * would otherwise come to the cold path on every access meanwhile (with
 * 64 threads on 2 CPUs, some stall is on most of the time). Past
 * PARKED_SITES of them, the thread runs on the all-warm table.
 */
#define PARKED_SITES (sizeof(((struct ucsan_ctx *)0)->parked_warmed) / sizeof(uint32_t))

static void park_site(struct ucsan_ctx *ctx, uint8_t *site)
{
	uint8_t *const table = ucsan_ctx_sites(ctx);
	if ((size_t)ctx->parked_nwarmed < PARKED_SITES) {
		ctx->parked_warmed[ctx->parked_nwarmed++] = (uint32_t)(site - table) << 8 | *site;
		*site = SITE_WARM;
	} else {
		ctx->parked_sites = ctx->sites;
		ucsan_ctx_set_sites(ctx, ucsan_sites_warm);
	}
}

/*
 * Parked, an unlocked store just after a release -- the flag raised after
 * the unlock, the result stored after its "done" -- waits for the stall
 * that parked it to end (cold_release_wait_us at most), then takes its
 * turn: run unwatched, such a store, made once, would never be watched,
 * and its readers are the threads that come for what was released, not
 * the one stalled now. Not under a lock (a dispatcher handing out the
 * next job must run on to the worker that races), and not while a stall
 * waits for the taker of a release: that stall is what such a store runs
 * into (two workers stamping the time after each one's unlock), and may
 * last long. Returns whether the parking stall is over; a wait that ran
 * out ends the thread's "just after a release" state.
 */
static bool parked_release_store_waits(struct ucsan_ctx *ctx, const volatile void *ptr, int type)
{
	if (!ucsan_opts.cold_parked_release_wait || !(type & UCSAN_ACCESS_WRITE) || ctx->cold_born_parked ||
	    ctx->locks_held || !(ctx->released || ctx->release_sites > 0) || ucsan_opts.cold_release_wait_us <= 0 ||
	    !ucsan_static_data(ptr))
		return false;
	/* The stall's waiting for its taker begins a little after it took
	 * the stage: look for it every 50 us. */
	const uint32_t parked = ctx->cold_parked;
	const uint64_t start = ucsan_now_ns(), end = start + (uint64_t)ucsan_opts.cold_release_wait_us * 1000;
	for (uint64_t now = start; now < end && atomic_load(&cold_seq) == parked; now = ucsan_now_ns()) {
		if (atomic_load(&ucsan_cold_wake_word))
			return false;
		futex_wait(&cold_seq, parked, end - now < 50000 ? end - now : 50000);
	}
	if (atomic_load(&cold_seq) != parked)
		return true;
	/* Waited out: one wait per release, not one per store after it. */
	ctx->released = 0;
	ctx->release_sites = 0;
	return false;
}

/* The stall that parked the thread is over: its sites are cold again. */
static void unpark(struct ucsan_ctx *ctx)
{
	if (ctx->parked_sites) {
		ucsan_ctx_set_sites(ctx, ctx->parked_sites);
		ctx->parked_sites = NULL;
	}
	uint8_t *const table = ucsan_ctx_sites(ctx);
	if (table != ucsan_sites_warm)
		for (int i = 0; i < ctx->parked_nwarmed; i++)
			table[ctx->parked_warmed[i] >> 8] = (uint8_t)ctx->parked_warmed[i];
	ctx->parked_nwarmed = 0;
	ctx->cold_parked = 0;
	ctx->cold_born_parked = false;
	for (size_t i = 0; i < PARKED_READS; i++)
		ctx->parked_reads[i] = 0;
}

void ucsan_cold_parked_poll(struct ucsan_ctx *ctx)
{
	if (atomic_load_explicit(&cold_seq, memory_order_relaxed) != ctx->cold_parked)
		unpark(ctx);
}

/* unpark() makes no system call: errno stays as the real call left it. */
void ucsan_cold_wakeup(void)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	if (ctx->cold_parked && !ctx->signal_depth)
		ucsan_cold_parked_poll(ctx);
}

/* The sites after a sleep whose reads may be watched again, whoever
 * watched them before (a poll). */
#define WOKE_SITES 8
/* Of the site polled first, one of the next this many visits is watched. */
#define WOKE_LOOP_VISITS 15

/* The thread came back from a sleep, which turned its sites cold: its
 * stores may draw on the process's budget for the stores of threads that
 * sleep (cold_budget.c). In the runtime's own TLS: the entry points never
 * read it. */
static __thread bool has_slept;

static void cold_slept(uint64_t ns)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	ucsan_cold_wakeup();
	if (ns < (uint64_t)ucsan_opts.cold_after_sleep_us * 1000 || !ucsan_opts.cold_after_sleep_us ||
	    ctx->signal_depth || ctx->disable_count || !ctx->initialized || ucsan_single_threaded())
		return;
	const uint64_t now = ucsan_now_ns();
	if (!ucsan_cold_budget_left(ctx, now) && !ucsan_cold_woke_budget_left(now))
		return;
	ucsan_sites_reset(ctx);
	has_slept = true;
	ctx->woke_sites = WOKE_SITES;
	ctx->woke_loop_left = 0;
	const uint64_t cap = (uint64_t)ucsan_opts.cold_release_wait_us * 1000;
	const uint64_t woke_us = (ns < cap ? ns : cap) / 1000;
	ctx->woke_us = woke_us < UINT32_MAX ? (uint32_t)woke_us : UINT32_MAX;
}

void ucsan_cold_slept(uint64_t ns)
{
	UCSAN_KEEP_ERRNO(cold_slept(ns));
}

/* Is ptr on the calling thread's own stack (thread_info.c's bounds)? */
static bool own_stack(const struct ucsan_ctx *ctx, const volatile void *ptr)
{
	const struct ucsan_thread_info *t = ctx->thread_info;
	return t && (uintptr_t)ptr >= t->stack_lo && (uintptr_t)ptr < t->stack_hi;
}

/*
 * A thread's own stack is its own until it hands part of it to another
 * thread: a struct passed as a new thread's argument, a local a C++ lambda
 * captures by reference (std::thread passes a block holding the
 * captures). Only stores there are watched; the timespec filled in before
 * each sleep and a -O0 build's every local are not, so the thread keeps
 * its pace. The part handed over: cold_handed_span bytes from each of the
 * latest few such pointers (the object's size is not known: 256 bytes
 * took in the creator's unrelated locals beside an int it handed, whose
 * stores then held the stage). A block the argument points to is searched
 * for stack addresses in its first CAPTURES_SCAN bytes.
 */
#define CAPTURES_SCAN 256
#define N_HANDED (sizeof(((struct ucsan_ctx *)0)->stack_handed) / sizeof(uintptr_t))

static void share_stack(struct ucsan_ctx *ctx, uintptr_t p)
{
	for (size_t i = 0; i < N_HANDED; i++)
		if (ctx->stack_handed[i] == p)
			return;
	ctx->stack_handed[ctx->stack_handed_next++ % N_HANDED] = p;
}

void ucsan_cold_stack_handed(const void *arg)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	if (own_stack(ctx, arg)) {
		share_stack(ctx, (uintptr_t)arg);
		return;
	}
	/* The argument's own block, if it is one: its first words, as the
	 * creator just wrote them. Read safely: a block record torn by a
	 * concurrent malloc may give another block's size. */
	size_t n = ucsan_heap_block_size((uintptr_t)arg);
	uintptr_t words[CAPTURES_SCAN / sizeof(uintptr_t)];
	n = n ? ucsan_read_memory_upto(arg, words, n < sizeof(words) ? n : sizeof(words)) : 0;
	for (size_t i = 0; i < n / sizeof(uintptr_t); i++)
		if (own_stack(ctx, (const void *)words[i]))
			share_stack(ctx, words[i]);
}

/* In the part of its stack the thread handed to threads it made? */
static bool stack_handed(const struct ucsan_ctx *ctx, const volatile void *ptr)
{
	for (size_t i = 0; i < N_HANDED; i++)
		if (ctx->stack_handed[i] && (uintptr_t)ptr - ctx->stack_handed[i] < (uintptr_t)ucsan_opts.cold_handed_span)
			return true;
	return false;
}

/* Is ptr on the calling thread's own stack, where its cold sites watch
 * nothing? */
static bool own_stack_unwatched(const struct ucsan_ctx *ctx, const volatile void *ptr, int type)
{
	if (!own_stack(ctx, ptr))
		return false;
	if (!(type & UCSAN_ACCESS_WRITE))
		return !ucsan_opts.cold_own_stack_reads;
	return !ucsan_opts.cold_own_stack_stores && !stack_handed(ctx, ptr);
}

/*
 * A heap block the thread allocated since its last release is its own:
 * no other thread can have its address yet (handing it over takes a
 * release -- an unlock, a pthread_create, a release store -- or a store of
 * the pointer that is itself a race, watched where it is made). So its
 * accesses there are not cold-watched (cold_fresh_blocks); with that off,
 * its stores there are watched like a read (cold_fresh_stores_wait): a
 * thread filling in a new buffer must not park the others, whose accesses
 * are the ones that can race. The latest few such blocks.
 */
#define N_FRESH (sizeof(((struct ucsan_ctx *)0)->fresh) / sizeof(((struct ucsan_ctx *)0)->fresh[0]))

void ucsan_cold_block_new(uintptr_t start, size_t size)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	const unsigned i = ctx->nfresh++ % N_FRESH;
	ctx->fresh[i].lo = start;
	ctx->fresh[i].hi = start + size;
}

/* Freed, the memory may soon be another thread's new block. */
void ucsan_cold_block_gone(uintptr_t start)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	for (size_t i = 0; i < N_FRESH && i < ctx->nfresh; i++)
		if (ctx->fresh[i].lo == start)
			ctx->fresh[i].hi = start;
}

static bool fresh_block(const struct ucsan_ctx *ctx, const volatile void *ptr)
{
	for (size_t i = 0; i < N_FRESH && i < ctx->nfresh; i++)
		if ((uintptr_t)ptr - ctx->fresh[i].lo < ctx->fresh[i].hi - ctx->fresh[i].lo)
			return true;
	return false;
}

/* A fresh block's access that no watch could use. Under weak_memory a
 * store there is one: filling in an object before its pointer is
 * published is what a missing release lets another thread see late, and
 * only a watched store is kept in flight to be met (weak_memory.c). */
static bool fresh_unwatched(const struct ucsan_ctx *ctx, const volatile void *ptr, int type)
{
	return fresh_block(ctx, ptr) && !(ucsan_opts.weak_memory && (type & UCSAN_ACCESS_WRITE));
}

/* Can another thread reach this access's memory at all? Not the thread's
 * own frames, its fresh heap blocks, or read-only data: the rules above,
 * for sampled watches too (core.c, special_path()). */
bool ucsan_access_private(const struct ucsan_ctx *ctx, const volatile void *ptr, int type)
{
	return own_stack_unwatched(ctx, ptr, type) || fresh_unwatched(ctx, ptr, type) ||
	       (!(type & UCSAN_ACCESS_WRITE) && ucsan_read_only(ptr));
}

/* The cold sites that count as just after a release. */
#define RELEASE_SITES 6

/* A cold stall's usual length. delay_randomize: from a quarter to twice
 * cold_udelay. Races differ in how long the other side takes to arrive,
 * and a run's stalls should not all miss the same way. */
static long cold_delay_us(struct ucsan_ctx *ctx)
{
	long us = ucsan_opts.cold_udelay;
	if (ucsan_opts.delay_randomize && us >= 4)
		us = us / 4 + (long)(ucsan_rand32(ctx) % (uint32_t)(us * 7 / 4));
	return us;
}

/* A store to a variable another thread polls between sleeps: watched a
 * period and a quarter at least, so that the poller wakes within the watch
 * (cold_polls.c), and at most cold_release_wait_us. */
static long poll_stretched_us(struct ucsan_ctx *ctx, const volatile void *ptr, size_t size, long us, uint64_t now)
{
	const long period = (long)ucsan_cold_poll_period(ptr, size, ctx->tid, now);
	if (!period)
		return us;
	long stretched = period + period / 4 + 50;
	if (stretched > (long)ucsan_opts.cold_release_wait_us)
		stretched = (long)ucsan_opts.cold_release_wait_us;
	return stretched > us ? stretched : us;
}

static void note_unpublished(struct ucsan_ctx *ctx, const volatile void *ptr, size_t size, int type, uintptr_t ip);

/*
 * Threads started together run the same code, but stalls pull them
 * apart: the one that reaches the store at the end of its work first --
 * the total a reduction adds to, a statistic, a reference dropped --
 * stalls there while the other is still at work, and the stall ends
 * before the other comes. A thread that began at the same site as this
 * one (the same thread function: each table keeps its owner's first
 * site), has not run the store's site yet and is not waiting for
 * another thread (idle in a pool's condition wait, say) is likely to
 * come: the store's stall waits for it to get there, or to end or wait
 * (cold_same_code_us). Not for a store into the thread's own argument's
 * object when the other was given another: each stores into its own (a
 * job's result in the job it was handed).
 */
static void same_code_behind(struct ucsan_ctx *ctx, const uint8_t *table, uint16_t index, const volatile void *ptr)
{
	ctx->waited_table = ucsan_opts.cold_same_code_us > 0 ? ucsan_sites_behind(table, index, (uintptr_t)ptr) : NULL;
	ctx->waited_site = index;
}

/* The sampler thread pointed this thread's hot path at the all-cold
 * table (the time floor, core.c): its own table back, and a sample if
 * its period has run its time. An access at a site the thread is done
 * with is then only counted (it may be the first of the pick). */
static bool take_nudge(struct ucsan_ctx *ctx, const volatile void *ptr, size_t size, int type, uintptr_t ip)
{
	atomic_store_explicit(&ctx->nudged, false, memory_order_relaxed);
	ucsan_ctx_set_sites(ctx, ctx->sites);
	ucsan_sample_nudged(ctx);
	if (ucsan_ctx_sites(ctx)[site_index(ip)] != SITE_WARM)
		return false;
	count_access(ctx, ptr, size, type, ip, true);
	return true;
}

NOINLINE void ucsan_cold_site(const volatile void *ptr, size_t size, int type, uintptr_t ip)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	if (unlikely(atomic_load_explicit(&ctx->nudged, memory_order_acquire)) && take_nudge(ctx, ptr, size, type, ip))
		return;
	/* A special thread comes here for every plain access (its hot path
	 * reads the all-cold table): at a site it is done with, only
	 * counted, as its own table would have had it. */
	if ((ctx->special || !ctx->time_sampled) && ucsan_ctx_sites(ctx)[site_index(ip)] == SITE_WARM) {
		if (!ctx->special)
			ucsan_youth_access(ctx);
		count_access(ctx, ptr, size, type, ip, true);
		return;
	}
	/* A store waiting for its publication does not age while the
	 * thread stalls at the accesses in between. */
	const uint64_t t0 = ctx->unpublished.ptr ? ucsan_now_ns() : 0;
	UCSAN_KEEP_ERRNO(cold_site(ptr, size, type, ip));
	if (t0 && ctx->unpublished.ptr)
		ctx->unpublished.ns += ucsan_now_ns() - t0;
	note_unpublished(ctx, ptr, size, type, ip);
}

/* === Refills ===
 *
 * A thread that receives into a buffer, hands it to another thread (a job
 * queued under a lock) and receives again into the same buffer at the same
 * call site -- an I/O thread's per-connection buffer, parsed in place by a
 * worker -- races with that worker's reads of the previous contents. The
 * receive's site is cold only its first time, though, when nobody holds the
 * buffer yet; the refill, the store that races, runs at a warm site (clang
 * often rotates such a loop, so that its first call and the others are two
 * sites; gcc keeps one). So a receive to the address its site stored to
 * before, with a release of the thread's (ctx->release_seq) in between, is
 * cold-watched once more, past the process's limit on the site's watches.
 * Once per buffer and site: a server's later refills are the sampler's. The
 * latest few (site, buffer) pairs are kept, in the runtime's own TLS. The
 * receives are system calls: the look here costs nothing beside them.
 */
#define REFILL_PAIRS 4
static __thread struct {
	uintptr_t ip, addr;
	uint32_t release_seq;
	bool done;
} refills[REFILL_PAIRS];
static __thread unsigned refill_next;
static __thread int refilling = -1; /* the pair being watched again, or -1 */
static __thread bool refill_watched;

void ucsan_cold_refill(const void *p, uintptr_t ip)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	if (!ucsan_opts.cold_refills || !ucsan_opts.cold_watches || !ctx->initialized || ctx->signal_depth ||
	    ctx->disable_count)
		return;
	for (int i = 0; i < REFILL_PAIRS; i++) {
		if (refills[i].ip != ip || refills[i].addr != (uintptr_t)p)
			continue;
		if (!refills[i].done && refills[i].release_seq != ctx->release_seq) {
			uint8_t *const table = ucsan_ctx_sites(ctx);
			if (table != ucsan_sites_cold && table != ucsan_sites_warm) {
				uint8_t *const site = &table[site_index(ip)];
				if (*site == SITE_WARM)
					*site = 0;
				refilling = i;
				refill_watched = false;
			}
		}
		refills[i].release_seq = ctx->release_seq;
		return;
	}
	const unsigned i = refill_next++ % REFILL_PAIRS;
	refills[i].ip = ip;
	refills[i].addr = (uintptr_t)p;
	refills[i].release_seq = ctx->release_seq;
	refills[i].done = false;
}

void ucsan_cold_refill_end(void)
{
	if (refilling < 0)
		return;
	/* Watched: done with. Not (no turn, no budget, cut short): the
	 * next refill may try again. */
	if (refill_watched)
		refills[refilling].done = true;
	refilling = -1;
}

static void cold_site(const volatile void *ptr, size_t size, int type, uintptr_t ip)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	if (unlikely(!ctx->initialized))
		ucsan_thread_first_entry(ctx);
	uint8_t *const table = ucsan_ctx_sites(ctx);
	const uint16_t index = (uint16_t)site_index(ip);
	uint8_t *site = &table[index];
	ucsan_sites_first(table, index, ctx->thread_arg);
	if (table == ucsan_sites_cold || table == ucsan_sites_warm) {
		/* No table (the thread started inside the runtime), or the
		 * shared all-warm one (read-only): counted. */
		count_access(ctx, ptr, size, type, ip, true);
		return;
	}
	/* Runtime-internal: neither watched nor done with. */
	if (ctx->disable_count || ctx->signal_depth) {
		count_access(ctx, ptr, size, type, ip, true);
		return;
	}
	/* Checking is off (enabled=0, ucsan_set_enabled(0)): done with, or every
	 * access of the site would come here while it is off. */
	if (!atomic_load_explicit(&ucsan_enabled, memory_order_relaxed)) {
		*site = SITE_WARM;
		count_access(ctx, ptr, size, type, ip, true);
		return;
	}
	/* An access to the thread's own live frames: its locals, which
	 * another thread can only reach through a pointer it was given, and
	 * then that thread's access, to a stack not its own, is watched.
	 * Stalling here would only pull the threads apart; done with, parked
	 * or not -- but for stores to what it handed to a thread it made. */
	if (own_stack_unwatched(ctx, ptr, type)) {
		*site = SITE_WARM;
		count_access(ctx, ptr, size, type, ip, true);
		return;
	}
	/* A heap block the thread allocated since its last release: no other
	 * thread can have its address yet, so a stall there meets nothing. It
	 * would only spend the budget and hold the thread back from the
	 * accesses that can race (a vector growing into a new buffer copies
	 * each element through sites of its own). Done with, as for the
	 * thread's own frames (not a store under weak_memory: above). */
	if (ucsan_opts.cold_fresh_blocks && fresh_unwatched(ctx, ptr, type)) {
		*site = SITE_WARM;
		count_access(ctx, ptr, size, type, ip, true);
		return;
	}
	/* A read of memory nothing can write -- a string literal, a table
	 * of constants, a static const array of pointers (RELRO) -- cannot
	 * race: done with, without a stall that would only keep this
	 * thread's next, shared reads from being watched. */
	if (!(type & UCSAN_ACCESS_WRITE) && ucsan_read_only(ptr)) {
		*site = SITE_WARM;
		count_access(ctx, ptr, size, type, ip, true);
		return;
	}
	/* Parked: the site waits until the stall that took over ends. A
	 * parked thread runs on, and meets that watchpoint if it races; only
	 * the store of a check-then-set is watched, beside that stall, and
	 * the test of a locked initialisation takes the stage from it. */
	const uint64_t refilled = (type & UCSAN_ACCESS_WRITE) ? 0 : refilled_read(ctx, ptr, size);
	bool beside = false;
	if (ctx->cold_parked && !refilled) {
		const uint32_t seq = atomic_load_explicit(&cold_seq, memory_order_relaxed);
		if (seq == ctx->cold_parked &&
		    ((type & UCSAN_ACCESS_WRITE) || !tests_locked_init(ctx->locks_held > 0, (uintptr_t)ptr, seq))) {
			beside = watch_beside(ctx, ptr, type);
			if (!beside) {
				if (!parked_release_store_waits(ctx, ptr, type)) {
					park_site(ctx, site);
					count_access(ctx, ptr, size, type, ip, true);
					return;
				}
				unpark(ctx);
			}
		} else {
			unpark(ctx);
		}
	}
	/* The site polled first after a sleep, met again: a loop. Its
	 * woke_loop_left-th visit is watched too, as a poll. */
	bool loop_visit = false;
	if (ctx->woke_loop_left && index == ctx->woke_loop_site) {
		if (--ctx->woke_loop_left > 0) {
			count_access(ctx, ptr, size, type, ip, true);
			return;
		}
		loop_visit = true;
	}
	/* Just after a release? Counted in the sites that follow it. */
	if (ctx->released) {
		ctx->release_word = ctx->released;
		ctx->released = 0;
		ctx->release_sites = RELEASE_SITES;
	}
	const bool after_release = ctx->release_sites > 0;
	if (after_release)
		ctx->release_sites--;
	const bool after_sleep = ctx->woke_sites > 0;
	if (after_sleep)
		ctx->woke_sites--;
	const bool is_write = (type & UCSAN_ACCESS_WRITE) != 0;
	const bool poll_read = (after_sleep || loop_visit) && !is_write; /* a read just after a sleep */
	const bool handed_read = start_read(ctx, ptr, is_write);
	long us = cold_delay_us(ctx);
	/* A read just after a sleep -- a poll -- may watch about as long as
	 * the thread slept (at most cold_release_wait_us): the store it
	 * races with comes once per period of the other side. */
	if (poll_read && (long)ctx->woke_us > us)
		us = (long)ctx->woke_us;
	if (refilled && (long)ucsan_opts.cold_release_wait_us > us)
		us = (long)ucsan_opts.cold_release_wait_us;
	const uint64_t now = ucsan_now_ns();
	if (poll_read)
		ucsan_cold_poll_note(ptr, size, ctx->woke_us, ctx->tid, now);
	else if (is_write && ucsan_opts.cold_poll_stores)
		us = poll_stretched_us(ctx, ptr, size, us, now);
	const int times = (int)ucsan_opts.cold_watches;
	/* Done with the site, and counted like any access: while the thread
	 * is alone, or has annotation state (whose accesses the special path
	 * handles), and for accesses that count as marked. */
	if (times <= 0 || ucsan_ctx_annotated(ctx) || treated_as_marked(ptr, size, type, true) || ucsan_single_threaded()) {
		*site = SITE_WARM;
		count_access(ctx, ptr, size, type, ip, true);
		return;
	}
	/* Every other thread waits for a wake-up only another thread can hand
	 * out (a join, an untimed condition or semaphore wait), and none was
	 * handed out since: no access can meet the watch while this thread
	 * stalls. Done with, at no cost: a pool's setup while its workers
	 * idle. */
	if (ucsan_opts.cold_skip_blocked &&
	    ucsan_sites_others_blocked(table, atomic_load_explicit(&ucsan_live_threads, memory_order_relaxed) - 1)) {
		*site = SITE_WARM;
		count_access(ctx, ptr, size, type, ip, true);
		return;
	}
	/* No budget left: done with for now, and counted. The thread's
	 * sites all turn cold again once there is budget (see
	 * ucsan_cold_refresh()): hot code must not pay for the cold path
	 * on every access meanwhile. */
	struct ucsan_cold_budget *const budget =
		ucsan_cold_budget_for(ctx, now, after_release && is_write, poll_read, has_slept && is_write);
	if (!budget) {
		*site = SITE_WARM;
		ctx->cold_starved = true;
		count_access(ctx, ptr, size, type, ip, true);
		return;
	}
	_Atomic uint8_t *const everyone = process_site(ip);
	const int limit = (int)ucsan_opts.cold_site_limit;
	const uint8_t others = atomic_load_explicit(everyone, memory_order_relaxed);
	if (limit > 0 && others >= (limit < 255 ? limit : 255) && !poll_read && refilling < 0 && !refilled) {
		*site = SITE_WARM;
		count_access(ctx, ptr, size, type, ip, true);
		return;
	}
	const uint8_t before = *site;
	/* A store to the thread's own locals (cold_own_stack_stores=1) waits
	 * its turn like a read: stopping the others for every timespec filled
	 * in before a sleep only held back the accesses that race. A store to
	 * what it handed to a thread it made is a store to shared memory, and
	 * takes the stage: that thread must meet it, not cut it short (an
	 * object that starts its thread in its constructor, then sets a
	 * field the thread reads first). A woken thread's store paid from
	 * its own process budget waits too (cold_budget.c). */
	const bool takes_stage = is_write && !ucsan_cold_budget_waits_turn(budget) &&
				 !(ucsan_opts.cold_stack_stores_wait && own_stack(ctx, ptr) && !stack_handed(ctx, ptr)) &&
				 !(ucsan_opts.cold_fresh_stores_wait && fresh_block(ctx, ptr));
	const bool locked = ctx->locks_held > 0;
	/* A poll of the flag of a relaxed publication whose stall is on is
	 * watched beside that stall rather than refused: the stall waits
	 * milliseconds for a thread to take the flag (an atomic access), and
	 * a poller that reads the flag plainly -- a progress counter bumped
	 * with a relaxed add after each result's store -- is the race, yet
	 * never the taker. (Other polls still wait: a reader's scan while
	 * the index is built must not stall past the publication.) */
	bool beside_publish = false;
	if (poll_read && ucsan_opts.cold_polls_beside_publish && !beside) {
		const uint32_t cur = atomic_load(&cold_seq);
		const uintptr_t flag = atomic_load(&cold_publish_word);
		if ((cur & 1) && cur == atomic_load(&cold_publish_seq) &&
		    ((uintptr_t)ptr - flag < sizeof(long) || flag - (uintptr_t)ptr < size)) {
			beside_publish = true;
			ctx->cold_parked = cur;
		}
	}
	if (!beside && !beside_publish && !refilled &&
	    !take_turn(takes_stage, !(before & SITE_RETRY), locked,
		       poll_read || (handed_read && !atomic_load(&cold_locked_reads)), (uintptr_t)ptr, size, now,
		       &ctx->cold_turn)) {
		count_access(ctx, ptr, size, type, ip, true);
		return;
	}
	const int watched = (before & SITE_COUNT) + 1;
	*site = watched >= times ? SITE_WARM : (uint8_t)((before & SITE_RETRY) | watched);
	ctx->cold_stalled_ns = 0;
	/* Claimed while it is watched: the threads that come by meanwhile
	 * run it as a warm site, so they catch up with the watcher instead
	 * of stalling beside it. A watch that did not happen, or was cut
	 * short, gives the claim back. */
	const bool claimed = others < 255;
	if (claimed)
		atomic_fetch_add_explicit(everyone, 1, memory_order_relaxed);
	/* A read (or a store to its own stack) just after a release leaves
	 * the other threads' reads free to watch: the thread that takes what
	 * was released reads next, and this thread's store after its read
	 * is what that watch meets. */
	const bool holds_reads = !(after_release && !takes_stage && ucsan_opts.cold_release_wait_us > 0) && !refilled;
	if (holds_reads)
		atomic_fetch_add(&cold_stalls, 1);
	const bool unlocked_read = !is_write && !locked;
	if (unlocked_read) {
		atomic_store(&cold_unlocked_read_addr, (uintptr_t)ptr);
		atomic_fetch_add(&cold_unlocked_reads, 1);
	}
	const bool locked_read = !is_write && locked;
	if (locked_read) {
		atomic_store(&cold_locked_read_addr, (uintptr_t)ptr);
		atomic_fetch_add(&cold_locked_reads, 1);
	}
	/* A stall beside lasts at most five times its own (see
	 * ucsan_cold_stall()). */
	const uint64_t beside_until = beside ? now + 5 * (uint64_t)us * 1000 : 0;
	if (beside)
		atomic_store(&cold_beside_until, beside_until);
	ctx->cold_beside = beside || beside_publish || refilled;
	refill_watch = refilled != 0;
	arg_refilled &= ~refilled;
	ctx->cold_wake = COLD_WAKE_NONE;
	if (after_release && !ctx->cold_beside && ucsan_opts.cold_release_wait_us > 0)
		ctx->cold_wake = takes_stage ? COLD_WAKE_STORE : COLD_WAKE_READ;
	if (is_write) {
		same_code_behind(ctx, table, index, ptr);
		ctx->wait_creator = true;
	}
	const bool watched_now = ucsan_watch(ctx, ptr, size, type, ip, us, true);
	ctx->waited_table = NULL;
	ctx->wait_creator = false;
	ctx->cold_beside = false;
	refill_watch = false;
	ctx->cold_wake = COLD_WAKE_NONE;
	if (holds_reads)
		stalls_done(&cold_stalls);
	if (unlocked_read)
		stalls_done(&cold_unlocked_reads);
	if (locked_read)
		stalls_done(&cold_locked_reads);
	if (beside) {
		uint64_t mine = beside_until;
		atomic_compare_exchange_strong(&cold_beside_until, &mine, 0);
	}
	if (!beside && !beside_publish && !refilled)
		end_turn(ctx->cold_turn);
	if (claimed && (!watched_now || ctx->cold_preempted))
		atomic_fetch_sub_explicit(everyone, 1, memory_order_relaxed);
	if (!watched_now) {
		*site = before;
		count_access(ctx, ptr, size, type, ip, true);
		return;
	}
	/* The first read polled after the sleep: if the thread comes back
	 * to it before the next sleep, one of its next WOKE_LOOP_VISITS
	 * visits is watched too (a watchdog's scan of its workers' stamps
	 * reads one element per visit, and the first is seldom the one being
	 * written). */
	if (poll_read && !loop_visit && !ctx->woke_loop_left) {
		ctx->woke_loop_site = index;
		ctx->woke_loop_left = (uint8_t)(1 + ucsan_rand32(ctx) % WOKE_LOOP_VISITS);
		*site = before;
	}
	/* A refill's watch cut short by another's is tried again. */
	if (refilling >= 0 && !ctx->cold_preempted)
		refill_watched = true;
	ucsan_cold_charge(ctx, budget);
	/* Cut short by another thread's cold watch: watched again later. */
	if (ctx->cold_preempted) {
		ctx->cold_preempted = false;
		*site = before | SITE_RETRY;
	}
}

/* === Relaxed publication ===
 *
 * A plain store handed over by a relaxed atomic store after it (a "ready"
 * flag, a ring's index, stored relaxed "since x86 keeps stores in order")
 * is a data race with the reader that takes the flag and reads the data:
 * nothing orders the two. It is never concurrent in time, though -- the
 * reader comes only once the flag is set -- so a watch before the store
 * cannot meet it. So the thread's last plain store at a cold site is kept
 * (the thread is special meanwhile, so that it sees its next accesses)
 * until a release of its own (ucsan_release_point()), another store, or a
 * few reads follow it; a relaxed store or read-modify-write soon after it
 * watches that store once more, as if it were still in flight, with a
 * stall that waits for the flag's taker. Only an access by a thread that
 * had taken the flag (an atomic access to it during the stall) is
 * reported. A publication the runtime cannot see -- an unlock in inline
 * asm, a barrier inside an uninstrumented library -- has the program's
 * stores between the two (the rest of its critical section), or is
 * between threads that do not take the flag before the data; and a
 * process with an OpenMP runtime, whose fork and barriers are such
 * publications between the very accesses of its parallel regions, keeps
 * nothing.
 */

/* A relaxed store later than this after the plain one publishes something
 * else (a counter bumped at the end of the job). */
#define UNPUBLISHED_NS 200000

static void note_unpublished(struct ucsan_ctx *ctx, const volatile void *ptr, size_t size, int type, uintptr_t ip)
{
	if (!(type & UCSAN_ACCESS_WRITE) || (type & (UCSAN_ACCESS_ATOMIC | UCSAN_ACCESS_ASSERT)) ||
	    !ucsan_opts.cold_relaxed_stores || !ctx->initialized || ctx->disable_count || ctx->signal_depth ||
	    ucsan_ctx_annotated(ctx) || own_stack(ctx, ptr) || ucsan_single_threaded() || ucsan_omp_present())
		return;
	ctx->unpublished.ptr = ptr;
	ctx->unpublished.size = size;
	ctx->unpublished.ip = ip;
	ctx->unpublished.ns = ucsan_now_ns();
	ctx->unpublished.reads = 0;
	ucsan_ctx_update_special(ctx);
}

/* Reads between the store and the flag, the pointer to the flag's object
 * reloaded, say; a store to memory not its own stack is something else
 * being done, which may be the publication in a form the runtime does not
 * see (an unlock in inline asm). */
#define UNPUBLISHED_READS 8

void ucsan_cold_unpublished_access(struct ucsan_ctx *ctx, const volatile void *ptr, int type)
{
	if (ctx->unpublished.ptr && !ctx->disable_count) {
		const bool other_store = (type & UCSAN_ACCESS_WRITE) && !(type & UCSAN_ACCESS_ATOMIC) &&
					 !own_stack(ctx, ptr);
		if (other_store || ++ctx->unpublished.reads > UNPUBLISHED_READS)
			ctx->unpublished.ptr = NULL;
	}
	if (!ctx->unpublished.ptr)
		ucsan_ctx_update_special(ctx);
}

bool ucsan_cold_took_flag(void)
{
	return (atomic_load(&cold_takers) & own_tid_bit()) != 0;
}

bool ucsan_cold_report_allowed(bool took)
{
	return !ucsan_ctx_tls.publish_word || took;
}

static void relaxed_store(const volatile void *word, size_t word_size)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	const volatile void *const ptr = ctx->unpublished.ptr;
	const size_t size = ctx->unpublished.size;
	const uintptr_t ip = ctx->unpublished.ip;
	ctx->unpublished.ptr = NULL;
	ucsan_ctx_update_special(ctx);
	if (ctx->disable_count || ctx->signal_depth || ucsan_ctx_annotated(ctx) || ucsan_single_threaded() ||
	    !atomic_load_explicit(&ucsan_enabled, memory_order_relaxed))
		return;
	/* The flag itself, or a store the flag lies in (not a variable
	 * that merely sits next to it). */
	if ((uintptr_t)word < (uintptr_t)ptr + size && (uintptr_t)ptr < (uintptr_t)word + word_size)
		return;
	const uint64_t now = ucsan_now_ns();
	if (now - ctx->unpublished.ns > UNPUBLISHED_NS)
		return;
	struct ucsan_cold_budget *const budget = ucsan_cold_budget_for(ctx, now, true, false, false);
	if (!budget || !take_turn(true, true, ctx->locks_held > 0, false, (uintptr_t)ptr, size, now, &ctx->cold_turn))
		return;
	const long us = cold_delay_us(ctx);
	const uintptr_t release_word = ctx->release_word;
	ctx->release_word = (uintptr_t)word;
	ctx->publish_word = (uintptr_t)word;
	/* Waits for the taker (at most cold_release_wait_us, or its usual
	 * time if that is longer), and notes who takes the flag meanwhile. */
	ctx->cold_wake = COLD_WAKE_STORE;
	ctx->cold_stalled_ns = 0;
	atomic_fetch_add(&cold_stalls, 1);
	atomic_store(&cold_publish_word, (uintptr_t)word);
	atomic_store(&cold_publish_seq, ctx->cold_turn);
	/* Scoped: a store performed already, which only an access from
	 * another thread can reveal (no value to compare). */
	ucsan_watch(ctx, ptr, size, UCSAN_ACCESS_WRITE | UCSAN_ACCESS_SCOPED, ip, us, true);
	uint32_t turn = ctx->cold_turn;
	atomic_compare_exchange_strong(&cold_publish_seq, &turn, 0);
	stalls_done(&cold_stalls);
	end_turn(ctx->cold_turn);
	ctx->cold_wake = COLD_WAKE_NONE;
	ctx->publish_word = 0;
	ctx->release_word = release_word;
	ctx->cold_preempted = false;
	ucsan_cold_charge(ctx, budget);
}

NOINLINE void ucsan_cold_relaxed_store(const volatile void *word, size_t size)
{
	UCSAN_KEEP_ERRNO(relaxed_store(word, size));
}

/* Called now and then (on sampled watches): a thread whose budget ran
 * out, and now has some again, takes its sites as new once more. */
void ucsan_cold_refresh(struct ucsan_ctx *ctx)
{
	if (!ucsan_cold_budget_left(ctx, ucsan_now_ns()))
		return;
	ctx->cold_starved = false;
	ucsan_sites_reset(ctx);
}

void ucsan_cold_thread_start(struct ucsan_ctx *ctx, const void *arg, uint64_t refilled)
{
	ctx->thread_arg = (uintptr_t)arg;
	arg_refilled = refilled;
	ctx->creator_info = NULL;
	ctx->start_sites = (int)ucsan_opts.cold_start_reads;
	const uint32_t seq = atomic_load(&cold_seq);
	ctx->cold_born_seq = (seq & 1) ? seq : 2;
}

void ucsan_sites_attach(struct ucsan_ctx *ctx)
{
	uint8_t *t = ucsan_sites_take();
	ucsan_ctx_set_sites(ctx, t ? t : ucsan_sites_warm);
	ucsan_nudge_enlist(ctx);
	/* A thread started during a write stall -- its creator's store
	 * just after pthread_create, likely -- runs parked: it meets that
	 * watchpoint instead of cutting it short. Started, not first here:
	 * a stall begun since is not its creator's. */
	uint32_t seq = atomic_load(&cold_seq);
	if (ctx->cold_born_seq && ctx->cold_born_seq != seq)
		seq = 0;
	if (seq & 1) {
		ctx->cold_parked = seq;
		ctx->cold_born_parked = true;
	}
}

void ucsan_sites_release(struct ucsan_ctx *ctx)
{
	unpark(ctx);
	uint8_t *t = ucsan_ctx_sites(ctx);
	ucsan_nudge_delist(ctx);
	/* No nudge reaches it now: its stores count again. */
	ctx->time_sampled = false;
	ucsan_ctx_set_sites(ctx, ucsan_sites_warm);
	if (t != ucsan_sites_warm && t != ucsan_sites_cold)
		ucsan_sites_give_back(t);
}

/* The child has the forking thread only: the other threads' tables are
 * free again. */
void ucsan_sites_after_fork(void)
{
	/* Its own table back first: that is the one to keep. */
	unpark(&ucsan_ctx_tls);
	ucsan_sites_pool_after_fork(ucsan_ctx_sites(&ucsan_ctx_tls));
	ucsan_nudge_list_after_fork(&ucsan_ctx_tls);
	/* Its stores count again until the child's own sampler runs and a
	 * new period begins. */
	ucsan_ctx_tls.time_sampled = false;
	ucsan_ctx_set_sites(&ucsan_ctx_tls, ucsan_ctx_tls.sites);
	ucsan_ctx_tls.disable_count++;
	ucsan_cold_polls_after_fork();
	/* A new process: its threads watch each site afresh, and no stall
	 * of a thread that did not come along holds the stage. */
	memset((void *)process_site_watches, 0, sizeof(process_site_watches));
	atomic_store(&cold_seq, 0);
	atomic_store(&cold_stage_seq, 0);
	atomic_store(&cold_stalls, 0);
	atomic_store(&cold_unlocked_reads, 0);
	atomic_store(&cold_locked_reads, 0);
	atomic_store(&cold_waiting_seq, 0);
	atomic_store(&cold_beside_until, 0);
	atomic_store(&cold_publish_seq, 0);
	atomic_store(&ucsan_cold_wake_word, 0);
	ucsan_ctx_tls.disable_count--;
}
