// Fixed twin of ring_head.c: the consumer tests for emptiness with the ring's
// lock held, dropping it only to wait.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

#define FIXED 1
#include "ring_head.c"
