// SPDX-License-Identifier: Apache-2.0
/*
 * hashmap: 4 threads share a chained hash map whose buckets are guarded by
 * 64 striped mutexes. Each thread inserts, looks up and deletes keys of its
 * own residue class (key % 4 == thread), so the final contents and every
 * thread's hit count are deterministic, while the threads still contend on
 * the same stripes and buckets. Nodes come from malloc and go back to free.
 */
#include <pthread.h>

#include "common.h"

#define THREADS 4
#define BUCKETS 8192
#define STRIPES 64
#define KEYS_PER_THREAD 20000
#define OPS_PER_THREAD 700000

struct node {
	struct node *next;
	uint64_t key;
	uint64_t value;
};

static struct node *buckets[BUCKETS];
static pthread_mutex_t stripes[STRIPES];

static inline uint64_t hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return k;
}

static inline pthread_mutex_t *stripe_of(size_t b)
{
	return &stripes[b % STRIPES];
}

/* Returns 1 if the key was new. */
static int map_insert(uint64_t key, uint64_t value)
{
	const size_t b = hash(key) % BUCKETS;
	pthread_mutex_t *m = stripe_of(b);
	struct node *fresh = malloc(sizeof(*fresh));
	CHECK(fresh != NULL);
	pthread_mutex_lock(m);
	for (struct node *n = buckets[b]; n; n = n->next) {
		if (n->key == key) {
			n->value = value;
			pthread_mutex_unlock(m);
			free(fresh);
			return 0;
		}
	}
	fresh->key = key;
	fresh->value = value;
	fresh->next = buckets[b];
	buckets[b] = fresh;
	pthread_mutex_unlock(m);
	return 1;
}

static int map_lookup(uint64_t key, uint64_t *value)
{
	const size_t b = hash(key) % BUCKETS;
	pthread_mutex_t *m = stripe_of(b);
	int found = 0;
	pthread_mutex_lock(m);
	for (struct node *n = buckets[b]; n; n = n->next) {
		if (n->key == key) {
			*value = n->value;
			found = 1;
			break;
		}
	}
	pthread_mutex_unlock(m);
	return found;
}

static int map_delete(uint64_t key)
{
	const size_t b = hash(key) % BUCKETS;
	pthread_mutex_t *m = stripe_of(b);
	struct node *victim = NULL;
	pthread_mutex_lock(m);
	for (struct node **pp = &buckets[b]; *pp; pp = &(*pp)->next) {
		if ((*pp)->key == key) {
			victim = *pp;
			*pp = victim->next;
			break;
		}
	}
	pthread_mutex_unlock(m);
	free(victim);
	return victim != NULL;
}

struct result {
	uint64_t inserted, hits, deleted, checksum;
};

static struct result results[THREADS];

static void *worker(void *arg)
{
	const unsigned t = (unsigned)(uintptr_t)arg;
	uint64_t s = rng_seed(100 + t);
	struct result r = { 0, 0, 0, 0 };

	for (long i = 0; i < OPS_PER_THREAD; i++) {
		const uint64_t x = rng_next(&s);
		const uint64_t key = (x % KEYS_PER_THREAD) * THREADS + t;
		const unsigned op = (unsigned)(x >> 60);
		uint64_t v;
		if (op < 4) {
			r.inserted += (uint64_t)map_insert(key, x >> 8);
		} else if (op < 6) {
			r.deleted += (uint64_t)map_delete(key);
		} else if (map_lookup(key, &v)) {
			r.hits++;
			r.checksum += v;
		}
	}
	results[t] = r;
	return NULL;
}

int main(void)
{
	pthread_t th[THREADS];

	for (int i = 0; i < STRIPES; i++)
		pthread_mutex_init(&stripes[i], NULL);
	for (unsigned t = 0; t < THREADS; t++)
		CHECK(pthread_create(&th[t], NULL, worker, (void *)(uintptr_t)t) == 0);
	for (unsigned t = 0; t < THREADS; t++)
		CHECK(pthread_join(th[t], NULL) == 0);

	uint64_t count = 0, sum = 0;
	for (size_t b = 0; b < BUCKETS; b++) {
		struct node *n = buckets[b];
		while (n) {
			struct node *next = n->next;
			count++;
			sum += n->key ^ n->value;
			free(n);
			n = next;
		}
	}
	struct result total = { 0, 0, 0, 0 };
	for (unsigned t = 0; t < THREADS; t++) {
		total.inserted += results[t].inserted;
		total.hits += results[t].hits;
		total.deleted += results[t].deleted;
		total.checksum += results[t].checksum;
	}
	CHECK(total.inserted - total.deleted == count);
	printf("hashmap: entries=%lu sum=%016lx inserted=%lu deleted=%lu hits=%lu checksum=%016lx\n",
	       (unsigned long)count, (unsigned long)sum, (unsigned long)total.inserted,
	       (unsigned long)total.deleted, (unsigned long)total.hits, (unsigned long)total.checksum);
	return 0;
}
