// A misaligned 4-byte field of a packed struct (offset 6 from a 64-byte
// aligned base, so the access straddles an 8-byte boundary), read and written
// concurrently.  clang emits __tsan_unaligned_read4/write4, gcc
// __tsan_read_range/__tsan_write_range with size 4.
//
// OPTIONS: skip_watch=0 halt_on_error=1
// TRIES: 10
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in reader / writer$
// EXPECT-FRAME: ^read to 0x[0-9a-f]*[048c]6 of 4 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ reader\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*unaligned\.c:[0-9]+$
// EXPECT-FRAME: ^write to 0x[0-9a-f]*[048c]6 of 4 bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ writer\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*unaligned\.c:[0-9]+$
// EXPECT: ^value changed: 0x[0-9a-f]{8} -> 0x[0-9a-f]{8}$

#include <stdint.h>
#include "e2e.h"

struct __attribute__((packed)) packed {
	char pad[6];
	uint32_t x;
	char tail[6];
};

struct packed pk __attribute__((aligned(64)));

NOINLINE long reader(void)
{
	return pk.x;
}

NOINLINE void writer(uint32_t v)
{
	pk.x = v;
}

/* Every byte of the value changes from one write to the next. */
static void write_next(long i)
{
	writer((uint32_t)i * 0x01010101u);
}

int main(void)
{
	e2e_race_rw(reader, write_next, 4000);
	return 0;
}
