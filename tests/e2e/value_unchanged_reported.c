// value_unchanged.c with report_value_change_only=0: a write of the same
// value racing with a read is reported, without a "value changed" line.
//
// OPTIONS: skip_watch=0 report_value_change_only=0 halt_on_error=1
// TRIES: 10
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in reader / writer$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ reader\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*value_unchanged\.c:[0-9]+$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ writer\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*value_unchanged\.c:[0-9]+$
// NOT: ^value changed

#include "value_unchanged.c"
