/*
 * Instrumented shared library for shared_lib.c: owns the racy variable and
 * the writer.
 */
#include "e2e.h"

int lib_shared;

NOINLINE void lib_writer(int v)
{
	lib_shared = v;
}

/* Drive lib_writer until *stop becomes non-zero. */
void lib_write_loop(const int *stop)
{
	int i = 0;

	while (!__atomic_load_n(stop, __ATOMIC_RELAXED))
		lib_writer(++i);
}
