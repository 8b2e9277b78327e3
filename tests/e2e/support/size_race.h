/*
 * Body of the size*.c tests: a plain read racing with a plain write of a
 * global of type T (defined by the including test).
 */
#include "e2e.h"

T shared;

NOINLINE T reader(void)
{
	return shared;
}

NOINLINE void writer(T v)
{
	shared = v;
}

/* The loop's reader: the whole T is read in reader(). */
static long read_once(void)
{
	return (long)reader();
}

/* Every byte of the value changes from one write to the next. */
static void write_next(long i)
{
	unsigned __int128 v = (unsigned long)i * 0x0101010101010101UL;

	writer((T)(v | v << 64));
}

int main(void)
{
	e2e_race_rw(read_once, write_next, 4000);
	return 0;
}
