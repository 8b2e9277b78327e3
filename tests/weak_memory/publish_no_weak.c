// publish_relaxed.c without weak_memory: in program order the publication
// is correct, and nothing is reported (default mode is unchanged).
//
// CFLAGS: -O2 -g --ucsan-weak-memory
// OPTIONS: skip_watch=0 udelay_task=5 print_stats=1
// EXIT: 0
// NOT: BUG: UCSAN
// EXPECT: ^UCSAN: stats: setup_watchpoints: [0-9]{4,}$

#define RUN_MS 3000
#include "publish_relaxed.c"
