// Fixed twin of class_counter.cpp: the hit is counted inside the critical
// section, and the accessors read the counters under the mutex too.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

#define FIXED 1
#include "class_counter.cpp"
