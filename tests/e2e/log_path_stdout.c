// log_path=stdout: the report goes to stdout, nothing reaches stderr, and the
// race still sets the exit status.
//
// OPTIONS: skip_watch=0 halt_on_error=1 log_path=stdout
// TRIES: 10
// EXIT: 66
// NOT: BUG|data-race|UCSAN
// EXPECT-STDOUT: ^BUG: UCSAN: data-race in reader / writer$
// EXPECT-STDOUT: ^ reader\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*plain_write_read\.c:33$

#include "plain_write_read.c"
