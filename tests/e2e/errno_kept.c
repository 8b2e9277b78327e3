// No race, and the runtime never changes errno: threads read an empty
// non-blocking pipe and test errno right after, as servers do. Each errno
// test is a plain read the runtime may watch, and a watch that sleeps on a
// futex until it times out would leave ETIMEDOUT behind (seen as a dropped
// connection and false "unknown origin" reports in a real server). Every
// thread watches every site many times here, so a lost errno shows.
//
// OPTIONS: cold_site_limit=0 cold_watches=100 cold_budget_ms=1000 cold_budget_percent=100 cold_process_ms=2000 cold_process_percent=100
// TIMEOUT: 120
// EXPECT-STDOUT: ^errno lost 0 times in [0-9]+ reads$
// NOT: BUG|UCSAN: reported

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <unistd.h>

#include "e2e.h"

#define THREADS 3
#define READS 2000

static int pipe_fds[2];
static _Atomic int lost, reads;

static void *reader(void *arg)
{
	char c;
	for (int i = 0; i < READS; i++) {
		if (read(pipe_fds[0], &c, 1) < 0 && errno != EAGAIN)
			atomic_fetch_add(&lost, 1);
		atomic_fetch_add(&reads, 1);
	}
	return arg;
}

int main(void)
{
	pthread_t t[THREADS];

	if (pipe(pipe_fds) != 0 || fcntl(pipe_fds[0], F_SETFL, O_NONBLOCK) != 0)
		e2e_die("pipe", errno);
	for (int i = 0; i < THREADS; i++)
		t[i] = e2e_spawn(reader, NULL);
	for (int i = 0; i < THREADS; i++)
		e2e_join(t[i]);
	printf("errno lost %d times in %d reads\n", atomic_load(&lost), atomic_load(&reads));
	return 0;
}
