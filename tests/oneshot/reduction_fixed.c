// Fixed twin of reduction.c: each worker adds its local count to the total
// under a mutex.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

#define FIXED 1
#include "reduction.c"
