// halt_on_error=1 with exitcode=7: the process ends with status 7 right after
// the first report (the race loop would otherwise run for 20 s).
//
// OPTIONS: halt_on_error=1:skip_watch=0:exitcode=7
// TRIES: 5
// EXIT: 7
// EXPECT: ^BUG: UCSAN: data-race in reader / writer$
// TIMEOUT: 15

#define RUN_MS 20000
#include "plain_write_read.c"
