// No race: the reader reads `config` without a lock, then publishes that
// it is done with a release store, then blocks on the lock the writer
// holds. The writer waits for that flag (acquire) before it stores: the
// store is ordered after the read. The read is watched (a cold site) and
// followed at once by a blocking lock, but the release in between ends
// its hold (held_reads.c), so the store meets no watchpoint. Fails if the
// release does not end the hold: reported in 10 of 10 runs then.
//
// REPEAT: 5
// NOT: UCSAN

#include <stdatomic.h>
#include <unistd.h>

#include "e2e.h"

static long config;
static atomic_int done_reading;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t start;

static void *reader(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&start);
	const long seen = config;
	atomic_store_explicit(&done_reading, 1, memory_order_release);
	pthread_mutex_lock(&lock);
	pthread_mutex_unlock(&lock);
	return (void *)seen;
}

int main(void)
{
	pthread_barrier_init(&start, NULL, 2);
	pthread_mutex_lock(&lock);
	pthread_t t = e2e_spawn(reader, NULL);
	pthread_barrier_wait(&start);
	while (!atomic_load_explicit(&done_reading, memory_order_acquire))
		usleep(100);
	usleep(2000); /* the reader is blocked on the lock by now */
	config = 42;
	pthread_mutex_unlock(&lock);
	e2e_join(t);
	printf("%ld\n", config);
	return 0;
}
