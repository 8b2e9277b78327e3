// kcsan_test: test_1bit_value_change with permissive=1.  A plain read races
// with a single-bit flip (not of bit 0, so the values do not look like
// booleans): the flips hit the reader's watchpoints (data_races counts
// them), but the kernel's permissive rule ignores a plain read that saw only
// one bit change, so nothing is reported.
//
// OPTIONS: skip_watch=0 udelay_task=10 permissive=1 print_stats=1
// TRIES: 2
// TIMEOUT: 20
// EXPECT: ^UCSAN: stats: data_races: [1-9][0-9]*$
// NOT: BUG: UCSAN|UCSAN: reported|UCSAN: warning

#define RUN_MS 1500
#include "1bit_value_change.c"
