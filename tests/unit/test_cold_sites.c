// SPDX-License-Identifier: Apache-2.0
/*
 * Unit tests: the cold-site table (which accesses are watched the first
 * time a thread runs them) and the deferred value check (a write watch a
 * read consumed, judged once the write has landed). Linked with the
 * runtime's objects, driven through the entry points the compiler calls.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "range_checks.h"

void __tsan_read4(void *p);
void __tsan_write4(void *p);
void __tsan_read_write4(void *p);
void __tsan_atomic32_store(volatile int *a, int v, int mo);
int __tsan_atomic32_load(const volatile int *a, int mo);
int __tsan_atomic32_fetch_add(volatile int *a, int v, int mo);

/* Results are printed at the end: stdio may copy through the runtime's
 * memcpy, which is itself a code site. */
struct result {
	const char *name, *cond;
	int line;
	bool ok;
};
static struct result results[128];
static int nresults;

/* Field by field: a struct copy may become a memcpy call. */
static void record(const char *name, const char *cond, int line, bool ok)
{
	if (nresults == (int)(sizeof(results) / sizeof(results[0]))) {
		fprintf(stderr, "test_cold_sites: more checks than results[] holds\n");
		_exit(2);
	}
	struct result *r = &results[nresults++];
	r->name = name;
	r->cond = cond;
	r->line = line;
	r->ok = ok;
}
#define CHECK(name, cond) record(name, #cond, __LINE__, (cond))

static int print_results(void)
{
	int failures = 0;
	for (int i = 0; i < nresults; i++) {
		if (results[i].ok) {
			printf("PASS: unit/cold_sites/%s\n", results[i].name);
		} else {
			printf("FAIL: unit/cold_sites/%s\n  %s:%d: %s\n", results[i].name, __FILE__, results[i].line,
			       results[i].cond);
			failures++;
		}
	}
	return failures;
}


static int shared_a, shared_b, shared_c, shared_flag;
static _Atomic int reader_stop;

/*
 * Each call site below is one code site (not a tail call: the site is the
 * return address, which must stay inside these functions).  The padding
 * differs, or identical code folding would merge the sites.
 */
#define SITE(name, padding)                                                    \
	__attribute__((noinline)) static void name(int *p)                     \
	{                                                                      \
		__tsan_read4(p);                                               \
		__asm__ __volatile__(padding ::: "memory");                    \
	}
SITE(site_one, "")
SITE(site_two, "nop; nop")
SITE(site_three, "nop")
SITE(site_four, "nop; nop; nop")
SITE(site_five, "nop; nop; nop; nop")
SITE(site_six, "nop; nop; nop; nop; nop")
SITE(site_seven, "nop; nop; nop; nop; nop; nop")
#define SITE_CALL_READ(p) site_six(p)

static int warm_sites(void)
{
	int n = 0;
	for (unsigned i = 0; i < UCSAN_SITES; i++)
		n += ucsan_ctx_sites(&ucsan_ctx_tls)[i] == SITE_WARM;
	return n;
}

/* Cold watches only, in every thread: a sampled watch, due at a random
 * access, would move the global counters the checks compare, and so would
 * a watch held through the joins and sleeps the tests wait in
 * (test_held_watches.c has those). And watches also where no other thread
 * could meet them: most checks here have main wait in a join while the
 * thread they test stores alone (the skip is checked by itself, turned
 * on). A watch beside a write stall holds the other stores off for all
 * its length, as the checks that park threads expect: the hold's end is
 * checked by itself (beside_hold_ends_after_let_go). */
const char *__ucsan_default_options(void)
{
	return "overhead_budget=0:skip_watch=1000000000:cold_skip_blocked=0:watch_through_waits=0:cold_beside_hold_us=0";
}

static long watches(void)
{
	return atomic_load(&ucsan_counters[CTR_SETUP_WATCHPOINTS]);
}

/* Until some thread's watchpoint is set (10 s at most). */
static void wait_for_watch(void)
{
	for (int i = 0; i < 10000 && atomic_load(&ucsan_counters[CTR_USED_WATCHPOINTS]) == 0; i++)
		usleep(1000);
}

static _Atomic long reader_polls;

/* Polls the flag the way a worker polls a stop flag. */
static void *reader(void *arg)
{
	(void)arg;
	/* Its first access sets the thread up; from then on it samples
	 * nothing itself. Its own sampled watch of the flag would otherwise
	 * see the writer's store change the value, report that (at unknown
	 * origin), and be busy symbolizing while the writer's watch waits for
	 * it. */
	__tsan_read4(&shared_flag);
	ucsan_ctx_set_countdown(&ucsan_ctx_tls, LONG_MAX / 2);
	while (!atomic_load(&reader_stop)) {
		__tsan_read4(&shared_flag);
		(void)*(volatile int *)&shared_flag;
		atomic_fetch_add(&reader_polls, 1);
	}
	return NULL;
}

/* Stores to the flag, each from a code site of its own (the nops keep
 * identical code folding from merging them): a cold write site is watched
 * once, so each attempt needs a new one. */
#define WRITE_SITE(n)                                                                  \
	__attribute__((noinline)) static void write_site_##n(int *p, int v)            \
	{                                                                              \
		__tsan_write4(p);                                                      \
		*(volatile int *)p = v;                                                \
		__asm__ __volatile__(".rept " #n "\n\tnop\n\t.endr" ::: "memory");        \
	}
WRITE_SITE(1)
WRITE_SITE(2)
WRITE_SITE(3)
WRITE_SITE(4)
WRITE_SITE(5)
WRITE_SITE(6)
WRITE_SITE(7)
WRITE_SITE(8)
WRITE_SITE(9)
WRITE_SITE(10)
WRITE_SITE(11)
WRITE_SITE(12)
WRITE_SITE(13)
WRITE_SITE(14)
WRITE_SITE(15)
WRITE_SITE(16)
WRITE_SITE(17)
WRITE_SITE(18)
WRITE_SITE(19)
WRITE_SITE(20)
WRITE_SITE(21)
WRITE_SITE(22)
WRITE_SITE(23)
WRITE_SITE(24)
WRITE_SITE(25)
WRITE_SITE(26)
WRITE_SITE(27)
WRITE_SITE(28)
WRITE_SITE(29)
WRITE_SITE(30)
WRITE_SITE(31)
WRITE_SITE(32)
WRITE_SITE(33)
WRITE_SITE(34)
WRITE_SITE(35)
WRITE_SITE(36)
WRITE_SITE(37)
WRITE_SITE(38)
WRITE_SITE(39)
WRITE_SITE(40)
WRITE_SITE(41)
WRITE_SITE(42)
WRITE_SITE(43)
WRITE_SITE(44)
WRITE_SITE(45)
WRITE_SITE(46)
WRITE_SITE(47)
WRITE_SITE(48)
WRITE_SITE(49)
WRITE_SITE(50)
WRITE_SITE(51)
WRITE_SITE(52)
WRITE_SITE(53)
WRITE_SITE(54)
WRITE_SITE(55)
WRITE_SITE(56)
WRITE_SITE(57)
static void (*const write_sites[])(int *, int) = { write_site_1, write_site_2, write_site_3, write_site_4,
						   write_site_5, write_site_6, write_site_7, write_site_8 };

/* Runs a site main already watched, then a new one, counting watches. */
static void *second_runner(void *arg)
{
	long *seen = arg;
	long w = watches();
	site_two(&shared_b);
	seen[0] = watches() - w;
	seen[1] = warm_sites();
	w = watches();
	site_four(&shared_c);
	seen[2] = watches() - w;
	return NULL;
}

/*
 * A parked thread's unlocked check-then-set of a static flag: its read
 * stall is cut short by main's write stall, and the store it then makes
 * to a flag it tested while parked is watched beside main's stall.
 */
static int parked_flag;
static _Atomic int parked_phase;
static long parked_watches[2];

static void *parked_setter(void *arg)
{
	(void)arg;
	site_seven(&shared_a); /* a long read stall, cut short by main's write */
	atomic_store(&parked_phase, 2);
	const long w = watches();
	SITE_CALL_READ(&parked_flag);
	parked_watches[0] = watches() - w;
	if (!*(volatile int *)&parked_flag)
		write_site_10(&parked_flag, 1);
	parked_watches[1] = watches() - w;
	return NULL;
}

/*
 * A thread started during another's write stall runs parked; the
 * initialisation of a double-checked lock (its unlocked test, then the
 * store under the lock) is still watched beside that stall.
 */
SITE(site_born_dcl_test, ".rept 33; nop; .endr")
static int born_dcl_ready;
static pthread_mutex_t born_dcl_lock = PTHREAD_MUTEX_INITIALIZER;
static long born_dcl_watches = -1;
static bool born_dcl_parked;

static void *born_dcl_thread(void *arg)
{
	(void)arg;
	const long w = watches();
	site_born_dcl_test(&born_dcl_ready);
	born_dcl_parked = ucsan_ctx_tls.cold_born_parked;
	if (!*(volatile int *)&born_dcl_ready) {
		pthread_mutex_lock(&born_dcl_lock);
		write_site_37(&born_dcl_ready, 1);
		pthread_mutex_unlock(&born_dcl_lock);
	}
	born_dcl_watches = watches() - w;
	return NULL;
}

static void *stage_holder(void *arg)
{
	write_site_38(arg, 1);
	return NULL;
}

/*
 * A parked thread's unlocked store to a static word just after a release
 * (a statistic bumped after the unlock): it waits for the write stall
 * that parked it to end, then is watched.
 */
SITE(site_parked_rel_read, ".rept 31; nop; .endr")
static int parked_release_word, parked_stat;
static long parked_release_watches = -1;
static bool parked_release_was_parked;

static void *parked_releaser(void *arg)
{
	(void)arg;
	site_parked_rel_read(&shared_a); /* a long read stall, cut short by main's write */
	parked_release_was_parked = ucsan_ctx_tls.cold_parked != 0;
	__tsan_atomic32_store(&parked_release_word, 1, 3 /* release */);
	const long w = watches();
	write_site_35(&parked_stat, 1);
	parked_release_watches = watches() - w;
	return NULL;
}

/*
 * A store just after a release: its stall lasts until another thread
 * takes the released flag, however late that is, and then its usual time,
 * so the taker's read of what was stored after the flag meets it.
 */
static int release_flag, after_flag;
SITE(site_eight, "nop; nop; nop; nop; nop; nop; nop")

static void *late_taker(void *arg)
{
	(void)arg;
	usleep(300000); /* far longer than the store's own stall */
	while (!__tsan_atomic32_load(&release_flag, 2 /* acquire */))
		usleep(1000);
	site_eight(&after_flag);
	return NULL;
}

/*
 * A store handed over by a relaxed flag: the reader takes the flag, then
 * reads what was stored before it; the poller reads the data without
 * taking the flag (its read is no publication's).
 */
static int pub_flag2, pub_data2, pub_data3, pub_flag3;
static int pub_flag, pub_data, pub_flag4, pub_data4;
SITE(site_pub_read, "nop; nop; nop; nop; nop; nop; nop; nop; nop; nop; nop")
SITE(site_pub_poll, "nop; nop; nop; nop; nop; nop; nop; nop; nop; nop; nop; nop")
SITE(site_pub_read4, "nop; nop; nop; nop; nop; nop; nop; nop; nop; nop; nop; nop; nop")

/* A flag, the data it publishes, and the site the taker reads it at. */
struct publication {
	int *flag, *data;
	void (*read)(int *);
};
static const struct publication published = { &pub_flag, &pub_data, site_pub_read };
/* The same, for a flag stored while release waits are off. */
static const struct publication published4 = { &pub_flag4, &pub_data4, site_pub_read4 };

static void *flag_taker_reader(void *arg)
{
	const struct publication *p = arg;
	/* The watch begins just after the flag's store: a taker that loads
	 * the flag in between is not known as one (the runtime's window, a
	 * missed report at worst). Here it waits for the watch. */
	for (int i = 0; i < 100000 && atomic_load(&ucsan_cold_wake_word) != (uintptr_t)p->flag; i++)
		usleep(100);
	while (!__tsan_atomic32_load(p->flag, 0 /* relaxed */))
		usleep(100);
	p->read(p->data);
	return NULL;
}

static void *data_poller(void *arg)
{
	(void)arg;
	/* This file is not instrumented: the runtime does not see this
	 * thread look at the flag. It waits for the watch, as
	 * flag_taker_reader() does. */
	for (int i = 0; i < 100000 && atomic_load(&ucsan_cold_wake_word) != (uintptr_t)&pub_flag2; i++)
		usleep(100);
	while (!*(volatile int *)&pub_flag2)
		usleep(50);
	site_pub_poll(&pub_data2);
	return NULL;
}

static long reports(void)
{
	return atomic_load(&ucsan_counters[CTR_REPORTS_PRINTED]) + atomic_load(&ucsan_counters[CTR_REPORTS_SUPPRESSED]);
}

/*
 * A parked thread that loops over new sites leaves the cold path after its
 * first visit to each (they wait warm), past 16 of them it runs on the
 * all-warm table, and once the stall that parked it is over, returning
 * from a sleep gives it its own table back, those sites cold again (its
 * slow path would too, but a poll between sleeps may not reach it).
 */
static int loop_data[256];
static int parked_loop_warm, parked_overflow_warm, parked_sleep_unparks, parked_loop_back;
SITE(site_nine, "nop; nop; nop; nop; nop; nop; nop; nop")
#define LOOP_SITE(n)                                                                   \
	__attribute__((noinline)) static void loop_site_##n(int *p)                    \
	{                                                                              \
		__tsan_read4(p);                                                       \
		__asm__ __volatile__(".rept " #n " + 20\n\tnop\n\t.endr" ::: "memory");     \
	}
LOOP_SITE(1) LOOP_SITE(2) LOOP_SITE(3) LOOP_SITE(4) LOOP_SITE(5) LOOP_SITE(6) LOOP_SITE(7)
LOOP_SITE(8) LOOP_SITE(9) LOOP_SITE(10) LOOP_SITE(11) LOOP_SITE(12) LOOP_SITE(13) LOOP_SITE(14)
LOOP_SITE(15) LOOP_SITE(16) LOOP_SITE(17) LOOP_SITE(18) LOOP_SITE(19) LOOP_SITE(20)
static void (*const loop_sites[])(int *) = {
	loop_site_1,  loop_site_2,  loop_site_3,  loop_site_4,  loop_site_5,  loop_site_6,  loop_site_7,
	loop_site_8,  loop_site_9,  loop_site_10, loop_site_11, loop_site_12, loop_site_13, loop_site_14,
	loop_site_15, loop_site_16, loop_site_17, loop_site_18, loop_site_19, loop_site_20,
};

static void *parked_looper(void *arg)
{
	(void)arg;
	site_seven(&shared_b); /* a long read stall, cut short by main's write */
	const int warm0 = warm_sites();
	for (int i = 0; i < 256; i++)
		site_nine(&loop_data[i]);
	parked_loop_warm = warm_sites() == warm0 + 1;
	for (size_t k = 0; k < sizeof(loop_sites) / sizeof(loop_sites[0]); k++)
		loop_sites[k](&loop_data[k]);
	parked_overflow_warm = warm_sites() == (int)UCSAN_SITES;
	/* The stall ends (10 s at most). With no slow-path entry to come,
	 * returning from a sleep is where the thread learns it. */
	ucsan_ctx_set_countdown(&ucsan_ctx_tls, LONG_MAX / 2);
	for (int i = 0; i < 10000 && ucsan_ctx_tls.cold_parked; i++)
		usleep(1000);
	parked_sleep_unparks = !ucsan_ctx_tls.cold_parked;
	parked_loop_back = warm_sites() == warm0;
	return NULL;
}

/* Main's write stall that parks parked_setter (at `park`); once it is
 * over, while the setter's store is watched beside it (10 s at most), a
 * store of main's from a new site (`then`), made `nap_us` later: returns
 * the watches it took. */
static long stall_then_store(void (*park)(int *, int), void (*then)(int *, int), int *p, int v, long nap_us)
{
	park(p, v);
	/* The setter past its read stall, and its store's watch set. */
	for (int i = 0; i < 10000 && (atomic_load(&parked_phase) != 2 ||
				      atomic_load(&ucsan_counters[CTR_USED_WATCHPOINTS]) == 0); i++)
		usleep(1000);
	if (nap_us)
		usleep((useconds_t)nap_us);
	const long w = watches();
	then(&shared_c, 1);
	return watches() - w;
}

/* A stall there would keep main from the setter's flag: not watched. */
static long stores_beside_watched = -1;

static void write_then_store_beside(int *p, int v)
{
	stores_beside_watched = stall_then_store(write_site_11, write_site_16, p, v, 0);
}

/* Made past the hold (cold_beside_hold_us): watched, though the watch
 * beside is still on. */
static long stores_after_hold_watched = -1;

static void write_then_store_after_hold(int *p, int v)
{
	stores_after_hold_watched = stall_then_store(write_site_54, write_site_55, p, v, 2000);
}

/* Stalls of `us`, not randomized, and budgets that pay for them. */
static void long_cold_stalls(long us)
{
	ucsan_opts.cold_udelay = us;
	ucsan_opts.delay_randomize = false;
	ucsan_opts.cold_budget_ms = 20000;
	ucsan_opts.cold_process_ms = 20000;
	/* The calling thread's bucket, full: its earlier stalls drained it. */
	ucsan_ctx_tls.cold_tokens_ns = 20000LL * 1000000;
}

/* Starts `thread`, which begins with a long read stall; once it is in it,
 * a write stall from a new site of main's cuts it short and parks it. */
static void park_during_write(void *(*thread)(void *), void (*write_site)(int *, int), int *where)
{
	long_cold_stalls(200000);
	pthread_t t;
	pthread_create(&t, NULL, thread, NULL);
	/* Into its read stall (10 s at most): its watchpoint is set. */
	wait_for_watch();
	write_site(where, 2);
	pthread_join(t, NULL);
}

/* A progress counter bumped with a relaxed add after each result's
 * store, and polled plainly between naps: the poll of the flag itself,
 * while the publication's stall waits for a taker. */
static struct {
	int flag;
	char apart[60];
	int data;
} counted;
static long flag_poll_watches = -1;
SITE(site_flag_poll, ".rept 43; nop; .endr")

static void *flag_poller(void *arg)
{
	(void)arg;
	site_two(&shared_b); /* set up (a site run warm) */
	for (int i = 0; i < 100000 && atomic_load(&ucsan_cold_wake_word) != (uintptr_t)&counted.flag; i++)
		usleep(100);
	usleep(2000);
	const long w = watches();
	site_flag_poll(&counted.flag);
	flag_poll_watches = watches() - w;
	return NULL;
}

/* A long read stall, and whether it ended parked (cut short). */
static int reader_was_parked;
SITE(site_ten, "nop; nop; nop; nop; nop; nop; nop; nop; nop")
SITE(site_eleven, "nop; nop; nop; nop; nop; nop; nop; nop; nop; nop")

/* A thread back from a sleep, whose read comes while another thread's
 * stall is on: the poll of a flag between naps. */
static long woke_read_watches = -1;

static void *woke_reader(void *arg)
{
	(void)arg;
	site_two(&shared_b); /* set up (a site run warm) */
	usleep(2000);
	const long w = watches();
	site_eleven(&shared_a);
	woke_read_watches = watches() - w;
	return NULL;
}

static void *long_reader(void *arg)
{
	(void)arg;
	site_ten(&shared_c);
	reader_was_parked = ucsan_ctx_tls.cold_parked != 0;
	return NULL;
}

/* A reader stays until the checks are made: a store that takes the
 * stage cuts its stall short, and were it gone before that store's watch
 * began, the process would have one thread again and watch nothing. */
static _Atomic int cold_reader_may_go;

static void stay_until_joined(void)
{
	for (int i = 0; i < 10000 && !atomic_load(&cold_reader_may_go); i++)
		usleep(1000);
}

/* One cold read of *p at `site` (a long stall, with the test's options). */
struct cold_read {
	void (*site)(int *);
	int *p;
};

static void *cold_reader(void *arg)
{
	const struct cold_read *r = arg;
	r->site(r->p);
	stay_until_joined();
	return NULL;
}

static void join_cold_reader(pthread_t t)
{
	atomic_store(&cold_reader_may_go, 1);
	pthread_join(t, NULL);
	atomic_store(&cold_reader_may_go, 0);
}

SITE(site_fresh_read, ".rept 25; nop; .endr")
SITE(site_dcl_test, ".rept 27; nop; .endr")
SITE(site_item_read, ".rept 29; nop; .endr")
SITE(site_fresh_own_read, ".rept 43; nop; .endr")
static int published_flag;
/* A double-checked lock's flag, what it guards, and a variable far away. */
static struct {
	int ready;
	int table;
	char pad[256];
	int far;
} dcl;
static pthread_mutex_t dcl_lock = PTHREAD_MUTEX_INITIALIZER;

/* The other way round: the initialisation, under the lock and next to
 * the flag, took the stage first; the unlocked test of the flag that
 * comes during its stall takes the stage from it, and the flag's store,
 * yielding to that watch, lands during it. */
SITE(site_dcl_late_test, ".rept 37; nop; .endr")
static struct {
	int ready;
	int table;
} late_dcl;
static uint64_t late_dcl_stall_ns;

static _Atomic int spin_stop;

static void *cpu_spinner(void *arg)
{
	(void)arg;
	while (!atomic_load_explicit(&spin_stop, memory_order_relaxed))
		ucsan_cpu_relax();
	return NULL;
}

/* With a spinner pinned to main's CPU, yields until one keeps main off
 * the CPU for 200 us or more (at most 2000 tries); returns whether the
 * last made main's next sites a poll's, as a sleep would. */
static bool yield_wakes(bool option)
{
	const struct ucsan_options saved = ucsan_opts;
	cpu_set_t was, one;
	pthread_getaffinity_np(pthread_self(), sizeof(was), &was);
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	pthread_setaffinity_np(pthread_self(), sizeof(one), &one);
	atomic_store(&spin_stop, 0);
	pthread_t t;
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof(one), &one);
	pthread_create(&t, &attr, cpu_spinner, NULL);
	pthread_attr_destroy(&attr);
	ucsan_opts.cold_yield_sleeps = option;
	ucsan_opts.cold_after_sleep_us = 200;
	ucsan_opts.cold_budget_ms = 20000;
	ucsan_opts.cold_process_ms = 20000;
	ucsan_ctx_tls.cold_tokens_ns = 20000LL * 1000000;
	bool woke = false;
	for (int i = 0; i < 2000; i++) {
		ucsan_ctx_tls.woke_sites = 0;
		const uint64_t t0 = ucsan_now_ns();
		sched_yield();
		if (ucsan_now_ns() - t0 >= 200000) {
			woke = ucsan_ctx_tls.woke_sites > 0;
			break;
		}
	}
	ucsan_ctx_tls.woke_sites = 0;
	ucsan_opts = saved;
	atomic_store(&spin_stop, 1);
	pthread_join(t, NULL);
	pthread_setaffinity_np(pthread_self(), sizeof(was), &was);
	return woke;
}

static void *late_dcl_initialiser(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&dcl_lock);
	const uint64_t t0 = ucsan_now_ns();
	write_site_40(&late_dcl.table, 1);
	late_dcl_stall_ns = ucsan_now_ns() - t0;
	write_site_41(&late_dcl.ready, 1);
	pthread_mutex_unlock(&dcl_lock);
	return NULL;
}

/* Two fields of one session in the same 8 bytes, each under its own
 * lock: this thread holds the stage with its store to one of them. */
static struct {
	int typing;
	int strikes;
} near_fields;
static pthread_mutex_t room_lock = PTHREAD_MUTEX_INITIALIZER;

static void *locked_field_writer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&room_lock);
	write_site_51(&near_fields.typing, 1);
	pthread_mutex_unlock(&room_lock);
	return NULL;
}

/* The same, at a site of its own, given a struct on its creator's stack. */
SITE(site_handed_read, ".rept 21; nop; .endr")
static int handed_reader_parked;

static void *handed_reader(void *arg)
{
	(void)arg;
	site_handed_read(&shared_c);
	handed_reader_parked = ucsan_ctx_tls.cold_parked != 0;
	stay_until_joined();
	return NULL;
}

static int taken_flag;

/* A thread that sleeps first -- a timer -- and whose first access, a
 * store, comes during another thread's write stall that began after it
 * started: not started parked, so its store is watched. */
static _Atomic int timer_started;

/* A poller whose own budget is long spent: its read after a sleep draws
 * on the process's budget for such reads. */
SITE(site_fourteen, "nop; nop; nop; nop; nop; nop; nop; nop; nop; nop; nop; nop; nop")
static long spent_poll_watches = -1;

/* A scan after a sleep: one site reading each element of an array. Its
 * first visit is watched, and one of the next fifteen. */
SITE(site_fifteen, "nop; nop; nop; nop; nop; nop; nop; nop; nop; nop; nop; nop; nop; nop")
static int scanned[16];
static long scan_watches = -1;

static void *scanner(void *arg)
{
	(void)arg;
	site_two(&shared_b); /* set up */
	usleep(2000);
	const long w = watches();
	for (int i = 0; i < 16; i++)
		site_fifteen(&scanned[i]);
	scan_watches = watches() - w;
	return NULL;
}

/* A thread set up, its own budget long spent, back from a sleep. */
static void wake_with_budget_spent(void)
{
	site_two(&shared_b); /* set up */
	ucsan_ctx_tls.cold_tokens_ns = -1000000000000LL;
	usleep(2000);
}

/* Runs fn in a thread whose budget earns nothing, with 1 ms cold stalls. */
static void run_budget_spent(void *(*fn)(void *))
{
	const struct ucsan_options before = ucsan_opts;
	ucsan_opts.cold_budget_percent = 0;
	ucsan_opts.cold_udelay = 1000;
	pthread_t t;
	pthread_create(&t, NULL, fn, NULL);
	pthread_join(t, NULL);
	ucsan_opts = before;
}

static void *spent_poller(void *arg)
{
	(void)arg;
	wake_with_budget_spent();
	const long w = watches();
	site_fourteen(&shared_a);
	spent_poll_watches = watches() - w;
	return NULL;
}

/* A pool worker whose own budget is long spent, back from a sleep (its
 * I/O): its store draws on the process's budget for the stores of threads
 * that sleep (cold_woke_stores), not with the option off. */
static long sleeper_store_watches[2] = { -1, -1 };

static void *spent_sleeper(void *arg)
{
	(void)arg;
	wake_with_budget_spent();
	ucsan_opts.cold_woke_stores = false;
	long w = watches();
	write_site_50(&shared_a, 1);
	sleeper_store_watches[0] = watches() - w;
	ucsan_opts.cold_woke_stores = true;
	w = watches();
	write_site_49(&shared_a, 2);
	sleeper_store_watches[1] = watches() - w;
	return NULL;
}

static long timer_store_watches = -1;

static void *sleepy_timer(void *arg)
{
	(void)arg;
	atomic_store(&timer_started, 1);
	usleep(50000);
	const long w = watches();
	write_site_18(&shared_c, 3);
	timer_store_watches = watches() - w;
	return NULL;
}

/* A read just after a release, and the thread that takes what was
 * released: its own read meanwhile, and the release word it takes. */
SITE(site_twelve, "nop; nop; nop; nop; nop; nop; nop; nop; nop; nop; nop")
SITE(site_thirteen, "nop; nop; nop; nop; nop; nop; nop; nop; nop; nop; nop; nop")
static int release_read_flag;
static uint64_t release_read_ns;

static void *release_reader(void *arg)
{
	(void)arg;
	__tsan_atomic32_store(&release_read_flag, 1, 3 /* release */);
	const uint64_t t0 = ucsan_now_ns();
	site_twelve(&shared_a);
	release_read_ns = ucsan_now_ns() - t0;
	return NULL;
}

static void *release_taker(void *arg)
{
	long *seen = arg;
	const long w = watches();
	site_thirteen(&shared_b);
	*seen = watches() - w;
	(void)__tsan_atomic32_load(&release_read_flag, 2 /* acquire */);
	return NULL;
}

static void *flag_taker(void *arg)
{
	(void)arg;
	usleep(300000);
	while (!__tsan_atomic32_load(&taken_flag, 2 /* acquire */))
		usleep(1000);
	return NULL;
}

/* A site run while checking is off. */
SITE(site_disabled, ".rept 19; nop; .endr")

/*
 * A store just after an unlock waits for the thread that takes the lock
 * (a request stamped after it was queued). The taker's own stores under
 * the lock it took do not cut that wait short: the read that races comes
 * right after them.
 */
static pthread_mutex_t handover_lock = PTHREAD_MUTEX_INITIALIZER;
static int handover_data, handover_queue;
static _Atomic int handover_started, handover_go;
static long handover_taker_watches;
SITE(site_handover_read, ".rept 17; nop; .endr")

static void *handover_taker(void *arg)
{
	(void)arg;
	atomic_store(&handover_started, 1);
	while (!atomic_load(&handover_go))
		usleep(100);
	usleep(20000); /* the store's wait is on */
	const long w = watches();
	pthread_mutex_lock(&handover_lock);
	write_site_24(&handover_queue, 1);
	pthread_mutex_unlock(&handover_lock);
	handover_taker_watches = watches() - w;
	site_handover_read(&handover_data);
	return NULL;
}

/* Runs a site main watched, before and after a short and a long sleep,
 * counting the watches each time (a thread of its own: main's budget is
 * spent by now). */
static void *sleeper(void *arg)
{
	long *seen = arg;
	long w = watches();
	site_two(&shared_b);
	seen[0] = watches() - w;
	/* Shorter than cold_after_sleep_us (however loaded the machine). */
	const long after_sleep_us = ucsan_opts.cold_after_sleep_us;
	ucsan_opts.cold_after_sleep_us = 10000000;
	usleep(2000);
	ucsan_opts.cold_after_sleep_us = after_sleep_us;
	w = watches();
	site_two(&shared_b);
	seen[1] = watches() - w;
	usleep(2000);
	w = watches();
	site_two(&shared_b);
	seen[2] = watches() - w;
	/* A read after a sleep watches about as long as the thread slept
	 * (2 ms here, beside a usual stall of 1 ms). */
	seen[3] = ucsan_ctx_tls.cold_stalled_ns >= 1800000;
	return NULL;
}

static void *noop_thread(void *arg)
{
	return arg;
}

/* Keeps the process multi-threaded until *arg is set. */
static void *waiter_thread(void *arg)
{
	while (!atomic_load((_Atomic int *)arg))
		usleep(100);
	return NULL;
}


/* A table resized under its lock while a lookup tests its mask without
 * it: the resizer's first access under the lock is the read of an update
 * (gcc splits `++t->count` into a read and a write). */
SITE(site_locked_count_read, ".rept 53; nop; .endr")
SITE(site_unlocked_mask_read, ".rept 61; nop; .endr")
static struct {
	int count;
	int mask;
} resized;

/* A receive call site: each record into the same buffer. The I/O
 * interposers check nothing called from the runtime's own code, which
 * this test is linked with: the bytes a read() returned are handed to
 * the check they make (range_checks.h), at a call site of its own. */
static char record_buf[64];
static pthread_mutex_t record_lock = PTHREAD_MUTEX_INITIALIZER;
SITE(site_receive_call, ".rept 49; nop; .endr")

/* Another thread, so that watches are set at all. */
static void *companion(void *arg)
{
	(void)arg;
	stay_until_joined();
	return NULL;
}

/* A record received at that call site; returns the watches that took. */
static long refill(bool hand_over)
{
	const long w = watches();
	memcpy(record_buf, "ts=1;op=get", 11);
	moved_bytes(record_buf, 11, true, (uintptr_t)site_receive_call + 8);
	if (hand_over) {
		/* The buffer queued for a worker: a release. */
		pthread_mutex_lock(&record_lock);
		pthread_mutex_unlock(&record_lock);
	}
	return watches() - w;
}

static void *idle_thread(void *arg)
{
	(void)arg;
	while (!atomic_load(&reader_stop))
		sched_yield();
	return NULL;
}

/* A variable polled between sleeps of POLL_US, the way a worker polls a
 * stop flag; after POLLS polls the poller sleeps on without reading it. */
#define POLL_US 2000
#define POLLS 3
static int polled_var;
static _Atomic int poller_polls, poller_done;
SITE(site_poll, ".rept 35; nop; .endr")

static void *poller(void *arg)
{
	(void)arg;
	for (int i = 0; i < POLLS; i++) {
		usleep(POLL_US);
		site_poll(&polled_var);
		atomic_fetch_add(&poller_polls, 1);
	}
	while (!atomic_load(&poller_done))
		usleep(20000);
	return NULL;
}

/* Stores to the polled variable from a new thread (no release of its own
 * before the store, which would make it wait for a taker instead), and
 * measures how long the store took. */
static _Atomic uint64_t polled_store_ns;

static void *poll_storer(void *arg)
{
	(void)arg;
	const uint64_t t0 = ucsan_now_ns();
	write_site_39(&polled_var, 1);
	atomic_store(&polled_store_ns, ucsan_now_ns() - t0);
	return NULL;
}

/*
 * Two threads run the same code: both run its first site, then the early
 * one stores at a new site while the late one is held back ten usual
 * stalls; the store's stall waits for the late one (cold_same_code_us),
 * whose store there then meets it.
 */
SITE(site_same_first, ".rept 39; nop; .endr")
static int same_total;
static _Atomic int same_phase;

static void *same_code_worker(void *arg)
{
	const bool late = arg != NULL;
	site_same_first(&shared_a);
	if (late) {
		for (int i = 0; i < 10000 && atomic_load(&same_phase) != 1; i++)
			usleep(1000);
		usleep((useconds_t)ucsan_opts.cold_udelay * 10);
	} else {
		atomic_store(&same_phase, 1);
	}
	write_site_42(&same_total, late ? 2 : 1);
	return NULL;
}

/* Runs the two, the late one started first so that both have run the
 * first site before the early one's store. Returns the reports printed. */
static long run_same_code(void)
{
	const long printed = ucsan_reports_printed();
	atomic_store(&same_phase, 0);
	pthread_t late, early;
	pthread_create(&late, NULL, same_code_worker, (void *)1);
	usleep(50000);
	pthread_create(&early, NULL, same_code_worker, NULL);
	pthread_join(early, NULL);
	pthread_join(late, NULL);
	return ucsan_reports_printed() - printed;
}

/*
 * The same, but the other thread waits on a condition variable (an idle
 * pool worker) when the store comes: no thread is behind, and the store
 * stalls its usual time.
 */
static pthread_mutex_t same_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t same_cv = PTHREAD_COND_INITIALIZER;
static int same_go;
static _Atomic int same_waiter_in;
static uint64_t same_stalled_ns;

static void *same_code_idle_worker(void *arg)
{
	const bool idle = arg != NULL;
	site_same_first(&shared_a);
	if (idle) {
		pthread_mutex_lock(&same_mu);
		atomic_store(&same_waiter_in, 1);
		while (!*(volatile int *)&same_go)
			pthread_cond_wait(&same_cv, &same_mu);
		pthread_mutex_unlock(&same_mu);
	} else {
		for (int i = 0; i < 10000 && !atomic_load(&same_waiter_in); i++)
			usleep(1000);
		usleep(20000); /* into its wait */
	}
	write_site_44(&same_total, idle ? 2 : 1);
	if (!idle)
		same_stalled_ns = ucsan_ctx_tls.cold_stalled_ns;
	return NULL;
}

/* Waits on a condition variable, untimed, until main lets it go. */
static pthread_mutex_t blocked_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t blocked_cv = PTHREAD_COND_INITIALIZER;
static int blocked_go;

static void *blocked_waiter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&blocked_mu);
	while (!*(volatile int *)&blocked_go)
		pthread_cond_wait(&blocked_cv, &blocked_mu);
	pthread_mutex_unlock(&blocked_mu);
	return NULL;
}

/*
 * Parked by main's write stall, a thread's unlocked read-modify-write of
 * a static total (clang's one call for `total += n`) is a check-then-set:
 * watched beside that stall.
 */
SITE(site_rmw_first, ".rept 41; nop; .endr")
/* A new thread's first read of the argument its creator handed it. The
 * second reader waits until its creator is in the join. */
SITE(site_start_stall, ".rept 45; nop; .endr")
SITE(site_start_arg, ".rept 47; nop; .endr")
SITE(site_start_arg_joined, ".rept 49; nop; .endr")
static int start_arg[2];
static _Atomic int start_read_done;

static void *start_reader(void *arg)
{
	const long w = watches();
	site_start_arg(arg);
	const long got = watches() - w;
	atomic_store(&start_read_done, got == 1 ? 1 : -1);
	return NULL;
}

/* A cold read made under a lock: a producer reading its ring's head. */
SITE(site_start_locked_stall, ".rept 51; nop; .endr")
SITE(site_start_arg_locked, ".rept 53; nop; .endr")
static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;

/* One cold read, made under a lock. */
static void *locked_cold_reader(void *arg)
{
	const struct cold_read *r = arg;
	pthread_mutex_lock(&start_lock);
	r->site(r->p);
	pthread_mutex_unlock(&start_lock);
	stay_until_joined();
	return NULL;
}

static void *start_reader_beside_locked(void *arg)
{
	const long w = watches();
	site_start_arg_locked(arg);
	atomic_store(&start_read_done, watches() == w ? 1 : -1);
	return NULL;
}

/* A thread in a long cold read stall; new threads' stalls are short. */
static pthread_t start_long_stall(void *(*stall)(void *), void *arg)
{
	long_cold_stalls(300000);
	pthread_t t;
	pthread_create(&t, NULL, stall, arg);
	wait_for_watch();
	ucsan_opts.cold_udelay = 1000;
	return t;
}

/* Runs a start reader with main polling (running) or in the join; whether
 * it found what it expected. */
static bool run_start_reader(void *(*reader)(void *), void *arg, bool join_at_once)
{
	pthread_t t;
	atomic_store(&start_read_done, 0);
	pthread_create(&t, NULL, reader, arg);
	for (int i = 0; !join_at_once && i < 10000 && !atomic_load(&start_read_done); i++)
		usleep(1000);
	pthread_join(t, NULL);
	return atomic_load(&start_read_done) == 1;
}

static void *start_reader_joined(void *arg)
{
	const struct ucsan_thread_info *creator = ucsan_thread_info_creator();
	for (int i = 0; i < 10000 && creator && !atomic_load(&creator->waiting); i++)
		usleep(1000);
	const long w = watches();
	site_start_arg_joined(arg);
	atomic_store(&start_read_done, watches() == w ? 1 : -1);
	return NULL;
}

static int rmw_total;
static long rmw_watches = -1;

__attribute__((noinline)) static void rmw_site(int *p)
{
	__tsan_read_write4(p);
	(*(volatile int *)p)++;
}

static void *parked_rmw(void *arg)
{
	(void)arg;
	site_rmw_first(&shared_a); /* a long read stall, cut short by main's write */
	const long w = watches();
	rmw_site(&rmw_total);
	rmw_watches = watches() - w;
	return NULL;
}

int main(void)
{
	/* One thread: its accesses return at once (the gate says it is
	 * alone), so nothing is watched and the site table is untouched. */
	long w0 = watches();
	int warm0 = warm_sites();
	CHECK("alone_gate_set", gate_alone(atomic_load(&ucsan_hot.gate)));
	site_one(&shared_a);
	CHECK("alone_leaves_sites", warm_sites() == warm0);
	CHECK("alone_never_watches", watches() == w0);

	/* The first thread created makes the creator's sites cold again. */
	pthread_t idle;
	pthread_create(&idle, NULL, idle_thread, NULL);
	CHECK("going_multithreaded_resets", warm_sites() == 0);
	CHECK("live_threads_counted", atomic_load(&ucsan_live_threads) == 2);
	CHECK("second_thread_clears_alone", !gate_alone(atomic_load(&ucsan_hot.gate)));

	/* Two threads: a site's first run is watched once, then it is warm. */
	w0 = watches();
	site_two(&shared_b);
	CHECK("first_run_watched", watches() == w0 + 1);
	CHECK("first_run_marks_warm", warm_sites() == 1);
	site_two(&shared_b);
	CHECK("second_run_not_watched", watches() == w0 + 1);

	/* Another site, another first run watched. */
	w0 = watches();
	site_three(&shared_c);
	CHECK("other_site_watched", watches() == w0 + 1);
	CHECK("other_site_marks_warm", warm_sites() == 2);

	/* An access to the thread's own stack is done with, unwatched... */
	int local = 0;
	w0 = watches();
	site_five(&local);
	CHECK("own_stack_read_not_watched", watches() == w0);
	CHECK("own_stack_read_marks_warm", warm_sites() == 3);
	write_site_9(&local, 1);
	CHECK("own_stack_store_not_watched", watches() == w0);
	/* ...but for a store to what it handed to a thread it made: the
	 * argument (which the creator may reuse for the next thread)... */
	struct {
		int reused;
	} handed = { 0 };
	pthread_t h;
	pthread_create(&h, NULL, noop_thread, &handed);
	pthread_join(h, NULL);
	w0 = watches();
	write_site_26(&handed.reused, 1);
	CHECK("handed_stack_store_watched", watches() == w0 + 1);
	/* ...or a local the argument's block points to (the captures of a
	 * C++ lambda, in the block std::thread passes). */
	memset(ucsan_ctx_tls.stack_handed, 0, sizeof(ucsan_ctx_tls.stack_handed));
	int captured = 0;
	int **captures = malloc(4 * sizeof(*captures));
	captures[0] = captures[2] = captures[3] = NULL;
	captures[1] = &captured;
	pthread_create(&h, NULL, noop_thread, captures);
	pthread_join(h, NULL);
	free(captures);
	bool handed_captured = false;
	for (size_t i = 0; i < sizeof(ucsan_ctx_tls.stack_handed) / sizeof(uintptr_t); i++)
		handed_captured |= ucsan_ctx_tls.stack_handed[i] == (uintptr_t)&captured;
	CHECK("captured_local_handed", handed_captured);
	w0 = watches();
	write_site_27(&captured, 1);
	CHECK("captured_stack_store_watched", watches() == w0 + 1);
	/* Only cold_handed_span bytes from what it handed count: a local
	 * further on (one beside a small argument) is its own. */
	memset(ucsan_ctx_tls.stack_handed, 0, sizeof(ucsan_ctx_tls.stack_handed));
	struct {
		int first;
		char gap[120];
		int far;
	} wide = { 0, { 0 }, 0 };
	pthread_create(&h, NULL, noop_thread, &wide);
	pthread_join(h, NULL);
	const long span_saved = ucsan_opts.cold_handed_span;
	w0 = watches();
	write_site_56(&wide.far, 1);
	CHECK("beyond_handed_span_not_watched", span_saved < 124 && watches() == w0);
	ucsan_opts.cold_handed_span = 256;
	write_site_57(&wide.far, 1);
	CHECK("within_wider_handed_span_watched", watches() == w0 + 1);
	ucsan_opts.cold_handed_span = span_saved;

	/* A heap block main allocated since its last release: no other thread
	 * can reach it, so neither its reads nor its stores are watched, with
	 * no other stall on either, and their sites are done with. After a
	 * release, which may have handed it over, a new site's store is. */
	const struct ucsan_options fresh_saved = ucsan_opts;
	long_cold_stalls(1000);
	int *own = malloc(64);
	const long w_own = watches();
	const int warm_own = warm_sites();
	site_fresh_own_read(own);
	write_site_47(own + 1, 1);
	CHECK("fresh_block_accesses_not_watched", watches() == w_own);
	CHECK("fresh_block_sites_done_with", warm_sites() == warm_own + 2);
	/* Under weak_memory a store filling in a fresh block is what a
	 * missing release reorders: watched, sampled or cold. Reads stay
	 * private. */
	struct ucsan_ctx *const self = &ucsan_ctx_tls;
	const bool store_private = ucsan_access_private(self, own + 3, UCSAN_ACCESS_WRITE);
	ucsan_opts.weak_memory = true;
	CHECK("fresh_block_store_shared_under_weak_memory",
	      store_private && !ucsan_access_private(self, own + 3, UCSAN_ACCESS_WRITE) &&
		      ucsan_access_private(self, own + 3, 0));
	ucsan_opts.weak_memory = false;
	__tsan_atomic32_store(&published_flag, 1, 3 /* release */);
	write_site_48(own + 2, 1);
	CHECK("released_block_store_watched", watches() == w_own + 1);
	free(own);
	/* Main's next stores are not "just after a release" any more: they
	 * would wait for that flag's taker in the tests below. */
	ucsan_ctx_tls.released = 0;
	ucsan_ctx_tls.release_sites = 0;
	ucsan_opts = fresh_saved;

	/* cold_site_limit=1: a site main watched runs warm in a new thread,
	 * while a site nobody ran yet is still watched there. */
	long seen[3];
	pthread_t second;
	pthread_create(&second, NULL, second_runner, seen);
	pthread_join(second, NULL);
	CHECK("watched_elsewhere_runs_warm", seen[0] == 0 && seen[1] == 1);
	CHECK("unwatched_site_watched_by_new_thread", seen[2] == 1);

	/*
	 * The deferred value check: a write is watched (cold), a polling read
	 * consumes it while the value is still the old one, and the store
	 * lands after the stall. Reported once the writer enters the runtime.
	 */
	pthread_t r;
	pthread_create(&r, NULL, reader, NULL);
	/* The reader polls before the store is watched (10 s at most), and a
	 * store whose stall the reader slept through is tried again from
	 * another site: a loaded machine must not fail this. */
	for (int i = 0; i < 10000 && atomic_load(&reader_polls) < 1000; i++)
		usleep(1000);
	long printed0 = ucsan_reports_printed();
	bool pending = false;
	for (int i = 0; i < 8 && !pending; i++) {
		write_sites[i](&shared_flag, i + 1);
		pending = ucsan_ctx_tls.value_check != NULL;
	}
	CHECK("check_pending_after_watch", pending);
	__tsan_read4(&shared_c); /* the next runtime entry judges it */
	CHECK("check_done_at_next_entry", ucsan_ctx_tls.value_check == NULL);
	CHECK("landed_store_reported", ucsan_reports_printed() == printed0 + 1);

	atomic_store(&reader_stop, 1);
	pthread_join(r, NULL);

	/* Parked, a thread still watches its store to a static flag it
	 * tested without a lock, beside the write stall that parked it; and
	 * while that watch is on (cold_beside_hold_us=0: all of it), main's
	 * next new store is not watched. */
	const struct ucsan_options saved = ucsan_opts;
	park_during_write(parked_setter, write_then_store_beside, &shared_b);
	ucsan_opts = saved;
	CHECK("parked_read_not_watched", parked_watches[0] == 0);
	CHECK("parked_check_then_set_watched", parked_watches[1] == 1);
	CHECK("beside_watch_holds_off_stores", stores_beside_watched == 0);
	/* Held off only so long once main's stall let it go: a store of
	 * main's made later is watched. (The same code again: its sites may
	 * be watched once more.) */
	atomic_store(&parked_phase, 0);
	*(volatile int *)&parked_flag = 0;
	ucsan_opts.cold_beside_hold_us = 1;
	ucsan_opts.cold_site_limit = 0;
	park_during_write(parked_setter, write_then_store_after_hold, &shared_b);
	ucsan_opts = saved;
	/* (main's store is counted there too: it came during that watch) */
	CHECK("beside_watch_check_then_set_again", parked_watches[1] >= 1);
	CHECK("beside_hold_ends_after_let_go", stores_after_hold_watched == 1);

	/* Born parked, a thread's double-checked initialisation is watched. */
	long_cold_stalls(200000);
	pthread_t holder, born;
	pthread_create(&holder, NULL, stage_holder, &shared_c);
	wait_for_watch();
	pthread_create(&born, NULL, born_dcl_thread, NULL);
	pthread_join(born, NULL);
	pthread_join(holder, NULL);
	ucsan_opts = saved;
	CHECK("born_parked_thread_parked", born_dcl_parked);
	CHECK("born_parked_locked_dcl_store_watched", born_dcl_watches == 1);

	/* Parked, a store just after a release waits for main's stall. */
	ucsan_opts.cold_release_wait_us = 2000000;
	park_during_write(parked_releaser, write_site_36, &shared_c);
	ucsan_opts = saved;
	CHECK("parked_release_store_parked", parked_release_was_parked);
	CHECK("parked_release_store_waits_then_watched", parked_release_watches == 1);

	/* Parked in a loop: off the cold path, and back when it ends. */
	park_during_write(parked_looper, write_site_13, &shared_c);
	ucsan_opts = saved;
	CHECK("parked_loop_runs_warm", parked_loop_warm);
	CHECK("parked_past_16_sites_all_warm", parked_overflow_warm);
	CHECK("woken_from_sleep_unparked", parked_sleep_unparks);
	CHECK("unparked_takes_table_back", parked_loop_back);

	/* A store to main's own stack, where it handed nothing (watched with
	 * cold_own_stack_stores=1), waits its turn like a read: refused while
	 * another thread's stall is on, which goes on uncut. */
	long_cold_stalls(200000);
	ucsan_opts.cold_own_stack_stores = true;
	memset(ucsan_ctx_tls.stack_handed, 0, sizeof(ucsan_ctx_tls.stack_handed));
	pthread_t lr;
	pthread_create(&lr, NULL, long_reader, NULL);
	wait_for_watch();
	int stack_local = 0;
	const long w_stack = watches();
	write_site_15(&stack_local, 1);
	CHECK("own_stack_store_waits_its_turn", watches() == w_stack);
	/* A read just after a sleep is watched beside that stall. */
	pthread_t wr;
	pthread_create(&wr, NULL, woke_reader, NULL);
	pthread_join(wr, NULL);
	CHECK("read_after_sleep_watched_beside", woke_read_watches == 1);
	pthread_join(lr, NULL);
	CHECK("own_stack_store_parks_nobody", !reader_was_parked);
	ucsan_opts = saved;
	/* A store to what main handed to a thread it made is a store to
	 * shared memory: it takes the stage, and the stall on goes parked (an
	 * object that starts its thread in its constructor, then sets the
	 * field the thread reads first). */
	long_cold_stalls(200000);
	struct {
		int interval;
	} refresher = { 0 };
	pthread_create(&lr, NULL, handed_reader, &refresher);
	wait_for_watch();
	const long w_handed = watches();
	write_site_29(&refresher.interval, 1);
	CHECK("handed_stack_store_watched_during_stall", watches() == w_handed + 1);
	join_cold_reader(lr);
	CHECK("handed_stack_store_takes_stage", handed_reader_parked);
	ucsan_opts = saved;

	/* With cold_fresh_blocks=0, a store to a heap block main allocated
	 * since its last release waits its turn like a read (no other thread
	 * can reach the block); after a release, which may have handed it
	 * over, it takes the stage. */
	ucsan_opts.cold_fresh_blocks = false;
	long_cold_stalls(200000);
	struct cold_read fresh_read = { site_fresh_read, &shared_a };
	pthread_create(&lr, NULL, cold_reader, &fresh_read);
	wait_for_watch();
	int *block = malloc(64);
	const long w_fresh = watches();
	write_site_30(block, 1);
	CHECK("fresh_block_store_waits_its_turn", watches() == w_fresh);
	__tsan_atomic32_store(&published_flag, 1, 3 /* release */);
	write_site_31(block + 1, 1);
	CHECK("published_block_store_takes_stage", watches() == w_fresh + 1);
	join_cold_reader(lr);
	free(block);
	ucsan_opts = saved;

	/* Under a lock, a store near what another thread watches with an
	 * unlocked read (a double-checked lock's initialisation, next to its
	 * flag) is not watched while that watch is on; one far from it is. */
	long_cold_stalls(200000);
	struct cold_read dcl_read = { site_dcl_test, &dcl.ready };
	pthread_create(&lr, NULL, cold_reader, &dcl_read);
	wait_for_watch();
	pthread_mutex_lock(&dcl_lock);
	const long w_dcl = watches();
	write_site_32(&dcl.table, 1);
	CHECK("locked_store_near_unlocked_read_yields", watches() == w_dcl);
	write_site_33(&dcl.far, 1);
	CHECK("locked_store_far_takes_stage", watches() == w_dcl + 1);
	pthread_mutex_unlock(&dcl_lock);
	join_cold_reader(lr);
	ucsan_opts = saved;
	long_cold_stalls(200000);
	const long races_late = atomic_load(&ucsan_counters[CTR_DATA_RACES]);
	pthread_create(&lr, NULL, late_dcl_initialiser, NULL);
	wait_for_watch();
	const long w_late = watches();
	site_dcl_late_test(&late_dcl.ready);
	CHECK("unlocked_test_takes_stage_from_locked_init", watches() == w_late + 1);
	pthread_join(lr, NULL);
	CHECK("locked_init_cut_short", late_dcl_stall_ns < 100000000);
	CHECK("locked_init_flag_meets_the_test", atomic_load(&ucsan_counters[CTR_DATA_RACES]) == races_late + 1);
	ucsan_opts = saved;
	/* Next to a watched read on the heap (a server's item, not a lazily
	 * set-up singleton), a store under a lock takes the stage. */
	long_cold_stalls(200000);
	int *item = calloc(2, sizeof(int));
	struct cold_read item_read = { site_item_read, &item[0] };
	pthread_create(&lr, NULL, cold_reader, &item_read); /* a release: item is shared */
	wait_for_watch();
	pthread_mutex_lock(&dcl_lock);
	const long w_item = watches();
	write_site_34(&item[1], 1);
	CHECK("locked_heap_store_takes_stage", watches() == w_item + 1);
	pthread_mutex_unlock(&dcl_lock);
	join_cold_reader(lr);
	free(item);
	ucsan_opts = saved;

	/* Under a lock, beside a store under another lock that holds the
	 * stage (in the same 8 bytes: the next field, a bit-field's
	 * neighbour), a store runs unwatched, so that its thread's next
	 * access to the object meets the watch; unlocked, it takes the
	 * stage. */
	long_cold_stalls(200000);
	pthread_create(&lr, NULL, locked_field_writer, NULL);
	wait_for_watch();
	pthread_mutex_lock(&dcl_lock);
	const long w_near = watches();
	write_site_52(&near_fields.strikes, 1);
	CHECK("locked_store_beside_locked_stage_yields", watches() == w_near);
	pthread_mutex_unlock(&dcl_lock);
	write_site_52(&near_fields.strikes, 2);
	CHECK("unlocked_store_beside_locked_stage_takes_it", watches() == w_near + 1);
	pthread_join(lr, NULL);
	ucsan_opts = saved;

	long_cold_stalls(50000);
	ucsan_opts.cold_release_wait_us = 10000000;
	const long races0 = atomic_load(&ucsan_counters[CTR_DATA_RACES]);
	pthread_t lt;
	pthread_create(&lt, NULL, late_taker, NULL);
	__tsan_atomic32_store(&release_flag, 1, 3 /* release */);
	write_site_12(&after_flag, 1);
	pthread_join(lt, NULL);
	CHECK("store_after_release_waits_for_taker", atomic_load(&ucsan_counters[CTR_DATA_RACES]) == races0 + 1);
	/* A taker that only takes the flag ends the wait (its usual 50 ms
	 * later), long before the 10 s bound. */
	pthread_create(&lt, NULL, flag_taker, NULL);
	const uint64_t t0 = ucsan_now_ns();
	__tsan_atomic32_store(&taken_flag, 1, 3 /* release */);
	write_site_14(&after_flag, 2);
	const uint64_t stalled = ucsan_now_ns() - t0;
	pthread_join(lt, NULL);
	ucsan_opts = saved;
	CHECK("taker_ends_the_wait", stalled < 5000000000ULL);
	/* A read just after a release stalls (10 s here) without holding
	 * off the reads of the thread that comes to take the flag, and ends
	 * when that thread takes it. */
	long_cold_stalls(10000000);
	pthread_t rr;
	pthread_create(&rr, NULL, release_reader, NULL);
	wait_for_watch();
	ucsan_opts.cold_udelay = 1000;
	long taker_watches = 0;
	pthread_create(&lt, NULL, release_taker, &taker_watches);
	pthread_join(lt, NULL);
	pthread_join(rr, NULL);
	ucsan_opts = saved;
	CHECK("read_after_release_leaves_reads_free", taker_watches == 1);
	CHECK("read_after_release_ends_at_taker", release_read_ns < 5000000000ULL);
	long_cold_stalls(300000);
	pthread_create(&lt, NULL, sleepy_timer, NULL);
	while (!atomic_load(&timer_started))
		usleep(100);
	write_site_17(&shared_b, 4);
	pthread_join(lt, NULL);
	ucsan_opts = saved;
	CHECK("timer_not_started_parked", timer_store_watches == 1);
	run_budget_spent(spent_poller);
	CHECK("poll_after_budget_spent_watched", spent_poll_watches == 1);
	run_budget_spent(spent_sleeper);
	CHECK("sleeper_store_after_budget_spent_watched",
	      sleeper_store_watches[0] == 0 && sleeper_store_watches[1] == 1);
	/* The runtime's own locks (while it prints a report) do not replace
	 * what the program released last. */
	{
		static int published;
		static pthread_mutex_t runtime_lock = PTHREAD_MUTEX_INITIALIZER;
		__tsan_atomic32_store(&published, 1, 3 /* release */);
		ucsan_ctx_tls.disable_count++;
		pthread_mutex_lock(&runtime_lock);
		pthread_mutex_unlock(&runtime_lock);
		ucsan_ctx_tls.disable_count--;
		CHECK("runtime_unlock_keeps_release", ucsan_ctx_tls.released == (uintptr_t)&published);
		ucsan_ctx_tls.released = 0;
	}
	long_cold_stalls(1000);
	pthread_create(&lt, NULL, scanner, NULL);
	pthread_join(lt, NULL);
	ucsan_opts = saved;
	CHECK("scan_after_sleep_watched_twice", scan_watches == 2);
	/* Back from a sleep, a thread runs its sites as new, even one
	 * another thread watched before; not after a very short one. */
	long_cold_stalls(1000);
	long slept[4];
	pthread_create(&lt, NULL, sleeper, slept);
	pthread_join(lt, NULL);
	ucsan_opts = saved;
	CHECK("watched_elsewhere_runs_warm_again", slept[0] == 0);
	CHECK("short_sleep_keeps_sites_warm", slept[1] == 0);
	CHECK("sleep_makes_sites_cold", slept[2] == 1);
	CHECK("read_after_sleep_watches_as_long", slept[3]);
	/* Relaxed publication: the store before a relaxed flag store is
	 * watched again after it; only the flag's taker is reported. The
	 * watch lasts 300 ms after the taker comes: a taker preempted
	 * between the flag and the data still meets it. */
	long_cold_stalls(300000);
	long rep0 = reports();
	pthread_create(&lt, NULL, flag_taker_reader, (void *)&published);
	/* The data's own store is a plain one: not "just after a release"
	 * (pthread_create is one), whose stall would wait for a taker of
	 * that release up to the long wait set below, while the reader
	 * gives up waiting for the flag's watch. */
	ucsan_ctx_tls.released = 0;
	ucsan_ctx_tls.release_sites = 0;
	write_site_19(&pub_data, 1);
	ucsan_opts.cold_release_wait_us = 10000000;
	CHECK("cold_store_kept_unpublished", ucsan_ctx_tls.unpublished.ptr == (void *)&pub_data);
	__tsan_atomic32_store(&pub_flag, 1, 0 /* relaxed */);
	CHECK("relaxed_store_takes_it", ucsan_ctx_tls.unpublished.ptr == NULL);
	pthread_join(lt, NULL);
	CHECK("relaxed_publication_reported", reports() == rep0 + 1);
	ucsan_opts.cold_release_wait_us = 200000;
	rep0 = reports();
	const long races1 = atomic_load(&ucsan_counters[CTR_DATA_RACES]);
	pthread_create(&lt, NULL, data_poller, NULL);
	write_site_20(&pub_data2, 1);
	__tsan_atomic32_store(&pub_flag2, 1, 0 /* relaxed */);
	pthread_join(lt, NULL);
	CHECK("relaxed_publication_needs_taker",
	      reports() == rep0 && atomic_load(&ucsan_counters[CTR_DATA_RACES]) == races1 + 1);
	/* Without release waits, the watch still knows its taker. */
	long_cold_stalls(300000);
	ucsan_opts.cold_release_wait_us = 0;
	rep0 = reports();
	pthread_create(&lt, NULL, flag_taker_reader, (void *)&published4);
	write_site_23(&pub_data4, 1);
	__tsan_atomic32_store(&pub_flag4, 1, 0 /* relaxed */);
	pthread_join(lt, NULL);
	CHECK("relaxed_publication_without_release_wait", reports() == rep0 + 1);
	/* A poll of the flag itself just after a nap, while the
	 * publication's stall waits for a taker, is watched beside that
	 * stall instead of refused. */
	long_cold_stalls(300000);
	ucsan_opts.cold_release_wait_us = 200000;
	pthread_create(&lt, NULL, flag_poller, NULL);
	ucsan_ctx_tls.released = 0;
	ucsan_ctx_tls.release_sites = 0;
	write_site_53(&counted.data, 1);
	__tsan_atomic32_fetch_add(&counted.flag, 1, 0 /* relaxed */);
	pthread_join(lt, NULL);
	CHECK("flag_poll_watched_beside_publication", flag_poll_watches == 1);
	/* Data right next to its flag is published by it too (the linker
	 * often lays the two out side by side); only a store the flag lies
	 * in is not. Nobody takes it: the watch waits its 2 ms, then ends. */
	long_cold_stalls(2000);
	ucsan_opts.cold_release_wait_us = 2000;
	static struct {
		int flag;
		int data;
	} adjacent;
	_Atomic int done = 0;
	pthread_create(&lt, NULL, waiter_thread, &done);
	write_site_28(&adjacent.data, 1);
	w0 = watches();
	__tsan_atomic32_store(&adjacent.flag, 1, 0 /* relaxed */);
	CHECK("adjacent_data_published", watches() == w0 + 1);
	atomic_store(&done, 1);
	pthread_join(lt, NULL);
	ucsan_opts = saved;
	/* The taker's store under the lock it took leaves the wait on. */
	long_cold_stalls(300000);
	ucsan_opts.cold_release_wait_us = 10000000;
	{
		const long races1 = atomic_load(&ucsan_counters[CTR_DATA_RACES]);
		pthread_t ht;
		pthread_create(&ht, NULL, handover_taker, NULL);
		/* Started before the stall, or it would run parked. */
		while (!atomic_load(&handover_started))
			usleep(100);
		pthread_mutex_lock(&handover_lock);
		pthread_mutex_unlock(&handover_lock);
		atomic_store(&handover_go, 1);
		write_site_25(&handover_data, 1);
		pthread_join(ht, NULL);
		ucsan_opts = saved;
		CHECK("taker_store_under_lock_not_watched", handover_taker_watches == 0);
		CHECK("taker_store_under_lock_keeps_wait",
		      atomic_load(&ucsan_counters[CTR_DATA_RACES]) == races1 + 1);
	}
	/* With checking off, a new site is done with at once: it does not
	 * send every access back to the cold path until checking is on. */
	{
		const int warm1 = warm_sites();
		const long w1 = watches();
		atomic_store(&ucsan_enabled, false);
		site_disabled(&shared_c);
		atomic_store(&ucsan_enabled, true);
		CHECK("disabled_site_done_with", warm_sites() == warm1 + 1 && watches() == w1);
	}
	/* A store to a variable another thread polls between sleeps stalls a
	 * period and a quarter, where its usual stall ends sooner: the
	 * poller's next read comes within it. */
	{
		long_cold_stalls(300);
		pthread_t pt, st;
		pthread_create(&pt, NULL, poller, NULL);
		while (atomic_load(&poller_polls) < POLLS)
			usleep(200);
		pthread_create(&st, NULL, poll_storer, NULL);
		pthread_join(st, NULL);
		atomic_store(&poller_done, 1);
		pthread_join(pt, NULL);
		ucsan_opts = saved;
		CHECK("polled_store_stalls_a_period", atomic_load(&polled_store_ns) >= POLL_US * 1000ULL);
	}
	/* A store made first of two threads running the same code waits for
	 * the other to reach it; with cold_same_code_us=0 it does not. */
	{
		long_cold_stalls(2000);
		ucsan_opts.cold_sleeper_us = 0;
		ucsan_opts.cold_same_code_us = 1000000;
		CHECK("same_code_store_waits_for_the_other", run_same_code() == 1);
		ucsan_opts.cold_same_code_us = 0;
		CHECK("same_code_wait_off_misses", run_same_code() == 0);
		ucsan_opts.cold_same_code_us = 1000000;
		pthread_t idle, early;
		pthread_create(&idle, NULL, same_code_idle_worker, (void *)1);
		pthread_create(&early, NULL, same_code_idle_worker, NULL);
		pthread_join(early, NULL);
		pthread_mutex_lock(&same_mu);
		same_go = 1;
		pthread_cond_signal(&same_cv);
		pthread_mutex_unlock(&same_mu);
		pthread_join(idle, NULL);
		CHECK("same_code_no_wait_for_idle_thread",
		      same_stalled_ns > 0 && same_stalled_ns < 500000000ULL);
		ucsan_opts = saved;
	}
	/* While another thread's read stall is on, a new thread's first read
	 * of its argument is watched beside it as long as its creator runs;
	 * not while the creator waits in the join, nor beside a read stall
	 * made under a lock. */
	{
		struct cold_read stall = { site_start_stall, &shared_c };
		pthread_t sr = start_long_stall(cold_reader, &stall);
		CHECK("start_read_of_arg_watched_beside", run_start_reader(start_reader, &start_arg[0], false));
		CHECK("start_read_waits_while_creator_joins",
		      run_start_reader(start_reader_joined, &start_arg[1], true));
		join_cold_reader(sr);
		struct cold_read locked_stall = { site_start_locked_stall, &shared_b };
		sr = start_long_stall(locked_cold_reader, &locked_stall);
		CHECK("start_read_waits_beside_locked_read",
		      run_start_reader(start_reader_beside_locked, &start_arg[0], false));
		join_cold_reader(sr);
		/* An unlocked read of static data within 64 bytes of a read
		 * stall made under a lock (the first half of the locked update
		 * that follows) takes the stage rather than wait its turn, as
		 * it does from a locked store. (A read just after a release
		 * holds no other read off: not here, as in the middle of a
		 * thread's work.) */
		ucsan_opts.cold_release_wait_us = 0;
		struct cold_read count_stall = { site_locked_count_read, &resized.count };
		sr = start_long_stall(locked_cold_reader, &count_stall);
		/* Not a poll: main waited for the stall in sleeps. */
		ucsan_ctx_tls.woke_sites = 0;
		const long w = watches();
		site_unlocked_mask_read(&resized.mask);
		CHECK("unlocked_read_beside_locked_read_watched", watches() == w + 1);
		join_cold_reader(sr);
		ucsan_opts = saved;
	}
	/* A receive into the buffer its call site filled before, handed over
	 * since (a release), is watched again though the site is done with;
	 * once per buffer (again if that watch was cut short), and not
	 * without a release in between. */
	{
		long_cold_stalls(2000);
		/* The usual stall for a store just after a release: not one
		 * that waits for a taker, and may be left for later. */
		ucsan_opts.cold_release_wait_us = 0;
		pthread_t worker;
		pthread_create(&worker, NULL, companion, NULL);
		const long first = refill(false);
		const long no_release = refill(true);
		const long refilled = refill(true);
		/* Not each time (once more if a watch was cut short). */
		const long again = refill(true) + refill(true) + refill(true);
		ucsan_opts.cold_refills = false;
		const long off = refill(true);
		join_cold_reader(worker);
		CHECK("receive_first_run_watched", first == 1);
		CHECK("receive_without_release_not_watched", no_release == 0);
		CHECK("receive_refill_watched", refilled == 1);
		CHECK("receive_refill_not_each_time", again <= 1);
		CHECK("receive_refill_off", off == 0);
		ucsan_opts = saved;
	}
	/* Handing one argument again, the bytes refilled since are marked
	 * for the new thread's reads; another argument, or the same one
	 * unchanged, marks none. */
	{
		static struct {
			void *server;
			int fd;
		} handed;
		handed.fd = 7;
		const uint64_t first = ucsan_cold_arg_handed(&handed);
		handed.fd = 8;
		const uint64_t refilled = ucsan_cold_arg_handed(&handed);
		const uint64_t same = ucsan_cold_arg_handed(&handed);
		static int other;
		const uint64_t elsewhere = ucsan_cold_arg_handed(&other);
		CHECK("arg_first_hand_unmarked", first == 0);
		CHECK("arg_refilled_field_marked", refilled && !(refilled & ~(0xfULL << 8)));
		CHECK("arg_unchanged_unmarked", same == 0 && elsewhere == 0);
	}
	/* Parked, an unlocked read-modify-write of static data is watched. */
	park_during_write(parked_rmw, write_site_43, &shared_c);
	ucsan_opts = saved;
	CHECK("parked_unlocked_rmw_watched", rmw_watches == 1);
	/* A release, or a store in between, ends the wait for a flag. */
	write_site_21(&pub_data3, 1);
	__tsan_atomic32_store(&pub_flag3, 1, 3 /* release */);
	CHECK("release_publishes", ucsan_ctx_tls.unpublished.ptr == NULL);
	write_site_22(&pub_data3, 2);
	write_site_1(&shared_c, 6);
	/* (Special still if the countdown just ran out: picking its sample.) */
	CHECK("store_between_ends_wait",
	      ucsan_ctx_tls.unpublished.ptr == NULL && (!ucsan_ctx_tls.special || ucsan_ctx_tls.picking));
	ucsan_opts = saved;
	pthread_join(idle, NULL);
	CHECK("exits_counted", atomic_load(&ucsan_live_threads) == 1);
	CHECK("last_exit_sets_alone", gate_alone(atomic_load(&ucsan_hot.gate)));
	/* A store made while the one other thread waits on a condition
	 * variable, none woken since, is done with unwatched: nothing can
	 * meet it. With cold_skip_blocked=0 it is watched. A signal ends
	 * that at once, before the waiter is back from its wait. */
	{
		long_cold_stalls(2000);
		ucsan_opts.cold_skip_blocked = true;
		pthread_t w;
		pthread_create(&w, NULL, blocked_waiter, NULL);
		const uint8_t *mine = ucsan_ctx_sites(&ucsan_ctx_tls);
		for (int i = 0; i < 10000 && !ucsan_sites_others_blocked(mine, 1); i++)
			usleep(1000);
		const long w0 = watches();
		write_site_45(&shared_c, 7);
		const long w1 = watches();
		ucsan_opts.cold_skip_blocked = false;
		write_site_46(&shared_c, 8);
		const long w2 = watches();
		ucsan_opts = saved;
		pthread_mutex_lock(&blocked_mu);
		blocked_go = 1;
		pthread_cond_signal(&blocked_cv);
		const bool woken = !ucsan_sites_others_blocked(mine, 1);
		pthread_mutex_unlock(&blocked_mu);
		pthread_join(w, NULL);
		CHECK("store_while_others_blocked_unwatched", w1 == w0);
		CHECK("skip_blocked_off_watches", w2 == w0 + 1);
		CHECK("signalled_waiter_not_blocked", woken);
	}
	/* A yield that kept main off its CPU (a spinner pinned beside it) is
	 * a wake-up, as a sleep that long: its next sites are a poll's. */
	{
		CHECK("long_yield_wakes", yield_wakes(true));
		CHECK("yield_sleeps_off_no_wake", !yield_wakes(false));
	}
	/* Annotation state keeps even a lone thread's accesses checked. */
	ucsan_atomic_next(1);
	CHECK("special_clears_alone", !gate_alone(atomic_load(&ucsan_hot.gate)));
	site_one(&shared_a);
	CHECK("special_back_to_alone", gate_alone(atomic_load(&ucsan_hot.gate)));
	return print_results() ? 1 : 0;
}
