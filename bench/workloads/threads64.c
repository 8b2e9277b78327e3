// SPDX-License-Identifier: Apache-2.0
/*
 * threads64: 64 threads on 2 CPUs (the process pins itself to the first
 * two CPUs it may use, so the picture is the same on bigger machines).
 * PHASES phases separated by a barrier; in each, every thread works on its
 * own buffer, publishes a partial result into a shared table under a
 * mutex, and bumps shared atomic counters. Many more runnable threads than
 * CPUs: preemption in the middle of everything, including watch windows.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>

#include "common.h"

/* threads256.c includes this file with THREADS 256. */
#ifndef THREADS
#define THREADS 64
#endif
#define PHASES 32
#define WORDS 2048 /* per-thread buffer, 16 KiB */
/* The same total work at any thread count: the runtime stays comparable. */
#define PASSES (64 * 64 / THREADS)

static pthread_barrier_t barrier;
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t table[PHASES][8];
static _Atomic uint64_t ops;
static _Atomic uint64_t phase_sum[PHASES];

static void pin_two_cpus(void)
{
	cpu_set_t have, want;
	CPU_ZERO(&want);
	if (sched_getaffinity(0, sizeof(have), &have) != 0)
		return;
	int n = 0;
	for (int c = 0; c < CPU_SETSIZE && n < 2; c++) {
		if (CPU_ISSET(c, &have)) {
			CPU_SET(c, &want);
			n++;
		}
	}
	sched_setaffinity(0, sizeof(want), &want);
}

static void *worker(void *arg)
{
	const unsigned t = (unsigned)(uintptr_t)arg;
	uint64_t *buf = malloc(WORDS * sizeof(*buf));
	CHECK(buf != NULL);
	uint64_t s = rng_seed(1000 + t);
	for (int i = 0; i < WORDS; i++)
		buf[i] = rng_next(&s);

	for (int ph = 0; ph < PHASES; ph++) {
		uint64_t acc = (uint64_t)ph;
		for (int pass = 0; pass < PASSES; pass++) {
			for (int i = 1; i < WORDS; i++) {
				buf[i] = buf[i] * 6364136223846793005ULL + (buf[i - 1] >> 7);
				acc += buf[i] >> 40;
			}
			atomic_fetch_add_explicit(&ops, WORDS, memory_order_relaxed);
		}
		pthread_mutex_lock(&table_lock);
		table[ph][t % 8] += acc;
		pthread_mutex_unlock(&table_lock);
		atomic_fetch_add_explicit(&phase_sum[ph], acc & 0xffffff, memory_order_relaxed);
		pthread_barrier_wait(&barrier);
	}
	free(buf);
	return NULL;
}

int main(void)
{
	pthread_t th[THREADS];

	pin_two_cpus();
	CHECK(pthread_barrier_init(&barrier, NULL, THREADS) == 0);
	for (unsigned t = 0; t < THREADS; t++)
		CHECK(pthread_create(&th[t], NULL, worker, (void *)(uintptr_t)t) == 0);
	for (unsigned t = 0; t < THREADS; t++)
		CHECK(pthread_join(th[t], NULL) == 0);

	uint64_t x = 0, ps = 0;
	for (int ph = 0; ph < PHASES; ph++) {
		for (int k = 0; k < 8; k++)
			x = x * 1099511628211ULL ^ table[ph][k];
		ps += atomic_load(&phase_sum[ph]);
	}
	printf("threads%d: ops=%lu table=%016lx phases=%016lx\n", THREADS,
	       (unsigned long)atomic_load(&ops), (unsigned long)x, (unsigned long)ps);
	return 0;
}
