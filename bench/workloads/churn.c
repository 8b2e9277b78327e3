// SPDX-License-Identifier: Apache-2.0
/*
 * churn: thousands of short-lived threads. Waves of WAVE threads are
 * created and joined; each reads a slice of shared read-only input, writes
 * its own result slot, adds to a mutex-protected total and bumps an atomic
 * counter. Measures thread start-up and tear-down, and per-thread state.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "common.h"

#define THREADS 6000
#define WAVE 8
#define INPUT 4096
#define WORK 600

static uint32_t input[INPUT];
static uint64_t result[THREADS];
static pthread_mutex_t total_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t total;
static _Atomic unsigned long started;

static void *task(void *arg)
{
	const unsigned id = (unsigned)(uintptr_t)arg;
	uint64_t h = id;
	atomic_fetch_add_explicit(&started, 1, memory_order_relaxed);
	for (unsigned i = 0; i < WORK; i++)
		h = h * 31 + input[(id * 7 + i) % INPUT];
	result[id] = h;
	pthread_mutex_lock(&total_lock);
	total += h & 0xffff;
	pthread_mutex_unlock(&total_lock);
	return NULL;
}

int main(void)
{
	uint64_t s = rng_seed(3);
	for (int i = 0; i < INPUT; i++)
		input[i] = (uint32_t)rng_next(&s);

	pthread_t th[WAVE];
	for (unsigned base = 0; base < THREADS; base += WAVE) {
		for (unsigned k = 0; k < WAVE; k++)
			CHECK(pthread_create(&th[k], NULL, task, (void *)(uintptr_t)(base + k)) == 0);
		for (unsigned k = 0; k < WAVE; k++)
			CHECK(pthread_join(th[k], NULL) == 0);
	}

	uint64_t x = 0;
	for (int i = 0; i < THREADS; i++)
		x ^= result[i] + (uint64_t)i;
	printf("churn: threads=%lu total=%lu xor=%016lx\n",
	       atomic_load(&started), (unsigned long)total, (unsigned long)x);
	return 0;
}
