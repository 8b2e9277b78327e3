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
