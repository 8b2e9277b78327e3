/*
 * Scaffolding for the kcsan suite: the Linux kernel's KCSAN KUnit test
 * (kernel/kcsan/kcsan_test.c) rebuilt as one user-space program per case.
 *
 * A test defines its access "kernels" (small NOINLINE functions touching the
 * shared variables below), then calls kcsan_run(): a few threads call the
 * two kernels concurrently for a bounded time, as the kernel test's torture
 * threads do.  The harness (tests/e2e/run.sh) checks the report on stderr.
 *
 * Everything the scaffolding itself does is either uninstrumented
 * (__no_kcsan) or marked (__atomic builtins), so it never sets watchpoints
 * and never shows up in a report.  Not a test (no .c suffix).
 *
 * Conventions of the tests:
 *  - a racy case runs with halt_on_error=1, a small skip_watch and TRIES:
 *    a run ends at its first report.  Anything that may legitimately come
 *    first (a race at unknown origin, when the racing write slipped past the
 *    check just before the watchpoint was armed) must not be a NOT line, so
 *    that such a run is simply retried;
 *  - a case expecting no report runs for a fixed time with skip_watch=0 and
 *    a short stall (many watchpoints), and where possible shows with
 *    print_stats=1 that the races did happen and were filtered;
 *  - kcsan_run() fails the program (an "e2e:" line) unless every kernel ran
 *    often, so that no case passes because nothing happened.
 */
#ifndef KCSAN_TEST_H
#define KCSAN_TEST_H

#include <stdint.h>

#include <ucsan/kernel.h>

#include "e2e.h"

/* === What the kernels race on === */

long test_sink;	/* where readers put what they read */
long test_var;	/* the usual racy variable */
long test_array[3 * 4096 / sizeof(long)]; /* spans several watchpoint slots */
struct {
	long val[8];
} test_struct;	/* larger than a word */

/*
 * Uninstrumented helpers.  sink_value() keeps a read from being optimized
 * away; peek() is the kernel's READ_ONCE_NOCHECK: a read the detector never
 * sees.
 */
__no_kcsan NOINLINE void sink_value(long v)
{
	WRITE_ONCE(test_sink, v);
}

__no_kcsan NOINLINE long peek(const long *p)
{
	return READ_ONCE(*p);
}

/* The kernel's cpu_relax(). The runtime has the same lines
 * (ucsan_cpu_relax() in src/platform.c), but a test program must not
 * reach into the runtime's internals. */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/*
 * Defines a kernel on one line of the test file, which the reports name:
 * KCSAN_KERNEL(test_kernel_read, sink_value(test_var)).
 */
#define KCSAN_KERNEL(name, ...) NOINLINE void name(void) { __VA_ARGS__; }

/* test_kernel_write_struct: a checked write of all of test_struct, then an
 * unchecked change of one word (so that the value changes). */
#define KCSAN_KERNEL_WRITE_STRUCT()                                            \
	KCSAN_KERNEL(test_kernel_write_struct,                                 \
		     ucsan_check_write(&test_struct, sizeof(test_struct));     \
		     ucsan_disable_current(); test_struct.val[3]++;            \
		     ucsan_enable_current())

/* Runs inside the scope of a scoped assertion: accesses to anything but
 * test_var. */
NOINLINE void test_enter_scope(void)
{
	long x = 0;

	sink_value(READ_ONCE(test_sink));
	ucsan_check_read(&x, sizeof(x));
}

/* === The runner === */

typedef void (*kcsan_kernel_t)(void);

enum kcsan_mode {
	/* Like the kernel test: every thread calls kernel 0, 1, 0, 1, ...;
	 * thread i starts with kernel i % 2. */
	KCSAN_ALTERNATE,
	/* Thread i only ever calls kernel i % 2. */
	KCSAN_FIXED,
};

struct kcsan_config {
	kcsan_kernel_t kernel[2];
	enum kcsan_mode mode;
	int nthreads;		/* 0: 2 */
	long ms;		/* how long the threads run; 0: 3000 */
	/* Called over and over by the main thread while the others run
	 * (NULL: the main thread sleeps). */
	void (*main_loop)(void);
	long min_calls;		/* each kernel must run this often; 0: 1000 */
};

#define KCSAN_MAX_THREADS 8

struct kcsan_thread {
	pthread_t pt;
	int index;
	kcsan_kernel_t kernel[2];
	enum kcsan_mode mode;
};

/* e2e_now(), uninstrumented: the main loop asks often. */
__no_kcsan static double kcsan_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Calls per kernel over all threads: a test expecting no report must not
 * pass because a kernel never ran. */
static long kcsan_calls[2];

__no_kcsan static void *kcsan_access_thread(void *arg)
{
	struct kcsan_thread *t = arg;
	unsigned int next = (unsigned int)t->index;
	long calls[2] = { 0, 0 };

	while (!e2e_stopped()) {
		unsigned int k = next % 2;

		if (t->mode == KCSAN_ALTERNATE)
			next++;
		t->kernel[k]();
		calls[k]++;
	}
	__atomic_fetch_add(&kcsan_calls[0], calls[0], __ATOMIC_RELAXED);
	__atomic_fetch_add(&kcsan_calls[1], calls[1], __ATOMIC_RELAXED);
	return NULL;
}

/*
 * Runs the test.  Racy tests run with halt_on_error=1 and normally end at
 * the first report; otherwise the threads stop after cfg->ms and the
 * program exits 0 (or 66 if something was reported).
 */
__no_kcsan static void kcsan_run(const struct kcsan_config *cfg)
{
	static struct kcsan_thread threads[KCSAN_MAX_THREADS];
	int n = cfg->nthreads ? cfg->nthreads : 2;
	long ms = cfg->ms ? cfg->ms : 3000;
	long min_calls = cfg->min_calls ? cfg->min_calls : 1000;
	int i;

	E2E_CHECK(n >= 2 && n <= KCSAN_MAX_THREADS);
	e2e_require_runtime();
	for (i = 0; i < n; i++) {
		threads[i].index = i;
		threads[i].kernel[0] = cfg->kernel[0];
		threads[i].kernel[1] = cfg->kernel[1];
		threads[i].mode = cfg->mode;
		threads[i].pt = e2e_spawn(kcsan_access_thread, &threads[i]);
	}
	if (cfg->main_loop) {
		double end = kcsan_now() + (double)ms / 1000.0;
		unsigned long iter = 0;

		while ((iter++ & 255) != 0 || kcsan_now() < end)
			cfg->main_loop();
		__atomic_store_n(&e2e_stop_flag, 1, __ATOMIC_RELAXED);
	} else {
		e2e_run_for(ms);
	}
	for (i = 0; i < n; i++)
		e2e_join(threads[i].pt);

	/* Both kernels ran, many times. */
	E2E_CHECK(__atomic_load_n(&kcsan_calls[0], __ATOMIC_RELAXED) >= min_calls);
	E2E_CHECK(__atomic_load_n(&kcsan_calls[1], __ATOMIC_RELAXED) >= min_calls);
}

/*
 * kcsan_run() with the fields that differ from the defaults named:
 * KCSAN_RUN(.kernel = { k0, k1 }, .mode = KCSAN_FIXED, .ms = 1500).
 */
#define KCSAN_RUN(...) kcsan_run(&(const struct kcsan_config){ __VA_ARGS__ })

/* The common case: two kernels, alternating, for @ms milliseconds. */
__no_kcsan static E2E_UNUSED void kcsan_run2(kcsan_kernel_t k0, kcsan_kernel_t k1, long ms)
{
	struct kcsan_config cfg = { { k0, k1 }, KCSAN_ALTERNATE, 2, ms, NULL, 0 };

	kcsan_run(&cfg);
}

#endif /* KCSAN_TEST_H */
