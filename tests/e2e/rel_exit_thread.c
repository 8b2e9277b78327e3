// exit(7) from a thread other than main while four threads sit in 2 ms watch
// windows (skip_watch=0) and main sleeps: atexit handlers and destructors
// run, the process ends with the program's own status 7, no report, no
// crash, no hang; every line of output is well-formed.
//
// OPTIONS: skip_watch=0 udelay_task=2000 delay_randomize=0
// TIMEOUT: 60
// EXIT: 7
// EXPECT: ^rel: atexit handler ran$
// EXPECT: ^rel: destructor ran$
// EXPECT: ^rel: output of the run checked$
// NOT: UCSAN|Segmentation|Aborted

#define REL_EXIT_FROM_THREAD 1
#define REL_RACY 0
#include "rel_exit.h"
