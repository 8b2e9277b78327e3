// A malformed option value: one line naming the option and the value, exit
// status 1, main never runs.
//
// OPTIONS: skip_watch=abc
// EXIT: 1
// EXPECT: ^UCSAN: .*(skip_watch.*abc|abc.*skip_watch)
// NOT: BUG
// NOT: main ran

#include "bad_options_key.c"
