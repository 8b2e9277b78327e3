// Bug: a size handed over by a relaxed flag.  A background thread builds
// the lookup index while the front end already serves requests from a slow
// path; once the index says it is ready, lookups use it.  The table itself
// is published right (release store, acquire load of `table`), but the
// size, added later, rides on the state word, whose store and loads are
// relaxed ("x86 keeps stores in order anyway"):
//
//     idx->nslots = n;
//     atomic_store_explicit(&idx->state, INDEX_READY, memory_order_relaxed);
//
// Nothing orders the store of `nslots` before the flag, for the compiler or
// for C11: the front end can read `nslots` unordered with its store.  The
// accesses are never at the same time, so only a watch of the store after
// the flag went up, as if it were still in flight, meets the read.
//
// TRIES: 30
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in build_index / lookup$|^BUG: UCSAN: data-race in lookup / build_index$
// EXPECT: ^read to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^write \(reordered\) to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ build_index\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*relaxed_ready\.c:62$
// EXPECT-FRAME: ^read to 0x => ^ lookup\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*relaxed_ready\.c:79$

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "oneshot.h"

enum { INDEX_BUILDING, INDEX_READY };

struct index {
	atomic_int state;
	unsigned long *_Atomic table;
	unsigned long nslots;
};

static struct index the_index;

static unsigned long key_hash(unsigned long k)
{
	k ^= k >> 31;
	k *= 0x7fb5d329728ea185UL;
	return k ^ (k >> 27);
}

/* Builds the index from the keys, then tells the front end to use it. */
NOINLINE void build_index(struct index *idx, const unsigned long *keys, unsigned long nkeys)
{
	unsigned long n = 2 * nkeys, i;
	unsigned long *slots = calloc(n, sizeof(*slots));

	for (i = 0; i < nkeys; i++) {
		unsigned long h = key_hash(keys[i]) % n;

		while (slots[h])
			h = (h + 1) % n;
		slots[h] = keys[i];
	}
	atomic_store_explicit(&idx->table, slots, memory_order_release);
	spin_for_us(300); /* stands for warming the rest of the index */
	idx->nslots = n;	/* racy write: published by the relaxed store below */
#ifdef FIXED
	atomic_store_explicit(&idx->state, INDEX_READY, memory_order_release);
#else
	atomic_store_explicit(&idx->state, INDEX_READY, memory_order_relaxed);
#endif
}

/* Is the key known?  The index once it is ready, a scan until then. */
NOINLINE int lookup(const struct index *idx, const unsigned long *keys, unsigned long nkeys, unsigned long k)
{
#ifdef FIXED
	if (atomic_load_explicit(&idx->state, memory_order_acquire) == INDEX_READY) {
#else
	if (atomic_load_explicit(&idx->state, memory_order_relaxed) == INDEX_READY) {
#endif
		const unsigned long *slots = atomic_load_explicit(&idx->table, memory_order_acquire);
		unsigned long n = idx->nslots;	/* racy read */
		unsigned long h = key_hash(k) % n;

		while (slots[h] && slots[h] != k)
			h = (h + 1) % n;
		return slots[h] == k;
	}
	for (unsigned long i = 0; i < nkeys; i++)
		if (keys[i] == k)
			return 1;
	return 0;
}

#define NKEYS 2000
static unsigned long keys[NKEYS];

static void *indexer_main(void *arg)
{
	build_index(arg, keys, NKEYS);
	return NULL;
}

int main(void)
{
	pthread_t indexer;
	unsigned long hits = 0;
	int req;

	for (int i = 0; i < NKEYS; i++)
		keys[i] = key_hash((unsigned long)i + 1) | 1;
	pthread_create(&indexer, NULL, indexer_main, &the_index);
	/* The front end: a request every 50 us or so. */
	for (req = 0; req < 400; req++) {
		hits += (unsigned long)lookup(&the_index, keys, NKEYS, keys[(req * 7) % NKEYS] + (req % 3 == 0));
		sleep_us(50);
	}
	pthread_join(indexer, NULL);
	printf("%lu of %d lookups hit\n", hits, req);
	free(atomic_load(&the_index.table));
	return 0;
}
