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
	double start;
	char *text;

	e2e_require_runtime();
	e2e_start(t, THREADS, worker);
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
	e2e_join_all(t, THREADS);
	fprintf(stderr, "rel: %d threads raced for %.1f s\n", THREADS, e2e_now() - start);
	return 0;
}
