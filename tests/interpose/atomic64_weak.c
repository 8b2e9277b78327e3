// atomic64.c again, built and run with weak_memory: a plain access may be
// pending (reorderable) when an atomic with a release order runs, and the
// entry point retires it first (a last check, maybe a watch).  The entry
// points must still behave exactly like the builtins: results, memory,
// written-back expected values, errno (IP_ATOMICS in interpose.h).
//
// CFLAGS: -O2 -g -std=gnu11 -Wall -Wextra -Werror --ucsan-weak-memory
// OPTIONS: weak_memory=1 skip_watch=3 udelay_task=1 cold_udelay=1
// TIMEOUT: 120
// EXPECT-STDOUT: ^atomic64: [0-9]+ checks, 0 failed$
// NOT: UCSAN

#include "atomic64.c"
