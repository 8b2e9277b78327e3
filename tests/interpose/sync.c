// The release operations ucsan interposes (to retire a pending access for
// weak_memory before they publish): pthread_mutex_unlock,
// pthread_spin_unlock, pthread_rwlock_unlock, pthread_cond_signal,
// pthread_cond_broadcast, pthread_cond_wait, pthread_cond_timedwait,
// pthread_barrier_wait and sem_post behave exactly like libc's own: the
// same return values and errno, on success and on the error paths (an
// error-checking mutex not held, a recursive one unlocked once too often,
// a semaphore at SEM_VALUE_MAX, a wait on a mutex not held, a timeout
// already past or malformed), the same state afterwards (who holds the
// lock, the semaphore's value), waiters woken, one barrier thread
// PTHREAD_BARRIER_SERIAL_THREAD.  Each scenario runs with ucsan's functions
// and with libc's (dlsym on libc.so.6), logs compared (interpose.h).
//
// CFLAGS: -O2 -g -std=gnu11 -Wall -Wextra -Werror
// TIMEOUT: 120
// EXPECT-STDOUT: ^sync: [0-9]+ checks, 0 failed$
// NOT: UCSAN

#include "interpose.h"

#include <limits.h>
#include <semaphore.h>

struct fns {
	int (*mutex_unlock)(pthread_mutex_t *);
	int (*spin_unlock)(pthread_spinlock_t *);
	int (*rwlock_unlock)(pthread_rwlock_t *);
	int (*cond_signal)(pthread_cond_t *);
	int (*cond_broadcast)(pthread_cond_t *);
	int (*cond_wait)(pthread_cond_t *, pthread_mutex_t *);
	int (*cond_timedwait)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);
	int (*barrier_wait)(pthread_barrier_t *);
	int (*sem_post)(sem_t *);
};

#define GET_ALL(get, f)                                                                                    \
	do {                                                                                               \
		(f).mutex_unlock = (__typeof__((f).mutex_unlock))get("pthread_mutex_unlock");              \
		(f).spin_unlock = (__typeof__((f).spin_unlock))get("pthread_spin_unlock");                 \
		(f).rwlock_unlock = (__typeof__((f).rwlock_unlock))get("pthread_rwlock_unlock");           \
		(f).cond_signal = (__typeof__((f).cond_signal))get("pthread_cond_signal");                 \
		(f).cond_broadcast = (__typeof__((f).cond_broadcast))get("pthread_cond_broadcast");        \
		(f).cond_wait = (__typeof__((f).cond_wait))get("pthread_cond_wait");                       \
		(f).cond_timedwait = (__typeof__((f).cond_timedwait))get("pthread_cond_timedwait");        \
		(f).barrier_wait = (__typeof__((f).barrier_wait))get("pthread_barrier_wait");              \
		(f).sem_post = (__typeof__((f).sem_post))get("sem_post");                                  \
	} while (0)

static const struct fns *F; /* the world the running scenario uses */
static struct ip_log *L;

/* How many calls found a weak_memory access pending (which ucsan's
 * release operations retire first): sync_weak.c runs this with it on. */
static size_t (*pending_access)(void);
static int calls, pending;

/* Log a call's result and errno (errno preset to the sentinel). */
#define CALL(what, expr)                                                                                   \
	do {                                                                                               \
		errno = IP_SENTINEL;                                                                       \
		pending += pending_access() != 0;                                                          \
		calls++;                                                                                   \
		long r_ = (long)(expr);                                                                    \
		ip_note(L, what, r_, errno, NULL);                                                         \
	} while (0)

static void init_mutex(pthread_mutex_t *m, int type)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, type);
	pthread_mutex_init(m, &a);
	pthread_mutexattr_destroy(&a);
}

static pthread_mutex_t other_m;
static void *lock_other(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&other_m);
	return NULL;
}

static void mutexes(void)
{
	static const int types[] = { PTHREAD_MUTEX_NORMAL, PTHREAD_MUTEX_ERRORCHECK, PTHREAD_MUTEX_RECURSIVE };
	pthread_mutex_t m;

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		init_mutex(&m, types[i]);
		pthread_mutex_lock(&m);
		if (types[i] == PTHREAD_MUTEX_RECURSIVE)
			pthread_mutex_lock(&m);
		CALL("mutex_unlock, held", F->mutex_unlock(&m));
		if (types[i] == PTHREAD_MUTEX_RECURSIVE)
			CALL("mutex_unlock, held once more", F->mutex_unlock(&m));
		CALL("(trylock after)", pthread_mutex_trylock(&m));
		CALL("mutex_unlock", F->mutex_unlock(&m));
		if (types[i] != PTHREAD_MUTEX_NORMAL) /* undefined for a normal one */
			CALL("mutex_unlock, not held", F->mutex_unlock(&m));
		pthread_mutex_destroy(&m);
	}
	/* Held by another thread (which has ended): EPERM for error-checking. */
	init_mutex(&other_m, PTHREAD_MUTEX_ERRORCHECK);
	e2e_join(e2e_spawn(lock_other, NULL));
	CALL("mutex_unlock, held by another thread", F->mutex_unlock(&other_m));
}

static void spin_and_rwlocks(void)
{
	pthread_spinlock_t s;
	pthread_rwlock_t rw;

	pthread_spin_init(&s, PTHREAD_PROCESS_PRIVATE);
	pthread_spin_lock(&s);
	CALL("spin_unlock", F->spin_unlock(&s));
	CALL("(spin_trylock after)", pthread_spin_trylock(&s));
	CALL("spin_unlock again", F->spin_unlock(&s));
	pthread_spin_destroy(&s);

	pthread_rwlock_init(&rw, NULL);
	pthread_rwlock_rdlock(&rw);
	pthread_rwlock_rdlock(&rw);
	CALL("rwlock_unlock, read-held twice", F->rwlock_unlock(&rw));
	CALL("(trywrlock with one reader left)", pthread_rwlock_trywrlock(&rw));
	CALL("rwlock_unlock, read-held", F->rwlock_unlock(&rw));
	pthread_rwlock_wrlock(&rw);
	CALL("rwlock_unlock, write-held", F->rwlock_unlock(&rw));
	CALL("(trywrlock after)", pthread_rwlock_trywrlock(&rw));
	CALL("rwlock_unlock", F->rwlock_unlock(&rw));
	pthread_rwlock_destroy(&rw);
}

static void semaphores(void)
{
	sem_t s;
	int v;

	sem_init(&s, 0, 0);
	CALL("sem_post", F->sem_post(&s));
	sem_getvalue(&s, &v);
	CALL("(value after)", v);
	sem_destroy(&s);
	sem_init(&s, 0, SEM_VALUE_MAX);
	CALL("sem_post at SEM_VALUE_MAX", F->sem_post(&s));
	sem_getvalue(&s, &v);
	CALL("(value after)", v == SEM_VALUE_MAX);
	sem_destroy(&s);
}

/* A waiter woken by the world's signal/broadcast (or let through by
 * its barrier), in a thread of its own. */
static struct {
	pthread_mutex_t m;
	pthread_cond_t c;
	int ready, go, woke;
	pthread_barrier_t b;
	int serial;
} w;

static void *waiter(void *arg)
{
	int timed = arg != NULL, r = 0;

	pthread_mutex_lock(&w.m);
	w.ready++;
	while (!w.go && r == 0) {
		if (timed) {
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_sec += 60;
			r = F->cond_timedwait(&w.c, &w.m, &ts);
		} else {
			r = F->cond_wait(&w.c, &w.m);
		}
	}
	w.woke += r == 0;
	pthread_mutex_unlock(&w.m);
	return NULL;
}

static void *barrier_thread(void *arg)
{
	(void)arg;
	int r = F->barrier_wait(&w.b);
	__atomic_fetch_add(&w.serial, r == PTHREAD_BARRIER_SERIAL_THREAD ? 1 : r == 0 ? 100 : 10000,
			   __ATOMIC_RELAXED);
	return NULL;
}

static void wake(int broadcast, int waiters, int timed)
{
	pthread_t t[3];

	pthread_mutex_init(&w.m, NULL);
	pthread_cond_init(&w.c, NULL);
	w.ready = w.go = w.woke = 0;
	for (int i = 0; i < waiters; i++)
		t[i] = e2e_spawn(waiter, timed ? &w : NULL);
	for (;;) { /* until all wait */
		pthread_mutex_lock(&w.m);
		int n = w.ready;
		pthread_mutex_unlock(&w.m);
		if (n == waiters)
			break;
		e2e_sleep_ms(1);
	}
	pthread_mutex_lock(&w.m); /* they are in the wait now */
	w.go = 1;
	if (broadcast)
		CALL("cond_broadcast with waiters", F->cond_broadcast(&w.c));
	else
		for (int i = 0; i < waiters; i++)
			CALL("cond_signal with a waiter", F->cond_signal(&w.c));
	pthread_mutex_unlock(&w.m);
	for (int i = 0; i < waiters; i++)
		e2e_join(t[i]);
	CALL("(waiters woken)", w.woke);
	pthread_cond_destroy(&w.c);
	pthread_mutex_destroy(&w.m);
}

static void conditions(void)
{
	pthread_mutex_t m;
	pthread_cond_t c;
	struct timespec ts;

	pthread_cond_init(&c, NULL);
	CALL("cond_signal, no waiter", F->cond_signal(&c));
	CALL("cond_broadcast, no waiter", F->cond_broadcast(&c));

	init_mutex(&m, PTHREAD_MUTEX_ERRORCHECK);
	CALL("cond_wait on a mutex not held", F->cond_wait(&c, &m));
	clock_gettime(CLOCK_REALTIME, &ts);
	CALL("cond_timedwait on a mutex not held", F->cond_timedwait(&c, &m, &ts));
	pthread_mutex_lock(&m);
	ts.tv_sec -= 1;
	CALL("cond_timedwait, time past", F->cond_timedwait(&c, &m, &ts));
	CALL("(mutex held after: relock)", pthread_mutex_lock(&m));
	ts.tv_nsec = 1000000000;
	CALL("cond_timedwait, tv_nsec 1e9", F->cond_timedwait(&c, &m, &ts));
	ts.tv_nsec = -1;
	CALL("cond_timedwait, tv_nsec -1", F->cond_timedwait(&c, &m, &ts));
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec = (ts.tv_nsec + 20000000) % 1000000000;
	ts.tv_sec += ts.tv_nsec < 20000000;
	CALL("cond_timedwait, 20 ms", F->cond_timedwait(&c, &m, &ts));
	CALL("(mutex held after: unlock)", pthread_mutex_unlock(&m));
	pthread_mutex_destroy(&m);
	pthread_cond_destroy(&c);

	wake(0, 1, 0);
	wake(0, 2, 1);
	wake(1, 3, 0);
	wake(1, 2, 1);
}

static void barriers(void)
{
	pthread_t t[3];

	pthread_barrier_init(&w.b, NULL, 1);
	CALL("barrier_wait, count 1", F->barrier_wait(&w.b));
	CALL("barrier_wait, count 1, again", F->barrier_wait(&w.b));
	pthread_barrier_destroy(&w.b);
	pthread_barrier_init(&w.b, NULL, 3);
	w.serial = 0;
	for (int i = 0; i < 3; i++)
		t[i] = e2e_spawn(barrier_thread, NULL);
	for (int i = 0; i < 3; i++)
		e2e_join(t[i]);
	CALL("(barrier of 3: serial + 100 * others)", w.serial);
	pthread_barrier_destroy(&w.b);
}

static void scenario(const struct fns *f, struct ip_log *l)
{
	F = f;
	L = l;
	mutexes();
	spin_and_rwlocks();
	semaphores();
	conditions();
	barriers();
}

int main(void)
{
	static struct ip_log l_ours, l_libc;
	struct fns ours, libc;

	e2e_require_runtime();
	e2e_keep_company(); /* the runtime checks as in any threaded program */
	pending_access = (size_t(*)(void))ip_ucsan_sym("__ucsan_debug_pending_access");
	GET_ALL(ip_ucsan_sym, ours);
	GET_ALL(ip_libc_sym, libc);
	IP_EXPECT(ours.mutex_unlock == pthread_mutex_unlock, "the program's pthread_mutex_unlock is not ucsan's");
	scenario(&ours, &l_ours);
	printf("a weak_memory access was pending before %d of %d calls\n", pending, calls);
	scenario(&libc, &l_libc);
	ip_compare_logs("release operations", &l_ours, &l_libc);
	return ip_finish("sync");
}
