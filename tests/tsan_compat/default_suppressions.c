// __tsan_default_suppressions() gives suppressions in code, as projects
// written for TSan do (in addition to, or instead of, a suppressions
// file): the race in hidden_racer is suppressed, the one in shown_racer
// is not (the control, so that "no report" cannot come from a detector
// that saw nothing). Built with -DNO_ANNOTATIONS, without the hook, both
// are reported.
//
// OPTIONS: skip_watch=0
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in shown_racer / shown_racer$
// NOT: ^BUG: UCSAN: .*hidden_racer
// UCSAN-CONTROL: -DNO_ANNOTATIONS
// UCSAN-CONTROL-EXPECT: ^BUG: UCSAN: data-race in hidden_racer / hidden_racer$
// TSAN-EXIT: 66
// TSAN-EXPECT: ^    #0 shown_racer
// TSAN-NOT: ^    #0 hidden_racer

#include "tsan_compat.h"

#ifndef NO_ANNOTATIONS
const char *__tsan_default_suppressions(void)
{
	return "# races we know of\n"
	       "race:hidden_racer\n";
}
#endif

static unsigned long hidden, shown;

NOINLINE static void hidden_racer(long i)
{
	(void)i;
	hidden++;
}

NOINLINE static void shown_racer(long i)
{
	(void)i;
	shown++;
}

int main(void)
{
	e2e_require_runtime();
	compat_race(hidden_racer, hidden_racer, 1500);
	compat_race(shown_racer, shown_racer, 1500);
	return 0;
}
