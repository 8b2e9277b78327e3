// SPDX-License-Identifier: Apache-2.0
/*
 * Signal handlers are to user space what interrupts are to the kernel. To
 * know when a thread runs one (for udelay_interrupt, for "by signal handler
 * in thread T", and to keep the report path async-signal-safe), the
 * program's handlers are installed behind a trampoline that counts the
 * nesting depth in the thread's context. sigaction() and signal() are
 * interposed; what the program reads back is always its own handler.
 *
 * SIGTERM and SIGINT, while the program leaves them at their default
 * action, get a handler of ours: a test runner that ends a program on a
 * timeout would otherwise lose the "reported N data races" line. It prints
 * the summary, then ends the process as the signal would have (default
 * action, re-raised), so the exit status is unchanged. The program sees
 * SIG_DFL there, and any disposition it sets replaces ours.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);

static sigaction_fn real_sigaction;

/* The program's handler per signal, and whether it takes siginfo. */
static struct {
	_Atomic(void *) handler;
	_Atomic int siginfo;
} user_handlers[_NSIG];

static void trampoline(int sig, siginfo_t *info, void *uctx)
{
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	void *h = atomic_load_explicit(&user_handlers[sig].handler, memory_order_acquire);
	ctx->signal_depth++;
	if (atomic_load_explicit(&user_handlers[sig].siginfo, memory_order_relaxed))
		((void (*)(int, siginfo_t *, void *))h)(sig, info, uctx);
	else if (h)
		((void (*)(int))h)(sig);
	ctx->signal_depth--;
}

static bool resolve(void)
{
	if (!real_sigaction)
		real_sigaction = (sigaction_fn)dlsym(RTLD_NEXT, "sigaction");
	return real_sigaction != NULL;
}

static void summary_then_default(int sig)
{
	ucsan_report_summary();
	struct sigaction dfl;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	real_sigaction(sig, &dfl, NULL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	raise(sig);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

void ucsan_signals_init(void)
{
	if (!resolve())
		return;
	static const int ending[] = { SIGTERM, SIGINT };
	for (size_t i = 0; i < sizeof(ending) / sizeof(ending[0]); i++) {
		struct sigaction cur, mine;
		if (real_sigaction(ending[i], NULL, &cur) != 0 || (cur.sa_flags & SA_SIGINFO) ||
		    cur.sa_handler != SIG_DFL)
			continue; /* the program's (or its parent's SIG_IGN): untouched */
		memset(&mine, 0, sizeof(mine));
		mine.sa_handler = summary_then_default;
		sigemptyset(&mine.sa_mask);
		real_sigaction(ending[i], &mine, NULL);
	}
}

static bool is_real_handler(void *h)
{
	return h != (void *)SIG_DFL && h != (void *)SIG_IGN && h != (void *)SIG_ERR;
}

UCSAN_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *oact)
{
	if (!resolve()) {
		errno = ENOSYS;
		return -1;
	}
	if (sig <= 0 || sig >= _NSIG)
		return real_sigaction(sig, act, oact);

	struct sigaction mine;
	const struct sigaction *use = act;
	void *h = NULL;
	int siginfo = 0;
	if (act) {
		siginfo = (act->sa_flags & SA_SIGINFO) != 0;
		h = siginfo ? (void *)act->sa_sigaction : (void *)act->sa_handler;
		if (is_real_handler(h)) {
			mine = *act;
			mine.sa_flags |= SA_SIGINFO;
			mine.sa_sigaction = trampoline;
			use = &mine;
		}
	}
	/* Publish the handler before the trampoline can run for it. */
	void *prev = atomic_load(&user_handlers[sig].handler);
	int prev_siginfo = atomic_load(&user_handlers[sig].siginfo);
	if (act && is_real_handler(h)) {
		atomic_store(&user_handlers[sig].siginfo, siginfo);
		atomic_store(&user_handlers[sig].handler, h);
	}
	int r = real_sigaction(sig, use, oact);
	if (r != 0 && act && is_real_handler(h)) {
		atomic_store(&user_handlers[sig].handler, prev);
		atomic_store(&user_handlers[sig].siginfo, prev_siginfo);
	}
	if (r == 0 && oact && !(oact->sa_flags & SA_SIGINFO) && oact->sa_handler == summary_then_default) {
		/* Ours stands for the default action. */
		memset(oact, 0, sizeof(*oact));
		oact->sa_handler = SIG_DFL;
		sigemptyset(&oact->sa_mask);
	}
	if (r == 0 && oact && oact->sa_sigaction == trampoline) {
		/* Show the program its own previous handler, not ours. */
		if (prev_siginfo) {
			oact->sa_sigaction = (void (*)(int, siginfo_t *, void *))prev;
		} else {
			oact->sa_flags &= ~SA_SIGINFO;
			oact->sa_handler = (void (*)(int))prev;
		}
	}
	return r;
}

/* glibc's signal(): BSD semantics, i.e. SA_RESTART and a sticky handler. */
UCSAN_EXPORT sighandler_t signal(int sig, sighandler_t handler)
{
	struct sigaction act, old;
	memset(&act, 0, sizeof(act));
	act.sa_handler = handler;
	act.sa_flags = SA_RESTART;
	sigemptyset(&act.sa_mask);
	if (sigaction(sig, &act, &old) != 0)
		return SIG_ERR;
	return old.sa_handler;
}
