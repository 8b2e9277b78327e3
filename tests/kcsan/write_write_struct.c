// kcsan_test: test_write_write_struct.  Writes larger than a word are never
// assumed atomic: two threads checking a 64-byte write to the same struct
// race, whatever assume_plain_writes_atomic says (default: 1).  The value of
// such a range is not compared, so no "value changed" line.
//
// OPTIONS: skip_watch=10 halt_on_error=1
// TRIES: 5
// TIMEOUT: 15
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in test_kernel_write_struct / test_kernel_write_struct$
// EXPECT: ^write to 0x[0-9a-f]+ of 64 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^write to 0x => ^ test_kernel_write_struct\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*write_write_struct\.c:[0-9]+$
// NOT: ^(read|read-write)( \([a-z, ]+\))? to
// NOT: \(marked|scoped|race at unknown origin|^value changed

#include "kcsan_test.h"

KCSAN_KERNEL_WRITE_STRUCT()

int main(void)
{
	kcsan_run2(test_kernel_write_struct, test_kernel_write_struct, 3000);
	return 0;
}
