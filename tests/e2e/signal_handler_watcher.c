// signal_handler.c with interrupt_watcher=1: the handler's write hits the
// watchpoint its own thread set, and is reported with both stacks (same
// thread).
//
// OPTIONS: skip_watch=0 interrupt_watcher=1 halt_on_error=1
// TRIES: 10
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in handler_write / reader$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ reader\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*signal_handler\.c:[0-9]+$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of 4 bytes by signal handler in thread [0-9]+ on cpu [0-9]+:$ => ^ handler_write\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*signal_handler\.c:[0-9]+$
// NOT: ucsan_|clock_gettime|__restore_rt

#define RUN_MS 4000
#include "signal_handler.c"
