// The kernel's atomic_builtins_missing_barrier: __atomic_store_n with
// __ATOMIC_RELAXED publishes: reported under weak_memory=1.
//
// CFLAGS: -O2 -g --ucsan-weak-memory -DPUBLISH_ORDER=__ATOMIC_RELAXED
// OPTIONS: weak_memory=1 skip_watch=0 udelay_task=20 halt_on_error=1
// TRIES: 10
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in consume / publish$
// EXPECT: ^write \(reordered\) to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$

#include "publish_relaxed.c"
