// A struct wiped with memset() of a constant size while another thread
// reads it. gcc would expand the memset inline, after its instrumentation,
// and nothing would be checked; ucsan-cc makes it a call (the runtime's
// interceptor checks it as a range write), as clang does anyway.
//
// The memset writes the zeros that are already there: no value changes,
// hence report_value_change_only=0.
//
// OPTIONS: udelay_task=10 halt_on_error=1 report_value_change_only=0
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in (peek / wipe|wipe / peek)$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ peek\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*memset_inline\.c:[0-9]+$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of 80 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ wipe\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*memset_inline\.c:[0-9]+$

#include <string.h>

#include "e2e.h"

struct big {
	long a[10];
};

struct big shared;

__attribute__((noinline, noipa)) void wipe(long i)
{
	(void)i;
	memset(&shared, 0, sizeof(shared));
}

__attribute__((noinline, noipa)) long peek(void)
{
	return shared.a[3];
}

int main(void)
{
	e2e_race_rw(peek, wipe, 4000);
	return 0;
}
