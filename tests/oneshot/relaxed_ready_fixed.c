// Fixed twin of relaxed_ready.c: the flag is stored with release order and
// loaded with acquire order, so the index's size is published with it.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

#define FIXED 1
#include "relaxed_ready.c"
