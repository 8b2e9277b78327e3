// Bug: a high-water mark kept without the lock, in a program written with
// C11 <threads.h>.  Request handlers made by thrd_create() take requests
// from a queue under an mtx_t, serve them, and record the slowest one:
//
//     if (lat > st->max_us) st->max_us = lat;   // outside the mutex
//
// Two handlers finishing together read and write max_us concurrently: a
// data race (and a lost maximum).  The test-and-set is the usual
// "cheap statistics" shortcut; with C11 threads the runtime must also
// know the process has more than one thread.
//
// TRIES: 12
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in record_latency / record_latency$
// EXPECT-FRAME: ^(read|write) to 0x => ^ record_latency\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*c11_max_latency\.c:(47|48)$

#include <stdio.h>
#include <threads.h>

#include "oneshot.h"

#define NHANDLERS 3
#define NREQUESTS 24

struct server {
	mtx_t lock;
	cnd_t more;
	int queue[NREQUESTS];
	int head, tail, closing;
	long served;		/* under lock */
	long max_us;		/* the slowest request */
};

static int serve(int req)
{
	const long long t0 = now_us();

	spin_for_us(60 + 25 * (req % 4));
	return (int)(now_us() - t0);
}

NOINLINE void record_latency(struct server *s, long lat)
{
#ifdef FIXED
	mtx_lock(&s->lock);
#endif
	if (lat > s->max_us)		/* racy read */
		s->max_us = lat;	/* racy write */
#ifdef FIXED
	mtx_unlock(&s->lock);
#endif
}

static int handler(void *arg)
{
	struct server *s = arg;

	for (;;) {
		mtx_lock(&s->lock);
		while (s->head == s->tail && !s->closing)
			cnd_wait(&s->more, &s->lock);
		if (s->head == s->tail) {
			mtx_unlock(&s->lock);
			return 0;
		}
		const int req = s->queue[s->head++];
		s->served++;
		mtx_unlock(&s->lock);
		record_latency(s, serve(req));
	}
}

int main(void)
{
	static struct server s;
	thrd_t h[NHANDLERS];

	mtx_init(&s.lock, mtx_plain);
	cnd_init(&s.more);
	for (int i = 0; i < NHANDLERS; i++)
		thrd_create(&h[i], handler, &s);
	for (int i = 0; i < NREQUESTS; i++) {
		mtx_lock(&s.lock);
		s.queue[s.tail++] = i;
		cnd_signal(&s.more);
		mtx_unlock(&s.lock);
	}
	mtx_lock(&s.lock);
	s.closing = 1;
	cnd_broadcast(&s.more);
	mtx_unlock(&s.lock);
	for (int i = 0; i < NHANDLERS; i++)
		thrd_join(h[i], NULL);
	printf("%ld served, slowest %ld us\n", s.served, s.max_us);
	return 0;
}
