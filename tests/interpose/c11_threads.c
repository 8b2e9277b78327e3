// The C11 <threads.h> functions ucsan stands in for (glibc makes them on
// its pthread functions inside libc, past the interposers, so ucsan makes
// them on the public ones): thrd_create, thrd_join, thrd_sleep, mtx_lock,
// mtx_trylock, mtx_timedlock, mtx_unlock, cnd_wait and cnd_timedwait
// behave exactly like libc's own: the same results on success and on the
// error paths (a mutex busy in another thread or, not recursive, in this
// one, a timed wait past its deadline, a join of oneself, a malformed
// sleep), the thread's int result through thrd_join, thrd_exit's too, and
// the state afterwards. Each scenario runs with ucsan's functions and with libc's
// (dlsym on libc.so.6), logs compared (interpose.h).
//
// CFLAGS: -O2 -g -std=gnu11 -Wall -Wextra -Werror
// EXPECT-STDOUT: ^c11_threads: [0-9]+ checks, 0 failed$
// NOT: UCSAN

#include "interpose.h"

#include <threads.h>

struct fns {
	int (*create)(thrd_t *, thrd_start_t, void *);
	int (*join)(thrd_t, int *);
	int (*sleep)(const struct timespec *, struct timespec *);
	int (*lock)(mtx_t *);
	int (*trylock)(mtx_t *);
	int (*timedlock)(mtx_t *restrict, const struct timespec *restrict);
	int (*unlock)(mtx_t *);
	int (*wait)(cnd_t *, mtx_t *);
	int (*timedwait)(cnd_t *restrict, mtx_t *restrict, const struct timespec *restrict);
};

#define GET_ALL(get, f)                                                                    \
	do {                                                                               \
		(f).create = (__typeof__((f).create))get("thrd_create");                   \
		(f).join = (__typeof__((f).join))get("thrd_join");                         \
		(f).sleep = (__typeof__((f).sleep))get("thrd_sleep");                      \
		(f).lock = (__typeof__((f).lock))get("mtx_lock");                          \
		(f).trylock = (__typeof__((f).trylock))get("mtx_trylock");                 \
		(f).timedlock = (__typeof__((f).timedlock))get("mtx_timedlock");           \
		(f).unlock = (__typeof__((f).unlock))get("mtx_unlock");                    \
		(f).wait = (__typeof__((f).wait))get("cnd_wait");                          \
		(f).timedwait = (__typeof__((f).timedwait))get("cnd_timedwait");           \
	} while (0)

static const struct fns *F; /* the world the running scenario uses */
static struct ip_log *L;

#define CALL(what, expr) ip_note(L, what, (long)(expr), 0, NULL)

static int returns_arg(void *arg)
{
	return (int)(intptr_t)arg;
}

static int exits_early(void *arg)
{
	thrd_exit((int)(intptr_t)arg + 1);
}

static mtx_t held; /* locked by main while a thread tries it */

static int tries_held(void *arg)
{
	(void)arg;
	return F->trylock(&held);
}

static void threads(void)
{
	thrd_t t;
	int res = 0;

	CALL("create", F->create(&t, returns_arg, (void *)(intptr_t)-42));
	CALL("join", F->join(t, &res));
	CALL("(its result)", res);
	CALL("create", F->create(&t, exits_early, (void *)(intptr_t)7));
	CALL("join (thrd_exit)", F->join(t, &res));
	CALL("(its result)", res);
	CALL("create", F->create(&t, returns_arg, NULL));
	CALL("join, no result wanted", F->join(t, NULL));
	CALL("join oneself", F->join(thrd_current(), NULL));
}

static void sleeps(void)
{
	const struct timespec us1 = { 0, 1000 }, neg = { 0, -1 }, big = { 0, 1000000000 };
	struct timespec rem = { 7, 7 };

	CALL("sleep 1 us", F->sleep(&us1, &rem));
	CALL("sleep, negative", F->sleep(&neg, NULL));
	CALL("sleep, tv_nsec 1e9", F->sleep(&big, NULL));
}

static void mutexes(void)
{
	mtx_t m;
	cnd_t c;
	thrd_t t;
	int res = -1;
	struct timespec past;

	timespec_get(&past, TIME_UTC);
	past.tv_sec -= 1;
	mtx_init(&m, mtx_timed);
	cnd_init(&c);
	CALL("lock", F->lock(&m));
	CALL("trylock, held by this thread", F->trylock(&m));
	CALL("unlock", F->unlock(&m));
	CALL("trylock", F->trylock(&m));
	CALL("unlock", F->unlock(&m));
	CALL("timedlock, free", F->timedlock(&m, &past));
	CALL("timedwait, past deadline", F->timedwait(&c, &m, &past));
	CALL("unlock", F->unlock(&m));
	mtx_destroy(&m);

	mtx_init(&m, mtx_plain | mtx_recursive);
	CALL("lock, recursive", F->lock(&m));
	CALL("lock again, recursive", F->lock(&m));
	CALL("unlock", F->unlock(&m));
	CALL("unlock", F->unlock(&m));
	mtx_destroy(&m);

	mtx_init(&held, mtx_timed);
	CALL("lock", F->lock(&held));
	F->create(&t, tries_held, NULL);
	F->join(t, &res);
	CALL("(trylock by another thread)", res);
	CALL("unlock", F->unlock(&held));
	mtx_destroy(&held);
	cnd_destroy(&c);
}

/* A wait woken by a signal from another thread: thrd_success. */
static mtx_t wm;
static cnd_t wc;
static int flag;

static int signaller(void *arg)
{
	(void)arg;
	F->lock(&wm);
	flag = 1;
	cnd_signal(&wc);
	F->unlock(&wm);
	return 0;
}

static void waits(void)
{
	thrd_t t;

	mtx_init(&wm, mtx_plain);
	cnd_init(&wc);
	flag = 0;
	CALL("lock", F->lock(&wm));
	F->create(&t, signaller, NULL);
	long r = 0;
	while (!flag && r == 0)
		r = F->wait(&wc, &wm);
	CALL("wait, signalled", r);
	CALL("(flag)", flag);
	CALL("unlock", F->unlock(&wm));
	F->join(t, NULL);
	mtx_destroy(&wm);
	cnd_destroy(&wc);
}

static void scenario(const struct fns *f, struct ip_log *l)
{
	F = f;
	L = l;
	threads();
	sleeps();
	mutexes();
	waits();
}

int main(void)
{
	static struct ip_log l_ours, l_libc;
	struct fns ours, libc;

	e2e_require_runtime();
	GET_ALL(ip_ucsan_sym, ours);
	GET_ALL(ip_libc_sym, libc);
	IP_EXPECT(ours.create == thrd_create, "the program's thrd_create is not ucsan's");
	IP_EXPECT(ours.create != libc.create, "ucsan does not define thrd_create");
	scenario(&ours, &l_ours);
	scenario(&libc, &l_libc);
	ip_compare_logs("c11", &l_ours, &l_libc);
	return ip_finish("c11_threads");
}
