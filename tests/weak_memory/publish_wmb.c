// publish_relaxed.c with smp_wmb() between the data and the (relaxed)
// pointer store, as kernel code does: the write barrier retires the pending
// write, so weak_memory=1 finds nothing.
//
// CFLAGS: -O2 -g --ucsan-weak-memory -DPUBLISH_WMB
// OPTIONS: weak_memory=1 skip_watch=0 udelay_task=5 print_stats=1
// EXIT: 0
// NOT: BUG: UCSAN
// EXPECT: ^UCSAN: stats: setup_watchpoints: [0-9]{4,}$

#define RUN_MS 3000
#include "publish_relaxed.c"
