/*
 * The body of the rel_exit_* and rel_main_return_* tests: the process ends
 * while other threads are in the middle of watch windows (long stalls under
 * skip_watch=0) and, in the racy variants, in the middle of reports.
 *
 *   REL_EXIT_FROM_THREAD  1: a non-main thread calls exit(7);
 *                         0: main returns 5.
 *   REL_RACY              1: two more threads race (reported over and over,
 *                         report_once_in_ms=0) until the very end, so the
 *                         runtime's exit path meets reports in progress.
 *
 * Everything runs under rel_supervise(), which checks every line of the
 * whole output once the process is gone.
 */
#include "rel_support.h"

#define WATCHERS 4

static int watched[WATCHERS][16]; /* one line per thread: no races */
static int ex_shared;
static int ready; /* atomic */
long sink;

E2E_READER_WRITER(ex_shared, ex_reader, ex_writer)

static void *watcher(void *arg)
{
	int *p = arg;

	__atomic_add_fetch(&ready, 1, __ATOMIC_RELEASE);
	for (;;)
		(*p)++; /* a read-modify-write: watched every time */
	return NULL;
}

static void *reader_thread(void *arg)
{
	long sum = 0;

	(void)arg;
	__atomic_add_fetch(&ready, 1, __ATOMIC_RELEASE);
	for (;;) {
		sum += ex_reader();
		__atomic_store_n(&sink, sum, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void *writer_thread(void *arg)
{
	int i = 0;

	(void)arg;
	__atomic_add_fetch(&ready, 1, __ATOMIC_RELEASE);
	for (;;)
		ex_writer(++i);
	return NULL;
}

/* In the racy variants, the end comes only once the race has been reported
 * (so that the status is 66 even on a slow machine), while the racing
 * threads go on reporting it. */
static void wait_then_pause(void)
{
	if (REL_RACY)
		rel_wait_for_report("ex_reader / ex_writer", (int)getpid(), 20000);
	e2e_sleep_ms(300);
}

static void *exiter(void *arg)
{
	(void)arg;
	wait_then_pause();
	exit(7);
}

static void at_exit_handler(void)
{
	/* Instrumented code on the way out, with the others still running. */
	watched[0][8]++;
	fprintf(stderr, "rel: atexit handler ran\n");
}

/* A program destructor: runs after main, before the runtime's own exit
 * work, with the other threads still inside their watch windows. */
__attribute__((destructor)) static void program_destructor(void)
{
	watched[1][8] += watched[0][8];
	if (rel_in_run)
		fprintf(stderr, "rel: destructor ran\n");
}

int main(int argc, char **argv)
{
	int threads = WATCHERS;

	rel_supervise(argc, argv);
	e2e_require_runtime();
	atexit(at_exit_handler);
	for (int i = 0; i < WATCHERS; i++)
		e2e_spawn(watcher, watched[i]);
	if (REL_RACY) {
		e2e_spawn(reader_thread, NULL);
		e2e_spawn(writer_thread, NULL);
		threads += 2;
	}
	while (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) < threads)
		e2e_sleep_ms(1);
	if (REL_EXIT_FROM_THREAD) {
		e2e_spawn(exiter, NULL);
		for (;;)
			e2e_sleep_ms(1000);
	}
	wait_then_pause();
	return 5;
}
