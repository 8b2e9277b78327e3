// The report says what raced: a variable on the main thread's stack, shared with two threads.
//
// OPTIONS: halt_on_error=1 skip_watch=0
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in reader / writer$
// EXPECT-FRAME: ^thread [0-9]+ "writer-1" \((running|finished)\) created by thread [0-9]+ at:$ => ^ (e2e_spawn|e2e_race2|main)[+ ]
// EXPECT-FRAME: ^thread [0-9]+ "reader-2" \((running|finished)\) created by thread [0-9]+ at:$ => ^ (e2e_spawn|e2e_race2|main)[+ ]
// EXPECT: ^location: stack of thread [0-9]+$

#define LOC_STACK 1
#include "location_race.h"
