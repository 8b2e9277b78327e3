// Fixed twin of struct_copy.c: the reporter copies the statistics under the
// lock that protects them, and formats the copy after unlocking.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

#define FIXED 1
#include "struct_copy.c"
