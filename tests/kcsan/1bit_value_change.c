// kcsan_test: test_1bit_value_change, default setting (permissive=0).  A
// plain read races with a single-bit flip done inside an atomic region (so
// the flip itself never watches): a value change of one bit is a race like
// any other and is reported.  The flip is not marked in the report (being in
// an atomic region only keeps it from watching).  clang emits a read-write
// for ^=, gcc a read and a write.
//
// OPTIONS: skip_watch=10 halt_on_error=1
// TRIES: 5
// TIMEOUT: 15
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in test_kernel_read / test_kernel_xor_1bit$
// EXPECT: ^read to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^(read-write|write) to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^read to 0x => ^ test_kernel_read\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*1bit_value_change\.c:[0-9]+$
// EXPECT-FRAME: ^(read-write|write) to 0x => ^ test_kernel_xor_1bit\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*1bit_value_change\.c:[0-9]+$
// EXPECT: ^value changed: 0x0000000000(000000 -> 0x0000000000010000|010000 -> 0x0000000000000000)$
// NOT: \(marked|scoped

#include "kcsan_test.h"

/* 1bit_value_change_permissive.c includes this file with a shorter RUN_MS. */
#ifndef RUN_MS
#define RUN_MS 3000
#endif

KCSAN_KERNEL(test_kernel_read, sink_value(test_var))

NOINLINE void test_kernel_xor_1bit(void)
{
	ucsan_nestable_atomic_begin();
	test_var ^= 0x10000;
	ucsan_nestable_atomic_end();
}

int main(void)
{
	kcsan_run2(test_kernel_read, test_kernel_xor_1bit, RUN_MS);
	return 0;
}
