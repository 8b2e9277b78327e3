// An instrumented shared library (support/libracer.c) writes a variable it
// owns while the main program reads it: the writer's frames must be
// symbolized in the library.
//
// SHARED: support/libracer.c
// OPTIONS: skip_watch=0 halt_on_error=1
// TRIES: 10
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in lib_writer / main_reader$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ lib_writer\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*libracer\.c:[0-9]+$
// EXPECT: ^ lib_write_loop\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*libracer\.c:[0-9]+$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ main_reader\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*shared_lib\.c:[0-9]+$
// EXPECT: ^value changed: 0x[0-9a-f]{8} -> 0x[0-9a-f]{8}$

#include "e2e.h"

/* Defined in libracer.so. */
extern int lib_shared;
void lib_write_loop(const int *stop);

long sink;

NOINLINE int main_reader(void)
{
	return lib_shared;
}

static void *reader_thread(void *arg)
{
	long sum = 0;

	(void)arg;
	while (!e2e_stopped())
		sum += main_reader();
	__atomic_store_n(&sink, sum, __ATOMIC_RELAXED);
	return NULL;
}

static void *writer_thread(void *arg)
{
	(void)arg;
	lib_write_loop(&e2e_stop_flag);
	return NULL;
}

int main(void)
{
	e2e_race2(reader_thread, writer_thread, 4000);
	return 0;
}
