// SPDX-License-Identifier: Apache-2.0
/*
 * ringbuf: a lock-free single-producer/single-consumer ring (C11 atomics:
 * acquire/release indices published in batches, plain slots) carrying a
 * stream of values, plus shared statistics counters both threads bump with
 * relaxed fetch_add and a seq_cst "progress" word. The slots are plain
 * accesses ordered by the indices: race-free, and the pattern every
 * lock-free queue uses.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#include "common.h"

#define CAP 1024 /* slots, a power of two */
#define ITEMS 12000000L
#define COUNTERS 4
#define BATCH 16 /* items published at once */

struct ring {
	_Alignas(64) _Atomic unsigned long head; /* next slot to read */
	_Alignas(64) _Atomic unsigned long tail; /* next slot to write */
	_Alignas(64) uint64_t slot[CAP];
};

static struct ring ring;
static _Alignas(64) _Atomic uint64_t counters[COUNTERS];
static _Alignas(64) _Atomic long progress;

static inline void backoff(unsigned *spins)
{
	if (++*spins > 64) {
		*spins = 0;
		sched_yield();
	}
}

/* A little work per item on both sides. */
static inline uint64_t item(long i)
{
	uint64_t x = (uint64_t)i;
	for (int k = 0; k < 8; k++)
		x = (x ^ x >> 29) * 0xbf58476d1ce4e5b9ULL + (uint64_t)k;
	return x;
}

static void *producer(void *arg)
{
	(void)arg;
	unsigned long tail = 0, head_seen = 0;
	for (long i = 0; i < ITEMS; i++) {
		unsigned spins = 0;
		while (tail - head_seen == CAP) {
			head_seen = atomic_load_explicit(&ring.head, memory_order_acquire);
			if (tail - head_seen == CAP)
				backoff(&spins);
		}
		ring.slot[tail % CAP] = item(i);
		tail++;
		/* Publish in batches, as real rings do, and at the end. */
		if (tail % BATCH == 0 || i == ITEMS - 1)
			atomic_store_explicit(&ring.tail, tail, memory_order_release);
		if ((i & 3) == 0)
			atomic_fetch_add_explicit(&counters[i % COUNTERS], 1, memory_order_relaxed);
		if ((i & 0xfff) == 0)
			atomic_store(&progress, i);
	}
	return NULL;
}

struct consumed {
	uint64_t sum, xor;
	long max_progress;
};

static void *consumer(void *arg)
{
	struct consumed *out = arg;
	unsigned long head = 0, tail_seen = 0;
	uint64_t sum = 0, x = 0;
	long maxp = 0;
	for (long i = 0; i < ITEMS; i++) {
		unsigned spins = 0;
		while (head == tail_seen) {
			tail_seen = atomic_load_explicit(&ring.tail, memory_order_acquire);
			if (head == tail_seen)
				backoff(&spins);
		}
		const uint64_t v = ring.slot[head % CAP];
		head++;
		if (head == tail_seen)
			atomic_store_explicit(&ring.head, head, memory_order_release);
		CHECK(v == item(i));
		sum += v;
		x ^= v << (i & 7);
		if ((i & 3) == 1)
			atomic_fetch_add_explicit(&counters[i % COUNTERS], 1, memory_order_relaxed);
		if ((i & 0xfff) == 0) {
			long p = atomic_load(&progress);
			if (p > maxp)
				maxp = p;
		}
	}
	out->sum = sum;
	out->xor = x;
	out->max_progress = maxp;
	return NULL;
}

int main(void)
{
	pthread_t p, c;
	struct consumed out;

	CHECK(pthread_create(&c, NULL, consumer, &out) == 0);
	CHECK(pthread_create(&p, NULL, producer, NULL) == 0);
	CHECK(pthread_join(p, NULL) == 0);
	CHECK(pthread_join(c, NULL) == 0);

	uint64_t total = 0;
	for (int i = 0; i < COUNTERS; i++)
		total += atomic_load_explicit(&counters[i], memory_order_relaxed);
	CHECK(out.max_progress <= ITEMS);
	printf("ringbuf: items=%ld sum=%016lx xor=%016lx counted=%lu\n", ITEMS,
	       (unsigned long)out.sum, (unsigned long)out.xor, (unsigned long)total);
	return 0;
}
