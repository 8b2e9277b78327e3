// No race, 256 threads, every plain access watched (skip_watch=0) with a
// short stall: per-thread data (a malloc'ed buffer and a slot of a shared
// array, all slots on one or two pages), a mutex-protected total and atomic
// counters. Far more watchers than the table's 64 slots, most of them
// preempted in their watch: some accesses find their window full
// (no_capacity > 0), none is reported, and the program ends.
//
// OPTIONS: skip_watch=0 udelay_task=2 print_stats=1
// CFLAGS: -O2 -g -Wall -Wextra -Werror
// TRIES: 3
// TIMEOUT: 180
// EXPECT: ^UCSAN: stats: setup_watchpoints: [1-9][0-9]*$
// EXPECT: ^UCSAN: stats: no_capacity: [1-9][0-9]*$
// EXPECT: ^UCSAN: stats: data_races: 0$
// EXPECT: ^UCSAN: stats: races_unknown_origin: 0$
// EXPECT: ^UCSAN: stats: used_watchpoints: 0$
// EXPECT: ^rel: 256 threads, totals agree$
// NOT: BUG|UCSAN: reported

#include <stdatomic.h>

#include "e2e.h"

#define THREADS 256
#define ROUNDS 40
#define WORDS 32

/* One slot per thread: neighbours share pages, never bytes. */
struct slot {
	long value;
	long added;
} slots[THREADS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
long total; /* under lock */
static atomic_long rounds_done;

NOINLINE void private_work(struct slot *s, long *buf)
{
	for (int i = 1; i < WORDS; i++)
		buf[i] += buf[i - 1] + s->value;
	s->value = buf[WORDS - 1] & 0xffff;
}

NOINLINE void add_to_total(long v)
{
	pthread_mutex_lock(&lock);
	total += v;
	pthread_mutex_unlock(&lock);
}

static void *worker(void *arg)
{
	struct slot *s = &slots[(long)arg];
	long *buf = calloc(WORDS, sizeof(long));

	E2E_CHECK(buf != NULL);
	buf[0] = (long)arg;
	for (int r = 0; r < ROUNDS; r++) {
		private_work(s, buf);
		add_to_total(s->value);
		s->added += s->value;
		atomic_fetch_add_explicit(&rounds_done, 1, memory_order_relaxed);
	}
	free(buf);
	return NULL;
}

int main(void)
{
	static pthread_t t[THREADS];
	long sum = 0;

	e2e_require_runtime();
	e2e_start(t, THREADS, worker);
	e2e_join_all(t, THREADS);
	for (int n = 0; n < THREADS; n++)
		sum += slots[n].added;
	E2E_CHECK(atomic_load(&rounds_done) == (long)THREADS * ROUNDS);
	E2E_CHECK(total == sum);
	fprintf(stderr, "rel: %d threads, totals agree\n", THREADS);
	return 0;
}
