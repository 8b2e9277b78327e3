// A worker that mostly waits -- blocked in read() on a pipe, like a
// server's worker between requests -- does each request's work, then adds
// to a shared statistic without a lock. The main thread reads the
// statistic 300 us after it sent the request, long after a spinning watch
// (udelay_task, at most 80 us) of the worker's store has ended. Cold sites
// are off, so only sampled watches can find it: the worker runs a small
// share of the time and the statistic's page has seen both threads, so
// its watch there sleeps (sample_sleep_us, 250 us to 2 ms) and the read
// lands in it. The main thread shows that page shared only if its picks,
// which fall in its loop of clock reads, look on past its own frames to
// its read of the statistic (pick_passes_on(), core.c): without that,
// found in 4 of 12 runs (gcc). Measured with it: 16 of 16 runs, within
// 0.03 to 0.7 s (gcc) and 0.02 to 1.5 s (clang); with sample_sleep_us=0,
// in 9 and 3 of 16 within the 2 s the program runs.
//
// OPTIONS: cold_watches=0 halt_on_error=1
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in (count_request / read_requests|read_requests / count_request)$
// EXPECT: ^ count_request\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*sampled_sleep_late_reader\.c:41$
// EXPECT: ^ read_requests\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*sampled_sleep_late_reader\.c:47$
// NOT: race at unknown origin

#include <unistd.h>

#include "e2e.h"

#define REQUESTS 6000
#define WORDS 16

static struct {
	long requests;
	long bytes;
} stats;

static int pipe_fds[2];

/* Lines 41 and 47 are asserted above. */
NOINLINE void count_request(long n)
{
	stats.requests++;
	stats.bytes += n;
}

NOINLINE long read_requests(void)
{
	return stats.requests;
}

static void *worker(void *arg)
{
	long *buf = malloc(WORDS * sizeof(*buf));
	char c;
	(void)arg;
	if (!buf)
		e2e_die("malloc", ENOMEM);
	while (read(pipe_fds[0], &c, 1) == 1 && c) {
		/* The request's work: mostly in registers, some in the buffer. */
		unsigned long h = (unsigned long)c;
		for (long i = 0; i < 20000; i++)
			h = h * 6364136223846793005UL + (unsigned long)i;
		for (long i = 0; i < WORDS; i++)
			buf[i] = (long)(h >> (i % 32)) + (i ? buf[i - 1] : 0);
		count_request(buf[WORDS - 1] & 0xff);
	}
	free(buf);
	return NULL;
}

static void spin_us(double us)
{
	const double end = e2e_now() + us / 1e6;
	while (e2e_now() < end)
		;
}

int main(void)
{
	long seen = 0;
	if (pipe(pipe_fds))
		e2e_die("pipe", errno);
	pthread_t t = e2e_spawn(worker, NULL);
	for (int i = 0; i < REQUESTS; i++) {
		const char c = 1;
		if (write(pipe_fds[1], &c, 1) != 1)
			e2e_die("write", errno);
		spin_us(300);
		seen += read_requests();
	}
	const char end = 0;
	if (write(pipe_fds[1], &end, 1) != 1)
		e2e_die("write", errno);
	e2e_join(t);
	printf("%ld\n", seen);
	return 0;
}
