// Fixed twin of refcount_error.c: the error path drops its reference with
// conn_put() too, under the connection's mutex.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

#define FIXED 1
#include "refcount_error.c"
