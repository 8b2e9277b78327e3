// A custom spinlock annotated with the mutex family of
// <sanitizer/tsan_interface.h>. Its critical section is ordinary code and
// is never run by two threads at once: no report. The lock's own racy
// bookkeeping (attempt and spin counters bumped by every locker) is inside
// the annotated lock operation, which TSan ignores and so does ucsan; the
// -DNO_ANNOTATIONS control shows both report it otherwise.
// The lock uses relaxed atomics and fences, from which TSan learns no
// happens-before: only the annotations keep TSan quiet about the critical
// section too.
//
// OPTIONS: skip_watch=0 udelay_task=20
// NOT: UCSAN
// TSAN-NOT: ThreadSanitizer
// UCSAN-CONTROL: -DNO_ANNOTATIONS
// UCSAN-CONTROL-EXPECT: ^BUG: UCSAN: data-race in spin_(try)?lock / spin_(try)?lock$
// TSAN-CONTROL: -DNO_ANNOTATIONS
// TSAN-CONTROL-EXPECT: WARNING: ThreadSanitizer: data race

#include "tsan_compat.h"

#ifdef NO_ANNOTATIONS
#define ANN(x) ((void)0)
#else
#define ANN(x) x
#endif

struct spinlock {
	int locked;
	unsigned long attempts, spins; /* statistics of the lock itself, racy */
};

static struct spinlock lock;
static unsigned long protected_counter;
static int protected_log[64];

NOINLINE static void spin_init(struct spinlock *l)
{
	l->locked = 0;
	l->attempts = l->spins = 0;
	ANN(__tsan_mutex_create(l, 0));
}

NOINLINE static void spin_lock(struct spinlock *l)
{
	ANN(__tsan_mutex_pre_lock(l, 0));
	l->attempts++;
	while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_RELAXED)) {
		l->spins++;
		sched_yield();
	}
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	ANN(__tsan_mutex_post_lock(l, 0, 0));
}

NOINLINE static int spin_trylock(struct spinlock *l)
{
	ANN(__tsan_mutex_pre_lock(l, __tsan_mutex_try_lock));
	l->attempts++;
	int ok = !__atomic_exchange_n(&l->locked, 1, __ATOMIC_RELAXED);
	if (ok)
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	ANN(__tsan_mutex_post_lock(l, ok ? __tsan_mutex_try_lock : __tsan_mutex_try_lock_failed, 0));
	return ok;
}

NOINLINE static void spin_unlock(struct spinlock *l)
{
	ANN(__tsan_mutex_pre_unlock(l, 0));
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELAXED);
	ANN(__tsan_mutex_post_unlock(l, 0));
}

NOINLINE static void spin_destroy(struct spinlock *l)
{
	ANN(__tsan_mutex_destroy(l, 0));
}

NOINLINE static void critical_section(int id)
{
	protected_counter++;
	protected_log[protected_counter % 64] = id;
}

static unsigned long rounds[3];

static void *worker(void *arg)
{
	int id = (int)(long)arg;
	unsigned long i, n = 0;
	for (i = 0; compat_continue(&n); i++) {
		if ((i & 7) == 0 && spin_trylock(&lock)) {
			critical_section(id);
			spin_unlock(&lock);
			continue;
		}
		spin_lock(&lock);
		critical_section(id);
		spin_unlock(&lock);
	}
	rounds[id] = i;
	return NULL;
}

int main(void)
{
	pthread_t t[3];

	e2e_require_runtime();
	spin_init(&lock);
	for (long i = 0; i < 3; i++)
		t[i] = e2e_spawn(worker, (void *)i);
	e2e_run_for(1000);
	for (int i = 0; i < 3; i++)
		e2e_join(t[i]);
	E2E_CHECK(protected_counter == rounds[0] + rounds[1] + rounds[2]);
	spin_destroy(&lock);
	printf("rounds: %lu, attempts: %lu, spins: %lu\n", protected_counter, lock.attempts, lock.spins);
	return 0;
}
