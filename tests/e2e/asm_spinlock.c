// No race: a spinlock written in inline asm (xchg to lock, a movl to
// unlock), invisible to the runtime, protects plain counters updated by two
// threads: well over a million plain accesses under skip_watch=0, none of
// which overlap in time.
//
// OPTIONS: skip_watch=0 udelay_task=1 udelay_interrupt=1 print_stats=1
// TIMEOUT: 120
// EXPECT: ^UCSAN: stats: setup_watchpoints: ([3-9][0-9]{5}|[0-9]{7,})$
// EXPECT: ^UCSAN: stats: data_races: 0$
// NOT: BUG|UCSAN: reported

#include "e2e.h"

#if !defined(__x86_64__) && !defined(__i386__)
#error "asm_spinlock.c needs x86"
#endif

#define ITERS 160000     /* x 4 plain accesses x 2 threads */

int lock_word;           /* only ever touched from asm */
long counter;
long per_thread[2];

static inline void spin_lock(int *lock)
{
	int v;

	do {
		v = 1;
		__asm__ __volatile__("xchgl %0, %1"
				     : "+r"(v), "+m"(*lock)
				     :
				     : "memory");
		if (v == 0)
			break;
		__asm__ __volatile__("pause" ::: "memory");
	} while (1);
}

static inline void spin_unlock(int *lock)
{
	__asm__ __volatile__("movl $0, %0" : "=m"(*lock) : : "memory");
}

NOINLINE void critical(int t)
{
	counter = counter + 1;           /* read + write */
	per_thread[t] += 1;              /* read + write */
}

static void *worker(void *arg)
{
	int t = (int)(long)arg;
	long i;

	for (i = 0; i < ITERS; i++) {
		spin_lock(&lock_word);
		critical(t);
		spin_unlock(&lock_word);
	}
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	e2e_require_runtime();
	a = e2e_spawn(worker, (void *)0L);
	b = e2e_spawn(worker, (void *)1L);
	e2e_join(a);
	e2e_join(b);
	fprintf(stderr, "plain accesses under the spinlock: %ld\n", 4L * 2 * ITERS);
	E2E_CHECK(counter == 2L * ITERS);
	E2E_CHECK(per_thread[0] == ITERS && per_thread[1] == ITERS);
	return 0;
}
