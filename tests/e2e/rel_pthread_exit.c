// pthread_exit() from racing threads, from a few frames deep and right
// after racing accesses, and from main while the racers still run: the
// process lives on until the last thread leaves, the race is reported whole,
// values passed to pthread_exit() reach pthread_join(), and the process
// ends with 66 from the runtime's exit path run by the last thread. The
// whole output is checked once the process is gone (rel_supervise()).
//
// OPTIONS: skip_watch=0 udelay_task=50 report_once_in_ms=20
// TRIES: 3
// TIMEOUT: 60
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in px_reader / px_writer$
// EXPECT: ^rel: joined 4 racers, pthread_exit values arrived$
// EXPECT: ^UCSAN: reported [0-9]+ data races$
// EXPECT: ^rel: output of the run checked$
// NOT: .BUG:|.={66}|={67}|.UCSAN: reported|^ .* (read|write)|Segmentation|Aborted

#include "rel_support.h"

#define RACERS 8

static int px_shared;
static pthread_t racers[RACERS];
static int started; /* atomic */
long sink;

E2E_READER_WRITER(px_shared, px_reader, px_writer)

NOINLINE void px_leave(long id, int depth);
/* Through a pointer: gcc takes the bounded recursion for an endless one. */
static void (*volatile px_leave_ptr)(long, int) = px_leave;

/* Leaves the thread from inside a call chain, after one last race. */
NOINLINE void px_leave(long id, int depth)
{
	if (depth > 0) {
		px_leave_ptr(id, depth - 1);
		return;
	}
	if (id & 1)
		px_writer((int)id);
	else
		__atomic_add_fetch(&sink, px_reader(), __ATOMIC_RELAXED);
	pthread_exit((void *)(id + 100));
}

static void *racer(void *arg)
{
	long id = (long)arg;
	double end;
	long sum = 0;
	int i = 0;

	__atomic_add_fetch(&started, 1, __ATOMIC_RELEASE);
	end = e2e_now() + 0.15 + 0.03 * (double)id;
	while (e2e_now() < end) {
		if (id & 1)
			px_writer(++i);
		else
			sum += px_reader();
	}
	__atomic_add_fetch(&sink, sum, __ATOMIC_RELAXED);
	px_leave(id, (int)id % 4);
	return NULL; /* not reached */
}

static void *joiner(void *arg)
{
	int good = 0;

	(void)arg;
	for (long i = 0; i < RACERS / 2; i++) {
		void *ret;
		int err = pthread_join(racers[i], &ret);

		if (err)
			e2e_die("pthread_join", err);
		if ((long)ret == i + 100)
			good++;
		else
			fprintf(stderr, "e2e: racer %ld left with %ld\n", i, (long)ret);
	}
	if (good == RACERS / 2)
		fprintf(stderr, "rel: joined %d racers, pthread_exit values arrived\n", good);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_attr_t detached;

	rel_supervise(argc, argv);
	e2e_require_runtime();
	pthread_attr_init(&detached);
	pthread_attr_setdetachstate(&detached, PTHREAD_CREATE_DETACHED);
	for (long i = 0; i < RACERS; i++)
		racers[i] = e2e_spawn(racer, (void *)i);
	{
		pthread_t j;
		int err = pthread_create(&j, &detached, joiner, NULL);

		if (err)
			e2e_die("pthread_create", err);
	}
	while (__atomic_load_n(&started, __ATOMIC_ACQUIRE) < RACERS)
		e2e_sleep_ms(1);
	e2e_sleep_ms(50);
	pthread_exit(NULL); /* the others go on; the last one ends the process */
}
