// SPDX-License-Identifier: Apache-2.0
/*
 * Barriers for weak_memory: the explicit ucsan_mb/wmb/rmb/release of
 * ucsan.h, and the release operations hidden in the threading library,
 * which are interposed to retire the thread's pending access before they
 * run: unlocking a mutex, spinlock or rwlock (waiting on a condition
 * variable unlocks one too), posting a semaphore, signalling a condition
 * variable and a barrier all publish what came before (creating a thread
 * does too: threads.c). The lock and unlock interposers also count the
 * pthread locks each thread holds, for the cold sites' check-then-set
 * rule (cold_sites.c, watch_beside()); a lock taken and a condition wait
 * are wake-ups too (wakeups.c).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>

#include "internal.h"

UCSAN_EXPORT void ucsan_mb(void)
{
	ucsan_barrier(BARRIER_MB);
}

UCSAN_EXPORT void ucsan_wmb(void)
{
	ucsan_barrier(BARRIER_WMB);
}

UCSAN_EXPORT void ucsan_rmb(void)
{
	ucsan_barrier(BARRIER_RMB);
}

UCSAN_EXPORT void ucsan_release(void)
{
	ucsan_barrier(BARRIER_RELEASE);
}

/* A release: retire, then do the real thing. */
#define RELEASE_OP(name, arg_type)                                                     \
	REAL(name, int, arg_type)                                                      \
	UCSAN_EXPORT int name(arg_type x)                                              \
	{                                                                              \
		ucsan_release_point();                                                 \
		ucsan_sites_wake_call();                                               \
		int (*f)(arg_type) = get_##name();                                     \
		return f ? f(x) : ENOSYS;                                              \
	}

/* An unlock: a release, one lock fewer held, and the lock is what the
 * thread just released (cold_sites.c). */
#define UNLOCK_OP(name, arg_type)                                                      \
	REAL(name, int, arg_type)                                                      \
	UCSAN_EXPORT int name(arg_type x)                                              \
	{                                                                              \
		ucsan_release_point();                                                 \
		int (*f)(arg_type) = get_##name();                                     \
		const int ret = f ? f(x) : ENOSYS;                                     \
		if (ret == 0) {                                                        \
			/* Not the runtime's own locks (a report printed): the         \
			 * program's release stays what its next store follows. */     \
			if (!ucsan_ctx_tls.disable_count)                              \
				ucsan_ctx_tls.released = (uintptr_t)x;                 \
			if (ucsan_ctx_tls.locks_held > 0)                              \
				ucsan_ctx_tls.locks_held--;                            \
		}                                                                      \
		return ret;                                                            \
	}

/* A lock taken: one more held; a cold stall may wait for this lock. */
static int lock_taken(int ret, const volatile void *x)
{
	if (ret == 0) {
		ucsan_ctx_tls.locks_held++;
		ucsan_cold_taken(x);
	}
	ucsan_cold_wakeup();
	return ret;
}

/* A lock that may block: the thread's last access may be held while it
 * waits (held_watches.c), so the real call goes through ucsan_wait();
 * `mutex` names a pthread mutex, whose owner alone may meet the hold. */
#define LOCK_OP(name, arg_type, mutex)                                                 \
	REAL(name, int, arg_type)                                                      \
	struct name##_call {                                                           \
		struct ucsan_wait_call c;                                              \
		int (*f)(arg_type);                                                    \
		arg_type x;                                                            \
	};                                                                             \
	static long run_##name(struct ucsan_wait_call *c)                              \
	{                                                                              \
		const struct name##_call *l = (const struct name##_call *)c;           \
		return l->f(l->x);                                                     \
	}                                                                              \
	UCSAN_EXPORT int name(arg_type x)                                              \
	{                                                                              \
		struct name##_call l = { { run_##name, 0, 0, false, mutex }, get_##name(), x }; \
		return lock_taken(l.f ? (int)ucsan_wait(&l.c) : ENOSYS, x);            \
	}

/* One that never blocks. */
#define TRYLOCK_OP(name, arg_type)                                                     \
	REAL(name, int, arg_type)                                                      \
	UCSAN_EXPORT int name(arg_type x)                                              \
	{                                                                              \
		int (*f)(arg_type) = get_##name();                                     \
		return lock_taken(f ? f(x) : ENOSYS, x);                               \
	}

UNLOCK_OP(pthread_mutex_unlock, pthread_mutex_t *)
UNLOCK_OP(pthread_spin_unlock, pthread_spinlock_t *)
UNLOCK_OP(pthread_rwlock_unlock, pthread_rwlock_t *)
LOCK_OP(pthread_mutex_lock, pthread_mutex_t *, x)
TRYLOCK_OP(pthread_mutex_trylock, pthread_mutex_t *)
LOCK_OP(pthread_spin_lock, pthread_spinlock_t *, NULL)
TRYLOCK_OP(pthread_spin_trylock, pthread_spinlock_t *)
LOCK_OP(pthread_rwlock_rdlock, pthread_rwlock_t *, NULL)
LOCK_OP(pthread_rwlock_wrlock, pthread_rwlock_t *, NULL)
TRYLOCK_OP(pthread_rwlock_tryrdlock, pthread_rwlock_t *)
TRYLOCK_OP(pthread_rwlock_trywrlock, pthread_rwlock_t *)
RELEASE_OP(pthread_cond_signal, pthread_cond_t *)
RELEASE_OP(pthread_cond_broadcast, pthread_cond_t *)
RELEASE_OP(sem_post, sem_t *)
RELEASE_OP(pthread_barrier_wait, pthread_barrier_t *)

/* Waiting on a condition variable unlocks its mutex (a release, made
 * before the call), and the thread comes back with it taken again. */
static int cond_woken(int ret, const volatile void *m)
{
	ucsan_cold_taken(m);
	ucsan_cold_wakeup();
	return ret;
}

REAL(pthread_cond_wait, int, pthread_cond_t *, pthread_mutex_t *)
UCSAN_EXPORT int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	ucsan_release_point();
	int (*f)(pthread_cond_t *, pthread_mutex_t *) = get_pthread_cond_wait();
	ucsan_sites_waiting(true);
	const int ret = f ? f(c, m) : ENOSYS;
	ucsan_sites_waiting(false);
	return cond_woken(ret, m);
}

REAL(pthread_cond_timedwait, int, pthread_cond_t *, pthread_mutex_t *, const struct timespec *)
UCSAN_EXPORT int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *t)
{
	ucsan_release_point();
	int (*f)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *) = get_pthread_cond_timedwait();
	return cond_woken(f ? f(c, m, t) : ENOSYS, m);
}

/* libstdc++'s condition_variable::wait_for and wait_until wait here. */
REAL(pthread_cond_clockwait, int, pthread_cond_t *, pthread_mutex_t *, clockid_t, const struct timespec *)
UCSAN_EXPORT int pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clk, const struct timespec *t)
{
	ucsan_release_point();
	int (*f)(pthread_cond_t *, pthread_mutex_t *, clockid_t, const struct timespec *) =
		get_pthread_cond_clockwait();
	return cond_woken(f ? f(c, m, clk, t) : ENOSYS, m);
}

/* Timed locks (std::timed_mutex, C11's mtx_timedlock): taken as any lock,
 * not held (held_watches.c) -- they may give up. */
REAL(pthread_mutex_timedlock, int, pthread_mutex_t *, const struct timespec *)
UCSAN_EXPORT int pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *t)
{
	int (*f)(pthread_mutex_t *, const struct timespec *) = get_pthread_mutex_timedlock();
	return lock_taken(f ? f(m, t) : ENOSYS, m);
}

REAL(pthread_mutex_clocklock, int, pthread_mutex_t *, clockid_t, const struct timespec *)
UCSAN_EXPORT int pthread_mutex_clocklock(pthread_mutex_t *m, clockid_t clk, const struct timespec *t)
{
	int (*f)(pthread_mutex_t *, clockid_t, const struct timespec *) = get_pthread_mutex_clocklock();
	return lock_taken(f ? f(m, clk, t) : ENOSYS, m);
}

/* For tests: the size of the thread's pending (reorderable) access, 0 if
 * none. Not part of the public API. */
UCSAN_EXPORT size_t __ucsan_debug_pending_access(void)
{
	return ucsan_ctx_tls.reorder.size;
}
