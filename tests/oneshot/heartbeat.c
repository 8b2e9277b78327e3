// Bug: a liveness timestamp that is a plain 64-bit integer.  A sampler
// thread stamps `last_sample_us` each time it has read the sensors, every
// 2 ms; the supervisor in main wakes every 3 ms and declares the sampler
// stuck if the stamp is too old:
//
//     s->last_sample_us = now_us();            (sampler)
//     if (now - s->last_sample_us > limit) ... (supervisor)
//
// Neither side orders the two: a data race (the read can tear on 32-bit
// targets, and a compiler may keep the stamp in a register).
//
// TRIES: 12
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in (sampler_stamp / sampler_stuck|sampler_stuck / sampler_stamp)$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ sampler_stuck\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*heartbeat\.c:50$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ sampler_stamp\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*heartbeat\.c:39$

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include "oneshot.h"

#define ROUNDS 6

struct sampler {
	pthread_t tid;
	atomic_int stop;
	long long last_sample_us;
	double sum;
	int samples;
};

NOINLINE void sampler_stamp(struct sampler *s)
{
#ifdef FIXED
	__atomic_store_n(&s->last_sample_us, now_us(), __ATOMIC_RELAXED);
#else
	s->last_sample_us = now_us();		/* racy write */
#endif
}

NOINLINE int sampler_stuck(const struct sampler *s, long long limit_us)
{
	long long now = now_us();

#ifdef FIXED
	return now - __atomic_load_n(&s->last_sample_us, __ATOMIC_RELAXED) > limit_us;
#else
	return now - s->last_sample_us > limit_us;	/* racy read */
#endif
}

/* Reads the (made-up) sensors, then says it is alive. */
static void *sampler_main(void *arg)
{
	struct sampler *s = arg;

	while (!atomic_load_explicit(&s->stop, memory_order_relaxed)) {
		spin_for_us(100);		/* talk to the sensors */
		s->sum += 20.0 + s->samples % 7;
		s->samples++;
		sampler_stamp(s);
		sleep_us(2000);
	}
	return NULL;
}

int main(void)
{
	static struct sampler s;
	int i, stuck = 0;

	sampler_stamp(&s);
	pthread_create(&s.tid, NULL, sampler_main, &s);
	for (i = 0; i < ROUNDS; i++) {
		sleep_us(3000);
		stuck += sampler_stuck(&s, 50000);
	}
	atomic_store_explicit(&s.stop, 1, memory_order_relaxed);
	pthread_join(s.tid, NULL);
	printf("%d samples, mean %.1f, %d stuck checks\n", s.samples,
	       s.samples ? s.sum / s.samples : 0.0, stuck);
	return 0;
}
