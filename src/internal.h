/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The contract between the runtime's files: per-thread context, global
 * state, access types, counters, and the slow-path and report interfaces.
 */
#ifndef UCSAN_INTERNAL_H
#define UCSAN_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <errno.h>
#include <stdint.h>

#include <limits.h>
#include <pthread.h>

#define UCSAN_BUILDING_RUNTIME 1
#include "../include/ucsan.h"
#include "encoding.h"
#include "options.h"
#include "platform.h"

#if defined(UCSAN_ENTRY_BITCODE)
/* As LLVM bitcode (entry/entry_lto.c), for clang -flto: the linker inlines
 * them at each access, where they take the access's pc (check.h). */
#define UCSAN_EXPORT __attribute__((visibility("default"), section("ucsan_entry_text"), always_inline, used))
#elif defined(UCSAN_ENTRY_OBJECT)
/* In a program (ucsan-entry.o), the entry points share one section, whose
 * bounds (__start_/__stop_ucsan_entry_text) tell report stacks to leave
 * their frames out, as they leave out the runtime's. */
#define UCSAN_EXPORT __attribute__((visibility("default"), section("ucsan_entry_text")))
#else
#define UCSAN_EXPORT __attribute__((visibility("default")))
#endif
/* Reached from an executable's own entry points (entry.c): exported, but
 * not API. Data so marked is the executable's copy when it has one. */
#define UCSAN_FOR_ENTRY __attribute__((visibility("default")))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#define NOINLINE __attribute__((noinline))

/*
 * The runtime never changes what the program sees, errno included: a stall
 * that times out on a futex, a report that opens a file, would otherwise
 * hand the thread an errno of their own. Every way from an entry point into
 * code that may make a system call goes through this.
 */
/* An interposer's next definition (dlsym RTLD_NEXT), resolved once:
 * real_NAME, and get_NAME() to read it (NULL until dlsym has answered). */
#define REAL(name, type, ...)                                                          \
	static type (*real_##name)(__VA_ARGS__);                                       \
	static type (*get_##name(void))(__VA_ARGS__)                                   \
	{                                                                              \
		if (!__atomic_load_n(&real_##name, __ATOMIC_ACQUIRE))                  \
			__atomic_store_n(&real_##name, dlsym(RTLD_NEXT, #name),        \
					 __ATOMIC_RELEASE);                            \
		return __atomic_load_n(&real_##name, __ATOMIC_ACQUIRE);                \
	}

#define UCSAN_KEEP_ERRNO(stmt)                  \
	do {                                    \
		const int saved_errno_ = errno; \
		stmt;                           \
		errno = saved_errno_;           \
	} while (0)

#define UCSAN_MAX_WATCHPOINTS 4096

/* Access types (UCSAN_ACCESS_*) are the public ones, from ucsan.h. */

/* === Code sites ===
 * A site is the return address of an entry-point call, hashed into one of
 * UCSAN_SITES buckets. Calls are at least five bytes apart, so dropping
 * two low bits keeps 16 KiB of consecutive code free of collisions. */
#define UCSAN_SITE_BITS 12
#define UCSAN_SITES (1u << UCSAN_SITE_BITS)
#define SITE_WARM 0xff
/* (internal, with include/ucsan.h's UCSAN_ACCESS_*) A read libc makes for
 * the program (strlen, strcmp): checked and counted, but never a cold
 * site's watch; the writer's watch is what it meets. */
#define UCSAN_ACCESS_NO_COLD 0x40
/* (internal) An access watched again while its thread blocks
 * (held_watches.c): made before the call, so the report shows it where it
 * was made. */
#define UCSAN_ACCESS_HELD 0x80
static inline size_t site_index(uintptr_t pc)
{
	return (size_t)(pc >> 2) & (UCSAN_SITES - 1);
}
/* Every site cold; never written. */
UCSAN_FOR_ENTRY extern const uint8_t ucsan_sites_cold[UCSAN_SITES];

/* The countdown's lanes: eight, one cache line of the context. */
#define UCSAN_LANES 8
static inline size_t site_lane(uintptr_t pc)
{
	return site_index(pc) & (UCSAN_LANES - 1);
}

/* === Per-thread context === */
struct ucsan_ctx {
	/* Accesses to skip before the next watchpoint, in lanes: an access
	 * counts in the lane of its code site (site_lane()), so that the
	 * accesses of a loop do not all wait on one counter's store. Their
	 * sum is the countdown; a lane that runs out asks the slow path for
	 * credit from the others (core.c, lanes_refill()), and only the sum
	 * running out samples. Only the out-of-line checks count: a thread
	 * comes out of line for every access while its stores count (its
	 * first countdowns, or fixed sampling), and once the time floor
	 * samples it (time_sampled) nothing counts. */
	long lanes[UCSAN_LANES];
	/* > 0: this thread checks nothing (runtime-internal work such as
	 * reporting, or a user-disabled region). */
	int disable_count;
	bool initialized;
	int tid;
	uint32_t index;  /* creation order: reproducible per-thread seeds */
	uint64_t rng;    /* xorshift state */
	/* The watchpoint this thread has set, while it stalls: its own
	 * signal handlers must not consume it unless interrupt_watcher=1. */
	_Atomic(uint64_t) *watching;
	int signal_depth; /* > 0 while running a handler (signals.c's trampoline) */

	/* Annotation state (slow path only). While any of it is set the
	 * thread is "special": every lane is parked at UCSAN_SPECIAL_SKIP and
	 * the hot path reads the all-cold site table (hot_sites), so every
	 * access reaches the slow path, and the real countdown lives in
	 * saved_skip. See ucsan_ctx_update_special(). */
	bool special;
	/* The countdown ran out at a store: the sample falls a few accesses
	 * later, reads counted too, out of line (core.c, pick_sample()). */
	bool picking;
	/* The pick was started by a nudge (core.c, ucsan_sample_nudged()):
	 * marked accesses count towards it too, and what the store count had
	 * left waits in pick_saved_skip. */
	bool time_pick;
	long pick_saved_skip;
	bool in_flat_atomic;
	bool in_scoped_check;
	int atomic_nest_count;
	int atomic_next;
	unsigned long access_mask;
	struct ucsan_scoped_access *scoped; /* innermost first */
	long saved_skip;

	/* weak_memory: the last watched plain access, still "in flight" as if
	 * the CPU had buffered it (size 0: none), and the function depth it
	 * belongs to; func_depth is kept by __tsan_func_entry/exit. */
	struct {
		const volatile void *ptr;
		size_t size;
		int type;
		uintptr_t ip;
		int depth;
	} reorder;
	int func_depth;

	/* overhead_budget: when the current sampling period started, and how
	 * many plain accesses it was set to skip. */
	uint64_t period_start_ns;
	long period_skip;
	/* The time floor (core.c, sampler.c): the CPU time a period may last
	 * before the thread is nudged into a sample, the monotonic time the
	 * period began, and not before when (monotonic) the sampler thread
	 * nudges it -- written by the thread, read by the sampler. */
	uint64_t time_gap_ns;
	uint64_t period_wall_ns;
	_Atomic uint64_t nudge_after_ns;
	long lane_given[UCSAN_LANES]; /* each lane's credit when last handed out */
	long lane_used[UCSAN_LANES];  /* and what each used lately (core.c) */
	/* The countdown's last few accesses, counted one by one in the slow
	 * path while every lane is 0 (core.c, lanes_refill()). */
	long lanes_tail;
	int periods; /* sampling periods begun so far (saturates) */
	int countdowns_run; /* countdowns run out so far (saturates) */
	uint32_t youth_accesses; /* accesses out of line while its stores count (core.c) */
	uint64_t report_ns; /* time the last watch spent reporting: not a watch cost */

	/* Cold sites (cold_sites.c): when this thread's cold-site budget
	 * started to accrue, and how much of it its stalls have used. */
	uint64_t cold_start_ns;  /* when the bucket was last filled */
	int64_t cold_tokens_ns;  /* stall time the bucket holds */
	/* The cold stall that took over from this thread's (its number), while
	 * it lasts: this thread's cold sites wait their turn meanwhile. */
	uint32_t cold_parked;
	bool cold_preempted; /* the last cold stall was taken over */
	bool cold_starved;   /* sites were let go for want of budget */
	uint32_t cold_turn;  /* the number of this thread's cold stall */
	bool cold_beside;    /* it stalls beside a write stall that parked it */
	bool cold_born_parked; /* parked since it started: watches nothing */
	/* The write stall on when it started (odd), 2 if none, 0 if not
	 * known (a thread not started through pthread_create). */
	uint32_t cold_born_seq;
	/* The argument it was started with (pthread_create's), or 0. */
	uintptr_t thread_arg;
	/* Its creator's record, and how many of its first cold sites may
	 * still read what the creator handed it beside others' read stalls
	 * (cold_start_reads). */
	const struct ucsan_thread_info *creator_info;
	int start_sites;
	/* What it read at new sites while parked, latest last: a store
	 * there (a flag tested, then set) is watched beside the stall. */
	uintptr_t parked_reads[4];
	/* Sites it met while parked, warm until the stall ends (site index
	 * << 8 | the byte to restore); past as many, the thread runs on the
	 * all-warm table, its own kept in parked_sites (not NULL). */
	uint32_t parked_warmed[16];
	int parked_nwarmed;
	const uint8_t *parked_sites;
	/* While its cold store stalls: the table of a thread that runs the
	 * same code behind it, and the store's site (cold_sites.c,
	 * same_code_behind()); and whether it waits for its creator to wake. */
	const uint8_t *waited_table;
	uint16_t waited_site;
	bool wait_creator;
	/* pthread locks the thread holds (barriers.c counts them): a read
	 * made under one is no unlocked check. */
	int locks_held;
	/* The word its last release published (an unlocked mutex, a flag
	 * stored with release order), until its cold path takes it
	 * (cold_sites.c); then that word and how many more cold sites count
	 * as just after it. */
	uintptr_t released;
	uintptr_t release_word;
	int release_sites;
	int woke_sites;     /* cold sites left that a sleep's end made cold */
	uint32_t woke_us;   /* how long that sleep was (capped) */
	/* What its stall just after a release waits for (cold_sites.c):
	 * COLD_WAKE_STORE, that word's taker and then its usual time;
	 * COLD_WAKE_READ, its usual time or the taker, whichever comes first. */
	uint8_t cold_wake;
	/* The first site polled after that sleep, watched again on its
	 * woke_loop_left-th visit since (a loop over an array reads a new
	 * element each time), 0: none. In the padding: the layout the entry
	 * points see is unchanged. */
	uint8_t woke_loop_left;
	uint16_t woke_loop_site;
	uint64_t cold_stalled_ns; /* how long the last cold stall lasted */
	/* A value check left for this thread's next runtime entry (report.c's
	 * deferred value checks), or NULL. */
	struct ucsan_value_check *value_check;
	/* The thread's last plain store at a cold site, while no release of
	 * its own has followed it (ptr NULL: none), and when it was made: a
	 * relaxed atomic store soon after may be what hands it to another
	 * thread, unordered (cold_sites.c, ucsan_cold_relaxed_store()). */
	struct {
		const volatile void *ptr;
		size_t size;
		uintptr_t ip;
		uint64_t ns;
		int reads; /* plain reads and marked accesses since */
	} unpublished;
	/* While that store is watched: the word the relaxed store wrote. */
	uintptr_t publish_word;

	/* The thread's code-site table (cold_sites.c): one byte per bucket
	 * (site_index()), how often the thread has had the site watched,
	 * SITE_WARM once it is done with it. The TLS image starts every
	 * thread on the all-cold table (hot_state.c), so its first access
	 * takes the cold path, which sets it up with a table of its own. (A
	 * pointer in TLS, not the table: a library loaded by dlopen has only
	 * a few hundred bytes of static TLS to live in.) hot_sites is what
	 * the hot path reads: the same table, or the all-cold one while the
	 * thread is special (ucsan_ctx_set_sites()). */
	const uint8_t *sites;
	const uint8_t *hot_sites;
	/* Set by the sampler thread with hot_sites pointed at the all-cold
	 * table: ucsan_ctx_nudge(). */
	_Atomic bool nudged;
	/* The sampler thread's nudges alone pick this thread's samples: its
	 * stores are not counted (check.h). Set once its first countdowns
	 * are over, where the time floor runs and its nudges reach the
	 * thread (core.c, time_sampled_update()). */
	bool time_sampled;
	/* Its entry in the sampler's list of the threads it nudges, plus
	 * one (nudge_list.c); 0: none (the list was full). */
	int nudge_entry;
	/* This thread's record in thread_info.c, for reports. */
	struct ucsan_thread_info *thread_info;
	/* Where in its own stack it handed something to threads it created,
	 * the latest few (cold_sites.c, ucsan_cold_stack_handed()); 0: none.
	 * Its stores near them are cold-watched, its other stack stores not. */
	uintptr_t stack_handed[4];
	unsigned stack_handed_next;
	/* Heap blocks it allocated since its last release, the latest few
	 * (cold_sites.c): no other thread can reach them yet. nfresh counts
	 * them; a release sets it to 0. */
	struct {
		uintptr_t lo, hi;
	} fresh[4];
	unsigned nfresh;
	/* Releases this thread has made (ucsan_release_point()): an access
	 * watched before the latest one may no longer be held (held_watches.c). */
	uint32_t release_seq;
};

/* Far below any real countdown, so the hot path's "--lane < 0" always
 * fires and marked accesses can test "lanes[0] < UCSAN_SPECIAL_THRESHOLD". */
#define UCSAN_SPECIAL_SKIP (LONG_MIN / 2)
#define UCSAN_SPECIAL_THRESHOLD (LONG_MIN / 4)

#ifdef UCSAN_ENTRY_OBJECT
/* In an executable (ucsan-entry.o): one %fs-relative access. */
#define UCSAN_CTX_TLS_MODEL "local-exec"
#else
#define UCSAN_CTX_TLS_MODEL "initial-exec"
#endif
UCSAN_FOR_ENTRY extern __thread struct ucsan_ctx ucsan_ctx_tls __attribute__((tls_model(UCSAN_CTX_TLS_MODEL)));

/* === Global state === */
/* Which table words hold a watchpoint right now, folded to 64 bits (bit
 * i: some word with index i mod 64): the out-of-line check reads the table
 * only if a word of the access's window is marked. Written only on the
 * slow path. */
extern _Atomic uint64_t ucsan_armed;
/*
 * What the hot path tests (check_access()): gate, the number of
 * watchpoints armed, not 0 also while an option needs every access out of
 * line (ignore_atomics, assume_plain_writes_atomic), so that no access
 * tests an option on its way; and, while it is not 0, the bit of the
 * access's page in pages (core.c, gate_arm()), all ones for the options.
 * Defined in hot_state.c, as are ucsan_ctx_tls and
 * ucsan_sites_cold: an executable linked with ucsan-entry.o holds them
 * (see entry.c), and the runtime's own references resolve to its copy.
 */
struct ucsan_hot {
	_Atomic uint64_t gate;
	/* Read only while gate is not 0: a line of its own. */
	_Alignas(64) _Atomic uint64_t pages[UCSAN_GATE_PAGES / 64];
} __attribute__((aligned(64)));
UCSAN_FOR_ENTRY extern struct ucsan_hot ucsan_hot;
/* In the gate while the process has one thread (and interrupt_watcher=0):
 * nothing can race then, so an access returns at once, without counting.
 * The sign bit, which the hot path tests without a constant. */
#define GATE_ALONE (1ULL << 63)
static inline bool gate_alone(uint64_t gate)
{
	return (int64_t)gate < 0;
}
void ucsan_gate_init(void);
/* skip_watch=0 with fixed sampling: reads are counted too (out of line). */
extern bool ucsan_count_reads;
/* Sets or clears GATE_ALONE (after ucsan_gate_init()); threads.c calls it
 * whenever the number of threads may have crossed one. */
void ucsan_gate_set_alone(bool alone);
/* Process-wide switch (option `enabled`, ucsan_set_enabled()). */
extern _Atomic bool ucsan_enabled;
extern size_t ucsan_nslots;
extern _Atomic(uint64_t) ucsan_watchpoints[UCSAN_MAX_WATCHPOINTS + UCSAN_NUM_SLOTS - 1];
/* The words of ucsan_watchpoints (and report slots) a watch can use: the
 * windows of ucsan_nslots slots (64 by default), not the room for 4096.
 * Walking only these leaves the rest untouched: a read of a page never
 * written still counts in the resident set. */
static inline size_t ucsan_slots_in_use(void)
{
	return ucsan_nslots + UCSAN_NUM_SLOTS - 1;
}

/* === Counters (print_stats) === */
enum ucsan_counter {
	CTR_USED_WATCHPOINTS,   /* set right now */
	CTR_SETUP_WATCHPOINTS,  /* ever set */
	CTR_DATA_RACES,         /* conflicting accesses seen by a consumer */
	CTR_ASSERT_FAILURES,
	CTR_NO_CAPACITY,        /* wanted to watch, table window full */
	CTR_REPORT_RACES,       /* races whose watcher had already left */
	CTR_RACES_UNKNOWN_ORIGIN,
	CTR_UNENCODABLE_ACCESSES,
	CTR_ENCODING_FALSE_POSITIVES,
	CTR_REPORTS_PRINTED,
	CTR_REPORTS_SUPPRESSED, /* rate-limited or filtered by value change */
	CTR_RACES_SUPPRESSED,   /* matched by suppressions / filter_mode */
	CTR_SLEEPING_WATCHES,   /* sampled watches that slept (sample_sleep_us) */
	CTR_HELD_WATCHES,       /* accesses watched through a blocking call (watch_through_waits) */
	CTR_COUNT
};
extern _Atomic long ucsan_counters[CTR_COUNT];
extern const char *const ucsan_counter_names[CTR_COUNT];
static inline void ucsan_counter_add(enum ucsan_counter c, long v)
{
	atomic_fetch_add_explicit(&ucsan_counters[c], v, memory_order_relaxed);
}

/* === Engine slow paths (core.c) === */
/* A thread's first runtime entry: identity, seed, first sample count. */
void ucsan_thread_first_entry(struct ucsan_ctx *ctx);
/* The calling thread's context for an API call, set up on first use. */
struct ucsan_ctx *ucsan_api_ctx(void);
/* Watches one access: sets the watchpoint, stalls `us` microseconds
 * (sleeping if `sleep`, so the other threads have the CPU), reports.
 * Returns false if nothing was watched. */
bool ucsan_watch(struct ucsan_ctx *ctx, const volatile void *ptr, size_t size, int type, uintptr_t ip, long us,
		 bool sleep);
/* A blocking call of the program's, made by its interposer through
 * ucsan_wait() (held_watches.c): run() makes the real call; its result and
 * the errno it left come back in ret and err. */
struct ucsan_wait_call {
	long (*run)(struct ucsan_wait_call *call);
	long ret;
	int err;
	bool ran;
	const pthread_mutex_t *mutex; /* a pthread_mutex_lock's, else NULL */
};
long ucsan_wait(struct ucsan_wait_call *call);
/* A plain access whose watch met nothing (core.c; a store's `before`:
 * the value it writes over): it may be held through a blocking call that
 * follows. */
struct ucsan_value;
void ucsan_held_note(const volatile void *ptr, size_t size, int type, uintptr_t ip, const struct ucsan_value *before);
/* The stack of the access being held, for its report (report.c). */
int ucsan_held_stack(uintptr_t *pcs, int max);
/* Does the calling thread own the mutex a held watch waits for? Only
 * its access may meet that watch (core.c, consume_watchpoint()). */
bool ucsan_held_lock_owner(const pthread_mutex_t *m);
/* Watches the access while the call runs, without blocking signals (a
 * store's value judged against `before`); false if it could not, and the
 * call has not run. */
bool ucsan_watch_through_call(const volatile void *ptr, size_t size, int type, uintptr_t ip,
			      const struct ucsan_value *before, struct ucsan_wait_call *call);
/* A plain access at a site this thread has not finished with (check.h). */
UCSAN_FOR_ENTRY NOINLINE void ucsan_cold_site(const volatile void *ptr, size_t size, int type, uintptr_t ip);
/* A cold watch's stall: sleeps up to `us`, less if the watchpoint is
 * consumed or another thread's cold watch takes over. */
void ucsan_cold_stall(struct ucsan_ctx *ctx, _Atomic(uint64_t) *wp, long us);
/* The word whose taker ends a cold stall that waits for it (a lock or a
 * flag the stalling thread just released), 0 while none waits; and what
 * the lock and atomic paths call when they touch it. */
extern _Atomic uintptr_t ucsan_cold_wake_word;
enum { COLD_WAKE_NONE, COLD_WAKE_STORE, COLD_WAKE_READ };
void ucsan_cold_woken(uintptr_t word);
static inline void ucsan_cold_taken(const volatile void *word)
{
	if (unlikely((uintptr_t)word == atomic_load_explicit(&ucsan_cold_wake_word, memory_order_relaxed)))
		ucsan_cold_woken((uintptr_t)word);
}
/* Has the calling thread taken the flag of the relaxed publication being
 * watched (ucsan_cold_taken())? And may the watcher report an access made
 * by a thread that had (`took`) or had not: only if it had, when the watch
 * is of such a publication. */
bool ucsan_cold_took_flag(void);
bool ucsan_cold_report_allowed(bool took);
/* A page held in the gate while its word is waited for (core.c). */
void ucsan_gate_hold(uintptr_t addr);
void ucsan_gate_let_go(uintptr_t addr);
/* The sampler thread, now and then: the gate forgets the pages of watches
 * whose stall should have ended a while ago (a watcher preempted in it). */
void ucsan_gate_expire(uint64_t now);
/* The calling thread hands arg to a thread it creates: what of its own
 * stack that shares. */
void ucsan_cold_stack_handed(const void *arg);
/* A thread begins (its start trampoline): the write stall then on, and
 * the argument it was given. */
void ucsan_cold_thread_start(struct ucsan_ctx *ctx, const void *arg, uint64_t refilled);
uint64_t ucsan_cold_arg_handed(const void *arg);
/* Every site of this thread becomes cold again. */
void ucsan_sites_reset(struct ucsan_ctx *ctx);
/* A thread that let sites go for want of budget, once it has some again. */
void ucsan_cold_refresh(struct ucsan_ctx *ctx);
/* A parked thread, once the stall that parked it is over: its sites cold
 * again and its own table back (the slow path asks, now and then). */
void ucsan_cold_parked_poll(struct ucsan_ctx *ctx);
/* The same for the calling thread, where it returns from a wait
 * (wakeups.c, barriers.c): no slow-path entry may come for a while.
 * Called from interposers after the real call: errno is kept. */
void ucsan_cold_wakeup(void);
/* Memory no other thread can reach yet (cold_sites.c): neither cold
 * sites nor samples watch it. */
bool ucsan_access_private(const struct ucsan_ctx *ctx, const volatile void *ptr, int type);
/* Every thread in a cold stall looks at its watchpoint now. */
void ucsan_cold_wake_stalls(void);
/* The calling thread is back from a sleep of `ns`: a thread that sleeps
 * between rounds (a heartbeat, a poller, a watchdog) runs each round's
 * sites as new, as far as its budget allows. errno is kept. */
void ucsan_cold_slept(uint64_t ns);
/* A receive stored into the program at p from the call at ip: a refill of
 * a buffer handed over since may be cold-watched again (cold_sites.c).
 * ucsan_cold_refill_end() after its check. */
void ucsan_cold_refill(const void *p, uintptr_t ip);
void ucsan_cold_refill_end(void);
/* Polled variables (cold_polls.c): a read just after a sleep of
 * period_us by thread tid; the longest period another thread than tid
 * polls [ptr, ptr + size) with, lately (0: none); a forked child's
 * table emptied. */
void ucsan_cold_poll_note(const volatile void *ptr, size_t size, uint32_t period_us, int tid, uint64_t now);
uint32_t ucsan_cold_poll_period(const volatile void *ptr, size_t size, int tid, uint64_t now);
void ucsan_cold_polls_after_fork(void);
/* The site tables (site_tables.c): the one every site is warm in
 * (read-only, shared), one of the pool's for a new thread (NULL: none
 * left) and back, zeroed; after fork, the pool holds the calling thread's
 * table only. */
extern const uint8_t ucsan_sites_warm[UCSAN_SITES];
uint8_t *ucsan_sites_take(void);
void ucsan_sites_give_back(uint8_t *t);
void ucsan_sites_pool_after_fork(const uint8_t *mine);
/* The first site the owner of table t ran and its thread argument (noted
 * once), and the table of another thread that began at the same site --
 * the same thread function -- and has not run `site` yet, to store at
 * addr (NULL: none; also where addr is in the caller's own argument's
 * object and that thread was given another: each stores in its own). */
void ucsan_sites_first(const uint8_t *t, uint16_t site, uintptr_t arg);
const uint8_t *ucsan_sites_behind(const uint8_t *mine, uint16_t site, uintptr_t addr);
/* Is the pool's table t still some thread's, not in a wait only another
 * thread can end? And the calling thread enters or leaves such a wait (a
 * join, an untimed condition or semaphore wait). */
bool ucsan_sites_running(const uint8_t *t);
void ucsan_sites_waiting(bool waiting);
/* A wake-up was handed out (a signal, a post, a thread's end); and is each
 * of the `others` threads besides the owner of `mine` in such a wait, none
 * woken since it began? Then no access of theirs can meet a watch. */
void ucsan_sites_wake_call(void);
bool ucsan_sites_others_blocked(const uint8_t *mine, int others);
/* What cold stalls may cost (cold_budget.c): is there budget for the
 * thread now; the budget a cold watch draws on (NULL: none), for a store
 * just after a release, a read just after a sleep and a store by a thread
 * that sleeps, which have process budgets of their own once the first is
 * spent, and whether a watch paid from it waits its turn like a read; a
 * stall of ctx->cold_stalled_ns paid from it; and is there budget for the
 * reads after a sleep. */
struct ucsan_cold_budget;
bool ucsan_cold_budget_left(struct ucsan_ctx *ctx, uint64_t now);
struct ucsan_cold_budget *ucsan_cold_budget_for(struct ucsan_ctx *ctx, uint64_t now, bool release_store,
						bool poll_read, bool woke_store);
bool ucsan_cold_budget_waits_turn(const struct ucsan_cold_budget *budget);
void ucsan_cold_charge(struct ucsan_ctx *ctx, struct ucsan_cold_budget *budget);
bool ucsan_cold_woke_budget_left(uint64_t now);
/* The thread's site table: set up at its first entry, released at exit
 * (from then on every site is warm for it). */
void ucsan_sites_attach(struct ucsan_ctx *ctx);
void ucsan_sites_release(struct ucsan_ctx *ctx);
void ucsan_sites_after_fork(void);
/* The calling thread allocated a heap block, or freed one. */
void ucsan_cold_block_new(uintptr_t start, size_t size);
void ucsan_cold_block_gone(uintptr_t start);
static inline uint8_t *ucsan_ctx_sites(const struct ucsan_ctx *ctx)
{
	/* Only a table of the pool is ever written through it. */
	return (uint8_t *)(uintptr_t)ctx->sites;
}
static inline void ucsan_ctx_set_sites(struct ucsan_ctx *ctx, const uint8_t *t)
{
	ctx->sites = t;
	/* The sampler thread may store to it too (ucsan_ctx_nudge()). A
	 * thread whose stores count (not time-sampled) comes out of line for
	 * every access, and counts there. */
	__atomic_store_n(&ctx->hot_sites, ctx->special || !ctx->time_sampled ? ucsan_sites_cold : t,
			 __ATOMIC_RELAXED);
}
/* From the sampler thread: the thread's next plain access comes out of
 * line (cold_sites.c), where it takes the nudge. */
static inline void ucsan_ctx_nudge(struct ucsan_ctx *ctx)
{
	__atomic_store_n(&ctx->hot_sites, ucsan_sites_cold, __ATOMIC_RELAXED);
	atomic_store_explicit(&ctx->nudged, true, memory_order_release);
}
/* The time floor (sampler.c): the sampler thread, started with the
 * program's first thread where the sampling adapts to the budget; a
 * forked child starts its own. Is it running? Then the samples of a
 * thread it nudges (listed, below) can be left to it. */
void ucsan_sampler_start(void);
void ucsan_sampler_after_fork(void);
bool ucsan_sampler_running(void);
/* The threads the sampler nudges (nudge_list.c): a thread is listed and
 * unlisted by itself, and says when it blocks in a wait another thread
 * must end; the sampler nudges those due; after fork, only the calling
 * thread is left. */
void ucsan_nudge_enlist(struct ucsan_ctx *ctx);
void ucsan_nudge_delist(struct ucsan_ctx *ctx);
bool ucsan_nudge_listed(const struct ucsan_ctx *ctx);
void ucsan_nudge_waiting(const struct ucsan_ctx *ctx, bool waiting);
void ucsan_nudge_listed_due(uint64_t now);
void ucsan_nudge_list_after_fork(struct ucsan_ctx *self);
/* A nudged thread (cold_sites.c): a sample if its period has run its
 * time (core.c). */
void ucsan_sample_nudged(struct ucsan_ctx *ctx);
/* An access of a thread whose stores count, made out of line at a site it
 * is done with: the thread's first countdowns end after enough of them
 * too, where it stores little (core.c). */
void ucsan_youth_access(struct ucsan_ctx *ctx);
bool ucsan_time_floor_on(void);

/* The memory of the objects loaded at start-up (segments.c): their
 * static variables, and what can never be written. */
void ucsan_segments_init(void);
bool ucsan_static_data(const volatile void *ptr);
bool ucsan_read_only(const volatile void *ptr);

/* A pick's access: notes its page with the thread, and says whether
 * the page was first seen now, has seen this thread only, or others too
 * (page_owners.c). */
enum ucsan_page_seen { PAGE_FIRST_SEEN, PAGE_ONLY_MINE, PAGE_SHARED };
enum ucsan_page_seen ucsan_page_seen(const struct ucsan_ctx *ctx, const volatile void *ptr);

/* === Who the threads are (thread_info.c), what memory is (location.c) === */
#define UCSAN_CREATE_STACK 8
enum { THREAD_FREE, THREAD_FILLING, THREAD_RUNNING, THREAD_ENDED };
struct ucsan_thread_info {
	_Atomic int state; /* THREAD_* */
	int tid, creator;  /* creator 0: the process's first thread */
	uintptr_t tp;      /* pthread_self(): the thread pointer */
	uintptr_t stack_lo, stack_hi;
	int npcs;          /* where pthread_create was called */
	uintptr_t pcs[UCSAN_CREATE_STACK];
	char name[16];     /* kept when the thread ends */
	_Atomic uint64_t sleep_until; /* in a sleep until then (ns), else 0 */
	_Atomic bool waiting; /* in a wait only another thread can end */
};
/* The calling thread's OpenMP thread number inside a parallel region, else
 * -1; ucsan_omp_init() finds the OpenMP runtime at start-up. */
void ucsan_omp_init(void);
int ucsan_omp_thread(void);
/* Has the process an OpenMP runtime (found at start-up)? */
bool ucsan_omp_present(void);
void ucsan_thread_info_register(int creator, const uintptr_t *pcs, int npcs);
void ucsan_thread_info_ended(void);
void ucsan_thread_info_after_fork(void);
const struct ucsan_thread_info *ucsan_thread_info_find(int tid);
const struct ucsan_thread_info *ucsan_thread_info_at(int i);
int ucsan_thread_info_max(void);
void ucsan_thread_name(const struct ucsan_thread_info *t, char *buf, size_t len);
/* The calling thread sleeps until `until` (ns; 0: it woke). */
void ucsan_thread_info_sleep(uint64_t until);
/* The calling thread is (or is no longer) in a wait only another thread
 * can end: a join, an untimed condition or semaphore wait. */
void ucsan_thread_info_waiting(bool waiting);
/* The record of the calling thread's creator, if it has one. */
const struct ucsan_thread_info *ucsan_thread_info_creator(void);
/* When the sleep the calling thread's creator is in ends, if after now
 * and by `by`; else 0. */
uint64_t ucsan_thread_info_creator_wakes(uint64_t now, uint64_t by);
/* The live heap blocks (heap_blocks.c), recorded by the interposed
 * allocation functions (intercept_malloc.c). */
#define UCSAN_HEAP_STACK 6
struct ucsan_heap_block {
	uintptr_t start;
	size_t size;
	int tid; /* the allocating thread */
	int npcs;
	uintptr_t pcs[UCSAN_HEAP_STACK]; /* heap_stacks: where */
};
/* Finds the C++ runtime's operator new (intercept_malloc.c). */
void ucsan_malloc_init(void);
void ucsan_heap_block_add(uintptr_t start, size_t size, const uintptr_t *pcs, int npcs);
void ucsan_heap_block_remove(uintptr_t start);
/* The size of the recorded block that starts at start (0: none): one
 * bucket looked at. */
size_t ucsan_heap_block_size(uintptr_t start);
/* Whether the table holds a block starting at start, and its size. */
bool ucsan_heap_block_lookup(uintptr_t start, size_t *size);
/* The recorded block holding addr. Scans the whole table: report time only. */
bool ucsan_heap_block_find(uintptr_t addr, struct ucsan_heap_block *out);

/* What the memory at addr is: the kind, and what is known of it. */
enum ucsan_location_kind { LOC_UNMAPPED, LOC_GLOBAL, LOC_TLS, LOC_STACK, LOC_HEAP, LOC_ANON, LOC_SPECIAL, LOC_FILE };
struct ucsan_location {
	enum ucsan_location_kind kind;
	char name[128];   /* the variable (global, TLS), if known */
	char module[256]; /* a global's module, a mapping's file or [name] */
	char perms[5];    /* a mapping's */
	uintptr_t start;  /* the variable, the stack or the mapping */
	size_t size;
	int tid;          /* TLS and stack: the owner */
	char decl_file[256]; /* a global's declaration, from DWARF ("" if unknown) */
	int decl_line;
	char frame[128];     /* LOC_STACK: the function whose local it is ("" if unknown) */
	bool heap_block;     /* LOC_HEAP/LOC_ANON: block is a recorded heap block */
	struct ucsan_heap_block block;
};
void ucsan_locate(uintptr_t addr, struct ucsan_location *loc);

/* A report as TSan's inspection API shows it (tsan_report_api.c). */
struct ucsan_report_mop {
	int tid, size, write, atomic, npcs;
	uintptr_t addr;
	uintptr_t pcs[UCSAN_CREATE_STACK * 2];
};
struct ucsan_report_thread {
	int tid, known, running, parent, npcs; /* known: has a thread record */
	char name[32];
	uintptr_t pcs[UCSAN_CREATE_STACK];
};
struct ucsan_report_desc {
	const char *description;
	int nmops, nthreads;
	struct ucsan_report_mop mops[2];
	struct ucsan_location loc;
	struct ucsan_report_thread threads[2];
};
/* Runs the program's __tsan_on_report() with desc as the current report. */
void ucsan_tsan_on_report(const struct ucsan_report_desc *desc);
/* One line: what the memory at addr is ("global 'x' of size 8 at +0x0 in
 * prog", "stack of thread N", ...). */
void ucsan_describe_location(char *buf, size_t len, uintptr_t addr);
/* A file name as reports show it (strip_path_prefix, or relative to the
 * directory the program started in). */
const char *ucsan_display_path(const char *file);
void ucsan_format_location(char *buf, size_t len, uintptr_t addr, const struct ucsan_location *loc);

/* === Threads (threads.c) === */
/* Threads alive now, counted from pthread_create to thread exit. With one
 * (and no handler allowed to interrupt a watch), nothing can race. */
extern _Atomic int ucsan_live_threads;
static inline bool ucsan_single_threaded(void)
{
	return atomic_load_explicit(&ucsan_live_threads, memory_order_relaxed) <= 1;
}
void ucsan_threads_after_fork(void);
/* pthread_create(), or with c11_start instead of start, thrd_create()
 * (c11_threads.c): the thread is counted and named, and starts in ours. */
int ucsan_thread_create(pthread_t *t, const pthread_attr_t *a, void *(*start)(void *), int (*c11_start)(void *),
			void *arg);
/* Brings the gate's GATE_ALONE in line with the number of threads and of
 * threads with annotation state (whose accesses must reach the slow path
 * even alone: an atomic_next count, a deferred value check); the latter
 * told by ucsan_ctx_update_special(). */
void ucsan_threads_alone_update(void);
void ucsan_threads_special_changed(bool special);
/* Runs start(arg) in a thread libc made itself (sigev_threads.c), counted
 * and named as if pthread_create() had made it in `creator` at pcs. */
void ucsan_thread_run_foreign(void *(*start)(void *), void *arg, int creator, const uintptr_t *pcs, int npcs);
/* A thread libc starts for the program and keeps until exit, past the
 * interposer (the helper that starts SIGEV_THREAD notifications): from now
 * on the process is never alone. One bit per kind. */
enum { HIDDEN_TIMER_HELPER = 1, HIDDEN_MQ_HELPER = 2 };
void ucsan_threads_add_hidden(unsigned kind);


NOINLINE void ucsan_found_watchpoint(const volatile void *ptr, size_t size, int type, uintptr_t ip,
				     _Atomic(uint64_t) *wp, uint64_t encoded);
UCSAN_FOR_ENTRY NOINLINE void ucsan_slow_path(const volatile void *ptr, size_t size, int type, uintptr_t ip);
/* check_access() while something is watched (check.h). */
UCSAN_FOR_ENTRY NOINLINE void ucsan_check_armed(const volatile void *ptr, size_t size, int type, uintptr_t ip);
/* A marked access by a special thread: only its scoped checks to run. */
UCSAN_FOR_ENTRY NOINLINE void ucsan_special_marked(void);
/* Called once by an executable's entry points (entry.c), which must share
 * the runtime's state: dies if they do not. */
UCSAN_FOR_ENTRY void ucsan_entry_attach(struct ucsan_ctx *ctx, struct ucsan_hot *hot, const uint8_t *sites_cold,
					const void *text_start, const void *text_end, unsigned abi);
/* How many executables' entry points attached (0 or 1), for tests. */
UCSAN_EXPORT int __ucsan_debug_entry_attached(void);
#define UCSAN_ENTRY_ABI 23
/* Enter or leave special mode after annotation state changed (or a store
 * began or stopped waiting for its publication: cold_sites.c). */
void ucsan_ctx_update_special(struct ucsan_ctx *ctx);
/* Does the thread have annotation state? */
static inline bool ucsan_ctx_annotated(const struct ucsan_ctx *ctx)
{
	return ctx->atomic_nest_count > 0 || ctx->in_flat_atomic || ctx->atomic_next > 0 || ctx->access_mask != 0 ||
	       ctx->scoped != NULL || ctx->reorder.size != 0 || ctx->value_check != NULL;
}
/* An access of a special thread while a store waits for its publication:
 * only reads may come between the two (cold_sites.c). */
void ucsan_cold_unpublished_access(struct ucsan_ctx *ctx, const volatile void *ptr, int type);
/* The thread's countdown to its next sampled access, wherever it is kept. */
long ucsan_ctx_countdown(const struct ucsan_ctx *ctx);
void ucsan_ctx_set_countdown(struct ucsan_ctx *ctx, long n);
void ucsan_countdown_threads_begin(struct ucsan_ctx *ctx);

/* === Weak memory (weak_memory.c) === */
enum ucsan_barrier {
	BARRIER_MB,      /* full barrier: retires any pending access */
	BARRIER_RELEASE, /* release: retires any pending access */
	BARRIER_WMB,     /* retires a pending write */
	BARRIER_RMB,     /* retires a pending read */
};
/* Set once __tsan_func_entry has run: the program has the hooks. */
extern bool func_hooks_seen;
/* A barrier (or an ordering operation) executed by this thread. */
UCSAN_FOR_ENTRY void ucsan_barrier(enum ucsan_barrier kind);
/* The thread's watched plain access stays in flight; checked again (the
 * slow paths call it on each later runtime entry). */
void ucsan_reorder_set(struct ucsan_ctx *ctx, const volatile void *ptr, size_t size, int type, uintptr_t ip);
void ucsan_reorder_check(struct ucsan_ctx *ctx);
/* __tsan_func_exit while a pending access belongs to the returning frame. */
NOINLINE void ucsan_reorder_func_exit(struct ucsan_ctx *ctx);
/* A release operation: retires the thread's pending access, if any. */
static inline void ucsan_release_point(void)
{
	if (unlikely(ucsan_ctx_tls.reorder.size != 0))
		ucsan_barrier(BARRIER_RELEASE);
	ucsan_ctx_tls.unpublished.ptr = NULL;
	ucsan_ctx_tls.nfresh = 0;
	ucsan_ctx_tls.release_seq++;
}
/* The memory order of an atomic operation, for the barrier it implies. */
static inline void ucsan_atomic_order(int mo)
{
	/* release, acq_rel, seq_cst (C11 values 3, 4, 5; flag bits above). */
	if ((mo & 0xff) >= 3)
		ucsan_release_point();
}
/* A store or read-modify-write that releases: what it published, for the
 * cold watch of the thread's next accesses (cold_sites.c). */
static inline void ucsan_atomic_publish(int mo, const volatile void *a)
{
	if ((mo & 0xff) >= 3) {
		ucsan_release_point();
		ucsan_ctx_tls.released = (uintptr_t)a;
	}
}
/* A store or read-modify-write performed that did not release (one that
 * did cleared `unpublished` before it ran): a plain store just before it
 * may have been handed over unordered (cold_sites.c). */
UCSAN_FOR_ENTRY NOINLINE void ucsan_cold_relaxed_store(const volatile void *word, size_t size);
static inline void ucsan_atomic_stored(const volatile void *a, size_t size)
{
	if (unlikely(ucsan_ctx_tls.unpublished.ptr != NULL))
		ucsan_cold_relaxed_store(a, size);
}
/* Checks any size, splitting what one watchpoint cannot encode. */
UCSAN_FOR_ENTRY void ucsan_check_range(const volatile void *ptr, size_t size, int type, uintptr_t ip);
void ucsan_ctx_init(struct ucsan_ctx *ctx);
void ucsan_reset_after_fork(void);
uint32_t ucsan_rand32(struct ucsan_ctx *ctx);

/* === Value-change tristate, as in the kernel === */
enum ucsan_value_change {
	VALUE_CHANGE_MAYBE,
	VALUE_CHANGE_TRUE,
	VALUE_CHANGE_FALSE,
};

/* The watched value, before and after the stall (up to 16 bytes). */
struct ucsan_value {
	uint64_t lo, hi;
};

/* Reads a 1/2/4/8/16-byte value without faulting; false for other sizes. */
bool ucsan_read_value(const volatile void *ptr, size_t size, struct ucsan_value *v);

/* permissive=1: is this observed change one the kernel's rules ignore? */
bool ucsan_ignore_value_change(size_t size, int type, struct ucsan_value old, struct ucsan_value new,
			       uint64_t diff);

/* === Reports (report.c) === */
/* Called by the thread that consumed a watchpoint: records its access and
 * stack for the watcher, which prints the report. */
void ucsan_report_set_info(const volatile void *ptr, size_t size, int type, uintptr_t ip, size_t slot,
			   bool in_signal);
/* Called by the watcher whose watchpoint was consumed. */
void ucsan_report_known_origin(const volatile void *ptr, size_t size, int type, uintptr_t ip,
			       enum ucsan_value_change vc, size_t slot, struct ucsan_value old,
			       struct ucsan_value new, unsigned long mask);
/* Called by the watcher that saw the value change with no consumer. */
void ucsan_report_unknown_origin(const volatile void *ptr, size_t size, int type, uintptr_t ip,
				 struct ucsan_value old, struct ucsan_value new, unsigned long mask);
void ucsan_report_reset_after_fork(void);
/* Judges the thread's deferred value check (see report.c), if its store
 * has landed or `final` (the thread or the process ends). */
void ucsan_value_check_run(struct ucsan_ctx *ctx, bool final);
void ucsan_report_fork_prepare(void);
void ucsan_report_fork_parent(void);
/* Reports made inside signal handlers, parked until it is safe to
 * symbolize: printed by ucsan_report_flush_deferred() outside handlers. */
extern _Atomic int ucsan_deferred_reports;
void ucsan_report_flush_deferred(void);
/* At exit: waits (bounded) until every watch another thread's access
 * consumed has been reported by its watcher. */
void ucsan_report_await_consumed(void);
/* At exit: summary line, stats, exit status. */
void ucsan_report_at_exit(void);
void ucsan_report_summary(void);
long ucsan_reports_printed(void);

/* === Suppressions (suppressions.c) === */
/* Loads suppressions=FILE; exits(1) with one line if it cannot. */
void ucsan_suppressions_init(void);
/* Does suppressions/filter_mode hide a race between these top frames
 * (other_frame 0: unknown origin)? Called under the report lock. */
bool ucsan_race_suppressed(uintptr_t this_frame, uintptr_t other_frame);
/* Parses suppressions text in place (for tests and fuzzers too). */
bool ucsan_suppressions_parse(char *buf, const char *name, char *err, size_t errlen);
void ucsan_suppressions_reset(void);
/* ThreadSanitizer-style pattern: * globs, ^ and $ anchors, else substring. */
bool ucsan_template_match(const char *pattern, const char *str);

/* === Output (output.c) === */
/* write(2) all of buf, retrying on EINTR/partial writes; never allocates. */
void ucsan_write_fd(int fd, const char *buf, size_t len);
/* Writes a whole report (or any runtime message) to the log destination. */
void ucsan_log_write(const char *buf, size_t len);
void ucsan_output_init(void);
/* Finds the program's __sanitizer_on_print(), after ucsan_malloc_init(). */
void ucsan_output_hooks_init(void);
/* Where reports go from now on, as the program asks at run time
 * (__sanitizer_set_report_path/fd); call under the report lock. */
void ucsan_output_set_path(const char *path);
/* The program's allocation hooks (allocator_api.c): how many are
 * installed, and running them for a block allocated or released. */
extern _Atomic int ucsan_alloc_hooks;
void ucsan_alloc_hooks_malloc(const void *p, size_t size);
void ucsan_alloc_hooks_free(const void *p);
/* Installs the program's own __sanitizer_malloc_hook/free_hook. */
void ucsan_alloc_hooks_init(void);
void ucsan_output_set_fd(int fd);
/* The PATH.PID reports go to, if a path was set at run time, else NULL. */
const char *ucsan_output_file(void);
/* Runs fn(arg) under the report lock (false: not taken in time). */
bool ucsan_report_locked(void (*fn)(void *), void *arg);
/* Prints a stack as reports print theirs, under the report lock. */
void ucsan_report_print_stack(const uintptr_t *pcs, int n);
/* Called right before the runtime ends the process (halt_on_error). */
extern void (*_Atomic ucsan_death_callback)(void);

/* === Stacks (stacktrace.c) === */
#define UCSAN_MAX_STACK 64
/* Captures return addresses of the caller's stack, runtime frames removed. */
int ucsan_stack_capture(uintptr_t *pcs, int max);
/* The frame of the calling thread that holds addr (a local variable): an
 * address inside its function, and its call frame address. */
bool ucsan_stack_frame_of(uintptr_t addr, uintptr_t *pc, uintptr_t *cfa);
bool ucsan_pc_in_runtime(uintptr_t pc);
/* The program's own entry points (ucsan-entry.o), runtime frames too. */
void ucsan_stacktrace_add_entry_text(uintptr_t start, uintptr_t end);

/* === ThreadSanitizer's interface (tsan_interface.c) === */
/* Does [addr, addr + size) overlap a range the program annotated with
 * AnnotateBenignRace[Sized]()? Lock-free; called by the report path. */
bool ucsan_benign_range(uintptr_t addr, size_t size);
/* Call the program's __tsan_on_initialize() / __tsan_on_finalize(failed)
 * if it defines them; the latter returns whether to exit as failed. */
void ucsan_tsan_on_initialize(void);
bool ucsan_tsan_on_finalize(bool failed);

/* === Signals (signals.c) === */
void ucsan_signals_init(void);

/* === Lifecycle (init.c) === */
void ucsan_init(void);
extern bool ucsan_initialized;

#endif /* UCSAN_INTERNAL_H */
