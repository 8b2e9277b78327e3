// SPDX-License-Identifier: Apache-2.0
/*
 * memcpy, memmove and memset: clang turns struct copies and large
 * initializations into plain calls to these (and newer compilers into
 * __tsan_mem*, _FORTIFY_SOURCE builds into __mem*_chk), so they are
 * checked as range accesses before the real function runs. Defining them
 * here interposes on libc's for the whole process, as any sanitizer
 * runtime does.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>

#include "check.h"
#include "internal.h"

typedef void *(*copy_fn)(void *, const void *, size_t);
typedef void *(*set_fn)(void *, int, size_t);

static copy_fn real_memcpy, real_memmove;
static set_fn real_memset;

/* Byte loops for the window before dlsym() has answered (other libraries'
 * constructors, or dlsym itself copying): volatile keeps the compiler from
 * turning them back into calls to the very functions being defined. */
static void *slow_copy(void *dst, const void *src, size_t n)
{
	volatile unsigned char *d = dst;
	const volatile unsigned char *s = src;
	if (d < s) {
		for (size_t i = 0; i < n; i++)
			d[i] = s[i];
	} else {
		for (size_t i = n; i > 0; i--)
			d[i - 1] = s[i - 1];
	}
	return dst;
}

static void *slow_set(void *dst, int c, size_t n)
{
	volatile unsigned char *d = dst;
	for (size_t i = 0; i < n; i++)
		d[i] = (unsigned char)c;
	return dst;
}

static __thread int resolving __attribute__((tls_model("initial-exec")));

static void resolve(void)
{
	if (resolving)
		return;
	resolving = 1;
	set_fn set = (set_fn)dlsym(RTLD_NEXT, "memset");
	copy_fn cpy = (copy_fn)dlsym(RTLD_NEXT, "memcpy");
	copy_fn mov = (copy_fn)dlsym(RTLD_NEXT, "memmove");
	__atomic_store_n(&real_memset, set, __ATOMIC_RELEASE);
	__atomic_store_n(&real_memcpy, cpy, __ATOMIC_RELEASE);
	__atomic_store_n(&real_memmove, mov, __ATOMIC_RELEASE);
	resolving = 0;
}

/* The _FORTIFY_SOURCE spellings, which take the destination's size too:
 * found at start-up like the others (see intercept_string.c). */
REAL(__memcpy_chk, void *, void *, const void *, size_t, size_t)
REAL(__memmove_chk, void *, void *, const void *, size_t, size_t)
REAL(__memset_chk, void *, void *, int, size_t, size_t)

void ucsan_intercept_init(void)
{
	resolve();
	get___memcpy_chk();
	get___memmove_chk();
	get___memset_chk();
}

/* Check only when the runtime is up and this thread is not inside it. */
static ALWAYS_INLINE bool should_check(void)
{
	return ucsan_initialized && ucsan_ctx_tls.disable_count == 0;
}

/* A copy of n bytes: what it reads, then what it writes. */
static ALWAYS_INLINE void check_copy(void *dst, const void *src, size_t n, uintptr_t pc)
{
	if (should_check() && n) {
		ucsan_check_range(src, n, 0, pc);
		ucsan_check_range(dst, n, UCSAN_ACCESS_WRITE, pc);
	}
}

static ALWAYS_INLINE void *do_copy(void *dst, const void *src, size_t n, uintptr_t pc, bool overlap)
{
	check_copy(dst, src, n, pc);
	copy_fn f = __atomic_load_n(overlap ? &real_memmove : &real_memcpy, __ATOMIC_ACQUIRE);
	if (unlikely(!f)) {
		resolve();
		f = __atomic_load_n(overlap ? &real_memmove : &real_memcpy, __ATOMIC_ACQUIRE);
		if (!f)
			return slow_copy(dst, src, n);
	}
	return f(dst, src, n);
}

/* A fill of n bytes. */
static ALWAYS_INLINE void check_set(void *dst, size_t n, uintptr_t pc)
{
	if (should_check() && n)
		ucsan_check_range(dst, n, UCSAN_ACCESS_WRITE, pc);
}

static ALWAYS_INLINE void *do_set(void *dst, int c, size_t n, uintptr_t pc)
{
	check_set(dst, n, pc);
	set_fn f = __atomic_load_n(&real_memset, __ATOMIC_ACQUIRE);
	if (unlikely(!f)) {
		resolve();
		f = __atomic_load_n(&real_memset, __ATOMIC_ACQUIRE);
		if (!f)
			return slow_set(dst, c, n);
	}
	return f(dst, c, n);
}

UCSAN_EXPORT void *memcpy(void *dst, const void *src, size_t n)
{
	return do_copy(dst, src, n, CALLER_PC(), false);
}

UCSAN_EXPORT void *memmove(void *dst, const void *src, size_t n)
{
	return do_copy(dst, src, n, CALLER_PC(), true);
}

UCSAN_EXPORT void *memset(void *dst, int c, size_t n)
{
	return do_set(dst, c, n, CALLER_PC());
}

UCSAN_EXPORT void *__memcpy_chk(void *dst, const void *src, size_t n, size_t dstlen)
{
	check_copy(dst, src, n, CALLER_PC());
	return get___memcpy_chk()(dst, src, n, dstlen);
}

UCSAN_EXPORT void *__memmove_chk(void *dst, const void *src, size_t n, size_t dstlen)
{
	check_copy(dst, src, n, CALLER_PC());
	return get___memmove_chk()(dst, src, n, dstlen);
}

UCSAN_EXPORT void *__memset_chk(void *dst, int c, size_t n, size_t dstlen)
{
	check_set(dst, n, CALLER_PC());
	return get___memset_chk()(dst, c, n, dstlen);
}

UCSAN_EXPORT void *__tsan_memcpy(void *dst, const void *src, size_t n)
{
	return do_copy(dst, src, n, CALLER_PC(), false);
}

UCSAN_EXPORT void *__tsan_memmove(void *dst, const void *src, size_t n)
{
	return do_copy(dst, src, n, CALLER_PC(), true);
}

UCSAN_EXPORT void *__tsan_memset(void *dst, int c, size_t n)
{
	return do_set(dst, c, n, CALLER_PC());
}
