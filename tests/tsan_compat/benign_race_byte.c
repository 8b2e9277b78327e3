// AnnotateBenignRace() covers one byte, and TSan drops any race that
// overlaps an annotated range: annotating the second byte of a counter
// silences the races on the whole counter, under TSan and under ucsan. The
// counter next to it (the control) is still reported.
//
// ucsan: needs the report hook that consults ucsan_benign_range(); until
// the runtime has it, bump_flagged is reported too and this test fails.
//
// OPTIONS: skip_watch=0
// TRIES: 3
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in bump_control / bump_control$
// NOT: ^BUG: UCSAN: .*bump_flagged
// UCSAN-CONTROL: -DNO_ANNOTATIONS
// UCSAN-CONTROL-EXPECT: ^BUG: UCSAN: data-race in bump_flagged / bump_flagged$
// TSAN-EXIT: 66
// TSAN-EXPECT: ^    #0 bump_control
// TSAN-NOT: ^    #0 bump_flagged

#include "tsan_compat.h"

static unsigned long flagged_counter;
static unsigned long control_counter;

NOINLINE static void bump_flagged(void)
{
	flagged_counter++;
}

NOINLINE static void bump_control(void)
{
	control_counter++;
}

static void work(long i)
{
	(void)i;
	bump_flagged();
	bump_control();
}

int main(void)
{
	e2e_require_runtime();
#ifndef NO_ANNOTATIONS
	AnnotateBenignRace(__FILE__, __LINE__, (char *)&flagged_counter + 1, "one byte is enough");
#endif
	compat_race(work, work, 1500);
	printf("%lu %lu\n", flagged_counter, control_counter);
	return 0;
}
