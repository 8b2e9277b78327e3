// kcsan_test: test_unknown_origin with report_unknown_origin=0.  The same
// race as unknown_origin.c (a __no_kcsan writer the runtime cannot see): the
// reader's watchpoints notice the changes (races_unknown_origin counts
// them) but nothing is reported.
//
// OPTIONS: skip_watch=0 udelay_task=10 report_unknown_origin=0 print_stats=1
// TRIES: 2
// TIMEOUT: 20
// EXPECT: ^UCSAN: stats: races_unknown_origin: [1-9][0-9]*$
// NOT: BUG: UCSAN|race at unknown origin|UCSAN: reported|UCSAN: warning

#define RUN_MS 1500
#include "unknown_origin.c"
