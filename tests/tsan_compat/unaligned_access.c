// sanitizer_common's unaligned accessors: the values round-trip at odd
// addresses, and two threads storing through them to one place race.
//
// OPTIONS: skip_watch=0
// TRIES: 3
// EXIT: 66
// EXPECT-STDOUT: ^round trip: 0x5566 0x11223344 0x0102030405060708$
// EXPECT: ^BUG: UCSAN: data-race in store_unaligned / store_unaligned$
// EXPECT: ^write to 0x[0-9a-f]+ of 4 bytes by thread [0-9]+ on cpu [0-9]+:$
// TSAN-EXIT: 66

#include <sanitizer/common_interface_defs.h>
#include <stdint.h>

#include "tsan_compat.h"

static unsigned char buf[64];

NOINLINE static void store_unaligned(long v)
{
	__sanitizer_unaligned_store32(buf + 33, (uint32_t)v);
}

int main(void)
{
	e2e_require_runtime();
	__sanitizer_unaligned_store16(buf + 1, 0x5566);
	__sanitizer_unaligned_store32(buf + 5, 0x11223344);
	__sanitizer_unaligned_store64(buf + 11, 0x0102030405060708ULL);
	printf("round trip: 0x%x 0x%x 0x%016llx\n", __sanitizer_unaligned_load16(buf + 1),
	       __sanitizer_unaligned_load32(buf + 5), (unsigned long long)__sanitizer_unaligned_load64(buf + 11));
	fflush(stdout);
	compat_race(store_unaligned, store_unaligned, 1500);
	return 0;
}
