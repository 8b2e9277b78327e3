// Fixed twin of init_after_start.c: the server is fully initialized before
// the acceptor thread is created.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

#define FIXED 1
#include "init_after_start.c"
