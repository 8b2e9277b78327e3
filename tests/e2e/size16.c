// A 16-byte (__int128) plain read racing with a 16-byte plain write
// (support/size_race.h).  Both compilers emit __tsan_read16/__tsan_write16;
// writes wider than 8 bytes set watchpoints even with the default
// assume_plain_writes_atomic=1, so either side may be the watcher.
//
// OPTIONS: skip_watch=0 halt_on_error=1
// TRIES: 10
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in reader / writer$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of 16 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ reader\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*size_race\.h:[0-9]+$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of 16 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ writer\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*size_race\.h:[0-9]+$

#define T unsigned __int128
#include "size_race.h"
