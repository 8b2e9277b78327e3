// Fixed twin of idle_timeout.c: the timestamp is stored and loaded with
// relaxed atomics; the reaper needs no ordering, only an untorn value.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

#define FIXED 1
#include "idle_timeout.c"
