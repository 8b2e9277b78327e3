// The waits ucsan interposes (a thread parked by a cold stall looks there
// whether that stall has ended): nanosleep, clock_nanosleep, usleep, sleep,
// sched_yield, pthread_join and sem_wait behave exactly like libc's own:
// the same return values and errno, on success and on the error paths (a
// malformed or negative time, a bad pointer, a clock that cannot sleep, a
// join of oneself, a sleep cut short by a signal, with the time left
// written over the time asked for), the same state afterwards (a joined
// thread's result, the semaphore's value).  Each scenario runs with ucsan's
// functions and with libc's (dlsym on libc.so.6), logs compared
// (interpose.h).
//
// CFLAGS: -O2 -g -std=gnu11 -Wall -Wextra -Werror
// TIMEOUT: 120
// EXPECT-STDOUT: ^wakeups: [0-9]+ checks, 0 failed$
// NOT: UCSAN

#include "interpose.h"

#include <semaphore.h>
#include <stdatomic.h>
#include <time.h>

struct fns {
	int (*nanosleep)(const struct timespec *, struct timespec *);
	int (*clock_nanosleep)(clockid_t, int, const struct timespec *, struct timespec *);
	int (*usleep)(useconds_t);
	unsigned int (*sleep)(unsigned int);
	int (*sched_yield)(void);
	int (*join)(pthread_t, void **);
	int (*sem_wait)(sem_t *);
};

#define GET_ALL(get, f)                                                                            \
	do {                                                                                       \
		(f).nanosleep = (__typeof__((f).nanosleep))get("nanosleep");                       \
		(f).clock_nanosleep = (__typeof__((f).clock_nanosleep))get("clock_nanosleep");     \
		(f).usleep = (__typeof__((f).usleep))get("usleep");                                \
		(f).sleep = (__typeof__((f).sleep))get("sleep");                                   \
		(f).sched_yield = (__typeof__((f).sched_yield))get("sched_yield");                 \
		(f).join = (__typeof__((f).join))get("pthread_join");                              \
		(f).sem_wait = (__typeof__((f).sem_wait))get("sem_wait");                          \
	} while (0)

static const struct fns *F; /* the world the running scenario uses */
static struct ip_log *L;

#define CALL(what, expr) IP_CALL(L, what, expr)

static void sleeps(void)
{
	struct timespec rem = { 7, 7 };
	const struct timespec us1 = { 0, 1000 }, neg = { 0, -1 }, big = { 0, 1000000000 }, past = { 1, 0 };

	CALL("sched_yield", F->sched_yield());
	CALL("nanosleep 1 us", F->nanosleep(&us1, &rem));
	CALL("nanosleep, negative", F->nanosleep(&neg, &rem));
	CALL("nanosleep, tv_nsec 1e9", F->nanosleep(&big, NULL));
	CALL("clock_nanosleep 1 us", F->clock_nanosleep(CLOCK_MONOTONIC, 0, &us1, &rem));
	CALL("clock_nanosleep, absolute past", F->clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &past, NULL));
	CALL("clock_nanosleep, negative", F->clock_nanosleep(CLOCK_MONOTONIC, 0, &neg, NULL));
	CALL("clock_nanosleep, thread cpu clock", F->clock_nanosleep(CLOCK_THREAD_CPUTIME_ID, 0, &us1, NULL));
	/* A bad pointer: the kernel says EFAULT, and nothing reads it after. */
	CALL("nanosleep, bad pointer", F->nanosleep((const struct timespec *)8, NULL));
	CALL("clock_nanosleep, bad pointer", F->clock_nanosleep(CLOCK_MONOTONIC, 0, (const struct timespec *)8, NULL));
	CALL("usleep 0", F->usleep(0));
	CALL("usleep 10", F->usleep(10));
	CALL("sleep 0", F->sleep(0));
}

/* A long sleep cut short by SIGUSR1 (no SA_RESTART), sent again and again
 * until the sleeper is back: -1/EINTR (or EINTR returned, or what sleep
 * had left), with time left over. */
static volatile sig_atomic_t interrupted;
static _Atomic int sleeper_back;
static void on_usr1(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void *interrupter(void *arg)
{
	pthread_t sleeper = *(pthread_t *)arg;

	while (!atomic_load(&sleeper_back)) {
		struct timespec ts = { 0, 20000000 };
		nanosleep(&ts, NULL);
		pthread_kill(sleeper, SIGUSR1);
	}
	return NULL;
}

static void interrupted_sleep(int which)
{
	struct sigaction sa;
	pthread_t self = pthread_self(), t;
	struct timespec rem = { 0, 0 };
	const struct timespec long_ts = { 60, 0 };
	long r = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	atomic_store(&sleeper_back, 0);
	interrupted = 0;
	t = e2e_spawn(interrupter, &self);
	errno = IP_SENTINEL;
	switch (which) {
	case 0:
		/* The usual retry loop's call: the time left written over the
		 * time asked for. */
		rem = long_ts;
		r = F->nanosleep(&rem, &rem);
		break;
	case 1:
		r = F->clock_nanosleep(CLOCK_MONOTONIC, 0, &long_ts, &rem);
		break;
	case 2:
		r = F->usleep(60000000);
		break;
	default:
		r = F->sleep(60);
		break;
	}
	const int err = errno;
	atomic_store(&sleeper_back, 1);
	e2e_join(t);
	signal(SIGUSR1, SIG_DFL);
	static const char *const names[] = { "nanosleep, interrupted", "clock_nanosleep, interrupted",
					     "usleep, interrupted", "sleep, interrupted (time left > 0)" };
	ip_note(L, names[which], which == 3 ? r > 0 : r, err, NULL);
	ip_note(L, "(time left > 0, handler ran)", (which < 2 ? rem.tv_sec > 0 : 1) + 10 * interrupted, 0, NULL);
}

static void *returns_arg(void *arg)
{
	return arg;
}

static void joins(void)
{
	void *res = NULL;
	pthread_t t;

	pthread_create(&t, NULL, returns_arg, (void *)0x1234);
	CALL("join", F->join(t, &res));
	CALL("(its result)", (long)(uintptr_t)res);
	pthread_create(&t, NULL, returns_arg, NULL);
	CALL("join, no result wanted", F->join(t, NULL));
	CALL("join oneself", F->join(pthread_self(), NULL));
}

static void semaphores(void)
{
	sem_t s;
	int v = -1;

	sem_init(&s, 0, 2);
	CALL("sem_wait", F->sem_wait(&s));
	sem_getvalue(&s, &v);
	CALL("(value after)", v);
	CALL("sem_wait again", F->sem_wait(&s));
	sem_getvalue(&s, &v);
	CALL("(value after)", v);
	sem_destroy(&s);
}

static void scenario(const struct fns *f, struct ip_log *l)
{
	F = f;
	L = l;
	sleeps();
	for (int i = 0; i < 4; i++)
		interrupted_sleep(i);
	joins();
	semaphores();
}

int main(void)
{
	static struct ip_log l_ours, l_libc;
	struct fns ours, libc;

	e2e_require_runtime();
	e2e_keep_company(); /* the runtime checks as in any threaded program */
	GET_ALL(ip_ucsan_sym, ours);
	GET_ALL(ip_libc_sym, libc);
	IP_EXPECT(ours.nanosleep == nanosleep, "the program's nanosleep is not ucsan's");
	scenario(&ours, &l_ours);
	scenario(&libc, &l_libc);
	ip_compare_logs("waits", &l_ours, &l_libc);
	return ip_finish("wakeups");
}
