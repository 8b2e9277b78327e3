// signal(), which ucsan interposes (on top of its sigaction), behaves
// exactly like glibc's: BSD semantics (SA_RESTART, the handler stays), the
// old handler returned, and the action read back as glibc installs it:
// glibc also blocks the signal itself while its handler runs (sa_mask holds
// it) and leaves SA_RESTART out for a signal siginterrupt(sig, 1) was
// called for; SIG_ERR as a handler and bad signal numbers fail with EINVAL
// and change nothing.  Scenario run with ucsan's and with libc's signal()
// (dlsym on libc.so.6), logs compared (interpose.h).
//
// ucsan's used to fail here: its signal() installed an empty sa_mask,
// always set SA_RESTART (siginterrupt() ignored), and accepted SIG_ERR.
// It now has libc's signal() install the action, with its trampoline for
// the handler (src/signals.c).
//
// CFLAGS: -O2 -g -std=gnu11 -Wall -Wextra -Werror
// EXPECT-STDOUT: ^signal: [0-9]+ checks, 0 failed$
// NOT: UCSAN

#include "interpose.h"

/* signal(): BSD semantics in glibc.  Its return values, the action it
 * installs, its errors, and siginterrupt()'s effect on it. */
static void scenario_signal(const struct ip_world *w, struct ip_log *l)
{
	static const int bad[] = { 0, -1, _NSIG, 1000, SIGKILL, SIGSTOP, 32, 33 };
	struct sigaction now;
	sighandler_t r;

	for (int sig = SIGUSR1; sig <= SIGUSR2; sig += SIGUSR2 - SIGUSR1) {
		const sighandler_t hs[] = { ip_h_plain, SIG_IGN, ip_h_plain, SIG_DFL };
		for (size_t i = 0; i < sizeof(hs) / sizeof(hs[0]); i++) {
			errno = IP_SENTINEL;
			r = w->sig(sig, hs[i]);
			ip_note(l, "signal()", (long)(uintptr_t)r, errno, NULL);
			memset(&now, 0, sizeof(now));
			w->sa(sig, NULL, &now);
			ip_note(l, "(read back after signal())", 0, 0, &now);
		}
		ip_sig_reset(sig);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = IP_SENTINEL;
		r = w->sig(bad[i], ip_h_plain);
		ip_note(l, "signal(bad signal)", (long)(uintptr_t)r, errno, NULL);
	}
	/* SIG_ERR is no handler: glibc refuses it. */
	errno = IP_SENTINEL;
	r = w->sig(SIGUSR1, SIG_ERR);
	ip_note(l, "signal(SIGUSR1, SIG_ERR)", (long)(uintptr_t)r, errno, NULL);
	memset(&now, 0, sizeof(now));
	w->sa(SIGUSR1, NULL, &now);
	ip_note(l, "(read back after signal(SIG_ERR))", 0, 0, &now);
	ip_sig_reset(SIGUSR1);
	/* siginterrupt(sig, 1): glibc's signal() then leaves SA_RESTART out.
	 * (siginterrupt is deprecated: called through a pointer.) */
	int (*siginterrupt_fn)(int, int) = (int (*)(int, int))ip_libc_sym("siginterrupt");
	siginterrupt_fn(SIGUSR2, 1);
	errno = IP_SENTINEL;
	r = w->sig(SIGUSR2, ip_h_plain);
	ip_note(l, "signal() after siginterrupt(1)", (long)(uintptr_t)r, errno, NULL);
	memset(&now, 0, sizeof(now));
	w->sa(SIGUSR2, NULL, &now);
	ip_note(l, "(read back after siginterrupt(1) and signal())", 0, 0, &now);
	siginterrupt_fn(SIGUSR2, 0);
	ip_sig_reset(SIGUSR2);
}

int main(void)
{
	const struct ip_world ours = { "ucsan", (ip_sigaction_fn)ip_ucsan_sym("sigaction"),
				       (ip_signal_fn)ip_ucsan_sym("signal") };
	const struct ip_world libc = { "libc", (ip_sigaction_fn)ip_libc_sym("sigaction"),
				       (ip_signal_fn)ip_libc_sym("signal") };

	e2e_require_runtime();
	IP_EXPECT(ours.sig == (ip_signal_fn)signal, "the program's signal is not ucsan's");
	ip_sig_run("signal()", scenario_signal, &ours, &libc);
	return ip_finish("signal");
}
