// SPDX-License-Identifier: Apache-2.0
/*
 * Held watches: a plain access whose watch met nothing, followed at once
 * by a call that blocks -- a pthread lock, a join, a semaphore wait, a
 * sleep -- is watched again for as long as the call blocks
 * (watch_through_waits).
 *
 * The unlocked test of a double-checked initialisation reads NULL, then
 * waits for the lock the initialising thread holds while it stores the
 * pointer; a UI thread reads a download's progress, then joins the worker
 * that keeps writing it; main sets a plain stop flag, then joins the
 * worker that polls it between naps. The two accesses are milliseconds
 * apart, far beyond a stall, yet nothing orders them: the blocked thread
 * has released nothing since its access, and these calls only acquire.
 * So an access made while it blocks is as concurrent with its own as one
 * made during its stall, and the wait costs the program nothing.
 *
 * Held only if the call comes within HELD_GAP_NS of the watch's end and
 * no release of the thread's (an unlock, a release atomic or fence, a
 * post, a thread creation: ctx->release_seq) came between. Condition
 * waits unlock their mutex, and are not held. Only another thread's
 * access that meets the watchpoint is reported, never a change of unknown
 * origin; a held store counts as changing the value if it changed what
 * was there before it, as its value check after a stall would have
 * judged it.
 *
 * A release the runtime cannot see -- an unlock in inline asm, a futex
 * lock in an uninstrumented library -- made in those microseconds could
 * order the other access after this one. So by default
 * (watch_through_waits=1) only a blocking pthread_mutex_lock holds, and
 * only an access made by the thread that owns that mutex meets the hold:
 * the initialiser inside the critical section the blocked thread waits
 * to enter. An unseen lock ordering the two would have to be taken
 * inside that mutex by the owner and alone by the waiter before it
 * blocked. The stress suite's asm spinlock, released between a read and
 * the next region's mutex, was reported when any thread could meet the
 * hold. With 2, joins, semaphore waits, sleeps, rwlocks and spin locks
 * hold too, for any thread's access: for programs whose synchronization
 * the runtime sees entirely.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "internal.h"

#define HELD_GAP_NS 50000
/* The access's innermost frames, taken when its watch ends: by the time
 * another thread meets the hold, the function that made it may have
 * returned. */
#define HELD_STACK 8

/* The thread's latest quiet watch (ptr NULL: none). In the runtime's own
 * TLS: the entry points never read it. */
static __thread struct {
	const volatile void *ptr;
	size_t size;
	int type;
	uintptr_t ip;
	bool have_before;
	struct ucsan_value before; /* a store's: the value it wrote over */
	uint64_t end_ns;
	uint32_t release_seq;
	int npcs;
	uintptr_t pcs[HELD_STACK];
} last;

void ucsan_held_note(const volatile void *ptr, size_t size, int type, uintptr_t ip, const struct ucsan_value *before)
{
	const struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	if (!ucsan_opts.watch_through_waits || ctx->signal_depth)
		return;
	last.ptr = ptr;
	last.size = size;
	last.type = type;
	last.ip = ip;
	last.have_before = before != NULL;
	if (before)
		last.before = *before;
	last.release_seq = ctx->release_seq;
	last.npcs = ucsan_stack_capture(last.pcs, HELD_STACK);
	last.end_ns = ucsan_now_ns();
}

int ucsan_held_stack(uintptr_t *pcs, int max)
{
	const int n = last.npcs < max ? last.npcs : max;
	memcpy(pcs, last.pcs, (size_t)n * sizeof(pcs[0]));
	return n;
}

/* Does the calling thread own the mutex? glibc records the owner's thread
 * id in every mutex it locks (the robust and PI kinds too). */
bool ucsan_held_lock_owner(const pthread_mutex_t *m)
{
	const struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	const int tid = ctx->tid ? ctx->tid : ucsan_gettid();
	return __atomic_load_n(&m->__data.__owner, __ATOMIC_RELAXED) == tid;
}

long ucsan_wait(struct ucsan_wait_call *call)
{
	const struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	const volatile void *ptr = last.ptr;
	if (ptr && !ctx->signal_depth && !ctx->disable_count &&
	    ucsan_opts.watch_through_waits >= (call->mutex ? 1 : 2)) {
		last.ptr = NULL;
		call->err = errno;
		if (ctx->release_seq == last.release_seq && ucsan_now_ns() - last.end_ns <= HELD_GAP_NS &&
		    ucsan_watch_through_call(ptr, last.size, last.type, last.ip, last.have_before ? &last.before : NULL,
					     call)) {
			errno = call->err;
			return call->ret;
		}
	}
	return call->run(call);
}
