// kcsan_test: test_write_write_struct_part.  A 64-byte write to a struct
// races with an aligned 8-byte plain write to one of its members.  The small
// write is assumed atomic (the default) and never watches, but it still hits
// the big write's watchpoint: reported.  Thread 0 only calls the struct
// writer and thread 1 the member writer, so that the first report is always
// this pair (two struct writes race as well, see write_write_struct.c).
//
// OPTIONS: skip_watch=10 halt_on_error=1
// TRIES: 5
// TIMEOUT: 15
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in test_kernel_write_struct / test_kernel_write_struct_part$
// EXPECT: ^write to 0x[0-9a-f]+ of 64 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^write to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of 64 bytes => ^ test_kernel_write_struct\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*write_write_struct_part\.c:[0-9]+$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of 8 bytes => ^ test_kernel_write_struct_part\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*write_write_struct_part\.c:[0-9]+$
// NOT: ^(read|read-write)( \([a-z, ]+\))? to
// NOT: \(marked|scoped|race at unknown origin

#include "kcsan_test.h"

KCSAN_KERNEL_WRITE_STRUCT()
KCSAN_KERNEL(test_kernel_write_struct_part, test_struct.val[3] = 42)

int main(void)
{
	KCSAN_RUN(.kernel = { test_kernel_write_struct, test_kernel_write_struct_part },
		  .mode = KCSAN_FIXED, .ms = 3000);
	return 0;
}
