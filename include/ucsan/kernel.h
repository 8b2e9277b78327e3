/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ucsan/kernel.h: the Linux kernel's spellings, for code ported from or
 * modelled on the kernel (see examples/). Works with and without ucsan:
 * without it these are the ordinary volatile accesses, C11 atomics and
 * fences the kernel's definitions amount to.
 */
#ifndef UCSAN_KERNEL_H
#define UCSAN_KERNEL_H

#include <ucsan.h>

/* === Marked accesses and intentional races === */
#ifndef READ_ONCE
#define READ_ONCE(x) UCSAN_READ_ONCE(x)
#endif
#ifndef WRITE_ONCE
#define WRITE_ONCE(x, val) UCSAN_WRITE_ONCE(x, val)
#endif
#ifndef data_race
#define data_race(expr) UCSAN_DATA_RACE(expr)
#endif

/* === Assertions === */
#define ASSERT_EXCLUSIVE_WRITER(var) UCSAN_ASSERT_EXCLUSIVE_WRITER(var)
#define ASSERT_EXCLUSIVE_ACCESS(var) UCSAN_ASSERT_EXCLUSIVE_ACCESS(var)
#define ASSERT_EXCLUSIVE_BITS(var, mask) UCSAN_ASSERT_EXCLUSIVE_BITS(var, mask)
#define ASSERT_EXCLUSIVE_WRITER_SCOPED(var) UCSAN_ASSERT_EXCLUSIVE_WRITER_SCOPED(var)
#define ASSERT_EXCLUSIVE_ACCESS_SCOPED(var) UCSAN_ASSERT_EXCLUSIVE_ACCESS_SCOPED(var)

/* === Ordering: C11 atomics and fences, which the runtime sees as marked
 * accesses and barriers === */
/* As in the kernel, these take a pointer: smp_load_acquire(&sig->stats). */
#define smp_load_acquire(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v) __atomic_store_n((p), (__typeof__(*(p)))(v), __ATOMIC_RELEASE)
/* smp_rmb/smp_wmb order only reads/only writes: the hardware barrier is
 * inline assembly the runtime does not see, so the runtime is told which
 * kind it was (ucsan_rmb/ucsan_wmb, free without ucsan). */
#if defined(__x86_64__) || defined(__i386__)
#define UCSAN_HW_RMB_() __asm__ __volatile__("" ::: "memory") /* TSO: loads are ordered */
#define UCSAN_HW_WMB_() __asm__ __volatile__("" ::: "memory") /* TSO: stores are ordered */
#elif defined(__aarch64__)
#define UCSAN_HW_RMB_() __asm__ __volatile__("dmb ishld" ::: "memory")
#define UCSAN_HW_WMB_() __asm__ __volatile__("dmb ishst" ::: "memory")
#else
#define UCSAN_HW_RMB_() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define UCSAN_HW_WMB_() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif
#define smp_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb()                  \
	do {                       \
		ucsan_rmb();       \
		UCSAN_HW_RMB_();   \
	} while (0)
#define smp_wmb()                  \
	do {                       \
		ucsan_wmb();       \
		UCSAN_HW_WMB_();   \
	} while (0)

/* === RCU publication (the pointer accesses only; grace periods are the
 * program's business) === */
#define rcu_dereference(p) __atomic_load_n(&(p), __ATOMIC_CONSUME)
#define rcu_dereference_protected(p, c) ((void)sizeof(!(c)), (p))
#define rcu_access_pointer(p) READ_ONCE(p)
#define rcu_assign_pointer(p, v) __atomic_store_n(&(p), (__typeof__(p))(v), __ATOMIC_RELEASE)
#define RCU_INIT_POINTER(p, v) WRITE_ONCE(p, v)

/* === Attributes === */
#define __no_kcsan UCSAN_NO_SANITIZE

#endif /* UCSAN_KERNEL_H */
