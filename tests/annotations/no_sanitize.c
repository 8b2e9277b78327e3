/* SPDX-License-Identifier: Apache-2.0 */
/*
 * UCSAN_NO_SANITIZE and __no_kcsan must remove all instrumentation from a
 * function: tests/annotations/run.sh compiles this with ucsan-cc/ucsan-c++
 * and requires that the disassembly of hidden_plain() and hidden_kcsan()
 * calls no __tsan_* function (no entry/exit hooks, no read/write checks,
 * no atomic entry points), while visible(), the same body without the
 * attribute, must call them (so that the grep itself is known to work).
 */
#include <ucsan.h>
#include <ucsan/kernel.h>

int shared;
long hits;

UCSAN_NO_SANITIZE __attribute__((noinline)) int hidden_plain(int *p)
{
	*p += shared;
	shared = p[1];
	return (int)__atomic_fetch_add(&hits, 1, __ATOMIC_RELAXED);
}

__no_kcsan __attribute__((noinline)) int hidden_kcsan(int *p)
{
	*p += shared;
	shared = p[1];
	return (int)__atomic_fetch_add(&hits, 1, __ATOMIC_RELAXED);
}

__attribute__((noinline)) int visible(int *p)
{
	*p += shared;
	shared = p[1];
	return (int)__atomic_fetch_add(&hits, 1, __ATOMIC_RELAXED);
}
