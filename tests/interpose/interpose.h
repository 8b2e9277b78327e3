/*
 * Helpers shared by tests/interpose/: programs that check that what ucsan
 * interposes on (libc functions) or stands in for (compiler builtins, via
 * the __tsan_* entry points) behaves exactly like the original: the same
 * return values, the same memory results, the same errno, and the same
 * individual loads and stores.
 *
 * Include this first (it defines _GNU_SOURCE).  Everything is static, so
 * each test stays one translation unit.  Failed checks print a line
 * starting with "e2e: " (the harness fails the test on it) and are counted;
 * ip_finish() prints "NAME: N checks, F failed" and gives the exit status.
 *
 * The original of a libc function comes from libc itself:
 * dlsym(dlopen("libc.so.6"), name) finds libc's definition, where the
 * program's own references (and dlsym(RTLD_DEFAULT, name)) find ucsan's.
 *
 * Access tracing (ip_trace) makes the loads and stores of one operation
 * visible without any timing: the pages it works on are made inaccessible,
 * every access to them faults, the SIGSEGV handler records the faulting
 * address, whether it was a write (the page-fault error code) and the
 * instruction, opens the pages and single-steps that one instruction (the
 * trap flag), and the SIGTRAP handler closes them again.  An access that
 * is split into pieces shows as one fault per piece (the size of an
 * access is not seen, only where it starts).  x86-64 only (the trap flag,
 * the page-fault error code).  ucsan's own reads of watched memory go
 * through process_vm_readv and never fault, so they do not show.
 */
#ifndef UCSAN_INTERPOSE_H
#define UCSAN_INTERPOSE_H

#if !defined(__x86_64__)
#error "tests/interpose trace accesses with x86-64's trap flag and page-fault error code"
#endif

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "e2e.h"

/* Test machinery that must not itself be instrumented (signal handlers,
 * reference implementations of the builtins). */
#define IP_NOSAN __attribute__((no_sanitize("thread"), noinline))

/* Not an errno value: what errno holds before a call whose errno is checked. */
#define IP_SENTINEL 0x5eed

static int ip_checks, ip_failures;

static E2E_UNUSED __attribute__((format(printf, 2, 3))) void ip_fail(int line, const char *fmt, ...)
{
	va_list ap;

	if (ip_failures++ >= 20) {
		if (ip_failures == 21)
			fprintf(stderr, "e2e: (more failed checks not shown)\n");
		return;
	}
	fprintf(stderr, "e2e: line %d: ", line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Count a check; on failure print the message (printf format) and go on. */
#define IP_EXPECT(cond, ...)                                                   \
	do {                                                                   \
		ip_checks++;                                                   \
		if (!(cond))                                                   \
			ip_fail(__LINE__, __VA_ARGS__);                        \
	} while (0)

/* The summary line the tests' EXPECT-STDOUT matches; the exit status. */
static E2E_UNUSED int ip_finish(const char *name)
{
	printf("%s: %d checks, %d failed\n", name, ip_checks, ip_failures);
	fflush(stdout);
	return ip_failures ? 1 : 0;
}

/* === libc's own definitions === */

static E2E_UNUSED void *ip_libc_sym(const char *name)
{
	static void *libc;
	void *p;

	if (!libc && !(libc = dlopen("libc.so.6", RTLD_NOW)))
		e2e_die("dlopen libc.so.6", ENOENT);
	if (!(p = dlsym(libc, name))) {
		fprintf(stderr, "e2e: libc has no %s\n", name);
		exit(2);
	}
	return p;
}

/* Which object defines the code at @p ("?" if none). */
static E2E_UNUSED const char *ip_object_of(const void *p)
{
	Dl_info info;

	return dladdr(p, &info) && info.dli_fname ? info.dli_fname : "?";
}

/*
 * What the program's references to @name resolve to; exit 2 unless that is
 * libucsan's definition (a test of an interposer must not pass because the
 * interposer is not there).
 */
static E2E_UNUSED void *ip_ucsan_sym(const char *name)
{
	void *p = dlsym(RTLD_DEFAULT, name);

	if (!p || !strstr(ip_object_of(p), "libucsan")) {
		fprintf(stderr, "e2e: %s does not resolve to libucsan (%s)\n", name,
			p ? ip_object_of(p) : "undefined");
		exit(2);
	}
	return p;
}

/* === Access tracing === */

struct ip_access {
	size_t off;    /* from the start of the traced region */
	int write;     /* the page fault was for a write */
	uintptr_t ip;  /* the instruction */
};

#define IP_TRACE_MAX 20000

static struct {
	char *base;
	size_t len;
	volatile sig_atomic_t armed, stepping;
	int n;
	struct ip_access acc[IP_TRACE_MAX];
} ip_tr;

static IP_NOSAN void ip_trace_die(const char *msg)
{
	ssize_t r = write(STDERR_FILENO, msg, strlen(msg));

	(void)r;
	_exit(3);
}

static IP_NOSAN void ip_on_segv(int sig, siginfo_t *si, void *ucp)
{
	ucontext_t *uc = ucp;
	char *a = si->si_addr;

	(void)sig;
	if (!ip_tr.armed || a < ip_tr.base || a >= ip_tr.base + ip_tr.len)
		ip_trace_die("e2e: SIGSEGV outside the traced pages\n");
	if (ip_tr.n < IP_TRACE_MAX) {
		ip_tr.acc[ip_tr.n].off = (size_t)(a - ip_tr.base);
		ip_tr.acc[ip_tr.n].write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
		ip_tr.acc[ip_tr.n].ip = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
	}
	ip_tr.n++;
	if (mprotect(ip_tr.base, ip_tr.len, PROT_READ | PROT_WRITE))
		ip_trace_die("e2e: mprotect failed in the SIGSEGV handler\n");
	ip_tr.stepping = 1;
	uc->uc_mcontext.gregs[REG_EFL] |= 0x100; /* TF: trap after one instruction */
}

static IP_NOSAN void ip_on_trap(int sig, siginfo_t *si, void *ucp)
{
	ucontext_t *uc = ucp;

	(void)sig, (void)si;
	if (!ip_tr.stepping)
		ip_trace_die("e2e: unexpected SIGTRAP\n");
	ip_tr.stepping = 0;
	uc->uc_mcontext.gregs[REG_EFL] &= ~0x100;
	if (ip_tr.armed && mprotect(ip_tr.base, ip_tr.len, PROT_NONE))
		ip_trace_die("e2e: mprotect failed in the SIGTRAP handler\n");
}

/* Same accesses: the same number, each at the same offset and of the same
 * kind (the instructions may differ). */
static E2E_UNUSED IP_NOSAN int ip_trace_equal(const struct ip_access *a, int na, const struct ip_access *b, int nb)
{
	if (na != nb)
		return 0;
	for (int i = 0; i < na; i++)
		if (a[i].off != b[i].off || a[i].write != b[i].write)
			return 0;
	return 1;
}

static E2E_UNUSED void ip_trace_selftest(void);

/*
 * Run op(arg) with [base, base + len) (whole pages) inaccessible and record
 * every access it makes there in @out (at most @max); returns how many
 * there were.  errno is left as op left it.
 */
static E2E_UNUSED IP_NOSAN int ip_trace(void *base, size_t len, void (*op)(void *), void *arg,
					struct ip_access *out, int max)
{
	static int installed;
	int saved, n;

	if (!installed) {
		/* Static, so zero without a call to memset (mem_early.c
		 * traces the very first call of ucsan's). */
		static struct sigaction sa;

		sa.sa_flags = SA_SIGINFO;
		sigemptyset(&sa.sa_mask);
		sa.sa_sigaction = ip_on_segv;
		if (sigaction(SIGSEGV, &sa, NULL))
			e2e_die("sigaction SIGSEGV", errno);
		sa.sa_sigaction = ip_on_trap;
		if (sigaction(SIGTRAP, &sa, NULL))
			e2e_die("sigaction SIGTRAP", errno);
		installed = 1;
		ip_trace_selftest();
	}
	ip_tr.base = base;
	ip_tr.len = len;
	ip_tr.n = 0;
	saved = errno;
	if (mprotect(base, len, PROT_NONE))
		e2e_die("mprotect", errno);
	errno = saved;
	ip_tr.armed = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	op(arg);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	ip_tr.armed = 0;
	saved = errno;
	if (mprotect(base, len, PROT_READ | PROT_WRITE))
		e2e_die("mprotect", errno);
	errno = saved;
	n = ip_tr.n;
	if (n > IP_TRACE_MAX || n > max) {
		fprintf(stderr, "e2e: %d accesses: more than the trace holds\n", n);
		exit(2);
	}
	for (int i = 0; i < n; i++)
		out[i] = ip_tr.acc[i];
	return n;
}

/* The tracer sees what it must: a 4-byte store, an 8-byte load, three
 * byte stores (a broken one would make every comparison pass). */
static E2E_UNUSED IP_NOSAN void ip_selftest_op(void *p)
{
	char *b = p;

	*(volatile uint32_t *)(b + 4) = 1;
	(void)*(volatile uint64_t *)(b + 8);
	for (int i = 0; i < 3; i++)
		((volatile char *)b)[100 + i] = 2;
}

static E2E_UNUSED IP_NOSAN void ip_trace_selftest(void)
{
	static const struct ip_access want[] = { { 4, 1, 0 }, { 8, 0, 0 }, { 100, 1, 0 }, { 101, 1, 0 }, { 102, 1, 0 } };
	static struct ip_access got[8];
	char *b = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int n;

	if (b == MAP_FAILED)
		e2e_die("mmap", errno);
	n = ip_trace(b, 4096, ip_selftest_op, b, got, 8);
	if (!ip_trace_equal(got, n, want, 5) || b[101] != 2) {
		static const char msg[] = "e2e: the access tracer does not work\n";
		ip_trace_die(msg);
	}
	munmap(b, 4096);
}

/* "R+0 W+8192 ..." into buf (truncated with "..."). */
static E2E_UNUSED const char *ip_trace_str(const struct ip_access *a, int n, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && used + 24 < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%c+%zu", i ? " " : "",
					 a[i].write ? 'W' : 'R', a[i].off);
	if (used + 24 >= size)
		snprintf(buf + used, size - used, " ...");
	return buf;
}

/* Anonymous read-write pages. */
static E2E_UNUSED char *ip_pages(size_t n)
{
	void *p = mmap(NULL, n * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		e2e_die("mmap", errno);
	return p;
}

/* === Logs of results; signal dispositions ===
 *
 * A scenario runs once with ucsan's functions and once with libc's,
 * logging each step's return value, errno and, for signals, an action
 * (handler, flags, restorer, and the mask as sigismember() sees it);
 * ip_compare_logs() then compares the two logs step by step.  For the
 * signal tests a "world" is a pair of sigaction() and signal(), ucsan's or
 * libc's, and ip_sig_run() runs a scenario in both on the same signals.
 */

typedef int (*ip_sigaction_fn)(int, const struct sigaction *, struct sigaction *);
typedef sighandler_t (*ip_signal_fn)(int, sighandler_t);

struct ip_world {
	const char *name;
	ip_sigaction_fn sa;
	ip_signal_fn sig;
};

struct ip_step {
	const char *what;
	long ret;
	int err;
	int has_act;
	void *handler;
	int flags;
	void *restorer;
	unsigned char mask[_NSIG]; /* sigismember() of each signal */
};

#define IP_LOG_MAX 4096

struct ip_log {
	int n;
	struct ip_step s[IP_LOG_MAX];
};

/* Log a step: its result, errno, and an action (NULL: none). */
static E2E_UNUSED void ip_note(struct ip_log *l, const char *what, long ret, int err, const struct sigaction *act)
{
	struct ip_step *s;

	if (l->n >= IP_LOG_MAX)
		e2e_die("log full", ENOSPC);
	s = &l->s[l->n++];
	memset(s, 0, sizeof(*s));
	s->what = what;
	s->ret = ret;
	s->err = err;
	if (act) {
		s->has_act = 1;
		s->handler = (act->sa_flags & SA_SIGINFO) ? (void *)act->sa_sigaction : (void *)act->sa_handler;
		s->flags = act->sa_flags;
		s->restorer = (void *)act->sa_restorer;
		for (int i = 1; i < _NSIG; i++)
			s->mask[i] = (unsigned char)sigismember(&act->sa_mask, i);
	}
}

/* Log a call's result (as a number) and errno, errno preset to the
 * sentinel. */
#define IP_CALL(log, what, expr)                                               \
	do {                                                                   \
		errno = IP_SENTINEL;                                           \
		long r_ = (long)(expr);                                        \
		ip_note(log, what, r_, errno, NULL);                           \
	} while (0)

static E2E_UNUSED const char *ip_mask_str(const struct ip_step *s, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 1; i < _NSIG && used + 8 < size; i++)
		if (s->mask[i])
			used += (size_t)snprintf(buf + used, size - used, "%s%d", used ? "," : "", i);
	return buf;
}

static E2E_UNUSED void ip_compare_logs(const char *scenario, const struct ip_log *ours, const struct ip_log *libc)
{
	char m1[256], m2[256];

	IP_EXPECT(ours->n == libc->n, "%s: %d steps with ucsan's functions, %d with libc's", scenario, ours->n,
		  libc->n);
	for (int i = 0; i < ours->n && i < libc->n; i++) {
		const struct ip_step *a = &ours->s[i], *b = &libc->s[i];
		IP_EXPECT(a->ret == b->ret && a->err == b->err,
			  "%s, %s: returned %ld errno %d; libc's: %ld errno %d", scenario, a->what, a->ret, a->err,
			  b->ret, b->err);
		IP_EXPECT(a->has_act == b->has_act && a->handler == b->handler && a->flags == b->flags &&
				  a->restorer == b->restorer && !memcmp(a->mask, b->mask, sizeof(a->mask)),
			  "%s, %s: action {handler %p, flags %#x, restorer %p, mask {%s}}; "
			  "libc's: {handler %p, flags %#x, restorer %p, mask {%s}}",
			  scenario, a->what, a->handler, a->flags, a->restorer, ip_mask_str(a, m1, sizeof(m1)),
			  b->handler, b->flags, b->restorer, ip_mask_str(b, m2, sizeof(m2)));
	}
}

/* What the handlers saw. */
static struct {
	volatile sig_atomic_t calls, sig, code, value, errno_in, has_uc;
	unsigned char blocked[_NSIG];
} ip_seen;

static E2E_UNUSED void ip_record_mask(void)
{
	sigset_t cur;

	pthread_sigmask(SIG_BLOCK, NULL, &cur);
	for (int i = 1; i < _NSIG; i++)
		ip_seen.blocked[i] = (unsigned char)sigismember(&cur, i);
}

static E2E_UNUSED void ip_h_plain(int sig)
{
	ip_seen.calls++;
	ip_seen.sig = sig;
	ip_seen.errno_in = errno;
	ip_record_mask();
}

static E2E_UNUSED void ip_h_info(int sig, siginfo_t *si, void *uc)
{
	ip_seen.calls++;
	ip_seen.sig = sig;
	ip_seen.code = si ? si->si_code : -1;
	ip_seen.value = si ? si->si_value.sival_int : -1;
	ip_seen.has_uc = uc != NULL;
	ip_seen.errno_in = errno;
	ip_record_mask();
}

static E2E_UNUSED void ip_note_seen(struct ip_log *l, const char *what)
{
	struct sigaction fake;

	/* The blocked set inside the handler, logged as a "mask". */
	memset(&fake, 0, sizeof(fake));
	sigemptyset(&fake.sa_mask);
	for (int i = 1; i < _NSIG; i++)
		if (ip_seen.blocked[i])
			sigaddset(&fake.sa_mask, i);
	fake.sa_flags = ip_seen.code;
	fake.sa_handler = (void (*)(int))(uintptr_t)(ip_seen.calls * 1000 + ip_seen.sig);
	ip_note(l, what, ip_seen.value * 1000L + ip_seen.has_uc, ip_seen.errno_in, &fake);
	memset((void *)&ip_seen, 0, sizeof(ip_seen));
}

/* Back to the default action without going through either world. */
static ip_sigaction_fn ip_libc_sigaction;

static E2E_UNUSED void ip_sig_reset(int sig)
{
	struct sigaction dfl;

	if (!ip_libc_sigaction)
		ip_libc_sigaction = (ip_sigaction_fn)ip_libc_sym("sigaction");
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	if (ip_libc_sigaction(sig, &dfl, NULL))
		e2e_die("reset", errno);
}

/* sigaction(sig, act, &old) and a read-back, both logged. */
static E2E_UNUSED void ip_set_and_read(const struct ip_world *w, struct ip_log *l, const char *what, int sig,
					const struct sigaction *act)
{
	struct sigaction old, now;
	int r, err;

	memset(&old, 0, sizeof(old));
	memset(&now, 0, sizeof(now));
	errno = IP_SENTINEL;
	r = w->sa(sig, act, &old);
	err = errno;
	ip_note(l, what, r, err, r == 0 ? &old : NULL);
	errno = IP_SENTINEL;
	r = w->sa(sig, NULL, &now);
	err = errno;
	ip_note(l, "(read back)", r, err, r == 0 ? &now : NULL);
}

/* Install a handler (plain or siginfo) on SIGUSR1 with @flags, deliver it
 * (sigqueue, then raise unless it is one-shot), log what the handler saw
 * and the action read back afterwards. */
static E2E_UNUSED void ip_deliver(const struct ip_world *w, struct ip_log *l, int flags)
{
	struct sigaction act, now;

	for (int info = 0; info < 2; info++) {
		memset(&act, 0, sizeof(act));
		sigemptyset(&act.sa_mask);
		sigaddset(&act.sa_mask, SIGUSR2);
		act.sa_flags = flags | (info ? SA_SIGINFO : 0);
		if (info)
			act.sa_sigaction = ip_h_info;
		else
			act.sa_handler = ip_h_plain;
		if (w->sa(SIGUSR1, &act, NULL))
			e2e_die("sigaction", errno);
		errno = IP_SENTINEL;
		int r = sigqueue(getpid(), SIGUSR1, (union sigval){ .sival_int = 42 });
		ip_note(l, info ? "sigqueue to a siginfo handler" : "sigqueue to a plain handler", r, errno, NULL);
		ip_note_seen(l, "in the handler (sigqueue)");
		/* A one-shot handler is gone now: SIGUSR1 would end us. */
		if (!(flags & SA_RESETHAND)) {
			errno = IP_SENTINEL;
			r = raise(SIGUSR1);
			ip_note(l, "raise", r, errno, NULL);
			ip_note_seen(l, "in the handler (raise)");
		}
		memset(&now, 0, sizeof(now));
		errno = IP_SENTINEL;
		r = w->sa(SIGUSR1, NULL, &now);
		ip_note(l, info ? "read back after delivery to a siginfo handler"
				: "read back after delivery to a plain handler",
			r, errno, &now);
		ip_sig_reset(SIGUSR1);
	}
}

static E2E_UNUSED void ip_sig_run(const char *name, void (*scenario)(const struct ip_world *, struct ip_log *),
				  const struct ip_world *ours, const struct ip_world *libc)
{
	static struct ip_log l_ours, l_libc;

	l_ours.n = l_libc.n = 0;
	/* Both worlds start from the same state of the signals they use. */
	ip_sig_reset(SIGUSR1);
	ip_sig_reset(SIGUSR2);
	ip_sig_reset(SIGRTMIN + 2);
	scenario(ours, &l_ours);
	ip_sig_reset(SIGUSR1);
	ip_sig_reset(SIGUSR2);
	ip_sig_reset(SIGRTMIN + 2);
	scenario(libc, &l_libc);
	ip_compare_logs(name, &l_ours, &l_libc);
}

/* === Atomics ===
 *
 * IP_ATOMICS(T, N) defines ip_atomics_N(), which checks every
 * __tsan_atomicN_* entry point on type T (the unsigned type of that width)
 * against the __atomic builtin of the same name computed in uninstrumented
 * code: return value, memory afterwards, the expected value written back
 * by a failed compare-exchange, errno untouched.  Each is called directly,
 * with every memory order (valid for the operation or not, and with the
 * flag bits compilers add), and as the compiler calls it: from instrumented
 * builtins (__atomic_* with constant orders, legacy __sync_*).  Then the
 * accesses of each entry point, traced, must be those of the builtin: all
 * at the object's first byte (one whole access, not pieces), reads and
 * writes alike.
 */

/* Orders: C11's six, then what TSan also accepts: out of range, and
 * gcc's __sync (1 << 15) and HLE (1 << 16, 1 << 17) flags on top. */
static const int ip_orders[] = { 0, 1, 2, 3, 4, 5, 6, 7, 0xff, -1, 5 | 1 << 15, 2 | 1 << 16, 3 | 1 << 17, 4 | 0x100 };
#define IP_N_ORDERS ((int)(sizeof(ip_orders) / sizeof(ip_orders[0])))

enum ip_rmw { IP_XCHG, IP_ADD, IP_SUB, IP_AND, IP_OR, IP_XOR, IP_NAND, IP_N_RMW };
static const char *const ip_rmw_names[] = { "exchange", "fetch_add", "fetch_sub", "fetch_and",
					    "fetch_or", "fetch_xor", "fetch_nand" };

/* High and low 64 bits of any unsigned value, for messages. */
#define IP_HI(x) ((unsigned long long)((unsigned __int128)(x) >> 64))
#define IP_LO(x) ((unsigned long long)(x))

/* One constant-order builtin call per function, for IP_GEN_TABLE. */
#define IP_GEN_RMW(T, op, mo) static T ip_gen_##op##_##mo(T *p, T v) { return __atomic_##op(p, v, mo); }

/* Once per program (the generated builtin callers have fixed names). */
#define IP_ATOMICS(T, N)                                                                          \
	T __tsan_atomic##N##_load(const volatile void *a, int mo);                               \
	void __tsan_atomic##N##_store(volatile void *a, T v, int mo);                            \
	T __tsan_atomic##N##_exchange(volatile void *a, T v, int mo);                            \
	T __tsan_atomic##N##_fetch_add(volatile void *a, T v, int mo);                           \
	T __tsan_atomic##N##_fetch_sub(volatile void *a, T v, int mo);                           \
	T __tsan_atomic##N##_fetch_and(volatile void *a, T v, int mo);                           \
	T __tsan_atomic##N##_fetch_or(volatile void *a, T v, int mo);                            \
	T __tsan_atomic##N##_fetch_xor(volatile void *a, T v, int mo);                           \
	T __tsan_atomic##N##_fetch_nand(volatile void *a, T v, int mo);                          \
	_Bool __tsan_atomic##N##_compare_exchange_strong(volatile void *a, void *c, T v, int mo, int fmo); \
	_Bool __tsan_atomic##N##_compare_exchange_weak(volatile void *a, void *c, T v, int mo, int fmo); \
	T __tsan_atomic##N##_compare_exchange_val(volatile void *a, T c, T v, int mo, int fmo);  \
                                                                                                  \
	static T (*const ip_rmw_##N[IP_N_RMW])(volatile void *, T, int) = {                      \
		__tsan_atomic##N##_exchange, __tsan_atomic##N##_fetch_add,                       \
		__tsan_atomic##N##_fetch_sub, __tsan_atomic##N##_fetch_and,                      \
		__tsan_atomic##N##_fetch_or,  __tsan_atomic##N##_fetch_xor,                      \
		__tsan_atomic##N##_fetch_nand,                                                   \
	};                                                                                        \
                                                                                                  \
	/* The builtins themselves, uninstrumented (the order does not change a                 \
	 * single thread's results). */                                                          \
	static IP_NOSAN T ip_ref_load_##N(T *p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); } \
	static IP_NOSAN void ip_ref_store_##N(T *p, T v) { __atomic_store_n(p, v, __ATOMIC_SEQ_CST); } \
	static IP_NOSAN T ip_ref_rmw_##N(int op, T *p, T v)                                      \
	{                                                                                         \
		switch (op) {                                                                     \
		case IP_XCHG: return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);                \
		case IP_ADD: return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);                  \
		case IP_SUB: return __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST);                  \
		case IP_AND: return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);                  \
		case IP_OR: return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);                    \
		case IP_XOR: return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST);                  \
		default: return __atomic_fetch_nand(p, v, __ATOMIC_SEQ_CST);                     \
		}                                                                                 \
	}                                                                                         \
	static IP_NOSAN _Bool ip_ref_cas_##N(T *p, T *c, T v, int weak)                          \
	{                                                                                         \
		return weak ? __atomic_compare_exchange_n(p, c, v, 1, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST) \
			    : __atomic_compare_exchange_n(p, c, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
	}                                                                                         \
                                                                                                  \
	/* Values with every byte different, the top bit set or not, all ones. */               \
	static const T ip_vals_##N[] = {                                                          \
		0, 1, 2, 5, 12, (T)-1, (T)-2, (T)((T)-1 >> 1), (T)((T)1 << (8 * sizeof(T) - 1)),  \
		(T)((unsigned __int128)0x0123456789abcdefULL << 64 | 0xfedcba9876543210ULL),     \
		(T)~((unsigned __int128)0x0123456789abcdefULL << 64 | 0xfedcba9876543210ULL),    \
		(T)((T)0x80 << (8 * sizeof(T) - 8)) | 0x7f,                                       \
	};                                                                                        \
	enum { ip_n_vals_##N = sizeof(ip_vals_##N) / sizeof(ip_vals_##N[0]) };                  \
                                                                                                  \
	static T ip_mem_##N __attribute__((aligned(sizeof(T))));                                  \
	static int ip_errno_bad_##N;                                                              \
                                                                                                  \
	/* errno must survive each call: count the calls that changed it. */                    \
	static void ip_errno_check_##N(const char *what)                                         \
	{                                                                                         \
		if (errno != IP_SENTINEL && !ip_errno_bad_##N++)                                  \
			IP_EXPECT(0, "%s changed errno to %d", what, errno);                      \
	}                                                                                         \
                                                                                                  \
	static void ip_direct_##N(void)                                                           \
	{                                                                                         \
		T *m = &ip_mem_##N, ref, r, rr;                                            \
		for (int oi = 0; oi < IP_N_ORDERS; oi++) {                                       \
			const int mo = ip_orders[oi];                                            \
			for (int i = 0; i < ip_n_vals_##N; i++) {                                 \
				const T a = ip_vals_##N[i];                                       \
				*m = a;                                                           \
				errno = IP_SENTINEL;                                              \
				r = __tsan_atomic##N##_load(m, mo);                               \
				ip_errno_check_##N("load");                                       \
				IP_EXPECT(r == a && *m == a, "atomic%d_load(0x%llx%016llx, mo %#x) = 0x%llx%016llx", \
					  N, IP_HI(a), IP_LO(a), mo, IP_HI(r), IP_LO(r));         \
				for (int j = 0; j < ip_n_vals_##N; j++) {                         \
					const T b = ip_vals_##N[j];                               \
					*m = a;                                                   \
					errno = IP_SENTINEL;                                      \
					__tsan_atomic##N##_store(m, b, mo);                       \
					ip_errno_check_##N("store");                              \
					IP_EXPECT(*m == b, "atomic%d_store(mo %#x) stored 0x%llx%016llx", N, mo, \
						  IP_HI(*m), IP_LO(*m));                          \
					for (int op = 0; op < IP_N_RMW; op++) {                   \
						*m = a;                                           \
						ref = a;                                          \
						errno = IP_SENTINEL;                              \
						r = ip_rmw_##N[op](m, b, mo);                     \
						ip_errno_check_##N(ip_rmw_names[op]);             \
						rr = ip_ref_rmw_##N(op, &ref, b);                 \
						IP_EXPECT(r == rr && *m == ref,                   \
							  "atomic%d_%s(0x%llx%016llx, 0x%llx%016llx, mo %#x): " \
							  "returned 0x%llx%016llx, memory 0x%llx%016llx; " \
							  "builtin: 0x%llx%016llx, 0x%llx%016llx",   \
							  N, ip_rmw_names[op], IP_HI(a), IP_LO(a), IP_HI(b), \
							  IP_LO(b), mo, IP_HI(r), IP_LO(r), IP_HI(*m), \
							  IP_LO(*m), IP_HI(rr), IP_LO(rr), IP_HI(ref), \
							  IP_LO(ref));                            \
					}                                                         \
				}                                                                 \
			}                                                                         \
		}                                                                                 \
	}                                                                                         \
                                                                                                  \
	/* Compare-exchange: every success and failure order pair; expected equal             \
	 * to memory (success) or not (failure, and it is written back). */                     \
	static void ip_cas_##N(void)                                                              \
	{                                                                                         \
		T *m = &ip_mem_##N, ref, c, rc, r;                                                \
		_Bool ok, rok;                                                                    \
		for (int oi = 0; oi < IP_N_ORDERS; oi++) {                                       \
			for (int fi = 0; fi < IP_N_ORDERS; fi++) {                               \
				const int mo = ip_orders[oi], fmo = ip_orders[fi];               \
				for (int i = 0; i < ip_n_vals_##N; i++) {                         \
					for (int j = 0; j < ip_n_vals_##N; j += 3) {              \
						for (int k = 0; k < 2; k++) {                     \
							const T a = ip_vals_##N[i], v = ip_vals_##N[j]; \
							const T e = k ? a : ip_vals_##N[(i + j + 1) % ip_n_vals_##N]; \
							for (int weak = 0; weak < 3; weak++) {    \
								*m = ref = a;                     \
								c = rc = e;                       \
								errno = IP_SENTINEL;              \
								if (weak == 2) {                  \
									r = __tsan_atomic##N##_compare_exchange_val(m, e, v, mo, fmo); \
									ok = r == e;              \
									c = r;                    \
								} else if (weak) {                \
									ok = __tsan_atomic##N##_compare_exchange_weak(m, &c, v, mo, fmo); \
								} else {                          \
									ok = __tsan_atomic##N##_compare_exchange_strong(m, &c, v, mo, fmo); \
								}                                 \
								ip_errno_check_##N("compare_exchange"); \
								rok = ip_ref_cas_##N(&ref, &rc, v, weak == 1); \
								IP_EXPECT(ok == rok && c == rc && *m == ref, \
									  "atomic%d_compare_exchange_%s(mem 0x%llx%016llx, " \
									  "expected 0x%llx%016llx, new 0x%llx%016llx, mo %#x/%#x): " \
									  "%d, expected now 0x%llx%016llx, memory 0x%llx%016llx; " \
									  "builtin: %d, 0x%llx%016llx, 0x%llx%016llx", \
									  N, weak == 2 ? "val" : weak ? "weak" : "strong", \
									  IP_HI(a), IP_LO(a), IP_HI(e), IP_LO(e), IP_HI(v), \
									  IP_LO(v), mo, fmo, ok, IP_HI(c), IP_LO(c), \
									  IP_HI(*m), IP_LO(*m), rok, IP_HI(rc), IP_LO(rc), \
									  IP_HI(ref), IP_LO(ref)); \
							}                                         \
						}                                                 \
					}                                                         \
				}                                                                 \
			}                                                                         \
		}                                                                                 \
	}                                                                                         \
                                                                                                  \
	/* As compilers call them: builtins in instrumented code, each order a                 \
	 * constant (gcc and clang turn them into __tsan_atomicN_* calls). */                    \
	IP_GEN_RMW(T, exchange_n, 0) IP_GEN_RMW(T, exchange_n, 2) IP_GEN_RMW(T, exchange_n, 3)   \
	IP_GEN_RMW(T, exchange_n, 4) IP_GEN_RMW(T, exchange_n, 5)                                \
	IP_GEN_RMW(T, fetch_add, 0) IP_GEN_RMW(T, fetch_add, 2) IP_GEN_RMW(T, fetch_add, 3)      \
	IP_GEN_RMW(T, fetch_add, 4) IP_GEN_RMW(T, fetch_add, 5)                                  \
	IP_GEN_RMW(T, fetch_sub, 0) IP_GEN_RMW(T, fetch_sub, 5)                                  \
	IP_GEN_RMW(T, fetch_and, 0) IP_GEN_RMW(T, fetch_and, 5)                                  \
	IP_GEN_RMW(T, fetch_or, 0) IP_GEN_RMW(T, fetch_or, 5)                                    \
	IP_GEN_RMW(T, fetch_xor, 0) IP_GEN_RMW(T, fetch_xor, 5)                                  \
	IP_GEN_RMW(T, fetch_nand, 0) IP_GEN_RMW(T, fetch_nand, 5)                                \
	IP_GEN_RMW(T, add_fetch, 5) IP_GEN_RMW(T, sub_fetch, 5) IP_GEN_RMW(T, and_fetch, 5)      \
	IP_GEN_RMW(T, or_fetch, 5) IP_GEN_RMW(T, xor_fetch, 5) IP_GEN_RMW(T, nand_fetch, 5)      \
	static T ip_gen_load_0(T *p, T v) { (void)v; return __atomic_load_n(p, 0); }             \
	static T ip_gen_load_1(T *p, T v) { (void)v; return __atomic_load_n(p, 1); }             \
	static T ip_gen_load_2(T *p, T v) { (void)v; return __atomic_load_n(p, 2); }             \
	static T ip_gen_load_5(T *p, T v) { (void)v; return __atomic_load_n(p, 5); }             \
	static T ip_gen_store_0(T *p, T v) { __atomic_store_n(p, v, 0); return 0; }              \
	static T ip_gen_store_3(T *p, T v) { __atomic_store_n(p, v, 3); return 0; }              \
	static T ip_gen_store_5(T *p, T v) { __atomic_store_n(p, v, 5); return 0; }              \
	static T ip_gen_sync_add(T *p, T v) { return __sync_fetch_and_add(p, v); }               \
	static T ip_gen_sync_sub_fetch(T *p, T v) { return __sync_sub_and_fetch(p, v); }         \
	static T ip_gen_sync_xor(T *p, T v) { return __sync_fetch_and_xor(p, v); }                 \
	static T ip_gen_sync_tas(T *p, T v) { return __sync_lock_test_and_set(p, v); }           \
	static T ip_gen_sync_release(T *p, T v) { (void)v; __sync_lock_release(p); return 0; }   \
	/* Compare-exchange: success (k = 1) or not, strong and weak, valid pairs. */            \
	static T ip_gen_cas(T *p, T v, T e, int k)                                                \
	{                                                                                         \
		switch (k) {                                                                      \
		case 0: return __atomic_compare_exchange_n(p, &e, v, 0, 5, 5) ? e + 1 : e;       \
		case 1: return __atomic_compare_exchange_n(p, &e, v, 0, 4, 2) ? e + 1 : e;       \
		case 2: return __atomic_compare_exchange_n(p, &e, v, 0, 3, 0) ? e + 1 : e;       \
		case 3: return __atomic_compare_exchange_n(p, &e, v, 0, 2, 1) ? e + 1 : e;       \
		case 4: return __atomic_compare_exchange_n(p, &e, v, 0, 0, 0) ? e + 1 : e;       \
		case 5: return __atomic_compare_exchange_n(p, &e, v, 1, 5, 2) ? e + 1 : e;       \
		case 6: return __atomic_compare_exchange_n(p, &e, v, 1, 0, 0) ? e + 1 : e;       \
		case 7: return __sync_bool_compare_and_swap(p, e, v) ? e + 1 : e;               \
		default: return __sync_val_compare_and_swap(p, e, v);                          \
		}                                                                                 \
	}                                                                                         \
	static IP_NOSAN T ip_ref_gen_cas_##N(T *p, T v, T e, int k)                              \
	{                                                                                         \
		if (k == 8)                                                                       \
			return __sync_val_compare_and_swap(p, e, v);                              \
		if (k == 7)                                                                       \
			return __sync_bool_compare_and_swap(p, e, v) ? e + 1 : e;                 \
		return __atomic_compare_exchange_n(p, &e, v, k == 5 || k == 6, 5, 5) ? e + 1 : e; \
	}                                                                                         \
	struct ip_gen_##N {                                                                       \
		const char *name;                                                                 \
		T (*fn)(T *, T);                                                                  \
		int ref; /* ip_ref_rmw op, or -1 load, -2 store, -3: op then op result, -4 store 0 */ \
		int post; /* -3: the new value = ip_ref_rmw(op) applied */                        \
	};                                                                                        \
	static const struct ip_gen_##N ip_gens_##N[] = {                                          \
		{ "__atomic_exchange_n relaxed", ip_gen_exchange_n_0, IP_XCHG, 0 },              \
		{ "__atomic_exchange_n acquire", ip_gen_exchange_n_2, IP_XCHG, 0 },              \
		{ "__atomic_exchange_n release", ip_gen_exchange_n_3, IP_XCHG, 0 },              \
		{ "__atomic_exchange_n acq_rel", ip_gen_exchange_n_4, IP_XCHG, 0 },              \
		{ "__atomic_exchange_n seq_cst", ip_gen_exchange_n_5, IP_XCHG, 0 },              \
		{ "__atomic_fetch_add relaxed", ip_gen_fetch_add_0, IP_ADD, 0 },                 \
		{ "__atomic_fetch_add acquire", ip_gen_fetch_add_2, IP_ADD, 0 },                 \
		{ "__atomic_fetch_add release", ip_gen_fetch_add_3, IP_ADD, 0 },                 \
		{ "__atomic_fetch_add acq_rel", ip_gen_fetch_add_4, IP_ADD, 0 },                 \
		{ "__atomic_fetch_add seq_cst", ip_gen_fetch_add_5, IP_ADD, 0 },                 \
		{ "__atomic_fetch_sub relaxed", ip_gen_fetch_sub_0, IP_SUB, 0 },                 \
		{ "__atomic_fetch_sub seq_cst", ip_gen_fetch_sub_5, IP_SUB, 0 },                 \
		{ "__atomic_fetch_and relaxed", ip_gen_fetch_and_0, IP_AND, 0 },                 \
		{ "__atomic_fetch_and seq_cst", ip_gen_fetch_and_5, IP_AND, 0 },                 \
		{ "__atomic_fetch_or relaxed", ip_gen_fetch_or_0, IP_OR, 0 },                    \
		{ "__atomic_fetch_or seq_cst", ip_gen_fetch_or_5, IP_OR, 0 },                    \
		{ "__atomic_fetch_xor relaxed", ip_gen_fetch_xor_0, IP_XOR, 0 },                 \
		{ "__atomic_fetch_xor seq_cst", ip_gen_fetch_xor_5, IP_XOR, 0 },                 \
		{ "__atomic_fetch_nand relaxed", ip_gen_fetch_nand_0, IP_NAND, 0 },              \
		{ "__atomic_fetch_nand seq_cst", ip_gen_fetch_nand_5, IP_NAND, 0 },              \
		{ "__atomic_add_fetch", ip_gen_add_fetch_5, IP_ADD, 1 },                         \
		{ "__atomic_sub_fetch", ip_gen_sub_fetch_5, IP_SUB, 1 },                         \
		{ "__atomic_and_fetch", ip_gen_and_fetch_5, IP_AND, 1 },                         \
		{ "__atomic_or_fetch", ip_gen_or_fetch_5, IP_OR, 1 },                            \
		{ "__atomic_xor_fetch", ip_gen_xor_fetch_5, IP_XOR, 1 },                         \
		{ "__atomic_nand_fetch", ip_gen_nand_fetch_5, IP_NAND, 1 },                      \
		{ "__atomic_load_n relaxed", ip_gen_load_0, -1, 0 },                              \
		{ "__atomic_load_n consume", ip_gen_load_1, -1, 0 },                              \
		{ "__atomic_load_n acquire", ip_gen_load_2, -1, 0 },                              \
		{ "__atomic_load_n seq_cst", ip_gen_load_5, -1, 0 },                              \
		{ "__atomic_store_n relaxed", ip_gen_store_0, -2, 0 },                            \
		{ "__atomic_store_n release", ip_gen_store_3, -2, 0 },                            \
		{ "__atomic_store_n seq_cst", ip_gen_store_5, -2, 0 },                            \
		{ "__sync_fetch_and_add", ip_gen_sync_add, IP_ADD, 0 },                          \
		{ "__sync_sub_and_fetch", ip_gen_sync_sub_fetch, IP_SUB, 1 },                    \
		{ "__sync_fetch_and_xor", ip_gen_sync_xor, IP_XOR, 0 },                          \
		{ "__sync_lock_test_and_set", ip_gen_sync_tas, IP_XCHG, 0 },                     \
		{ "__sync_lock_release", ip_gen_sync_release, -4, 0 },                            \
	};                                                                                        \
                                                                                                  \
	/* The new value an op-then-fetch builtin returns. */                                    \
	static IP_NOSAN T ip_ref_gen_##N(const struct ip_gen_##N *g, T *p, T v)                  \
	{                                                                                         \
		T old;                                                                            \
		switch (g->ref) {                                                                 \
		case -1: return ip_ref_load_##N(p);                                              \
		case -2: ip_ref_store_##N(p, v); return 0;                                       \
		case -4: ip_ref_store_##N(p, 0); return 0;                                       \
		}                                                                                 \
		old = ip_ref_rmw_##N(g->ref, p, v);                                              \
		return g->post ? ip_ref_load_##N(p) : old;                                       \
	}                                                                                         \
                                                                                                  \
	static void ip_compiled_##N(void)                                                         \
	{                                                                                         \
		T *m = &ip_mem_##N, ref, r, rr;                                                   \
		for (size_t g = 0; g < sizeof(ip_gens_##N) / sizeof(ip_gens_##N[0]); g++) {      \
			for (int i = 0; i < ip_n_vals_##N; i++) {                                 \
				for (int j = 0; j < ip_n_vals_##N; j++) {                         \
					const T a = ip_vals_##N[i], b = ip_vals_##N[j];           \
					*m = ref = a;                                             \
					errno = IP_SENTINEL;                                      \
					r = ip_gens_##N[g].fn(m, b);                              \
					ip_errno_check_##N(ip_gens_##N[g].name);                  \
					rr = ip_ref_gen_##N(&ip_gens_##N[g], &ref, b);            \
					IP_EXPECT(r == rr && *m == ref,                           \
						  "%d-bit %s(0x%llx%016llx, 0x%llx%016llx): 0x%llx%016llx, " \
						  "memory 0x%llx%016llx; uninstrumented: 0x%llx%016llx, " \
						  "0x%llx%016llx", N, ip_gens_##N[g].name, IP_HI(a), IP_LO(a), \
						  IP_HI(b), IP_LO(b), IP_HI(r), IP_LO(r), IP_HI(*m),  \
						  IP_LO(*m), IP_HI(rr), IP_LO(rr), IP_HI(ref), IP_LO(ref)); \
				}                                                                 \
			}                                                                         \
		}                                                                                 \
		for (int k = 0; k <= 8; k++) {                                                    \
			for (int i = 0; i < ip_n_vals_##N; i++) {                                 \
				for (int j = 0; j < ip_n_vals_##N; j++) {                         \
					const T a = ip_vals_##N[i], v = ip_vals_##N[j];           \
					for (int same = 0; same < 2; same++) {                    \
						const T e = same ? a : ip_vals_##N[(i + 1) % ip_n_vals_##N]; \
						*m = ref = a;                                     \
						errno = IP_SENTINEL;                              \
						r = ip_gen_cas(m, v, e, k);                       \
						ip_errno_check_##N("compiled compare-exchange");  \
						rr = ip_ref_gen_cas_##N(&ref, v, e, k);           \
						IP_EXPECT(r == rr && *m == ref,                   \
							  "%d-bit compiled compare-exchange #%d(mem 0x%llx%016llx, " \
							  "expected 0x%llx%016llx, new 0x%llx%016llx): 0x%llx%016llx, " \
							  "memory 0x%llx%016llx; uninstrumented 0x%llx%016llx, " \
							  "0x%llx%016llx", N, k, IP_HI(a), IP_LO(a), IP_HI(e), \
							  IP_LO(e), IP_HI(v), IP_LO(v), IP_HI(r), IP_LO(r), \
							  IP_HI(*m), IP_LO(*m), IP_HI(rr), IP_LO(rr),  \
							  IP_HI(ref), IP_LO(ref));                \
					}                                                         \
				}                                                                 \
			}                                                                         \
		}                                                                                 \
	}                                                                                         \
                                                                                                  \
	/* === Traced: the entry point's accesses against the builtin's === */                  \
	struct ip_acall_##N {                                                                     \
		int op; /* IP_N_RMW + 0 load, + 1 store, + 2 cas strong, + 3 cas val */          \
		int ref;                                                                          \
		T *p;                                                                             \
		T v;                                                                              \
	};                                                                                        \
	static IP_NOSAN void ip_acall_do_##N(void *arg)                                          \
	{                                                                                         \
		struct ip_acall_##N *k = arg;                                                     \
		T c = 0;                                                                          \
		switch (k->op) {                                                                  \
		case IP_N_RMW:                                                                    \
			k->v = k->ref ? ip_ref_load_##N(k->p) : __tsan_atomic##N##_load(k->p, 5); \
			break;                                                                    \
		case IP_N_RMW + 1:                                                                \
			if (k->ref)                                                               \
				ip_ref_store_##N(k->p, k->v);                                     \
			else                                                                      \
				__tsan_atomic##N##_store(k->p, k->v, 5);                          \
			break;                                                                    \
		case IP_N_RMW + 2:                                                                \
			if (k->ref)                                                               \
				ip_ref_cas_##N(k->p, &c, k->v, 0);                                \
			else                                                                      \
				__tsan_atomic##N##_compare_exchange_strong(k->p, &c, k->v, 5, 5); \
			break;                                                                    \
		case IP_N_RMW + 3:                                                                \
			if (k->ref)                                                               \
				ip_ref_cas_##N(k->p, &c, k->v, 0);                                \
			else                                                                      \
				__tsan_atomic##N##_compare_exchange_val(k->p, c, k->v, 5, 5);     \
			break;                                                                    \
		default:                                                                          \
			k->v = k->ref ? ip_ref_rmw_##N(k->op, k->p, k->v) : ip_rmw_##N[k->op](k->p, k->v, 5); \
		}                                                                                 \
	}                                                                                         \
	static void ip_traced_##N(void)                                                           \
	{                                                                                         \
		static const char *const extra[] = { "load", "store", "compare_exchange_strong",  \
						     "compare_exchange_val" };                    \
		static struct ip_access ours[64], refs[64];                                       \
		char *page = ip_pages(1), sa[256], sb[256];                                       \
		for (int op = 0; op < IP_N_RMW + 4; op++) {                                       \
			/* At the page's first byte, then at its last aligned slot. */            \
			for (size_t off = 0; off < 4096; off += 4096 - sizeof(T)) {               \
				struct ip_acall_##N k = { op, 0, (T *)(page + off), 3 }, kr = k;  \
				int n, nr, w = 0, wr = 0, covered = 1;                             \
				kr.ref = 1;                                                       \
				n = ip_trace(page, 4096, ip_acall_do_##N, &k, ours, 64);          \
				nr = ip_trace(page, 4096, ip_acall_do_##N, &kr, refs, 64);        \
				/* Each access of ours is one the builtin makes too (same       \
				 * place, same kind): no piece the builtin does not have. */     \
				for (int i = 0; i < n; i++) {                                     \
					int found = 0;                                            \
					for (int j = 0; j < nr; j++)                              \
						found |= ours[i].off == refs[j].off && ours[i].write == refs[j].write; \
					covered &= found;                                         \
					w |= ours[i].write;                                       \
				}                                                                 \
				for (int i = 0; i < nr; i++)                                      \
					wr |= refs[i].write;                                      \
				const char *name = op < IP_N_RMW ? ip_rmw_names[op] : extra[op - IP_N_RMW]; \
				/* A 16-byte load may only read where the builtin's is a    \
				 * cmpxchg16b, which also writes (libatomic picks the       \
				 * instruction per CPU): a load need not write. */          \
				const int load_reads_only = op == IP_N_RMW && !w;                 \
				IP_EXPECT(n > 0 && covered && (w == wr || load_reads_only),         \
					  "atomic%d_%s at +%zu: accesses %s; builtin: %s", N, name, off, \
					  ip_trace_str(ours, n, sa, sizeof(sa)),                  \
					  ip_trace_str(refs, nr, sb, sizeof(sb)));                \
				if (off == 0)                                                     \
					printf("  atomic%d_%-24s %s   builtin: %s\n", N, name,   \
					       ip_trace_str(ours, n, sa, sizeof(sa)),             \
					       ip_trace_str(refs, nr, sb, sizeof(sb)));           \
			}                                                                         \
		}                                                                                 \
		munmap(page, 4096);                                                               \
	}                                                                                         \
                                                                                                  \
	static void ip_atomics_##N(void)                                                          \
	{                                                                                         \
		ip_direct_##N();                                                                  \
		ip_cas_##N();                                                                     \
		ip_compiled_##N();                                                                \
		ip_traced_##N();                                                                  \
	}

#endif /* UCSAN_INTERPOSE_H */
