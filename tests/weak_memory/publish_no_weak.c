// publish_relaxed.c without weak_memory: in program order the publication
// is correct, and the sampled watches report nothing (weak_memory=0 models
// no reordering). The relaxed publication is still a C11 data race, which
// cold_relaxed_stores=1 (default) reports from the cold watch of the data
// store after the flag (tests/oneshot/relaxed_ready.c); it is off here.
//
// CFLAGS: -O2 -g --ucsan-weak-memory
// OPTIONS: skip_watch=0 udelay_task=5 print_stats=1 cold_relaxed_stores=0
// EXIT: 0
// NOT: BUG: UCSAN
// EXPECT: ^UCSAN: stats: setup_watchpoints: [0-9]{4,}$

#define RUN_MS 3000
#include "publish_relaxed.c"
