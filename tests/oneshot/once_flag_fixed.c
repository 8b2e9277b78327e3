// Fixed twin of once_flag.c: the generator is seeded through pthread_once().
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

#define FIXED 1
#include "once_flag.c"
