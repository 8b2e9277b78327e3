// Bug: a stop flag that is a plain int.  A background flusher takes batches
// of log records from a queue (under the queue's lock) and writes them out
// until main() sets `f->stop = 1`; it polls the flag between batches.  It
// "works" on x86 because the loop calls out to other functions, but nothing
// orders main's store with the flusher's loads: a data race (and a compiler
// may hoist the load out of the loop).  Typical real code:
//
//     while (!ctx->stop) flush_one(ctx);   ...   ctx->stop = 1; join();
//
// TRIES: 12
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in flusher_should_stop / stop_flusher$
// EXPECT: ^read to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^write to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^read to 0x => ^ flusher_should_stop\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*stop_flag\.c:54$
// EXPECT-FRAME: ^write to 0x => ^ stop_flusher\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*stop_flag\.c:63$

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
#ifdef FIXED
	atomic_int stop;
#else
	int stop;
#endif
	unsigned long batches, records, bytes;
};

NOINLINE int flusher_should_stop(const struct flusher *f)
{
#ifdef FIXED
	return atomic_load_explicit(&f->stop, memory_order_acquire);
#else
	return f->stop;			/* racy read */
#endif
}

NOINLINE void stop_flusher(struct flusher *f)
{
#ifdef FIXED
	atomic_store_explicit(&f->stop, 1, memory_order_release);
#else
	f->stop = 1;			/* racy write */
#endif
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
