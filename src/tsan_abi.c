// SPDX-License-Identifier: Apache-2.0
/*
 * The plain-access entry points gcc and clang emit under -fsanitize=thread:
 * one-line shims over check_access(). Atomics are in tsan_atomics.c,
 * function entry/exit in tsan_func.c. This file is built twice: into
 * libucsan.so, and into ucsan-entry.o for executables (see entry.c), so it
 * may call only what the runtime exports for that (UCSAN_FOR_ENTRY).
 *
 * Each passes its return address, the access's code site, which the
 * cold-site check keys on (one load in a function without a frame).
 */
#include "check.h"
#include "internal.h"

#define PLAIN (0)
#define WRITE (UCSAN_ACCESS_WRITE)
#define RMW (UCSAN_ACCESS_WRITE | UCSAN_ACCESS_COMPOUND)

#define DEFINE_SIZED(n)                                                                    \
	UCSAN_EXPORT void __tsan_read##n(void *p)                                          \
	{                                                                                  \
		check_access(p, n, PLAIN, CALLER_PC());                          \
	}                                                                                  \
	UCSAN_EXPORT void __tsan_write##n(void *p)                                         \
	{                                                                                  \
		check_access(p, n, WRITE, CALLER_PC());                          \
	}                                                                                  \
	UCSAN_EXPORT void __tsan_unaligned_read##n(void *p)                                \
	{                                                                                  \
		check_access(p, n, PLAIN, CALLER_PC());                          \
	}                                                                                  \
	UCSAN_EXPORT void __tsan_unaligned_write##n(void *p)                               \
	{                                                                                  \
		check_access(p, n, WRITE, CALLER_PC());                          \
	}                                                                                  \
	/* clang -tsan-compound-read-before-write=1: x += 1 and friends. */               \
	UCSAN_EXPORT void __tsan_read_write##n(void *p)                                    \
	{                                                                                  \
		check_access(p, n, RMW, CALLER_PC());                            \
	}                                                                                  \
	UCSAN_EXPORT void __tsan_unaligned_read_write##n(void *p)                          \
	{                                                                                  \
		check_access(p, n, RMW, CALLER_PC());                            \
	}                                                                                  \
	/* Aligned volatile accesses up to word size are marked, as in the kernel;   \
	 * anything else volatile is checked as a plain access. */                    \
	UCSAN_EXPORT void __tsan_volatile_read##n(void *p)                                 \
	{                                                                                  \
		if (n <= sizeof(long) && ((uintptr_t)p & (n - 1)) == 0)                    \
			check_access(p, n, UCSAN_ACCESS_ATOMIC, CALLER_PC());    \
		else                                                                       \
			check_access(p, n, PLAIN, CALLER_PC());                  \
	}                                                                                  \
	UCSAN_EXPORT void __tsan_volatile_write##n(void *p)                                \
	{                                                                                  \
		if (n <= sizeof(long) && ((uintptr_t)p & (n - 1)) == 0)                    \
			check_access(p, n, WRITE | UCSAN_ACCESS_ATOMIC, CALLER_PC()); \
		else                                                                       \
			check_access(p, n, WRITE, CALLER_PC());                  \
	}                                                                                  \
	UCSAN_EXPORT void __tsan_unaligned_volatile_read##n(void *p)                       \
	{                                                                                  \
		__tsan_volatile_read##n(p);                                                \
	}                                                                                  \
	UCSAN_EXPORT void __tsan_unaligned_volatile_write##n(void *p)                      \
	{                                                                                  \
		__tsan_volatile_write##n(p);                                               \
	}                                                                                  \
	/* Variants with an explicit caller pc, used by some instrumenters. */            \
	UCSAN_EXPORT void __tsan_read##n##_pc(void *p, void *pc)                           \
	{                                                                                  \
		check_access(p, n, PLAIN, (uintptr_t)pc);                                  \
	}                                                                                  \
	UCSAN_EXPORT void __tsan_write##n##_pc(void *p, void *pc)                          \
	{                                                                                  \
		check_access(p, n, WRITE, (uintptr_t)pc);                                  \
	}

DEFINE_SIZED(1)
DEFINE_SIZED(2)
DEFINE_SIZED(4)
DEFINE_SIZED(8)
DEFINE_SIZED(16)

/* Ranges: the common case here, in the program; the rest in the runtime
 * (whose ucsan_check_range() tries it again: the interposers call it too). */
static ALWAYS_INLINE void check_range(const void *p, unsigned long size, int type, uintptr_t pc)
{
	if (!check_range_quick(type, pc))
		ucsan_check_range(p, size, type, pc);
}

UCSAN_EXPORT void __tsan_read_range(void *p, unsigned long size)
{
	check_range(p, size, PLAIN, CALLER_PC());
}

UCSAN_EXPORT void __tsan_write_range(void *p, unsigned long size)
{
	check_range(p, size, WRITE, CALLER_PC());
}

UCSAN_EXPORT void __tsan_read_range_pc(void *p, unsigned long size, void *pc)
{
	check_range(p, size, PLAIN, (uintptr_t)pc);
}

UCSAN_EXPORT void __tsan_write_range_pc(void *p, unsigned long size, void *pc)
{
	check_range(p, size, WRITE, (uintptr_t)pc);
}

/* C++ vtable pointer stores: only a changed pointer is a write (TSan's rule,
 * so that constructors re-storing the same vptr are not races). */
UCSAN_EXPORT void __tsan_vptr_update(void **vptr_p, void *new_val)
{
	if (*vptr_p != new_val)
		check_access(vptr_p, sizeof(void *), WRITE, CALLER_PC());
}

UCSAN_EXPORT void __tsan_vptr_read(void **vptr_p)
{
	check_access(vptr_p, sizeof(void *), PLAIN, CALLER_PC());
}
