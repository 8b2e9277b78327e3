// Fixed twin of done_flag.c: everything the collector reads, the elapsed time
// included, is stored before the release store of `done`.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

#define FIXED 1
#include "done_flag.c"
