// Fixed twin of stop_flag.c: the stop flag is a C11 atomic, stored with
// release and loaded with acquire, so the flusher's polling is race-free.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "oneshot.h"

#define QLEN 32

struct record {
	char text[56];
	unsigned long seq;
};

struct log_queue {
	pthread_mutex_t lock;
	struct record rec[QLEN];
	int count;
	unsigned long seq, dropped;
};

struct flusher {
	struct log_queue *q;
	atomic_int stop;
	unsigned long batches, records, bytes;
};

NOINLINE int flusher_should_stop(const struct flusher *f)
{
	return atomic_load_explicit(&f->stop, memory_order_acquire);
}

NOINLINE void stop_flusher(struct flusher *f)
{
	atomic_store_explicit(&f->stop, 1, memory_order_release);
}

static void log_append(struct log_queue *q, const char *what, int n)
{
	pthread_mutex_lock(&q->lock);
	if (q->count < QLEN) {
		struct record *r = &q->rec[q->count++];

		r->seq = ++q->seq;
		snprintf(r->text, sizeof(r->text), "%s %d", what, n);
	} else {
		q->dropped++;
	}
	pthread_mutex_unlock(&q->lock);
}

static int take_batch(struct log_queue *q, struct record *out)
{
	int n;

	pthread_mutex_lock(&q->lock);
	n = q->count;
	memcpy(out, q->rec, (size_t)n * sizeof(*out));
	q->count = 0;
	pthread_mutex_unlock(&q->lock);
	return n;
}

static void write_batch(struct flusher *f, const struct record *r, int n)
{
	int i;

	for (i = 0; i < n; i++)
		f->bytes += strlen(r[i].text) + 1;
	spin_for_us(100 + 5 * n);	/* write(2) */
	f->records += (unsigned long)n;
	f->batches++;
}

static void *flusher_main(void *arg)
{
	struct flusher *f = arg;
	struct record batch[QLEN];

	while (!flusher_should_stop(f)) {
		int n = take_batch(f->q, batch);

		if (n > 0)
			write_batch(f, batch, n);
		else
			sleep_us(100);
	}
	return NULL;
}

int main(void)
{
	static struct log_queue q = { .lock = PTHREAD_MUTEX_INITIALIZER };
	static struct flusher f = { .q = &q };
	struct record rest[QLEN];
	pthread_t t;
	int i;

	pthread_create(&t, NULL, flusher_main, &f);
	for (i = 0; i < 100; i++) {
		spin_for_us(50);	/* serve a request */
		log_append(&q, "served request", i);
	}
	stop_flusher(&f);
	pthread_join(t, NULL);
	write_batch(&f, rest, take_batch(&q, rest));
	printf("flushed %lu records in %lu batches, %lu bytes, %lu dropped\n",
	       f.records, f.batches, f.bytes, q.dropped);
	return 0;
}
