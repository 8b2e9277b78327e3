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

#include <stdint.h>

#include "tsan_compat.h"

uint16_t __sanitizer_unaligned_load16(const void *p);
uint32_t __sanitizer_unaligned_load32(const void *p);
uint64_t __sanitizer_unaligned_load64(const void *p);
void __sanitizer_unaligned_store16(void *p, uint16_t x);
void __sanitizer_unaligned_store32(void *p, uint32_t x);
void __sanitizer_unaligned_store64(void *p, uint64_t x);

static unsigned char buf[64];

NOINLINE static void store_unaligned(uint32_t v)
{
	__sanitizer_unaligned_store32(buf + 33, v);
}

static void *worker(void *arg)
{
	unsigned long n = 0;
	uint32_t v = 0;
	(void)arg;
	while (compat_continue(&n))
		store_unaligned(v++);
	return NULL;
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
	e2e_race2(worker, worker, 1500);
	return 0;
}
