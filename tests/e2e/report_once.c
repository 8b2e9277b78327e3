// report_always.c with the default report_once_in_ms=3000: the same pair of
// racing accesses is reported only once during the 0.6 s run.
//
// OPTIONS: skip_watch=0
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in reader / slow_writer$
// EXPECT: ^UCSAN: reported 1 data races?$

#include "report_always.c"
