// SPDX-License-Identifier: Apache-2.0
/*
 * The fast-path microbenchmark, after KCSAN's debugfs "microbench": one
 * thread, a tight loop, one instrumented access per iteration. Built once
 * with ucsan-cc and run against the real runtime and the empty floor
 * runtime (and built without instrumentation for the bare loop); the
 * difference between the runs is what the runtime's check costs.
 * A second thread, blocked for good, is started first: ucsan lets a
 * process with one thread off the check (GATE_ALONE), and the rows are
 * about the check every multi-threaded program pays. The row "read-alone",
 * timed before that thread exists, is what a lone thread pays.
 *
 *     microbench [ITERATIONS]    prints "<name> <ns per op>" lines (one timed run)
 *     microbench --probe         exits 0 at once (option checks)
 *
 * Each access is separated from the next by an empty asm with a memory
 * clobber, so the compiler keeps every load and store (and, under
 * -fsanitize=thread, its hook call) in the loop.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
#define BARRIER() __asm__ __volatile__("" ::: "memory")

struct blk {
	char b[64];
};

static long words[8] __attribute__((aligned(64)));
static struct blk blk_src[2] __attribute__((aligned(64)));
static struct blk blk_dst[2] __attribute__((aligned(64)));

/* Plain 8-byte read: __tsan_read8. */
static NOINLINE long loop_read(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++) {
		s += words[i & 7];
		BARRIER();
	}
	return s;
}

/* Plain aligned 8-byte write: __tsan_write8. */
static NOINLINE long loop_write(long n)
{
	for (long i = 0; i < n; i++) {
		words[i & 7] = i;
		BARRIER();
	}
	return words[3];
}

/* Marked access, a relaxed atomic load: __tsan_atomic64_load. */
static NOINLINE long loop_marked(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++) {
		s += __atomic_load_n(&words[i & 7], __ATOMIC_RELAXED);
		BARRIER();
	}
	return s;
}

/* Range access, a 64-byte struct copy: gcc emits __tsan_read_range and
 * __tsan_write_range (clang a call to memcpy, which ucsan intercepts). */
static NOINLINE long loop_range(long n)
{
	for (long i = 0; i < n; i++) {
		blk_dst[i & 1] = blk_src[(i >> 1) & 1];
		BARRIER();
	}
	return blk_dst[1].b[5];
}

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static volatile long sink;

/* Blocks until the process exits: the process is no longer alone. */
static void *blocked(void *arg)
{
	char c;
	while (read(*(int *)arg, &c, 1) != 0)
		;
	return NULL;
}

/* One timed run after a short warm-up; the runner repeats whole processes
 * and keeps the best, which is the fast path's cost, not the machine's
 * noise. */
static double measure(long (*fn)(long), long n)
{
	sink = fn(n / 50 + 1);
	const double t0 = now_ns();
	sink = fn(n);
	return (now_ns() - t0) / (double)n;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--probe"))
		return 0;
	const long n = argc > 1 ? atol(argv[1]) : 50000000L;
	if (n <= 0) {
		fprintf(stderr, "usage: microbench [ITERATIONS] | --probe\n");
		return 2;
	}
	for (int i = 0; i < 64; i++)
		blk_src[0].b[i] = blk_src[1].b[i] = (char)i;

	const double alone = measure(loop_read, n);
	static int fds[2];
	pthread_t t;
	if (pipe(fds) != 0 || pthread_create(&t, NULL, blocked, &fds[0]) != 0) {
		perror("microbench: second thread");
		return 1;
	}
	printf("read %.3f\n", measure(loop_read, n));
	printf("write %.3f\n", measure(loop_write, n));
	printf("marked %.3f\n", measure(loop_marked, n));
	printf("range %.3f\n", measure(loop_range, n));
	printf("read-alone %.3f\n", alone);
	return 0;
}
