// Fixed twin of queued_stamp.c: the request is stamped before it is queued,
// so the unlock in queue_push() publishes the stamp with it.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

#define FIXED 1
#include "queued_stamp.c"
