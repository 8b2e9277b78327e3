// A relaxed __atomic_load_n racing with a plain write.  The marked read never
// sets a watchpoint, so the plain write has to watch
// (assume_plain_writes_atomic=0); a read cannot change the value, so the
// report needs report_value_change_only=0.
//
// OPTIONS: skip_watch=0 assume_plain_writes_atomic=0 report_value_change_only=0
// OPTIONS: halt_on_error=1
// TRIES: 10
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in reader / writer$
// EXPECT: ^read \(marked\) to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^write to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^read \(marked\) to 0x => ^ reader\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*plain_marked_read\.c:[0-9]+$
// EXPECT-FRAME: ^write to 0x => ^ writer\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*plain_marked_read\.c:[0-9]+$
// NOT: ^read to
// NOT: ^write \(marked\)

#include "e2e.h"

int shared;

NOINLINE long reader(void)
{
	return __atomic_load_n(&shared, __ATOMIC_RELAXED);
}

NOINLINE void writer(long v)
{
	shared = v;
}

int main(void)
{
	e2e_race_rw(reader, writer, 4000);
	return 0;
}
