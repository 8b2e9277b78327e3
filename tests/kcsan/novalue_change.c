// kcsan_test: test_novalue_change, default setting.  A plain write that
// stores the value the variable already holds races with a plain read.  With
// report_value_change_only=1 (the default) the race is found but not
// reported: the stats show suppressed reports.  novalue_change_strict.c runs
// the same race with the option off.
//
// OPTIONS: skip_watch=0 udelay_task=5 print_stats=1
// TRIES: 2
// TIMEOUT: 20
// EXPECT: ^UCSAN: stats: data_races: [1-9][0-9]*$
// EXPECT: ^UCSAN: stats: reports_suppressed: [1-9][0-9]*$
// NOT: BUG: UCSAN|UCSAN: reported|UCSAN: warning

#define RUN_MS 1500
#include "novalue_change_strict.c"
