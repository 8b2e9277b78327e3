// The report says what raced: a heap block from calloc, its size, the offset in it, and who
// allocated it where (heap_stacks, on by default).
//
// OPTIONS: halt_on_error=1 skip_watch=0
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in reader / writer$
// EXPECT-FRAME: ^thread [0-9]+ "writer-1" \((running|finished)\) created by thread [0-9]+ at:$ => ^ (e2e_spawn|e2e_race2|main)[+ ]
// EXPECT-FRAME: ^thread [0-9]+ "reader-2" \((running|finished)\) created by thread [0-9]+ at:$ => ^ (e2e_spawn|e2e_race2|main)[+ ]
// EXPECT: ^location: heap block of size 64 at \+0x10, allocated by thread [0-9]+ at:$
// EXPECT-FRAME: ^location: heap block => ^ main\+0x[0-9a-f]+/0x[0-9a-f]+ .*location_race\.h:61$

#define LOC_HEAP 1
#include "location_race.h"
