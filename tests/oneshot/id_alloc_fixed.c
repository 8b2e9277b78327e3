// Fixed twin of id_alloc.c: ids come from an atomic fetch-and-add, so the
// allocator needs no lock.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

#define FIXED 1
#include "id_alloc.c"
