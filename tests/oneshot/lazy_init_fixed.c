// Fixed twin of lazy_init.c: the cached pointer is set through pthread_once(),
// which also orders the store before every caller's load.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

#define FIXED 1
#include "lazy_init.c"
