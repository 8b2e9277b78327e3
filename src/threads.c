// SPDX-License-Identifier: Apache-2.0
/*
 * Thread lifecycle: pthread_create is interposed to count the threads alive
 * (a lone thread races with nobody, so nothing is watched then) and to see
 * each new thread start and end. The count falls when a thread ends, by
 * returning or by pthread_exit, through a key destructor.
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

static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

/* Runs when the thread ends, before its TLS goes away. */
static void thread_exit(void *unused)
{
	(void)unused;
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	ucsan_value_check_run(ctx, true);
	ucsan_sites_release(ctx);
	ucsan_thread_info_ended();
	atomic_fetch_sub_explicit(&ucsan_live_threads, 1, memory_order_relaxed);
}

static void make_exit_key(void)
{
	if (pthread_key_create(&exit_key, thread_exit) != 0)
		exit_key = (pthread_key_t)-1;
}

static void *thread_trampoline(void *p)
{
	struct thread_start ts = *(struct thread_start *)p;
	free(p);
	ucsan_thread_info_register(ts.creator, ts.pcs, ts.npcs);
	/* Any non-NULL value makes the destructor run. */
	if (exit_key == (pthread_key_t)-1 || pthread_setspecific(exit_key, &exit_key) != 0)
		atomic_fetch_sub_explicit(&ucsan_live_threads, 1, memory_order_relaxed);
	return ts.start(ts.arg);
}

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
	pthread_once(&exit_key_once, make_exit_key);
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
	if (atomic_fetch_add_explicit(&ucsan_live_threads, 1, memory_order_relaxed) == 1)
		ucsan_sites_reset(&ucsan_ctx_tls);
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

