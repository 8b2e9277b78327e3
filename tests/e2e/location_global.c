// The report says what raced: a global of the program, with its name, size and module.
//
// OPTIONS: halt_on_error=1 skip_watch=0
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in reader / writer$
// EXPECT-FRAME: ^thread [0-9]+ "writer-1" \((running|finished)\) created by thread [0-9]+ at:$ => ^ (e2e_spawn|e2e_race2|main)[+ ]
// EXPECT-FRAME: ^thread [0-9]+ "reader-2" \((running|finished)\) created by thread [0-9]+ at:$ => ^ (e2e_spawn|e2e_race2|main)[+ ]
// EXPECT: ^location: global 'shared_global' of size 8 at \+0x0 in location_global \((.*/)?location_race\.h:17\)$

#define LOC_GLOBAL 1
#include "location_race.h"
