// SPDX-License-Identifier: Apache-2.0
/*
 * The instrumentation floor: a libucsan.so look-alike whose __tsan_* entry
 * points do nothing but what the program itself asked for. Plain-access
 * hooks return at once; atomic hooks perform the operation with the memory
 * order they were given; fences are fences. A program built by ucsan-cc and
 * run against this library (LD_LIBRARY_PATH=bench/build/floor/lib: the
 * wrapper links with DT_RUNPATH, which LD_LIBRARY_PATH overrides) pays
 * exactly the cost of the compiler's instrumentation -- the calls, the
 * spilled registers, the lost optimizations -- and nothing of ucsan's.
 *
 * memcpy/memset/memmove are not defined here: the floor uses libc's.
 * __tsan_memcpy and friends (emitted by newer clang instead of calls to
 * memcpy) forward to libc so that any instrumented program loads.
 */
#include <stddef.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default"), used))

/* ---- plain accesses: nothing to do ------------------------------------ */

#define NOP1(name) EXPORT void name(void *p) { (void)p; }
#define NOP2(name) EXPORT void name(void *p, void *q) { (void)p; (void)q; }

#define PLAIN_HOOKS(n)                                                         \
	NOP1(__tsan_read##n)                                                   \
	NOP1(__tsan_write##n)                                                  \
	NOP1(__tsan_unaligned_read##n)                                         \
	NOP1(__tsan_unaligned_write##n)                                        \
	NOP1(__tsan_read_write##n)                                             \
	NOP1(__tsan_unaligned_read_write##n)                                   \
	NOP1(__tsan_volatile_read##n)                                          \
	NOP1(__tsan_volatile_write##n)                                         \
	NOP1(__tsan_unaligned_volatile_read##n)                                \
	NOP1(__tsan_unaligned_volatile_write##n)                               \
	NOP2(__tsan_read##n##_pc)                                              \
	NOP2(__tsan_write##n##_pc)

PLAIN_HOOKS(1)
PLAIN_HOOKS(2)
PLAIN_HOOKS(4)
PLAIN_HOOKS(8)
PLAIN_HOOKS(16)

EXPORT void __tsan_read_range(void *p, unsigned long n) { (void)p; (void)n; }
EXPORT void __tsan_write_range(void *p, unsigned long n) { (void)p; (void)n; }
EXPORT void __tsan_read_range_pc(void *p, unsigned long n, void *pc) { (void)p; (void)n; (void)pc; }
EXPORT void __tsan_write_range_pc(void *p, unsigned long n, void *pc) { (void)p; (void)n; (void)pc; }

/* The store itself is the program's; the hook only observes it. */
NOP2(__tsan_vptr_update)
NOP1(__tsan_vptr_read)

NOP1(__tsan_func_entry)
EXPORT void __tsan_func_exit(void) {}
EXPORT void __tsan_init(void) {}

EXPORT void *__tsan_memcpy(void *d, const void *s, size_t n) { return memcpy(d, s, n); }
EXPORT void *__tsan_memmove(void *d, const void *s, size_t n) { return memmove(d, s, n); }
EXPORT void *__tsan_memset(void *d, int c, size_t n) { return memset(d, c, n); }

/* ---- atomics ----------------------------------------------------------- */

/*
 * These bodies mirror DO_LOAD, DO_STORE, DO_RMW and DO_CAS in
 * src/tsan_atomics.c on purpose: the floor performs every atomic with the
 * order it was given, as libucsan.so does, minus the watchpoint check, so
 * that the difference measured is ucsan's alone.  Not shared with it: the
 * floor builds on its own, without the runtime's headers.
 */

/*
 * The compiler passes a C11 memory order (0 relaxed .. 5 seq_cst), maybe
 * with flag bits above the low byte. Every builtin below gets a constant
 * order valid for its operation: an order that is not (a release load,
 * say) is undefined in C and is performed as the next stronger valid one.
 */
enum { RLX, CON, ACQ, REL, ACR, SEQ };

static inline int order(int mo)
{
	mo &= 0xff;
	return mo <= SEQ ? mo : SEQ;
}

#define LOAD_BODY(a)                                                           \
	switch (order(mo)) {                                                   \
	case RLX: return __atomic_load_n(a, __ATOMIC_RELAXED);                 \
	case CON: return __atomic_load_n(a, __ATOMIC_CONSUME);                 \
	case ACQ: return __atomic_load_n(a, __ATOMIC_ACQUIRE);                 \
	default:  return __atomic_load_n(a, __ATOMIC_SEQ_CST);                 \
	}

#define STORE_BODY(a, v)                                                       \
	switch (order(mo)) {                                                   \
	case RLX: __atomic_store_n(a, v, __ATOMIC_RELAXED); return;            \
	case REL: __atomic_store_n(a, v, __ATOMIC_RELEASE); return;            \
	default:  __atomic_store_n(a, v, __ATOMIC_SEQ_CST); return;            \
	}

#define RMW_BODY(op, a, v)                                                     \
	switch (order(mo)) {                                                   \
	case RLX: return op(a, v, __ATOMIC_RELAXED);                           \
	case CON: return op(a, v, __ATOMIC_CONSUME);                           \
	case ACQ: return op(a, v, __ATOMIC_ACQUIRE);                           \
	case REL: return op(a, v, __ATOMIC_RELEASE);                           \
	case ACR: return op(a, v, __ATOMIC_ACQ_REL);                           \
	default:  return op(a, v, __ATOMIC_SEQ_CST);                           \
	}

/*
 * Compare-exchange: the failure order can be neither a release nor
 * stronger than the success order. It is clamped to what the success order
 * allows: relaxed for relaxed/release, at most acquire for consume,
 * acquire and acq_rel, anything for seq_cst.
 */
#define CX(a, e, v, weak, s, f) __atomic_compare_exchange_n(a, e, v, weak, s, f)
#define CAS_BODY(a, e, v, weak)                                                               \
	{                                                                                      \
		const int f = order(fmo);                                                      \
		const int f_rlx = f == RLX || f == REL;                                        \
		switch (order(mo)) {                                                           \
		case RLX: return CX(a, e, v, weak, __ATOMIC_RELAXED, __ATOMIC_RELAXED);        \
		case REL: return CX(a, e, v, weak, __ATOMIC_RELEASE, __ATOMIC_RELAXED);        \
		case CON:                                                                      \
			if (f_rlx)                                                             \
				return CX(a, e, v, weak, __ATOMIC_CONSUME, __ATOMIC_RELAXED);  \
			return CX(a, e, v, weak, __ATOMIC_CONSUME, __ATOMIC_CONSUME);          \
		case ACQ:                                                                      \
			if (f_rlx)                                                             \
				return CX(a, e, v, weak, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);  \
			return CX(a, e, v, weak, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE);          \
		case ACR:                                                                      \
			if (f_rlx)                                                             \
				return CX(a, e, v, weak, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);  \
			return CX(a, e, v, weak, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);          \
		default:                                                                       \
			if (f_rlx)                                                             \
				return CX(a, e, v, weak, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);  \
			if (f == SEQ)                                                          \
				return CX(a, e, v, weak, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);  \
			return CX(a, e, v, weak, __ATOMIC_SEQ_CST, __ATOMIC_ACQUIRE);          \
		}                                                                              \
	}

#define ATOMIC_RMW(T, n, name, op)                                                     \
	EXPORT T __tsan_atomic##n##_##name(volatile T *a, T v, int mo)                 \
	{                                                                              \
		RMW_BODY(op, a, v)                                                     \
	}

#define ATOMIC_HOOKS(T, n)                                                                  \
	EXPORT T __tsan_atomic##n##_load(const volatile T *a, int mo)                       \
	{                                                                                   \
		LOAD_BODY(a)                                                                \
	}                                                                                   \
	EXPORT void __tsan_atomic##n##_store(volatile T *a, T v, int mo)                    \
	{                                                                                   \
		STORE_BODY(a, v)                                                            \
	}                                                                                   \
	ATOMIC_RMW(T, n, exchange, __atomic_exchange_n)                                     \
	ATOMIC_RMW(T, n, fetch_add, __atomic_fetch_add)                                     \
	ATOMIC_RMW(T, n, fetch_sub, __atomic_fetch_sub)                                     \
	ATOMIC_RMW(T, n, fetch_and, __atomic_fetch_and)                                     \
	ATOMIC_RMW(T, n, fetch_or, __atomic_fetch_or)                                       \
	ATOMIC_RMW(T, n, fetch_xor, __atomic_fetch_xor)                                     \
	ATOMIC_RMW(T, n, fetch_nand, __atomic_fetch_nand)                                   \
	EXPORT int __tsan_atomic##n##_compare_exchange_strong(volatile T *a, T *e, T v,     \
							      int mo, int fmo)              \
	CAS_BODY(a, e, v, 0)                                                                \
	EXPORT int __tsan_atomic##n##_compare_exchange_weak(volatile T *a, T *e, T v,       \
							    int mo, int fmo)                \
	CAS_BODY(a, e, v, 1)                                                                \
	static inline int cas_##n(volatile T *a, T *e, T v, int mo, int fmo)                \
	CAS_BODY(a, e, v, 0)                                                                \
	/* Takes the expected value, returns the value found. */                           \
	EXPORT T __tsan_atomic##n##_compare_exchange_val(volatile T *a, T e, T v, int mo,   \
							 int fmo)                           \
	{                                                                                   \
		cas_##n(a, &e, v, mo, fmo);                                                 \
		return e;                                                                   \
	}

ATOMIC_HOOKS(char, 8)
ATOMIC_HOOKS(short, 16)
ATOMIC_HOOKS(int, 32)
ATOMIC_HOOKS(long, 64)
#ifdef __SIZEOF_INT128__
ATOMIC_HOOKS(__int128, 128)
#endif

EXPORT void __tsan_atomic_thread_fence(int mo)
{
	switch (order(mo)) {
	case RLX: return;
	case CON:
	case ACQ: __atomic_thread_fence(__ATOMIC_ACQUIRE); return;
	case REL: __atomic_thread_fence(__ATOMIC_RELEASE); return;
	case ACR: __atomic_thread_fence(__ATOMIC_ACQ_REL); return;
	default:  __atomic_thread_fence(__ATOMIC_SEQ_CST); return;
	}
}

EXPORT void __tsan_atomic_signal_fence(int mo)
{
	if (order(mo) != RLX)
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
}
