// The report-inspection API, used the way ThreadSanitizer's own test of it
// does: the program's __tsan_on_report() hook runs for each report, and
// reads it back through __tsan_get_current_report() and the
// __tsan_get_report_*() accessors: the two accesses, the location, the
// threads with their names.
//
// OPTIONS: skip_watch=0 halt_on_error=1
// TRIES: 5
// EXIT: 66
// EXPECT: ^hook: the current report$
// EXPECT: ^hook: data-race, 2 accesses, 1 location, 2 threads$
// EXPECT: ^hook: access 0: 8 bytes at the raced address, write=[01], with a stack$
// EXPECT: ^hook: access 1: 8 bytes at the raced address, write=[01], with a stack$
// EXPECT: ^hook: location: global, the raced variable$
// EXPECT: ^hook: thread named "racer-[12]", created by [0-9]+, with a stack$
// TSAN-LIBS: -rdynamic
// TSAN-EXIT: 66
// TSAN-EXPECT: ^hook: the current report$
// TSAN-EXPECT: ^hook: data-race, 2 accesses, 1 location
// TSAN-EXPECT: ^hook: location: global, the raced variable$

#include <stdint.h>

#include "tsan_compat.h"

void *__tsan_get_current_report(void);
int __tsan_get_report_data(void *report, const char **description, int *count, int *stack_count, int *mop_count,
			   int *loc_count, int *mutex_count, int *thread_count, int *unique_tid_count,
			   void **sleep_trace, unsigned long trace_size);
int __tsan_get_report_mop(void *report, unsigned long idx, int *tid, void **addr, int *size, int *write,
			  int *atomic, void **trace, unsigned long trace_size);
int __tsan_get_report_loc(void *report, unsigned long idx, const char **type, void **addr, unsigned long *start,
			  unsigned long *size, int *tid, int *fd, int *suppressable, void **trace,
			  unsigned long trace_size);
int __tsan_get_report_thread(void *report, unsigned long idx, int *tid, uint64_t *os_id, int *running,
			     const char **name, int *parent_tid, void **trace, unsigned long trace_size);

long raced;

void __tsan_on_report(void *report)
{
	const char *description = NULL;
	int count, stacks, mops = 0, locs = 0, mutexes, threads = 0, unique;
	void *sleep_trace[4], *trace[16];

	fprintf(stderr, "hook: %s\n", report == __tsan_get_current_report() ? "the current report" : "another report");
	__tsan_get_report_data(report, &description, &count, &stacks, &mops, &locs, &mutexes, &threads, &unique,
			       sleep_trace, 4);
	fprintf(stderr, "hook: %s, %d accesses, %d location, %d threads\n", description, mops, locs, threads);
	for (int i = 0; i < mops; i++) {
		int tid, size, write, atomic;
		void *addr;
		memset(trace, 0, sizeof(trace));
		if (__tsan_get_report_mop(report, (unsigned long)i, &tid, &addr, &size, &write, &atomic, trace, 16))
			fprintf(stderr, "hook: access %d: %d bytes at %s, write=%d, %s\n", i, size,
				addr == (void *)&raced ? "the raced address" : "another address", write,
				trace[0] ? "with a stack" : "no stack");
	}
	const char *type = NULL;
	void *addr;
	unsigned long start = 0, size = 0;
	int tid, fd, suppressable;
	if (locs > 0 && __tsan_get_report_loc(report, 0, &type, &addr, &start, &size, &tid, &fd, &suppressable, trace,
					      16))
		fprintf(stderr, "hook: location: %s, %s\n", type,
			addr == (void *)&raced ? "the raced variable" : "elsewhere");
	for (int i = 0; i < threads; i++) {
		uint64_t os_id;
		int running, parent;
		const char *name = NULL;
		memset(trace, 0, sizeof(trace));
		if (__tsan_get_report_thread(report, (unsigned long)i, &tid, &os_id, &running, &name, &parent, trace, 16))
			fprintf(stderr, "hook: thread named \"%s\", created by %d, %s\n", name ? name : "", parent,
				trace[0] ? "with a stack" : "no stack");
	}
}

static void *racer(void *arg)
{
	unsigned long n = 0;
	pthread_setname_np(pthread_self(), arg ? "racer-2" : "racer-1");
	while (compat_continue(&n))
		raced++;
	return NULL;
}

int main(void)
{
	e2e_require_runtime();
	pthread_t a = e2e_spawn(racer, NULL), b = e2e_spawn(racer, (void *)1);
	e2e_run_for(2000);
	e2e_join(a);
	e2e_join(b);
	return 0;
}
