// missing_barrier.c in the default mode: nothing overlaps in program
// order, nothing is reported.
//
// CFLAGS: -O2 -g --ucsan-weak-memory -DPUBLISH_ONCE
// OPTIONS: skip_watch=0 udelay_task=5 print_stats=1
// EXIT: 0
// NOT: BUG: UCSAN
// EXPECT: ^UCSAN: stats: setup_watchpoints: [0-9]{4,}$

#define RUN_MS 3000
#include "publish_relaxed.c"
