/*
 * Tiny helpers shared by the one-shot race programs in tests/oneshot/.
 * C and C++.  Nothing here touches shared memory: the clock is read through
 * clock_gettime(), so a busy-wait looks to the compiler like a call to an
 * unknown function, as real work would.
 */
#ifndef ONESHOT_H
#define ONESHOT_H

#include <time.h>

/*
 * The functions a test's report names must stay real functions under gcc
 * and clang at -O2: no inlining and, for gcc, no .isra/.constprop clones.
 */
#if defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noinline, noipa))
#endif

/* Microseconds on the monotonic clock. */
static inline long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/*
 * Busy for about @us microseconds: stands for real work (parsing, I/O).
 * The clock is read only every few thousand loop turns, so the spin costs
 * a sanitizer (ThreadSanitizer intercepts clock_gettime) as little as the
 * computation it stands for; the empty asm keeps the loop.
 */
static inline void spin_for_us(long us)
{
	long long end = now_us() + us;
	unsigned long n = 0;

	do {
		int i;

		for (i = 0; i < 4000; i++)
			__asm__ __volatile__("" : "+r"(n));
	} while (now_us() < end);
}

/* Sleep for @us microseconds. */
static inline void sleep_us(long us)
{
	struct timespec ts;

	ts.tv_sec = us / 1000000;
	ts.tv_nsec = (us % 1000000) * 1000;
	nanosleep(&ts, NULL);
}

#endif /* ONESHOT_H */
