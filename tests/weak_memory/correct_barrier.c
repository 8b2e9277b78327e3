// The kernel's correct_barrier: the publication is smp_store_release, so
// weak_memory=1 (and strict=1) report nothing.
//
// CFLAGS: -O2 -g --ucsan-weak-memory -DPUBLISH_STORE_RELEASE
// OPTIONS: strict=1 skip_watch=0 udelay_task=5 print_stats=1
// EXIT: 0
// NOT: BUG: UCSAN
// EXPECT: ^UCSAN: stats: setup_watchpoints: [0-9]{4,}$

#define RUN_MS 3000
#include "publish_relaxed.c"
