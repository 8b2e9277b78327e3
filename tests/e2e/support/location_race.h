/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One race on memory of the kind the including file names, for the report's
 * "location:" line: the file defines exactly one LOC_* macro and includes
 * this. The two racing threads name themselves ("writer-1", "reader-2") for
 * the thread lines. The memory belongs to the main thread where that
 * matters (its stack, its TLS), which waits while the two race.
 */
#include <stdlib.h>
#include <sys/mman.h>

#include "e2e.h"

static long *volatile target;

#if defined(LOC_GLOBAL)
long shared_global;
#elif defined(LOC_STATIC)
NOINLINE static long *in_function_slot(void)
{
	static long in_function;
	return &in_function;
}
#elif defined(LOC_TLS)
static __thread long per_thread;
#elif defined(LOC_SHARED)
extern long lib_global; /* in support/liblocation.c */
#endif

NOINLINE static void *writer(void *arg)
{
	pthread_setname_np(pthread_self(), "writer-1");
	while (!e2e_stopped())
		(*target)++;
	return arg;
}

NOINLINE static void *reader(void *arg)
{
	long sum = 0;
	pthread_setname_np(pthread_self(), "reader-2");
	while (!e2e_stopped())
		sum += *target;
	return (void *)sum;
}

int main(void)
{
#if defined(LOC_GLOBAL)
	target = &shared_global;
#elif defined(LOC_STATIC)
	target = in_function_slot();
#elif defined(LOC_TLS)
	target = &per_thread;
#elif defined(LOC_SHARED)
	target = &lib_global;
#elif defined(LOC_STACK)
	long on_stack = 0;
	target = &on_stack;
#elif defined(LOC_HEAP)
	target = (long *)calloc(8, sizeof(long)) + 2; /* 16 bytes into the block */
#elif defined(LOC_MMAP)
	target = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (target == MAP_FAILED)
		e2e_die("mmap", errno);
#elif defined(LOC_BSS_TAIL)
	target = &big_table.hits; /* defined by the including file */
#endif
	e2e_race2(writer, reader, 10000);
	return (int)(*target & 0);
}
