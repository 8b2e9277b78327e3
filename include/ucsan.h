/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ucsan.h: the public interface of the User-space Concurrency Sanitizer.
 * C and C++; needs only <stddef.h>. Everything here is safe to leave in a
 * program built without ucsan.
 */
#ifndef UCSAN_H
#define UCSAN_H

#include <stddef.h>

/* === Is this translation unit instrumented? === */
/* UCSAN_INSTRUMENTED is 1 when built with ucsan-cc (gcc or clang), else 0. */
#if defined(__SANITIZE_THREAD__)
#define UCSAN_INSTRUMENTED 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UCSAN_INSTRUMENTED 1
#endif
#endif
#ifndef UCSAN_INSTRUMENTED
#define UCSAN_INSTRUMENTED 0
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* === Options from code === */
/*
 * Define this in the program to set default options; $UCSAN_OPTIONS still
 * wins. Same syntax as the variable:
 *
 *     const char *__ucsan_default_options(void) { return "skip_watch=100"; }
 */
const char *__ucsan_default_options(void);

#ifdef __cplusplus
}
#endif

#endif /* UCSAN_H */
