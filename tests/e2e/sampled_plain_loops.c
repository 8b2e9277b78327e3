// Two workers run loops of plain accesses and nothing else -- no lock, no
// atomic, no call into the runtime -- the second starting 20 ms after the
// first, and both bump one plain counter. Cold sites are off, so only a
// sampled watch can find the race: sampling is by time, and a thread that
// never enters the runtime is reached by the sampler thread's nudges
// (src/sampler.c).
//
// OPTIONS: cold_watches=0 halt_on_error=1
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in bump / bump$
// EXPECT: ^ bump\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*sampled_plain_loops\.c:25$
// EXPECT: ^ worker\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*sampled_plain_loops\.c:[0-9]+$
// NOT: race at unknown origin

#include <unistd.h>

#include "e2e.h"

long counter;

/* Line 25 is asserted above. */
NOINLINE void bump(void)
{
	counter++;
}

static void *worker(void *arg)
{
	for (long i = 0; i < 15000000; i++)
		bump();
	return arg;
}

int main(void)
{
	pthread_t a, b;
	pthread_create(&a, NULL, worker, NULL);
	usleep(20000);
	pthread_create(&b, NULL, worker, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("%ld\n", counter);
	return 0;
}
