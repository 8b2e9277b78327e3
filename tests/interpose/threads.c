// pthread_create(), which ucsan interposes (it counts the threads and
// starts each behind a trampoline), behaves exactly like libc's own: the
// same return value and errno on success and when the thread cannot be
// made (a stack or guard too large to map), and the new thread starts as
// libc starts it: its argument, pthread_self() equal to the id the creator
// got, errno 0, the creator's signal mask, a stack of the size asked for
// (or the one given), its return value and pthread_exit() value delivered
// to pthread_join; detached ones run too.  Each case runs with ucsan's
// pthread_create and with libc's (dlsym on libc.so.6), logs compared
// (interpose.h).  fork(), not interposed but running ucsan's fork
// handlers, keeps errno in the parent and in the child.
//
// CFLAGS: -O2 -g -std=gnu11 -Wall -Wextra -Werror
// EXPECT-STDOUT: ^threads: [0-9]+ checks, 0 failed$
// NOT: UCSAN

#include "interpose.h"

#include <sys/wait.h>

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

/* What the new thread saw at its start. */
struct start {
	void *arg;
	pthread_t self;
	int errno_at_start;
	unsigned char blocked[_NSIG];
	size_t stack_size;
	void *stack_addr;
	int exit_by_pthread_exit;
	int done;
	char *local; /* a local's address: how deep in its stack it starts */
};

static void *thread_main(void *p)
{
	struct start *s = p;
	sigset_t cur;
	pthread_attr_t a;
	char local;

	s->errno_at_start = errno;
	s->self = pthread_self();
	s->arg = p;
	s->local = &local;
	pthread_sigmask(SIG_BLOCK, NULL, &cur);
	for (int i = 1; i < _NSIG; i++)
		s->blocked[i] = (unsigned char)sigismember(&cur, i);
	if (pthread_getattr_np(pthread_self(), &a) == 0) {
		pthread_attr_getstack(&a, &s->stack_addr, &s->stack_size);
		pthread_attr_destroy(&a);
	}
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	if (s->exit_by_pthread_exit)
		pthread_exit((char *)p + 1);
	return (char *)p + 2;
}

/* The steps of one world, for comparing.  Pointers into the thread's own
 * data are logged as offsets, so both worlds can agree. */
static void note_start(struct ip_log *l, const char *what, const struct start *s, pthread_t id)
{
	struct sigaction fake;

	memset(&fake, 0, sizeof(fake));
	sigemptyset(&fake.sa_mask);
	for (int i = 1; i < _NSIG; i++)
		if (s->blocked[i])
			sigaddset(&fake.sa_mask, i);
	ip_note(l, what, (s->arg == s) * 10 + pthread_equal(s->self, id), s->errno_at_start, &fake);
}

static char given_stack[2][256 * 1024] __attribute__((aligned(4096)));

static void scenario(create_fn create, struct ip_log *l, int world)
{
	static struct start s;
	pthread_attr_t attr;
	pthread_t t;
	void *ret;
	int r;
	sigset_t mask, old;

	/* Plain: a signal mask of the creator's own to inherit. */
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR2);
	sigaddset(&mask, SIGRTMIN + 4);
	pthread_sigmask(SIG_BLOCK, &mask, &old);
	for (int how = 0; how < 2; how++) {
		memset(&s, 0, sizeof(s));
		s.exit_by_pthread_exit = how;
		errno = IP_SENTINEL;
		r = create(&t, NULL, thread_main, &s);
		ip_note(l, "pthread_create", r, errno, NULL);
		errno = IP_SENTINEL;
		r = pthread_join(t, &ret);
		ip_note(l, "pthread_join", r, errno, NULL);
		ip_note(l, how ? "pthread_exit value" : "return value", (char *)ret - (char *)&s, 0, NULL);
		note_start(l, "new thread", &s, t);
		printf("  %s pthread_create: the start routine begins %td bytes below its stack's top\n",
		       world ? "libc's" : "ucsan's", (char *)s.stack_addr + s.stack_size - s.local);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);

	/* A stack size: the thread gets it. */
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 1 << 20);
	memset(&s, 0, sizeof(s));
	errno = IP_SENTINEL;
	r = create(&t, &attr, thread_main, &s);
	ip_note(l, "pthread_create with a 1 MiB stack", r, errno, NULL);
	pthread_join(t, NULL);
	ip_note(l, "(stack size)", (long)s.stack_size, 0, NULL);
	pthread_attr_destroy(&attr);

	/* A given stack: the thread runs on it. */
	pthread_attr_init(&attr);
	pthread_attr_setstack(&attr, given_stack[world], sizeof(given_stack[world]));
	memset(&s, 0, sizeof(s));
	errno = IP_SENTINEL;
	r = create(&t, &attr, thread_main, &s);
	ip_note(l, "pthread_create on a given stack", r, errno, NULL);
	pthread_join(t, NULL);
	ip_note(l, "(on the given stack, size)", (char *)s.stack_addr == given_stack[world], (long)s.stack_size, NULL);
	pthread_attr_destroy(&attr);

	/* Detached: runs. */
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	memset(&s, 0, sizeof(s));
	errno = IP_SENTINEL;
	r = create(&t, &attr, thread_main, &s);
	ip_note(l, "pthread_create detached", r, errno, NULL);
	while (!__atomic_load_n(&s.done, __ATOMIC_ACQUIRE))
		e2e_sleep_ms(1);

	pthread_attr_destroy(&attr);

	/* Too large to map: the error, and errno, as libc leaves them. */
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, (size_t)1 << 52);
	errno = IP_SENTINEL;
	r = create(&t, &attr, thread_main, &s);
	ip_note(l, "pthread_create with a 4 PiB stack", r, errno, NULL);
	pthread_attr_destroy(&attr);
	pthread_attr_init(&attr);
	pthread_attr_setguardsize(&attr, (size_t)1 << 52);
	errno = IP_SENTINEL;
	r = create(&t, &attr, thread_main, &s);
	ip_note(l, "pthread_create with a 4 PiB guard", r, errno, NULL);
	pthread_attr_destroy(&attr);
}

static void fork_keeps_errno(void)
{
	int status;
	pid_t pid;

	errno = IP_SENTINEL;
	pid = fork();
	if (pid == 0)
		_exit(errno == IP_SENTINEL ? 0 : 1);
	IP_EXPECT(pid > 0 && errno == IP_SENTINEL, "fork(): %d, errno %d in the parent", (int)pid, errno);
	IP_EXPECT(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "fork(): errno changed in the child (status %#x)", status);
}

int main(void)
{
	static struct ip_log l_ours, l_libc;
	create_fn ours = (create_fn)ip_ucsan_sym("pthread_create"), libc = (create_fn)ip_libc_sym("pthread_create");

	e2e_require_runtime();
	IP_EXPECT(ours == (create_fn)pthread_create, "the program's pthread_create is not ucsan's");
	scenario(ours, &l_ours, 0);
	scenario(libc, &l_libc, 1);
	ip_compare_logs("pthread_create", &l_ours, &l_libc);
	fork_keeps_errno();	/* one thread */
	e2e_keep_company();
	fork_keeps_errno();	/* two */
	return ip_finish("threads");
}
