// The report says what raced: a global of an instrumented shared library, named with its module
// (gcc builds the program with a copy relocation: the variable then lives in the program).
//
// OPTIONS: halt_on_error=1 skip_watch=0
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in reader / writer$
// EXPECT-FRAME: ^thread [0-9]+ "writer-1" \((running|finished)\) created by thread [0-9]+ at:$ => ^ (e2e_spawn|e2e_race2|main)[+ ]
// EXPECT-FRAME: ^thread [0-9]+ "reader-2" \((running|finished)\) created by thread [0-9]+ at:$ => ^ (e2e_spawn|e2e_race2|main)[+ ]
// EXPECT: ^location: global 'lib_global' of size 8 at \+0x0 in (liblocation\.so|location_shared) \((.*/)?liblocation\.c:3\)$
// SHARED: support/liblocation.c

#define LOC_SHARED 1
#include "location_race.h"
