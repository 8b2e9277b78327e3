// Fixed twin of stop_flag.c: the stop flag is a C11 atomic, stored with
// release and loaded with acquire, so the flusher's polling is race-free.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

#define FIXED 1
#include "stop_flag.c"
