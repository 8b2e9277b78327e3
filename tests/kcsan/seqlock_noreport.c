// kcsan_test: test_seqlock_noreport.  Readers of a sequence lock read the
// protected data with plain accesses while a writer changes it: such reads
// race by design and are discarded when the sequence changed.  With the
// annotations the kernel's seqlock uses -- the writer's critical section is
// a nestable atomic region, a reader's section is covered by
// ucsan_atomic_next(N), ended with ucsan_atomic_next(0) -- nothing is
// reported, even with strict=1.  Both threads both read and write; writers
// exclude each other with a spinlock.
//
// OPTIONS: skip_watch=0 udelay_task=5 strict=1
// TIMEOUT: 20
// NOT: BUG: UCSAN|UCSAN: reported|UCSAN: warning

#include "kcsan_test.h"

/* At most this many plain accesses in a read section (the kernel: 1000). */
#define SEQ_READ_REGION_MAX 1000

struct seqlock {
	unsigned int sequence;	/* odd while a writer is inside */
	int lock;		/* writers' spinlock */
};

static struct seqlock test_seqlock;

static inline unsigned int read_seqbegin(struct seqlock *sl)
{
	unsigned int seq;

	while ((seq = READ_ONCE(sl->sequence)) & 1)
		cpu_relax();
	smp_rmb();
	/* The plain reads of the section are expected to race. */
	ucsan_atomic_next(SEQ_READ_REGION_MAX);
	return seq;
}

static inline int read_seqretry(struct seqlock *sl, unsigned int seq)
{
	smp_rmb();
	ucsan_atomic_next(0);
	return READ_ONCE(sl->sequence) != seq;
}

static inline void write_seqlock(struct seqlock *sl)
{
	while (__atomic_exchange_n(&sl->lock, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&sl->lock, __ATOMIC_RELAXED))
			cpu_relax();
	/* Readers may race with everything until the unlock. */
	ucsan_nestable_atomic_begin();
	sl->sequence++;
	smp_wmb();
}

static inline void write_sequnlock(struct seqlock *sl)
{
	smp_wmb();
	sl->sequence++;
	ucsan_nestable_atomic_end();
	__atomic_store_n(&sl->lock, 0, __ATOMIC_RELEASE);
}

NOINLINE void test_kernel_seqlock_reader(void)
{
	unsigned int seq;

	do {
		seq = read_seqbegin(&test_seqlock);
		sink_value(test_var);
	} while (read_seqretry(&test_seqlock, seq));
}

NOINLINE void test_kernel_seqlock_writer(void)
{
	write_seqlock(&test_seqlock);
	test_var++;
	write_sequnlock(&test_seqlock);
}

int main(void)
{
	kcsan_run2(test_kernel_seqlock_reader, test_kernel_seqlock_writer, 1500);
	return 0;
}
