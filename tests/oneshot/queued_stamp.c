// Bug: a request stamped after it was handed over.  The acceptor puts each
// request on a queue (mutex and condition variable) for the handler thread,
// and only then notes when it was queued, for the queue-delay histogram:
//
//     queue_push(&q, r);            /* wakes the handler */
//     r->queued_us = now_us();      /* too late: r is the handler's now */
//
// The handler, woken by the push, pops the request and reads `queued_us` at
// once, while the acceptor may still be storing it.  Nothing orders the
// two: the unlock in queue_push() comes before the store, not after it.
//
// TRIES: 30
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in serve_request / submit_request$
// EXPECT: ^read to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^write to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^write to 0x => ^ submit_request\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*queued_stamp\.c:78$
// EXPECT-FRAME: ^read to 0x => ^ serve_request\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*queued_stamp\.c:88$

#include <pthread.h>
#include <stdio.h>

#include "oneshot.h"

#define NREQ 40

struct request {
	struct request *next;
	int id;
	long long queued_us;
	unsigned long reply;
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t ready;
	struct request *head, *tail;
	int closed;
} q = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, NULL, 0 };

static struct request reqs[NREQ];
static long long delay_sum_us, delay_max_us;

static void queue_push(struct request *r)
{
	pthread_mutex_lock(&q.lock);
	r->next = NULL;
	if (q.tail)
		q.tail->next = r;
	else
		q.head = r;
	q.tail = r;
	pthread_cond_signal(&q.ready);
	pthread_mutex_unlock(&q.lock);
}

static struct request *queue_pop(void)
{
	struct request *r;

	pthread_mutex_lock(&q.lock);
	while (!q.head && !q.closed)
		pthread_cond_wait(&q.ready, &q.lock);
	r = q.head;
	if (r && !(q.head = r->next))
		q.tail = NULL;
	pthread_mutex_unlock(&q.lock);
	return r;
}

NOINLINE void submit_request(struct request *r)
{
#ifdef FIXED
	r->queued_us = now_us();
	queue_push(r);
#else
	queue_push(r);
	r->queued_us = now_us();	/* racy write */
#endif
}

NOINLINE void serve_request(struct request *r)
{
	long long delay;
	unsigned long h = (unsigned long)r->id;
	int i;

	delay = now_us() - r->queued_us;	/* racy read */
	if (delay < 0)
		delay = 0;
	delay_sum_us += delay;
	if (delay > delay_max_us)
		delay_max_us = delay;
	for (i = 0; i < 200; i++)
		h = h * 6364136223846793005UL + 1442695040888963407UL;
	r->reply = h;
}

static void *handler_main(void *arg)
{
	struct request *r;
	int served = 0;

	(void)arg;
	while ((r = queue_pop()) != NULL) {
		serve_request(r);
		served++;
	}
	return (void *)(long)served;
}

int main(void)
{
	pthread_t handler;
	void *served;
	unsigned long sum = 0;
	int i;

	pthread_create(&handler, NULL, handler_main, NULL);
	for (i = 0; i < NREQ; i++) {
		reqs[i].id = i;
		submit_request(&reqs[i]);
		sleep_us(150);		/* the next connection arrives */
	}
	pthread_mutex_lock(&q.lock);
	q.closed = 1;
	pthread_cond_broadcast(&q.ready);
	pthread_mutex_unlock(&q.lock);
	pthread_join(handler, &served);
	for (i = 0; i < NREQ; i++)
		sum ^= reqs[i].reply;
	printf("served %ld requests, reply digest %016lx\n", (long)served, sum);
	return 0;
}
