// The kernel's atomic_builtins_correct_barrier: __atomic_store_n with
// __ATOMIC_SEQ_CST (a release and more) publishes: never reported.
//
// CFLAGS: -O2 -g --ucsan-weak-memory -DPUBLISH_ORDER=__ATOMIC_SEQ_CST
// OPTIONS: weak_memory=1 skip_watch=0 udelay_task=5 print_stats=1
// EXIT: 0
// NOT: BUG: UCSAN
// EXPECT: ^UCSAN: stats: setup_watchpoints: [0-9]{4,}$

#define RUN_MS 3000
#include "publish_relaxed.c"
