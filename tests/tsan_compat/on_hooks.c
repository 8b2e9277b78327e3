// __tsan_on_initialize() runs once the runtime is up, before main();
// __tsan_on_finalize(failed) runs at exit with failed=1 after a report, and
// its return value decides: 0 makes the process exit as if nothing had been
// found. TSan looks the hooks up with dlsym, so its build needs -rdynamic;
// under ucsan the program's definitions are exported without it.
//
// ucsan: needs init.c to call the hooks (ucsan_tsan_on_initialize() and
// ucsan_tsan_on_finalize() of src/tsan_interface.c); until then this fails.
//
// OPTIONS: skip_watch=0
// TRIES: 5
// EXIT: 0
// EXPECT: ^hook: on_initialize, before main$
// EXPECT: ^hook: on_finalize\(failed=1\)$
// EXPECT: ^BUG: UCSAN: data-race in racer / racer$
// TSAN-LIBS: -rdynamic
// TSAN-EXIT: 0
// TSAN-EXPECT: ^hook: on_initialize, before main$
// TSAN-EXPECT: ^hook: on_finalize\(failed=1\)$
// TSAN-EXPECT: WARNING: ThreadSanitizer: data race

#include <unistd.h>

#include "tsan_compat.h"

static int in_main;

void __tsan_on_initialize(void)
{
	fprintf(stderr, "hook: on_initialize, %s main\n", in_main ? "after" : "before");
}

int __tsan_on_finalize(int failed)
{
	fprintf(stderr, "hook: on_finalize(failed=%d)\n", failed);
	return 0;
}

static unsigned long counter;

NOINLINE static void racer(long i)
{
	(void)i;
	counter++;
}

int main(void)
{
	in_main = 1;
	e2e_require_runtime();
	compat_race(racer, racer, 1500);
	return 0;
}
