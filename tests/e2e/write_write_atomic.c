// write_write.c with the kernel's assume_plain_writes_atomic=1 (ucsan's
// default is 0): aligned plain writes of at most 8 bytes never set
// watchpoints, not even as cold sites, so two plain writers are never
// reported.  The millions of writes set no watchpoint (the few the
// stats may show come from reads outside the racing loops).
//
// OPTIONS: skip_watch=0 assume_plain_writes_atomic=1 print_stats=1
// EXPECT: ^UCSAN: stats: setup_watchpoints: [0-9]{1,2}$
// NOT: BUG|UCSAN: reported

#define RUN_MS 1000
#include "write_write.c"
