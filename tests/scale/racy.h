/*
 * The racy scale tests (racy_64.c, racy_256.c): THREADS threads on however
 * many CPUs there are, each doing mostly private work, all of them bumping
 * a shared statistics struct with plain accesses (bump_stats / bump_stats),
 * and one thread in four publishing a plain int that the others read
 * (lookup / publish). Both races must be reported, with the right function
 * on each access line, however many watchers compete for the table.
 *
 * The program stops as soon as both reports are on its stderr (the harness
 * redirects it to a file) or after DEADLINE_MS; the harness's TRIES bounds
 * the retries. Not a test itself (the harness only runs *.c files).
 */
#include <unistd.h>

#include "../e2e/rel_support.h"

#define WORDS 256 /* private words per thread: most accesses are private */
#define DEADLINE_MS 20000

struct stats {
	long calls;
	long sum;
} stats;
int version;
static pthread_barrier_t all_alive;
long sink;

/* The access lines of racy_*.c assert these line numbers: keep them. */
NOINLINE void bump_stats(long v)
{
	stats.calls++;
	stats.sum += v;
}

NOINLINE void publish(int v)
{
	version = v;
}

NOINLINE int lookup(void)
{
	return version;
}

/* Private work: plain reads and writes of the thread's own buffer. */
NOINLINE long private_work(long *buf)
{
	long acc = 0;

	for (int i = 1; i < WORDS; i++) {
		buf[i] += buf[i - 1] ^ (long)i;
		acc += buf[i] & 0xff;
	}
	return acc;
}

static void *worker(void *arg)
{
	long id = (long)arg, sum = 0;
	long *buf = calloc(WORDS, sizeof(long));
	int i = 0;

	E2E_CHECK(buf != NULL);
	pthread_barrier_wait(&all_alive);
	while (!e2e_stopped()) {
		sum += private_work(buf);
		bump_stats(sum & 0xff);
		if (id % 4 == 0)
			publish(++i);
		else
			sum += lookup();
	}
	free(buf);
	__atomic_add_fetch(&sink, sum, __ATOMIC_RELAXED);
	return NULL;
}

int main(void)
{
	static pthread_t t[THREADS];
	pthread_attr_t attr;
	double start;
	char *text;
	int err;

	e2e_require_runtime();
	pthread_barrier_init(&all_alive, NULL, THREADS + 1);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	for (long n = 0; n < THREADS; n++) {
		err = pthread_create(&t[n], &attr, worker, (void *)n);
		if (err)
			e2e_die("pthread_create", err);
	}
	pthread_barrier_wait(&all_alive);
	/* Wait for both reports, each within what is left of the deadline. */
	start = e2e_now();
	text = rel_read_stderr(NULL);
	if (text) {
		free(text);
		if (rel_wait_for_report("bump_stats / bump_stats", getpid(), DEADLINE_MS))
			rel_wait_for_report("lookup / publish", getpid(),
					    DEADLINE_MS - (long)((e2e_now() - start) * 1000));
	} else {
		fprintf(stderr, "rel: stderr is not a file: racing for the whole deadline\n");
		e2e_sleep_ms(DEADLINE_MS);
	}
	__atomic_store_n(&e2e_stop_flag, 1, __ATOMIC_RELAXED);
	for (int n = 0; n < THREADS; n++)
		e2e_join(t[n]);
	fprintf(stderr, "rel: %d threads raced for %.1f s\n", THREADS, e2e_now() - start);
	return 0;
}
