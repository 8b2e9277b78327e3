// An out-of-range value (num_watchpoints must be 1..4096): one line naming
// the option, exit status 1, main never runs.
//
// OPTIONS: num_watchpoints=0
// EXIT: 1
// EXPECT: ^UCSAN: .*num_watchpoints
// NOT: BUG
// NOT: main ran

#include "bad_options_key.c"
