// A statistics block annotated with AnnotateBenignRaceSized(), as projects
// written for TSan do: its racy increments are not reported. The counter
// next to it is not annotated and is reported (the control, so that "no
// report" cannot come from a detector that saw nothing).
//
// ucsan: needs the report hook that consults ucsan_benign_range(); until
// the runtime has it, bump_stats is reported too and this test fails.
//
// OPTIONS: skip_watch=0
// TRIES: 3
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in bump_control / bump_control$
// NOT: ^BUG: UCSAN: .*bump_stats
// UCSAN-CONTROL: -DNO_ANNOTATIONS
// UCSAN-CONTROL-EXPECT: ^BUG: UCSAN: data-race in bump_stats / bump_stats$
// TSAN-EXIT: 66
// TSAN-EXPECT: ^    #0 bump_control
// TSAN-NOT: ^    #0 bump_stats

#include "tsan_compat.h"

static struct stats {
	unsigned long hits, misses;
} stats;
static unsigned long control_counter;

NOINLINE static void bump_stats(int i)
{
	if (i & 1)
		stats.hits++;
	else
		stats.misses++;
}

NOINLINE static void bump_control(void)
{
	control_counter++;
}

static void work(long i)
{
	bump_stats((int)i);
	bump_control();
}

int main(void)
{
	e2e_require_runtime();
#ifndef NO_ANNOTATIONS
	ANNOTATE_BENIGN_RACE_SIZED(&stats, sizeof(stats), "statistics, approximate by design");
#endif
	compat_race(work, work, 1500);
	printf("hits+misses=%lu\n", stats.hits + stats.misses);
	return 0;
}
