// Two plain writers storing different values to the same int.  Aligned plain
// writes only set watchpoints with assume_plain_writes_atomic=0.
//
// OPTIONS: skip_watch=0 assume_plain_writes_atomic=0 halt_on_error=1
// TRIES: 10
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in writer_a / writer_b$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ writer_a\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*write_write\.c:[0-9]+$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ writer_b\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*write_write\.c:[0-9]+$
// EXPECT: ^value changed: 0x[0-9a-f]{8} -> 0x[0-9a-f]{8}$
// NOT: ^read
// NOT: \(marked\)

#include "e2e.h"

int shared;

NOINLINE void writer_a(long i)
{
	shared = 2 * i;
}

/* Not the same body as writer_a, or gcc's -fipa-icf could fold the two. */
NOINLINE void writer_b(long i)
{
	shared = 2 * i + 8;
}

#ifndef RUN_MS
#define RUN_MS 4000
#endif

int main(void)
{
	struct e2e_race race = E2E_RACE_STEPS(writer_a, writer_b);

	e2e_race_for(&race, RUN_MS);
	return 0;
}
