// __tsan_mutex_pre_divert/post_divert, as TSan documents and implements
// them: inside an annotated lock operation, a call out to unrelated code (a
// lock-event tracer here) is checked again. The tracer's racy counter is
// reported, by TSan and by ucsan; the lock's own counters, inside the lock
// operation but outside the divert, are not.
//
// OPTIONS: skip_watch=0
// TRIES: 3
// EXIT: 66
// EXPECT: ^BUG: UCSAN: data-race in trace_lock_event / trace_lock_event$
// NOT: ^BUG: UCSAN: .*(spin_lock|critical_section)
// TSAN-EXIT: 66
// TSAN-EXPECT: ^    #0 trace_lock_event
// TSAN-NOT: ^    #0 (spin_lock|critical_section)

#include "tsan_compat.h"

struct spinlock {
	int locked;
	unsigned long attempts, spins;
};

static struct spinlock lock;
static unsigned long lock_events; /* the tracer's, unprotected */
static unsigned long protected_counter;

NOINLINE static void trace_lock_event(void)
{
	lock_events++;
}

NOINLINE static void spin_lock(struct spinlock *l)
{
	__tsan_mutex_pre_lock(l, 0);
	__tsan_mutex_pre_divert(l, 0);
	trace_lock_event();
	__tsan_mutex_post_divert(l, 0);
	l->attempts++;
	while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_RELAXED)) {
		l->spins++;
		sched_yield();
	}
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	__tsan_mutex_post_lock(l, 0, 0);
}

NOINLINE static void spin_unlock(struct spinlock *l)
{
	__tsan_mutex_pre_unlock(l, 0);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELAXED);
	__tsan_mutex_post_unlock(l, 0);
}

NOINLINE static void critical_section(void)
{
	protected_counter++;
}

static void *worker(void *arg)
{
	unsigned long n = 0;
	(void)arg;
	while (compat_continue(&n)) {
		spin_lock(&lock);
		critical_section();
		spin_unlock(&lock);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[3];

	e2e_require_runtime();
	__tsan_mutex_create(&lock, __tsan_mutex_linker_init);
	for (int i = 0; i < 3; i++)
		t[i] = e2e_spawn(worker, NULL);
	e2e_run_for(1500);
	for (int i = 0; i < 3; i++)
		e2e_join(t[i]);
	printf("events: %lu, spins: %lu\n", lock_events, lock.spins);
	return 0;
}
