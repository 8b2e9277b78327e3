// A pthread key destructor runs after the thread's start routine returned:
// here it hands the thread's count back to a shared total without the lock
// main reads it under. The thread is counted until its destructors are
// done, so this code is checked as any other: before, the last worker was
// counted out first, main looked single-threaded, and nothing was watched.
//
// TRIES: 20
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in (give_back / sum_total|sum_total / give_back)$
// EXPECT-FRAME: ^(write|read-write) to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ give_back\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*key_destructor\.c:[0-9]+$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ sum_total\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*key_destructor\.c:[0-9]+$

#include <stdatomic.h>

#include "e2e.h"

static pthread_key_t cache_key;
static long total;               /* racy: the destructor adds, main reads */
static atomic_int in_destructor; /* the destructor is running */
static atomic_int done;          /* main has read enough */

NOINLINE static void give_back(long n)
{
	total += n;
}

static void cache_destructor(void *value)
{
	atomic_store(&in_destructor, 1);
	/* A cache of many entries, handed back one by one, until main has
	 * looked (at most 2 s). */
	const double end = e2e_now() + 2;
	for (long i = 0; !atomic_load(&done) && e2e_now() < end; i++)
		give_back((long)value + i);
}

static void *worker(void *arg)
{
	pthread_setspecific(cache_key, (void *)1);
	return arg;
}

NOINLINE static long sum_total(void)
{
	return total;
}

int main(void)
{
	pthread_key_create(&cache_key, cache_destructor);
	pthread_t t = e2e_spawn(worker, NULL);
	pthread_detach(t);
	while (!atomic_load(&in_destructor))
		e2e_sleep_ms(1);
	long seen = 0;
	const double end = e2e_now() + 1;
	while (e2e_now() < end)
		seen += sum_total() & 1;
	*(volatile long *)&e2e_sink = seen; /* the reads are used */
	atomic_store(&done, 1);
	printf("done\n");
	return 0;
}
