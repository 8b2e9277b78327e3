// report_format=both with inlined calls in the racing stack: each inlined
// frame is its own JSON frame ("inline": true) in the text's order, and the
// JSON says what the text says, field by field.
//
// OPTIONS: halt_on_error=1 skip_watch=0 report_format=both
// TRIES: 5
// EXIT: 66
// EXPECT: ^ bump_total .*json_inline\.c:[0-9]+ \[inline\]$
// EXPECT: "inline":true
// CHECK: python3 @ROOT@/tests/report/compare_json_text.py

#include "e2e.h"

static long total;
static long *volatile total_at = &total; /* reloaded each time: the loops stay loops */

static inline __attribute__((always_inline)) void bump_total(long by)
{
	*total_at += by;
}

NOINLINE static void *adder(void *arg)
{
	while (!e2e_stopped())
		bump_total(1);
	return arg;
}

NOINLINE static void *reader(void *arg)
{
	long seen = 0;
	while (!e2e_stopped())
		seen += *total_at;
	return (void *)seen;
}

int main(void)
{
	e2e_race2(adder, reader, 10000);
	return 0;
}
