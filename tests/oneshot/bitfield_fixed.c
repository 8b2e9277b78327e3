// Fixed twin of bitfield.c: the two flags that different threads write are
// separate bool members, each its own memory location; the bit-fields left
// are only written before the threads start.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

#define FIXED 1
#include "bitfield.c"
