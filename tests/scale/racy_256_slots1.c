// racy_256.c with the smallest table (num_watchpoints=1: three words, one
// window for every address), full most of the time (no_capacity is not
// asserted: a race found in the first milliseconds may beat it): both races
// are still reported, each access line naming its function (see racy.h).
// clang may merge bump_stats' two counters into one 16-byte read-write.
//
// OPTIONS: print_stats=1 num_watchpoints=1
// CFLAGS: -O2 -g -Wall -Wextra -Werror
// TRIES: 3
// TIMEOUT: 120
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in bump_stats / bump_stats$
// EXPECT: ^BUG: UCSAN: data-race in lookup / publish$
// EXPECT-FRAME: ^(write|read-write) to 0x[0-9a-f]+ of (8|16) bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ bump_stats\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*racy\.h:3[01]$
// EXPECT-FRAME: ^(read|read-write) to 0x[0-9a-f]+ of (8|16) bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ bump_stats\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*racy\.h:3[01]$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ publish\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*racy\.h:36$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ lookup\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*racy\.h:41$
// EXPECT: ^UCSAN: reported [0-9]+ data races$
// EXPECT: ^rel: 256 threads raced for
// NOT: ^BUG: UCSAN: .*private_work

#define THREADS 256
#include "racy.h"
