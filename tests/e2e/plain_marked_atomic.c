// A plain read racing with a relaxed __atomic_store_n: the atomic store is a
// marked access that never sets a watchpoint but hits the reader's one.
//
// OPTIONS: skip_watch=0 halt_on_error=1
// TRIES: 10
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in reader / writer$
// EXPECT: ^read to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^write \(marked\) to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^read to 0x => ^ reader\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*plain_marked_atomic\.c:[0-9]+$
// EXPECT-FRAME: ^write \(marked\) to 0x => ^ writer\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*plain_marked_atomic\.c:[0-9]+$
// EXPECT: ^value changed: 0x[0-9a-f]{8} -> 0x[0-9a-f]{8}$
// NOT: ^read \(marked\)
// NOT: ^write to

#include "e2e.h"

int shared;

NOINLINE long reader(void)
{
	return shared;
}

NOINLINE void writer(long v)
{
	__atomic_store_n(&shared, v, __ATOMIC_RELAXED);
}

int main(void)
{
	e2e_race_rw(reader, writer, 4000);
	return 0;
}
