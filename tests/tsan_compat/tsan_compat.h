/*
 * Shared by the programs in tests/tsan_compat/: code written for
 * ThreadSanitizer, built both with ucsan-cc and with plain
 * -fsanitize=thread (tests/tsan_compat/run.sh).
 *
 * TSan's public interface comes from the compiler's own header, as in real
 * projects. The dynamic annotations have no header in either compiler:
 * projects declare them (or ship dynamic_annotations.h), so do we.
 */
#ifndef TSAN_COMPAT_H
#define TSAN_COMPAT_H

#include <sanitizer/tsan_interface.h>
#include <sched.h>

#include "e2e.h"

#ifdef __cplusplus
extern "C" {
#endif
/* Exported by TSan's runtimes, but in neither compiler's header. */
void __tsan_ignore_thread_begin(void);
void __tsan_ignore_thread_end(void);

void AnnotateBenignRaceSized(const char *file, int line, const volatile void *mem, long size,
			     const char *description);
void AnnotateBenignRace(const char *file, int line, const volatile void *mem, const char *description);
void AnnotateIgnoreReadsBegin(const char *file, int line);
void AnnotateIgnoreReadsEnd(const char *file, int line);
void AnnotateIgnoreWritesBegin(const char *file, int line);
void AnnotateIgnoreWritesEnd(const char *file, int line);
void AnnotateHappensBefore(const char *file, int line, const volatile void *obj);
void AnnotateHappensAfter(const char *file, int line, const volatile void *obj);
#ifdef __cplusplus
}
#endif

#define ANNOTATE_BENIGN_RACE_SIZED(p, n, d) AnnotateBenignRaceSized(__FILE__, __LINE__, p, n, d)
#define ANNOTATE_IGNORE_READS_BEGIN() AnnotateIgnoreReadsBegin(__FILE__, __LINE__)
#define ANNOTATE_IGNORE_READS_END() AnnotateIgnoreReadsEnd(__FILE__, __LINE__)
#define ANNOTATE_IGNORE_WRITES_BEGIN() AnnotateIgnoreWritesBegin(__FILE__, __LINE__)
#define ANNOTATE_IGNORE_WRITES_END() AnnotateIgnoreWritesEnd(__FILE__, __LINE__)

/* Functions TSan and ucsan must not see (an uninstrumented "library"). */
#if defined(__clang__)
#define COMPAT_NO_TSAN __attribute__((noinline, no_sanitize("thread")))
#else
#define COMPAT_NO_TSAN __attribute__((noinline, noipa, no_sanitize_thread))
#endif

/* Relaxed atomics: marked for ucsan, no happens-before for TSan. */
#define LOAD_RELAXED(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define STORE_RELAXED(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)

/*
 * Loop condition of the racing threads: until e2e_run_for() says stop, and
 * under TSan (run.sh builds with -DCOMPAT_MAX_ITER=20000) for at most that
 * many rounds: TSan sees a race on the first unordered pair of accesses,
 * and clang 14's runtime tends to drop reports in long tight racing loops.
 */
#ifndef COMPAT_MAX_ITER
#define COMPAT_MAX_ITER 0
#endif
static E2E_UNUSED int compat_continue(unsigned long *rounds)
{
	if (COMPAT_MAX_ITER && *rounds >= (unsigned long)COMPAT_MAX_ITER)
		return 0;
	++*rounds;
	return !e2e_stopped();
}

/* Race two e2e_loop steps for @ms milliseconds, within COMPAT_MAX_ITER. */
static E2E_UNUSED void compat_race(void (*a)(long), void (*b)(long), long ms)
{
	struct e2e_race race = E2E_RACE_STEPS(a, b);

	race.loop[0].count = race.loop[1].count = COMPAT_MAX_ITER;
	e2e_race_for(&race, ms);
}

/* Wait (yielding: the machine may have two CPUs) until *p == v. */
static E2E_UNUSED void compat_wait_for(const int *p, int v)
{
	while (LOAD_RELAXED(p) != v)
		sched_yield();
}

#endif /* TSAN_COMPAT_H */
