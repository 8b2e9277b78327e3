// Fixed twin of pool_stats.c: a worker counts the job it finished under the
// queue lock.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

#define FIXED 1
#include "pool_stats.c"
