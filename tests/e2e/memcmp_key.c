// A memcmp() of a global session key racing with the thread that rotates
// the key in place. memcmp() runs inside libc, uninstrumented: ucsan's
// interposer checks the bytes it compared as a read at the caller's line
// (clang calls bcmp() for a memcmp() tested against 0: the same check).
//
// TRIES: 10
// EXIT: 66
// OPTIONS: halt_on_error=1
// EXPECT: ^BUG: UCSAN: data-race in (key_matches / rotate_key|rotate_key / key_matches)$
// EXPECT-FRAME: ^read to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ key_matches\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*memcmp_key\.c:[0-9]+$
// EXPECT-FRAME: ^write to 0x[0-9a-f]+ of [0-9]+ bytes by thread [0-9]+ on cpu [0-9]+:$ => ^ rotate_key\+0x[0-9a-f]+/0x[0-9a-f]+ [^ ]*memcmp_key\.c:[0-9]+$
// EXPECT: ^location: global 'g_key' of size 16
// NOT: ^ (memcmp|bcmp)\+0x

#include <string.h>

#include "e2e.h"

unsigned char g_key[16] = "session-key-0001";
static unsigned char presented[16] = "session-key-0001";

NOINLINE long key_matches(void)
{
	return memcmp(g_key, presented, sizeof(g_key)) == 0;
}

NOINLINE void rotate_key(long i)
{
	g_key[0] = (unsigned char)('s' + (i & 1));
}

int main(void)
{
	e2e_race_rw(key_matches, rotate_key, 4000);
	return 0;
}
