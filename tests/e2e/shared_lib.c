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

NOINLINE long main_reader(void)
{
	return lib_shared;
}

/* One call that loops in the library until the stop flag is set. */
static void write_in_lib(long i)
{
	(void)i;
	lib_write_loop(&e2e_stop_flag);
}

int main(void)
{
	struct e2e_race race = {
		.loop = { { main_reader, NULL, 0, 0 }, { NULL, write_in_lib, 1, 0 } }
	};

	e2e_race_for(&race, 4000);
	return 0;
}
