// Fixed twin of dcl_flag.c: the double-checked flag is an atomic, loaded with
// acquire on the fast path and stored with release under the lock.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

#define FIXED 1
#include "dcl_flag.c"
