// Fixed twin of last_error.c: the message pointer is stored and loaded with
// atomic operations (release/acquire), as the constant strings need.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

#define FIXED 1
#include "last_error.c"
