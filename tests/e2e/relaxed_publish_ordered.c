// Plain stores followed by relaxed atomic stores that are ordered all the
// same: stay silent. A relaxed flag store soon after a plain store is
// watched as a possible unordered publication (cold_relaxed_stores); in
// each round here something the runtime sees orders the two, or the
// reader never takes the flag before the data:
//   fence    store, release fence, relaxed flag; the reader's acquire fence
//   locked   store under a mutex, relaxed counter bumped after the unlock;
//            the reader reads the counter, then the data under the mutex
//   held     relaxed counter bumped while the mutex is still held
//   joined   relaxed flag nobody reads; the data read after the join
// Rounds sleep between them, so every round's sites are cold again.
//
// REPEAT: 3
// EXIT: 0
// NOT: UCSAN

#include <stdatomic.h>

#include "e2e.h"

#define ROUNDS 30

static long data_fence[ROUNDS + 1], data_locked, data_held, data_joined;
static atomic_long flag_fence, stats_locked, stats_held, flag_joined;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

NOINLINE static void publish(long round)
{
	data_fence[round] = round; /* a new slot each round: never rewritten */
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&flag_fence, round, memory_order_relaxed);

	pthread_mutex_lock(&lock);
	data_locked = round;
	pthread_mutex_unlock(&lock);
	atomic_fetch_add_explicit(&stats_locked, 1, memory_order_relaxed);

	pthread_mutex_lock(&lock);
	data_held = round;
	atomic_fetch_add_explicit(&stats_held, 1, memory_order_relaxed);
	pthread_mutex_unlock(&lock);
}

static void *writer(void *arg)
{
	for (long r = 1; r <= ROUNDS; r++) {
		publish(r);
		e2e_sleep_ms(1);
	}
	data_joined = 1;
	atomic_store_explicit(&flag_joined, 1, memory_order_relaxed);
	return arg;
}

NOINLINE static long consume(void)
{
	long sum = 0;

	const long f = atomic_load_explicit(&flag_fence, memory_order_relaxed);
	if (f) {
		atomic_thread_fence(memory_order_acquire);
		sum += data_fence[f];
	}
	if (atomic_load_explicit(&stats_locked, memory_order_relaxed)) {
		pthread_mutex_lock(&lock);
		sum += data_locked;
		pthread_mutex_unlock(&lock);
	}
	if (atomic_load_explicit(&stats_held, memory_order_relaxed)) {
		pthread_mutex_lock(&lock);
		sum += data_held;
		pthread_mutex_unlock(&lock);
	}
	return sum;
}

static void *reader(void *arg)
{
	long sum = 0;

	while (atomic_load_explicit(&flag_fence, memory_order_relaxed) < ROUNDS) {
		sum += consume();
		e2e_sleep_ms(1);
	}
	return (void *)sum;
}

int main(void)
{
	pthread_t w = e2e_spawn(writer, NULL);
	pthread_t r = e2e_spawn(reader, NULL);

	e2e_join(r);
	e2e_join(w);
	printf("%ld\n", data_joined + atomic_load(&flag_joined));
	return 0;
}
