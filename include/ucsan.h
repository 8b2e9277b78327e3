/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ucsan.h: the annotation interface of the User-space Concurrency Sanitizer.
 *
 * C and C++, needs only <stddef.h>. Every macro and function here compiles
 * to nothing (or to the plain access) unless the translation unit is built
 * with ucsan (ucsan-cc defines what __SANITIZE_THREAD__ /
 * __has_feature(thread_sanitizer) test), so annotated code costs nothing in
 * ordinary builds and needs no libucsan to link. See docs/annotations.md.
 */
#ifndef UCSAN_H
#define UCSAN_H

#include <stddef.h>

/* === Is this translation unit instrumented? === */
/* UCSAN_INSTRUMENTED is 1 under ucsan-cc (gcc or clang), else 0. */
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

/* The runtime never throws: tell C++ so (no unwinding code around calls,
 * in particular the cleanups of the _SCOPED macros). */
#define UCSAN_NOTHROW_ __attribute__((nothrow))

/* === Access types for ucsan_check_access() === */
#define UCSAN_ACCESS_WRITE 0x1    /* a write (else a read) */
#define UCSAN_ACCESS_COMPOUND 0x2 /* read-modify-write: with WRITE */
#define UCSAN_ACCESS_ATOMIC 0x4   /* marked: only finds watchpoints, never sets one */
#define UCSAN_ACCESS_ASSERT 0x8   /* an assertion: reported as "assert: race" */
#define UCSAN_ACCESS_SCOPED 0x10  /* (internal) re-check of a scoped access */

/* A scoped check, kept on the caller's stack (see the _SCOPED macros). */
struct ucsan_scoped_access {
	struct ucsan_scoped_access *next;
	const volatile void *ptr;
	size_t size;
	int type;
	void *ip;
};

/* The runtime itself is not instrumented but defines the real functions. */
#if UCSAN_INSTRUMENTED || defined(UCSAN_BUILDING_RUNTIME)

/* === Explicit checks ===
 * For memory touched by assembly or uninstrumented code:
 *
 *     asm volatile("movl %1, %0" : "=m"(shared) : "r"(v));
 *     ucsan_check_write(&shared, sizeof(shared));
 *
 * A zero size checks nothing. */
void ucsan_check_access(const volatile void *ptr, size_t size, int type) UCSAN_NOTHROW_;
#define ucsan_check_read(ptr, size) ucsan_check_access((ptr), (size), 0)
#define ucsan_check_write(ptr, size) ucsan_check_access((ptr), (size), UCSAN_ACCESS_WRITE)
#define ucsan_check_read_write(ptr, size) \
	ucsan_check_access((ptr), (size), UCSAN_ACCESS_WRITE | UCSAN_ACCESS_COMPOUND)

/* === Turning checking off and on ===
 * ucsan_disable_current()/ucsan_enable_current(): nothing this thread does
 * in between is checked; they nest. An unbalanced enable is reported once.
 * ucsan_set_enabled(0/1): the whole process, at run time. */
void ucsan_disable_current(void) UCSAN_NOTHROW_;
void ucsan_enable_current(void) UCSAN_NOTHROW_;
void ucsan_set_enabled(int on) UCSAN_NOTHROW_;

/* === Atomic regions ===
 * Accesses inside are treated as marked (never watched, still checked
 * against others' watchpoints), as in the kernel's seqlock readers:
 *
 *     ucsan_nestable_atomic_begin();  // nests; a flat region does not
 *     ... accesses ...
 *     ucsan_nestable_atomic_end();
 *
 * ucsan_atomic_next(n): the thread's next n plain accesses are marked;
 * ucsan_atomic_next(0) ends that early. */
void ucsan_nestable_atomic_begin(void) UCSAN_NOTHROW_;
void ucsan_nestable_atomic_end(void) UCSAN_NOTHROW_;
void ucsan_flat_atomic_begin(void) UCSAN_NOTHROW_;
void ucsan_flat_atomic_end(void) UCSAN_NOTHROW_;
void ucsan_atomic_next(int n) UCSAN_NOTHROW_;

/* === Barriers for weak_memory=1 ===
 * They order nothing themselves: they tell the runtime that the thread's
 * pending access is ordered, as the real barrier next to them does:
 *
 *     obj->ready = 1;
 *     ucsan_wmb(); __atomic_thread_fence(__ATOMIC_RELEASE);
 *
 * ucsan_mb(): full barrier; ucsan_wmb(): orders writes; ucsan_rmb(): orders
 * reads; ucsan_release(): a release (orders everything before it). */
void ucsan_mb(void) UCSAN_NOTHROW_;
void ucsan_wmb(void) UCSAN_NOTHROW_;
void ucsan_rmb(void) UCSAN_NOTHROW_;
void ucsan_release(void) UCSAN_NOTHROW_;

/* === Access mask ===
 * While non-zero, the thread's watched value changes only count inside the
 * mask (used by UCSAN_ASSERT_EXCLUSIVE_BITS). */
void ucsan_set_access_mask(unsigned long mask) UCSAN_NOTHROW_;

/* === Scoped checks (prefer the _SCOPED macros) === */
struct ucsan_scoped_access *ucsan_begin_scoped_access(const volatile void *ptr, size_t size, int type,
						      struct ucsan_scoped_access *sa) UCSAN_NOTHROW_;
void ucsan_end_scoped_access(struct ucsan_scoped_access *sa) UCSAN_NOTHROW_;

#else /* !UCSAN_INSTRUMENTED: everything is free */

static inline void ucsan_check_access(const volatile void *ptr, size_t size, int type)
{
	(void)ptr, (void)size, (void)type;
}
#define ucsan_check_read(ptr, size) ((void)(ptr), (void)(size))
#define ucsan_check_write(ptr, size) ((void)(ptr), (void)(size))
#define ucsan_check_read_write(ptr, size) ((void)(ptr), (void)(size))
static inline void ucsan_disable_current(void) {}
static inline void ucsan_enable_current(void) {}
static inline void ucsan_set_enabled(int on) { (void)on; }
static inline void ucsan_nestable_atomic_begin(void) {}
static inline void ucsan_nestable_atomic_end(void) {}
static inline void ucsan_flat_atomic_begin(void) {}
static inline void ucsan_flat_atomic_end(void) {}
static inline void ucsan_atomic_next(int n) { (void)n; }
static inline void ucsan_set_access_mask(unsigned long mask) { (void)mask; }
static inline void ucsan_mb(void) {}
static inline void ucsan_wmb(void) {}
static inline void ucsan_rmb(void) {}
static inline void ucsan_release(void) {}
static inline UCSAN_NOTHROW_ struct ucsan_scoped_access *
ucsan_begin_scoped_access(const volatile void *ptr, size_t size, int type, struct ucsan_scoped_access *sa)
{
	(void)ptr, (void)size, (void)type;
	return sa;
}
static inline UCSAN_NOTHROW_ void ucsan_end_scoped_access(struct ucsan_scoped_access *sa) { (void)sa; }

#endif /* UCSAN_INSTRUMENTED || UCSAN_BUILDING_RUNTIME */

/* === Marked accesses ===
 * A lockless read or write that is meant to race (a flag, a statistic):
 *
 *     while (!UCSAN_READ_ONCE(stop)) ...
 *     UCSAN_WRITE_ONCE(stop, 1);
 *
 * Volatile accesses, which ucsan-cc has the compiler report as marked. */
#define UCSAN_READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define UCSAN_WRITE_ONCE(x, val) ((void)(*(volatile __typeof__(x) *)&(x) = (val)))

/* === Intentional races ===
 * Evaluates expr with checking off for this thread, and yields its value:
 *
 *     unsigned long approx = UCSAN_DATA_RACE(stats->hits);  // a diagnostic */
#if UCSAN_INSTRUMENTED
#define UCSAN_DATA_RACE(expr)                                             \
	__extension__({                                                   \
		__typeof__(expr) ucsan_v_ = (ucsan_disable_current(), (expr)); \
		ucsan_enable_current();                                   \
		ucsan_v_;                                                 \
	})
#else
#define UCSAN_DATA_RACE(expr) (expr)
#endif

/* === Assertions ===
 * Not accesses: claims about concurrency, checked like accesses and
 * reported as "assert: race" when violated.
 *
 *     UCSAN_ASSERT_EXCLUSIVE_WRITER(q->tail);   // only this thread writes
 *     UCSAN_ASSERT_EXCLUSIVE_ACCESS(obj->refs); // no one else touches it
 *     UCSAN_ASSERT_EXCLUSIVE_BITS(flags, 0xf0); // only we change bits 4..7
 *
 * The _SCOPED forms hold for the rest of the enclosing scope: checked when
 * it opens, on every instrumented access while it is open, and when it
 * closes. Reports name the function that opened the scope. */
#define UCSAN_ASSERT_EXCLUSIVE_WRITER(var) \
	ucsan_check_access(&(var), sizeof(var), UCSAN_ACCESS_ASSERT)
#define UCSAN_ASSERT_EXCLUSIVE_ACCESS(var) \
	ucsan_check_access(&(var), sizeof(var), UCSAN_ACCESS_WRITE | UCSAN_ACCESS_ASSERT)
#define UCSAN_ASSERT_EXCLUSIVE_BITS(var, mask)                                     \
	do {                                                                       \
		ucsan_set_access_mask(mask);                                       \
		ucsan_check_access(&(var), sizeof(var), UCSAN_ACCESS_ASSERT);      \
		ucsan_set_access_mask(0);                                          \
		ucsan_atomic_next(1); /* the caller's own read of var that follows */ \
	} while (0)

#define UCSAN_CONCAT_(a, b) a##b
#define UCSAN_CONCAT(a, b) UCSAN_CONCAT_(a, b)
#define UCSAN_SCOPED_(var, type, id)                                                        \
	struct ucsan_scoped_access UCSAN_CONCAT(ucsan_scoped_, id)                           \
		__attribute__((cleanup(ucsan_end_scoped_access), unused));                  \
	struct ucsan_scoped_access *UCSAN_CONCAT(ucsan_scoped_p_, id) __attribute__((unused)) = \
		ucsan_begin_scoped_access(&(var), sizeof(var), (type), &UCSAN_CONCAT(ucsan_scoped_, id))
#define UCSAN_ASSERT_EXCLUSIVE_WRITER_SCOPED(var) UCSAN_SCOPED_(var, UCSAN_ACCESS_ASSERT, __COUNTER__)
#define UCSAN_ASSERT_EXCLUSIVE_ACCESS_SCOPED(var) \
	UCSAN_SCOPED_(var, UCSAN_ACCESS_WRITE | UCSAN_ACCESS_ASSERT, __COUNTER__)

/* === Functions the sanitizer must not see ===
 *
 *     UCSAN_NO_SANITIZE void poke(int *p) { *p = 1; }  // invisible to ucsan
 *
 * clang also needs disable_sanitizer_instrumentation, or it still emits
 * function entry/exit and atomic calls into the runtime. */
#if defined(__clang__)
#if __clang_major__ >= 14
#define UCSAN_NO_SANITIZE __attribute__((no_sanitize("thread"), disable_sanitizer_instrumentation))
#else
#define UCSAN_NO_SANITIZE __attribute__((no_sanitize("thread")))
#endif
#elif defined(__GNUC__)
#define UCSAN_NO_SANITIZE __attribute__((no_sanitize_thread))
#else
#define UCSAN_NO_SANITIZE
#endif

/* === Options from code ===
 * Define this in the program; $UCSAN_OPTIONS still wins:
 *
 *     const char *__ucsan_default_options(void) { return "skip_watch=100"; } */
const char *__ucsan_default_options(void);

#ifdef __cplusplus
}
#endif

#endif /* UCSAN_H */
