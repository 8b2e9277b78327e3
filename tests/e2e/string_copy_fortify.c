// string_copy.c built with _FORTIFY_SOURCE, where the copy into the global
// buffer becomes a call to __strcpy_chk(): the same race, the same report
// (the write's stack starts with the header's inline strcpy(), as under
// ThreadSanitizer, then rename_to's line).
//
// CFLAGS: -O2 -g -D_FORTIFY_SOURCE=2
// OPTIONS: skip_watch=0 halt_on_error=1
// TRIES: 10
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in peek_len / rename_to$
// EXPECT: ^write to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^ rename_to\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*string_copy\.c:27$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ peek_len\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*string_copy\.c:[0-9]+$
// NOT: ^ [^ ]*(strcpy|strlen)[^ ]*\+0x

#include "string_copy.c"
