// libc's reads for the program (strlen, strcmp, strncmp, the source of a
// strcpy) are checked and counted but never cold-watched: of the calls
// below, only strcpy's store into g_name sets a watch. Nothing else here is
// instrumented, so the count is the interposers' own (that store is not
// held through the join at the end: watch_through_waits=0).
//
// OPTIONS: overhead_budget=0 skip_watch=1000000000 print_stats=1 watch_through_waits=0
// EXIT: 0
// EXPECT: ^UCSAN: stats: setup_watchpoints: 1$
// NOT: BUG

#include <pthread.h>
#include <sched.h>
#include <string.h>

#define UNCHECKED __attribute__((no_sanitize("thread"), noinline))

char g_name[32] = "worker";
static const char *volatile other = "worker-2";
static int done;
static volatile size_t sink;

/* Keeps the process multi-threaded: a lone thread is never watched. */
UNCHECKED static void *company(void *arg)
{
	while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE))
		sched_yield();
	return arg;
}

UNCHECKED int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, company, NULL);
	sink += strlen(g_name);
	sink += (size_t)strcmp(g_name, other);
	sink += (size_t)strncmp(g_name, other, 4);
	strcpy(g_name, other);
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	return 0;
}
