// The 64-bit atomic entry points, __tsan_atomic64_{load, store, exchange,
// fetch_add, fetch_sub, fetch_and, fetch_or, fetch_xor, fetch_nand,
// compare_exchange_strong, compare_exchange_weak, compare_exchange_val},
// behave exactly like the __atomic builtins they stand in for: the same
// results, memory contents and written-back expected values, for every
// memory order (invalid ones and gcc's flag bits included), called directly
// and as the compilers call them; errno untouched; one whole access each
// (IP_ATOMICS in interpose.h).  A second thread is alive, so the runtime
// checks them as it would in any threaded program.
//
// CFLAGS: -O2 -g -std=gnu11 -Wall -Wextra -Werror
// EXPECT-STDOUT: ^atomic64: [0-9]+ checks, 0 failed$
// NOT: UCSAN

#include "interpose.h"

IP_ATOMICS(unsigned long, 64)

int main(void)
{
	e2e_require_runtime();
	e2e_keep_company();
	ip_atomics_64();
	return ip_finish("atomic64");
}
