// unknown_origin.c with report_unknown_origin=0: the changed values are still
// noticed (counted in the stats) but nothing is reported.
//
// OPTIONS: skip_watch=0 udelay_task=200 report_unknown_origin=0 print_stats=1
// EXPECT: ^UCSAN: stats: races_unknown_origin: [1-9][0-9]*$
// NOT: BUG|UCSAN: reported

#define RUN_MS 1500
#include "unknown_origin.c"
