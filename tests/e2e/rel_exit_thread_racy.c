// exit(7) from a thread other than main while four threads sit in 2 ms watch
// windows and two more race, reported over and over (report_once_in_ms=0),
// so the exit path meets reports in progress: the report being printed is
// finished, none is torn or interleaved, the summary comes last, and the
// status is 66 (a race was reported). No crash, no hang.
//
// OPTIONS: skip_watch=0 udelay_task=2000 report_once_in_ms=0
// TRIES: 3
// TIMEOUT: 60
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in ex_reader / ex_writer$
// EXPECT: ^rel: atexit handler ran$
// EXPECT: ^rel: destructor ran$
// EXPECT: ^UCSAN: reported [0-9]+ data races$
// EXPECT: ^rel: output of the run checked$
// NOT: Segmentation|Aborted

#define REL_EXIT_FROM_THREAD 1
#define REL_RACY 1
#include "rel_exit.h"
