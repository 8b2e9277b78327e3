// SPDX-License-Identifier: Apache-2.0
/*
 * libc's string and formatting functions that read or write the program's
 * memory for it: strcpy() into a shared buffer, snprintf() of a path into
 * an argument struct, strcmp() or memcmp() of a key another thread
 * rewrites. They run uninstrumented, so their accesses are checked here,
 * as range accesses at the caller's site (ThreadSanitizer's interceptors
 * do the same). The copies know their lengths before they run and are
 * checked first, as memcpy() is; a formatted string's length is known only
 * once it is written, so its range is checked then (a watch set after the
 * store still meets a reader; what it cannot learn is the value before).
 * Reads set no cold site's watch (check_read()).
 *
 * _FORTIFY_SOURCE builds call the __*_chk spellings, which take the
 * destination's size as well: the same checks, then the real function.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "range_checks.h"

REAL(vsnprintf, int, char *, size_t, const char *, va_list)
REAL(vsprintf, int, char *, const char *, va_list)
REAL(__vsnprintf_chk, int, char *, size_t, int, size_t, const char *, va_list)
REAL(__vsprintf_chk, int, char *, int, size_t, const char *, va_list)
REAL(strlen, size_t, const char *)
REAL(strnlen, size_t, const char *, size_t)
REAL(strcmp, int, const char *, const char *)
REAL(memcmp, int, const void *, const void *, size_t)
REAL(bcmp, int, const void *, const void *, size_t)
REAL(strncmp, int, const char *, const char *, size_t)
REAL(strcpy, char *, char *, const char *)
REAL(stpcpy, char *, char *, const char *)
REAL(strncpy, char *, char *, const char *, size_t)
REAL(strcat, char *, char *, const char *)
REAL(strncat, char *, char *, const char *, size_t)
REAL(strdup, char *, const char *)
REAL(__strcpy_chk, char *, char *, const char *, size_t)
REAL(__stpcpy_chk, char *, char *, const char *, size_t)
REAL(__strncpy_chk, char *, char *, const char *, size_t, size_t)
REAL(__strcat_chk, char *, char *, const char *, size_t)
REAL(__strncat_chk, char *, char *, const char *, size_t, size_t)

/* The real functions, found at start-up: a first dlsym() later could run in
 * a child forked while another thread held the loader's lock. */
void ucsan_intercept_string_init(void)
{
	get_vsnprintf();
	get_vsprintf();
	get___vsnprintf_chk();
	get___vsprintf_chk();
	get_strlen();
	get_strnlen();
	get_strcmp();
	get_memcmp();
	get_bcmp();
	get_strncmp();
	get_strcpy();
	get_stpcpy();
	get_strncpy();
	get_strcat();
	get_strncat();
	get_strdup();
	get___strcpy_chk();
	get___stpcpy_chk();
	get___strncpy_chk();
	get___strcat_chk();
	get___strncat_chk();
}

/* The bytes a length-limited string function reads of a string whose
 * strnlen(s, n) is len: up to its terminator, at most n. */
static size_t bounded(size_t len, size_t n)
{
	return len < n ? len + 1 : n;
}

/* === Formatting: the output, by the length written === */

/* What vsnprintf(buf, size) wrote: the string and its terminator, cut at
 * size. ret < 0: nothing known. */
static void formatted(char *buf, size_t size, int ret, uintptr_t pc)
{
	if (ret < 0 || !size || !checks(pc))
		return;
	const size_t n = (size_t)ret + 1;
	check_write(buf, n < size ? n : size, pc);
}

static int do_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap, uintptr_t pc)
{
	const int ret = get_vsnprintf()(buf, size, fmt, ap);
	formatted(buf, size, ret, pc);
	return ret;
}

static int do_vsprintf(char *buf, const char *fmt, va_list ap, uintptr_t pc)
{
	const int ret = get_vsprintf()(buf, fmt, ap);
	formatted(buf, SIZE_MAX, ret, pc);
	return ret;
}

UCSAN_EXPORT int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	return do_vsnprintf(buf, size, fmt, ap, CALLER_PC());
}

UCSAN_EXPORT int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	const int ret = do_vsnprintf(buf, size, fmt, ap, CALLER_PC());
	va_end(ap);
	return ret;
}

UCSAN_EXPORT int vsprintf(char *buf, const char *fmt, va_list ap)
{
	return do_vsprintf(buf, fmt, ap, CALLER_PC());
}

UCSAN_EXPORT int sprintf(char *buf, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	const int ret = do_vsprintf(buf, fmt, ap, CALLER_PC());
	va_end(ap);
	return ret;
}

UCSAN_EXPORT int __vsnprintf_chk(char *buf, size_t size, int flag, size_t slen, const char *fmt, va_list ap)
{
	const int ret = get___vsnprintf_chk()(buf, size, flag, slen, fmt, ap);
	formatted(buf, size, ret, CALLER_PC());
	return ret;
}

UCSAN_EXPORT int __snprintf_chk(char *buf, size_t size, int flag, size_t slen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	const int ret = get___vsnprintf_chk()(buf, size, flag, slen, fmt, ap);
	va_end(ap);
	formatted(buf, size, ret, CALLER_PC());
	return ret;
}

UCSAN_EXPORT int __vsprintf_chk(char *buf, int flag, size_t slen, const char *fmt, va_list ap)
{
	const int ret = get___vsprintf_chk()(buf, flag, slen, fmt, ap);
	formatted(buf, SIZE_MAX, ret, CALLER_PC());
	return ret;
}

UCSAN_EXPORT int __sprintf_chk(char *buf, int flag, size_t slen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	const int ret = get___vsprintf_chk()(buf, flag, slen, fmt, ap);
	va_end(ap);
	formatted(buf, SIZE_MAX, ret, CALLER_PC());
	return ret;
}

/* === Reading strings === */

UCSAN_EXPORT size_t strlen(const char *s)
{
	const uintptr_t pc = CALLER_PC();
	const size_t len = get_strlen()(s);
	if (checks(pc))
		check_read(s, len + 1, pc);
	return len;
}

UCSAN_EXPORT size_t strnlen(const char *s, size_t n)
{
	const uintptr_t pc = CALLER_PC();
	const size_t len = get_strnlen()(s, n);
	if (checks(pc))
		check_read(s, bounded(len, n), pc);
	return len;
}

/* The bytes a comparison of a and b reads of each: up to the first
 * difference (for strings, or terminator), at most n. memcmp() and bcmp()
 * (which compilers call for a memcmp() tested against 0) compare bytes,
 * strcmp() and strncmp() strings. */
static void check_compared(const void *a, const void *b, size_t n, bool strings, uintptr_t pc)
{
	if (!n || !checks(pc))
		return;
	const unsigned char *x = a, *y = b;
	size_t i = 0;
	while (i < n && x[i] == y[i] && (!strings || x[i]))
		i++;
	check_read(a, i < n ? i + 1 : n, pc);
	check_read(b, i < n ? i + 1 : n, pc);
}

UCSAN_EXPORT int strcmp(const char *a, const char *b)
{
	check_compared(a, b, SIZE_MAX, true, CALLER_PC());
	return get_strcmp()(a, b);
}

UCSAN_EXPORT int strncmp(const char *a, const char *b, size_t size)
{
	check_compared(a, b, size, true, CALLER_PC());
	return get_strncmp()(a, b, size);
}

UCSAN_EXPORT int memcmp(const void *a, const void *b, size_t n)
{
	check_compared(a, b, n, false, CALLER_PC());
	return get_memcmp()(a, b, n);
}

UCSAN_EXPORT int bcmp(const void *a, const void *b, size_t n)
{
	check_compared(a, b, n, false, CALLER_PC());
	return get_bcmp()(a, b, n);
}

UCSAN_EXPORT char *strdup(const char *s)
{
	const uintptr_t pc = CALLER_PC();
	if (checks(pc))
		check_read(s, get_strlen()(s) + 1, pc);
	return get_strdup()(s);
}

/* === Copying strings: both ranges, then the copy === */

static ALWAYS_INLINE void copied(char *dst, const char *src, size_t n, uintptr_t pc)
{
	check_read(src, n, pc);
	check_write(dst, n, pc);
}

/* strcpy, stpcpy: src's string and its terminator. */
static void check_strcpy(char *dst, const char *src, uintptr_t pc)
{
	if (checks(pc))
		copied(dst, src, get_strlen()(src) + 1, pc);
}

/* strncpy writes all n bytes (the rest as terminators). */
static void check_strncpy(char *dst, const char *src, size_t n, uintptr_t pc)
{
	if (n && checks(pc)) {
		check_read(src, bounded(get_strnlen()(src, n), n), pc);
		check_write(dst, n, pc);
	}
}

/* strcat reads dst's string to its end, then writes src's after it. */
static void check_strcat(char *dst, const char *src, uintptr_t pc)
{
	if (checks(pc)) {
		const size_t at = get_strlen()(dst);
		check_read(dst, at, pc);
		copied(dst + at, src, get_strlen()(src) + 1, pc);
	}
}

static void check_strncat(char *dst, const char *src, size_t n, uintptr_t pc)
{
	if (checks(pc)) {
		const size_t at = get_strlen()(dst);
		const size_t len = get_strnlen()(src, n);
		check_read(dst, at, pc);
		check_read(src, bounded(len, n), pc);
		check_write(dst + at, len + 1, pc);
	}
}

UCSAN_EXPORT char *strcpy(char *dst, const char *src)
{
	check_strcpy(dst, src, CALLER_PC());
	return get_strcpy()(dst, src);
}

UCSAN_EXPORT char *stpcpy(char *dst, const char *src)
{
	check_strcpy(dst, src, CALLER_PC());
	return get_stpcpy()(dst, src);
}

UCSAN_EXPORT char *strncpy(char *dst, const char *src, size_t n)
{
	check_strncpy(dst, src, n, CALLER_PC());
	return get_strncpy()(dst, src, n);
}

UCSAN_EXPORT char *strcat(char *dst, const char *src)
{
	check_strcat(dst, src, CALLER_PC());
	return get_strcat()(dst, src);
}

UCSAN_EXPORT char *strncat(char *dst, const char *src, size_t n)
{
	check_strncat(dst, src, n, CALLER_PC());
	return get_strncat()(dst, src, n);
}

/* The _FORTIFY_SOURCE spellings: the same checks; libc's own then checks
 * the destination's size (and stops the program if it is too small). */
UCSAN_EXPORT char *__strcpy_chk(char *dst, const char *src, size_t dstlen)
{
	check_strcpy(dst, src, CALLER_PC());
	return get___strcpy_chk()(dst, src, dstlen);
}

UCSAN_EXPORT char *__stpcpy_chk(char *dst, const char *src, size_t dstlen)
{
	check_strcpy(dst, src, CALLER_PC());
	return get___stpcpy_chk()(dst, src, dstlen);
}

UCSAN_EXPORT char *__strncpy_chk(char *dst, const char *src, size_t n, size_t dstlen)
{
	check_strncpy(dst, src, n, CALLER_PC());
	return get___strncpy_chk()(dst, src, n, dstlen);
}

UCSAN_EXPORT char *__strcat_chk(char *dst, const char *src, size_t dstlen)
{
	check_strcat(dst, src, CALLER_PC());
	return get___strcat_chk()(dst, src, dstlen);
}

UCSAN_EXPORT char *__strncat_chk(char *dst, const char *src, size_t n, size_t dstlen)
{
	check_strncat(dst, src, n, CALLER_PC());
	return get___strncat_chk()(dst, src, n, dstlen);
}
