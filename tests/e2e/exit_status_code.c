// As exit_status.c, with exitcode=3 (and ',' as the option separator).
//
// OPTIONS: skip_watch=0,exitcode=3
// TRIES: 5
// EXIT: 3
// EXPECT: ^BUG: UCSAN: data-race in reader / writer$
// EXPECT: ^UCSAN: reported [0-9]+ data races?$

#define RUN_MS 1000
#include "plain_write_read.c"
