// Bug: a ring buffer's head index read without the lock.  The producer
// pushes under r->lock; the consumer, to avoid taking the lock when there
// is nothing to do, first checks for emptiness without it:
//
//     static int ring_empty(const struct ring *r) { return r->head == r->tail; }
//
// `tail` belongs to the consumer, but `head` is written by the producer
// under the lock the consumer does not hold: a data race.
//
// TRIES: 12
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in ring_empty / ring_push$
// EXPECT: ^read to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^write to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^read to 0x => ^ ring_empty\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*ring_head\.c:51$
// EXPECT-FRAME: ^write to 0x => ^ ring_push\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*ring_head\.c:42$

#include <pthread.h>
#include <sched.h>
#include <stdio.h>

#include "oneshot.h"

#define RING_SIZE 16
#define NSAMPLES 400
#define END_OF_STREAM (-1)

struct ring {
	pthread_mutex_t lock;
	unsigned int head;		/* written by the producer */
	unsigned int tail;		/* written by the consumer */
	int slot[RING_SIZE];
};

NOINLINE int ring_push(struct ring *r, int v)
{
	int ok = 0;

	pthread_mutex_lock(&r->lock);
	if (r->head - r->tail < RING_SIZE) {
		r->slot[r->head % RING_SIZE] = v;
		r->head++;		/* racy write (under the lock) */
		ok = 1;
	}
	pthread_mutex_unlock(&r->lock);
	return ok;
}

NOINLINE int ring_empty(const struct ring *r)
{
	return r->head == r->tail;	/* racy read of head: no lock */
}

static int ring_pop(struct ring *r)
{
	int v;

#ifdef FIXED
	pthread_mutex_lock(&r->lock);
	while (ring_empty(r)) {
		pthread_mutex_unlock(&r->lock);
		sched_yield();
		pthread_mutex_lock(&r->lock);
	}
#else
	while (ring_empty(r))
		sched_yield();
	pthread_mutex_lock(&r->lock);
#endif
	v = r->slot[r->tail % RING_SIZE];
	r->tail++;
	pthread_mutex_unlock(&r->lock);
	return v;
}

struct meter {
	struct ring ring;
	long sum, count, peak;
};

/* The consumer: aggregates audio levels. */
static void *meter_main(void *arg)
{
	struct meter *m = arg;
	int v;

	while ((v = ring_pop(&m->ring)) != END_OF_STREAM) {
		m->sum += v;
		m->count++;
		if (v > m->peak)
			m->peak = v;
		spin_for_us(5);
	}
	return NULL;
}

/* The producer: one "sample" every few microseconds. */
static int read_sample(int i)
{
	spin_for_us(10);
	return (i * 37) % 101;
}

int main(void)
{
	static struct meter m = { .ring = { .lock = PTHREAD_MUTEX_INITIALIZER } };
	pthread_t t;
	int i;

	pthread_create(&t, NULL, meter_main, &m);
	for (i = 0; i <= NSAMPLES; i++) {
		int v = i < NSAMPLES ? read_sample(i) : END_OF_STREAM;

		while (!ring_push(&m.ring, v))
			sched_yield();
	}
	pthread_join(t, NULL);
	printf("%ld samples, mean %ld, peak %ld\n", m.count,
	       m.count ? m.sum / m.count : 0, m.peak);
	return 0;
}
