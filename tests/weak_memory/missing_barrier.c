// The kernel's missing_barrier: data written, then the pointer published
// with WRITE_ONCE and no barrier. Reported only under weak_memory=1.
//
// CFLAGS: -O2 -g --ucsan-weak-memory -DPUBLISH_ONCE
// OPTIONS: weak_memory=1 skip_watch=0 udelay_task=20 halt_on_error=1
// TRIES: 10
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in consume / publish$
// EXPECT-FRAME: ^write \(reordered\) to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ publish\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*publish_relaxed\.c:36$
// EXPECT: ^  \+-> reordered to: publish\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*publish_relaxed\.c:[0-9]+$

#include "publish_relaxed.c"
