/*
 * Helpers shared by the end-to-end test programs in tests/e2e/.
 *
 * Everything here is static so that each test is a single translation unit
 * (plus an optional SHARED library).  The stop flag and the counters the
 * helpers use are only touched with __atomic builtins (marked accesses), so
 * they never set watchpoints and never show up in reports.
 */
#ifndef UCSAN_E2E_H
#define UCSAN_E2E_H

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*
 * Functions whose names the tests assert must stay real, non-inlined,
 * non-cloned ELF functions: gcc would otherwise create writer.constprop.0 or
 * writer.isra.0 clones (noipa forbids that); clang has no noipa.
 */
#if defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noinline, noipa))
#endif

#define E2E_UNUSED __attribute__((unused))

/* Set by e2e_run_for() when the racing phase is over. */
static int e2e_stop_flag;

static E2E_UNUSED int e2e_stopped(void)
{
	return __atomic_load_n(&e2e_stop_flag, __ATOMIC_RELAXED);
}

static E2E_UNUSED void e2e_die(const char *what, int err)
{
	fprintf(stderr, "e2e: %s failed: %s\n", what, strerror(err));
	exit(2);
}

static E2E_UNUSED double e2e_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A notification that runs fn(value) in a thread libc makes for it. */
static E2E_UNUSED struct sigevent e2e_sigev_thread(void (*fn)(union sigval), int value)
{
	struct sigevent ev;

	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_THREAD;
	ev.sigev_notify_function = fn;
	ev.sigev_value.sival_int = value;
	return ev;
}

static E2E_UNUSED void e2e_sleep_ms(long ms)
{
	struct timespec ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static E2E_UNUSED pthread_t e2e_spawn(void *(*fn)(void *), void *arg)
{
	pthread_t t;
	int err = pthread_create(&t, NULL, fn, arg);

	if (err)
		e2e_die("pthread_create", err);
	return t;
}

static E2E_UNUSED void e2e_join(pthread_t t)
{
	int err = pthread_join(t, NULL);

	if (err)
		e2e_die("pthread_join", err);
}

/*
 * An idle second thread for the rest of the process. ucsan watches nothing
 * while a process has a single thread; tests of single-threaded mechanisms
 * (weak memory's pending access, barriers) start this first.
 */
static void *e2e_idle(void *arg)
{
	(void)arg;
	for (;;)
		e2e_sleep_ms(1000);
	return NULL;
}

static E2E_UNUSED void e2e_keep_company(void)
{
	pthread_t t = e2e_spawn(e2e_idle, NULL);

	pthread_detach(t);
}

/*
 * Let the already started threads race for at most @ms milliseconds, then
 * tell them to stop.  Racy tests run with halt_on_error=1, so the process
 * normally ends at the first report long before the deadline; if the race
 * was not caught in time the program exits 0 and the harness re-runs it.
 */
static E2E_UNUSED void e2e_run_for(long ms)
{
	e2e_sleep_ms(ms);
	__atomic_store_n(&e2e_stop_flag, 1, __ATOMIC_RELAXED);
}

/* Start two threads, let them run for @ms milliseconds, join them. */
static E2E_UNUSED void e2e_race2(void *(*a)(void *), void *(*b)(void *), long ms)
{
	pthread_t ta = e2e_spawn(a, NULL);
	pthread_t tb = e2e_spawn(b, NULL);

	e2e_run_for(ms);
	e2e_join(ta);
	e2e_join(tb);
}

/*
 * The racing pair most tests need: NOINLINE long READ(void) returning VAR
 * and NOINLINE void WRITE(long v) storing v into VAR.  Used at file scope
 * in a test, it puts both functions on that line of the test file, which
 * the reports name.
 */
#define E2E_READER_WRITER(var, read, write)                                    \
	NOINLINE long read(void) { return (var); }                             \
	NOINLINE void write(long v) { (var) = v; }

/*
 * The loop of one racing thread: call @read over and over (what it returns
 * is summed into e2e_sink, so that the reads are not optimized away) or, if
 * @read is NULL, @step with 1, 2, 3, ...; until e2e_stopped(), or @count
 * calls if @count is not 0.  The racy accesses belong in @read / @step, in
 * the test file, where the reports name them.
 */
struct e2e_loop {
	long (*read)(void);
	void (*step)(long i);
	long count;		/* 0: until e2e_stopped() */
	long calls;		/* out: how many calls were made */
};

static long e2e_sink;

/*
 * The fields are read and written with __atomic builtins: the loop itself
 * must never set a watchpoint (tests run with skip_watch=0).  NOINLINE keeps
 * a thread function that calls it in the report's stack.
 */
static NOINLINE E2E_UNUSED void e2e_loop_run(struct e2e_loop *l)
{
	long (*read)(void) = __atomic_load_n(&l->read, __ATOMIC_RELAXED);
	void (*step)(long) = __atomic_load_n(&l->step, __ATOMIC_RELAXED);
	long count = __atomic_load_n(&l->count, __ATOMIC_RELAXED);
	long i, sum = 0;

	for (i = 1; (count == 0 || i <= count) && !e2e_stopped(); i++) {
		if (read)
			sum += read();
		else
			step(i);
	}
	__atomic_store_n(&l->calls, i - 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&e2e_sink, sum, __ATOMIC_RELAXED);
}

/* A thread running the struct e2e_loop it is given. */
static E2E_UNUSED void *e2e_loop_thread(void *arg)
{
	e2e_loop_run((struct e2e_loop *)arg);
	return NULL;
}

/* Two loops racing in two threads. */
struct e2e_race {
	struct e2e_loop loop[2];
	pthread_t thread[2];
};

/*
 * Start the two loops.  The stop flag is cleared first, so that a process
 * (or a forked child) may race more than once.
 */
static E2E_UNUSED void e2e_race_start(struct e2e_race *race)
{
	__atomic_store_n(&e2e_stop_flag, 0, __ATOMIC_RELAXED);
	race->thread[0] = e2e_spawn(e2e_loop_thread, &race->loop[0]);
	race->thread[1] = e2e_spawn(e2e_loop_thread, &race->loop[1]);
}

static E2E_UNUSED void e2e_race_stop(struct e2e_race *race)
{
	__atomic_store_n(&e2e_stop_flag, 1, __ATOMIC_RELAXED);
	e2e_join(race->thread[0]);
	e2e_join(race->thread[1]);
}

/* Let the loops race for at most @ms milliseconds (see e2e_run_for()). */
static E2E_UNUSED void e2e_race_for(struct e2e_race *race, long ms)
{
	e2e_race_start(race);
	e2e_run_for(ms);
	e2e_race_stop(race);
}

/* Initializers of a struct e2e_race: @read against @step, or two steps. */
#define E2E_RACE_RW(read, step)                                                \
	{ .loop = { { (read), NULL, 0, 0 }, { NULL, (step), 0, 0 } } }
#define E2E_RACE_STEPS(a, b)                                                   \
	{ .loop = { { NULL, (a), 0, 0 }, { NULL, (b), 0, 0 } } }

/* The usual race: @read against @write for at most @ms milliseconds. */
static E2E_UNUSED void e2e_race_rw(long (*read)(void), void (*write)(long), long ms)
{
	struct e2e_race race = E2E_RACE_RW(read, write);

	e2e_race_for(&race, ms);
}

/* Threads started by e2e_start() wait here until all of them are alive. */
static pthread_barrier_t e2e_start_line;
static void *(*e2e_start_fn)(void *);

static E2E_UNUSED void *e2e_started(void *arg)
{
	void *(*fn)(void *) = __atomic_load_n(&e2e_start_fn, __ATOMIC_RELAXED);

	pthread_barrier_wait(&e2e_start_line);
	return fn(arg);
}

/*
 * Start @n threads, thread i running @fn((void *)i), and return once all
 * of them are alive, so that they race from the start (and a test with
 * hundreds of threads really has them all at once).  Stacks are small
 * (256 KiB) so that hundreds fit.  One group of threads at a time.
 */
static E2E_UNUSED void e2e_start(pthread_t *t, long n, void *(*fn)(void *))
{
	pthread_attr_t attr;
	long i;
	int err;

	__atomic_store_n(&e2e_start_fn, fn, __ATOMIC_RELAXED);
	pthread_barrier_init(&e2e_start_line, NULL, (unsigned)n + 1);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	for (i = 0; i < n; i++) {
		err = pthread_create(&t[i], &attr, e2e_started, (void *)i);
		if (err)
			e2e_die("pthread_create", err);
	}
	pthread_attr_destroy(&attr);
	pthread_barrier_wait(&e2e_start_line);
}

static E2E_UNUSED void e2e_join_all(const pthread_t *t, long n)
{
	long i;

	for (i = 0; i < n; i++)
		e2e_join(t[i]);
}

/*
 * Say where a variable under test lives ("addr: NAME 0x... SIZE bytes"),
 * for matching against a report's addresses.
 */
static E2E_UNUSED void e2e_show_addr(const char *name, const void *p, size_t size)
{
	fprintf(stderr, "addr: %s %p %zu bytes\n", name, p, size);
}

/*
 * Exit 2 unless libucsan is mapped into the process: a test expecting no
 * report must not pass just because the runtime is missing.
 */
static E2E_UNUSED void e2e_require_runtime(void)
{
	char line[4096];
	int found = 0;
	FILE *f;

#ifdef E2E_SKIP_RUNTIME_CHECK   /* for trying the programs under plain TSan */
	return;
#endif
	f = fopen("/proc/self/maps", "r");
	if (!f)
		e2e_die("fopen /proc/self/maps", errno);
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, "libucsan") != NULL;
	fclose(f);
	if (!found) {
		fprintf(stderr, "e2e: libucsan is not loaded in this process\n");
		exit(2);
	}
}

/* Fail the test (exit 2, which no test expects) with a message. */
#define E2E_CHECK(cond)                                                        \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "e2e: CHECK FAILED %s:%d: %s\n",       \
				__FILE__, __LINE__, #cond);                    \
			exit(2);                                               \
		}                                                              \
	} while (0)

#endif /* UCSAN_E2E_H */
