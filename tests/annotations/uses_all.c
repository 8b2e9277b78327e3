/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Uses every macro and function of <ucsan.h> and <ucsan/kernel.h>, once or
 * more, in the way docs/annotations.md shows them. tests/annotations/run.sh
 * builds it
 *   - without ucsan (gcc, clang, g++, clang++; -std=c11 / -std=c++11 with
 *     -Wall -Wextra -Werror): the object must need no ucsan or tsan symbol,
 *     and the program must link without libucsan and run;
 *   - with ucsan-cc / ucsan-c++: the object must call the runtime's API.
 * Single-threaded: it checks that the annotations compile, link, keep the
 * program's values and are balanced, not that races are found.
 *
 * No libc calls, so that a plain object has no undefined symbol at all.
 * main() returns 0 when every computed value is right; with
 * -DEXPECT_INSTRUMENTED=0/1 it also checks UCSAN_INSTRUMENTED.
 */
#include <ucsan.h>
#include <ucsan/kernel.h>

struct node {
	int val;
	struct node *next;
};

static int flag;                 /* marked accesses */
static long counter;             /* statistics, assertions */
static unsigned long flags;      /* ASSERT_EXCLUSIVE_BITS */
static unsigned int seq;         /* seqlock sequence */
static int payload_a, payload_b; /* seqlock payload */
static int asm_target;           /* written by inline assembly */
static struct node node1 = { 20, 0 };
static struct node *head;        /* RCU-published pointer */
static struct node spare = { 40, 0 };
static struct node *stats;       /* double-checked initialisation */
static int hidden;               /* touched by UCSAN_NO_SANITIZE code */

/* Options from code (a plain definition without ucsan). */
const char *__ucsan_default_options(void)
{
	return "";
}

/* Marked accesses, both spellings: returns 2. */
static int marked(void)
{
	UCSAN_WRITE_ONCE(flag, 1);
	WRITE_ONCE(flag, UCSAN_READ_ONCE(flag) + 1);
	return READ_ONCE(flag);
}

/* Intentional races: returns 42. */
static long statistics(void)
{
	counter += 40;
	return UCSAN_DATA_RACE(counter) + data_race(counter) / 40 + 1;
}

/* Plain assertions, both spellings. */
static void assertions(void)
{
	UCSAN_ASSERT_EXCLUSIVE_WRITER(counter);
	UCSAN_ASSERT_EXCLUSIVE_ACCESS(counter);
	UCSAN_ASSERT_EXCLUSIVE_BITS(flags, 0xf0UL);
	flags = (flags & ~0xf0UL) | 0x30UL;
	ASSERT_EXCLUSIVE_WRITER(counter);
	ASSERT_EXCLUSIVE_ACCESS(counter);
	ASSERT_EXCLUSIVE_BITS(flags, 0x0fUL);
	flags |= 0x01UL;
}

/* Scoped assertions, nested scopes, both spellings: returns 41. */
static long scoped(void)
{
	UCSAN_ASSERT_EXCLUSIVE_WRITER_SCOPED(counter);
	UCSAN_ASSERT_EXCLUSIVE_ACCESS_SCOPED(asm_target);
	{
		ASSERT_EXCLUSIVE_WRITER_SCOPED(counter);
		ASSERT_EXCLUSIVE_ACCESS_SCOPED(flags);
		flags &= ~0x01UL;
	}
	counter++;
	return counter;
}

/* The scoped-access functions called directly. */
static void scoped_by_hand(void)
{
	struct ucsan_scoped_access sa;
	struct ucsan_scoped_access *p =
		ucsan_begin_scoped_access(&counter, sizeof(counter), UCSAN_ACCESS_ASSERT, &sa);
	counter--;
	ucsan_end_scoped_access(p);
	counter++;
}

/* Memory written behind the compiler's back: returns v. */
static int explicit_checks(int v)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ volatile("movl %1, %0" : "=m"(asm_target) : "r"(v));
#else
	ucsan_disable_current();
	asm_target = v;
	ucsan_enable_current();
#endif
	ucsan_check_write(&asm_target, sizeof(asm_target));
	ucsan_check_read(&asm_target, sizeof(asm_target));
	ucsan_check_read_write(&asm_target, sizeof(asm_target));
	ucsan_check_access(&asm_target, sizeof(asm_target), UCSAN_ACCESS_ATOMIC);
	ucsan_check_access(&asm_target, sizeof(asm_target),
			   UCSAN_ACCESS_WRITE | UCSAN_ACCESS_COMPOUND | UCSAN_ACCESS_ATOMIC);
	ucsan_check_access(&asm_target, 0, UCSAN_ACCESS_WRITE); /* checks nothing */
	return asm_target;
}

/* The access type bits are distinct: returns 0x1f. */
static int access_types(void)
{
	return UCSAN_ACCESS_WRITE | UCSAN_ACCESS_COMPOUND | UCSAN_ACCESS_ATOMIC | UCSAN_ACCESS_ASSERT |
	       UCSAN_ACCESS_SCOPED;
}

/* A seqlock: the writer bumps seq to odd, writes, bumps it to even. */
static void seqlock_write(int a, int b)
{
	WRITE_ONCE(seq, seq + 1);
	smp_wmb();
	ucsan_flat_atomic_begin();
	payload_a = a;
	payload_b = b;
	ucsan_flat_atomic_end();
	smp_store_release(&seq, seq + 1);
}

/* The reader retries until it saw an even, unchanged seq. */
static int seqlock_read(void)
{
	unsigned int s;
	int a, b;

	do {
		s = smp_load_acquire(&seq);
		ucsan_nestable_atomic_begin();
		ucsan_nestable_atomic_begin(); /* nests */
		a = payload_a;
		ucsan_nestable_atomic_end();
		b = payload_b;
		ucsan_nestable_atomic_end();
		smp_rmb();
	} while ((s & 1) || READ_ONCE(seq) != s);
	return a + b;
}

/* Next-n marking, masks, enabling: returns 7. */
static int context_controls(void)
{
	int x;

	ucsan_atomic_next(2);
	x = payload_a;
	x += payload_b;
	ucsan_atomic_next(3);
	ucsan_atomic_next(0); /* ends it early */

	ucsan_set_access_mask(0xffUL);
	x += (int)(flags & 0xffUL);
	ucsan_set_access_mask(0);

	ucsan_disable_current();
	ucsan_disable_current(); /* nests */
	x++;
	ucsan_enable_current();
	ucsan_enable_current();

	ucsan_set_enabled(0);
	x++;
	ucsan_set_enabled(1);
	smp_mb();
	return x;
}

/* RCU publication: returns 40. */
static int rcu(void)
{
	struct node *n;

	RCU_INIT_POINTER(head, (struct node *)0);
	node1.next = &spare;
	rcu_assign_pointer(head, &node1);
	n = rcu_dereference(head);
	if (rcu_access_pointer(head) != n)
		return -1;
	return n->val + rcu_dereference_protected(head, 1)->val;
}

/* taskstats' double-checked initialisation, with the fix: returns 40. */
static int get_stats(void)
{
	struct node *s = smp_load_acquire(&stats); /* pairs with the release */

	if (!s) {
		/* (the lock would be taken here) */
		if (!stats)
			smp_store_release(&stats, &spare);
		s = stats;
	}
	return s->val;
}

/* Functions ucsan must not see. */
UCSAN_NO_SANITIZE static int hidden_inc(void)
{
	hidden++;
	return __atomic_fetch_add(&hidden, 1, __ATOMIC_RELAXED) + 1;
}

static __no_kcsan int hidden_dec(void)
{
	return --hidden;
}

int main(void)
{
	int bad = 0;
	int UCSAN_CONCAT(local_, 1) = 5; /* local_1 */

#ifdef EXPECT_INSTRUMENTED
	bad |= (UCSAN_INSTRUMENTED != EXPECT_INSTRUMENTED) << 0;
#endif
	bad |= (marked() != 2) << 1;
	bad |= (statistics() != 42) << 2;
	assertions();
	bad |= (flags != 0x31UL) << 3;
	bad |= (scoped() != 41) << 4;
	scoped_by_hand();
	bad |= (explicit_checks(local_1) != 5) << 5;
	bad |= (access_types() != 0x1f) << 6;
	seqlock_write(3, 4);
	bad |= (seqlock_read() != 7 || seq != 2) << 7;
	bad |= (context_controls() != 7 + 0x30 + 2) << 8;
	bad |= (rcu() != 40) << 9;
	bad |= (get_stats() != 40 || get_stats() != 40) << 10;
	bad |= (hidden_inc() != 2 || hidden_dec() != 1) << 11;
	return bad;
}
