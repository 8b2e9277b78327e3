// Fixed twin of reused_arg.c: every worker gets its own argument struct, which
// the creator never touches again.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

#define FIXED 1
#include "reused_arg.c"
