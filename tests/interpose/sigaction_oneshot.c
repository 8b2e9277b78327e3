// sigaction() after a one-shot handler (SA_RESETHAND) has run: the kernel
// has reset the signal to SIG_DFL, and the old action read back must be
// what libc's sigaction reports, flags included.  Scenario run with ucsan's
// and with libc's sigaction, logs compared (interpose.h).
//
// ucsan's used to fail here: a plain handler (no SA_SIGINFO) was installed
// behind the trampoline with SA_SIGINFO added, so after the reset the
// program was shown SA_SIGINFO, which it never set.  The trampoline is now
// installed with the program's flags unchanged (src/signals.c).
//
// CFLAGS: -O2 -g -std=gnu11 -Wall -Wextra -Werror
// EXPECT-STDOUT: ^sigaction_oneshot: [0-9]+ checks, 0 failed$
// NOT: UCSAN

#include "interpose.h"

static void scenario_oneshot(const struct ip_world *w, struct ip_log *l)
{
	ip_deliver(w, l, SA_RESETHAND);
	ip_deliver(w, l, SA_RESETHAND | SA_NODEFER);
}

int main(void)
{
	const struct ip_world ours = { "ucsan", (ip_sigaction_fn)ip_ucsan_sym("sigaction"), NULL };
	const struct ip_world libc = { "libc", (ip_sigaction_fn)ip_libc_sym("sigaction"), NULL };

	e2e_require_runtime();
	ip_sig_run("one-shot handler", scenario_oneshot, &ours, &libc);
	return ip_finish("sigaction_oneshot");
}
