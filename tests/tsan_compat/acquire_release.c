// Hand-rolled publication, as a lock-free library written for TSan does it:
// the producer fills a buffer and publishes a round number with a relaxed
// store after __tsan_release(); the consumer waits for the number, says
// __tsan_acquire() and reads the buffer; then the roles swap for the
// acknowledgement. The buffer is never accessed by both at once, so ucsan
// (which needs no happens-before) reports nothing. TSan needs the
// annotations: run.sh builds the -DNO_ANNOTATIONS control and checks that
// TSan then reports the buffer.
//
// OPTIONS: skip_watch=0 udelay_task=20 assume_plain_writes_atomic=0
// NOT: UCSAN
// TSAN-NOT: ThreadSanitizer
// TSAN-CONTROL: -DNO_ANNOTATIONS
// TSAN-CONTROL-EXPECT: WARNING: ThreadSanitizer: data race

#include "tsan_compat.h"

#ifdef NO_ANNOTATIONS
#define RELEASE(p) ((void)(p))
#define ACQUIRE(p) ((void)(p))
#else
#define RELEASE(p) __tsan_release(p)
#define ACQUIRE(p) __tsan_acquire(p)
#endif

#define ROUNDS 300
#define WORDS 16

static int buf[WORDS];
static int published; /* round whose buffer is ready */
static int consumed;  /* round the consumer is done with */

NOINLINE static void produce(int round)
{
	for (int i = 0; i < WORDS; i++)
		buf[i] = round * WORDS + i;
}

NOINLINE static long consume(void)
{
	long sum = 0;
	for (int i = 0; i < WORDS; i++)
		sum += buf[i];
	return sum;
}

static void *producer(void *arg)
{
	(void)arg;
	for (int r = 1; r <= ROUNDS; r++) {
		compat_wait_for(&consumed, r - 1);
		ACQUIRE(&consumed);
		produce(r);
		RELEASE(&published);
		STORE_RELAXED(&published, r);
	}
	return NULL;
}

static void *consumer(void *arg)
{
	(void)arg;
	for (int r = 1; r <= ROUNDS; r++) {
		compat_wait_for(&published, r);
		ACQUIRE(&published);
		long want = (long)r * WORDS * WORDS + (long)WORDS * (WORDS - 1) / 2;
		E2E_CHECK(consume() == want);
		RELEASE(&consumed);
		STORE_RELAXED(&consumed, r);
	}
	return NULL;
}

int main(void)
{
	e2e_require_runtime();
	pthread_t p = e2e_spawn(producer, NULL);
	pthread_t c = e2e_spawn(consumer, NULL);
	e2e_join(p);
	e2e_join(c);
	return 0;
}
