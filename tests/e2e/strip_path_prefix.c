// strip_path_prefix removes the repository root from the file names in the
// frames (the harness compiles tests/e2e/*.c by absolute path).
//
// OPTIONS: skip_watch=0 halt_on_error=1 strip_path_prefix=@ROOT@/
// TRIES: 10
// EXIT: 66
// EXPECT-FRAME: ^read to 0x => ^ reader\+0x[0-9a-f]+/0x[0-9a-f]+ tests/e2e/plain_write_read\.c:33$
// EXPECT-FRAME: ^write to 0x => ^ writer\+0x[0-9a-f]+/0x[0-9a-f]+ tests/e2e/plain_write_read\.c:38$
// NOT: @ROOT@/

#include "plain_write_read.c"
