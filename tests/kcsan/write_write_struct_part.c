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

NOINLINE void test_kernel_write_struct(void)
{
	ucsan_check_write(&test_struct, sizeof(test_struct));
	/* The write itself, unchecked: it changes the value. */
	ucsan_disable_current();
	test_struct.val[3]++;
	ucsan_enable_current();
}

NOINLINE void test_kernel_write_struct_part(void)
{
	test_struct.val[3] = 42;
}

int main(void)
{
	struct kcsan_config cfg = {
		{ test_kernel_write_struct, test_kernel_write_struct_part },
		KCSAN_FIXED, 2, 3000, NULL, 0
	};

	kcsan_run(&cfg);
	return 0;
}
