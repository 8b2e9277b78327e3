// __tsan_default_options() sets options from code, as under TSan:
// exitcode=42 and halt_on_error=1 mean the same under ucsan;
// history_size has no ucsan meaning and must be accepted, not fail
// start-up. UCSAN_OPTIONS (here skip_watch=0) still applies on top.
//
// ucsan: needs the runtime to read __tsan_default_options() (options.c);
// until it does, the exit status is 66 and this test fails.
//
// OPTIONS: skip_watch=0
// TRIES: 5
// EXIT: 42
// EXPECT: ^BUG: UCSAN: data-race in racer / racer$
// NOT: unknown option|invalid value
// TSAN-EXIT: 42

#include "tsan_compat.h"

const char *__tsan_default_options(void)
{
	return "exitcode=42:halt_on_error=1:history_size=4";
}

static unsigned long counter;

NOINLINE static void racer(long i)
{
	(void)i;
	counter++;
}

int main(void)
{
	e2e_require_runtime();
	compat_race(racer, racer, 3000);
	return 0;
}
