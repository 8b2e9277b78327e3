// kcsan_test: test_concurrent_races.  Four threads increment every element of
// an array spanning several watchpoint slots, all at once, for a while: many
// races on many addresses, all reported (no rate limiting).  clang emits one
// read-write per x++, gcc a read and a write, so a report has two read-write
// accesses (clang) or a read and a write (gcc), never two reads.  The loop
// must not be vectorized (16-byte accesses are another test).
//
// CFLAGS: -O2 -g -fno-tree-vectorize -fno-tree-slp-vectorize
// OPTIONS: skip_watch=50 report_once_in_ms=0 print_stats=1
// TRIES: 3
// TIMEOUT: 20
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in test_kernel_rmw_array / test_kernel_rmw_array$
// EXPECT: ^(read-write|read) to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT: ^(read-write|write) to 0x[0-9a-f]+ of 8 bytes by thread [0-9]+ on cpu [0-9]+:$
// EXPECT-FRAME: ^(read|write|read-write) to 0x => ^ test_kernel_rmw_array\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*concurrent_races\.c:[0-9]+$
// EXPECT: ^UCSAN: stats: data_races: [1-9][0-9]+$
// EXPECT: ^UCSAN: stats: reports_printed: [1-9][0-9]+$
// EXPECT: ^UCSAN: reported [1-9][0-9]+ data races$
// NOT: ^(read|write|read-write) \(|^assert|of (1|2|4|16) bytes

#include "kcsan_test.h"

NOINLINE void test_kernel_rmw_array(void)
{
	size_t i;

	for (i = 0; i < sizeof(test_array) / sizeof(test_array[0]); i++)
		test_array[i]++;
}

int main(void)
{
	KCSAN_RUN(.kernel = { test_kernel_rmw_array, test_kernel_rmw_array },
		  .nthreads = 4, .ms = 1500, .min_calls = 10);
	return 0;
}
