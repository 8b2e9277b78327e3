// SPDX-License-Identifier: Apache-2.0
/*
 * The __tsan_atomic* entry points: each is a marked access (it may hit a
 * watchpoint, never sets one) followed by the operation itself, performed
 * with exactly the memory order the compiler passed. Built into
 * libucsan.so and into ucsan-entry.o for programs (see entry/entry.c).
 */
#include "check.h"
#include "internal.h"

enum { mo_relaxed, mo_consume, mo_acquire, mo_release, mo_acq_rel, mo_seq_cst };

/* Compilers pass the C11 order, possibly with flag bits above it (gcc's
 * HLE and __sync markers). */
static ALWAYS_INLINE int mo_of(int mo)
{
	mo &= 0xff;
	return (mo < mo_relaxed || mo > mo_seq_cst) ? mo_seq_cst : mo;
}

#define LOAD_T (UCSAN_ACCESS_ATOMIC)
#define STORE_T (UCSAN_ACCESS_ATOMIC | UCSAN_ACCESS_WRITE)
#define RMW_T (UCSAN_ACCESS_ATOMIC | UCSAN_ACCESS_WRITE | UCSAN_ACCESS_COMPOUND)

/* Orders that are invalid for an operation (a release load, say) are
 * undefined in C; they are performed as seq_cst, the safe superset.
 * bench/floor_runtime.c repeats these bodies on purpose (its empty
 * runtime must do the same atomics, minus the checks); change both. */
#define DO_LOAD(a, mo)                                                           \
	switch (mo_of(mo)) {                                                     \
	case mo_relaxed: return __atomic_load_n(a, __ATOMIC_RELAXED);            \
	case mo_consume: return __atomic_load_n(a, __ATOMIC_CONSUME);            \
	case mo_acquire: return __atomic_load_n(a, __ATOMIC_ACQUIRE);            \
	default: return __atomic_load_n(a, __ATOMIC_SEQ_CST);                    \
	}

#define DO_STORE(a, v, mo)                                                       \
	switch (mo_of(mo)) {                                                     \
	case mo_relaxed: __atomic_store_n(a, v, __ATOMIC_RELAXED); break;        \
	case mo_release: __atomic_store_n(a, v, __ATOMIC_RELEASE); break;        \
	default: __atomic_store_n(a, v, __ATOMIC_SEQ_CST); break;                \
	}                                                                        \
	ucsan_atomic_stored(a, sizeof(*a));

#define DO_RMW(builtin, a, v, mo)                                                \
	__typeof__(v) r_;                                                        \
	switch (mo_of(mo)) {                                                     \
	case mo_relaxed: r_ = builtin(a, v, __ATOMIC_RELAXED); break;            \
	case mo_consume: r_ = builtin(a, v, __ATOMIC_CONSUME); break;            \
	case mo_acquire: r_ = builtin(a, v, __ATOMIC_ACQUIRE); break;            \
	case mo_release: r_ = builtin(a, v, __ATOMIC_RELEASE); break;            \
	case mo_acq_rel: r_ = builtin(a, v, __ATOMIC_ACQ_REL); break;            \
	default: r_ = builtin(a, v, __ATOMIC_SEQ_CST); break;                    \
	}                                                                        \
	ucsan_atomic_stored(a, sizeof(*a));                                      \
	return r_;

/* The failure order may not be a release and, for the compilers we build
 * with, not stronger than the success order: clamp to the nearest valid. */
#define CAS(a, c, v, weak, s, f) __atomic_compare_exchange_n(a, c, v, weak, s, f)
#define DO_CAS(a, c, v, weak, mo, fmo)                                                              \
	switch (mo_of(mo)) {                                                                         \
	case mo_relaxed: return CAS(a, c, v, weak, __ATOMIC_RELAXED, __ATOMIC_RELAXED);              \
	case mo_consume:                                                                             \
		if (mo_of(fmo) == mo_relaxed)                                                        \
			return CAS(a, c, v, weak, __ATOMIC_CONSUME, __ATOMIC_RELAXED);               \
		return CAS(a, c, v, weak, __ATOMIC_CONSUME, __ATOMIC_CONSUME);                       \
	case mo_acquire:                                                                             \
		if (mo_of(fmo) == mo_relaxed)                                                        \
			return CAS(a, c, v, weak, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);               \
		return CAS(a, c, v, weak, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE);                       \
	case mo_release: return CAS(a, c, v, weak, __ATOMIC_RELEASE, __ATOMIC_RELAXED);              \
	case mo_acq_rel:                                                                             \
		if (mo_of(fmo) == mo_relaxed)                                                        \
			return CAS(a, c, v, weak, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);               \
		return CAS(a, c, v, weak, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);                       \
	default:                                                                                     \
		if (mo_of(fmo) == mo_relaxed)                                                        \
			return CAS(a, c, v, weak, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);               \
		if (mo_of(fmo) == mo_seq_cst)                                                        \
			return CAS(a, c, v, weak, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);               \
		return CAS(a, c, v, weak, __ATOMIC_SEQ_CST, __ATOMIC_ACQUIRE);                       \
	}

#define DEFINE_RMW(T, n, name, builtin)                                                        \
	UCSAN_EXPORT T __tsan_atomic##n##_##name(volatile T *a, T v, int mo)                      \
	{                                                                                      \
		ucsan_atomic_publish(mo, a);                                                   \
		check_access(a, sizeof(T), RMW_T, 0);                                \
		DO_RMW(builtin, a, v, mo)                                                      \
	}

#define DEFINE_ATOMICS(T, n)                                                                   \
	/* A compare-exchange that succeeded stored. */                                        \
	static ALWAYS_INLINE bool do_cas_##n(volatile T *a, T *c, T v, bool weak, int mo, int fmo)  \
	{                                                                                      \
		DO_CAS(a, c, v, weak, mo, fmo)                                                 \
	}                                                                                      \
	static ALWAYS_INLINE bool cas_##n(volatile T *a, T *c, T v, bool weak, int mo, int fmo)  \
	{                                                                                      \
		const bool ok = do_cas_##n(a, c, v, weak, mo, fmo);                            \
		if (ok)                                                                        \
			ucsan_atomic_stored(a, sizeof(*a));                                    \
		return ok;                                                                     \
	}                                                                                      \
	UCSAN_EXPORT T __tsan_atomic##n##_load(const volatile T *a, int mo)                       \
	{                                                                                      \
		ucsan_atomic_order(mo);                                                        \
		check_access(a, sizeof(T), LOAD_T, 0);                               \
		DO_LOAD(a, mo)                                                                 \
	}                                                                                      \
	UCSAN_EXPORT void __tsan_atomic##n##_store(volatile T *a, T v, int mo)                    \
	{                                                                                      \
		ucsan_atomic_publish(mo, a);                                                   \
		check_access(a, sizeof(T), STORE_T, 0);                              \
		DO_STORE(a, v, mo)                                                             \
	}                                                                                      \
	DEFINE_RMW(T, n, exchange, __atomic_exchange_n)                                        \
	DEFINE_RMW(T, n, fetch_add, __atomic_fetch_add)                                        \
	DEFINE_RMW(T, n, fetch_sub, __atomic_fetch_sub)                                        \
	DEFINE_RMW(T, n, fetch_and, __atomic_fetch_and)                                        \
	DEFINE_RMW(T, n, fetch_or, __atomic_fetch_or)                                          \
	DEFINE_RMW(T, n, fetch_xor, __atomic_fetch_xor)                                        \
	DEFINE_RMW(T, n, fetch_nand, __atomic_fetch_nand)                                      \
	UCSAN_EXPORT int __tsan_atomic##n##_compare_exchange_strong(volatile T *a, T *c, T v,     \
								  int mo, int fmo)            \
	{                                                                                      \
		ucsan_atomic_publish(mo, a);                                                   \
		check_access(a, sizeof(T), RMW_T, 0);                                \
		return cas_##n(a, c, v, false, mo, fmo);                                       \
	}                                                                                      \
	UCSAN_EXPORT int __tsan_atomic##n##_compare_exchange_weak(volatile T *a, T *c, T v,       \
								int mo, int fmo)              \
	{                                                                                      \
		ucsan_atomic_publish(mo, a);                                                   \
		check_access(a, sizeof(T), RMW_T, 0);                                \
		return cas_##n(a, c, v, true, mo, fmo);                                         \
	}                                                                                      \
	/* Returns the old value; the comparand is taken by value. */                         \
	UCSAN_EXPORT T __tsan_atomic##n##_compare_exchange_val(volatile T *a, T c, T v, int mo,   \
							     int fmo)                         \
	{                                                                                      \
		ucsan_atomic_publish(mo, a);                                                   \
		check_access(a, sizeof(T), RMW_T, 0);                                \
		cas_##n(a, &c, v, false, mo, fmo);                                                  \
		return c;                                                                      \
	}

DEFINE_ATOMICS(char, 8)
DEFINE_ATOMICS(short, 16)
DEFINE_ATOMICS(int, 32)
DEFINE_ATOMICS(long, 64)
/* 16-byte atomics need libatomic: they stay in libucsan.so, out of the
 * copy built into programs (ucsan-entry.o). */
#if defined(__SIZEOF_INT128__) && !defined(UCSAN_ENTRY_OBJECT)
DEFINE_ATOMICS(__int128, 128)
#endif

UCSAN_EXPORT void __tsan_atomic_thread_fence(int mo)
{
	ucsan_atomic_order(mo);
	switch (mo_of(mo)) {
	case mo_relaxed: break;
	case mo_consume:
	case mo_acquire: __atomic_thread_fence(__ATOMIC_ACQUIRE); break;
	case mo_release: __atomic_thread_fence(__ATOMIC_RELEASE); break;
	case mo_acq_rel: __atomic_thread_fence(__ATOMIC_ACQ_REL); break;
	default: __atomic_thread_fence(__ATOMIC_SEQ_CST); break;
	}
}

UCSAN_EXPORT void __tsan_atomic_signal_fence(int mo)
{
	if (mo_of(mo) != mo_relaxed)
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
}
