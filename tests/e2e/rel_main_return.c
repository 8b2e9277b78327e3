// main returns 5 while four threads sit in 2 ms watch windows
// (skip_watch=0): atexit handlers and destructors run, the process ends
// with status 5, no report, no crash, no hang; every line of output is
// well-formed.
//
// OPTIONS: skip_watch=0 udelay_task=2000 delay_randomize=0
// TIMEOUT: 60
// EXIT: 5
// EXPECT: ^rel: atexit handler ran$
// EXPECT: ^rel: destructor ran$
// EXPECT: ^rel: output of the run checked$
// NOT: UCSAN|Segmentation|Aborted

#define REL_EXIT_FROM_THREAD 0
#define REL_RACY 0
#include "rel_exit.h"
