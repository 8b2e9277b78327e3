// Fixed twin of heartbeat.c: the stamp is stored and loaded with relaxed
// atomics, which is all a liveness check needs.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

#define FIXED 1
#include "heartbeat.c"
