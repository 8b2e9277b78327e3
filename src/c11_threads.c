// SPDX-License-Identifier: Apache-2.0
/*
 * C11 <threads.h>. glibc implements these on its pthread functions, but
 * calls them inside libc, past the interposers: a thread made by
 * thrd_create() would go uncounted (a process that seems to have one
 * thread checks nothing: GATE_ALONE), and its joins, locks and sleeps
 * would not be the wake-ups and releases the cold-site rules know.
 * Each is made here from the public pthread function -- ours where we
 * interpose it -- with glibc's own mapping of the result.
 */
#include <threads.h>
#include <time.h>

#include "internal.h"

_Static_assert(sizeof(thrd_t) == sizeof(pthread_t), "thrd_t is a pthread_t");
_Static_assert(sizeof(mtx_t) == sizeof(pthread_mutex_t), "mtx_t is a pthread_mutex_t");
_Static_assert(sizeof(cnd_t) == sizeof(pthread_cond_t), "cnd_t is a pthread_cond_t");

/* glibc's thrd_err_map(). */
static int thrd_result(int err)
{
	switch (err) {
	case 0:
		return thrd_success;
	case ENOMEM:
		return thrd_nomem;
	case ETIMEDOUT:
		return thrd_timedout;
	case EBUSY:
		return thrd_busy;
	default:
		return thrd_error;
	}
}

UCSAN_EXPORT int thrd_create(thrd_t *thr, thrd_start_t func, void *arg)
{
	return thrd_result(ucsan_thread_create((pthread_t *)thr, NULL, NULL, func, arg));
}

UCSAN_EXPORT int thrd_join(thrd_t thr, int *res)
{
	void *ret;
	const int err = pthread_join((pthread_t)thr, &ret);
	if (err == 0 && res)
		*res = (int)(intptr_t)ret;
	return thrd_result(err);
}

/* 0, -1 if a signal interrupted it, another negative value on error. */
UCSAN_EXPORT int thrd_sleep(const struct timespec *duration, struct timespec *remaining)
{
	const int err = clock_nanosleep(CLOCK_REALTIME, 0, duration, remaining);
	return err == 0 ? 0 : err == EINTR ? -1 : -2;
}

/* libc's makes the system call itself: through sched_yield() here, a
 * wake-up like any yield (wakeups.c). */
UCSAN_EXPORT void thrd_yield(void)
{
	sched_yield();
}

UCSAN_EXPORT int mtx_lock(mtx_t *m)
{
	return thrd_result(pthread_mutex_lock((pthread_mutex_t *)m));
}

UCSAN_EXPORT int mtx_trylock(mtx_t *m)
{
	return thrd_result(pthread_mutex_trylock((pthread_mutex_t *)m));
}

UCSAN_EXPORT int mtx_timedlock(mtx_t *restrict m, const struct timespec *restrict ts)
{
	return thrd_result(pthread_mutex_timedlock((pthread_mutex_t *)m, ts));
}

UCSAN_EXPORT int mtx_unlock(mtx_t *m)
{
	return thrd_result(pthread_mutex_unlock((pthread_mutex_t *)m));
}

UCSAN_EXPORT int cnd_wait(cnd_t *c, mtx_t *m)
{
	return thrd_result(pthread_cond_wait((pthread_cond_t *)c, (pthread_mutex_t *)m));
}

UCSAN_EXPORT int cnd_timedwait(cnd_t *restrict c, mtx_t *restrict m, const struct timespec *restrict ts)
{
	return thrd_result(pthread_cond_timedwait((pthread_cond_t *)c, (pthread_mutex_t *)m, ts));
}
