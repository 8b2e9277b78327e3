// kcsan_test: test_write_write_assume_atomic, the kernel's default setting
// (ucsan's default is 0).  Two threads keep storing changing values with
// aligned plain 8-byte writes.  With assume_plain_writes_atomic=1 such
// writes are treated as
// atomic: they never set watchpoints, so the race is never reported
// (write_write_assume_atomic_strict.c turns the option off).  As in the
// kernel test, the main thread feeds the current value back into the sink
// the writers compute from, so that the writes change the value.
//
// OPTIONS: skip_watch=0 udelay_task=5 assume_plain_writes_atomic=1
// TIMEOUT: 20
// NOT: BUG: UCSAN|UCSAN: reported|UCSAN: warning

#define RUN_MS 1500
#include "write_write_assume_atomic_strict.c"
