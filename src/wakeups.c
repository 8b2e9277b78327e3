// SPDX-License-Identifier: Apache-2.0
/*
 * Wake-ups: returning from a sleep, a join or a semaphore wait. A thread
 * parked by another's write stall runs its sites warm until that stall
 * ends, and learns that it ended on its next slow-path entry -- which a
 * thread that polls a flag between sleeps, touching a word or two per
 * turn, may not reach for a long time. So it also looks here, where it
 * wakes, and its next poll is watched again. (Locks and condition
 * variables look in barriers.c.) A sleep is also noted where it begins:
 * a cold store may stall until it ends (cold_sleeper_us).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

/* After a sleep that began at `t0`: how long it lasted, measured rather
 * than read from its arguments (which may be bad pointers, or the time
 * left written over the time asked). */
static void slept_since(uint64_t t0)
{
	ucsan_thread_info_sleep(0);
	ucsan_cold_slept(ucsan_now_ns() - t0);
}

/* A sleep of ns beginning at t0 (ns 0: not known). */
static void sleeping(uint64_t t0, uint64_t ns)
{
	if (ns)
		ucsan_thread_info_sleep(t0 + ns);
}

/* A relative sleep's length, read safely (0 if unreadable or absurd). */
static uint64_t sleep_ns(const struct timespec *req)
{
	struct timespec ts;
	if (!req || !ucsan_read_memory(req, &ts, sizeof(ts)) || ts.tv_sec < 0 || ts.tv_nsec < 0 ||
	    ts.tv_sec > 1000000)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

REAL(nanosleep, int, const struct timespec *, struct timespec *)
UCSAN_EXPORT int nanosleep(const struct timespec *req, struct timespec *rem)
{
	int (*f)(const struct timespec *, struct timespec *) = get_nanosleep();
	const uint64_t t0 = ucsan_now_ns();
	sleeping(t0, sleep_ns(req));
	const int ret = f ? f(req, rem) : (errno = ENOSYS, -1);
	slept_since(t0);
	return ret;
}

REAL(clock_nanosleep, int, clockid_t, int, const struct timespec *, struct timespec *)
UCSAN_EXPORT int clock_nanosleep(clockid_t clk, int flags, const struct timespec *req, struct timespec *rem)
{
	int (*f)(clockid_t, int, const struct timespec *, struct timespec *) = get_clock_nanosleep();
	const uint64_t t0 = ucsan_now_ns();
	if (!(flags & TIMER_ABSTIME))
		sleeping(t0, sleep_ns(req));
	const int ret = f ? f(clk, flags, req, rem) : ENOSYS;
	slept_since(t0);
	return ret;
}

REAL(usleep, int, useconds_t)
UCSAN_EXPORT int usleep(useconds_t us)
{
	int (*f)(useconds_t) = get_usleep();
	const uint64_t t0 = ucsan_now_ns();
	sleeping(t0, (uint64_t)us * 1000);
	const int ret = f ? f(us) : (errno = ENOSYS, -1);
	slept_since(t0);
	return ret;
}

REAL(sleep, unsigned int, unsigned int)
UCSAN_EXPORT unsigned int sleep(unsigned int s)
{
	unsigned int (*f)(unsigned int) = get_sleep();
	const uint64_t t0 = ucsan_now_ns();
	sleeping(t0, (uint64_t)s * 1000000000ULL);
	const unsigned int ret = f ? f(s) : s;
	slept_since(t0);
	return ret;
}

REAL(pthread_join, int, pthread_t, void **)
UCSAN_EXPORT int pthread_join(pthread_t t, void **res)
{
	int (*f)(pthread_t, void **) = get_pthread_join();
	ucsan_sites_waiting(true);
	const int ret = f ? f(t, res) : ENOSYS;
	ucsan_sites_waiting(false);
	ucsan_cold_wakeup();
	return ret;
}

REAL(sem_wait, int, sem_t *)
UCSAN_EXPORT int sem_wait(sem_t *s)
{
	int (*f)(sem_t *) = get_sem_wait();
	ucsan_sites_waiting(true);
	const int ret = f ? f(s) : (errno = ENOSYS, -1);
	ucsan_sites_waiting(false);
	ucsan_cold_wakeup();
	return ret;
}

/* At start-up: each next definition looked up once, so that none is
 * looked up in a signal handler (dlsym is not async-signal-safe). */
void ucsan_wakeups_init(void)
{
	get_nanosleep();
	get_clock_nanosleep();
	get_usleep();
	get_sleep();
	get_pthread_join();
	get_sem_wait();
}
