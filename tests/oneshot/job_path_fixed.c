// Fixed twin of job_path.c: every compressor gets its own job struct, which
// the spawning loop formats once and never touches again.
//
// EXIT: 0
// NOT: UCSAN
// REPEAT: 5

#define FIXED 1
#include "job_path.c"
