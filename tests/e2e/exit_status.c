// A racy program that does not halt: the run goes on, and at exit the runtime
// prints the summary line and turns the exit status into exitcode (66).
//
// OPTIONS: skip_watch=0:halt_on_error=0
// TRIES: 5
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in reader / writer$
// EXPECT: ^UCSAN: reported [0-9]+ data races?$

#define RUN_MS 1000
#include "plain_write_read.c"
