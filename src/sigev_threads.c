// SPDX-License-Identifier: Apache-2.0
/*
 * SIGEV_THREAD notifications (timer_create, mq_notify). glibc runs each
 * notification in a thread it makes itself, inside libc, past the
 * pthread_create() interposer: uncounted, a process whose second thread is
 * a timer callback would seem to have one (GATE_ALONE: nothing checked),
 * and the callback's thread would be nobody in the reports. So the
 * notification function handed to libc is ours: it runs the program's as
 * a counted thread, named as made by the thread that set the notification
 * up, where it did.
 *
 * libc's helper thread, which waits for the expiries and starts those
 * threads, lives until exit: once it exists the process is never alone
 * again (ucsan_threads_add_hidden()), or the program's own threads would
 * go unchecked between two notifications.
 *
 * What the program asked for is kept in a fixed table, never freed: libc
 * copies the function and value at each expiry and may start the thread
 * after the timer is gone, so an entry must outlive every timer that
 * used it. A request with the same function and value reuses its entry;
 * with the table full, the notification goes to libc as it was (its
 * thread uncounted, as before).
 */
#include <dlfcn.h>
#include <mqueue.h>
#include <signal.h>
#include <time.h>

#include "internal.h"

struct sigev_entry {
	_Atomic int state; /* 0 free, 1 being filled, 2 ready */
	void (*fn)(union sigval);
	union sigval value;
	int creator, npcs;
	uintptr_t pcs[UCSAN_CREATE_STACK];
};

#define SIGEV_ENTRIES 256
static struct sigev_entry entries[SIGEV_ENTRIES];

static void *notify(void *p)
{
	const struct sigev_entry *e = p;
	e->fn(e->value);
	return NULL;
}

/* What libc's notification thread runs. */
static void sigev_thread(union sigval v)
{
	const struct sigev_entry *e = v.sival_ptr;
	ucsan_thread_run_foreign(notify, (void *)e, e->creator, e->pcs, e->npcs);
}

static struct sigev_entry *entry_for(const struct sigevent *evp)
{
	for (int i = 0; i < SIGEV_ENTRIES; i++) {
		struct sigev_entry *e = &entries[i];
		if (atomic_load_explicit(&e->state, memory_order_acquire) == 2 &&
		    e->fn == evp->sigev_notify_function && e->value.sival_ptr == evp->sigev_value.sival_ptr)
			return e;
	}
	for (int i = 0; i < SIGEV_ENTRIES; i++) {
		struct sigev_entry *e = &entries[i];
		int expect = 0;
		if (!atomic_compare_exchange_strong(&e->state, &expect, 1))
			continue;
		e->fn = evp->sigev_notify_function;
		e->value = evp->sigev_value;
		e->creator = ucsan_gettid();
		ucsan_ctx_tls.disable_count++;
		e->npcs = ucsan_stack_capture(e->pcs, UCSAN_CREATE_STACK);
		ucsan_ctx_tls.disable_count--;
		atomic_store_explicit(&e->state, 2, memory_order_release);
		return e;
	}
	return NULL;
}

static bool thread_notification(const struct sigevent *evp)
{
	return evp && evp->sigev_notify == SIGEV_THREAD;
}

/* The request libc gets: ours for a SIGEV_THREAD one, else evp itself. */
static const struct sigevent *wrap(const struct sigevent *evp, struct sigevent *copy)
{
	if (!thread_notification(evp) || !evp->sigev_notify_function)
		return evp;
	struct sigev_entry *e;
	UCSAN_KEEP_ERRNO(e = entry_for(evp));
	if (!e)
		return evp;
	*copy = *evp;
	copy->sigev_notify_function = sigev_thread;
	copy->sigev_value.sival_ptr = e;
	return copy;
}

REAL(timer_create, int, clockid_t, struct sigevent *, timer_t *)
UCSAN_EXPORT int timer_create(clockid_t clk, struct sigevent *restrict evp, timer_t *restrict timerid)
{
	int (*f)(clockid_t, struct sigevent *, timer_t *) = get_timer_create();
	if (!f)
		return errno = ENOSYS, -1;
	struct sigevent copy;
	const struct sigevent *ev = wrap(evp, &copy);
	const int ret = f(clk, (struct sigevent *)ev, timerid);
	if (ret == 0 && thread_notification(evp))
		UCSAN_KEEP_ERRNO(ucsan_threads_add_hidden(HIDDEN_TIMER_HELPER));
	return ret;
}

REAL(mq_notify, int, mqd_t, const struct sigevent *)
UCSAN_EXPORT int mq_notify(mqd_t mq, const struct sigevent *evp)
{
	int (*f)(mqd_t, const struct sigevent *) = get_mq_notify();
	if (!f)
		return errno = ENOSYS, -1;
	struct sigevent copy;
	const struct sigevent *ev = wrap(evp, &copy);
	const int ret = f(mq, ev);
	if (ret == 0 && thread_notification(evp))
		UCSAN_KEEP_ERRNO(ucsan_threads_add_hidden(HIDDEN_MQ_HELPER));
	return ret;
}
