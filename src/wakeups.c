// SPDX-License-Identifier: Apache-2.0
/*
 * Wake-ups: returning from a sleep, a join or a semaphore wait. A thread
 * parked by another's write stall runs its sites warm until that stall
 * ends, and learns that it ended on its next slow-path entry -- which a
 * thread that polls a flag between sleeps, touching a word or two per
 * turn, may not reach for a long time. So it also looks here, where it
 * wakes, and its next poll is watched again. (Locks and condition
 * variables look in barriers.c.)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

/* Resolves the next definition once; NULL until dlsym has answered. */
#define NEXT(name, type, ...)                                                          \
	static type (*next_##name(void))(__VA_ARGS__)                                  \
	{                                                                              \
		static type (*fn)(__VA_ARGS__);                                        \
		if (!__atomic_load_n(&fn, __ATOMIC_ACQUIRE))                           \
			__atomic_store_n(&fn, dlsym(RTLD_NEXT, #name), __ATOMIC_RELEASE); \
		return __atomic_load_n(&fn, __ATOMIC_ACQUIRE);                         \
	}

/* After a sleep that began at `t0`: how long it lasted, measured rather
 * than read from its arguments (which may be bad pointers, or the time
 * left written over the time asked). The poll keeps errno. */
static void slept_since(uint64_t t0)
{
	UCSAN_KEEP_ERRNO(ucsan_cold_slept(ucsan_now_ns() - t0));
}

static void woke(void)
{
	UCSAN_KEEP_ERRNO(ucsan_cold_wakeup());
}

NEXT(nanosleep, int, const struct timespec *, struct timespec *)
UCSAN_EXPORT int nanosleep(const struct timespec *req, struct timespec *rem)
{
	int (*f)(const struct timespec *, struct timespec *) = next_nanosleep();
	const uint64_t t0 = ucsan_now_ns();
	const int ret = f ? f(req, rem) : (errno = ENOSYS, -1);
	slept_since(t0);
	return ret;
}

NEXT(clock_nanosleep, int, clockid_t, int, const struct timespec *, struct timespec *)
UCSAN_EXPORT int clock_nanosleep(clockid_t clk, int flags, const struct timespec *req, struct timespec *rem)
{
	int (*f)(clockid_t, int, const struct timespec *, struct timespec *) = next_clock_nanosleep();
	const uint64_t t0 = ucsan_now_ns();
	const int ret = f ? f(clk, flags, req, rem) : ENOSYS;
	slept_since(t0);
	return ret;
}

NEXT(usleep, int, useconds_t)
UCSAN_EXPORT int usleep(useconds_t us)
{
	int (*f)(useconds_t) = next_usleep();
	const uint64_t t0 = ucsan_now_ns();
	const int ret = f ? f(us) : (errno = ENOSYS, -1);
	slept_since(t0);
	return ret;
}

NEXT(sleep, unsigned int, unsigned int)
UCSAN_EXPORT unsigned int sleep(unsigned int s)
{
	unsigned int (*f)(unsigned int) = next_sleep();
	const uint64_t t0 = ucsan_now_ns();
	const unsigned int ret = f ? f(s) : s;
	slept_since(t0);
	return ret;
}

NEXT(pthread_join, int, pthread_t, void **)
UCSAN_EXPORT int pthread_join(pthread_t t, void **res)
{
	int (*f)(pthread_t, void **) = next_pthread_join();
	const int ret = f ? f(t, res) : ENOSYS;
	woke();
	return ret;
}

NEXT(sem_wait, int, sem_t *)
UCSAN_EXPORT int sem_wait(sem_t *s)
{
	int (*f)(sem_t *) = next_sem_wait();
	const int ret = f ? f(s) : (errno = ENOSYS, -1);
	woke();
	return ret;
}

/* At start-up: each next definition looked up once, so that none is
 * looked up in a signal handler (dlsym is not async-signal-safe). */
void ucsan_wakeups_init(void)
{
	next_nanosleep();
	next_clock_nanosleep();
	next_usleep();
	next_sleep();
	next_pthread_join();
	next_sem_wait();
}
