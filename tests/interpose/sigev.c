// timer_create() and mq_notify(), which ucsan interposes for their
// SIGEV_THREAD notifications (it hands libc a function of its own that
// runs the program's as a counted thread), behave exactly like libc's
// own: the same results and errno on success and on the error paths (a
// clock that does not exist, a bad message queue descriptor), requests
// that are not SIGEV_THREAD (none, a signal, no sigevent at all), and a
// SIGEV_THREAD callback that gets the value it was given, in a thread of
// its own, once per expiry. Each scenario runs with ucsan's functions and
// with libc's (dlsym on libc.so.6), logs compared (interpose.h).
//
// CFLAGS: -O2 -g -std=gnu11 -Wall -Wextra -Werror
// EXPECT-STDOUT: ^sigev: [0-9]+ checks, 0 failed$
// NOT: UCSAN

#include "interpose.h"

#include <mqueue.h>
#include <stdatomic.h>
#include <time.h>

struct fns {
	int (*timer_create)(clockid_t, struct sigevent *, timer_t *);
	int (*mq_notify)(mqd_t, const struct sigevent *);
};

static const struct fns *F;
static struct ip_log *L;

#define CALL(what, expr) IP_CALL(L, what, expr)

static _Atomic int calls, value_seen, other_thread;
static pthread_t main_thread;

static void on_expiry(union sigval v)
{
	atomic_store(&value_seen, v.sival_int);
	atomic_store(&other_thread, !pthread_equal(pthread_self(), main_thread));
	atomic_fetch_add(&calls, 1);
}

static void timers(void)
{
	struct sigevent ev = e2e_sigev_thread(on_expiry, 77);
	timer_t t;

	CALL("timer_create, no such clock", F->timer_create((clockid_t)12345, &ev, &t));
	CALL("timer_create, no sigevent", F->timer_create(CLOCK_MONOTONIC, NULL, &t));
	timer_delete(t);
	struct sigevent none = { .sigev_notify = SIGEV_NONE };
	CALL("timer_create, SIGEV_NONE", F->timer_create(CLOCK_MONOTONIC, &none, &t));
	timer_delete(t);
	struct sigevent sig = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR2 };
	CALL("timer_create, SIGEV_SIGNAL", F->timer_create(CLOCK_MONOTONIC, &sig, &t));
	timer_delete(t);

	atomic_store(&calls, 0);
	CALL("timer_create, SIGEV_THREAD", F->timer_create(CLOCK_MONOTONIC, &ev, &t));
	const struct itimerspec once = { { 0, 0 }, { 0, 1000000 } };
	CALL("timer_settime", timer_settime(t, 0, &once, NULL));
	for (int i = 0; i < 2000 && atomic_load(&calls) == 0; i++)
		e2e_sleep_ms(1);
	e2e_sleep_ms(5); /* a second call would show */
	CALL("timer_delete", timer_delete(t));
	ip_note(L, "(calls)", atomic_load(&calls), 0, NULL);
	ip_note(L, "(value seen)", atomic_load(&value_seen), 0, NULL);
	ip_note(L, "(in another thread)", atomic_load(&other_thread), 0, NULL);
}

static void queues(void)
{
	struct sigevent ev = e2e_sigev_thread(on_expiry, 0);

	CALL("mq_notify, bad descriptor", F->mq_notify((mqd_t)-1, &ev));
	CALL("mq_notify, not a queue", F->mq_notify((mqd_t)0, &ev));
	CALL("mq_notify, bad descriptor, no sigevent", F->mq_notify((mqd_t)-1, NULL));
}

static void scenario(const struct fns *f, struct ip_log *l)
{
	F = f;
	L = l;
	timers();
	queues();
}

int main(void)
{
	static struct ip_log l_ours, l_libc;
	struct fns ours, libc;

	e2e_require_runtime();
	main_thread = pthread_self();
	ours.timer_create = (__typeof__(ours.timer_create))ip_ucsan_sym("timer_create");
	ours.mq_notify = (__typeof__(ours.mq_notify))ip_ucsan_sym("mq_notify");
	libc.timer_create = (__typeof__(libc.timer_create))ip_libc_sym("timer_create");
	libc.mq_notify = (__typeof__(libc.mq_notify))ip_libc_sym("mq_notify");
	IP_EXPECT(ours.timer_create != libc.timer_create, "ucsan does not define timer_create");
	scenario(&ours, &l_ours);
	scenario(&libc, &l_libc);
	ip_compare_logs("sigev", &l_ours, &l_libc);
	return ip_finish("sigev");
}
