// enabled=0: the racy plain_write_read.c program reports nothing.
//
// OPTIONS: enabled=0 skip_watch=0
// NOT: UCSAN

#define RUN_MS 1000
#include "plain_write_read.c"
