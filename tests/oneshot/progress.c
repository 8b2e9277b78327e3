// Bug: a plain read of a counter the workers update atomically.  The
// workers count finished files with __atomic_fetch_add(), correctly; the
// progress display in main reads the same field with a plain load:
//
//     return 100 * p->done / p->total;
//
// Mixing a plain read with atomic writes is still a data race (the read may
// be torn or hoisted; it should be __atomic_load_n()).
//
// TRIES: 20
// (make oneshot measures how often one run finds it)
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in file_done / progress_percent$
// EXPECT: ^read to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^read to 0x => ^ progress_percent\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*progress\.c:43$
// EXPECT-FRAME: ^(write|read-write) \(marked\) to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ file_done\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*progress\.c:35$

#include <pthread.h>
#include <stdio.h>

#include "oneshot.h"

#define NWORKERS 2
#define NFILES 120

struct progress {
	unsigned long total;
	unsigned long next;		/* next file to hash, atomic */
	unsigned long done;		/* files hashed, atomic */
	unsigned long long digest[NFILES];
};

NOINLINE void file_done(struct progress *p)
{
	__atomic_fetch_add(&p->done, 1, __ATOMIC_RELAXED);	/* racy with the plain read */
}

NOINLINE unsigned long progress_percent(const struct progress *p)
{
#ifdef FIXED
	return 100 * __atomic_load_n(&p->done, __ATOMIC_RELAXED) / p->total;
#else
	return 100 * p->done / p->total;	/* racy read: not atomic */
#endif
}

/* FNV-1a over a made-up file body. */
static unsigned long long hash_file(unsigned long i)
{
	unsigned long long h = 14695981039346656037ULL;
	int k;

	for (k = 0; k < 4000; k++)
		h = (h ^ (unsigned char)(i * 131 + k)) * 1099511628211ULL;
	spin_for_us(40);		/* read it from disk */
	return h;
}

static void *hash_worker(void *arg)
{
	struct progress *p = arg;
	unsigned long i;

	while ((i = __atomic_fetch_add(&p->next, 1, __ATOMIC_RELAXED)) < p->total) {
		p->digest[i] = hash_file(i);
		file_done(p);
	}
	return NULL;
}

int main(void)
{
	static struct progress p = { .total = NFILES };
	pthread_t t[NWORKERS];
	unsigned long pct, last = 0;
	int i;

	for (i = 0; i < NWORKERS; i++)
		pthread_create(&t[i], NULL, hash_worker, &p);
	while ((pct = progress_percent(&p)) < 100) {
		if (pct >= last + 25) {
			printf("%lu%%\n", pct);
			last = pct;
		}
		sleep_us(200);
	}
	for (i = 0; i < NWORKERS; i++)
		pthread_join(t[i], NULL);
	printf("done: digest[0] %016llx\n", p.digest[0]);
	return 0;
}
