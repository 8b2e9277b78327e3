// sigaction() called by two threads at once for the same signal: with
// libc's, each call installs its action whole (the kernel does it in one
// step), so the call that finishes last decides the action in force.
// ucsan's publishes the program's handler for its trampoline first and
// installs the trampoline (with the caller's flags and mask) after, two
// steps another thread's call can come between.
//
// Made deterministic by single-stepping thread A through its sigaction
// (the trap flag): when A is at the rt_sigaction system call itself, the
// SIGTRAP handler lets thread B make its whole sigaction call, waits for
// it, stops stepping and lets A's system call go, the last.  A installs
// handler A with SA_RESTART and SIGUSR2 blocked, B handler B with neither.
// With libc's sigaction (dlsym on libc.so.6) the action in force is then
// A's, whole; ucsan's must give the same: the action read back and the
// handler that runs on raise() are A's.
//
// ucsan's used to fail here (handler B ran, and was read back, with A's
// flags and mask); each install now has a trampoline and record of its own,
// so the kernel's action names its handler by itself (src/signals.c).
//
// CFLAGS: -O2 -g -std=gnu11 -Wall -Wextra -Werror
// EXPECT-STDOUT: ^sigaction_concurrent: [0-9]+ checks, 0 failed$
// NOT: UCSAN

#include "interpose.h"

#include <sys/syscall.h>

#define ROUNDS 5

static volatile sig_atomic_t ran; /* 1: handler A ran, 2: handler B */
static void handler_a(int sig)
{
	(void)sig;
	ran = 1;
}
static void handler_b(int sig)
{
	(void)sig;
	ran = 2;
}

static ip_sigaction_fn sa_fn;
static struct sigaction act[2];
static int b_go, b_done, b_quit; /* B's round to start, round done, exit */
static volatile sig_atomic_t stepping, caught;

/* Thread B: one whole sigaction call whenever A's handler asks. */
static void *thread_b(void *arg)
{
	(void)arg;
	for (int i = 1;; i++) {
		while (__atomic_load_n(&b_go, __ATOMIC_ACQUIRE) < i)
			if (__atomic_load_n(&b_quit, __ATOMIC_ACQUIRE))
				return NULL;
			else
				e2e_sleep_ms(1);
		if (sa_fn(SIGUSR1, &act[1], NULL))
			e2e_die("sigaction B", errno);
		__atomic_store_n(&b_done, i, __ATOMIC_RELEASE);
	}
}

/* Each instruction of A while stepping: at A's rt_sigaction system call,
 * B's call goes first; then A runs on unstepped. */
static IP_NOSAN void on_step(int sig, siginfo_t *si, void *ucp)
{
	ucontext_t *uc = ucp;
	const unsigned char *ip = (const unsigned char *)uc->uc_mcontext.gregs[REG_RIP];

	(void)sig, (void)si;
	if (!stepping)
		return;
	if (ip[0] == 0x0f && ip[1] == 0x05 && uc->uc_mcontext.gregs[REG_RAX] == SYS_rt_sigaction) {
		const int round = __atomic_load_n(&b_go, __ATOMIC_RELAXED) + 1;
		__atomic_store_n(&b_go, round, __ATOMIC_RELEASE);
		while (__atomic_load_n(&b_done, __ATOMIC_ACQUIRE) < round)
			;
		caught = 1;
		stepping = 0;
		uc->uc_mcontext.gregs[REG_EFL] &= ~0x100;
	}
}

/* Thread A's call (here the main thread), stepped. */
static IP_NOSAN int install_a_stepped(void)
{
	int r;

	stepping = 1;
	__asm__ __volatile__("pushfq; orq $0x100, (%%rsp); popfq" ::: "memory", "cc");
	r = sa_fn(SIGUSR1, &act[0], NULL);
	/* Not stepping any more (the handler cleared the flag); in case no
	 * system call was seen, clear it here. */
	stepping = 0;
	__asm__ __volatile__("pushfq; andq $~0x100, (%%rsp); popfq" ::: "memory", "cc");
	return r;
}

static void rounds(const char *name, ip_sigaction_fn fn)
{
	pthread_t b;

	sa_fn = fn;
	b_go = b_done = b_quit = 0;
	b = e2e_spawn(thread_b, NULL);
	for (int i = 0; i < ROUNDS; i++) {
		struct sigaction now;
		caught = 0;
		if (install_a_stepped())
			e2e_die("sigaction A", errno);
		IP_EXPECT(caught, "%s: A's rt_sigaction system call was not seen", name);
		memset(&now, 0, sizeof(now));
		fn(SIGUSR1, NULL, &now);
		ran = 0;
		raise(SIGUSR1);
		if (i == 0)
			printf("%s sigaction: in force after A's call (the last): handler %s, flags%s, mask%s; "
			       "handler %s ran\n",
			       name, now.sa_handler == handler_a ? "A" : now.sa_handler == handler_b ? "B" : "?",
			       (now.sa_flags & SA_RESTART) ? " SA_RESTART" : " without SA_RESTART",
			       sigismember(&now.sa_mask, SIGUSR2) ? " {SIGUSR2}" : " {}",
			       ran == 1 ? "A" : ran == 2 ? "B" : "none");
		IP_EXPECT(now.sa_handler == handler_a && (now.sa_flags & SA_RESTART) &&
				  sigismember(&now.sa_mask, SIGUSR2),
			  "%s sigaction: the action in force is not the one the last call installed", name);
		IP_EXPECT(ran == 1, "%s sigaction: handler %s ran, not the one the last call installed", name,
			  ran == 2 ? "B" : "none");
		ip_sig_reset(SIGUSR1);
	}
	__atomic_store_n(&b_quit, 1, __ATOMIC_RELEASE);
	e2e_join(b);
}

int main(void)
{
	struct sigaction trap;

	e2e_require_runtime();
	memset(act, 0, sizeof(act));
	act[0].sa_handler = handler_a;
	act[0].sa_flags = SA_RESTART;
	sigemptyset(&act[0].sa_mask);
	sigaddset(&act[0].sa_mask, SIGUSR2);
	act[1].sa_handler = handler_b;
	sigemptyset(&act[1].sa_mask);
	memset(&trap, 0, sizeof(trap));
	trap.sa_sigaction = on_step;
	trap.sa_flags = SA_SIGINFO;
	sigemptyset(&trap.sa_mask);
	if (sigaction(SIGTRAP, &trap, NULL))
		e2e_die("sigaction SIGTRAP", errno);

	rounds("libc's", (ip_sigaction_fn)ip_libc_sym("sigaction"));
	rounds("ucsan's", (ip_sigaction_fn)ip_ucsan_sym("sigaction"));
	return ip_finish("sigaction_concurrent");
}
