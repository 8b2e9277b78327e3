// Every __atomic builtin on 1, 2, 4, 8 and 16-byte integers computes the right
// result, single-threaded and with two threads hammering the same variables.
// 16-byte atomics: gcc always emits __tsan_atomic128_*; clang needs -mcx16
// for that (otherwise it calls libatomic); -latomic covers any library call.
// Marked accesses only: nothing may be reported.
//
// CFLAGS: -O2 -g -mcx16
// LIBS: -latomic
// OPTIONS: skip_watch=0
// NOT: UCSAN

#include <stdint.h>
#include "e2e.h"

typedef unsigned __int128 u128;

#define ITERS 100000

/* A pattern with every byte different, truncated to the type. */
#define PATTERN(T)                                                             \
	((T)((u128)0x0123456789abcdefULL << 64 | (u128)0xfedcba9876543210ULL))
#define TOPBIT(T) ((T)((T)1 << (8 * sizeof(T) - 1)))

/*
 * Single-threaded checks of every builtin on variable X of type T.  The
 * variable is a global so the accesses are to ordinary shared memory.
 */
#define SINGLE(T, X)                                                           \
	do {                                                                   \
		T e, d, r, v;                                                  \
		__atomic_store_n(&X, PATTERN(T), __ATOMIC_SEQ_CST);            \
		E2E_CHECK(__atomic_load_n(&X, __ATOMIC_SEQ_CST) == PATTERN(T));\
		E2E_CHECK(__atomic_load_n(&X, __ATOMIC_ACQUIRE) == PATTERN(T));\
		__atomic_store_n(&X, 5, __ATOMIC_RELEASE);                     \
		E2E_CHECK(__atomic_load_n(&X, __ATOMIC_RELAXED) == 5);         \
		E2E_CHECK(__atomic_exchange_n(&X, TOPBIT(T), __ATOMIC_ACQ_REL) \
			  == 5);                                               \
		E2E_CHECK(__atomic_load_n(&X, __ATOMIC_SEQ_CST) == TOPBIT(T)); \
		/* strong CAS: success, then failure updating expected */      \
		e = TOPBIT(T);                                                 \
		E2E_CHECK(__atomic_compare_exchange_n(&X, &e, 9, 0,            \
			  __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));                \
		E2E_CHECK(__atomic_load_n(&X, __ATOMIC_SEQ_CST) == 9);         \
		e = 1;                                                         \
		E2E_CHECK(!__atomic_compare_exchange_n(&X, &e, 11, 0,          \
			  __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));                \
		E2E_CHECK(e == 9);                                             \
		E2E_CHECK(__atomic_load_n(&X, __ATOMIC_SEQ_CST) == 9);         \
		/* weak CAS: may fail spuriously, so loop */                   \
		e = 9;                                                         \
		while (!__atomic_compare_exchange_n(&X, &e, 12, 1,             \
			__ATOMIC_RELEASE, __ATOMIC_RELAXED))                   \
			E2E_CHECK(e == 9);                                     \
		E2E_CHECK(__atomic_load_n(&X, __ATOMIC_SEQ_CST) == 12);        \
		e = 3;                                                         \
		E2E_CHECK(!__atomic_compare_exchange_n(&X, &e, 1, 1,           \
			  __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));                \
		E2E_CHECK(e == 12);                                            \
		/* fetch_OP returns the old value */                           \
		E2E_CHECK(__atomic_fetch_add(&X, 3, __ATOMIC_SEQ_CST) == 12);  \
		E2E_CHECK(__atomic_fetch_sub(&X, 5, __ATOMIC_ACQUIRE) == 15);  \
		E2E_CHECK(__atomic_fetch_and(&X, 6, __ATOMIC_RELEASE) == 10);  \
		E2E_CHECK(__atomic_fetch_or(&X, 5, __ATOMIC_ACQ_REL) == 2);    \
		E2E_CHECK(__atomic_fetch_xor(&X, 3, __ATOMIC_RELAXED) == 7);   \
		E2E_CHECK(__atomic_fetch_nand(&X, 6, __ATOMIC_SEQ_CST) == 4);  \
		E2E_CHECK(__atomic_load_n(&X, __ATOMIC_SEQ_CST) == (T)~(T)4);  \
		/* OP_fetch returns the new value */                           \
		__atomic_store_n(&X, 12, __ATOMIC_SEQ_CST);                    \
		E2E_CHECK(__atomic_add_fetch(&X, 3, __ATOMIC_SEQ_CST) == 15);  \
		E2E_CHECK(__atomic_sub_fetch(&X, 5, __ATOMIC_ACQUIRE) == 10);  \
		E2E_CHECK(__atomic_and_fetch(&X, 6, __ATOMIC_RELEASE) == 2);   \
		E2E_CHECK(__atomic_or_fetch(&X, 5, __ATOMIC_ACQ_REL) == 7);    \
		E2E_CHECK(__atomic_xor_fetch(&X, 3, __ATOMIC_RELAXED) == 4);   \
		E2E_CHECK(__atomic_nand_fetch(&X, 6, __ATOMIC_SEQ_CST) ==      \
			  (T)~(T)4);                                           \
		/* wrap-around at full width */                                \
		__atomic_store_n(&X, TOPBIT(T), __ATOMIC_SEQ_CST);             \
		E2E_CHECK(__atomic_add_fetch(&X, TOPBIT(T), __ATOMIC_SEQ_CST)  \
			  == 0);                                               \
		E2E_CHECK(__atomic_sub_fetch(&X, 1, __ATOMIC_SEQ_CST) ==       \
			  (T)~(T)0);                                           \
		/* generic (pointer) forms */                                  \
		v = PATTERN(T);                                                \
		__atomic_store(&X, &v, __ATOMIC_SEQ_CST);                      \
		r = 0;                                                         \
		__atomic_load(&X, &r, __ATOMIC_ACQUIRE);                       \
		E2E_CHECK(r == PATTERN(T));                                    \
		v = 77;                                                        \
		__atomic_exchange(&X, &v, &r, __ATOMIC_SEQ_CST);               \
		E2E_CHECK(r == PATTERN(T));                                    \
		e = 77;                                                        \
		d = 78;                                                        \
		E2E_CHECK(__atomic_compare_exchange(&X, &e, &d, 0,             \
			  __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));                \
		e = 1;                                                         \
		E2E_CHECK(!__atomic_compare_exchange(&X, &e, &d, 0,            \
			  __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));                \
		E2E_CHECK(e == 78);                                            \
	} while (0)

uint8_t g8;
uint16_t g16;
uint32_t g32;
uint64_t g64;
u128 g128 __attribute__((aligned(16)));

/* Shared by the two threads. */
uint8_t add8, cas8, xor8;
uint16_t add16, cas16, xor16;
uint32_t add32, cas32, xor32;
uint64_t add64, cas64, xor64, bits64;
u128 add128 __attribute__((aligned(16)));
u128 cas128 __attribute__((aligned(16)));
u128 xor128 __attribute__((aligned(16)));
unsigned char flag;
uint64_t under_flag;   /* only touched with atomics while holding the flag */

#define CAS_INC(T, X)                                                          \
	do {                                                                   \
		T old = __atomic_load_n(&X, __ATOMIC_RELAXED);                 \
		while (!__atomic_compare_exchange_n(&X, &old, (T)(old + 1), 1, \
			__ATOMIC_ACQ_REL, __ATOMIC_RELAXED))                   \
			;                                                      \
	} while (0)

static void *hammer(void *arg)
{
	uint64_t bit = (uint64_t)1 << (uintptr_t)arg;
	int i;

	for (i = 0; i < ITERS; i++) {
		__atomic_fetch_add(&add8, 1, __ATOMIC_RELAXED);
		__atomic_add_fetch(&add16, 1, __ATOMIC_SEQ_CST);
		__atomic_fetch_add(&add32, 2, __ATOMIC_ACQ_REL);
		__atomic_fetch_sub(&add32, 1, __ATOMIC_ACQ_REL);
		__atomic_fetch_add(&add64, 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&add128, 1, __ATOMIC_SEQ_CST);
		CAS_INC(uint8_t, cas8);
		CAS_INC(uint16_t, cas16);
		CAS_INC(uint32_t, cas32);
		CAS_INC(uint64_t, cas64);
		CAS_INC(u128, cas128);
		__atomic_fetch_xor(&xor8, 0x5a, __ATOMIC_RELAXED);
		__atomic_xor_fetch(&xor16, 0x5a5a, __ATOMIC_RELAXED);
		__atomic_fetch_xor(&xor32, 0x5a5a5a5a, __ATOMIC_RELAXED);
		__atomic_fetch_xor(&xor64, PATTERN(uint64_t), __ATOMIC_RELAXED);
		__atomic_fetch_xor(&xor128, PATTERN(u128), __ATOMIC_RELAXED);
		/* each thread owns one bit: set it, check it, clear it */
		E2E_CHECK(!(__atomic_fetch_or(&bits64, bit, __ATOMIC_ACQ_REL) &
			    bit));
		E2E_CHECK(!(__atomic_and_fetch(&bits64, ~bit, __ATOMIC_ACQ_REL) &
			    bit));
		E2E_CHECK(!(__atomic_load_n(&bits64, __ATOMIC_ACQUIRE) & bit));
		/* a test_and_set lock around a non-atomic read-modify-write */
		while (__atomic_test_and_set(&flag, __ATOMIC_ACQUIRE))
			;
		__atomic_store_n(&under_flag,
				 __atomic_load_n(&under_flag, __ATOMIC_RELAXED) + 1,
				 __ATOMIC_RELAXED);
		__atomic_clear(&flag, __ATOMIC_RELEASE);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
	}
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	e2e_require_runtime();
	SINGLE(uint8_t, g8);
	SINGLE(uint16_t, g16);
	SINGLE(uint32_t, g32);
	SINGLE(uint64_t, g64);
	SINGLE(u128, g128);
	E2E_CHECK(__atomic_always_lock_free(sizeof(uint64_t), 0));
	E2E_CHECK(__atomic_is_lock_free(sizeof(uint32_t), &g32));
	E2E_CHECK(!__atomic_test_and_set(&flag, __ATOMIC_SEQ_CST));
	E2E_CHECK(__atomic_test_and_set(&flag, __ATOMIC_SEQ_CST));
	__atomic_clear(&flag, __ATOMIC_SEQ_CST);
	E2E_CHECK(!__atomic_test_and_set(&flag, __ATOMIC_SEQ_CST));
	__atomic_clear(&flag, __ATOMIC_SEQ_CST);

	a = e2e_spawn(hammer, (void *)0);
	b = e2e_spawn(hammer, (void *)1);
	e2e_join(a);
	e2e_join(b);

	E2E_CHECK(add8 == (uint8_t)(2 * ITERS));
	E2E_CHECK(add16 == (uint16_t)(2 * ITERS));
	E2E_CHECK(add32 == 2 * ITERS);
	E2E_CHECK(add64 == 2 * ITERS);
	E2E_CHECK(add128 == 2 * ITERS);
	E2E_CHECK(cas8 == (uint8_t)(2 * ITERS));
	E2E_CHECK(cas16 == (uint16_t)(2 * ITERS));
	E2E_CHECK(cas32 == 2 * ITERS);
	E2E_CHECK(cas64 == 2 * ITERS);
	E2E_CHECK(cas128 == 2 * ITERS);
	/* an even number of identical xors cancels out */
	E2E_CHECK(xor8 == 0 && xor16 == 0 && xor32 == 0 && xor64 == 0 &&
		  xor128 == 0);
	E2E_CHECK(bits64 == 0);
	E2E_CHECK(under_flag == 2 * ITERS);
	return 0;
}
