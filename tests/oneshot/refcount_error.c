// Bug: a reference dropped without the lock on an error path.  Every
// worker holds a reference on the shared connection and drops it with
// conn_put(), which takes the connection's mutex.  The checksum-mismatch
// path added later drops it by hand:
//
//     if (sum != b->expected) { c->refs--; return -1; }
//
// When that worker fails while another one finishes normally, the two
// decrements race and a reference can be lost (or the connection freed
// twice).
//
// TRIES: 12
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in conn_put / process_batch$
// EXPECT-FRAME: ^(read|write|read-write) to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ conn_put\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*refcount_error\.c:52$
// EXPECT-FRAME: ^(read|write|read-write) to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ process_batch\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*refcount_error\.c:78$

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "oneshot.h"

#define NWORKERS 3
#define BATCH 64

struct conn {
	pthread_mutex_t lock;
	int refs;
};

struct batch {
	pthread_t tid;
	struct conn *conn;
	unsigned int data[BATCH];
	unsigned int expected;
	int status;
};

static void conn_hold(struct conn *c, int n)
{
	pthread_mutex_lock(&c->lock);
	c->refs += n;
	pthread_mutex_unlock(&c->lock);
}

NOINLINE void conn_put(struct conn *c)
{
	int last;

	pthread_mutex_lock(&c->lock);
	last = --c->refs == 0;		/* racy (under the lock) */
	pthread_mutex_unlock(&c->lock);
	if (last)
		printf("connection closed\n");
}

static unsigned int checksum(const unsigned int *v, int n)
{
	unsigned int sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum = sum * 31 + v[i];
	return sum;
}

NOINLINE int process_batch(struct batch *b)
{
	struct conn *c = b->conn;

	spin_for_us(3000);		/* send the batch to the peer */
	if (checksum(b->data, BATCH) != b->expected) {
		printf("batch of %d: checksum mismatch, dropped\n", BATCH);
#ifdef FIXED
		conn_put(c);
#else
		c->refs--;		/* racy: the lock is not held */
#endif
		return -1;
	}
	conn_put(c);
	return 0;
}

static void *worker_main(void *arg)
{
	struct batch *b = arg;

	b->status = process_batch(b);
	return NULL;
}

int main(void)
{
	struct conn *c = calloc(1, sizeof(*c));
	static struct batch batches[NWORKERS];
	int i, j;

	if (!c)
		return 1;
	pthread_mutex_init(&c->lock, NULL);
	c->refs = 1;
	for (i = 0; i < NWORKERS; i++) {
		batches[i].conn = c;
		for (j = 0; j < BATCH; j++)
			batches[i].data[j] = (unsigned int)(i * 1000 + j);
		batches[i].expected = checksum(batches[i].data, BATCH);
	}
	batches[1].data[BATCH / 2] ^= 4;	/* a buffer gets corrupted */
	conn_hold(c, NWORKERS);		/* one reference per worker */
	for (i = 0; i < NWORKERS; i++)
		pthread_create(&batches[i].tid, NULL, worker_main, &batches[i]);
	for (i = 0; i < NWORKERS; i++)
		pthread_join(batches[i].tid, NULL);
	printf("refs left: %d\n", c->refs);
	conn_put(c);
	pthread_mutex_destroy(&c->lock);
	free(c);
	return 0;
}
