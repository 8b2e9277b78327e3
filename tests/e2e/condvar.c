// No race: a producer and a consumer pass numbered items through a ring
// buffer guarded by a mutex and two condition variables; every buffer and
// index access is plain (well over a million under skip_watch=0).
//
// OPTIONS: skip_watch=0 udelay_task=1 udelay_interrupt=1 print_stats=1
// TIMEOUT: 120
// EXPECT: ^UCSAN: stats: setup_watchpoints: ([3-9][0-9]{5}|[0-9]{7,})$
// EXPECT: ^UCSAN: stats: data_races: 0$
// NOT: BUG|UCSAN: reported

#include "e2e.h"

#define ITEMS 150000
#define RING 16

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
long ring[RING];
unsigned head, tail, count;
long accesses;        /* plain accesses to the shared ring, counted */

NOINLINE void put(long item)
{
	pthread_mutex_lock(&mu);
	while (count == RING)                 /* 1 read per wait */
		pthread_cond_wait(&not_full, &mu);
	ring[head] = item;                    /* 2 */
	head = (head + 1) % RING;             /* 2 */
	count++;                              /* 2 */
	accesses += 8;                        /* 2, and the first read */
	pthread_cond_signal(&not_empty);
	pthread_mutex_unlock(&mu);
}

NOINLINE long take(void)
{
	long item;

	pthread_mutex_lock(&mu);
	while (count == 0)
		pthread_cond_wait(&not_empty, &mu);
	item = ring[tail];
	tail = (tail + 1) % RING;
	count--;
	accesses += 8;
	pthread_cond_signal(&not_full);
	pthread_mutex_unlock(&mu);
	return item;
}

static void *producer(void *arg)
{
	long i;

	(void)arg;
	for (i = 0; i < ITEMS; i++)
		put(i);
	return NULL;
}

static void *consumer(void *arg)
{
	long i, item;

	(void)arg;
	for (i = 0; i < ITEMS; i++) {
		item = take();
		if (item != i) {
			fprintf(stderr, "e2e: item %ld arrived as number %ld\n",
				item, i);
			exit(2);
		}
	}
	return NULL;
}

int main(void)
{
	pthread_t p, c;

	e2e_require_runtime();
	c = e2e_spawn(consumer, NULL);
	p = e2e_spawn(producer, NULL);
	e2e_join(p);
	e2e_join(c);
	fprintf(stderr, "plain accesses to the ring: %ld\n", accesses);
	E2E_CHECK(count == 0 && head == tail);
	E2E_CHECK(accesses >= 1000000);
	return 0;
}
