// Fixed twin of progress.c: the progress display loads the counter with
// __atomic_load_n(), like the workers that update it.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

#define FIXED 1
#include "progress.c"
