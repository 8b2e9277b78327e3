// sigaction(), which ucsan interposes (the program's handlers run behind a
// trampoline; SIGTERM and SIGINT get a summary handler while the program
// leaves them alone), behaves exactly like libc's own: the same return
// values and errno, on success and on every error path (bad signal numbers,
// SIGKILL/SIGSTOP, glibc's internal signals), the same old action reported
// back (handler, flags, mask, restorer) whatever was installed before, the
// same arguments, errno and blocked signals inside the handler.  Each
// scenario runs twice on the same signals, once with ucsan's sigaction and
// once with libc's (dlsym on libc.so.6); the two logs must be equal
// (interpose.h).  SIGTERM and SIGINT must read back as never-touched
// signals do.
//
// CFLAGS: -O2 -g -std=gnu11 -Wall -Wextra -Werror
// EXPECT-STDOUT: ^sigaction: [0-9]+ checks, 0 failed$
// NOT: UCSAN

#include "interpose.h"

/* Handlers with each set of flags and masks, replaced by each other and by
 * SIG_IGN and SIG_DFL: every old action as installed. */
static void scenario_install(const struct ip_world *w, struct ip_log *l)
{
	static const int flag_sets[] = { 0, SA_RESTART, SA_NODEFER, SA_RESETHAND, SA_ONSTACK | SA_RESTART,
					 SA_RESTART | SA_NODEFER | SA_RESETHAND };
	struct sigaction act;

	for (size_t f = 0; f < sizeof(flag_sets) / sizeof(flag_sets[0]); f++) {
		for (int m = 0; m < 2; m++) {
			const int sig = m ? SIGUSR1 : SIGRTMIN + 2;
			memset(&act, 0, sizeof(act));
			sigemptyset(&act.sa_mask);
			if (m) {
				sigaddset(&act.sa_mask, SIGUSR2);
				sigaddset(&act.sa_mask, SIGHUP);
				sigaddset(&act.sa_mask, SIGRTMIN + 3);
			}
			act.sa_flags = flag_sets[f];
			act.sa_handler = ip_h_plain;
			ip_set_and_read(w, l, "plain handler", sig, &act);
			act.sa_flags = flag_sets[f] | SA_SIGINFO;
			act.sa_sigaction = ip_h_info;
			ip_set_and_read(w, l, "siginfo handler", sig, &act);
			act.sa_flags = flag_sets[f];
			act.sa_handler = ip_h_plain;
			ip_set_and_read(w, l, "plain handler again", sig, &act);
			act.sa_handler = SIG_IGN;
			ip_set_and_read(w, l, "SIG_IGN", sig, &act);
			act.sa_handler = ip_h_plain;
			ip_set_and_read(w, l, "plain handler after SIG_IGN", sig, &act);
			act.sa_handler = SIG_DFL;
			ip_set_and_read(w, l, "SIG_DFL", sig, &act);
			/* act and oact the same object */
			act.sa_handler = ip_h_plain;
			act.sa_flags = flag_sets[f];
			errno = IP_SENTINEL;
			int r = w->sa(sig, &act, &act);
			ip_note(l, "act == oact", r, errno, &act);
			ip_set_and_read(w, l, "(after act == oact)", sig, NULL);
			ip_sig_reset(sig);
		}
	}
}

/* Bad signal numbers and actions that cannot be set. */
static void scenario_errors(const struct ip_world *w, struct ip_log *l)
{
	static const int sigs[] = { 0, -1, _NSIG, _NSIG + 1, 1000, SIGKILL, SIGSTOP, 32, 33 };
	struct sigaction act, old;

	memset(&act, 0, sizeof(act));
	sigemptyset(&act.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		act.sa_handler = ip_h_plain;
		ip_set_and_read(w, l, "handler for a bad signal", sigs[i], &act);
		act.sa_flags = SA_SIGINFO;
		act.sa_sigaction = ip_h_info;
		ip_set_and_read(w, l, "siginfo handler for a bad signal", sigs[i], &act);
		act.sa_flags = 0;
		act.sa_handler = SIG_IGN;
		ip_set_and_read(w, l, "SIG_IGN for a bad signal", sigs[i], &act);
		act.sa_handler = SIG_DFL;
		ip_set_and_read(w, l, "SIG_DFL for a bad signal", sigs[i], &act);
	}
	errno = IP_SENTINEL;
	ip_note(l, "sigaction(SIGUSR1, NULL, NULL)", w->sa(SIGUSR1, NULL, NULL), errno, NULL);
	memset(&old, 0, sizeof(old));
	errno = IP_SENTINEL;
	int r = w->sa(SIGKILL, NULL, &old);
	ip_note(l, "read SIGKILL", r, errno, &old);
}

/* Delivery: what the handler gets (signal, siginfo, context, errno, the
 * blocked set), and the action afterwards.  One-shot handlers:
 * sigaction_oneshot.c. */
static void scenario_delivery(const struct ip_world *w, struct ip_log *l)
{
	ip_deliver(w, l, 0);
	ip_deliver(w, l, SA_NODEFER);
	ip_deliver(w, l, SA_RESTART | SA_ONSTACK);
}

int main(void)
{
	const struct ip_world ours = { "ucsan", (ip_sigaction_fn)ip_ucsan_sym("sigaction"),
				       (ip_signal_fn)ip_ucsan_sym("signal") };
	const struct ip_world libc = { "libc", (ip_sigaction_fn)ip_libc_sym("sigaction"),
				       (ip_signal_fn)ip_libc_sym("signal") };
	struct sigaction term, raw, pristine, act, old;
	static struct ip_log l_ours, l_libc;

	e2e_require_runtime();
	IP_EXPECT(ours.sa == (ip_sigaction_fn)sigaction, "the program's sigaction is not ucsan's");

	/* SIGTERM and SIGINT, which ucsan handles while the program leaves them
	 * alone, read back (and are replaced) as never-touched signals do
	 * (SIGWINCH, read with libc's sigaction, is one). */
	memset(&pristine, 0, sizeof(pristine));
	libc.sa(SIGWINCH, NULL, &pristine);
	ip_note(&l_libc, "never-touched signal", 0, 0, &pristine);
	for (int sig = SIGINT; sig <= SIGTERM; sig += SIGTERM - SIGINT) {
		const char *name = sig == SIGTERM ? "SIGTERM" : "SIGINT";
		char what[64];
		memset(&raw, 0, sizeof(raw));
		libc.sa(sig, NULL, &raw);
		if (raw.sa_handler == SIG_IGN) { /* inherited: ucsan leaves it alone */
			printf("%s is ignored (inherited): not checked\n", name);
			continue;
		}
		/* What the kernel has is ucsan's handler: something to hide. */
		IP_EXPECT(raw.sa_handler != SIG_DFL, "%s: ucsan's handler is not installed", name);
		memset(&term, 0, sizeof(term));
		errno = IP_SENTINEL;
		int r = sigaction(sig, NULL, &term);
		IP_EXPECT(r == 0 && errno == IP_SENTINEL, "sigaction(%s, NULL, &old): %d, errno %d", name, r, errno);
		l_ours.n = 0;
		ip_note(&l_ours, "never-touched signal", 0, 0, &term);
		snprintf(what, sizeof(what), "%s before the program set it", name);
		ip_compare_logs(what, &l_ours, &l_libc);
		memset(&act, 0, sizeof(act));
		memset(&old, 0, sizeof(old));
		act.sa_handler = SIG_IGN;
		sigaction(sig, &act, &old);
		l_ours.n = 0;
		ip_note(&l_ours, "never-touched signal", 0, 0, &old);
		snprintf(what, sizeof(what), "%s's old action", name);
		ip_compare_logs(what, &l_ours, &l_libc);
		sigaction(sig, &old, NULL);
		IP_EXPECT(signal(sig, SIG_DFL) == SIG_DFL, "signal(%s, SIG_DFL) did not return SIG_DFL", name);
	}

	ip_sig_run("installing handlers", scenario_install, &ours, &libc);
	ip_sig_run("error paths", scenario_errors, &ours, &libc);
	ip_sig_run("delivery", scenario_delivery, &ours, &libc);
	return ip_finish("sigaction");
}
