// SPDX-License-Identifier: Apache-2.0
/*
 * The demo: worker threads count requests under a lock, and a monitor
 * thread prints progress by reading the counter without it -- the same
 * shape as the kernel's tcp_poll() reading socket fields locklessly.
 * ucsan reports the lockless read racing with the locked update.
 *
 *   build/bin/ucsan-cc -O2 examples/demo/stats.c -o stats && ./stats
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>

struct stats {
	pthread_mutex_t lock;
	unsigned long requests;
	unsigned long bytes;
};

static struct stats stats = { .lock = PTHREAD_MUTEX_INITIALIZER };
static volatile int done;

__attribute__((noinline)) static void account_request(struct stats *s, unsigned long len)
{
	pthread_mutex_lock(&s->lock);
	s->requests++;
	s->bytes += len;
	pthread_mutex_unlock(&s->lock);
}

/* Reads both fields without the lock: a data race with account_request(). */
__attribute__((noinline)) static unsigned long average_request_size(const struct stats *s)
{
	unsigned long n = s->requests;
	return n ? s->bytes / n : 0;
}

static void *worker(void *arg)
{
	unsigned long len = (unsigned long)arg;
	while (!done)
		account_request(&stats, len++ % 1500);
	return NULL;
}

static void *monitor(void *arg)
{
	unsigned long sum = 0;
	(void)arg;
	while (!done) {
		sum += average_request_size(&stats);
		sched_yield(); /* let the workers run, as a real monitor would */
	}
	return (void *)sum;
}

int main(void)
{
	pthread_t w[2], m;
	struct timespec tick = { 0, 100 * 1000 * 1000 };

	for (long i = 0; i < 2; i++)
		pthread_create(&w[i], NULL, worker, (void *)(i * 100));
	pthread_create(&m, NULL, monitor, NULL);
	for (int i = 0; i < 20; i++)
		nanosleep(&tick, NULL);
	done = 1;
	for (int i = 0; i < 2; i++)
		pthread_join(w[i], NULL);
	pthread_join(m, NULL);
	printf("served %lu requests\n", stats.requests);
	return 0;
}
