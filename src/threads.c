// SPDX-License-Identifier: Apache-2.0
/*
 * Thread lifecycle: pthread_create is interposed to count the threads alive
 * (a lone thread races with nobody, so nothing is watched then) and to see
 * each new thread start and end.
 *
 * The end is seen with a pthread key of the runtime's own, whose destructor
 * runs after the program's thread_local destructors and, a round later,
 * after its key destructors (a per-thread cache handed back to a pool at
 * exit, say): the thread is counted until then, and that code is checked
 * as any other, cold sites and all. (Counted out earlier, the last worker's
 * destructors ran while the process looked single-threaded: unchecked.)
 * The trampoline that runs the start routine also sees pthread_exit() and
 * cancellation, which unwind through it, as a cleanup handler; it ends the
 * thread there if the key could not be had or set, or was given up to
 * the program (which may use all PTHREAD_KEYS_MAX keys: see
 * pthread_key_create() below), and a thread that registers
 * thread_local destructors (__cxa_thread_atexit_impl, interposed) then
 * ends after them instead, as a destructor registered just before its
 * first.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

_Atomic int ucsan_live_threads = 1;
/* Threads with annotation state (ucsan_ctx.special), and whether this
 * one is counted there (until it ends). */
static _Atomic int special_threads;
static __thread bool special_counted;
/* The context of the thread bringing the gate in line with the two
 * counts, or NULL. */
static _Atomic(const struct ucsan_ctx *) alone_lock;

/* Every change of ucsan_live_threads is followed by this (and every change
 * of special_threads while one thread is left): under the lock, the last
 * to run reads the last counts, so two threads changing them at once (one
 * ending, one being made) leave the gate right. */
void ucsan_threads_alone_update(void)
{
	const struct ucsan_ctx *const me = &ucsan_ctx_tls;
	for (;;) {
		const struct ucsan_ctx *holder = NULL;
		if (atomic_compare_exchange_weak(&alone_lock, &holder, me))
			break;
		/* A signal handler that interrupted this very update: rather
		 * than wait for itself, it only lets the gate open (checking
		 * more is always safe). */
		if (holder == me) {
			ucsan_gate_set_alone(false);
			return;
		}
		ucsan_cpu_relax();
	}
	/* Again if a handler of this thread changed a count meanwhile. */
	bool alone;
	do {
		alone = ucsan_single_threaded() && atomic_load(&special_threads) == 0;
		ucsan_gate_set_alone(alone);
	} while (alone != (ucsan_single_threaded() && atomic_load(&special_threads) == 0));
	atomic_store_explicit(&alone_lock, NULL, memory_order_release);
}

/* Seq-cst count, then seq-cst read of the thread count: a thread ending
 * meanwhile either sees the new count or is seen to have ended. */
void ucsan_threads_special_changed(bool special)
{
	if (special == special_counted)
		return;
	special_counted = special;
	atomic_fetch_add(&special_threads, special ? 1 : -1);
	if (atomic_load(&ucsan_live_threads) <= 1)
		ucsan_threads_alone_update();
}

typedef void *(*start_fn)(void *);

struct thread_start {
	start_fn start;
	int (*c11_start)(void *); /* instead, for thrd_create() */
	void *arg;
	int creator, npcs;
	uintptr_t pcs[UCSAN_CREATE_STACK];
	bool keyed; /* a thread of its own: ends at the runtime's key */
	uint64_t refilled; /* bytes at arg its creator refilled (cold_sites.c) */
};

/* The calling thread is about to have company (or is the company: a
 * thread libc made, counted at its start). */
static void count_new_thread(void)
{
	/* The creator's code sites ran while it was alone and were never
	 * watched: from now on they can race, so they are cold again. */
	if (atomic_fetch_add(&ucsan_live_threads, 1) == 1) {
		ucsan_sites_reset(&ucsan_ctx_tls);
		ucsan_countdown_threads_begin(&ucsan_ctx_tls);
	}
	ucsan_threads_alone_update();
}

/* A counted thread is gone (or was never made). */
static void count_thread_gone(void)
{
	ucsan_sites_wake_call(); /* its joiner's */
	atomic_fetch_sub(&ucsan_live_threads, 1);
	ucsan_threads_alone_update();
}

/* Where this thread is in its ending. */
enum { EXIT_NONE, EXIT_PENDING, EXIT_DEFERRED, EXIT_AT_KEY };
static __thread int exit_state;
/* The runtime's key, set in each thread it starts; and how many rounds of
 * key destructors this thread has seen. */
static pthread_key_t exit_key;
static _Atomic int exit_key_state; /* 0: not yet made, 1: made, -1: none to be had */
static __thread bool exit_keyed;
static __thread int exit_key_rounds;

/* Runs when the thread ends, before its TLS goes away. */
static void thread_exit(void)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	ucsan_value_check_run(ctx, true);
	ucsan_sites_release(ctx);
	ucsan_thread_info_ended();
	ucsan_threads_special_changed(false);
	count_thread_gone();
}

/* The start routine returned, or pthread_exit()/cancellation unwound it:
 * the end, or the wait for the key's destructor. */
static void exit_cleanup(void *unused)
{
	(void)unused;
	if (exit_state == EXIT_PENDING) {
		const bool at_key = exit_keyed && atomic_load(&exit_key_state) == 1;
		exit_state = at_key ? EXIT_AT_KEY : EXIT_NONE;
		if (!at_key)
			thread_exit();
	}
}

/* After the thread's thread_local destructors (no key). */
static void exit_deferred(void *unused)
{
	(void)unused;
	if (exit_state == EXIT_DEFERRED) {
		exit_state = EXIT_NONE;
		thread_exit();
	}
}

/* glibc calls key destructors in rounds, while any value is set: set
 * again in the first, the key is there for the second, which begins only
 * once every destructor of the first (the program's) has run. */
static void exit_key_destructor(void *value)
{
	if (exit_state != EXIT_AT_KEY)
		return;
	if (exit_key_rounds++ == 0 && pthread_setspecific(exit_key, value) == 0)
		return;
	exit_state = EXIT_NONE;
	thread_exit();
}

REAL(pthread_key_create, int, pthread_key_t *, void (*)(void *))

static int key_create(pthread_key_t *key, void (*dtor)(void *))
{
	int (*f)(pthread_key_t *, void (*)(void *)) = get_pthread_key_create();
	return f ? f(key, dtor) : EAGAIN;
}

/* Made once, by the first pthread_create(): a call the program makes
 * itself, where taking glibc's key lock is safe. */
static void exit_key_make(void)
{
	if (atomic_load(&exit_key_state) != 0)
		return;
	pthread_key_t k;
	const int ok = key_create(&k, exit_key_destructor) == 0;
	int expected = 0;
	if (ok) {
		exit_key = k;
		if (!atomic_compare_exchange_strong(&exit_key_state, &expected, 1))
			pthread_key_delete(k); /* another thread made it first */
	} else {
		atomic_compare_exchange_strong(&exit_key_state, &expected, -1);
	}
}

/*
 * The program may have every key glibc has (PTHREAD_KEYS_MAX): when it
 * runs out, the runtime's is given up to it, and threads end at the
 * cleanup handler from then on. (A thread already waiting for the key's
 * destructor then stays counted: the process is never taken for
 * single-threaded again, which costs only speed.)
 */
UCSAN_EXPORT int pthread_key_create(pthread_key_t *key, void (*dtor)(void *))
{
	int r = key_create(key, dtor);
	int expected = 1;
	if (r == EAGAIN && atomic_compare_exchange_strong(&exit_key_state, &expected, -1)) {
		pthread_key_delete(exit_key);
		r = key_create(key, dtor);
	}
	return r;
}

/* A counted thread's life: named, its start noted, ended by thread_exit()
 * however it ends (return, pthread_exit(), cancellation). */
static void *run_thread(const struct thread_start *ts)
{
	ucsan_thread_info_register(ts->creator, ts->pcs, ts->npcs);
	/* Whether it starts parked on a write stall (cold_sites.c) is a
	 * question about its start: a thread that sleeps first -- a timer --
	 * reaches its first access long after, maybe during another stall.
	 * The rest is set up at that first access, as for any thread. */
	if (!ucsan_ctx_tls.initialized)
		ucsan_cold_thread_start(&ucsan_ctx_tls, ts->arg, ts->refilled);
	exit_state = EXIT_PENDING;
	exit_keyed = ts->keyed && atomic_load(&exit_key_state) == 1 && pthread_setspecific(exit_key, (void *)1) == 0;
	void *ret;
	pthread_cleanup_push(exit_cleanup, NULL);
	/* A C11 thread's int result travels as a pointer, as glibc's does. */
	ret = ts->c11_start ? (void *)(intptr_t)ts->c11_start(ts->arg) : ts->start(ts->arg);
	pthread_cleanup_pop(1);
	return ret;
}

static void *thread_trampoline(void *p)
{
	struct thread_start ts = *(struct thread_start *)p;
	free(p);
	ts.keyed = true;
	return run_thread(&ts);
}

void ucsan_thread_run_foreign(void *(*start)(void *), void *arg, int creator, const uintptr_t *pcs, int npcs)
{
	struct thread_start ts = { .start = start, .arg = arg, .creator = creator };
	ts.npcs = npcs < UCSAN_CREATE_STACK ? npcs : UCSAN_CREATE_STACK;
	memcpy(ts.pcs, pcs, (size_t)ts.npcs * sizeof(ts.pcs[0]));
	/* Counted only now: its first access is its own, after this. */
	count_new_thread();
	run_thread(&ts);
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
	 * thread's first, runs after its last. A keyed thread ends after
	 * them anyway. */
	if (exit_state == EXIT_PENDING && !exit_keyed && f(exit_deferred, NULL, &__dso_handle) == 0)
		exit_state = EXIT_DEFERRED;
	return f(dtor, obj, dso);
}
#endif

REAL(pthread_create, int, pthread_t *, const pthread_attr_t *, start_fn, void *)


/* Kinds of threads libc keeps for the program until exit (each counted
 * once, for good; none survives fork). */
static _Atomic unsigned hidden_threads;

void ucsan_threads_add_hidden(unsigned kind)
{
	if (!(atomic_fetch_or(&hidden_threads, kind) & kind))
		count_new_thread();
}

UCSAN_EXPORT int pthread_create(pthread_t *t, const pthread_attr_t *a, start_fn start, void *arg)
{
	return ucsan_thread_create(t, a, start, NULL, arg);
}

int ucsan_thread_create(pthread_t *t, const pthread_attr_t *a, void *(*start)(void *), int (*c11_start)(void *),
			void *arg)
{
	/* Everything before pthread_create() happens before the new thread. */
	ucsan_release_point();
	int (*f)(pthread_t *, const pthread_attr_t *, start_fn, void *) = get_pthread_create();
	if (!f)
		return EAGAIN;
	exit_key_make();
	struct thread_start *ts = malloc(sizeof(*ts));
	if (!ts)
		return EAGAIN;
	ts->start = start;
	ts->c11_start = c11_start;
	ts->arg = arg;
	/* Where the thread was made, for the reports that name it. */
	ts->creator = ucsan_gettid();
	ucsan_ctx_tls.disable_count++;
	ts->npcs = ucsan_stack_capture(ts->pcs, UCSAN_CREATE_STACK);
	ucsan_ctx_tls.disable_count--;
	/* What of the creator's stack the thread gets (cold_sites.c). */
	ucsan_cold_stack_handed(arg);
	ts->refilled = ucsan_cold_arg_handed(arg);
	/* Before the thread exists: its first access must be checked. */
	count_new_thread();
	ucsan_sampler_start();
	int ret = f(t, a, thread_trampoline, ts);
	if (ret != 0) {
		count_thread_gone();
		free(ts);
	}
	return ret;
}

/* The child of fork() has the forking thread only. */
void ucsan_threads_after_fork(void)
{
	atomic_store_explicit(&ucsan_live_threads, 1, memory_order_relaxed);
	atomic_store_explicit(&hidden_threads, 0, memory_order_relaxed);
	atomic_store_explicit(&special_threads, special_counted ? 1 : 0, memory_order_relaxed);
	atomic_store_explicit(&alone_lock, NULL, memory_order_relaxed);
	ucsan_threads_alone_update();
	ucsan_sites_after_fork();
	ucsan_sampler_after_fork();
	ucsan_thread_info_after_fork();
}

