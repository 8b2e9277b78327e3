// SPDX-License-Identifier: Apache-2.0
/*
 * Thread lifecycle: pthread_create is interposed to count the threads alive
 * (a lone thread races with nobody, so nothing is watched then) and to see
 * each new thread start and end.
 *
 * The end is seen without a pthread key (the program may need all
 * PTHREAD_KEYS_MAX of them): the trampoline that runs the start routine
 * also sees pthread_exit() and cancellation, which unwind through it, as a
 * cleanup handler. A thread that registers thread_local destructors
 * (__cxa_thread_atexit_impl, interposed) ends after them instead, as a
 * destructor registered just before its first: the count falls after the
 * program's last instrumented code there. Registering one at every thread
 * start would order better but takes the loader's lock, and a thread made
 * by a constructor of a library being dlopen()ed, which the constructor
 * waits for, would never get it.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "internal.h"

_Atomic int ucsan_live_threads = 1;

typedef void *(*start_fn)(void *);

struct thread_start {
	start_fn start;
	void *arg;
	int creator, npcs;
	uintptr_t pcs[UCSAN_CREATE_STACK];
};

/* Where this thread is in its ending. */
enum { EXIT_NONE, EXIT_PENDING, EXIT_DEFERRED };
static __thread int exit_state;

/* Runs when the thread ends, before its TLS goes away. */
static void thread_exit(void)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	ucsan_value_check_run(ctx, true);
	ucsan_sites_release(ctx);
	ucsan_thread_info_ended();
	atomic_fetch_sub_explicit(&ucsan_live_threads, 1, memory_order_relaxed);
}

/* The start routine returned, or pthread_exit()/cancellation unwound it. */
static void exit_cleanup(void *unused)
{
	(void)unused;
	if (exit_state == EXIT_PENDING) {
		exit_state = EXIT_NONE;
		thread_exit();
	}
}

/* After the thread's thread_local destructors. */
static void exit_deferred(void *unused)
{
	(void)unused;
	if (exit_state == EXIT_DEFERRED) {
		exit_state = EXIT_NONE;
		thread_exit();
	}
}

static void *thread_trampoline(void *p)
{
	struct thread_start ts = *(struct thread_start *)p;
	free(p);
	ucsan_thread_info_register(ts.creator, ts.pcs, ts.npcs);
	/* Whether it starts parked on a write stall (cold_sites.c) is a
	 * question about its start: a thread that sleeps first -- a timer --
	 * reaches its first access long after, maybe during another stall.
	 * The rest is set up at that first access, as for any thread. */
	if (!ucsan_ctx_tls.initialized)
		ucsan_cold_thread_start(&ucsan_ctx_tls);
	exit_state = EXIT_PENDING;
	void *ret;
	pthread_cleanup_push(exit_cleanup, NULL);
	ret = ts.start(ts.arg);
	pthread_cleanup_pop(1);
	return ret;
}

#ifdef __GLIBC__
typedef int (*thread_atexit_fn)(void (*)(void *), void *, void *);
extern void *__dso_handle __attribute__((visibility("hidden")));

/* What C++ thread_local destructors are registered with (libstdc++ and
 * libc++ call it). */
UCSAN_EXPORT int __cxa_thread_atexit_impl(void (*dtor)(void *), void *obj, void *dso)
{
	static thread_atexit_fn real;
	thread_atexit_fn f = __atomic_load_n(&real, __ATOMIC_ACQUIRE);
	if (!f) {
		f = (thread_atexit_fn)dlsym(RTLD_NEXT, "__cxa_thread_atexit_impl");
		if (!f)
			return -1;
		__atomic_store_n(&real, f, __ATOMIC_RELEASE);
	}
	/* Destructors run last registered first: ours, registered before the
	 * thread's first, runs after its last. */
	if (exit_state == EXIT_PENDING && f(exit_deferred, NULL, &__dso_handle) == 0)
		exit_state = EXIT_DEFERRED;
	return f(dtor, obj, dso);
}
#endif

static int (*real_create)(pthread_t *, const pthread_attr_t *, start_fn, void *);

UCSAN_EXPORT int pthread_create(pthread_t *t, const pthread_attr_t *a, start_fn start, void *arg)
{
	/* Everything before pthread_create() happens before the new thread. */
	ucsan_release_point();
	if (!__atomic_load_n(&real_create, __ATOMIC_ACQUIRE))
		__atomic_store_n(&real_create, dlsym(RTLD_NEXT, "pthread_create"), __ATOMIC_RELEASE);
	int (*f)(pthread_t *, const pthread_attr_t *, start_fn, void *) = __atomic_load_n(&real_create,
											   __ATOMIC_ACQUIRE);
	if (!f)
		return EAGAIN;
	struct thread_start *ts = malloc(sizeof(*ts));
	if (!ts)
		return EAGAIN;
	ts->start = start;
	ts->arg = arg;
	/* Where the thread was made, for the reports that name it. */
	ts->creator = ucsan_gettid();
	ucsan_ctx_tls.disable_count++;
	ts->npcs = ucsan_stack_capture(ts->pcs, UCSAN_CREATE_STACK);
	ucsan_ctx_tls.disable_count--;
	/* The creator's code sites ran while it was alone and were never
	 * watched: from now on they can race, so they are cold again. */
	if (atomic_fetch_add_explicit(&ucsan_live_threads, 1, memory_order_relaxed) == 1) {
		ucsan_sites_reset(&ucsan_ctx_tls);
		ucsan_countdown_threads_begin(&ucsan_ctx_tls);
	}
	int ret = f(t, a, thread_trampoline, ts);
	if (ret != 0) {
		atomic_fetch_sub_explicit(&ucsan_live_threads, 1, memory_order_relaxed);
		free(ts);
	}
	return ret;
}

/* The child of fork() has the forking thread only. */
void ucsan_threads_after_fork(void)
{
	atomic_store_explicit(&ucsan_live_threads, 1, memory_order_relaxed);
	ucsan_sites_after_fork();
	ucsan_thread_info_after_fork();
}

