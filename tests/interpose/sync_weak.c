// sync.c again, built and run with weak_memory: each plain access may stay
// pending (reorderable) until a barrier, and ucsan's release operations
// retire it (a last check, maybe a watch) before calling libc's.  They
// must still behave exactly like libc's: the same return values, errno,
// state and wake-ups.
//
// CFLAGS: -O2 -g -std=gnu11 -Wall -Wextra -Werror --ucsan-weak-memory
// OPTIONS: weak_memory=1 skip_watch=0 udelay_task=2 cold_udelay=2
// TIMEOUT: 120
// EXPECT-STDOUT: ^a weak_memory access was pending before [1-9][0-9]* of [0-9]+ calls$
// EXPECT-STDOUT: ^sync: [0-9]+ checks, 0 failed$
// NOT: UCSAN

#include "sync.c"
