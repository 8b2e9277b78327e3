/*
 * Body of the size*.c tests: a plain read racing with a plain write of a
 * global of type T (defined by the including test).
 */
#include "e2e.h"

T shared;
long sink;

NOINLINE T reader(void)
{
	return shared;
}

NOINLINE void writer(T v)
{
	shared = v;
}

static void *reader_thread(void *arg)
{
	long sum = 0;

	(void)arg;
	while (!e2e_stopped())
		sum += (long)reader();
	__atomic_store_n(&sink, sum, __ATOMIC_RELAXED);
	return NULL;
}

static void *writer_thread(void *arg)
{
	unsigned long i = 0;
	unsigned __int128 v;

	(void)arg;
	while (!e2e_stopped()) {
		/* Every byte of the value changes from one write to the next. */
		v = ++i * 0x0101010101010101UL;
		writer((T)(v | v << 64));
	}
	return NULL;
}

int main(void)
{
	e2e_race2(reader_thread, writer_thread, 4000);
	return 0;
}
