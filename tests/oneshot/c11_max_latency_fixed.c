// Fixed twin of c11_max_latency.c: the high-water mark is kept under the
// server's mtx_t.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

#define FIXED 1
#include "c11_max_latency.c"
