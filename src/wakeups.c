// SPDX-License-Identifier: Apache-2.0
/*
 * Wake-ups: returning from a sleep, a yield, a join or a semaphore wait.
 * A thread parked by another's write stall runs its sites warm until that
 * stall ends, and learns that it ended on its next slow-path entry --
 * which a thread that polls a flag between sleeps, touching a word or two
 * per turn, may not reach for a long time. So it also looks here, where it
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

/* Each real call below goes through ucsan_wait(): the thread's last access
 * may be held while it blocks (held_watches.c). */

REAL(nanosleep, int, const struct timespec *, struct timespec *)
struct nanosleep_call {
	struct ucsan_wait_call c;
	int (*f)(const struct timespec *, struct timespec *);
	const struct timespec *req;
	struct timespec *rem;
};
static long run_nanosleep(struct ucsan_wait_call *c)
{
	const struct nanosleep_call *n = (const struct nanosleep_call *)c;
	return n->f(n->req, n->rem);
}
UCSAN_EXPORT int nanosleep(const struct timespec *req, struct timespec *rem)
{
	struct nanosleep_call n = { { run_nanosleep, 0, 0, false, NULL }, get_nanosleep(), req, rem };
	const uint64_t t0 = ucsan_now_ns();
	sleeping(t0, sleep_ns(req));
	const int ret = n.f ? (int)ucsan_wait(&n.c) : (errno = ENOSYS, -1);
	slept_since(t0);
	return ret;
}

REAL(clock_nanosleep, int, clockid_t, int, const struct timespec *, struct timespec *)
struct clock_nanosleep_call {
	struct ucsan_wait_call c;
	int (*f)(clockid_t, int, const struct timespec *, struct timespec *);
	clockid_t clk;
	int flags;
	const struct timespec *req;
	struct timespec *rem;
};
static long run_clock_nanosleep(struct ucsan_wait_call *c)
{
	const struct clock_nanosleep_call *n = (const struct clock_nanosleep_call *)c;
	return n->f(n->clk, n->flags, n->req, n->rem);
}
UCSAN_EXPORT int clock_nanosleep(clockid_t clk, int flags, const struct timespec *req, struct timespec *rem)
{
	struct clock_nanosleep_call n = { { run_clock_nanosleep, 0, 0, false, NULL }, get_clock_nanosleep(), clk, flags,
					  req, rem };
	const uint64_t t0 = ucsan_now_ns();
	if (!(flags & TIMER_ABSTIME))
		sleeping(t0, sleep_ns(req));
	const int ret = n.f ? (int)ucsan_wait(&n.c) : ENOSYS;
	slept_since(t0);
	return ret;
}

REAL(usleep, int, useconds_t)
struct usleep_call {
	struct ucsan_wait_call c;
	int (*f)(useconds_t);
	useconds_t us;
};
static long run_usleep(struct ucsan_wait_call *c)
{
	const struct usleep_call *u = (const struct usleep_call *)c;
	return u->f(u->us);
}
UCSAN_EXPORT int usleep(useconds_t us)
{
	struct usleep_call u = { { run_usleep, 0, 0, false, NULL }, get_usleep(), us };
	const uint64_t t0 = ucsan_now_ns();
	sleeping(t0, (uint64_t)us * 1000);
	const int ret = u.f ? (int)ucsan_wait(&u.c) : (errno = ENOSYS, -1);
	slept_since(t0);
	return ret;
}

REAL(sleep, unsigned int, unsigned int)
struct sleep_call {
	struct ucsan_wait_call c;
	unsigned int (*f)(unsigned int);
	unsigned int s;
};
static long run_sleep(struct ucsan_wait_call *c)
{
	const struct sleep_call *z = (const struct sleep_call *)c;
	return (long)z->f(z->s);
}
UCSAN_EXPORT unsigned int sleep(unsigned int s)
{
	struct sleep_call z = { { run_sleep, 0, 0, false, NULL }, get_sleep(), s };
	const uint64_t t0 = ucsan_now_ns();
	sleeping(t0, (uint64_t)s * 1000000000ULL);
	const unsigned int ret = z.f ? (unsigned int)ucsan_wait(&z.c) : s;
	slept_since(t0);
	return ret;
}

/* A yield is a sleep when the thread was kept off its CPU: a thread that
 * polls a flag with sched_yield() between turns (a collector waiting for
 * a job's "done", a consumer for a ring's head) on a busy machine comes
 * back milliseconds later, to the reads that race, just as from
 * nanosleep(). Not run through ucsan_wait(): it does not block. */
REAL(sched_yield, int, void)
UCSAN_EXPORT int sched_yield(void)
{
	int (*f)(void) = get_sched_yield();
	const bool wakes = ucsan_opts.cold_yield_sleeps;
	const uint64_t t0 = wakes ? ucsan_now_ns() : 0;
	const int ret = f ? f() : 0;
	/* No sleep was noted where it began (sleeping()): only its end. */
	if (wakes)
		ucsan_cold_slept(ucsan_now_ns() - t0);
	return ret;
}

REAL(pthread_join, int, pthread_t, void **)
struct join_call {
	struct ucsan_wait_call c;
	int (*f)(pthread_t, void **);
	pthread_t t;
	void **res;
};
static long run_join(struct ucsan_wait_call *c)
{
	const struct join_call *j = (const struct join_call *)c;
	return j->f(j->t, j->res);
}
UCSAN_EXPORT int pthread_join(pthread_t t, void **res)
{
	struct join_call j = { { run_join, 0, 0, false, NULL }, get_pthread_join(), t, res };
	ucsan_sites_waiting(true);
	const int ret = j.f ? (int)ucsan_wait(&j.c) : ENOSYS;
	ucsan_sites_waiting(false);
	ucsan_cold_wakeup();
	return ret;
}

REAL(sem_wait, int, sem_t *)
struct sem_wait_call {
	struct ucsan_wait_call c;
	int (*f)(sem_t *);
	sem_t *s;
};
static long run_sem_wait(struct ucsan_wait_call *c)
{
	const struct sem_wait_call *w = (const struct sem_wait_call *)c;
	return w->f(w->s);
}
UCSAN_EXPORT int sem_wait(sem_t *s)
{
	struct sem_wait_call w = { { run_sem_wait, 0, 0, false, NULL }, get_sem_wait(), s };
	ucsan_sites_waiting(true);
	const int ret = w.f ? (int)ucsan_wait(&w.c) : (errno = ENOSYS, -1);
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
	get_sched_yield();
	get_pthread_join();
	get_sem_wait();
}
