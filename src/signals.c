// SPDX-License-Identifier: Apache-2.0
/*
 * Signal handlers are to user space what interrupts are to the kernel. To
 * know when a thread runs one (for udelay_interrupt, for "by signal handler
 * in thread T", and to keep the report path async-signal-safe), the
 * program's handlers are installed behind a trampoline that counts the
 * nesting depth in the thread's context. sigaction() and signal() are
 * interposed; what the program reads back is always its own action.
 *
 * Each install takes a slot of its own: a record of the program's handler
 * and a trampoline function of its own, installed with the program's flags
 * and mask unchanged. The kernel's action then names its record by itself,
 * so concurrent installs cannot mix one call's handler with another's flags
 * (the kernel swaps whole actions), and nothing needs a lock: all of this
 * is async-signal-safe and fork-safe. A slot is free again once the kernel
 * no longer holds its trampoline, which exactly one party sees: the install
 * that replaced it (the old action the kernel hands back), a failed install,
 * or, for a one-shot (SA_RESETHAND) handler, its delivery.
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
typedef sighandler_t (*signal_fn)(int, sighandler_t);

static sigaction_fn real_sigaction;
static signal_fn real_signal;

/*
 * Slots per signal. A slot keeps the handler it was last given, and an
 * install of that handler again takes the same slot: a delivery of an older
 * install (the kernel took the action, the thread has not yet entered the
 * trampoline) then still finds its handler, however many installs came
 * since. Only a handler new to the signal rewrites a slot, one that no
 * install holds, the least recently claimed first. A trampoline replaced
 * behind our back (sysv_signal(), a raw system call) keeps its slot
 * forever. With none free, the handler is installed as it is, unseen by
 * the runtime but working as without it.
 */
#define SLOTS 16

enum { KIND_SIGINFO = 1, KIND_ONESHOT = 2 };

/* In a slot's state: its record is being written. The rest is how many
 * installs hold it (the kernel's, and those under way). */
#define WRITING 0x80000000u

static struct slot {
	_Atomic unsigned state;
	_Atomic int kind;
	_Atomic(void *) handler;
} slots[_NSIG][SLOTS];

/* Where each signal's search for a slot to rewrite starts. */
static _Atomic unsigned next_slot[_NSIG];

static void slot_put(int sig, int k)
{
	_Atomic unsigned *state = &slots[sig][k].state;
	unsigned st = atomic_load_explicit(state, memory_order_relaxed);
	/* Never below zero, should a trampoline come back behind our back. */
	while ((st & ~WRITING) != 0 &&
	       !atomic_compare_exchange_weak_explicit(state, &st, st - 1, memory_order_release, memory_order_relaxed))
		;
}

static inline void run_handler(int sig, int k, siginfo_t *info, void *uctx)
{
	if (sig <= 0 || sig >= _NSIG)
		return;
	struct slot *s = &slots[sig][k];
	void *h = atomic_load_explicit(&s->handler, memory_order_acquire);
	int kind = atomic_load_explicit(&s->kind, memory_order_relaxed);
	/* The kernel reset a one-shot action as it delivered it. */
	if (kind & KIND_ONESHOT)
		slot_put(sig, k);
	struct ucsan_ctx *ctx = &ucsan_ctx_tls;
	ctx->signal_depth++;
	if (kind & KIND_SIGINFO)
		((void (*)(int, siginfo_t *, void *))h)(sig, info, uctx);
	else if (h)
		((void (*)(int))h)(sig);
	ctx->signal_depth--;
}

/* One function per slot: its address is what tells slots apart. */
#define TRAMPOLINE(k)                                                                   \
	static void trampoline##k(int sig, siginfo_t *info, void *uctx)                 \
	{                                                                               \
		run_handler(sig, k, info, uctx);                                        \
	}
TRAMPOLINE(0) TRAMPOLINE(1) TRAMPOLINE(2) TRAMPOLINE(3) TRAMPOLINE(4) TRAMPOLINE(5) TRAMPOLINE(6) TRAMPOLINE(7)
TRAMPOLINE(8) TRAMPOLINE(9) TRAMPOLINE(10) TRAMPOLINE(11) TRAMPOLINE(12) TRAMPOLINE(13) TRAMPOLINE(14)
TRAMPOLINE(15)

static void (*const trampolines[SLOTS])(int, siginfo_t *, void *) = {
	trampoline0, trampoline1, trampoline2,	trampoline3,  trampoline4,  trampoline5,  trampoline6,  trampoline7,
	trampoline8, trampoline9, trampoline10, trampoline11, trampoline12, trampoline13, trampoline14, trampoline15,
};

/* The slot whose trampoline @h is, or -1. */
static int slot_of(void *h)
{
	for (int k = 0; k < SLOTS; k++)
		if (h == (void *)trampolines[k])
			return k;
	return -1;
}

/* A slot of @sig holding the program's handler, or -1 if none can. */
static int slot_claim(int sig, void *h, int kind)
{
	for (int k = 0; k < SLOTS; k++) {
		struct slot *s = &slots[sig][k];
		unsigned st = atomic_load_explicit(&s->state, memory_order_acquire);
		if ((st & WRITING) || atomic_load_explicit(&s->handler, memory_order_relaxed) != h ||
		    atomic_load_explicit(&s->kind, memory_order_relaxed) != kind)
			continue;
		if (!atomic_compare_exchange_strong(&s->state, &st, st + 1))
			continue;
		/* Held now, so no longer rewritten: was it ours still? */
		if (atomic_load_explicit(&s->handler, memory_order_relaxed) == h &&
		    atomic_load_explicit(&s->kind, memory_order_relaxed) == kind)
			return k;
		slot_put(sig, k);
	}
	const unsigned start = atomic_fetch_add_explicit(&next_slot[sig], 1, memory_order_relaxed);
	for (unsigned i = 0; i < SLOTS; i++) {
		const int k = (int)((start + i) % SLOTS);
		struct slot *s = &slots[sig][k];
		unsigned expect = 0;
		if (atomic_compare_exchange_strong(&s->state, &expect, WRITING | 1)) {
			atomic_store_explicit(&s->kind, kind, memory_order_relaxed);
			atomic_store_explicit(&s->handler, h, memory_order_release);
			atomic_fetch_and_explicit(&s->state, ~WRITING, memory_order_release);
			return k;
		}
	}
	return -1;
}

static bool resolve(void)
{
	if (!real_signal)
		real_signal = (signal_fn)dlsym(RTLD_NEXT, "signal");
	if (!real_sigaction)
		real_sigaction = (sigaction_fn)dlsym(RTLD_NEXT, "sigaction");
	return real_sigaction != NULL;
}

/*
 * A copy of @src (NULL: all zero) without memcpy() or memset(), which clang
 * calls for struct copies: the runtime's own would check them as the
 * program's accesses (and may stall there, with every signal blocked).
 */
static void copy_action(struct sigaction *dst, const struct sigaction *src)
{
	volatile unsigned char *d = (volatile unsigned char *)dst;
	const volatile unsigned char *s = (const volatile unsigned char *)src;
	for (size_t i = 0; i < sizeof(*dst); i++)
		d[i] = s ? s[i] : 0;
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

/*
 * The program's handler for @h, one the kernel held: its own for one of
 * our trampolines, SIG_DFL for our SIGTERM/SIGINT handler. With @replaced,
 * the kernel no longer holds it: its slot is free again.
 */
static void *program_handler(int sig, void *h, bool replaced)
{
	if (h == (void *)summary_then_default)
		return (void *)SIG_DFL;
	const int k = slot_of(h);
	if (k < 0)
		return h;
	void *mine = atomic_load_explicit(&slots[sig][k].handler, memory_order_acquire);
	if (replaced)
		slot_put(sig, k);
	return mine;
}

UCSAN_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *oact)
{
	if (!resolve()) {
		errno = ENOSYS;
		return -1;
	}
	if (sig <= 0 || sig >= _NSIG)
		return real_sigaction(sig, act, oact);

	struct sigaction mine, old;
	const struct sigaction *use = act;
	int k = -1;
	if (act) {
		const bool siginfo = (act->sa_flags & SA_SIGINFO) != 0;
		void *h = siginfo ? (void *)act->sa_sigaction : (void *)act->sa_handler;
		if (is_real_handler(h)) {
			k = slot_claim(sig, h,
				       (siginfo ? KIND_SIGINFO : 0) | ((act->sa_flags & SA_RESETHAND) ? KIND_ONESHOT : 0));
			if (k >= 0) {
				/* The same action, with our trampoline for the handler
				 * (whichever member the flags select). */
				copy_action(&mine, act);
				mine.sa_sigaction = trampolines[k];
				use = &mine;
			}
		}
	}
	/* The old action always, to free the slot of a trampoline replaced. */
	struct sigaction *o = oact ? oact : &old;
	const int r = real_sigaction(sig, use, o);
	if (r != 0) {
		if (k >= 0)
			slot_put(sig, k);
		return r;
	}
	if (o->sa_handler == summary_then_default) {
		/* Ours stands for the default action, as if never set. */
		copy_action(o, NULL);
		o->sa_handler = SIG_DFL;
		sigemptyset(&o->sa_mask);
	} else {
		/* Installed with the program's own flags: only the handler
		 * differs (sa_handler and sa_sigaction share their storage). */
		o->sa_sigaction = (void (*)(int, siginfo_t *, void *))program_handler(sig, (void *)o->sa_handler,
										       act != NULL);
	}
	return r;
}

/*
 * glibc's signal(): BSD semantics. libc's own does the install, with our
 * trampoline for the handler, so that the action is exactly glibc's: the
 * signal blocked while its handler runs, SA_RESTART unless siginterrupt()
 * said otherwise (which only libc knows), its errors (SIG_ERR as handler,
 * bad signal numbers: EINVAL).
 */
UCSAN_EXPORT sighandler_t signal(int sig, sighandler_t handler)
{
	if (!resolve()) {
		errno = ENOSYS;
		return SIG_ERR;
	}
	if (!real_signal) {
		/* A libc without signal(): what glibc's does. */
		if (handler == SIG_ERR || sig <= 0 || sig >= _NSIG) {
			errno = EINVAL;
			return SIG_ERR;
		}
		struct sigaction act, old;
		memset(&act, 0, sizeof(act));
		act.sa_handler = handler;
		sigemptyset(&act.sa_mask);
		sigaddset(&act.sa_mask, sig);
		act.sa_flags = SA_RESTART;
		if (sigaction(sig, &act, &old) != 0)
			return SIG_ERR;
		return old.sa_handler;
	}

	sighandler_t use = handler;
	int k = -1;
	if (sig > 0 && sig < _NSIG && is_real_handler((void *)handler)) {
		k = slot_claim(sig, (void *)handler, 0);
		if (k >= 0)
			use = (sighandler_t)(void (*)(void))trampolines[k];
	}
	/* Success and failure both may return SIG_ERR (an old handler of -1):
	 * only a failure sets errno. */
	const int saved = errno;
	errno = 0;
	sighandler_t old = real_signal(sig, use);
	if (old == SIG_ERR && errno != 0) {
		if (k >= 0)
			slot_put(sig, k);
		return SIG_ERR;
	}
	errno = saved;
	if (sig > 0 && sig < _NSIG)
		old = (sighandler_t)program_handler(sig, (void *)old, true);
	return old;
}
