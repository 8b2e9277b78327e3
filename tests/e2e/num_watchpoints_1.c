// plain_write_read.c with a single watchpoint slot: still found.
//
// OPTIONS: skip_watch=0 halt_on_error=1 num_watchpoints=1
// TRIES: 10
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in reader / writer$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ reader\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*plain_write_read\.c:33$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ writer\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*plain_write_read\.c:38$

#include "plain_write_read.c"
