// Which barrier retires which pending access (the kernel's
// barrier_nothreads), in one thread (an idle one keeps it company, as
// nothing is watched in a process with a single thread): a watched plain
// access becomes the
// pending one; each barrier kind must retire it or not, per the kernel's
// table. Checked through a debug hook of the runtime.
//
// CFLAGS: -O2 -g --ucsan-weak-memory
// OPTIONS: weak_memory=1 skip_watch=0 udelay_task=0
// EXIT: 0
// EXPECT-STDOUT: ^barrier table ok$
// NOT: BUG: UCSAN

#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <ucsan.h>

#include "e2e.h"

size_t __ucsan_debug_pending_access(void);

static int var;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_spinlock_t spin;
static sem_t sem;
static int failures;

/* The last plain access before the barrier must be the one probed: the
 * read's result goes to a volatile (marked) local. */
static int sink_read;
#define PLAIN_READ()                        \
	do {                                \
		volatile int read_ = var;   \
		(void)read_;                \
	} while (0)
#define PLAIN_WRITE() (var = __atomic_load_n(&sink_read, __ATOMIC_RELAXED) + 1)

/* Each probe: make an access pending, apply a barrier, expect pending or not. */
#define PROBE(name, access, barrier, expect_pending)                                        \
	NOINLINE void probe_##name(void)                                                    \
	{                                                                                   \
		access;                                                                     \
		if (!__ucsan_debug_pending_access()) {                                      \
			printf("e2e: %s: access did not become pending\n", #name);          \
			failures++;                                                         \
			return;                                                             \
		}                                                                           \
		barrier;                                                                    \
		if ((__ucsan_debug_pending_access() != 0) != (expect_pending)) {           \
			printf("e2e: %s: pending=%d after barrier, expected %d\n", #name,  \
			       (int)(__ucsan_debug_pending_access() != 0), expect_pending); \
			failures++;                                                         \
		}                                                                           \
	}

PROBE(read_mb, PLAIN_READ(), ucsan_mb(), 0)
PROBE(write_mb, PLAIN_WRITE(), ucsan_mb(), 0)
PROBE(read_wmb, PLAIN_READ(), ucsan_wmb(), 1)
PROBE(write_wmb, PLAIN_WRITE(), ucsan_wmb(), 0)
PROBE(read_rmb, PLAIN_READ(), ucsan_rmb(), 0)
PROBE(write_rmb, PLAIN_WRITE(), ucsan_rmb(), 1)
PROBE(write_release, PLAIN_WRITE(), ucsan_release(), 0)
PROBE(write_relaxed_store, PLAIN_WRITE(), __atomic_store_n(&sink_read, 1, __ATOMIC_RELAXED), 1)
PROBE(write_release_store, PLAIN_WRITE(), __atomic_store_n(&sink_read, 1, __ATOMIC_RELEASE), 0)
PROBE(write_acquire_load, PLAIN_WRITE(), (void)__atomic_load_n(&sink_read, __ATOMIC_ACQUIRE), 1)
PROBE(write_seq_cst_load, PLAIN_WRITE(), (void)__atomic_load_n(&sink_read, __ATOMIC_SEQ_CST), 0)
PROBE(write_relaxed_rmw, PLAIN_WRITE(), __atomic_fetch_add(&sink_read, 1, __ATOMIC_RELAXED), 1)
PROBE(write_acq_rel_rmw, PLAIN_WRITE(), __atomic_fetch_add(&sink_read, 1, __ATOMIC_ACQ_REL), 0)
PROBE(write_acquire_fence, PLAIN_WRITE(), __atomic_thread_fence(__ATOMIC_ACQUIRE), 1)
PROBE(write_release_fence, PLAIN_WRITE(), __atomic_thread_fence(__ATOMIC_RELEASE), 0)
PROBE(write_seq_cst_fence, PLAIN_WRITE(), __atomic_thread_fence(__ATOMIC_SEQ_CST), 0)
PROBE(write_mutex_unlock, (pthread_mutex_lock(&mu), PLAIN_WRITE()), pthread_mutex_unlock(&mu), 0)
PROBE(write_spin_unlock, (pthread_spin_lock(&spin), PLAIN_WRITE()), pthread_spin_unlock(&spin), 0)
PROBE(write_sem_post, PLAIN_WRITE(), sem_post(&sem), 0)

/* Returning from the function that made the access retires it too. */
NOINLINE void make_pending(void)
{
	PLAIN_WRITE();
}

int main(void)
{
	e2e_keep_company(); /* nothing is watched in a lone thread */
	pthread_spin_init(&spin, 0);
	sem_init(&sem, 0, 0);
	probe_read_mb();
	probe_write_mb();
	probe_read_wmb();
	probe_write_wmb();
	probe_read_rmb();
	probe_write_rmb();
	probe_write_release();
	probe_write_relaxed_store();
	probe_write_release_store();
	probe_write_acquire_load();
	probe_write_seq_cst_load();
	probe_write_relaxed_rmw();
	probe_write_acq_rel_rmw();
	probe_write_acquire_fence();
	probe_write_release_fence();
	probe_write_seq_cst_fence();
	probe_write_mutex_unlock();
	probe_write_spin_unlock();
	probe_write_sem_post();
	make_pending();
	if (__ucsan_debug_pending_access()) {
		printf("e2e: function return did not retire the pending access\n");
		failures++;
	}
	if (!failures)
		printf("barrier table ok\n");
	return failures;
}
