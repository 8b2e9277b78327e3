// A poller reads a plain word in a loop that stores nothing and makes no
// call into the runtime, while a writer stores to the word every 200 us.
// Cold sites are off and the store count's first periods never end, so
// nothing but the time floor samples: the poller, which stores nothing,
// is nudged by the sampler thread (src/sampler.c) once its period has run
// its CPU time, and watches one of its reads. Without the time floor
// nothing is ever watched here.
//
// OPTIONS: cold_watches=0 overhead_budget=5 skip_watch=1000000000 halt_on_error=1
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in (poll_level / set_level|set_level / poll_level)$
// EXPECT: ^ poll_level\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*sampled_read_loop\.c:28$
// EXPECT: ^ set_level\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*sampled_read_loop\.c:33$
// NOT: race at unknown origin

#include <stdatomic.h>
#include <unistd.h>

#include "e2e.h"

static long level;
static atomic_int stop;

/* Lines 28 and 33 are asserted above. */
NOINLINE long poll_level(void)
{
	return level;
}

NOINLINE void set_level(long v)
{
	level = v;
}

static void *poller(void *arg)
{
	long sum = 0;
	while (!atomic_load_explicit(&stop, memory_order_relaxed))
		sum += poll_level();
	return (void *)sum;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, poller, NULL);
	for (long i = 1; i <= 1000; i++) {
		set_level(i);
		usleep(200);
	}
	atomic_store(&stop, 1);
	pthread_join(t, NULL);
	printf("%ld\n", level);
	return 0;
}
