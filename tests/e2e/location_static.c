// The report says what raced: a static variable inside a function (gcc: in_function.N, clang: in_function_slot.in_function).
//
// OPTIONS: halt_on_error=1 skip_watch=0
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in reader / writer$
// EXPECT-FRAME: ^thread [0-9]+ "writer-1" \((running|finished)\) created by thread [0-9]+ at:$ => ^ (e2e_spawn|e2e_race2|main)[+ ]
// EXPECT-FRAME: ^thread [0-9]+ "reader-2" \((running|finished)\) created by thread [0-9]+ at:$ => ^ (e2e_spawn|e2e_race2|main)[+ ]
// EXPECT: ^location: global '(in_function_slot\.)?in_function(\.[0-9]+)?' of size 8 at \+0x0 in location_static \((.*/)?location_race\.h:21\)$

#define LOC_STATIC 1
#include "location_race.h"
