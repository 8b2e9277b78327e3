// SPDX-License-Identifier: Apache-2.0
/*
 * taskstats: the threads of a dying thread group race to allocate the
 * group's statistics, double-checked locking without the barriers.
 *
 * A user-space model of the first bug syzbot found with KCSAN, fixed by
 * Christian Brauner's "taskstats: fix data-race" (v5; seed 011):
 *
 *     When assiging and testing taskstats in taskstats_exit() there's a
 *     race when writing and reading sig->stats when a thread-group with
 *     more than one thread exits:
 *
 *     cpu0: thread catches fatal signal and whole thread-group gets taken
 *           down: do_exit() -> do_group_exit() -> taskstats_exit() ->
 *           taskstats_tgid_alloc(). The tasks reads sig->stats without
 *           holding sighand lock seeing garbage.
 *     cpu1: task calls exit_group(): do_exit() -> do_group_exit() ->
 *           taskstats_exit() -> taskstats_tgid_alloc(). The task takes
 *           sighand lock and assigns new stats to sig->stats.
 *
 * Each thread group is a set of pthreads sharing a signal_struct. Its
 * threads run for a while, accounting their "system calls" into their own
 * task_struct; then one of them calls exit_group(), which kills the others,
 * and all of them go through do_exit() -> taskstats_exit() together. The
 * program's main thread is the parent: it starts one group after another,
 * reaps each (joins its threads) and frees its signal_struct, and with it
 * the per-group statistics (taskstats_tgid_free()).
 *
 * No netlink listener is registered, as on most systems: taskstats_exit()
 * accounts into sig->stats and returns before building a message.
 *
 * Default build: before the fix. -DFIXED: the v5 fix
 * (smp_load_acquire()/smp_store_release()). -DWRITE_ONCE_PUBLISH: the
 * check marked with READ_ONCE() and the publication with WRITE_ONCE(), no
 * acquire/release: no data race, but a missing barrier, which
 * weak_memory=1 reports (build with ucsan-cc --ucsan-weak-memory).
 *
 *     build/bin/ucsan-cc -O2 examples/taskstats/taskstats.c -o taskstats -pthread
 *     ./taskstats [seconds] [threads per group]
 */
#define _GNU_SOURCE
#include <string.h>

#include "../kernel_user.h"
#define __inline_helper static inline __attribute__((always_inline))

typedef struct {
	int counter;
} atomic_t;
#define atomic_set(v, i) WRITE_ONCE((v)->counter, (i))
#define atomic_dec_and_test(v) (__atomic_sub_fetch(&(v)->counter, 1, __ATOMIC_SEQ_CST) == 0)
#define set_bit(nr, addr) ((void)__atomic_fetch_or((addr), 1UL << (nr), __ATOMIC_SEQ_CST))
#define test_bit(nr, addr) ((READ_ONCE(*(addr)) >> (nr)) & 1UL)

/* spin_lock_irq(&sighand->siglock): a mutex does here. */
typedef pthread_mutex_t spinlock_t;
#define spin_lock_irq(l) pthread_mutex_lock(l)
#define spin_unlock_irq(l) pthread_mutex_unlock(l)

/* struct list_head with the RCU-safe deletion (include/linux/rculist.h). */
struct list_head {
	struct list_head *next, *prev;
};

__inline_helper bool list_empty(const struct list_head *head)
{
	return READ_ONCE(head->next) == head;
}

static void list_add_tail(struct list_head *new, struct list_head *head)
{
	struct list_head *prev = head->prev;

	new->next = head;
	new->prev = prev;
	prev->next = new;
	head->prev = new;
}

static void list_del_rcu(struct list_head *entry)
{
	entry->next->prev = entry->prev;
	WRITE_ONCE(entry->prev->next, entry->next);
	entry->prev = NULL; /* LIST_POISON2 */
}

/* === Tasks and signals (include/linux/sched.h, sched/signal.h, reduced) === */

#define SIGNAL_GROUP_EXIT 0x00000004
#define TIF_SIGPENDING 2
#define SIGKILL 9

/* include/uapi/linux/taskstats.h, a few of its fields */
struct taskstats {
	u16 version;
	u32 ac_exitcode;
	u64 cpu_count;
	u64 cpu_run_real_total;
	u64 blkio_count;
	u64 blkio_delay_total;
	u64 read_char;
	u64 write_char;
	u64 read_syscalls;
	u64 write_syscalls;
};

struct sighand_struct {
	spinlock_t siglock;
};

struct signal_struct {
	atomic_t live;
	atomic_t started; /* the model's: threads running so far, */
	int group_size;   /* out of this many */
	int nr_threads;
	unsigned int flags; /* SIGNAL_* */
	int group_exit_code;
	struct taskstats *stats;
};

struct task_io_accounting {
	u64 rchar, wchar, syscr, syscw;
};

struct task_delay_info {
	u64 blkio_delay; /* wait for sync block io completion */
	u32 blkio_count;
};

struct task_struct {
	unsigned long thread_flags; /* thread_info.flags: TIF_* */
	int pid, tgid;
	struct signal_struct *signal;
	struct sighand_struct *sighand;
	struct list_head thread_group;
	unsigned long pending_signal; /* pending.signal, a sigset */
	u64 utime, stime;
	struct task_io_accounting ioac;
	struct task_delay_info delays;
	pthread_t thread;
	unsigned int work; /* how many system calls it makes before the end */
	u16 tgid_stats_version; /* WRITE_ONCE_PUBLISH: what it read unlocked */
};

/* All threads of a group are on one ring through thread_group. */
__inline_helper bool thread_group_empty(struct task_struct *p)
{
	return list_empty(&p->thread_group);
}

#define next_thread(p) ((struct task_struct *)((char *)(p)->thread_group.next - \
	__builtin_offsetof(struct task_struct, thread_group)))

__inline_helper bool signal_group_exit(const struct signal_struct *sig)
{
	return sig->flags & SIGNAL_GROUP_EXIT;
}

/* The current task of each pthread. */
static __thread struct task_struct *current;

/* === kernel/taskstats.c === */

static const bool family_registered = true;

/* The slab allocator: out of line, as in the kernel. */
static __noinline struct taskstats *kmem_cache_alloc(void)
{
	return malloc(sizeof(struct taskstats));
}

/* __GFP_ZERO: the object is zeroed in the caller's sight, the stores that
 * a release must order before the pointer's publication. (Not memset():
 * gcc expands a small one inline, where no instrumentation sees it.) */
__inline_helper struct taskstats *kmem_cache_zalloc(void)
{
	struct taskstats *stats = kmem_cache_alloc();

	if (stats)
		*stats = (struct taskstats){ 0 };
	return stats;
}

static void kmem_cache_free(struct taskstats *stats)
{
	free(stats);
}

/* kernel/delayacct.c: adds tsk's numbers to d. */
static void delayacct_add_tsk(struct taskstats *d, struct task_struct *tsk)
{
	s64 tmp;

	tmp = (s64)d->cpu_run_real_total;
	tmp += tsk->utime + tsk->stime;
	d->cpu_run_real_total = (tmp < (s64)d->cpu_run_real_total) ? 0 : tmp;
	d->cpu_count++;

	/* zero XXX_total, non-zero XXX_count implies XXX stat overflowed */
	tmp = d->blkio_delay_total + tsk->delays.blkio_delay;
	d->blkio_delay_total = (tmp < (s64)d->blkio_delay_total) ? 0 : tmp;
	d->blkio_count += tsk->delays.blkio_count;

	/* xacct_add_tsk() */
	d->read_char += tsk->ioac.rchar;
	d->write_char += tsk->ioac.wchar;
	d->read_syscalls += tsk->ioac.syscr;
	d->write_syscalls += tsk->ioac.syscw;
}

static void fill_tgid_exit(struct task_struct *tsk)
{
	spin_lock_irq(&tsk->sighand->siglock);
	if (!tsk->signal->stats)
		goto ret;

	/* Each accounting subsystem calls its functions here to accumalate
	 * its per-task stats for tsk, into the per-tgid structure
	 *
	 *	per-task-foo(tsk->signal->stats, tsk); */
	delayacct_add_tsk(tsk->signal->stats, tsk);
ret:
	spin_unlock_irq(&tsk->sighand->siglock);
}

static __noinline struct taskstats *taskstats_tgid_alloc(struct task_struct *tsk)
{
	struct signal_struct *sig = tsk->signal;
#ifdef FIXED
	struct taskstats *stats_new, *stats;

	/* Pairs with smp_store_release() below. */
	stats = smp_load_acquire(&sig->stats);
	if (stats || thread_group_empty(tsk))
		return stats;

	/* No problem if kmem_cache_zalloc() fails */
	stats_new = kmem_cache_zalloc();

	spin_lock_irq(&tsk->sighand->siglock);
	if (!sig->stats) {
		/*
		 * Pairs with smp_store_release() above and order the
		 * kmem_cache_zalloc().
		 */
		smp_store_release(&sig->stats, stats_new);
		stats_new = NULL;
	}
	spin_unlock_irq(&tsk->sighand->siglock);

	if (stats_new)
		kmem_cache_free(stats_new);

	return sig->stats;
#elif defined(WRITE_ONCE_PUBLISH)
	struct sighand_struct *const sighand = tsk->sighand;
	struct taskstats *stats_new, *stats;

	/* Every access to sig->stats marked, so no data race; but nothing
	 * orders the zeroing below before the pointer a reader finds here. */
	stats = READ_ONCE(sig->stats);
	if (stats || thread_group_empty(tsk))
		return stats;

	/* No problem if kmem_cache_zalloc() fails */
	stats_new = kmem_cache_zalloc();

	spin_lock_irq(&sighand->siglock);
	if (!READ_ONCE(sig->stats)) {
		/* The mistake: a marked store, not a release. On a weakly
		 * ordered CPU the zeroed object may become visible after the
		 * pointer to it. */
		WRITE_ONCE(sig->stats, stats_new);
		stats_new = NULL;
	}
	spin_unlock_irq(&sighand->siglock);

	if (stats_new)
		kmem_cache_free(stats_new);

	return READ_ONCE(sig->stats);
#else
	struct taskstats *stats;

	if (sig->stats || thread_group_empty(tsk))
		goto ret;

	/* No problem if kmem_cache_zalloc() fails */
	stats = kmem_cache_zalloc();

	spin_lock_irq(&tsk->sighand->siglock);
	if (!sig->stats) {
		sig->stats = stats;
		stats = NULL;
	}
	spin_unlock_irq(&tsk->sighand->siglock);

	if (stats)
		kmem_cache_free(stats);
ret:
	return sig->stats;
#endif
}

/* Frees the per-tgid stats when the signal_struct goes. */
static void taskstats_tgid_free(struct signal_struct *sig)
{
	if (sig->stats)
		kmem_cache_free(sig->stats);
}

/* Send pid data out on exit. */
static __noinline void taskstats_exit(struct task_struct *tsk, int group_dead)
{
	struct taskstats *stats;
	int is_thread_group;

	(void)group_dead;
	if (!family_registered)
		return;

	stats = taskstats_tgid_alloc(tsk);
	is_thread_group = !!stats;
#ifdef WRITE_ONCE_PUBLISH
	/*
	 * The lockless reader that the acquire/release pairing exists for.
	 * Upstream, the thread only touches the statistics under siglock
	 * (fill_tgid_exit()); this one first reads their version, as a reply
	 * to a listener would carry it, without the lock.
	 */
	if (is_thread_group)
		tsk->tgid_stats_version = stats->version;
#endif
	if (is_thread_group) {
		/* PID + STATS + TGID + STATS: the message size doubles */
		/* fill the tsk->signal->stats structure */
		fill_tgid_exit(tsk);
	}

	/* listeners = raw_cpu_ptr(&listener_array); if (list_empty(...))
	 * return: nobody listens, so no reply is prepared. */
}

/* === kernel/exit.c, kernel/signal.c (reduced) === */

/* Unlinks a dead thread from its group (__exit_signal(), __unhash_process()). */
static void release_task(struct task_struct *p)
{
	struct sighand_struct *sighand = p->sighand;

	spin_lock_irq(&sighand->siglock); /* and tasklist_lock, upstream */
	p->signal->nr_threads--;
	list_del_rcu(&p->thread_group);
	spin_unlock_irq(&sighand->siglock);
}

static __noinline __attribute__((noreturn)) void do_exit(long code)
{
	struct task_struct *tsk = current;
	int group_dead;

	group_dead = atomic_dec_and_test(&tsk->signal->live);
	if (group_dead) {
		/* acct_process(), the group's last thread: nothing to do */
	}
	taskstats_exit(tsk, group_dead);

	/* exit_notify(): a thread that is not the group leader reaps itself;
	 * the model treats the leader alike (its parent only joins). */
	(void)code;
	release_task(tsk);

	pthread_exit(NULL); /* do_task_dead(): a task never returns from here */
}

/* Nuke all other threads in the group (kernel/signal.c). */
static void zap_other_threads(struct task_struct *p)
{
	struct task_struct *t = p;

	while ((t = next_thread(t)) != p) {
		/* Don't bother with already dead threads */
		t->pending_signal |= 1UL << SIGKILL; /* sigaddset() */
		set_bit(TIF_SIGPENDING, &t->thread_flags); /* signal_wake_up() */
	}
}

/*
 * Take down every thread in the group. This is called by fatal signals as
 * well as by sys_exit_group (below).
 */
static __noinline __attribute__((noreturn)) void do_group_exit(int exit_code)
{
	struct signal_struct *sig = current->signal;

	if (signal_group_exit(sig)) {
		exit_code = sig->group_exit_code;
	} else if (!thread_group_empty(current)) {
		struct sighand_struct *const sighand = current->sighand;

		spin_lock_irq(&sighand->siglock);
		if (signal_group_exit(sig)) {
			/* Another thread got here before we took the lock. */
			exit_code = sig->group_exit_code;
		} else {
			sig->group_exit_code = exit_code;
			sig->flags = SIGNAL_GROUP_EXIT;
			zap_other_threads(current);
		}
		spin_unlock_irq(&sighand->siglock);
	}

	do_exit(exit_code);
}

/* The SIGKILL that zap_other_threads() sent, as get_signal() finds it. */
static __noinline void get_signal(void)
{
	struct sighand_struct *sighand = current->sighand;
	int exit_code = 0;

	spin_lock_irq(&sighand->siglock);
	if (current->pending_signal & (1UL << SIGKILL))
		exit_code = SIGKILL;
	spin_unlock_irq(&sighand->siglock);
	if (exit_code)
		do_group_exit(exit_code); /* fatal: the whole group goes */
}

/* === A thread's life === */


/* One "system call", accounted to the thread itself. */
static void account_syscall(struct task_struct *tsk, unsigned int i)
{
	tsk->utime += 3;
	tsk->stime += 1 + (i & 7);
	if (i & 1) {
		tsk->ioac.syscr++;
		tsk->ioac.rchar += 512;
	} else {
		tsk->ioac.syscw++;
		tsk->ioac.wchar += 128;
	}
	if ((i & 15) == 0) {
		tsk->delays.blkio_count++;
		tsk->delays.blkio_delay += 1000;
	}
}

static void *task_main(void *arg)
{
	struct task_struct *tsk = arg;

	current = tsk;
	/* A group's threads die on different CPUs, like the changelog's
	 * cpu0 and cpu1. */
	run_on_cpu(tsk->pid - tsk->tgid);
	/* The group's threads were all created long before it dies: start
	 * the clock when the last one runs. */
	__atomic_add_fetch(&tsk->signal->started.counter, 1, __ATOMIC_SEQ_CST);
	while (READ_ONCE(tsk->signal->started.counter) < tsk->signal->group_size)
		sched_yield();

	for (unsigned int i = 0; i < tsk->work; i++) {
		account_syscall(tsk, i);
		/* Back to user space: a pending signal is delivered. */
		if (test_bit(TIF_SIGPENDING, &tsk->thread_flags))
			get_signal();
	}

	if (tsk->pid == tsk->tgid) {
		/* The group leader's work is done: exit_group(0). */
		do_group_exit(0);
	} else {
		/* The others wait for the signal (a blocking system call,
		 * woken by signal_wake_up()), then die of it. */
		while (!test_bit(TIF_SIGPENDING, &tsk->thread_flags))
			sched_yield();
		get_signal();
	}
	return NULL;
}

/* === The parent === */

static u32 rng_state = 0x2545f491;

static u32 rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

struct totals {
	unsigned long groups, threads, grouped;
	u64 syscalls;
};

/* Starts a thread group of n threads, waits for it to die, and frees it. */
static void run_group(int n, int tgid, struct totals *tot)
{
	struct signal_struct *sig = calloc(1, sizeof(*sig));
	struct sighand_struct *sighand = calloc(1, sizeof(*sighand));
	struct task_struct *tasks = calloc(n, sizeof(*tasks));

	if (!sig || !sighand || !tasks)
		abort();
	pthread_mutex_init(&sighand->siglock, NULL);
	atomic_set(&sig->live, n);
	sig->nr_threads = n;
	sig->group_size = n;
	tasks[0].thread_group.next = tasks[0].thread_group.prev = &tasks[0].thread_group;
	for (int i = 0; i < n; i++) {
		struct task_struct *t = &tasks[i];

		t->pid = tgid + i;
		t->tgid = tgid;
		t->signal = sig;
		t->sighand = sighand;
		/* Threads live for 400..1199 "system calls": the leader's
		 * exit_group() catches the others anywhere in theirs. */
		t->work = 400 + rnd() % 800;
		if (i)
			list_add_tail(&t->thread_group, &tasks[0].thread_group);
	}
	for (int i = 0; i < n; i++)
		if (pthread_create(&tasks[i].thread, NULL, task_main, &tasks[i]))
			abort();
	for (int i = 0; i < n; i++)
		pthread_join(tasks[i].thread, NULL); /* wait(): reap */

	/* __cleanup_signal() */
	if (sig->stats) {
		tot->grouped++;
		tot->syscalls += sig->stats->read_syscalls + sig->stats->write_syscalls;
	}
	taskstats_tgid_free(sig);
	pthread_mutex_destroy(&sighand->siglock);
	free(sighand);
	free(sig);
	free(tasks);
	tot->groups++;
	tot->threads += n;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 3;
	int n = argc > 2 ? atoi(argv[2]) : 2;
	struct totals tot = { 0 };
	double end;

	if (n < 2)
		n = 2;
#if defined(FIXED)
	printf("taskstats (fixed: v5, smp_load_acquire/smp_store_release), %.1f s, %d threads per group\n",
	       seconds, n);
#elif defined(WRITE_ONCE_PUBLISH)
	printf("taskstats (READ_ONCE/WRITE_ONCE: no acquire/release), %.1f s, %d threads per group\n", seconds, n);
#else
	printf("taskstats (buggy: before the fix), %.1f s, %d threads per group\n", seconds, n);
#endif
	fflush(stdout);

	end = now() + seconds;
	for (int tgid = 1000; now() < end; tgid += n)
		run_group(n, tgid, &tot);

	printf("thread groups %lu, threads %lu, groups with tgid stats %lu, syscalls accounted %llu\n", tot.groups,
	       tot.threads, tot.grouped, (unsigned long long)tot.syscalls);
	return 0;
}
